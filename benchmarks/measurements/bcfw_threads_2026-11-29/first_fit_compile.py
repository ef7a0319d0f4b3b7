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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/: _compiles
import _compiles

from skstruct import Eisner, StructuredSVM

_compiles.start()

X, y = _compiles.tiny_chains()
sentences = [[t["w"] for t in s] for s in X]
tokens = [[{"form": w, "xpos": w.upper()} for w in s] for s in sentences]
heads = [[2, 0, 2], [2, 0, 2, 3], [0, 1], [2, 3, 0, 3]] * 8  # the sentences' trees
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
print(f"{kind}: fit {fit:.2f} s, {_compiles.summary()}")
