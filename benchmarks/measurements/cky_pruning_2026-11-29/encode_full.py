"""The pruning pass on the whole treebank sample, before and after:
``python encode_full.py PYTHON_BEFORE PYTHON_AFTER``. Each install, in a process of its
own (kernels compiled before the timing by a small fit), fits ``StructuredPerceptron(
CKY())`` for one epoch on the 3,396 training trees (the pruning pass over them
included), then encodes the training sentences and the test sentences again (the
pruning pass on 2 threads, most of an encoding), timed twice; the cells kept are
checksummed."""

import subprocess
import sys

CHILD = """
import time, zlib
from skstruct import CKY, StructuredPerceptron
from skstruct.datasets import fetch_treebank
X, y = fetch_treebank("train", return_X_y=True)
X_test = fetch_treebank("test", return_X_y=True)[0]
StructuredPerceptron(CKY(), max_iter=1, random_state=0).fit(X[:50], y[:50])
start = time.perf_counter()
model = StructuredPerceptron(CKY(), max_iter=1, random_state=0).fit(X, y)
print(f"fit, 1 epoch: {time.perf_counter() - start:.1f} s")
tags = model.grammar_.tags
X_test = [s for s in X_test if {t["xpos"] for t in s} <= tags]
for run in range(2):
    for name, sentences in (("train", X), ("test", X_test)):
        start = time.perf_counter()
        encoded = model.encode(sentences)
        print(f"encode {name} ({len(sentences)} sentences): {time.perf_counter() - start:.2f} s, "
              f"{encoded.cells.size:,} cells, crc {zlib.crc32(encoded.cells.tobytes()):08x}")
"""

for name, python in (("before", sys.argv[1]), ("after", sys.argv[2])):
    out = subprocess.run([python, "-c", CHILD], capture_output=True, text=True, check=True,
                         cwd="/tmp")  # fmt: skip
    for line in out.stdout.splitlines():
        print(f"{name:<6} {line}", flush=True)
