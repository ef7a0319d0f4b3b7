"""The first fit of a minibatch perceptron on an empty numba cache: its wall time and
the numba compile time of each top-level kernel (issue 33, by_threads).

``python first_fit_compile.py KIND`` with KIND one of ``viterbi``, ``beam`` (batches of
3 on 2 threads: the threaded minibatch epochs) or ``viterbi_serial``, ``beam_serial``
(the same on one thread). Run it with ``NUMBA_CACHE_DIR`` set to an empty directory.
The data are 32 tiny sentences: compile time does not depend on them.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/: _compiles
import _compiles

from skstruct import StructuredPerceptron
from skstruct.decoders import BeamSearch

_compiles.start()

X, y = _compiles.tiny_chains()
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
print(f"{kind}: fit {fit:.2f} s, {_compiles.summary()}")
