"""The default perceptron's first fit on an empty numba cache: 50 CoNLL-2000 sentences
(tutorial dicts), so that the time is almost all compilation, or all of them with the
argument ``all``. Prints the seconds. ``FAMILY=svm`` in the environment: the default
structured SVM's instead (``../svm_full_rows_2026-12-07/``).

Run with the skstruct under test first on ``PYTHONPATH`` and a fresh ``NUMBA_CACHE_DIR``
(``run.sh`` does both, alternating versions).
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
from bench_first_run import _data, _model

family = os.environ.get("FAMILY", "perceptron")
model = _model(family)
X, y, _, _ = _data(family)
start = time.perf_counter()
n = None if sys.argv[1:] == ["all"] else 50
model.fit(X[:n], y[:n])
print(f"{time.perf_counter() - start:.3f}")
