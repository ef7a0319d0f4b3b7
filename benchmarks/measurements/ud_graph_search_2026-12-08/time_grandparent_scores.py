"""Seconds for ``tree.grandparent_scores`` (the projective parts) over the first 3,000
sentences of English-EWT train, under the weights of a one-epoch fit of the UD pipeline's
graph perceptron (saved once by ``--save``, so that every tree times the same numbers),
five passes, and a digest of the scores (the same numbers before and after a change).

Run from a checkout (or with ``PYTHONPATH`` naming another): ``python
time_grandparent_scores.py --save`` once, then ``python time_grandparent_scores.py
LABEL``."""

import hashlib
import sys
import time

import numpy as np

from skstruct._kernels import tree

STATE = "/tmp/grandparent_scores_state.npz"

if sys.argv[1] == "--save":
    from skstruct.datasets import fetch_ud
    from skstruct.parsing import graph_perceptron

    train = fetch_ud("en_ewt", "train").data[:3000]
    heads = [[t["head"] for t in s] for s in train]
    parser = graph_perceptron(("lemma", "feats"), max_iter=1, random_state=0).fit(train, heads)
    encoded = parser.task_.encode_X(parser, train)
    np.savez(STATE, attrs=encoded.attrs, offsets=encoded.offsets,
             coef=np.asarray(parser.coef_, dtype=np.float64))  # fmt: skip
    sys.exit()
saved = np.load(STATE)
attrs, offsets, coef = saved["attrs"], saved["offsets"], saved["coef"]
states = tree.scratch(tree.max_length(offsets), True)[4]
seconds, digest = [], hashlib.sha1()
for rep in range(5):
    start = time.perf_counter()
    for i in range(len(offsets) - 1):
        first, n = offsets[i], offsets[i + 1] - offsets[i]
        grand = np.zeros((n + 1,) * 3)
        tree.grandparent_scores(attrs, first, n, coef, coef.shape[0], grand, states, False)
        if rep == 0:
            digest.update(grand.tobytes())
    seconds.append(time.perf_counter() - start)
print(sys.argv[1], "grandparent_scores", " ".join(f"{s:.3f}" for s in seconds), "s, scores",
      digest.hexdigest()[:12])  # fmt: skip
