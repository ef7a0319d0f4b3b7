"""Issue 36: the Universal Dependencies pipeline on UD English-EWT 2.5, scored as the
CoNLL 2018 shared task scores it for gold tokenization (``conll18_scores``).

So far: the part-of-speech taggers (``PredictedTags``: an averaged perceptron on
``TokenFeatures`` of the form, for UPOS and for XPOS), the morphological tagger
(``PredictedFeats``: the whole FEATS set as one label) and the lemmatiser
(``PredictedLemmas``: edit scripts); the last two read the gold UPOS, then the
tagger's, as a pipeline would. AllTags is scored on the three taggers' output. Each
component is trained on train, scored on dev; ``--test`` scores the test split too (once,
with the settings chosen on dev). UDPipe 1's published UD 2.5 model scores, on test: UPOS
94.4, XPOS 93.9, UFeats 95.4, AllTags 92.5, Lemmas 96.4.

Run: ``python benchmarks/bench_ud.py [--epochs N] [--test]`` (the treebank is read from
``$SKSTRUCT_DATA``/``~/skstruct_data``, or downloaded by ``fetch_ud``).
"""

import argparse
import time

from skstruct import (
    PredictedFeats,
    PredictedLemmas,
    PredictedTags,
    StructuredPerceptron,
    TokenFeatures,
)
from skstruct.datasets import fetch_ud
from skstruct.metrics import conll18_scores


def _timed(call):
    start = time.perf_counter()
    out = call()
    return out, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--test", action="store_true", help="score the test split too")
    args = parser.parse_args()
    train = fetch_ud("en_ewt", "train").data
    splits = {"dev": fetch_ud("en_ewt", "dev").data}
    if args.test:
        splits["test"] = fetch_ud("en_ewt", "test").data
    print(f"UD English-EWT 2.5: {len(train)} training sentences, {args.epochs} epochs")

    def tagger():
        return StructuredPerceptron(features=TokenFeatures(), max_iter=args.epochs,
                                    random_state=0)  # fmt: skip

    taggers = {}
    for field in ("upos", "xpos"):
        taggers[field], seconds = _timed(
            lambda field=field: PredictedTags(tagger(), field=field).fit(train)
        )
        for name, gold in splits.items():
            predicted, tag_seconds = _timed(lambda gold=gold, f=field: taggers[f].transform(gold))
            score = conll18_scores(gold, predicted)[field.upper()].f1
            print(f"{field.upper()} tagger: {name} {100 * score:.2f} (fit {seconds:.1f} s, "
                  f"tag {tag_seconds:.1f} s)")  # fmt: skip

    feats, seconds = _timed(lambda: PredictedFeats(max_iter=args.epochs, random_state=0).fit(train))
    for name, gold in splits.items():
        with_gold, feats_seconds = _timed(lambda gold=gold: feats.transform(gold))
        tagged = taggers["xpos"].transform(taggers["upos"].transform(gold))
        predicted = feats.transform(tagged)
        gold_upos = conll18_scores(gold, with_gold)["UFeats"].f1
        scores = conll18_scores(gold, predicted)
        print(f"UFeats: {name} {100 * gold_upos:.2f} with gold UPOS, "
              f"{100 * scores['UFeats'].f1:.2f} with predicted UPOS; AllTags "
              f"{100 * scores['AllTags'].f1:.2f} (fit {seconds:.1f} s, "
              f"tag {feats_seconds:.1f} s)")  # fmt: skip

    lemmas, seconds = _timed(
        lambda: PredictedLemmas(max_iter=args.epochs, random_state=0).fit(train)
    )
    for name, gold in splits.items():
        with_gold, lemma_seconds = _timed(lambda gold=gold: lemmas.transform(gold))
        with_predicted = lemmas.transform(taggers["upos"].transform(gold))
        gold_upos = conll18_scores(gold, with_gold)["Lemmas"].f1
        predicted_upos = conll18_scores(gold, with_predicted)["Lemmas"].f1
        print(f"Lemmas: {name} {100 * gold_upos:.2f} with gold UPOS, "
              f"{100 * predicted_upos:.2f} with predicted UPOS (fit {seconds:.1f} s, "
              f"lemmatise {lemma_seconds:.1f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
