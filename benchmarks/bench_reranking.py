"""n-best reranking (issue 37): a first-order dependency parser on the PTB sample, a
named-entity tagger on CoNLL-2002 Spanish, and a constituency parser on the treebank
sample.

``--task dep``: the base model is ``StructuredPerceptron(Eisner())`` (first order,
default ``ArcFeatures``), the global features
:class:`skstruct.features.DependencyTreeFeatures`; scored by UAS without punctuation
(PTB tags). ``--task ner``: the base model is ``StructuredPerceptron()`` on the
sklearn-crfsuite tutorial's token dicts (first-order Viterbi), the global features
:class:`skstruct.features.EntityFeatures`; scored by span F1 (dev: testa, test:
testb). ``--task constituency``: the base model is ``StructuredPerceptron(CKY())``
(``--epochs``, 10 by default; gold tags in), the global features
:class:`skstruct.features.ConstituentTreeFeatures`; scored by EVALB's F1 (COLLINS.prm).
:class:`skstruct.NBestReranker` lists the base model's ``--n-best`` best outputs of
every training sentence by jack-knifing (``--cv`` folds, once for every learner:
``jackknife`` then ``fit(lists=...)``) and learns to choose among them. Printed, for
the evaluation split (dev by default, ``--test`` for test): the jack-knife's seconds,
the base model's score, the oracle score of its n-best lists (the candidate of least
loss in each), and the reranked score of each learner, with its training seconds.
``--lists PATH`` keeps the jack-knifed lists in a pickle and reads them from there when
it exists (same task, n-best, cv and base model).

Run: ``python benchmarks/bench_reranking.py [--task dep|ner|constituency] [--test]
[--n-best 20] [--cv 5] [--order 1|2] [--epochs 10] [--no-words]
[--learners perceptron pa bcfw crf arow eg] [--eg-c 0.1] [--perceptron-epochs 10]
[--figure] [--lists PATH]``
With ``eg`` the held-out split also goes to EG's fit, which records the primal, dual
and the held-out top-1 (the share of lists whose chosen candidate has least loss) per
epoch, as the slides' "Convergence on a Parse Reranking Task"; ``--figure`` draws
them into ``docs/figures/eg_convergence_<task>_reranking.png``.
The corpora come from ``$SKSTRUCT_DATA`` or ``~/skstruct_data``.
"""

import argparse
import os
import pickle
import time

from eg_reranking import FIGURES, plot

from skstruct import (
    AROW,
    CKY,
    BestCandidate,
    ConditionalRandomField,
    Eisner,
    ExponentiatedGradientSSVM,
    NBestReranker,
    PassiveAggressive,
    StructuredPerceptron,
    StructuredSVM,
)
from skstruct.datasets import fetch_conll2002, fetch_ptb_sample, fetch_treebank
from skstruct.features import (
    ConstituentTreeFeatures,
    DependencyTreeFeatures,
    EntityFeatures,
    crfsuite_tutorial_features,
)
from skstruct.metrics import PTB_PUNCTUATION_TAGS, attachment_scores, evalb, span_f1_score

LEARNERS = {
    "perceptron": lambda: StructuredPerceptron(BestCandidate(), random_state=0),
    "pa": lambda: PassiveAggressive(BestCandidate(), max_iter=10, random_state=0),
    "arow": lambda: AROW(BestCandidate(), max_iter=10, random_state=0),
    "crf": lambda: ConditionalRandomField(BestCandidate(), max_iter=100),
    "bcfw": lambda: StructuredSVM(BestCandidate(), max_iter=20, random_state=0),
    "eg": lambda: ExponentiatedGradientSSVM(BestCandidate(), C=0.1, max_iter=30, random_state=0),
}


def _uas(X, y, predicted):
    return 100 * attachment_scores(y, predicted, X=X, punct=PTB_PUNCTUATION_TAGS)["uas"]


def _wrong_words(output, gold):
    return sum(a != b for a, b in zip(output, gold))


def _dependency_task(split, words, args):
    X, y = fetch_ptb_sample("train", return_X_y=True)
    X_eval, y_eval = fetch_ptb_sample(split, return_X_y=True)
    base = StructuredPerceptron(Eisner(order=args.order), random_state=0)
    features = DependencyTreeFeatures(words=words)
    return X, y, X_eval, y_eval, base, features, "UAS", _uas, _wrong_words


def _constituency_task(split, words, args):
    X, y = fetch_treebank("train", return_X_y=True)
    X_eval, y_eval = fetch_treebank(split, return_X_y=True)
    base = StructuredPerceptron(CKY(), max_iter=args.epochs, random_state=0)

    def f1(X_, y, predicted):
        return evalb(y, predicted).f1

    def wrong_brackets(output, gold):
        scores = evalb([gold], [output])
        return scores.gold_brackets + scores.predicted_brackets - 2 * scores.matched

    features = ConstituentTreeFeatures(words=words)
    return X, y, X_eval, y_eval, base, features, "F1", f1, wrong_brackets


