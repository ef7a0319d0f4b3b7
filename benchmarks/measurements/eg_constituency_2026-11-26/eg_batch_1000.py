"""Batch EG (or the CRF) on the first N training trees, dev F1 after every EG step.

Run: ``python eg_batch_1000.py N eg|crf C STEPS`` (C is c2 for the CRF).
"""

import sys
import time

from skstruct import CKY, ConditionalRandomField, ExponentiatedGradientSSVM
from skstruct.datasets import fetch_treebank

n, which, C, steps = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
X, y = fetch_treebank("train", return_X_y=True)
X_dev, y_dev = fetch_treebank("dev", return_X_y=True)
X, y = X[:n], y[:n]
tags = {token["xpos"] for sentence in X for token in sentence}
keep = [i for i, sentence in enumerate(X_dev) if {t["xpos"] for t in sentence} <= tags]
X_dev, y_dev = [X_dev[i] for i in keep], [y_dev[i] for i in keep]
start = time.time()
if which == "eg":
    model = ExponentiatedGradientSSVM(CKY(), online=False, C=C, max_iter=steps, tol=None)
    model.fit(X, y, X_dev=X_dev, y_dev=y_dev)
else:
    model = ConditionalRandomField(CKY(), c2=C, max_iter=steps).fit(X, y)
fit = time.time() - start
dev = round(100 * model.score(X_dev, y_dev), 2)
print(which, n, C, steps, "fit", round(fit, 1), "dev", dev, len(X_dev), flush=True)
for h in getattr(model, "history_", []) if which == "eg" else []:
    print(h["epoch"], round(h["primal"], 1), round(h["dual"], 2), round(h["gap"] / h["primal"], 3),
          h["mean_rate"], h["rejected"], round(h["seconds"], 2), h["dev_score"])  # fmt: skip
