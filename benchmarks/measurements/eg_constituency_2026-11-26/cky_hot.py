"""CKY hot paths, warm: a perceptron fit (best_tree on every sentence), prediction
(best_trees) and inside-outside (marginals and expected features) on treebank trees.

Run: ``python cky_hot.py LABEL`` (``PYTHONPATH`` to the install to time).
"""

import hashlib
import sys
import time

import numpy as np

from skstruct import CKY, StructuredPerceptron
from skstruct.datasets import fetch_treebank

X, y = fetch_treebank("train", return_X_y=True)
X_test, _ = fetch_treebank("test", return_X_y=True)
X, y = X[:600], y[:600]
# compile first
StructuredPerceptron(CKY(), max_iter=1, random_state=0).fit(X[:20], y[:20]).predict(X_test[:5])
start = time.perf_counter()
model = StructuredPerceptron(CKY(), max_iter=2, random_state=0).fit(X, y)
fit = time.perf_counter() - start
predict = []
for _ in range(6):
    start = time.perf_counter()
    out = model.predict(X_test)
    predict.append(time.perf_counter() - start)
structure = model.structure_
encoded = model.encode(X[:150])
bounds = structure.output_offsets(encoded)
gold = model.decoder_.predict(structure, encoded, model.coef_)  # the trees the weights parse


def inside_outside():
    total, array = 0.0, np.zeros(structure.n_weights)
    for i in range(encoded.n_sentences):
        if gold[bounds[i]] == -2:  # parsed flat
            continue
        scores = structure.scores(encoded, i, model.coef_ * 0.1)
        log_z, mu = structure.marginals(scores)
        structure.add_expected_delta(array, encoded, i, gold[bounds[i] : bounds[i + 1]], mu, 1.0)
        total += log_z
    return total + float(array @ array)


inside_outside()
start = time.perf_counter()
z = inside_outside()
seconds = time.perf_counter() - start
digest = hashlib.md5("".join(str(tree) for tree in out).encode()).hexdigest()[:10]
print(f"{sys.argv[1]} fit {fit:.2f} predict {min(predict):.3f} inside_outside {seconds:.3f}",
      f"logz {z:.6f} trees {digest}")  # fmt: skip