def _ner_task(split, words, args):
    train = fetch_conll2002("es", "train")
    evaluated = fetch_conll2002("es", "testb" if split == "test" else "testa")
    X, X_eval = (crfsuite_tutorial_features(s.data) for s in (train, evaluated))
    base = StructuredPerceptron(random_state=0)

    def f1(X_, y, predicted):
        return 100 * span_f1_score(y, predicted)

    return (X, train.target, X_eval, evaluated.target, base, EntityFeatures(), "span F1", f1,
            _wrong_words)  # fmt: skip


TASKS = {"dep": _dependency_task, "ner": _ner_task, "constituency": _constituency_task}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", choices=list(TASKS), default="dep")
    parser.add_argument("--test", action="store_true", help="score the test split (else dev)")
    parser.add_argument("--n-best", type=int, default=20)
    parser.add_argument("--cv", type=int, default=5)
    parser.add_argument("--order", type=int, choices=[1, 2], default=1,
                        help="the base parser's order (--task dep)")  # fmt: skip
    parser.add_argument("--epochs", type=int, default=10,
                        help="the base parser's epochs (--task constituency)")  # fmt: skip
    parser.add_argument("--lists", help="a pickle of the jack-knifed lists (read or written)")
    parser.add_argument("--no-words", action="store_true", help="leave the word features out")
    parser.add_argument("--learners", nargs="+", default=["perceptron"], choices=list(LEARNERS))
    parser.add_argument("--n-jobs", type=int, default=None)
    parser.add_argument("--eg-c", type=float, default=0.1, help="C of the EG learner")
    parser.add_argument("--perceptron-epochs", type=int, default=10,
                        help="epochs of the perceptron reranker")  # fmt: skip
    parser.add_argument("--figure", action="store_true",
                        help="draw EG's primal, dual and held-out top-1 per epoch")  # fmt: skip
    args = parser.parse_args(argv)

    split = "test" if args.test else "dev"
    X, y, X_eval, y_eval, base, features, metric, score, loss = TASKS[args.task](
        split, not args.no_words, args
    )
    print(f"{args.task} (order {args.order}): {len(X)} training sentences, "
          f"{len(X_eval)} {split} sentences; n_best={args.n_best}, cv={args.cv}")  # fmt: skip
    lister = NBestReranker(base, features, n_best=args.n_best, cv=args.cv, n_jobs=args.n_jobs,
                           random_state=0)  # fmt: skip
    jackknifed = _jackknife(lister, X, y, args)
    lists = jackknifed.base.predict_nbest(X_eval, k=args.n_best)
    base_score = score(X_eval, y_eval, [best[0][0] for best in lists])
    oracle = [min(best, key=lambda c, g=gold: loss(c[0], g))[0]
              for best, gold in zip(lists, y_eval)]  # fmt: skip
    print(f"base {split} {metric} {base_score:.2f}; oracle of {args.n_best}-best "
          f"{score(X_eval, y_eval, oracle):.2f}", flush=True)  # fmt: skip
    for name in args.learners:
        learner = LEARNERS[name]()
        if name == "eg":
            learner.set_params(C=args.eg_c)
        if name == "perceptron":
            learner.set_params(max_iter=args.perceptron_epochs)
        reranker = NBestReranker(base, features, learner, n_best=args.n_best,
                                 cv=args.cv, n_jobs=args.n_jobs, random_state=0)  # fmt: skip
        held_out = {"X_dev": X_eval, "y_dev": y_eval} if name == "eg" else {}
        start = time.perf_counter()
        reranker.fit(X, y, lists=jackknifed, **held_out)
        seconds = time.perf_counter() - start
        reranked = score(X_eval, y_eval, reranker.predict(X_eval))
        print(f"reranked by {name:<10} {split} {metric} {reranked:.2f} "
              f"({reranked - base_score:+.2f}); training oracle "
              f"{100 * reranker.oracle_score_:.2f}; reranker fit {seconds:.1f} s",
              flush=True)  # fmt: skip
        if name == "eg":
            _convergence(reranker.reranker_.history_, args, split)


def _jackknife(reranker, X, y, args):
    """The jack-knifed lists (timed), or those of ``--lists`` where it exists."""
    if args.lists and os.path.exists(args.lists):
        with open(args.lists, "rb") as f:
            print(f"jack-knifed lists read from {args.lists}")
            return pickle.load(f)
    start = time.perf_counter()
    jackknifed = reranker.jackknife(X, y)
    print(f"jack-knife ({args.cv} folds and the full base model, n_jobs={args.n_jobs}): "
          f"{time.perf_counter() - start:.1f} s", flush=True)  # fmt: skip
    if args.lists:
        with open(args.lists, "wb") as f:
            pickle.dump(jackknifed, f)
    return jackknifed


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
