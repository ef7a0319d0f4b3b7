"""Dev probe (issue 36): cross-fitted (jack-knifed) UPOS and XPOS of English-EWT train.

``python cross_fit.py [K]`` trains the pipeline's tagger K times (default 5), each time
on the training sentences outside one fold (sentence ``i`` is in fold ``i % K``), tags
that fold, and saves every training word's ``(upos, xpos)`` in ``$UDH/tags_K.pkl``."""

import sys
import time

import numpy as np
from _common import bare, dump, load, read, tagger


def cross_fitted_tags(corpora, train, k_folds):
    columns = [field for corpus in corpora for field in corpus.fields_]
    X = read(corpora, train)
    folds = np.arange(len(train)) % k_folds
    tags = [None] * len(train)
    for k in range(k_folds):
        start = time.perf_counter()
        model = tagger(columns).fit([s for s, f in zip(X, folds) if f != k])
        held_out = np.flatnonzero(folds == k)
        for i, s in zip(held_out, model.transform(bare([X[i] for i in held_out]))):
            tags[i] = [(t["upos"], t["xpos"]) for t in s]
        print(f"fold {k} {time.perf_counter() - start:.0f} s", flush=True)
    return tags


def main():
    k_folds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    data = load("data.pkl")
    train = data["gold"]["train"]
    tags = cross_fitted_tags(data["corpora"], train, k_folds)
    pairs = [(p, g) for ps, gs in zip(tags, train) for p, g in zip(ps, gs)]
    upos = sum(p[0] == g["upos"] for p, g in pairs) / len(pairs)
    xpos = sum(p[1] == g["xpos"] for p, g in pairs) / len(pairs)
    print(f"{k_folds}-fold train UPOS {100 * upos:.2f} XPOS {100 * xpos:.2f}", flush=True)
    dump(tags, f"tags_{k_folds}.pkl")


if __name__ == "__main__":
    main()
