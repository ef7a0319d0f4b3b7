"""Issue 33: would compiling the epoch kernel in a thread while the parent encodes the
corpus shorten a first fit? ``seq``: encode CoNLL-2000's dicts, then a tiny fit that
compiles the epoch; ``overlap``: the tiny fit in a thread beside the encoding. Run on a
fresh cache: ``NUMBA_CACHE_DIR=$(mktemp -d) python compile_overlap.py seq|overlap``.
"""

import gc
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/

import bench_first_run as bench

from skstruct.features import TokenDictEncoder


def main():
    X, y, _, _ = bench._data("perceptron")
    mode = sys.argv[1]

    def tiny():
        bench._model("perceptron").fit(X[:5], y[:5])

    gc.collect()
    start = time.perf_counter()
    if mode == "overlap":
        thread = threading.Thread(target=tiny)
        thread.start()
        TokenDictEncoder().fit_transform(X)
        encoded = time.perf_counter() - start
        thread.join()
    else:
        TokenDictEncoder().fit_transform(X)
        encoded = time.perf_counter() - start
        tiny()
    print(f"{mode}: encode done at {encoded:.2f} s, both done at "
          f"{time.perf_counter() - start:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
