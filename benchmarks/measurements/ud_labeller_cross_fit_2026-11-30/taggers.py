"""Dev probe (issue 36): variants of the pipeline's joint UPOS+XPOS tagger on English-EWT
dev, reading the fitted corpora of ``$UDH/data.pkl``.

``python taggers.py VARIANT``: ``base``; ``sfx`` adds the lower-cased word's last three
characters as a column (so the neighbours' suffixes are features too); ``big`` the word
pairs (previous, this) and (this, next) as columns; ``w3`` a window of three words;
``o2`` second-order Viterbi; ``C=x`` the SVM's C; joined by ``+``."""

import sys
import time

from _common import bare, load, read, tagger


def extra(X, spec):
    out = []
    for s in X:
        n = len(s)
        rows = []
        for i, t in enumerate(s):
            t = dict(t)
            w = t["form"].lower()
            if "sfx" in spec:
                t["sfx3"] = w[-3:]
            if "big" in spec:
                t["pw"] = (s[i - 1]["form"].lower() if i else "<s>") + "_" + w
                t["nw"] = w + "_" + (s[i + 1]["form"].lower() if i + 1 < n else "</s>")
            rows.append(t)
        out.append(rows)
    return out


def main():
    spec = sys.argv[1]
    data = load("data.pkl")
    corpora = data["corpora"]
    train, dev = data["gold"]["train"], data["gold"]["dev"]
    columns = [field for corpus in corpora for field in corpus.fields_]
    columns += (["sfx3"] if "sfx" in spec else []) + (["pw", "nw"] if "big" in spec else [])
    tags = tagger(columns, window=3 if "w3" in spec else 2, order=2 if "o2" in spec else 1)
    if "C=" in spec:
        tags.tagger.set_params(C=float(spec.split("C=")[1].split("+")[0]))
    start = time.perf_counter()
    tags.fit(extra(read(corpora, train), spec))
    fit = time.perf_counter() - start
    pred = tags.transform(extra(read(corpora, bare(dev)), spec))
    pairs = [(p, g) for ps, gs in zip(pred, dev) for p, g in zip(ps, gs)]
    upos = sum(p["upos"] == g["upos"] for p, g in pairs) / len(pairs)
    xpos = sum(p["xpos"] == g["xpos"] for p, g in pairs) / len(pairs)
    both = sum(p["upos"] == g["upos"] and p["xpos"] == g["xpos"] for p, g in pairs) / len(pairs)
    print(f"{spec}: dev UPOS {100 * upos:.2f} XPOS {100 * xpos:.2f} both {100 * both:.2f}  "
          f"fit {fit:.1f} s", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
