"""Issue 20's targets: the structured SVM (BCFW) against L-BFGS CRFs, side by side.

1. CoNLL-2000 chunking, full training set, the sklearn-crfsuite tutorial features (the
   very same token dicts for every learner, in one process): ``StructuredSVM()`` at its
   default settings against sklearn-crfsuite's L-BFGS CRF (``c1=c2=0.1``, 100
   iterations, ``all_possible_transitions=True``, the tutorial's settings) and
   skstruct's ``LinearChainCRF`` with the same settings (one thread, the default, and
   ``n_jobs=2``), and the SVM with ``n_jobs=2`` beside the two-thread CRF. Target:
   span F1 within 0.1 of the CRF's, fit <= 0.5x its time.
2. The PTB sample, first-order projective parsing (``Eisner(projectivize=True)``), 30
   passes with the gap computed once (``tol=None``), C chosen on the dev set after 30
   passes: the default ``ArcFeatures()`` (C=0.05 of 0.02 / 0.03 / 0.05 / 0.1, see
   ``eg_experiment.py``) and ``ArcFeatures(coarse_pos=1)`` (C=0.03 of the same), one
   thread, and minibatches of 8 on two threads. Target: UAS (punctuation left out) >=
   89.3 in <= 60 s.

Printed: score, fit seconds and the ratio of each fit to the SVM's.

Run: ``python benchmarks/bench_ssvm.py [--corpus conll2000|ptb|all]``
"""

import argparse
import time

from skstruct import ArcFeatures, Eisner, LinearChainCRF, StructuredPerceptron, StructuredSVM
from skstruct.datasets import fetch_conll2000, fetch_ptb_sample
from skstruct.features import crfsuite_tutorial_features
from skstruct.metrics import PTB_PUNCTUATION_TAGS, attachment_scores, span_f1_score


def timed_fit(model, X, y):
    start = time.perf_counter()
    model.fit(X, y)
    return time.perf_counter() - start


def report(rows, metric, reference):
    print(f"{'learner':<52}{metric:>9}{'fit s':>8}{'SVM / it':>10}")
    for name, (score, seconds) in rows.items():
        print(f"{name:<52}{100 * score:>9.2f}{seconds:>8.2f}"
              f"{rows[reference][1] / seconds:>10.2f}")  # fmt: skip


def conll2000():
    import sklearn_crfsuite

    train, test = fetch_conll2000("train"), fetch_conll2000("test")
    X, X_test = crfsuite_tutorial_features(train.data), crfsuite_tutorial_features(test.data)
    y, y_test = train.target, test.target
    for warm in (StructuredSVM(max_iter=1, n_jobs=2), LinearChainCRF(max_iter=2)):
        warm.fit(X[:20], y[:20])  # load the kernels
    learners = {
        "StructuredSVM() (BCFW, defaults)": StructuredSVM(random_state=0),
        "StructuredSVM(n_jobs=2)": StructuredSVM(n_jobs=2, random_state=0),
        "sklearn-crfsuite CRF, L-BFGS c1=c2=0.1, 100 it.": sklearn_crfsuite.CRF(
            algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=100, all_possible_transitions=True
        ),
        "skstruct LinearChainCRF, same settings": LinearChainCRF(c1=0.1, c2=0.1, max_iter=100),
        "skstruct LinearChainCRF, same settings, n_jobs=2": LinearChainCRF(
            c1=0.1, c2=0.1, max_iter=100, n_jobs=2
        ),
        "averaged perceptron, 10 epochs": StructuredPerceptron(random_state=0),
    }
    rows = {}
    for name, model in learners.items():
        seconds = timed_fit(model, X, y)
        rows[name] = (span_f1_score(y_test, model.predict(X_test)), seconds)
    svm = learners["StructuredSVM() (BCFW, defaults)"]
    last = svm.history_[-1]
    print(f"CoNLL-2000: {len(X)} training sentences; the SVM ran {svm.n_iter_} passes, "
          f"relative gap {last['gap'] / last['primal']:.3f}")  # fmt: skip
    report(rows, "span F1", "StructuredSVM() (BCFW, defaults)")


def ptb():
    X, y = fetch_ptb_sample("train", return_X_y=True)
    X_test, y_test = fetch_ptb_sample("test", return_X_y=True)
    coarse = ArcFeatures(coarse_pos=1)
    for features in (None, coarse):  # load the kernels
        StructuredSVM(Eisner(), features=features, max_iter=1, batch_size=2, n_jobs=2).fit(
            X[:5], y[:5]
        )
    settings = {"max_iter": 30, "tol": None, "random_state": 0}
    learners = {
        "StructuredSVM(Eisner(), C=0.05, 30 passes)": {"C": 0.05},
        "coarse_pos=1, C=0.03, 30 passes": {"C": 0.03, "features": coarse},
        "coarse_pos=1, C=0.03, batch_size=8, n_jobs=2": {
            "C": 0.03,
            "features": coarse,
            "batch_size": 8,
            "n_jobs": 2,
        },
    }
    rows = {}
    for name, params in learners.items():
        svm = StructuredSVM(Eisner(projectivize=True), **settings, **params)
        seconds = timed_fit(svm, X, y)
        predicted = svm.predict(X_test)
        uas = attachment_scores(y_test, predicted, X=X_test, punct=PTB_PUNCTUATION_TAGS)["uas"]
        rows[name] = (uas, seconds)
        last = svm.history_[-1]
        print(f"PTB sample, {name}: {len(X)} training sentences; relative gap after 30 "
              f"passes {last['gap'] / last['primal']:.3f}")  # fmt: skip
    report(rows, "UAS", "coarse_pos=1, C=0.03, 30 passes")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", choices=["conll2000", "ptb", "all"], default="all")
    args = parser.parse_args()
    if args.corpus in ("conll2000", "all"):
        conll2000()
    if args.corpus in ("ptb", "all"):
        ptb()


if __name__ == "__main__":
    main()
