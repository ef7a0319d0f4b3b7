"""Dev probe (issue 36): relations that a head takes at most once, enforced on the
labeller's output by its k-best label sequences.

On ``../ud_relabel_2026-11-30/train.py``'s saved run (``$UDH``, default ``/tmp/udh``), the
pipeline's labeller gives some heads two ``nsubj`` or two ``obj`` dependents, which the
gold dev trees almost never have. A relation counts as unique when, in the training
trees, fewer than ``THRESHOLD`` of the heads that take it take it twice (learnt from the
treebank, so nothing English-specific); a sentence whose labels break that is relabelled
with the best of the labeller's ``K`` best sequences that keeps to it (left as it was
when none does). Prints dev UAS / LAS / CLAS (CoNLL 2018) before and after.

``python unique.py [SPLIT [THRESHOLD [K]]]``, defaults ``dev 0.01 20``.
"""

import os
import pickle
import sys
import time
from collections import Counter

from skstruct.metrics import conll18_scores
from skstruct.relations import relation_fields

WORK = os.environ.get("UDH", "/tmp/udh")


def unique_relations(trees, threshold, min_heads=20):
    """The relations that fewer than ``threshold`` of the heads taking them take twice."""
    taken, twice = Counter(), Counter()
    for sentence in trees:
        for (_, relation), n in Counter((t["head"], t["deprel"]) for t in sentence).items():
            taken[relation] += 1
            twice[relation] += n > 1
    shares = {r: twice[r] / taken[r] for r in taken if taken[r] >= min_heads}
    return {r: share for r, share in shares.items() if share < threshold}


def breaks(heads, labels, unique):
    counts = Counter((h, r) for h, r in zip(heads, labels) if r in unique)
    return any(n > 1 for n in counts.values())


def main():
    split = sys.argv[1] if len(sys.argv) > 1 else "dev"
    threshold = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
    k = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    with open(os.path.join(WORK, "data.pkl"), "rb") as f:
        data = pickle.load(f)
    with open(os.path.join(WORK, "relations.pkl"), "rb") as f:
        labeller = pickle.load(f)
    gold, pred = data["gold"][split], data["pred"][split]
    unique = unique_relations(data["train_analysed"], threshold)
    print(f"threshold {threshold}, k {k}: {len(unique)} unique relations:",
          " ".join(f"{r} {share:.4f}" for r, share in sorted(unique.items())))  # fmt: skip

    labels = [list(s) for s in labeller.predict(pred)]
    heads = [[t["head"] for t in s] for s in pred]
    broken = [i for i in range(len(pred)) if breaks(heads[i], labels[i], unique)]
    start = time.perf_counter()
    inputs = [relation_fields(pred[i], tuple(labeller.columns), i) for i in broken]
    mended = [list(s) for s in labels]
    n_mended = 0
    for i, candidates in zip(broken, labeller.tagger_.predict_nbest(inputs, k=k)):
        for candidate, _ in candidates:
            if not breaks(heads[i], candidate, unique):
                mended[i], n_mended = list(candidate), n_mended + 1
                break
    print(f"{len(broken)} sentences break it, {n_mended} mended "
          f"({time.perf_counter() - start:.1f} s)")  # fmt: skip

    def figures(relations):
        filled = [[{**t, "deprel": r} for t, r in zip(s, rs)] for s, rs in zip(pred, relations)]
        scores = conll18_scores(gold, filled)
        return "  ".join(f"{name} {100 * scores[name].f1:.2f}" for name in ("UAS", "LAS", "CLAS"))

    changed = Counter()
    for i in broken:
        for j, (before, after) in enumerate(zip(labels[i], mended[i])):
            if before != after:
                head_right = heads[i][j] == gold[i][j]["head"]
                universal = gold[i][j]["deprel"].split(":")[0]
                was, now = (r.split(":")[0] == universal for r in (before, after))
                changed[(head_right, was, now)] += 1
    print("words relabelled (head right, right before, right after):",
          ", ".join(f"{key} {n}" for key, n in sorted(changed.items())))  # fmt: skip
    print("labeller", figures(labels))
    print("mended  ", figures(mended))


if __name__ == "__main__":
    main()
