"""Dev probe (issue 36): the grandparent graph parser learnt by the averaged perceptron, as
a voter of UDPipeline's parser (UD English-EWT, gold tags, lemmas and FEATS).

``python probe.py train EPOCHS`` trains ``StructuredPerceptron(Eisner(order=2,
projectivize=True, grandparents=True))`` over ``ArcFeatures(fields=["lemma", "feats"])``
on train, prints its dev UAS and keeps its dev heads in ``perceptron_EPOCHS.pkl``.
``python probe.py combine FILE`` votes those heads with the voters' dev heads of
``../ud_voting_2026-11-29/probe.py`` (its ``preds.pkl``, in the working directory; the
grandparent SVM parser among them): the default seven, the seven and this one, and this
one in place of the first-order graph parser or of arc-standard.
"""

import pickle
import sys
import time

import numpy as np

from skstruct import ArcFeatures, Eisner, StructuredPerceptron, VotingParser
from skstruct.datasets import fetch_ud

SEVEN = ["graph2_grand", "eager_l2r", "eager_r2l", "eager_upos_l2r", "eager_upos_r2l",
         "standard_l2r", "graph1"]  # fmt: skip


def uas(dev, heads):
    right = sum(int(h) == t["head"] for s, hs in zip(dev, heads) for t, h in zip(s, hs))
    return 100 * right / sum(map(len, dev))


def train(epochs):
    X, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data
    decoder = Eisner(order=2, projectivize=True, grandparents=True)
    parser = StructuredPerceptron(decoder, max_iter=epochs, random_state=0,
                                  features=ArcFeatures(fields=["lemma", "feats"]))  # fmt: skip
    start = time.perf_counter()
    parser.fit(X, [[t["head"] for t in s] for s in X])
    seconds = time.perf_counter() - start
    pred = [list(map(int, hs)) for hs in parser.predict(dev)]
    print(f"perceptron, {epochs} epochs: fit {seconds:.1f} s, dev UAS {uas(dev, pred):.2f}")
    with open(f"perceptron_{epochs}.pkl", "wb") as file:
        pickle.dump(pred, file)


def combine(path):
    dev = fetch_ud("en_ewt", "dev").data
    with open("preds.pkl", "rb") as file:
        preds = pickle.load(file)
    with open(path, "rb") as file:
        extra = pickle.load(file)
    seven = [preds[name] for name in SEVEN]
    sets = {
        "the seven": seven,
        "the seven and the perceptron": [*seven, extra],
        "the perceptron instead of the first-order graph parser": [*seven[:-1], extra],
        "the perceptron instead of arc-standard": [*seven[:5], seven[6], extra],
    }
    print(f"{path}: alone {uas(dev, extra):.2f}")
    for name, voters in sets.items():
        votes = np.ones(len(voters))
        votes[0] += 1e-3  # the grandparent SVM parser breaks ties, as in the pipeline
        voted = [VotingParser.reparse(Eisner(), votes, [v[i] for v in voters])
                 for i in range(len(dev))]  # fmt: skip
        print(f"{name}: {uas(dev, voted):.2f}", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "train":
        train(int(sys.argv[2]))
    else:
        combine(sys.argv[2])
