"""Reparsing seven voters' trees for every sentence of English-EWT test with the
pipeline's votes (the first 2, the others 1), first-order Eisner against Chu-Liu-Edmonds.

The voters' trees are the gold heads with a tenth of them changed at random (a tree per
voter). ``python reparse_time.py Eisner|ChuLiuEdmonds`` times one decoder's first pass in
a new process (on an empty ``NUMBA_CACHE_DIR``: its compile included); ``python
reparse_time.py warm`` times three passes of each, alternating, in one process.
"""

import sys
import time

import numpy as np

from skstruct import ChuLiuEdmonds, Eisner, VotingParser
from skstruct.datasets import fetch_ud

DECODERS = {"Eisner": Eisner(), "ChuLiuEdmonds": ChuLiuEdmonds()}


def voters_trees(sentences, n_voters=7, changed=0.1, seed=0):
    rng = np.random.RandomState(seed)
    trees = []
    for sentence in sentences:
        gold = np.array([t["head"] for t in sentence if isinstance(t.get("head"), int)])
        n = len(gold)
        votes = []
        for _ in range(n_voters):
            heads = gold.copy()
            flip = rng.rand(n) < changed
            heads[flip] = rng.randint(0, n + 1, flip.sum())
            heads[heads == np.arange(1, n + 1)] = 0  # no word its own head
            votes.append(heads.tolist())
        trees.append(votes)
    return trees


def main():
    trees = voters_trees(fetch_ud("en_ewt", "test").data)
    votes = np.array([2.0, 1, 1, 1, 1, 1, 1])
    votes[0] += 1e-6 * votes.min()  # ties go to the first parser, as predict does

    def seconds(name):
        start = time.perf_counter()
        for sentence in trees:
            VotingParser.reparse(DECODERS[name], votes, sentence)
        return time.perf_counter() - start

    if sys.argv[1] != "warm":
        print(f"{sys.argv[1]} first call over the test set (compile included): "
              f"{seconds(sys.argv[1]):.2f} s")  # fmt: skip
        return
    for _ in range(3):
        print("; ".join(f"{name}: {seconds(name):.3f} s" for name in DECODERS))


if __name__ == "__main__":
    main()
