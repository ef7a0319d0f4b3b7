"""Warm threaded minibatch fits on Brown (first 10,000 sentences, 3 epochs, batches of 8 on
2 threads): beam 4 with max-violation and first-order Viterbi; fit seconds and accuracy on
the next 2,000 sentences. The kernels are compiled (or loaded) by a 300-sentence fit first."""

import time

from skstruct import StructuredPerceptron
from skstruct.datasets import fetch_brown
from skstruct.decoders import BeamSearch, Viterbi
from skstruct.features import TokenFeatures

X, y = fetch_brown(return_X_y=True)
X, y, Xt, yt = X[:10000], y[:10000], X[10000:12000], y[10000:12000]
for name, dec in (("beam4", BeamSearch(4)), ("viterbi", Viterbi())):
    m = StructuredPerceptron(
        dec,
        features=TokenFeatures(),
        update="max_violation" if name == "beam4" else "standard",
        max_iter=3,
        batch_size=8,
        n_jobs=2,
        random_state=0,
    )
    m.fit(X[:300], y[:300])  # compile / load
    start = time.perf_counter()
    m.fit(X, y)
    fit = time.perf_counter() - start
    print(name, f"fit {fit:.2f} s acc {m.score(Xt, yt):.5f}", flush=True)
