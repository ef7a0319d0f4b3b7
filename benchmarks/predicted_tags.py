"""Parsing the PTB sample with predicted part-of-speech tags (tag, then parse).

A tagger (``PredictedTags``' default: an averaged perceptron on ``TokenFeatures`` of the
form, 10 epochs) is trained on the gold XPOS of ptb-sample/train; a first-order Eisner
parser (averaged perceptron, 10 epochs) on the gold-tagged training trees. The test
trees are parsed twice: with their gold tags and with the tagger's. Punctuation (by
gold PTB tag) is left out of UAS, as in the other parsing results.

Run: ``python benchmarks/predicted_tags.py`` (the corpus is read from
``$SKSTRUCT_DATA``/``~/skstruct_data``, or downloaded).
"""

import time

from skstruct import Eisner, PredictedTags, StructuredPerceptron
from skstruct.datasets import fetch_ptb_sample
from skstruct.metrics import PTB_PUNCTUATION_TAGS, attachment_scores, token_accuracy


def main():
    train, test = fetch_ptb_sample("train"), fetch_ptb_sample("test")
    start = time.perf_counter()
    tags = PredictedTags(random_state=0).fit(train.data)
    tagged = tags.transform(test.data)
    tag_seconds = time.perf_counter() - start
    gold_tags = [[token["xpos"] for token in sentence] for sentence in test.data]
    predicted_tags = [[token["xpos"] for token in sentence] for sentence in tagged]
    print(f"tagger: {100 * token_accuracy(gold_tags, predicted_tags):.2f} % tag accuracy on "
          f"test ({tag_seconds:.1f} s to train and tag)")  # fmt: skip

    start = time.perf_counter()
    parser = StructuredPerceptron(Eisner(), max_iter=10, random_state=0)
    parser.fit(train.data, train.target)
    print(f"parser: Eisner, 10 epochs on gold tags, {time.perf_counter() - start:.1f} s")
    for name, X in (("gold tags", test.data), ("predicted tags", tagged)):
        # punctuation is decided on the gold tags in both rows, so both score the same words
        scores = attachment_scores(
            test.target, parser.predict(X), X=test.data, punct=PTB_PUNCTUATION_TAGS
        )
        print(f"UAS with {name}: {100 * scores['uas']:.2f} ({scores['n_words']} words)")


if __name__ == "__main__":
    main()
