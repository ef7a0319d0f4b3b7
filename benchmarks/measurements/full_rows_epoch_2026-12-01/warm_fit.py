"""Warm fits of the default perceptron on all of CoNLL-2000 (tutorial dicts): three
fits in one process, the last two printed with the test accuracy and the skstruct used.
``FAMILY=svm`` in the environment: the default structured SVM's."""

import gc
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
from bench_first_run import _data, _model

import skstruct

family = os.environ.get("FAMILY", "perceptron")
X, y, X_test, y_test = _data(family)
seconds = []
for _ in range(3):
    model = _model(family)
    gc.collect()
    start = time.perf_counter()
    model.fit(X, y)
    seconds.append(time.perf_counter() - start)
pairs = [(a, b) for p, g in zip(model.predict(X_test), y_test) for a, b in zip(p, g)]
accuracy = sum(a == b for a, b in pairs) / len(pairs)
print(" ".join(f"{s:.3f}" for s in seconds[1:]), f"acc={accuracy:.4f}", skstruct.__file__)
