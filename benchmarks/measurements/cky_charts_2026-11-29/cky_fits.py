"""Issue 37's constituency parser before and after reusing its search charts: fits of
``StructuredPerceptron(CKY())`` and ``StructuredSVM(CKY())`` on the treebank sample's
first 400 training trees, 3 epochs, each learner in a fresh process per run, the two
installs alternating.

``python cky_fits.py PYTHON_BEFORE PYTHON_AFTER [rounds]``: each run prints the first
fit on an empty numba cache (compiling included; a fresh ``NUMBA_CACHE_DIR``), then a
second and a third fit in that process (warm), with the minor page faults of the third,
and the third model's ``predict`` of 200 dev sentences (of tags the 400 trees have),
twice (the second warm).
"""

import os
import subprocess
import sys
import tempfile

CHILD = """
import resource, sys, time, zlib
from skstruct import CKY, StructuredPerceptron, StructuredSVM
from skstruct.datasets import fetch_treebank
X, y = fetch_treebank("train", return_X_y=True)
X, y = X[:400], y[:400]
tags = {token["xpos"] for sentence in X for token in sentence}
dev = fetch_treebank("dev", return_X_y=True)[0]
X_dev = [s for s in dev if {t["xpos"] for t in s} <= tags][:200]
make = {"perceptron": lambda: StructuredPerceptron(CKY(), max_iter=3, random_state=0),
        "svm": lambda: StructuredSVM(CKY(), max_iter=3, tol=None, random_state=0)}[sys.argv[1]]
times = []
for run in range(3):
    faults, start = resource.getrusage(resource.RUSAGE_SELF).ru_minflt, time.perf_counter()
    model = make().fit(X, y)
    times.append(time.perf_counter() - start)
faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
predicts = []
for run in range(2):
    start = time.perf_counter()
    trees = model.predict(X_dev)
    predicts.append(time.perf_counter() - start)
print(f"first {times[0]:.2f} s, warm {times[1]:.2f} / {times[2]:.2f} s, {faults:,} page faults "
      f"(last fit), |coef| {abs(model.coef_).sum():.6f}; predict {predicts[0]:.2f} / "
      f"{predicts[1]:.2f} s, trees crc {zlib.crc32(str(trees).encode()):08x}")
"""


def main():
    pythons = {"before": sys.argv[1], "after": sys.argv[2]}
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    for _ in range(rounds):
        for learner in ("perceptron", "svm"):
            for name, python in pythons.items():
                with tempfile.TemporaryDirectory() as cache:
                    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
                    out = subprocess.run([python, "-c", CHILD, learner], env=env, cwd=cache,
                                         capture_output=True, text=True, check=True)  # fmt: skip
                print(f"{learner:<10} {name:<6} {out.stdout.strip()}", flush=True)


if __name__ == "__main__":
    main()
