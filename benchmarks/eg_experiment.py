"""The structured SVM (BCFW and EG) against the averaged perceptron and L-BFGS CRFs.

CoNLL-2000 chunking (train -> test, the sklearn-crfsuite tutorial features, the very
same token dicts for every learner in one process) and ptb-sample dependency parsing
(train -> test, first-order projective parser, UAS without punctuation by PTB tag; no
CRF there). For each solver of :class:`~skstruct.StructuredSVM`, one line per pass:
primal, dual and duality gap (as in Collins' "Convergence on a Parse Reranking Task"
slide and Lacoste-Julien et al.'s Figure 1), test token accuracy (UAS), the pass's
seconds; then a table of test scores and training times, with ``StructuredSVM()`` at
its default settings timed on its own (issue 20's target: CoNLL-2000 F1 within 0.1 of
the L-BFGS CRF's in at most half its fit time). The curves are saved as
``docs/figures/ssvm_convergence_<corpus>.png``: the relative gap against passes and
against seconds, for both solvers.

C was chosen on held-out data before this run: for CoNLL-2000 on the last 10% of the
training set (EG, 15 epochs: C=0.05 F1 91.97, C=0.1 92.84, C=0.3 86.84), for ptb-sample
on its dev set (EG, 10 epochs, UAS without punctuation: C=0.01 88.38, 0.03 89.26, 0.1
88.89, 0.3 88.33; BCFW, 15 passes: C=0.01 88.31, 0.03 89.44, 0.1 89.52; 30 passes:
C=0.03 89.45, 0.05 89.70, 0.1 89.44). The curves compare both solvers on one problem,
the C chosen for EG; the timed BCFW runs use its default 0.1 on CoNLL-2000 and the
0.05 of the dev set on the PTB sample.

Run: ``python benchmarks/eg_experiment.py [--corpus conll2000|ptb|all] [--max-iter 30]``
The corpora come from the ``fetch_*`` functions of ``skstruct.datasets``: read from
``$SKSTRUCT_DATA`` or ``~/skstruct_data``, and downloaded there when missing.
"""

import argparse
import time
from pathlib import Path

from skstruct import Eisner, LinearChainCRF, StructuredPerceptron, StructuredSVM
from skstruct.datasets import fetch_conll2000, fetch_ptb_sample
from skstruct.features import crfsuite_tutorial_features
from skstruct.metrics import PTB_PUNCTUATION_TAGS, attachment_scores, span_f1_score

FIGURES = Path(__file__).resolve().parents[1] / "docs" / "figures"
EG_C = {"conll2000": 0.1, "ptb": 0.03}
BCFW_C = {"conll2000": 0.1, "ptb": 0.05}


def conll2000():
    train = fetch_conll2000("train")
    test = fetch_conll2000("test")
    X, X_test = crfsuite_tutorial_features(train.data), crfsuite_tutorial_features(test.data)
    for warm in (StructuredPerceptron(max_iter=1), StructuredSVM(max_iter=1)):
        warm.fit(X[:20], train.target[:20])  # load the kernels
    return X, train.target, X_test, test.target


def ptb():
    X, y = fetch_ptb_sample("train", return_X_y=True)
    X_test, y_test = fetch_ptb_sample("test", return_X_y=True)
    for warm in (StructuredPerceptron(Eisner(), max_iter=1), StructuredSVM(Eisner(), max_iter=1)):
        warm.fit(X[:5], y[:5])
    return X, y, X_test, y_test


def timed_fit(model, X, y, **kwargs):
    start = time.perf_counter()
    model.fit(X, y, **kwargs)
    return time.perf_counter() - start


