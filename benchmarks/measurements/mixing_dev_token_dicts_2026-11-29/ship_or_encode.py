"""Issue 38: what a parser's development set costs the parent, shipped or encoded: UD
English-EWT dev + test (4,079 sentences of token dicts) pickled (protocol 5, as loky
ships task arguments) and unpickled, against ``ArcFeatures.transform`` (fitted on 3,000
of them) and a fresh ``ArcFeatures``' fit + transform (what a worker would do).

Run: ``python ship_or_encode.py``.
"""

import os
import pickle
import time
from pathlib import Path

from skstruct import ArcFeatures
from skstruct.datasets import load_conllu


def main():
    folder = Path(os.environ["SKSTRUCT_DATA"]) / "ud-ewt"
    X = []
    for split in ("dev", "test"):
        X += load_conllu(folder / f"en_ewt-ud-{split}.conllu")[0]
    fitted = ArcFeatures().fit(X[:3000])
    for _ in range(2):
        start = time.perf_counter()
        shipped = pickle.dumps(X, protocol=5)
        pickled = time.perf_counter() - start
        start = time.perf_counter()
        pickle.loads(shipped)
        unpickled = time.perf_counter() - start
        start = time.perf_counter()
        fitted.transform(X)
        encoded = time.perf_counter() - start
        start = time.perf_counter()
        ArcFeatures().fit(X).transform(X)
        on_worker = time.perf_counter() - start
        print(f"{len(X)} sentences: pickle {pickled:.3f} s ({len(shipped) / 1e6:.1f} MB), "
              f"unpickle {unpickled:.3f} s, transform {encoded:.3f} s, fit + transform "
              f"{on_worker:.3f} s", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
