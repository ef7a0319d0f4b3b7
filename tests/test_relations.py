"""PredictedRelations: relations of parsed words as tags, the fields they are read from,
and the labeller on real UD data."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator

from skstruct import PredictedRelations
from skstruct.metrics import conll18_scores
from skstruct.morphology import feats_label
from skstruct.relations import ROOT, depth_first_order, relation_fields

SENTENCE = [  # "The dog of John barked loudly ."
    {"form": "The", "upos": "DET", "head": 2},
    {"form": "dog", "upos": "NOUN", "head": 5, "feats": {"Number": "Sing"}},
    {"form": "of", "upos": "ADP", "head": 4},
    {"form": "John", "upos": "PROPN", "head": 2},
    {"form": "barked", "upos": "VERB", "head": 0},
    {"form": "loudly", "upos": "ADV", "head": 5},
    {"form": ".", "upos": "PUNCT", "head": 5},
]


def _brute_force_fields(sentence, columns):
    """relation_fields written the slow way: every quantity searched for in the whole
    sentence, word by word."""
    n = len(sentence)

    def value(token, name):
        if name == "form":
            return token["form"].lower()
        if name == "feats":
            return feats_label(token.get("feats"))
        return token.get(name)

    def word(i):
        return {name: value(sentence[i - 1], name) for name in ("form", *columns)}

    rows = []
    for d in range(1, n + 1):
        h = sentence[d - 1]["head"]
        head = word(h) if h else dict.fromkeys(("form", *columns), ROOT)
        first = columns[0]
        row = dict(word(d))
        row.update({f"head_{k}": v for k, v in head.items()})
        distance = abs(h - d)
        bucket = {1: "1", 2: "2", 3: "3-4", 4: "3-4"}.get(distance)
        bucket = bucket or ("5-10" if distance <= 10 else ">10")
        row["arc"] = "root" if h == 0 else ("L" if h < d else "R") + bucket
        row["arc_pos"] = f"{head[first]}>{row[first]}/{row['arc'][0]}"
        g = sentence[h - 1]["head"] if h else None
        row["grandparent"] = f"{ROOT if not g else word(g)[first]}>{head[first]}"
        earlier = [s for s in range(1, d) if sentence[s - 1]["head"] == h]
        row["sibling"] = word(earlier[-1])[first] if earlier else None
        leaves = [
            word(c)["form"]
            for c in range(1, d)
            if sentence[c - 1]["head"] == d and all(t["head"] != c for t in sentence)
        ]
        row["children"] = " ".join(leaves) or None
        kids = sum(t["head"] == d for t in sentence)
        row["n_children"] = str(min(kids, 4))
        later = [s for s in range(d + 1, n + 1) if sentence[s - 1]["head"] == h]
        row["next_sibling"] = word(later[0])[first] if later else None
        kids = [c for c in range(1, n + 1) if sentence[c - 1]["head"] == d]
        row["children_pos"] = _sides({c: word(c)[first] for c in kids}, d)
        others = [c for c in range(1, n + 1) if h and c != d and sentence[c - 1]["head"] == h]
        row["head_children"] = _sides({c: word(c)[first] for c in others}, d)
        inside = [
            sentence[k - 1]["upos"] for k in range(1, n + 1) if h and min(h, d) < k < max(h, d)
        ]
        counts = (min(inside.count("VERB"), 2), min(inside.count("PUNCT"), 2),
                  min(inside.count("CCONJ"), 1))  # fmt: skip
        row["between"] = "V{} P{} C{}".format(*counts)
        rows.append(row)
    return rows


def _sides(values, d):
    """``values`` (word -> field) marked L or R of word ``d``, sorted, or None."""
    marked = {("L" if w < d else "R") + value for w, value in values.items()}
    return " ".join(sorted(marked)) or None


@pytest.mark.parametrize("columns", [("upos",), ("upos", "feats", "lemma")])
def test_fields_equal_their_brute_force_twin(columns):
    assert relation_fields(SENTENCE, columns) == _brute_force_fields(SENTENCE, columns)


def test_fields_of_a_sentence_by_hand():
    rows = relation_fields(SENTENCE, ("upos",))
    dog, of, barked = rows[1], rows[2], rows[4]
    assert (dog["head_form"], dog["arc"], dog["arc_pos"]) == ("barked", "R3-4", "VERB>NOUN/R")
    assert (dog["children"], dog["n_children"]) == ("the", "2")  # "of John" has a child
    assert (of["grandparent"], of["sibling"]) == ("NOUN>PROPN", None)
    assert (barked["head_upos"], barked["arc"], barked["grandparent"]) == (
        ROOT,
        "root",
        f"{ROOT}>{ROOT}",
    )
    assert rows[6]["sibling"] == "ADV"  # "." after "loudly" under "barked"
    assert (rows[5]["next_sibling"], rows[6]["next_sibling"]) == ("PUNCT", None)
    assert (dog["children_pos"], dog["head_children"]) == ("LDET RPROPN", "RADV RPUNCT")
    assert barked["head_children"] is None  # the root's other children are not its siblings
    assert (dog["between"], rows[6]["between"], barked["between"]) == ("V0 P0 C0",) * 3
    commas = [{"form": "a", "upos": "DET", "head": 3}, {"form": ",", "upos": "PUNCT", "head": 3},
              {"form": "x", "upos": "VERB", "head": 0}]  # fmt: skip
    assert relation_fields(commas, ("upos",))[0]["between"] == "V0 P1 C0"


def test_the_labeller_learns_english_ewt(ewt_head):
    X, dev = ewt_head("train", 800), ewt_head("dev", 400)
    relations = PredictedRelations(max_iter=2, random_state=0).fit(X)
    unlabelled = [[{**t, "deprel": None} for t in s] for s in dev]
    predicted = relations.transform(unlabelled)
    assert all(
        {**t, "deprel": p["deprel"]} == p
        for s, q in zip(unlabelled, predicted)
        for t, p in zip(s, q)
    )
    # gold heads: LAS is the labels' accuracy
    assert conll18_scores(dev, predicted)["LAS"].f1 > 0.85
    assert relations.predict(dev[:1]) == [[t["deprel"] for t in relations.transform(dev[:1])[0]]]


@pytest.mark.parametrize(
    "sentence, error, message",
    [
        (
            [{"form": "dogs", "head": 0, "deprel": "root"}, "bark"],
            ValueError,
            r"Example 0: token 1 \('bark'\)",
        ),
        (
            [{"form": "dogs", "head": 3, "deprel": "root"}],
            ValueError,
            r"Example 0: token 0 has head 3",
        ),
        (
            [{"form": "dogs", "deprel": "root"}],
            ValueError,
            r"Example 0: token 0 has head None.*parse first",
        ),
        ([{"form": "dogs", "head": 0}], ValueError, r"Example 0: token 0 has no 'deprel'"),
        (
            [
                {"form": "dogs", "head": 2, "deprel": "nsubj"},
                {"form": "bark", "head": 0, "deprel": "root", "feats": 1.5},
            ],
            TypeError,
            r"Example 0: token 1 has FEATS 1.5: FEATS is a dict",
        ),
        (
            [
                {"form": "dogs", "head": 2, "deprel": "nsubj", "upos": ["NOUN"]},
                {"form": "bark", "head": 0, "deprel": "root", "upos": "VERB"},
            ],
            TypeError,
            r"Example 0: token 0 has the upos \['NOUN'\]; PredictedRelations reads its",
        ),
    ],
)
def test_bad_input_is_named(sentence, error, message):
    with pytest.raises(error, match=message):
        PredictedRelations().fit([sentence])


def _recursive_depth_first(heads):
    """depth_first_order's twin: the walk by recursion, then the unreached words."""
    order = []

    def visit(h):
        for d in range(1, len(heads) + 1):
            if heads[d - 1] == h:
                order.append(d - 1)
                visit(d)

    visit(0)
    return order + [j for j in range(len(heads)) if j not in order]


