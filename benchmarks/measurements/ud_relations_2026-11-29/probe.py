"""Dev probe (issue 36): fields for PredictedRelations, the relation labeller, on UD
English-EWT with gold heads, tags, lemmas and FEATS.

``python probe.py SPEC ...`` trains the labeller of the commit it runs on with the
fields of each SPEC added (``base``, or names joined by ``+``) on train and prints the
share of dev relations it gets right. The fields were computed here before they went
into ``relation_fields``: on the commit before them, ``base`` is the old labeller; on
the commit that adds them, ``base`` already has ``between``, ``childdir``, ``nextsib``
and ``headsibs`` (as ``between``, ``children_pos``, ``next_sibling`` and
``head_children``).
"""

import sys
import time

from skstruct import PredictedRelations
from skstruct.datasets import fetch_ud
from skstruct.relations import relation_fields

FEATS = ["Case", "Number", "Person", "PronType", "VerbForm", "Mood", "Tense", "Definite",
         "Degree", "Poss", "Voice"]  # fmt: skip
NAMES = {
    "right": ["right_children"],
    "hlemma": ["hlemma_upos"],
    "feats": [f"feat_{k}" for k in FEATS],
    "between": ["between"],
    "childpos": ["child_upos"],
    "headchild": ["head_has_nsubjlike"],
    "childdir": ["child_dir"],
    "nextsib": ["next_sibling"],
    "headsibs": ["head_sibs"],
}


def _sides(sentence, d, words):
    marked = sorted({("L" if c < d else "R") + sentence[c - 1]["upos"] for c in words})
    return " ".join(marked) if marked else None


def extra(sentence, rows, variant):
    """The fields of ``variant`` added to ``rows`` (relation_fields of ``sentence``)."""
    n = len(sentence)
    heads = [int(t["head"]) for t in sentence]
    children = [[] for _ in range(n + 1)]
    for d, h in enumerate(heads, start=1):
        children[h].append(d)
    for d, (row, tok) in enumerate(zip(rows, sentence), start=1):
        h = heads[d - 1]
        if "right" in variant:
            leaves = [sentence[c - 1]["form"].lower() for c in children[d]
                      if c > d and not children[c]]  # fmt: skip
            row["right_children"] = " ".join(leaves) if leaves else None
        if "hlemma" in variant:
            row["hlemma_upos"] = f"{sentence[h - 1]['lemma'] if h else '<root>'}>{tok['upos']}"
        if "feats" in variant:
            for k, v in (tok.get("feats") or {}).items():
                row[f"feat_{k}"] = v
        if "between" in variant:
            lo, hi = sorted((h, d)) if h else (d, d)
            pos = [sentence[k - 1]["upos"] for k in range(lo + 1, hi)]
            counts = (min(pos.count("VERB"), 2), min(pos.count("PUNCT"), 2),
                      min(pos.count("CCONJ"), 1))  # fmt: skip
            row["between"] = "V{} P{} C{}".format(*counts)
        if "childpos" in variant:
            kinds = sorted({sentence[c - 1]["upos"] for c in children[d]})
            row["child_upos"] = " ".join(kinds) if kinds else None
        if "headchild" in variant:
            others = [sentence[c - 1]["upos"] for c in children[h] if c != d] if h else []
            row["head_has_nsubjlike"] = str(any(p in ("NOUN", "PRON", "PROPN") for p in others))
        if "childdir" in variant:
            row["child_dir"] = _sides(sentence, d, children[d])
        if "nextsib" in variant:
            later = [c for c in children[h] if c > d]
            row["next_sibling"] = sentence[later[0] - 1]["upos"] if later else None
        if "headsibs" in variant:
            row["head_sibs"] = _sides(sentence, d, [c for c in children[h] if c != d] if h else [])
    return rows


class Probe(PredictedRelations):
    variant = ()
    names = ()

    def _inputs(self, X):
        columns = tuple(self.columns)
        return [extra(s, relation_fields(s, columns, i), self.variant) for i, s in enumerate(X)]

    def _default_tagger(self):
        tagger = super()._default_tagger()
        columns = list(tagger.features.columns) + list(self.names)
        return tagger.set_params(features=tagger.features.set_params(columns=columns))


def main():
    train, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data
    for spec in sys.argv[1:]:
        variant = tuple(v for v in spec.split("+") if v != "base")
        names = [n for v in variant for n in NAMES[v]]
        labeller = type("Variant", (Probe,), {"variant": variant, "names": names})
        start = time.perf_counter()
        model = labeller(random_state=0).fit(train)
        fit = time.perf_counter() - start
        pred = model.predict(dev)
        gold = [[t["deprel"] for t in s] for s in dev]
        right = sum(p == g for ps, gs in zip(pred, gold) for p, g in zip(ps, gs))
        total = sum(len(s) for s in gold)
        print(f"{spec}: dev relations {100 * right / total:.2f} % (fit {fit:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