def run(corpus, max_iter):
    parses = corpus == "ptb"
    X, y, X_test, y_test = ptb() if parses else conll2000()
    decoder = {"decoder": Eisner(projectivize=True)} if parses else {}
    if parses:

        def score(predicted):
            return attachment_scores(y_test, predicted, X=X_test, punct=PTB_PUNCTUATION_TAGS)["uas"]

        metric = "UAS"
    else:

        def score(predicted):
            return span_f1_score(y_test, predicted)

        metric = "span F1"
    print(f"\n{corpus}: {len(X)} training sentences, {len(X_test)} test")
    # the per-pass curves score test sentences whose labels training has seen (CoNLL-2000
    # test has one I-LST, never seen in train); final scores use the whole test set
    seen = {label for sentence in y for label in sentence} if not parses else None
    keep = [i for i, s in enumerate(y_test) if parses or set(s) <= seen]
    curve = {"X_dev": [X_test[i] for i in keep], "y_dev": [y_test[i] for i in keep]}
    seconds, scores, curves = {}, {}, {}
    # tol=0, gap_every=1: the gap after every pass (the curve), as many passes as EG runs
    for solver in ("bcfw", "eg"):
        C = EG_C[corpus]
        name = f"StructuredSVM {solver}, C={C}, {max_iter} passes"
        svm = StructuredSVM(**decoder, solver=solver, C=C, max_iter=max_iter, tol=0.0,
                            gap_every=1, random_state=0)  # fmt: skip
        seconds[name] = timed_fit(svm, X, y, **curve)
        scores[name] = score(svm.predict(X_test))
        curves[solver] = svm.history_
        print(f"{name}: per-pass test accuracy on {len(keep)} of {len(X_test)} test sentences")
        print(f"{'pass':>5}{'primal':>12}{'dual':>12}{'gap/primal':>12}{'test acc':>10}{'s':>7}")
        for r in svm.history_:
            print(f"{r['epoch']:>5}{r['primal']:>12.1f}{r['dual']:>12.1f}"
                  f"{r['gap'] / r['primal']:>12.3f}{r['dev_score'] * 100:>10.2f}"
                  f"{r['seconds']:>7.2f}")  # fmt: skip
    # the targets' runs: CoNLL-2000 at the default settings; PTB with the C of the dev set
    # and 30 passes, the gap computed once at the end (tol=None)
    target = {"C": BCFW_C[corpus], "max_iter": max_iter, "tol": None} if parses else {}
    default = StructuredSVM(**decoder, **target, random_state=0)
    name = "StructuredSVM(Eisner(), C=0.05, tol=None)" if parses else "StructuredSVM() defaults"
    seconds[name] = timed_fit(default, X, y)
    scores[name] = score(default.predict(X_test))
    print(f"{name}: {default.n_iter_} passes, last gap/primal "
          f"{default.history_[-1]['gap'] / default.history_[-1]['primal']:.3f}")  # fmt: skip
    perceptron = StructuredPerceptron(**decoder, max_iter=10, random_state=0)
    seconds["averaged perceptron (10 epochs)"] = timed_fit(perceptron, X, y)
    scores["averaged perceptron (10 epochs)"] = score(perceptron.predict(X_test))
    if not parses:
        import sklearn_crfsuite

        settings = {"c1": 0.1, "c2": 0.1, "max_iterations": 100, "all_possible_transitions": True}
        crf = sklearn_crfsuite.CRF(algorithm="lbfgs", **settings)
        name = "CRFsuite L-BFGS (c1=c2=0.1, 100 it.)"
        seconds[name] = timed_fit(crf, X, y)
        scores[name] = score(crf.predict(X_test))
        ours = LinearChainCRF(c1=0.1, c2=0.1, max_iter=100)  # n_jobs=None: one thread
        name = "skstruct LinearChainCRF (same settings)"
        seconds[name] = timed_fit(ours, X, y)
        scores[name] = score(ours.predict(X_test))
    print(f"\n{'learner':<44}{metric:>9}{'train s':>9}")
    for name in scores:
        print(f"{name:<44}{scores[name] * 100:>9.2f}{seconds[name]:>9.1f}")
    plot(corpus, curves)


def plot(corpus, curves):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (by_pass, by_time) = plt.subplots(1, 2, figsize=(10, 4))
    for solver, history in curves.items():
        gap = [r["gap"] / r["primal"] for r in history]
        elapsed, total = [], 0.0
        for r in history:
            total += r["seconds"]
            elapsed.append(total)
        label = {"bcfw": "BCFW (weighted average)", "eg": "online EG"}[solver]
        by_pass.plot([r["epoch"] for r in history], gap, label=label)
        by_time.plot(elapsed, gap, label=label)
    by_pass.set(xlabel="Passes over the data", ylabel="Duality gap / primal", yscale="log",
                title=f"Structured SVM on {corpus}")  # fmt: skip
    by_time.set(xlabel="Training seconds (gap passes excluded)", ylabel="Duality gap / primal",
                yscale="log", title="Against time")  # fmt: skip
    by_pass.legend()
    fig.tight_layout()
    FIGURES.mkdir(parents=True, exist_ok=True)
    path = FIGURES / f"ssvm_convergence_{corpus}.png"
    fig.savefig(path, dpi=120)
    print(f"saved {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", choices=["conll2000", "ptb", "all"], default="all")
    parser.add_argument("--max-iter", type=int, default=30)
    args = parser.parse_args()
    for corpus in ["conll2000", "ptb"] if args.corpus == "all" else [args.corpus]:
        run(corpus, args.max_iter)


if __name__ == "__main__":
    main()
