"""Dev probe: the seven voters of UDPipeline's parser with the second-order graph
parser with or without grandparents, its vote 1, 1.5 or 2 (the others 1). Reads the
dev heads kept by ``../ud_voting_2026-11-29/probe.py train`` in ``preds.pkl`` (the
current folder), gold annotation; prints the voted trees' dev UAS (every word)."""

import pickle

import numpy as np

from skstruct import Eisner, VotingParser
from skstruct.datasets import fetch_ud

OTHERS = ["eager_l2r", "eager_r2l", "eager_upos_l2r", "eager_upos_r2l", "standard_l2r",
          "graph1"]  # fmt: skip


def main():
    dev = fetch_ud("en_ewt", "dev").data
    with open("preds.pkl", "rb") as file:
        preds = pickle.load(file)
    words = sum(len(s) for s in dev)
    eisner = Eisner()
    for graph in ("graph2", "graph2_grand"):
        for vote in (1.0, 1.5, 2.0):
            names = [graph, *OTHERS]
            # ties go to the graph parser, as in VotingParser.predict
            votes = np.array([vote + 1e-6] + [1.0] * len(OTHERS))
            right = 0
            for i, sentence in enumerate(dev):
                heads = VotingParser.reparse(eisner, votes, [preds[n][i] for n in names])
                right += sum(h == t["head"] for h, t in zip(heads, sentence))
            print(f"{graph} vote {vote}: dev UAS {100 * right / words:.2f}", flush=True)


if __name__ == "__main__":
    main()
