"""A perceptron fit whose weights depend on ``_kernels/values.py`` (the chain kernels'
helper that reads a token feature's value): prints a digest of the weights and the
fit's wall time (compiling or loading included)."""

import hashlib
import time

start = time.perf_counter()
from skstruct import StructuredPerceptron  # noqa: E402

X = [[{"w": "a", "v": 2.0}, {"w": "b"}], [{"w": "b"}, {"w": "a", "v": 0.5}]] * 5
y = [["A", "B"], ["B", "A"]] * 5
model = StructuredPerceptron(max_iter=3, random_state=0, n_jobs=1).fit(X, y)
digest = hashlib.sha1(model.coef_.tobytes()).hexdigest()[:12]
print(f"weights {digest}, import and fit {time.perf_counter() - start:.2f} s")
