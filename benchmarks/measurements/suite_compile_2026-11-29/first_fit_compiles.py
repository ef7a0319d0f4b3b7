"""Issue 33: what the default perceptron's first fit compiles (CoNLL-2000, tutorial
dicts, as benchmarks/bench_first_run.py), from numba's compile events, nested ones
indented; then a second fit and predict in the same process. Run on a fresh cache:
``NUMBA_CACHE_DIR=$(mktemp -d) python first_fit_compiles.py`` (``NUMBA_OPT=k`` to try
another LLVM optimisation level).
"""

import gc
import sys
import time
from pathlib import Path

from numba.core import event

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/

log, stack = [], []


class Compiles(event.Listener):
    def on_start(self, ev):
        stack.append(time.perf_counter())

    def on_end(self, ev):
        start = stack.pop()
        data = ev.data or {}
        func = getattr(data.get("dispatcher"), "py_func", None)
        name = f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', '?')}"
        log.append((len(stack), time.perf_counter() - start, name, str(data.get("args"))[:120]))


def timed(call):
    gc.collect()
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main():
    event.register("numba:compile", Compiles())
    import bench_first_run as bench

    model = bench._model("perceptron")
    X, y, X_test, _ = bench._data("perceptron")
    fit = timed(lambda: model.fit(X, y))
    predict = timed(lambda: model.predict(X_test))
    outer = sum(seconds for depth, seconds, _, _ in log if depth == 0)
    print(f"fit {fit:.2f} predict {predict:.2f}  compile outer {outer:.2f}")
    for depth, seconds, name, args in log:
        print(f"{'  ' * depth}{seconds:.3f} {name} {args if depth == 0 else ''}")
    again = bench._model("perceptron")
    print(f"warm fit {timed(lambda: again.fit(X, y)):.2f}")
    print(f"warm predict {timed(lambda: again.predict(X_test)):.3f}")


if __name__ == "__main__":
    main()
