"""Dev probe (issue 36): a second relation-labeller pass that reads the first pass's
relations of the word's head, grandparent, nearest siblings and children (stacking).

English-EWT, gold annotation and gold heads; the labeller is the pipeline's
(``PredictedRelations()``: a structured SVM, ``C=0.1``, 10 passes, over a first-order
chain of the words). Scored: the share of dev words whose relation is right, full
(with subtypes) and universal (before the colon). The test split is not read.

- ``teacher``: the second pass learns from the gold relations of the training trees and
  reads the first pass's on dev; also the bound with dev's gold relations as input.
- ``jackknife K``: the second pass learns from the first pass's relations of the
  training sentences, each fold labelled by a first pass trained on the other K-1.

Run: ``python probe.py teacher`` / ``python probe.py jackknife 5`` (``SKSTRUCT_DATA``
set; ``PROBE_N`` for a dry run on the first N training sentences).
"""

import os
import sys
import time

from skstruct import PredictedRelations
from skstruct.datasets import fetch_ud
from skstruct.features import TokenFeatures
from skstruct.relations import ROOT, relation_fields

STACKED = ["head_rel", "sibling_rel", "next_sibling_rel", "children_rels", "gp_rel"]


def stacked_rows(sentence, columns, i):
    """``relation_fields`` and the relations (token field ``rel1``) around each word."""
    rows = relation_fields(sentence, columns, i)
    heads = [t["head"] for t in sentence]
    rel = [t["rel1"] for t in sentence]
    children = [[] for _ in range(len(sentence) + 1)]
    for d, h in enumerate(heads, 1):
        children[h].append(d)
    for d, (h, row) in enumerate(zip(heads, rows), 1):
        g = heads[h - 1] if h else None
        earlier = [s for s in children[h] if s < d]
        later = [s for s in children[h] if s > d]
        marked = sorted({("L" if c < d else "R") + rel[c - 1] for c in children[d]})
        row["head_rel"] = rel[h - 1] if h else ROOT
        row["gp_rel"] = None if g is None else rel[g - 1] if g else ROOT
        row["sibling_rel"] = rel[earlier[-1] - 1] if earlier else None
        row["next_sibling_rel"] = rel[later[0] - 1] if later else None
        row["children_rels"] = " ".join(marked) if marked else None
    return rows


class StackedRelations(PredictedRelations):
    """Measured before ``chain_order`` existed: use it with ``chain_order="sentence"``."""

    def _rows(self, X):
        return [stacked_rows(s, tuple(self.columns), i) for i, s in enumerate(X)]

    def _default_tagger(self):
        tagger = super()._default_tagger()
        columns = [*tagger.features.columns, *STACKED]
        tagger.features = TokenFeatures(columns=columns, prefix_length=0, suffix_length=3,
                                        window=1)  # fmt: skip
        return tagger


def right(gold, pred):
    pairs = [(g["deprel"], p["deprel"]) for gs, ps in zip(gold, pred) for g, p in zip(gs, ps)]
    full = sum(g == p for g, p in pairs)
    universal = sum(g.split(":")[0] == p.split(":")[0] for g, p in pairs)
    return round(100 * full / len(pairs), 2), round(100 * universal / len(pairs), 2)


def with_rel1(sentences, labelled):
    return [[{**t, "rel1": p["deprel"]} for t, p in zip(s, ps)]
            for s, ps in zip(sentences, labelled)]  # fmt: skip


def labeller():
    return PredictedRelations(chain_order="sentence", max_iter=10, random_state=0)


def main(mode, k=5):
    train, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data
    if os.environ.get("PROBE_N"):
        n = int(os.environ["PROBE_N"])
        train, dev = train[:n], dev[: n // 4]
    start = time.perf_counter()
    first = labeller().fit(train)
    print(f"first pass: fit {time.perf_counter() - start:.1f} s", flush=True)
    dev_first = first.transform(dev)
    print("first pass, dev right (full, universal):", right(dev, dev_first), flush=True)
    dev_in = with_rel1(dev, dev_first)
    if mode == "teacher":
        second = StackedRelations(chain_order="sentence", max_iter=10, random_state=0).fit(
            with_rel1(train, train)
        )
        print("second pass, teacher-forced, dev right:", right(dev, second.transform(dev_in)))
        print("... reading dev's gold relations (a bound):",
              right(dev, second.transform(with_rel1(dev, dev))))  # fmt: skip
        return
    start = time.perf_counter()
    guessed = [None] * len(train)
    for fold in range(k):
        held = range(fold, len(train), k)
        rest = [s for j, s in enumerate(train) if j % k != fold]
        for j, s in zip(held, labeller().fit(rest).transform([train[j] for j in held])):
            guessed[j] = s
    print(f"{k}-fold jack-knife {time.perf_counter() - start:.1f} s; training sentences' "
          f"relations right: {right(train, guessed)}", flush=True)  # fmt: skip
    second = StackedRelations(chain_order="sentence", max_iter=10, random_state=0).fit(
        with_rel1(train, guessed)
    )
    print(f"second pass, {k}-fold jack-knifed, dev right:", right(dev, second.transform(dev_in)))


if __name__ == "__main__":
    main(sys.argv[1], *map(int, sys.argv[2:]))
