"""Issue 33 (compile less): the kernels' stable argsort written out instead of numba's
``np.argsort(kind="mergesort")``, before and after, on the fits that sort.

``python first_fits.py PYTHON_BEFORE PYTHON_AFTER [rounds]``: for each model, a fresh
process on an empty numba cache (a new ``NUMBA_CACHE_DIR``) times its first fit
(compiling included), a second fit in that process (warm), and ``predict`` of the test
set after it (warm), with a checksum of the weights and predictions; the two installs
alternate.

* ``svm``: ``StructuredSVM()`` defaults (``random_state=0``) on CoNLL-2000 (the
  sklearn-crfsuite tutorial's token dicts, as ``benchmarks/bench_first_run.py``): the
  delta of two outputs sorts its parts (``delta.collapse``).
* ``arc-eager``: ``StructuredPerceptron(ArcEager(beam_size=8), update="max_violation")``
  on the PTB sample, 10 epochs: the transition beam sorts its candidates every step.
* ``beam-threads``: ``StructuredPerceptron(BeamSearch(beam_size=8),
  update="max_violation", batch_size=8, n_jobs=2)`` on CoNLL-2000's chunk tags (23
  labels: the beam's top-k sorts where candidates are few), 5 epochs: the batch
  balancer sorts each batch's sentences.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/
from _alternate import TIMED_FITS, before_after

BENCHMARKS = Path(__file__).resolve().parents[2]

CHILD = (
    """
import gc, sys, time, zlib
import numpy as np
sys.path.insert(0, BENCHMARKS)
family = sys.argv[1]
if family == "svm":
    import bench_first_run as bench
    X, y, X_test, _ = bench._data("svm")
    from skstruct import StructuredSVM
    make = lambda: StructuredSVM(random_state=0)
elif family == "arc-eager":
    from skstruct import ArcEager, StructuredPerceptron
    from skstruct.datasets import fetch_ptb_sample
    X, y = fetch_ptb_sample("train", return_X_y=True)
    X_test = fetch_ptb_sample("test", return_X_y=True)[0]
    make = lambda: StructuredPerceptron(ArcEager(beam_size=8), update="max_violation",
                                        max_iter=10, random_state=0)
else:
    import bench_first_run as bench
    X, y, X_test, _ = bench._data("perceptron")
    from skstruct import BeamSearch, StructuredPerceptron
    make = lambda: StructuredPerceptron(BeamSearch(beam_size=8), update="max_violation",
                                        batch_size=8, n_jobs=2, max_iter=5, random_state=0)
""".replace("BENCHMARKS", repr(str(BENCHMARKS)))
    + TIMED_FITS
)


def main():
    before_after(CHILD, ("svm", "arc-eager", "beam-threads"))


if __name__ == "__main__":
    main()
