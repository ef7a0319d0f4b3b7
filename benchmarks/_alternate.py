"""Side-by-side first runs of two installs (the A/B measurements in
``benchmarks/measurements/``): a child script in fresh processes on empty numba caches,
the installs alternating."""

import os
import subprocess
import sys
import tempfile


def alternate_cold(pythons, child, cases, rounds):
    """Run ``child`` (Python source) with each of ``cases`` as its one argument under
    every interpreter of ``pythons`` (``{name: path}``), in that order, ``rounds`` times;
    each run in a fresh process on an empty ``NUMBA_CACHE_DIR``. Prints each run's
    output line after its case and install; a failed run stops with its stderr."""
    for _ in range(rounds):
        for case in cases:
            for name, python in pythons.items():
                with tempfile.TemporaryDirectory() as cache:
                    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
                    out = subprocess.run([python, "-c", child, case], env=env, cwd=cache,
                                         capture_output=True, text=True)  # fmt: skip
                if out.returncode:
                    raise SystemExit(out.stderr)
                print(f"{case:<13} {name:<6} {out.stdout.strip()}", flush=True)


def before_after(child, cases):
    """The command line of the A/B scripts, ``SCRIPT PYTHON_BEFORE PYTHON_AFTER
    [rounds]``: :func:`alternate_cold` of ``child`` over ``cases`` under the two
    interpreters, 2 rounds unless given."""
    pythons = {"before": sys.argv[1], "after": sys.argv[2]}
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    alternate_cold(pythons, child, cases, rounds)


#: The end of such a child: given ``make`` (a new model), ``X``, ``y`` and ``X_test``, the
#: first fit, a second (warm) fit and ``predict`` after it, each after a full garbage
#: collection, printed with a checksum of the weights and the predictions.
TIMED_FITS = """
import gc, time, zlib
import numpy as np
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
crc = zlib.crc32(np.asarray(model.coef_).tobytes())
crc ^= zlib.crc32(str([list(p) for p in predicted]).encode())
print(f"first fit {times[0]:.2f} s, warm fit {times[1]:.2f} s, predict {predict:.3f} s, "
      f"crc {crc:08x}")
"""
