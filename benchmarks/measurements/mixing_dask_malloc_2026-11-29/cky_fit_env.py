"""Issue 38: what a fixed mmap threshold costs a fit that is not mixing's encoding.

``StructuredPerceptron(CKY())`` on the first 200 trees of the treebank sample, 2 epochs
(the constituency notebook's small fit), in a fresh process each, alternating: with the
``MALLOC_TRIM_THRESHOLD_=65536`` that dask's nannies give their workers (and leave in
the environment of the process that started a ``LocalCluster``), and without it.
Kernels compiled (or loaded) by a first fit on 20 trees, not timed.

Run: ``python cky_fit_env.py [rounds]``
"""

import os
import subprocess
import sys

CHILD = """
import resource, time
from skstruct import CKY, StructuredPerceptron
from skstruct.datasets import fetch_treebank
X, y = fetch_treebank("train", return_X_y=True)
StructuredPerceptron(CKY(), max_iter=1, random_state=0).fit(X[:20], y[:20])
faults, start = resource.getrusage(resource.RUSAGE_SELF).ru_minflt, time.perf_counter()
StructuredPerceptron(CKY(), max_iter=2, random_state=0).fit(X[:200], y[:200])
print(f"{time.perf_counter() - start:.2f} s, "
      f"{resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults:,} page faults")
"""


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for _ in range(rounds):
        for trim in ("65536", None):
            env = dict(os.environ)
            env.pop("MALLOC_TRIM_THRESHOLD_", None)
            if trim:
                env["MALLOC_TRIM_THRESHOLD_"] = trim
            out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                                 text=True, check=True).stdout.strip()  # fmt: skip
            print(f"MALLOC_TRIM_THRESHOLD_={trim or 'unset':<6} fit {out}", flush=True)


if __name__ == "__main__":
    main()