def _random_tree(rng, n):
    """Heads of a random tree (any shape, projective or not) over n words."""
    placed, heads = [0], [0] * n
    for d in rng.permutation(n) + 1:
        heads[d - 1] = int(rng.choice(placed))
        placed.append(int(d))
    return heads


def test_depth_first_order_equals_its_recursive_twin():
    rng = np.random.RandomState(0)
    for n in [0, 1, 2, 3, 5, 8, 13, 30] * 5:
        heads = _random_tree(rng, n)
        assert depth_first_order(heads) == _recursive_depth_first(heads)
    assert depth_first_order([h["head"] for h in SENTENCE]) == [4, 1, 0, 3, 2, 5, 6]
    # a cycle (2 -> 3 -> 2) hangs under nothing: its words follow in sentence order
    assert depth_first_order([0, 3, 2, 1]) == [0, 3, 1, 2] == _recursive_depth_first([0, 3, 2, 1])
    assert depth_first_order([2, 1]) == [0, 1]
    for heads, word in [([0, 3], 1), ([-1], 0), ([0, 1.0], 1), ([True], 0)]:
        with pytest.raises(ValueError, match=rf"word {word} has head .*heads are 0 \(the root\)"):
            depth_first_order(heads)


class _FormEcho(BaseEstimator):
    """A labeller that records the rows it is given and labels each with its form."""

    def fit(self, X, y):
        self.seen_ = [[row["form"] for row in rows] for rows in X]
        self.labels_ = y
        return self

    def predict(self, X):
        return [[row["form"] for row in rows] for rows in X]


@pytest.mark.parametrize("chain_order", ["depth_first", "sentence"])
def test_the_chain_order_orders_what_the_labeller_sees_and_nothing_else(chain_order):
    X = [[{**t, "deprel": f"rel{i}"} for i, t in enumerate(SENTENCE)],
         [{**SENTENCE[4], "head": 0, "deprel": "root"}]]  # fmt: skip
    relations = PredictedRelations(_FormEcho(), chain_order=chain_order, columns=("upos",))
    relations.fit(X)
    forms = [t["form"].lower() for t in SENTENCE]
    order = depth_first_order([t["head"] for t in SENTENCE])
    expected = [forms[j] for j in order] if chain_order == "depth_first" else forms
    assert relations.tagger_.seen_[0] == expected
    assert relations.tagger_.labels_[0] == [f"rel{forms.index(form)}" for form in expected]
    # the labels come back in sentence order, in predict and in transform
    assert relations.predict(X) == [forms, ["barked"]]
    assert [t["deprel"] for t in relations.transform(X)[0]] == forms
    rows = relation_fields(SENTENCE, ("upos",))
    expected_rows = [rows[j] for j in order] if chain_order == "depth_first" else rows
    assert relations._inputs([SENTENCE])[0] == expected_rows


def test_an_unknown_chain_order_is_refused():
    with pytest.raises(ValueError, match="chain_order"):
        PredictedRelations(chain_order="breadth_first").fit([SENTENCE])
