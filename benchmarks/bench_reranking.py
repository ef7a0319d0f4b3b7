"""n-best reranking (issue 37): a first-order dependency parser on the PTB sample, and
a named-entity tagger on CoNLL-2002 Spanish.

``--task dep``: the base model is ``StructuredPerceptron(Eisner())`` (first order,
default ``ArcFeatures``), the global features
:class:`skstruct.features.DependencyTreeFeatures`; scored by UAS without punctuation
(PTB tags). ``--task ner``: the base model is ``StructuredPerceptron()`` on the
sklearn-crfsuite tutorial's token dicts (first-order Viterbi), the global features
:class:`skstruct.features.EntityFeatures`; scored by span F1 (dev: testa, test:
testb). :class:`skstruct.NBestReranker` lists the base model's ``--n-best`` best
outputs of every training sentence by jack-knifing (``--cv`` folds) and learns to
choose among them. Printed, for the evaluation split (dev by default, ``--test`` for
test): the base model's score, the oracle score of its n-best lists (the candidate of
fewest wrong words in each), and the reranked score of each learner, with fit seconds.

Run: ``python benchmarks/bench_reranking.py [--task dep|ner] [--test] [--n-best 20]
[--cv 5] [--order 1|2] [--no-words] [--learners perceptron pa bcfw crf arow eg] [--eg-c 0.1]
[--figure]``
With ``eg`` the held-out split also goes to EG's fit, which records the primal, dual
and the held-out top-1 (the share of lists whose chosen candidate has least loss) per
epoch, as the slides' "Convergence on a Parse Reranking Task"; ``--figure`` draws
them into ``docs/figures/eg_convergence_<task>_reranking.png``.
The corpora come from ``$SKSTRUCT_DATA`` or ``~/skstruct_data``.
"""

import argparse
import time

from eg_reranking import FIGURES, plot

from skstruct import (
    AROW,
    BestCandidate,
    ConditionalRandomField,
    Eisner,
    ExponentiatedGradientSSVM,
    NBestReranker,
    PassiveAggressive,
    StructuredPerceptron,
    StructuredSVM,
)
from skstruct.datasets import fetch_conll2002, fetch_ptb_sample
from skstruct.features import DependencyTreeFeatures, EntityFeatures, crfsuite_tutorial_features
from skstruct.metrics import PTB_PUNCTUATION_TAGS, attachment_scores, span_f1_score

LEARNERS = {
    "perceptron": lambda: StructuredPerceptron(BestCandidate(), max_iter=10, random_state=0),
    "pa": lambda: PassiveAggressive(BestCandidate(), max_iter=10, random_state=0),
    "arow": lambda: AROW(BestCandidate(), max_iter=10, random_state=0),
    "crf": lambda: ConditionalRandomField(BestCandidate(), max_iter=100),
    "bcfw": lambda: StructuredSVM(BestCandidate(), max_iter=20, random_state=0),
    "eg": lambda: ExponentiatedGradientSSVM(BestCandidate(), C=0.1, max_iter=30, random_state=0),
}


def _uas(X, y, predicted):
    return 100 * attachment_scores(y, predicted, X=X, punct=PTB_PUNCTUATION_TAGS)["uas"]


def _dependency_task(split, words, order=1):
    X, y = fetch_ptb_sample("train", return_X_y=True)
    X_eval, y_eval = fetch_ptb_sample(split, return_X_y=True)
    base = StructuredPerceptron(Eisner(order=order), random_state=0)
    return X, y, X_eval, y_eval, base, DependencyTreeFeatures(words=words), "UAS", _uas


def _ner_task(split, words, order=1):
    train = fetch_conll2002("es", "train")
    evaluated = fetch_conll2002("es", "testb" if split == "test" else "testa")
    X, X_eval = (crfsuite_tutorial_features(s.data) for s in (train, evaluated))
    base = StructuredPerceptron(random_state=0)

    def f1(X_, y, predicted):
        return 100 * span_f1_score(y, predicted)

    return X, train.target, X_eval, evaluated.target, base, EntityFeatures(), "span F1", f1


TASKS = {"dep": _dependency_task, "ner": _ner_task}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", choices=list(TASKS), default="dep")
    parser.add_argument("--test", action="store_true", help="score the test split (else dev)")
    parser.add_argument("--n-best", type=int, default=20)
    parser.add_argument("--cv", type=int, default=5)
    parser.add_argument("--order", type=int, choices=[1, 2], default=1,
                        help="the base parser's order (--task dep)")  # fmt: skip
    parser.add_argument("--no-words", action="store_true", help="leave the word features out")
    parser.add_argument("--learners", nargs="+", default=["perceptron"], choices=list(LEARNERS))
    parser.add_argument("--n-jobs", type=int, default=None)
    parser.add_argument("--eg-c", type=float, default=0.1, help="C of the EG learner")
    parser.add_argument("--figure", action="store_true",
                        help="draw EG's primal, dual and held-out top-1 per epoch")  # fmt: skip
    args = parser.parse_args(argv)

    split = "test" if args.test else "dev"
    X, y, X_eval, y_eval, base, features, metric, score = TASKS[args.task](
        split, not args.no_words, args.order
    )
    print(f"{args.task} (order {args.order}): {len(X)} training sentences, "
          f"{len(X_eval)} {split} sentences; n_best={args.n_best}, cv={args.cv}")  # fmt: skip
    base_score = None
    for name in args.learners:
        learner = LEARNERS[name]()
        if name == "eg":
            learner.set_params(C=args.eg_c)
        reranker = NBestReranker(base, features, learner, n_best=args.n_best,
                                 cv=args.cv, n_jobs=args.n_jobs, random_state=0)  # fmt: skip
        held_out = {"X_dev": X_eval, "y_dev": y_eval} if name == "eg" else {}
        start = time.perf_counter()
        reranker.fit(X, y, **held_out)
        seconds = time.perf_counter() - start
        if base_score is None:
            lists = reranker.base_.predict_nbest(X_eval, k=args.n_best)
            base_score = score(X_eval, y_eval, [best[0][0] for best in lists])
            oracle = [
                min(best, key=lambda c, g=gold: sum(a != b for a, b in zip(c[0], g)))[0]
                for best, gold in zip(lists, y_eval)
            ]
            print(f"base {split} {metric} {base_score:.2f}; oracle of {args.n_best}-best "
                  f"{score(X_eval, y_eval, oracle):.2f}; training oracle "
                  f"{100 * reranker.oracle_score_:.2f} (words right)")  # fmt: skip
        reranked = score(X_eval, y_eval, reranker.predict(X_eval))
        print(f"reranked by {name:<10} {split} {metric} {reranked:.2f} "
              f"({reranked - base_score:+.2f}); fit {seconds:.1f} s", flush=True)  # fmt: skip
        if name == "eg":
            _convergence(reranker.reranker_.history_, args, split)


def _convergence(history, args, split):
    """EG's primal, dual and held-out top-1 per epoch (printed; drawn with --figure)."""
    print(f"EG, C={args.eg_c}: epoch, primal, dual, gap / primal, {split} top-1")
    for record in history:
        print(f"{record['epoch']:4d} {record['primal']:12.4f} {record['dual']:12.4f} "
              f"{record['gap'] / record['primal']:10.2e} {record['dev_score']:.3f}")  # fmt: skip
    if args.figure:
        title = f"EG reranking {args.task} {args.n_best}-best lists, C={args.eg_c}"
        path = FIGURES / f"eg_convergence_{args.task}_reranking.png"
        plot(history, title, path, f"{split} top-1 (%)")


if __name__ == "__main__":
    main()
