"""Seconds per pass in each kernel of the grandparent perceptron's decoding (arc,
sibling and grandparent scores, the grandparent Eisner search) on the first 3,000
sentences of English-EWT train, under the weights of a one-epoch fit; three passes.

Run from a checkout (or with ``PYTHONPATH`` naming another): ``python kernel_parts.py``."""

import time

import numpy as np

from skstruct._kernels import tree
from skstruct.datasets import fetch_ud
from skstruct.parsing import graph_perceptron

train = fetch_ud("en_ewt", "train").data[:3000]
heads = [[t["head"] for t in s] for s in train]
parser = graph_perceptron(("lemma", "feats"), max_iter=1, random_state=0).fit(train, heads)
encoded = parser.task_.encode_X(parser, train)
attrs, offsets = encoded.attrs, encoded.offsets
coef = np.asarray(parser.coef_, dtype=np.float64)
n_features = coef.shape[0]
arc, sib, _, buffer, states, _ = tree.scratch(tree.max_length(offsets), True)
for _ in range(3):
    seconds = dict.fromkeys(("arc", "sibling", "grandparent", "eisner_grand"), 0.0)
    for i in range(len(train)):
        start, n = offsets[i], offsets[i + 1] - offsets[i]
        a, s = arc[: n + 1, : n + 1], sib[: n + 1, : n + 1, : n + 1]
        t0 = time.perf_counter()
        tree.arc_scores(attrs, start, n, coef, n_features, a, buffer)
        t1 = time.perf_counter()
        tree.sibling_scores(attrs, start, n, coef, n_features, s)
        t2 = time.perf_counter()
        grand = np.empty((n + 1,) * 3)
        tree.grandparent_scores(attrs, start, n, coef, n_features, grand, states, False)
        t3 = time.perf_counter()
        tree.eisner_grand(a, s, grand, n, True)
        t4 = time.perf_counter()
        for key, dt in zip(seconds, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
            seconds[key] += dt
    print(" ".join(f"{k} {v:.2f} s" for k, v in seconds.items()), flush=True)
