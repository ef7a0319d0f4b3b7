"""The EG structured SVM against the averaged perceptron and CRFsuite's L-BFGS CRF.

CoNLL-2000 chunking (train -> test, the sklearn-crfsuite tutorial features, the very
same token dicts for all three learners in one process) and ptb-sample dependency
parsing (train -> test, first-order projective parser, UAS without punctuation by
PTB tag; no CRF there). For EG, one line per epoch: primal, dual and duality gap
(as in Collins' "Convergence on a Parse Reranking Task" slide), test token accuracy
(UAS), the epoch's seconds; then a table of test scores and training times. The
convergence curves are saved as ``docs/figures/eg_convergence_<corpus>.png``.

C was chosen on held-out data before this run: for CoNLL-2000 on the last 10% of the
training set (15 epochs: C=0.05 F1 91.97, C=0.1 92.84, C=0.3 86.84), for ptb-sample
on its dev set (10 epochs, UAS without punctuation: C=0.01 88.38, 0.03 89.26, 0.1 88.89,
0.3 88.33).

Run: ``python benchmarks/eg_experiment.py
[--corpus conll2000|ptb|all] [--max-iter 30]``
The corpora come from the ``fetch_*`` functions of ``skstruct.datasets``: read from
``$SKSTRUCT_DATA`` or ``~/skstruct_data``, and downloaded there when missing.
"""

import argparse
import time
from pathlib import Path

from skstruct import Eisner, ExponentiatedGradientSSVM, StructuredPerceptron
from skstruct.datasets import fetch_conll2000, fetch_ptb_sample
from skstruct.features import crfsuite_tutorial_features
from skstruct.metrics import PTB_PUNCTUATION_TAGS, attachment_scores, span_f1_score

FIGURES = Path(__file__).resolve().parents[1] / "docs" / "figures"
C_CHOSEN = {"conll2000": 0.1, "ptb": 0.03}


def conll2000():
    train = fetch_conll2000("train")
    test = fetch_conll2000("test")
    X, X_test = crfsuite_tutorial_features(train.data), crfsuite_tutorial_features(test.data)
    StructuredPerceptron(max_iter=1).fit(X[:20], train.target[:20])  # load the kernels
    return X, train.target, X_test, test.target


def ptb():
    X, y = fetch_ptb_sample("train", return_X_y=True)
    X_test, y_test = fetch_ptb_sample("test", return_X_y=True)
    StructuredPerceptron(decoder=Eisner(), max_iter=1).fit(X[:5], y[:5])
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
    C = C_CHOSEN[corpus]
    print(f"\n{corpus}: {len(X)} training sentences, {len(X_test)} test; EG C={C}")
    eg = ExponentiatedGradientSSVM(**decoder, C=C, max_iter=max_iter, tol=None, random_state=0)
    # the per-epoch curve scores test sentences whose labels training has seen (CoNLL-2000
    # test has one I-LST, never seen in train); final scores use the whole test set
    seen = {label for sentence in y for label in sentence} if not parses else None
    keep = [i for i, s in enumerate(y_test) if parses or set(s) <= seen]
    curve = {"X_dev": [X_test[i] for i in keep], "y_dev": [y_test[i] for i in keep]}
    seconds = {"EG SSVM": timed_fit(eg, X, y, **curve)}
    print(f"per-epoch test accuracy on {len(keep)} of {len(X_test)} test sentences")
    print(f"{'epoch':>5}{'primal':>12}{'dual':>12}{'gap/primal':>12}{'test acc':>10}{'s':>7}")
    for r in eg.history_:
        gap = r["gap"] / r["primal"]
        print(f"{r['epoch']:>5}{r['primal']:>12.1f}{r['dual']:>12.1f}{gap:>12.3f}"
              f"{r['dev_score'] * 100:>10.2f}{r['seconds']:>7.1f}")  # fmt: skip
    scores = {"EG SSVM": score(eg.predict(X_test))}
    perceptron = StructuredPerceptron(**decoder, max_iter=10, random_state=0)
    seconds["averaged perceptron (10 epochs)"] = timed_fit(perceptron, X, y)
    scores["averaged perceptron (10 epochs)"] = score(perceptron.predict(X_test))
    if not parses:
        import sklearn_crfsuite

        crf = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=100,
                                   all_possible_transitions=True)  # fmt: skip
        seconds["CRFsuite L-BFGS (c1=c2=0.1, 100 it.)"] = timed_fit(crf, X, y)
        scores["CRFsuite L-BFGS (c1=c2=0.1, 100 it.)"] = score(crf.predict(X_test))
    print(f"\n{'learner':<40}{metric:>9}{'train s':>9}")
    for name in scores:
        print(f"{name:<40}{scores[name] * 100:>9.2f}{seconds[name]:>9.1f}")
    plot(corpus, eg, metric)


def plot(corpus, eg, metric):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = [r["epoch"] for r in eg.history_]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.plot(epochs, [r["primal"] for r in eg.history_], label="Primal")
    left.plot(epochs, [r["dual"] for r in eg.history_], label="Dual")
    left.set(xlabel="Iterations (epochs of online EG)", ylabel="Objective", yscale="log",
             title=f"Convergence on {corpus}")  # fmt: skip
    left.legend()
    acc = "test UAS (punctuation included)" if corpus == "ptb" else "test token accuracy"
    right.plot(epochs, [100 * r["dev_score"] for r in eg.history_])
    right.set(xlabel="Iterations (epochs of online EG)", ylabel=acc, title=acc)
    fig.tight_layout()
    FIGURES.mkdir(parents=True, exist_ok=True)
    path = FIGURES / f"eg_convergence_{corpus}.png"
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
