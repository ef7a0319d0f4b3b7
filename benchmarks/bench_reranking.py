"""n-best reranking of a first-order dependency parser (issue 37), PTB sample.

The base model is ``StructuredPerceptron(Eisner())`` (first order, default
``ArcFeatures``). :class:`skstruct.NBestReranker` lists its ``--n-best`` best trees of
every training sentence by jack-knifing (``--cv`` folds) and learns to choose among
them with :class:`skstruct.features.DependencyTreeFeatures` and the base score.
Printed, for the evaluation split (dev by default, ``--test`` for test; UAS without
punctuation, PTB tags): the base model's UAS, the oracle UAS of its n-best lists (the
best candidate of each), and the reranked UAS of each learner, with fit seconds.

Run: ``python benchmarks/bench_reranking.py [--test] [--n-best 20] [--cv 5] [--no-words]
[--learners perceptron pa crf]``
The corpora come from ``$SKSTRUCT_DATA`` or ``~/skstruct_data``.
"""

import argparse
import time

from skstruct import (
    AROW,
    BestCandidate,
    ConditionalRandomField,
    Eisner,
    NBestReranker,
    PassiveAggressive,
    StructuredPerceptron,
    StructuredSVM,
)
from skstruct.datasets import fetch_ptb_sample
from skstruct.features import DependencyTreeFeatures
from skstruct.metrics import PTB_PUNCTUATION_TAGS, attachment_scores

LEARNERS = {
    "perceptron": lambda: StructuredPerceptron(BestCandidate(), max_iter=10, random_state=0),
    "pa": lambda: PassiveAggressive(BestCandidate(), max_iter=10, random_state=0),
    "arow": lambda: AROW(BestCandidate(), max_iter=10, random_state=0),
    "crf": lambda: ConditionalRandomField(BestCandidate(), max_iter=100),
    "bcfw": lambda: StructuredSVM(BestCandidate(), max_iter=20, random_state=0),
}


def _uas(X, y, predicted):
    return 100 * attachment_scores(y, predicted, X=X, punct=PTB_PUNCTUATION_TAGS)["uas"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--test", action="store_true", help="score the test split (else dev)")
    parser.add_argument("--n-best", type=int, default=20)
    parser.add_argument("--cv", type=int, default=5)
    parser.add_argument("--no-words", action="store_true", help="leave the word features out")
    parser.add_argument("--learners", nargs="+", default=["perceptron"], choices=list(LEARNERS))
    parser.add_argument("--n-jobs", type=int, default=None)
    args = parser.parse_args(argv)

    X, y = fetch_ptb_sample("train", return_X_y=True)
    split = "test" if args.test else "dev"
    X_eval, y_eval = fetch_ptb_sample(split, return_X_y=True)
    print(f"PTB sample: {len(X)} training trees, {len(X_eval)} {split} trees; "
          f"n_best={args.n_best}, cv={args.cv}")  # fmt: skip
    base = StructuredPerceptron(Eisner(), random_state=0)
    features = DependencyTreeFeatures(words=not args.no_words)
    first = None
    for name in args.learners:
        reranker = NBestReranker(base, features, LEARNERS[name](), n_best=args.n_best,
                                 cv=args.cv, n_jobs=args.n_jobs, random_state=0)  # fmt: skip
        start = time.perf_counter()
        reranker.fit(X, y)
        seconds = time.perf_counter() - start
        if first is None:
            first = reranker
            lists = reranker.base_.predict_nbest(X_eval, k=args.n_best)
            base_uas = _uas(X_eval, y_eval, [best[0][0] for best in lists])
            oracle = [
                min(best, key=lambda c, g=gold: sum(h != t for h, t in zip(c[0], g)))[0]
                for best, gold in zip(lists, y_eval)
            ]
            print(f"base {split} UAS {base_uas:.2f}; oracle of {args.n_best}-best "
                  f"{_uas(X_eval, y_eval, oracle):.2f}; training oracle "
                  f"{100 * reranker.oracle_score_:.2f} (all words)")  # fmt: skip
        uas = _uas(X_eval, y_eval, reranker.predict(X_eval))
        print(f"reranked by {name:<10} {split} UAS {uas:.2f} ({uas - base_uas:+.2f}); "
              f"fit {seconds:.1f} s", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
