"""A cold first fit (run with a fresh ``NUMBA_CACHE_DIR``) of a second-order graph parser:
``python cold_probe.py generic|fused grand|sib`` (with ``fused_second_order.patch``
applied; ``generic`` forces the Python epoch)."""

import sys
import time

from skstruct import ArcFeatures, Eisner, StructuredSVM
from skstruct.datasets import fetch_ud
from skstruct.solvers._bcfw import FrankWolfeBlocks


def main(kind, parts):
    if kind == "generic":
        FrankWolfeBlocks._fused = lambda self: None
    X = fetch_ud("en_ewt", "dev").data[:300]
    y = [[t["head"] for t in s] for s in X]
    decoder = Eisner(order=2, projectivize=True, grandparents=parts == "grand")
    start = time.perf_counter()
    model = StructuredSVM(decoder, features=ArcFeatures(fields=["lemma", "feats"]), C=0.03,
                          max_iter=3, tol=None, random_state=0).fit(X, y)  # fmt: skip
    fitted = time.perf_counter()
    model.predict(X[:50])
    predicted = time.perf_counter()
    print(kind, parts, f"first fit {fitted - start:.1f}s predict {predicted - fitted:.1f}s")


if __name__ == "__main__":
    main(*sys.argv[1:3])
