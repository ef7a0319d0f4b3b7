"""Dev probe (issue 37): choosing the constituency reranker on more than 273 sentences,
and candidate feature classes beyond ``ConstituentTreeFeatures``.

The dev split of the treebank sample has 273 sentences, too few to tell the rerankers
apart. The jack-knifed training lists are held-out lists too (each made by a base model
that never saw its sentence), 3,395 of them: a reranker trained on four fifths of them
and scored on the fifth, five times over, gives a held-out F1 on twelve times as many
sentences. This script scores each configuration both ways.

``cache`` (run first) reads the jack-knifed 20-best lists that
``benchmarks/bench_reranking.py --task constituency --lists PATH`` keeps (``$LISTS``,
default ``/tmp/exp/cons20.pkl``), lists the dev sentences with its base model, extracts
every candidate's features once (the library's classes and the candidate classes of
:class:`Extended`) into one exact vocabulary (no hashing), and counts each candidate's
EVALB brackets. The test split is never read.

``[--cv] SPEC ...`` trains one reranker per SPEC, ``learner:epochs[:classes[:scale[:C]]]``:
``classes`` a comma-separated list of ``+class`` / ``-class`` added to or left out of the
library's, ``scale`` a factor on the base score's ``"auto"`` scale, ``C`` the structured
SVM's. Prints dev EVALB F1 and, with ``--cv``, the five-fold held-out F1 over the
training lists, and for each SPEC after the first the share of bootstrap resamples of
the training sentences on which its cross-validated choices beat the first SPEC's.
"""

import os
import pickle
import sys
import time
from collections import Counter
from functools import partial

import numpy as np
import scipy.sparse as sp
from sklearn.model_selection import KFold

from skstruct import (
    BestCandidate,
    ConditionalRandomField,
    ExponentiatedGradientSSVM,
    PassiveAggressive,
    StructuredPerceptron,
    StructuredSVM,
)
from skstruct.datasets import fetch_treebank
from skstruct.features import ConstituentTreeFeatures
from skstruct.features.constituent_global import _PUNCTUATION, _length_bin
from skstruct.metrics import evalb

LISTS = os.environ.get("LISTS", "/tmp/exp/cons20.pkl")
CACHE = os.environ.get("CACHE", "/tmp/exp/cons_cache.pkl")
LIBRARY_CLASSES = frozenset({
    "rule", "rule^", "hrule", "heavy", "edge", "edgew", "ngram", "dep", "depw", "word",
    "copar", "copar_len", "copar_kids", "size", "rbranch", "rbranch_off",
})  # fmt: skip
LEARNERS = {
    "perceptron": lambda e, C: StructuredPerceptron(BestCandidate(), max_iter=e, random_state=0),
    "pa": lambda e, C: PassiveAggressive(BestCandidate(), max_iter=e, random_state=0),
    "bcfw": lambda e, C: StructuredSVM(BestCandidate(), C=C, max_iter=e, random_state=0),
    "crf": lambda e, C: ConditionalRandomField(BestCandidate(), max_iter=e),
    "eg": lambda e, C: ExponentiatedGradientSSVM(BestCandidate(), C=C, max_iter=e, random_state=0),
}


def _distance_bin(d):
    return str(d) if d <= 2 else "3-5" if d <= 5 else "6-10" if d <= 10 else "11+"


