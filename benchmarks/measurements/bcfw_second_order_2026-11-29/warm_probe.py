"""Warm fits of the second-order graph parsers (structured SVM, BCFW) with the generic
epoch and the kernel epoch of ``fused_second_order.patch`` alternated in one process
(run with the patch applied): fit time, dev UAS, and whether the weights agree."""

import time

import numpy as np

from skstruct import ArcFeatures, Eisner, StructuredSVM
from skstruct.datasets import fetch_ud
from skstruct.solvers._bcfw import FrankWolfeBlocks


def model(order, grandparents):
    return StructuredSVM(Eisner(order=order, projectivize=True, grandparents=grandparents),
                         features=ArcFeatures(fields=["lemma", "feats"]), C=0.03, max_iter=3,
                         tol=None, random_state=0)  # fmt: skip


def main():
    X, dev = fetch_ud("en_ewt", "train").data[:3000], fetch_ud("en_ewt", "dev").data[:1000]
    y = [[t["head"] for t in s] for s in X]
    kernel = FrankWolfeBlocks._fused
    generic = lambda self: None  # noqa: E731
    for order, grandparents in ((2, False), (2, True)):
        for fused in (generic, kernel):  # compile both first
            FrankWolfeBlocks._fused = fused
            model(order, grandparents).fit(X[:50], y[:50])
        weights = {}
        for kind in ("generic", "fused", "generic", "fused"):
            FrankWolfeBlocks._fused = kernel if kind == "fused" else generic
            start = time.perf_counter()
            fitted = model(order, grandparents).fit(X, y)
            seconds = time.perf_counter() - start
            pred = fitted.predict(dev)
            uas = np.mean([int(p) == t["head"] for s, ps in zip(dev, pred) for t, p in zip(s, ps)])
            print(order, grandparents, kind, f"{seconds:.1f}s", f"uas {100 * uas:.2f}", flush=True)
            weights.setdefault(kind, fitted.coef_.copy())
        FrankWolfeBlocks._fused = kernel
        same = np.allclose(weights["fused"], weights["generic"], rtol=1e-7, atol=1e-9)
        print("same weights:", same)


if __name__ == "__main__":
    main()
