"""Dev probe (issue 36): can a model of its own attach punctuation better than the
voting parser?

Reads ``$UDH/data.pkl`` from ``../ud_relabel_2026-11-30/train.py`` (the default pipeline
before cross-fitting: English-EWT train with the stages' annotation and gold heads, and
the dev sentences with predicted annotation and the voting parser's heads).

1. ``python probe.py errors``: the parser's head accuracy per gold UPOS on dev, and for
   each punctuation mark the heads a projective tree allows it (the *legal* heads:
   attached there, the mark crosses no arc of the rest of the tree), in the gold tree
   and in the parser's tree.
2. ``python probe.py choose``: a logistic regression over (mark, legal head) pairs,
   trained on the training trees (gold heads, the stages' tags), chooses among the legal
   heads of each dev mark in the parser's tree; its choices against the parser's.
"""

import os
import pickle
import sys
from collections import Counter

import numpy as np
from sklearn.feature_extraction import FeatureHasher
from sklearn.linear_model import LogisticRegression

WORK = os.environ.get("UDH", "/tmp/udh")
N_DEV_WORDS = 25148


def ancestors(heads, w):
    """Word ``w``'s ancestors in the tree ``heads`` (1-based, 0 the root), ``w`` left out."""
    out = []
    while w:
        w = heads[w - 1]
        out.append(w)
    return out


def legal_heads(heads, i):
    """The heads word ``i`` can take without crossing an arc of the rest of the tree."""
    n = len(heads)
    above = {w: set(ancestors(heads, w)) for w in range(1, n + 1)}
    legal = []
    for c in range(n + 1):
        if c == i or (c and i in above[c]):
            continue  # itself, or one of its own dependents (a cycle)
        lo, hi = min(c, i), max(c, i)
        if c and any(c not in above[w] for w in range(lo + 1, hi) if w != c):
            continue  # the arc c -> i would span a word c does not dominate
        spanning = (
            heads[d - 1]
            for d in range(1, n + 1)
            if d != i and min(heads[d - 1], d) < i < max(heads[d - 1], d)
        )
        if all(h == 0 or h == c or (c and h in above[c]) for h in spanning):
            legal.append(c)  # every arc over i still dominates it
    return legal


def words(sentence):
    return [t for t in sentence if isinstance(t["id"], int)]


def errors(data):
    gold, pred = [words(s) for s in data["gold"]["dev"]], data["pred"]["dev"]
    total, wrong = Counter(), Counter()
    legal = Counter()
    for gs, ps in zip(gold, pred):
        gh, ph = [t["head"] for t in gs], [t["head"] for t in ps]
        for i, (g, p) in enumerate(zip(gs, ps), 1):
            total[g["upos"]] += 1
            wrong[g["upos"]] += p["head"] != g["head"]
            if g["upos"] != "PUNCT":
                continue
            in_pred = legal_heads(ph, i)
            legal["marks"] += 1
            legal["gold head legal in the gold tree"] += g["head"] in legal_heads(gh, i)
            legal["gold head legal in the parser's tree"] += g["head"] in in_pred
            legal["legal heads in the parser's tree"] += len(in_pred)
            if p["head"] != g["head"]:
                legal["parser's errors"] += 1
                legal["... with the gold head legal in the parser's tree"] += g["head"] in in_pred
    n, e = sum(total.values()), sum(wrong.values())
    print(f"dev UAS {100 - 100 * e / n:.2f} over {n} words; head errors by gold UPOS:")
    for tag, count in wrong.most_common(6):
        print(f"  {tag:6} {count:4} of {total[tag]:5} ({100 * count / e:.1f} % of the errors)")
    for key, count in legal.items():
        print(f"  {key}: {count}")


def _bin(d):
    d = abs(d)
    return str(d) if d <= 3 else "4-6" if d <= 6 else "7-12" if d <= 12 else "13+"


