"""Dev probe (issue 36): ``python c_combine.py FILE ...`` votes the graph voter's dev heads
kept by ``c_probe.py`` (or, first, the default one's) with the other six voters' heads of
``../ud_voting_2026-11-29/probe.py`` (its ``preds.pkl``, in the working directory)."""

import pickle
import sys

import numpy as np

from skstruct import Eisner, VotingParser
from skstruct.datasets import fetch_ud

OTHERS = ["eager_l2r", "eager_r2l", "eager_upos_l2r", "eager_upos_r2l", "standard_l2r", "graph1"]


def main(paths):
    dev = fetch_ud("en_ewt", "dev").data
    with open("preds.pkl", "rb") as file:
        preds = pickle.load(file)

    def uas(heads):
        right = sum(int(h) == t["head"] for s, hs in zip(dev, heads) for t, h in zip(s, hs))
        return 100 * right / sum(map(len, dev))

    for path in ["base", *paths]:
        if path == "base":
            graph = preds["graph2_grand"]
        else:
            with open(path, "rb") as file:
                graph = pickle.load(file)
        voters = [graph] + [preds[name] for name in OTHERS]
        votes = np.ones(len(voters))
        votes[0] += 1e-3  # the graph parser breaks ties, as in probe.py
        voted = [VotingParser.reparse(Eisner(), votes, [v[i] for v in voters])
                 for i in range(len(dev))]  # fmt: skip
        print(path, f"alone {uas(graph):.2f} voted {uas(voted):.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
