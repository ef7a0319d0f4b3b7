"""Dev probe (issue 36), step 3: the pipeline labeller's errors on the words whose head
the parser got right (``relabel.py``'s ``$UDH/labels_dev.pkl``), by universal relation,
and how many of them have a predicted UPOS or XPOS that is wrong (in all, and for each
confusion)."""

import os
import pickle
from collections import Counter

WORK = os.environ.get("UDH", "/tmp/udh")


def universal(relation):
    return relation.split(":")[0]


def main():
    with open(os.path.join(WORK, "data.pkl"), "rb") as f:
        data = pickle.load(f)
    with open(os.path.join(WORK, "labels_dev.pkl"), "rb") as f:
        labels = pickle.load(f)["pipeline"]
    words = right_head = wrong = wrong_tags = 0
    confusions, with_wrong_tags = Counter(), Counter()
    for gs, ps, ls in zip(data["gold"]["dev"], data["pred"]["dev"], labels):
        for g, p, label in zip(gs, ps, ls):
            words += 1
            if p["head"] != g["head"]:
                continue
            right_head += 1
            if universal(label) != universal(g["deprel"]):
                wrong += 1
                tags_wrong = p["upos"] != g["upos"] or p["xpos"] != g["xpos"]
                wrong_tags += tags_wrong
                confusions[universal(g["deprel"]), universal(label)] += 1
                with_wrong_tags[universal(g["deprel"]), universal(label)] += tags_wrong
    print(f"dev words {words}; head right {right_head}; of those, universal relation wrong "
          f"{wrong} ({100 * wrong / words:.2f} % of all words), {wrong_tags} of them with a "
          f"wrong predicted UPOS or XPOS")  # fmt: skip
    for (gold, predicted), count in confusions.most_common(25):
        tags = with_wrong_tags[gold, predicted]
        print(f"{gold:>12} -> {predicted:<12} {count} ({tags} with a wrong tag)")


if __name__ == "__main__":
    main()
