"""Dev probe (issue 36): the relation labeller's chain over the words in other orders
than the sentence's, on gold annotation and gold heads.

The labeller (``PredictedRelations``: a structured SVM, ``C=0.1``, 10 passes, over a
first-order chain) is trained and applied with its rows (and labels) reordered; the
predictions are put back in sentence order and scored: the share of held-out words
whose relation is right, full (with subtypes) and universal (before the colon).

Orders: ``dfs`` (a depth-first walk from the root, each word before its children, the
children left to right), ``dfs_rl`` (children right to left), ``dfs_near`` (children
nearest the head first), ``head`` (the words grouped by head, in sentence order within a
group).

Held out: English-EWT dev; with ``SPANISH=1``, the last tenth of the CoNLL-X Spanish
training sentences (that treebank has no dev split; its test split is not read). The
sentence order's own figure is printed first, except with ``NO_BASE=1``; with
``LIBRARY=1``, then the library's default labeller (``chain_order="depth_first"``), which
must equal ``dfs``.

Run: ``python probe.py dfs head dfs_rl dfs_near`` (``SKSTRUCT_DATA`` set; ``PROBE_N``
for a dry run on the first N training sentences).
"""

import os
import sys
import time

from sklearn.utils.validation import check_is_fitted

from skstruct import PredictedRelations
from skstruct.datasets import fetch_conll2007, fetch_ud
from skstruct.utils.validation import check_sequences


def order_of(sentence, how):
    """The 0-based positions of the words of ``sentence`` in the order ``how``."""
    heads = [t["head"] for t in sentence]
    n = len(heads)
    if how == "head":
        return sorted(range(n), key=lambda d: (heads[d], d))
    children = [[] for _ in range(n + 1)]
    for d, h in enumerate(heads, 1):
        children[h].append(d)
    if how == "dfs_rl":
        children = [list(reversed(c)) for c in children]
    elif how == "dfs_near":
        children = [sorted(c, key=lambda d: (abs(d - h), d)) for h, c in enumerate(children)]
    out, stack = [], list(reversed(children[0]))
    while stack:
        d = stack.pop()
        out.append(d - 1)
        stack.extend(reversed(children[d]))
    assert sorted(out) == list(range(n))  # gold trees: every word reached
    return out


class Reordered(PredictedRelations):
    """The labeller in sentence order (``chain_order="sentence"``), its rows and labels
    reordered here."""

    how = "head"

    def _rows(self, X):
        rows = super()._rows(X)
        return [[r[j] for j in order_of(s, self.how)] for s, r in zip(X, rows)]

    def _training_data(self, X):
        inputs, labels = super()._training_data(X)
        return inputs, [[lab[j] for j in order_of(s, self.how)] for s, lab in zip(X, labels)]

    def predict(self, X):
        check_is_fitted(self, "tagger_")
        X = check_sequences(X)
        out = []
        for s, p in zip(X, self.tagger_.predict(self._inputs(X))):
            back = [None] * len(s)
            for k, j in enumerate(order_of(s, self.how)):
                back[j] = p[k]
            out.append(back)
        return out


def right(gold, pred):
    pairs = [(g["deprel"], p) for gs, ps in zip(gold, pred) for g, p in zip(gs, ps)]
    full = sum(g == p for g, p in pairs)
    universal = sum(g.split(":")[0] == p.split(":")[0] for g, p in pairs)
    return round(100 * full / len(pairs), 2), round(100 * universal / len(pairs), 2)


def main(orders):
    if os.environ.get("SPANISH"):
        data = fetch_conll2007("es", "train", labelled=True).data
        cut = len(data) * 9 // 10
        train, dev = data[:cut], data[cut:]
    else:
        train, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data
    if os.environ.get("PROBE_N"):
        n = int(os.environ["PROBE_N"])
        train, dev = train[:n], dev[: n // 4]
    print(len(train), "training sentences,", len(dev), "held out")
    if not os.environ.get("NO_BASE"):
        base = PredictedRelations(chain_order="sentence", max_iter=10, random_state=0)
        print("sentence order: dev right:", right(dev, base.fit(train).predict(dev)), flush=True)
    if os.environ.get("LIBRARY"):  # the library's own depth-first chain, against "dfs"
        library = PredictedRelations(max_iter=10, random_state=0).fit(train)
        print(f"library ({library.chain_order}): dev right:", right(dev, library.predict(dev)),
              flush=True)  # fmt: skip
    for how in orders:
        start = time.perf_counter()
        model = Reordered(chain_order="sentence", max_iter=10, random_state=0)
        model.how = how
        model.fit(train)
        print(f"{how} fit {time.perf_counter() - start:.1f} s; dev right:",
              right(dev, model.predict(dev)), flush=True)  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
