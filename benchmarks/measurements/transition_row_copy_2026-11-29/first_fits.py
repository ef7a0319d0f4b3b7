"""Issue 33 (compile less): the transition beam copies its states' rows in loops instead
of row assignments, before and after. ``python first_fits.py PYTHON_BEFORE PYTHON_AFTER
[rounds]``: for arc-eager and arc-standard (beam 8, max-violation, PTB sample, 3
epochs), a fresh process on an empty numba cache times the first fit (compiling
included), a second fit (warm) and ``predict`` of the test set, with a checksum of the
weights and trees; the two installs alternate."""

import os
import subprocess
import sys
import tempfile

CHILD = """
import gc, sys, time, zlib
import numpy as np
from skstruct import ArcEager, ArcStandard, StructuredPerceptron
from skstruct.datasets import fetch_ptb_sample
X, y = fetch_ptb_sample("train", return_X_y=True)
X_test = fetch_ptb_sample("test", return_X_y=True)[0]
decoder = {"arc-eager": ArcEager, "arc-standard": ArcStandard}[sys.argv[1]]
make = lambda: StructuredPerceptron(decoder(beam_size=8), update="max_violation",
                                    max_iter=3, random_state=0)
make()
times = []
for run in range(2):
    model = make()
    gc.collect()
    start = time.perf_counter()
    model.fit(X, y)
    times.append(time.perf_counter() - start)
gc.collect()
start = time.perf_counter()
trees = model.predict(X_test)
predict = time.perf_counter() - start
crc = zlib.crc32(np.asarray(model.coef_).tobytes())
crc ^= zlib.crc32(str([list(t) for t in trees]).encode())
print(f"first fit {times[0]:.2f} s, warm fit {times[1]:.2f} s, predict {predict:.3f} s, "
      f"crc {crc:08x}")
"""


def main():
    pythons = {"before": sys.argv[1], "after": sys.argv[2]}
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    for _ in range(rounds):
        for decoder in ("arc-eager", "arc-standard"):
            for name, python in pythons.items():
                with tempfile.TemporaryDirectory() as cache:
                    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
                    out = subprocess.run([python, "-c", CHILD, decoder], env=env, cwd=cache,
                                         capture_output=True, text=True)  # fmt: skip
                if out.returncode:
                    raise SystemExit(out.stderr)
                print(f"{decoder:<13} {name:<6} {out.stdout.strip()}", flush=True)


if __name__ == "__main__":
    main()