def pair_features(toks, heads, i, c, legal):
    """Features of attaching mark ``i`` to head ``c`` among its ``legal`` heads."""
    n, form = len(toks), toks[i - 1]["form"]
    side = "R" if c > i else "L" if c else "0"
    cu = toks[c - 1]["upos"] if c else "ROOT"
    cx = toks[c - 1]["xpos"] if c else "ROOT"
    depths = sorted(len(ancestors(heads, x)) if x else -1 for x in legal)
    rank = depths.index(len(ancestors(heads, c)) if c else -1)
    same_side = sorted((x for x in legal if x and (x > i) == (c > i)), key=lambda x: abs(x - i))
    near = same_side.index(c) if c in same_side else -1
    prev = toks[i - 2]["upos"] if i > 1 else "BOS"
    nxt = toks[i]["upos"] if i < n else "EOS"
    ch = heads[c - 1] if c else -1
    chu = (toks[ch - 1]["upos"] if ch > 0 else "ROOT") if c else "NONE"
    cdir = ("R" if ch < c else "L") if c else "NONE"
    dom_prev = i > 1 and (c in (0, i - 1) or c in ancestors(heads, i - 1))
    dom_next = i < n and (c in (0, i + 1) or c in ancestors(heads, i + 1))
    return [
        f"form={form}", f"side={side}", f"cu={cu}", f"cx={cx}", f"rank={rank}",
        f"nrank={len(legal) - 1 - rank}", f"near={near}", f"dist={_bin(c - i) if c else 'root'}",
        f"form,side={form},{side}", f"form,cu={form},{cu}", f"form,rank={form},{rank}",
        f"form,near,side={form},{near},{side}", f"form,side,cu={form},{side},{cu}",
        f"side,cu,chu,cdir={side},{cu},{chu},{cdir}", f"form,cdir,side={form},{cdir},{side}",
        f"prev,next,side={prev},{nxt},{side}",
        f"form,prev,next,side,near={form},{prev},{nxt},{side},{near}",
        f"dom={dom_prev},{dom_next}", f"form,dom,side={form},{dom_prev},{dom_next},{side}",
        f"last,side,rank={i == n},{side},{rank}", f"form,cu,chu,side={form},{cu},{chu},{side}",
        f"form,cx,side={form},{cx},{side}", f"n,rank={len(legal)},{rank}",
        f"form,cu,near={form},{cu},{near}", f"cu,next,side={cu},{nxt},{side}",
        f"cu,prev,side={cu},{prev},{side}",
    ]  # fmt: skip


def pairs(sentences, heads_of, gold_of):
    rows, ys, marks = [], [], []
    for k, toks in enumerate(sentences):
        heads = heads_of(k)
        for i, t in enumerate(toks, 1):
            if t["upos"] != "PUNCT":
                continue
            legal = legal_heads(heads, i)
            start = len(rows)
            for c in legal:
                rows.append(pair_features(toks, heads, i, c, legal))
                ys.append(int(c == gold_of(k)[i - 1]))
            marks.append((k, i, start, len(rows), legal))
    return rows, ys, marks


def choose(data):
    train = [words(s) for s in data["train_analysed"]]
    gold, pred = [words(s) for s in data["gold"]["dev"]], data["pred"]["dev"]
    heads = [[t["head"] for t in s] for s in train]
    rows, ys, _ = pairs(train, heads.__getitem__, heads.__getitem__)
    pred_heads = [[t["head"] for t in s] for s in pred]
    gold_heads = [[t["head"] for t in s] for s in gold]
    dev_rows, _, marks = pairs(pred, pred_heads.__getitem__, gold_heads.__getitem__)
    hasher = FeatureHasher(2**20, input_type="string", alternate_sign=False)
    X, dev_X = hasher.transform(rows), hasher.transform(dev_rows)
    print(f"{len(rows)} training pairs, {len(marks)} dev marks (predicted UPOS PUNCT)")
    for C in (0.1, 0.3, 1.0, 3.0):
        scores = LogisticRegression(C=C, max_iter=2000).fit(X, ys).decision_function(dev_X)
        right = parser = 0
        for k, i, a, b, legal in marks:
            right += legal[int(np.argmax(scores[a:b]))] == gold_heads[k][i - 1]
            parser += pred_heads[k][i - 1] == gold_heads[k][i - 1]
        print(f"C={C}: the chooser {right}, the parser {parser} right; "
              f"dev UAS {100 * (right - parser) / N_DEV_WORDS:+.3f}")  # fmt: skip


if __name__ == "__main__":
    with open(os.path.join(WORK, "data.pkl"), "rb") as f:
        data = pickle.load(f)
    {"errors": errors, "choose": choose}[sys.argv[1]](data)
