"""Seconds for ``tree.eisner_grand`` on 600 random problems of 3-59 words (arc, sibling and
grandparent scores drawn from a normal distribution, seed 0), three passes after one
warm-up call, and a digest of the heads found (the same trees before and after a change).

Run from a checkout (or with ``PYTHONPATH`` naming another): ``python time_eisner_grand.py
LABEL``."""

import hashlib
import sys
import time

import numpy as np

from skstruct._kernels import tree

rng = np.random.default_rng(0)
lengths = rng.choice(np.r_[np.arange(3, 25), np.arange(3, 40), np.arange(20, 60)], 600)
problems = []
for n in lengths:
    N = n + 1
    arc, sib = rng.normal(size=(N, N)), rng.normal(size=(N, N, N))
    problems.append((arc, sib, rng.normal(size=(N, N, N)), int(n)))
tree.eisner_grand(*problems[0], True)
found, seconds = [], []
for rep in range(3):
    start = time.perf_counter()
    for problem in problems:
        heads = tree.eisner_grand(*problem, True)
        if rep == 0:
            found.append(heads)
    seconds.append(time.perf_counter() - start)
digest = hashlib.sha1(np.concatenate(found).tobytes()).hexdigest()[:12]
print(sys.argv[1], "eisner_grand", " ".join(f"{s:.3f}" for s in seconds), "s, heads", digest)
