"""The default perceptron's first and second fit in one process, after ``skstruct warmup
chains`` (issue 33's "after warmup, the first fit within 1.1x of the warm one"), with
the garbage collector on (``gc``) or paused during each fit (``nogc``), counting its
collections. CoNLL-2000 with the tutorial's dicts, as ``bench_first_run.py``.

Run from the project root, ``NUMBA_CACHE_DIR`` naming a cache that ``skstruct warmup
chains`` filled: ``python .../first_and_second_fit.py {gc,nogc}``
"""

import gc
import sys

sys.path.insert(0, "benchmarks")
import time

import bench_first_run

mode = sys.argv[1]
X, y, _, _ = bench_first_run._data("perceptron")
collections = []
gc.callbacks.append(lambda phase, info: phase == "start" and collections.append(info["generation"]))
seconds, counts = [], []
for _ in range(2):
    model = bench_first_run._model("perceptron")
    gc.collect()
    collections.clear()
    if mode == "nogc":
        gc.disable()
    start = time.perf_counter()
    model.fit(X, y)
    seconds.append(time.perf_counter() - start)
    gc.enable()
    counts.append(len(collections))
print(f"{mode}: first fit {seconds[0]:.2f} s ({counts[0]} collections), second {seconds[1]:.2f} s "
      f"({counts[1]}), ratio {seconds[0] / seconds[1]:.2f}")  # fmt: skip
