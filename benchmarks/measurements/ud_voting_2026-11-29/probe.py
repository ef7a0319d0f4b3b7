"""Dev probe (issue 36): parser combination by reparsing (Sagae & Lavie 2006) on UD
English-EWT with gold tags, lemmas and FEATS.

``python probe.py train [NAME ...]`` trains each parser (or those named, added to the
heads kept) on train and keeps its dev heads in ``preds.pkl`` (graph parsers:
structured SVMs over ``ArcFeatures(fields=["lemma", "feats"])``, C=0.03, 10 passes;
transition parsers: beam 8, max-violation, 10 epochs, their POS features over the XPOS
or the UPOS, read left to right or, reversed, right to left). ``python probe.py combine A,B,C ...``
prints each parser's dev UAS and, for each comma-separated set, the UAS of the voted
tree with the first parser's vote 1 and every other vote on a grid of 0.5 / 0.75 / 1
(the first parser's vote raised by 1e-3 to break ties); ``--oracle`` also prints the
share of words some parser of the first set got right, and ``--equal`` leaves the
grid out (every vote 1).
"""

import argparse
import itertools
import os
import pickle
import time

import numpy as np

from skstruct import (
    ArcEager,
    ArcFeatures,
    ArcStandard,
    Eisner,
    ReversedParser,
    StructuredPerceptron,
    StructuredSVM,
    VotingParser,
)
from skstruct.datasets import fetch_ud

PREDS = "preds.pkl"


def heads_of(sentences):
    return [[t["head"] for t in s] for s in sentences]


def uas(dev, predicted):
    right = sum(int(p) == t["head"] for s, ps in zip(dev, predicted) for t, p in zip(s, ps))
    return 100 * right / sum(len(s) for s in dev)


def parsers():
    def graph(order, grandparents=False):
        decoder = Eisner(order=order, projectivize=True, grandparents=grandparents)
        return StructuredSVM(decoder, C=0.03, max_iter=10, tol=None, random_state=0,
                             features=ArcFeatures(fields=["lemma", "feats"]))  # fmt: skip

    def beam(system, pos="auto"):
        return StructuredPerceptron(system(beam_size=8, projectivize=True), max_iter=10,
                                    features=ArcFeatures(pos=pos), update="max_violation",
                                    random_state=0)  # fmt: skip

    return {
        "graph1": graph(1),
        "eager_l2r": beam(ArcEager),
        "eager_r2l": ReversedParser(beam(ArcEager)),
        "standard_l2r": beam(ArcStandard),
        "standard_r2l": ReversedParser(beam(ArcStandard)),
        "graph2": graph(2),
        # with grandparent parts (benchmarks/measurements/ud_grandparents_2026-11-29/)
        "graph2_grand": graph(2, grandparents=True),
        # the transition parsers' POS features over the UPOS instead of the XPOS
        "eager_upos_l2r": beam(ArcEager, "upos"),
        "eager_upos_r2l": ReversedParser(beam(ArcEager, "upos")),
        "standard_upos_l2r": beam(ArcStandard, "upos"),
    }


def train(names):
    X, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data
    preds = {}
    if names and os.path.exists(PREDS):
        with open(PREDS, "rb") as file:
            preds = pickle.load(file)
    for name, parser in parsers().items():
        if names and name not in names:
            continue
        start = time.perf_counter()
        parser.fit(X, heads_of(X))
        seconds = time.perf_counter() - start
        preds[name] = [list(map(int, hs)) for hs in parser.predict(dev)]
        print(f"{name}: fit {seconds:.1f} s, dev UAS {uas(dev, preds[name]):.2f}", flush=True)
        with open(PREDS, "wb") as file:
            pickle.dump(preds, file)


def combine(sets, oracle, equal):
    dev = fetch_ud("en_ewt", "dev").data
    with open(PREDS, "rb") as file:
        preds = pickle.load(file)
    for name, predicted in preds.items():
        print(name, f"{uas(dev, predicted):.2f}")
    if oracle:
        names = sets[0]
        right = sum(
            any(preds[n][i][j] == t["head"] for n in names)
            for i, s in enumerate(dev)
            for j, t in enumerate(s)
        )
        print("oracle", names, f"{100 * right / sum(len(s) for s in dev):.2f}")
    eisner = Eisner()
    for names in sets:
        grid = (1.0,) if equal else (0.5, 0.75, 1.0)
        for votes in itertools.product((1.0,), *[grid] * (len(names) - 1)):
            weights = np.array(votes)
            weights[0] += 1e-3
            voted = [
                VotingParser.reparse(eisner, weights, [preds[n][i] for n in names])
                for i in range(len(dev))
            ]
            print(names, votes, f"{uas(dev, voted):.2f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("train", "combine"))
    parser.add_argument(
        "sets",
        nargs="*",
        help="train: the parsers to train (default all); combine: sets "
        "of comma-separated parser names",
    )
    parser.add_argument("--oracle", action="store_true")
    parser.add_argument("--equal", action="store_true", help="equal votes only, no grid")
    args = parser.parse_args()
    if args.step == "train":
        train(args.sets)
    else:
        combine([s.split(",") for s in args.sets], args.oracle, args.equal)


if __name__ == "__main__":
    main()