class Extended(ConstituentTreeFeatures):
    """The library's classes and ten candidates, most after Charniak & Johnson (2005):
    ``gdep`` a head dependency with the grandparent's label, ``htri`` the head tags of
    dependent, head and the head's head, ``depd`` / ``depd2`` a dependency (tags / labels)
    with its binned distance, ``bilex`` the two head words, ``proj`` / ``projw`` a word's
    maximal projection (with the label above it / with the word), ``nbr`` a label with
    two tags either side, ``rulew`` a rule with its head word, ``pedge`` punctuation at a
    constituent's edges."""

    def __call__(self, sentence, tree):
        counts = Counter(super().__call__(sentence, tree))
        words, tags = [], []
        top = self._build(tree, words, tags)
        self._extra(top, None, tags, [w.lower() for w in words], counts)
        return counts

    def _extra(self, node, parent, tags, lower, counts):
        if node.children is None:
            return
        label, kids, head_tag = node.label, node.children, tags[node.head]
        plabel = parent.label if parent is not None else "-"
        ptag = tags[parent.head] if parent is not None else "-"
        side = "L"
        for child in kids:
            if child.head == node.head:
                side = "R"
                continue
            d = _distance_bin(abs(child.head - node.head))
            ctag = tags[child.head]
            counts[f"gdep={plabel}|{label}|{head_tag}|{child.label}|{ctag}|{side}"] += 1
            counts[f"depd={head_tag}|{ctag}|{side}|{d}"] += 1
            counts[f"depd2={label}|{child.label}|{side}|{d}"] += 1
            counts[f"bilex={lower[node.head]}|{lower[child.head]}|{side}"] += 1
            counts[f"htri={ptag}|{head_tag}|{ctag}|{side}"] += 1
        if parent is None or parent.head != node.head:
            counts[f"proj={head_tag}|{label}|{plabel}"] += 1
            counts[f"projw={lower[node.head]}|{label}"] += 1
        before = " ".join(tags[max(node.start - 2, 0) : node.start]) or "<s>"
        after = " ".join(tags[node.end : node.end + 2]) or "</s>"
        counts[f"nbr={label}|{_length_bin(node.end - node.start)}|{before}|{after}"] += 1
        labels = " ".join(c.label for c in kids)
        counts[f"rulew={label}>{labels}|{lower[node.head]}"] += 1
        first, last = tags[node.start] in _PUNCTUATION, tags[node.end - 1] in _PUNCTUATION
        counts[f"pedge={label}|{first}|{last}"] += 1
        for child in kids:
            self._extra(child, node, tags, lower, counts)


def build_cache():
    with open(LISTS, "rb") as f:
        base, train_lists = pickle.load(f)
    X, y = fetch_treebank("train", return_X_y=True)
    X_dev, y_dev = fetch_treebank("dev", return_X_y=True)
    dev_lists = base.predict_nbest(X_dev, k=20)
    extract, vocabulary = Extended(), {}

    def encode(X, y, lists):
        encoded = []
        for x, gold, best in zip(X, y, lists):
            if isinstance(best, str):  # a sentence the jack-knife could not list
                encoded.append(None)
                continue
            top, candidates = best[0][1], []
            for rank, (tree, score) in enumerate(best):
                features = extract(x, tree)
                columns = [vocabulary.setdefault(key, len(vocabulary)) for key in features]
                brackets = evalb([gold], [tree])
                candidates.append((
                    np.array(columns, np.int32),
                    np.array(list(features.values())),
                    float(score - top) if score != top else 0.0,
                    rank,
                    (brackets.matched, brackets.gold_brackets, brackets.predicted_brackets),
                ))  # fmt: skip
            encoded.append(candidates)
        return encoded

    start = time.time()
    cache = {"train": encode(X, y, train_lists), "dev": encode(X_dev, y_dev, dev_lists)}
    cache["names"] = sorted(vocabulary, key=vocabulary.get)
    with open(CACHE, "wb") as f:
        pickle.dump(cache, f, protocol=5)
    print(f"{len(vocabulary)} features cached in {time.time() - start:.0f} s")


