"""``skstruct.crfsuite.CRF`` against ``sklearn_crfsuite.CRF``, side by side in one process.

The issue-18 targets: ``CRF(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=100)``
on CoNLL-2002 Spanish NER and on CoNLL-2000 chunking with the sklearn-crfsuite
tutorial's features, the very same token dicts for both. Printed per corpus and
library: span F1 on the test set (conlleval semantics), ``fit`` seconds (from token
dicts, everything included), ``predict`` seconds, iterations and evaluations; then the
ratios skstruct / sklearn-crfsuite. ``--search`` also times the tutorial's
``RandomizedSearchCV`` over ``c1``/``c2`` (flat weighted F1 scorer, ``n_jobs=-1``) with
both, with ``--search-iter`` candidates and 3 folds (the tutorial's 50 take about an
hour per library on 2 cores).

Run: ``python benchmarks/bench_crfsuite.py [--n-jobs 2] [--corpora es conll2000]
[--algorithm lbfgs|l2sgd] [--search]``
The corpora come from the ``fetch_*`` functions (``$SKSTRUCT_DATA`` or downloaded).
"""

import argparse
import time

import scipy.stats
import sklearn_crfsuite
import sklearn_crfsuite.metrics
from sklearn.metrics import make_scorer
from sklearn.model_selection import RandomizedSearchCV

from skstruct import crfsuite
from skstruct.datasets import fetch_conll2000, fetch_conll2002
from skstruct.features import crfsuite_tutorial_features
from skstruct.metrics import span_f1_score

#: The issue's settings (lbfgs), the same for both libraries; and SGD's, for comparison.
SETTINGS = {
    "lbfgs": dict(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=100),
    "l2sgd": dict(algorithm="l2sgd", c2=0.1, max_iterations=50),
}


def corpus(name):
    """Tutorial token dicts: X, y, X_test, y_test."""
    if name == "es":
        train, test = fetch_conll2002("es", "train"), fetch_conll2002("es", "testb")
    else:
        train, test = fetch_conll2000("train"), fetch_conll2000("test")
    return (crfsuite_tutorial_features(train.data), train.target,
            crfsuite_tutorial_features(test.data), test.target)  # fmt: skip


def run(make, X, y, X_test, y_test):
    model = make()
    start = time.perf_counter()
    model.fit(X, y)
    fit = time.perf_counter() - start
    start = time.perf_counter()
    y_pred = model.predict(X_test)
    predict = time.perf_counter() - start
    log = model.training_log_
    return {
        "f1": 100 * span_f1_score(y_test, [list(s) for s in y_pred]),
        "fit": fit,
        "predict": predict,
        "iterations": len(log.iterations),
        "loss": log.last_iteration["loss"],
    }


def search(module, X, y, labels, n_iter):
    """The tutorial's randomized search over c1 and c2, as the tutorial runs it: one
    process per core (``n_jobs=-1``), each CRF on one thread."""
    crf = module.CRF(algorithm="lbfgs", max_iterations=100, all_possible_transitions=True)
    space = {"c1": scipy.stats.expon(scale=0.5), "c2": scipy.stats.expon(scale=0.05)}
    scorer = make_scorer(module.metrics.flat_f1_score, average="weighted", labels=labels)
    rs = RandomizedSearchCV(
        crf, space, cv=3, n_iter=n_iter, scoring=scorer, random_state=0, n_jobs=-1
    )
    start = time.perf_counter()
    rs.fit(X, y)
    return time.perf_counter() - start, rs.best_score_, rs.best_params_


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", nargs="+", default=["es", "conll2000"])
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--algorithm", choices=sorted(SETTINGS), default="lbfgs")
    parser.add_argument("--search", action="store_true")
    parser.add_argument("--search-iter", type=int, default=4)
    parser.add_argument("--search-only", action="store_true", help="skip the fit comparison")
    args = parser.parse_args()
    crfsuite.CRF(max_iterations=2).fit([[{"a": 1.0}]], [["A"]])  # numba's cache loaded
    for name in args.corpora:
        X, y, X_test, y_test = corpus(name)
        if args.search_only:
            args.search = True
        else:
            compare(name, args, X, y, X_test, y_test)
        if args.search:
            labels = sorted({label for s in y for label in s} - {"O"})
            for who, module in [("sklearn-crfsuite", sklearn_crfsuite), ("skstruct", crfsuite)]:
                seconds, best, params = search(module, X, y, labels, args.search_iter)
                print(f"{name:9} search {who:17} {seconds:7.1f} s  best flat F1 {best:.4f} "
                      f"{ {k: round(v, 3) for k, v in params.items()} }", flush=True)  # fmt: skip


def compare(name, args, X, y, X_test, y_test):
    """One fit and predict of each library, and their ratios."""
    settings = SETTINGS[args.algorithm]
    theirs = run(lambda: sklearn_crfsuite.CRF(**settings), X, y, X_test, y_test)
    ours = run(lambda: crfsuite.CRF(**settings, n_jobs=args.n_jobs), X, y, X_test, y_test)
    for who, r in [("sklearn-crfsuite", theirs), (f"skstruct n_jobs={args.n_jobs}", ours)]:
        print(f"{name:9} {who:20} F1 {r['f1']:.2f}  fit {r['fit']:6.2f} s  predict "
              f"{r['predict']:.2f} s  iterations {r['iterations']}  loss {r['loss']:.2f}",
              flush=True)  # fmt: skip
    print(f"{name:9} ratio skstruct/crfsuite: fit {ours['fit'] / theirs['fit']:.2f}  "
          f"predict {ours['predict'] / theirs['predict']:.2f}  "
          f"F1 difference {ours['f1'] - theirs['f1']:+.2f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
