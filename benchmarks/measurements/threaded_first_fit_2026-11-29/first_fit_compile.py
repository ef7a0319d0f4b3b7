"""The first fit of a minibatch perceptron on an empty numba cache: its wall time and
the numba compile time of each top-level kernel (issue 33, by_threads).

``python first_fit_compile.py KIND`` with KIND one of ``viterbi``, ``beam`` (batches of
3 on 2 threads: the threaded minibatch epochs) or ``viterbi_serial``, ``beam_serial``
(the same on one thread). Run it with ``NUMBA_CACHE_DIR`` set to an empty directory.
The data are 32 tiny sentences: compile time does not depend on them.
"""

import sys
import time

from numba.core import event

from skstruct import StructuredPerceptron
from skstruct.decoders import BeamSearch

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
beam = {"decoder": BeamSearch(4), "update": "max_violation"}
models = {
    "viterbi": StructuredPerceptron(max_iter=2, batch_size=3, n_jobs=2),
    "viterbi_serial": StructuredPerceptron(max_iter=2, batch_size=3, n_jobs=1),
    "beam": StructuredPerceptron(**beam, max_iter=2, batch_size=3, n_jobs=2),
    "beam_serial": StructuredPerceptron(**beam, max_iter=2, batch_size=3, n_jobs=1),
}
kind = sys.argv[1]
start = time.perf_counter()
models[kind].fit(X, y)
fit = time.perf_counter() - start
top = ", ".join(f"{name} {s:.2f}" for name, s in sorted(compiled, key=lambda c: -c[1])[:3])
print(f"{kind}: fit {fit:.2f} s, compiling {sum(s for _, s in compiled):.2f} s ({top})")