def rows(data, keep, scale):
    """Per listed sentence a sparse row per candidate (the kept columns, the base score
    times ``scale``, its rank 0, 1, 2, 3+), each candidate's loss and bracket counts."""
    n = len(keep)
    matrices, losses, brackets = [], [], []
    for candidates in filter(None, data):
        indptr, indices, values = [0], [], []
        for columns, counts, gap, rank, _ in candidates:
            kept = keep[columns]
            indices += [columns[kept], np.array([n, n + 1 + min(rank, 3)])]
            values += [counts[kept], np.array([scale * gap, 1.0])]
            indptr.append(indptr[-1] + int(kept.sum()) + 2)
        matrices.append(sp.csr_matrix(
            (np.concatenate(values), np.concatenate(indices), indptr),
            shape=(len(candidates), n + 5),
        ))  # fmt: skip
        counted = [c[-1] for c in candidates]
        brackets.append(counted)
        losses.append([g + p - 2 * m for m, g, p in counted])
    return matrices, losses, brackets


def f1(brackets, chosen):
    """Corpus EVALB F1 of the chosen candidates."""
    m, g, p = np.sum([counted[c] for counted, c in zip(brackets, chosen)], axis=0)
    return 200.0 * m / (g + p)


def paired_bootstrap(brackets, first, other, n=2000):
    """The share of ``n`` resamples of the sentences on which ``other``'s choices score
    a higher F1 than ``first``'s."""
    counts = np.array(brackets, dtype=object)
    a = np.array([c[k] for c, k in zip(counts, first)], dtype=float)
    b = np.array([c[k] for c, k in zip(counts, other)], dtype=float)
    wins, rng = 0, np.random.default_rng(0)
    for _ in range(n):
        sample = rng.integers(0, len(a), len(a))
        (ma, ga, pa), (mb, gb, pb) = a[sample].sum(0), b[sample].sum(0)
        wins += mb / (gb + pb) > ma / (ga + pa)
    return wins / n


def main(specs, cv):
    with open(CACHE, "rb") as f:
        cache = pickle.load(f)
    kind = np.array([name.split("=", 1)[0] for name in cache["names"]])
    gaps = np.array([c[2] for candidates in filter(None, cache["train"]) for c in candidates])
    auto = 1.0 / gaps[np.isfinite(gaps)].std()
    for split in ("train", "dev"):
        _, losses, brackets = rows(cache[split], np.zeros(len(kind), bool), 0.0)
        oracle = f1(brackets, [int(np.argmin(loss)) for loss in losses])
        print(f"{split}: base F1 {f1(brackets, [0] * len(losses)):.2f}, oracle {oracle:.2f}")
    choices = {}
    for spec in specs:
        learner, epochs, classes, scale, C = [*spec.split(":"), "", "", ""][:5]
        use = set(LIBRARY_CLASSES)
        for c in filter(None, classes.split(",")):
            (use.add if c[0] == "+" else use.discard)(c[1:])
        keep, scale = np.isin(kind, list(use)), auto * float(scale or 1)
        make = partial(LEARNERS[learner], int(epochs), float(C or 0.1))
        start = time.time()
        X, losses, brackets = rows(cache["train"], keep, scale)
        X_dev, _, brackets_dev = rows(cache["dev"], keep, scale)
        line = f"{spec:40s} dev F1 {f1(brackets_dev, make().fit(X, losses).predict(X_dev)):.2f}"
        if cv:
            chosen = choices[spec] = np.zeros(len(X), int)
            for train, test in KFold(5, shuffle=True, random_state=0).split(X):
                model = make().fit([X[i] for i in train], [losses[i] for i in train])
                chosen[test] = model.predict([X[i] for i in test])
            line += f"  cv F1 {f1(brackets, chosen):.2f}"
        print(f"{line}  ({time.time() - start:.0f} s)", flush=True)
    first, *others = choices or [None]  # without --cv there are no choices to compare
    for other in others:
        share = paired_bootstrap(brackets, choices[first], choices[other])
        print(f"cv: {other} beats {first} in {100 * share:.1f} % of 2,000 resamples")


if __name__ == "__main__":
    if sys.argv[1:2] == ["cache"]:
        build_cache()
    else:
        main([a for a in sys.argv[1:] if a != "--cv"], "--cv" in sys.argv)
