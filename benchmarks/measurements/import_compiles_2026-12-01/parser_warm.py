"""Warm parser fits: ``StructuredPerceptron(Eisner())`` on the PTB sample, two timed
fits after a warm-up fit of 20 sentences, then the test set's predictions and score.
Run with a checkout on ``PYTHONPATH`` and a ``NUMBA_CACHE_DIR`` of its own (see the
README); prints the checkout's folder name first."""

import gc
import time

import skstruct
from skstruct.datasets import fetch_ptb_sample

X, y = fetch_ptb_sample("train", return_X_y=True)
X_test, y_test = fetch_ptb_sample("test", return_X_y=True)
skstruct.StructuredPerceptron(skstruct.Eisner(), random_state=0, max_iter=1).fit(X[:20], y[:20])
fits = []
for _ in range(2):
    gc.collect()
    start = time.perf_counter()
    model = skstruct.StructuredPerceptron(skstruct.Eisner(), random_state=0).fit(X, y)
    fits.append(time.perf_counter() - start)
gc.collect()
start = time.perf_counter()
model.predict(X_test)
predict = time.perf_counter() - start
print(
    skstruct.__file__.split("/")[2],
    f"warm parser fits {fits[0]:.2f} {fits[1]:.2f} predict {predict:.3f} "
    f"score {model.score(X_test, y_test):.4f}",
)
