"""Dev probe (issue 36): a stacked relation labeller on UD English-EWT, gold heads, tags,
lemmas and FEATS. ``python stacked_probe.py FOLDS VARIANT``: stage 1 is the default
``PredictedRelations``, its training relations jack-knifed in ``FOLDS`` folds; stage 2
reads them as fields beside ``relation_fields``: ``all`` (the word's own, its head's, its
nearest sibling's and its children's stage-1 relations), ``headown`` (own and head's)
or ``head``. Prints the share of dev relations each stage gets right."""

import sys
import time

import numpy as np

from skstruct import PredictedRelations
from skstruct.datasets import fetch_ud
from skstruct.relations import relation_fields

NAMES = {"all": ["rel1", "head_rel1", "sib_rel1", "child_rel1"], "head": ["head_rel1"],
         "headown": ["rel1", "head_rel1"]}  # fmt: skip


def accuracy(pred, data):
    gold = [[t["deprel"] for t in s] for s in data]
    right = sum(p == g for ps, gs in zip(pred, gold) for p, g in zip(ps, gs))
    return 100 * right / sum(map(len, gold))


def with_first(data, relations):
    return [[{**t, "rel1": r} for t, r in zip(s, rs)] for s, rs in zip(data, relations)]


def stacked(names):
    class Stacked(PredictedRelations):
        def _inputs(self, X):
            out = []
            for i, s in enumerate(X):
                rows = relation_fields(s, tuple(self.columns), i)
                heads = [int(t["head"]) for t in s]
                children = [[] for _ in range(len(s) + 1)]
                for d, h in enumerate(heads, start=1):
                    children[h].append(d)
                for d, (row, t) in enumerate(zip(rows, s), start=1):
                    h = heads[d - 1]
                    row["rel1"] = t["rel1"]
                    row["head_rel1"] = s[h - 1]["rel1"] if h else "<root>"
                    siblings = [c for c in children[h] if c != d]
                    near = min(siblings, key=lambda c: abs(c - d)) if siblings else None
                    row["sib_rel1"] = s[near - 1]["rel1"] if near else None
                    kinds = sorted({s[c - 1]["rel1"] for c in children[d]})
                    row["child_rel1"] = " ".join(kinds) if kinds else None
                out.append(rows)
            return out

        def _default_tagger(self):
            tagger = super()._default_tagger()
            columns = list(tagger.features.columns) + names
            return tagger.set_params(features=tagger.features.set_params(columns=columns))

    return Stacked


def main(folds, variant):
    train, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data
    start = time.perf_counter()
    first, index = [None] * len(train), np.arange(len(train))
    for k in range(folds):
        held = index[k::folds]
        model = PredictedRelations(random_state=0).fit(
            [train[i] for i in np.setdiff1d(index, held)]
        )
        for i, relations in zip(held, model.predict([train[i] for i in held])):
            first[i] = relations
    dev_first = PredictedRelations(random_state=0).fit(train).predict(dev)
    seconds = time.perf_counter() - start
    print(f"stage 1 dev {accuracy(dev_first, dev):.2f} (jack-knife train "
          f"{accuracy(first, train):.2f}) {seconds:.0f}s", flush=True)  # fmt: skip
    start = time.perf_counter()
    model = stacked(NAMES[variant])(random_state=0).fit(with_first(train, first))
    pred = model.predict(with_first(dev, dev_first))
    seconds = time.perf_counter() - start
    print(f"stage 2 ({variant}) dev {accuracy(pred, dev):.2f} fit {seconds:.0f}s", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
