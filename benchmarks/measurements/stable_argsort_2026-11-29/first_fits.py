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

import os
import subprocess
import sys
import tempfile
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2]

CHILD = """
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
make()  # the model's classes imported before the clock starts
times = []
for run in range(2):
    model = make()
    gc.collect()
    start = time.perf_counter()
    model.fit(X, y)
    times.append(time.perf_counter() - start)
gc.collect()
start = time.perf_counter()
predicted = model.predict(X_test)
predict = time.perf_counter() - start
coef = np.asarray(model.coef_)
crc = zlib.crc32(coef.tobytes()) ^ zlib.crc32(str([list(p) for p in predicted]).encode())
print(f"first fit {times[0]:.2f} s, warm fit {times[1]:.2f} s, predict {predict:.3f} s, "
      f"crc {crc:08x}")
""".replace("BENCHMARKS", repr(str(BENCHMARKS)))


def main():
    pythons = {"before": sys.argv[1], "after": sys.argv[2]}
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    for _ in range(rounds):
        for family in ("svm", "arc-eager", "beam-threads"):
            for name, python in pythons.items():
                with tempfile.TemporaryDirectory() as cache:
                    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
                    out = subprocess.run([python, "-c", CHILD, family], env=env, cwd=cache,
                                         capture_output=True, text=True)  # fmt: skip
                if out.returncode:
                    raise SystemExit(out.stderr)
                print(f"{family:<13} {name:<6} {out.stdout.strip()}", flush=True)


if __name__ == "__main__":
    main()
