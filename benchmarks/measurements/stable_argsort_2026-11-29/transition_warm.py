"""The transition beam's warm speed before and after (its candidates are sorted every
step): ``python transition_warm.py PYTHON_BEFORE PYTHON_AFTER [rounds]``. Each run, in a
fresh process on a warm kernel cache, fits ``StructuredPerceptron(ArcEager(beam_size=8),
update="max_violation")`` on the PTB sample for 5 epochs after a small fit that loads
the kernels, and prints the fit's time; the two installs alternate."""

import subprocess
import sys

CHILD = """
import time
from skstruct import ArcEager, StructuredPerceptron
from skstruct.datasets import fetch_ptb_sample
X, y = fetch_ptb_sample("train", return_X_y=True)
make = lambda n: StructuredPerceptron(ArcEager(beam_size=8), update="max_violation",
                                      max_iter=n, random_state=0)
make(1).fit(X[:100], y[:100])
start = time.perf_counter()
model = make(5).fit(X, y)
print(f"{time.perf_counter() - start:.2f}")
"""


def main():
    pythons = {"before": sys.argv[1], "after": sys.argv[2]}
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    times = {name: [] for name in pythons}
    for _ in range(rounds):
        for name, python in pythons.items():
            out = subprocess.run([python, "-c", CHILD], capture_output=True, text=True,
                                 check=True, cwd="/tmp")  # fmt: skip
            times[name].append(float(out.stdout))
            print(f"{name:<6} fit {times[name][-1]:.2f} s", flush=True)
    for name, values in times.items():
        values = sorted(values)
        print(
            f"{name}: min {values[0]:.2f} median {values[len(values) // 2]:.2f} "
            f"max {values[-1]:.2f} s"
        )


if __name__ == "__main__":
    main()
