"""The first fit of a structured SVM (BCFW) on an empty numba cache: its wall time and
the numba compile time of each top-level kernel (issue 33: BCFW's epochs pick their
oracles with ``by_threads``).

``python first_fit_compile.py KIND`` with KIND one of ``chain``, ``tree`` (batches of 3
on 2 threads: the threaded epochs) or ``chain_serial``, ``tree_serial`` (the defaults:
batches of one, one thread). Run it with ``NUMBA_CACHE_DIR`` set to an empty directory.
The data are tiny: compile time does not depend on them.
"""

import sys
import time

from numba.core import event

from skstruct import Eisner, StructuredSVM

compiled = []  # (kernel, seconds) of each top-level compile
_depth = [0]


class _TopLevelCompiles(event.Listener):
    def on_start(self, ev):
        _depth[0] += 1
        ev.data.setdefault("started", time.perf_counter())

    def on_end(self, ev):
        _depth[0] -= 1
        if _depth[0] == 0:
            seconds = time.perf_counter() - ev.data["started"]
            compiled.append((ev.data["dispatcher"].py_func.__name__, seconds))


event.register("numba:compile", _TopLevelCompiles())

sentences = ["a b c", "b c a d", "c a", "d d a b"]
tags = [["A", "B", "C"], ["B", "C", "A", "D"], ["C", "A"], ["D", "D", "A", "B"]]
X = [[{"w": w, "s": w[-1:]} for w in s.split()] for s in sentences] * 8
y = tags * 8
tokens = [[{"form": w, "xpos": w.upper()} for w in s.split()] for s in sentences] * 8
heads = [[2, 0, 2], [2, 0, 2, 3], [0, 1], [2, 3, 0, 3]] * 8
kind = sys.argv[1]
threaded = {"batch_size": 3, "n_jobs": 2}
if kind.startswith("chain"):
    model, data = StructuredSVM(max_iter=2, random_state=0), (X, y)
else:
    model, data = StructuredSVM(Eisner(), max_iter=2, random_state=0), (tokens, heads)
if not kind.endswith("_serial"):
    model.set_params(**threaded)
start = time.perf_counter()
model.fit(*data)
fit = time.perf_counter() - start
top = ", ".join(f"{name} {s:.2f}" for name, s in sorted(compiled, key=lambda c: -c[1])[:3])
print(f"{kind}: fit {fit:.2f} s, compiling {sum(s for _, s in compiled):.2f} s ({top})")
