"""TokenFeatures: raw tokens -> sklearn-crfsuite token dicts."""

import itertools
import re

import numpy as np
import pytest
from sklearn.base import clone

from skstruct import StructuredPerceptron, TokenFeatures
from skstruct.datasets import fetch_conll2000, load_conllu
from skstruct.features import TokenDictEncoder, crfsuite_tutorial_features, word_shape


def test_current_token_features():
    feats = TokenFeatures(window=0, bos_eos=False).fit_transform([["Well-Known", "A1"]])[0]
    assert feats[0] == {
        "bias": 1.0,
        "word": "Well-Known",
        "lower": "well-known",
        "shape": "Xx-Xx",
        "prefix1": "W",
        "prefix2": "We",
        "prefix3": "Wel",
        "suffix1": "n",
        "suffix2": "wn",
        "suffix3": "own",
        "is_upper": False,
        "is_title": True,
        "is_digit": False,
        "has_digit": False,
        "has_hyphen": True,
    }
    assert feats[1]["has_digit"] and feats[1]["shape"] == "Xd" and "prefix3" not in feats[1]


def test_window_columns_and_sentence_edges():
    X = [[("The", "DT"), ("dog", "NN"), ("ran", "VBD")]]
    feats = TokenFeatures(
        window=2,
        columns=["pos"],
        prefix_length=0,
        suffix_length=0,
        shape=False,
        flags=False,
        word=False,
    ).fit_transform(X)[0]
    assert feats[0]["BOS"] is True and "EOS" not in feats[0]
    assert feats[2]["EOS"] is True and "BOS" not in feats[2]
    assert feats[0]["+1:lower"] == "dog" and feats[0]["+2:pos"] == "VBD"
    assert feats[1]["-1:pos[:2]"] == "DT" and "-2:lower" not in feats[1]
    assert feats[2]["-2:lower"] == "the" and "+1:lower" not in feats[2]
    assert feats[1]["pos"] == "NN"


def test_default_column_names():
    feats = TokenFeatures(window=0).fit_transform([[("dogs", "NNS", "B-NP")]])[0][0]
    assert feats["col1"] == "NNS" and feats["col2[:2]"] == "B-"


@pytest.mark.parametrize(
    ("X", "params", "match"),
    [
        ([[("a", "DT"), ("b",)]], {}, r"Example 0: token 1 has 1 fields but token 0 has 2"),
        ([[("a", "DT")]], {"columns": ["pos", "chunk"]}, r"1 extra fields but columns names 2"),
        ([["a"], [3]], {}, r"Example 1: token 0 is 3; TokenFeatures expects a string"),
        ([["a"], []], {}, r"X\[1\] is an empty sequence"),
    ],
)
def test_bad_tokens_are_named(X, params, match):
    with pytest.raises((TypeError, ValueError), match=match):
        TokenFeatures(**params).fit_transform(X)


def test_is_a_clean_sklearn_transformer():
    feats = TokenFeatures(window=3)
    assert clone(feats).get_params() == feats.get_params()


def test_word_shape():
    assert [word_shape(w) for w in ["Apple", "iPhone", "2024", "U.S.", "--"]] == [
        "Xx",
        "xXx",
        "d",
        "X.X.",
        "-",
    ]


def _shape_per_char(word):
    """word_shape's rule, one character at a time (the generic path)."""
    chars = ["X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c
             for c in word]  # fmt: skip
    return re.sub(r"(.)\1+", r"\1", "".join(chars))


def test_word_shape_of_ascii_words_equals_the_per_character_rule():
    ascii_chars = [chr(i) for i in range(128)]
    words = ascii_chars + ["".join(p) for p in itertools.product("aZ0-.\t\n\x7f", repeat=4)]
    assert [word_shape(w) for w in words] == [_shape_per_char(w) for w in words]
    assert word_shape("Ärger²") == _shape_per_char("Ärger²") == "Xxd"  # not ASCII: generic


def test_has_digit_flag_counts_every_unicode_digit():
    feats = TokenFeatures(window=0).fit_transform([["x²", "abc", "a1", "٣"]])[0]
    assert [f["has_digit"] for f in feats] == [True, False, True, True]


def test_tutorial_features_match_the_sklearn_crfsuite_tutorial():
    feats = crfsuite_tutorial_features([[("He", "PRP"), ("reckons", "VBZ"), ("U.S.", "NNP")]])[0]
    assert feats[0]["BOS"] and feats[2]["EOS"]
    assert feats[1] == {
        "bias": 1.0,
        "word.lower()": "reckons",
        "word[-3:]": "ons",
        "word[-2:]": "ns",
        "word.isupper()": False,
        "word.istitle()": False,
        "word.isdigit()": False,
        "postag": "VBZ",
        "postag[:2]": "VB",
        "-1:word.lower()": "he",
        "-1:word.istitle()": True,
        "-1:word.isupper()": False,
        "-1:postag": "PRP",
        "-1:postag[:2]": "PR",
        "+1:word.lower()": "u.s.",
        "+1:word.istitle()": True,
        "+1:word.isupper()": True,
        "+1:postag": "NNP",
        "+1:postag[:2]": "NN",
    }


def test_tutorial_features_without_pos_drop_the_pos_features():
    with_pos = crfsuite_tutorial_features([[("He", "PRP"), ("ran", "VBD")]])[0]
    without = crfsuite_tutorial_features([[("He",), ("ran",)]])[0]
    assert crfsuite_tutorial_features([["He", "ran"]])[0] == without
    for full, bare in zip(with_pos, without):
        assert bare == {k: v for k, v in full.items() if "postag" not in k}


# -- encode: features per distinct token, equal to the dicts' encoding --------------------------

_WORDS = [["The", "dog", "ran", "."], ["A", "dog"], ["I"], ["the", "well-known", "Dog", "2024"]]
_TAGGED = [
    [("The", "DT"), ("dog", "NN"), ("ran", "VBD"), (".", ".")],
    [("A", "DT"), ("dog", "NN")],
    [("I", "PRP")],
    [("the", "DT"), ("well-known", "JJ"), ("Dog", "NNP"), ("2024", "CD")],
]
_THREE_FIELDS = [[(w, t, "B-" + t) for w, t in s] for s in _TAGGED]
_CONLLU = [
    [
        {"id": 1, "form": "Dogs", "lemma": "dog", "xpos": "NNS", "feats": None},
        {"id": 2, "form": "bark", "lemma": None, "xpos": "VBP", "feats": "Mood=Ind"},
    ],
    [{"id": 1, "form": "Dogs", "lemma": "dog", "xpos": None}],
]
_NEW_WORDS = [["The", "cat", "ran", "off"], ["Zorblax"]]
_NEW_TAGGED = [[("The", "DT"), ("cat", "NN"), ("ran", "VBZ")], [("Zorblax", "XX")]]


def _rows(encoder, encoded):
    """Every token's features as ``(name, value)`` pairs in row order (column ids when
    hashed: hashed ids do not depend on the encoder's history)."""
    names = None if encoder.n_features is not None else encoder.get_feature_names_out()
    rows = []
    for a, b in zip(encoded.indptr[:-1].tolist(), encoded.indptr[1:].tolist()):
        columns = encoded.indices[a:b]
        keys = columns.tolist() if names is None else names[columns].tolist()
        rows.append(list(zip(keys, encoded.values[a:b].tolist())))
    return rows


def _assert_same_encoding(feats, X, X_new=None, n_features=None):
    """``feats.encode`` equals encoding ``feats.transform``'s dicts, learning and not."""
    by_dicts, by_types = TokenDictEncoder(n_features), TokenDictEncoder(n_features)
    expected = by_dicts.fit_transform(feats.transform(X))
    got = feats.encode(X, by_types, learn=True)
    assert _rows(by_types, got) == _rows(by_dicts, expected)
    assert got.offsets.tolist() == expected.offsets.tolist()
    assert got.n_features == expected.n_features == by_types.n_features_
    assert got.indices.dtype == np.int32 and got.indptr.dtype == got.offsets.dtype == np.int64
    if n_features is None:
        names = by_types.get_feature_names_out().tolist()
        assert len(names) == len(set(names))
        assert set(names) == set(by_dicts.get_feature_names_out().tolist())
    if X_new is not None:  # unseen words and tags: their features are dropped alike
        expected = by_dicts.transform(feats.transform(X_new))
        assert _rows(by_types, feats.encode(X_new, by_types)) == _rows(by_dicts, expected)


_SETTINGS = [
    ({}, _WORDS, _NEW_WORDS),
    ({"window": 0}, _WORDS, _NEW_WORDS),
    ({"window": 2, "columns": ["pos"]}, _TAGGED, _NEW_TAGGED),
    ({"window": 2, "bos_eos": False, "bias": False}, _TAGGED, _NEW_TAGGED),
    ({"window": 0, "bos_eos": False}, _TAGGED, _NEW_TAGGED),
    ({"window": 1, "bias": False}, _THREE_FIELDS, None),
    ({"columns": ["pos", "chunk"], "window": 2}, _THREE_FIELDS, None),
    ({"prefix_length": 6, "suffix_length": 8}, _WORDS, _NEW_WORDS),  # affixes beyond words
    ({"word": False, "lower": False, "flags": False, "shape": False}, _TAGGED, _NEW_TAGGED),
    ({"columns": ["lemma", "xpos", "feats"], "window": 2}, _CONLLU, None),  # None fields
    ({}, _CONLLU, None),  # CoNLL-U without columns: the form alone
    ({"columns": ["xpos"]}, [[("Dogs", "NNS")], *_CONLLU], None),  # both kinds of sentence
    ({"window": 1}, [[list(t) for t in s] for s in _TAGGED], _NEW_TAGGED),  # list tokens
    ({"columns": ["bias"]}, _TAGGED, _NEW_TAGGED),  # a column named like the bias
    ({"columns": ["-1:lower"]}, _TAGGED, _NEW_TAGGED),  # ... like a context feature
]


@pytest.mark.parametrize("n_features", [None, 2**10])
@pytest.mark.parametrize(("params", "X", "X_new"), _SETTINGS)
def test_encode_equals_encoding_the_dicts(params, X, X_new, n_features):
    _assert_same_encoding(TokenFeatures(**params), X, X_new, n_features)


def test_encode_equals_encoding_the_dicts_on_real_data(corpus):
    train = fetch_conll2000("train", data_home=corpus("conll2000").parent)
    test = fetch_conll2000("test", data_home=corpus("conll2000").parent)
    for feats in (TokenFeatures(), TokenFeatures(window=2, columns=["pos"])):
        _assert_same_encoding(feats, train.data[:250], test.data[:100])
    X, _ = load_conllu(corpus("ptb-sample") / "dev.conllu")
    _assert_same_encoding(TokenFeatures(columns=["xpos", "feats"]), X[:100], X[100:])


def test_encode_extends_a_vocabulary_as_partial_fit_does():
    feats = TokenFeatures(columns=["pos"])
    by_dicts = TokenDictEncoder().fit(feats.transform(_TAGGED[:2]))
    by_types = TokenDictEncoder()
    feats.encode(_TAGGED[:2], by_types, learn=True)
    n_before = by_types.n_features_
    names_before = by_types.get_feature_names_out().tolist()
    got = feats.encode(_TAGGED[2:], by_types, learn=True)
    expected = by_dicts.partial_fit_transform(feats.transform(_TAGGED[2:]))
    assert _rows(by_types, got) == _rows(by_dicts, expected)
    assert by_types.get_feature_names_out().tolist()[:n_before] == names_before


def test_a_subclass_making_its_own_dicts_is_encoded_through_them():
    class Upper(TokenFeatures):
        def transform(self, X):
            return [[{**d, "extra": True} for d in s] for s in super().transform(X)]

    encoder = TokenDictEncoder()
    encoded = Upper().encode(_WORDS, encoder, learn=True)
    assert all(("extra", 1.0) in row for row in _rows(encoder, encoded))


@pytest.mark.parametrize(
    ("X", "params", "match"),
    [
        ([[("a", "DT"), ("b",)]], {}, r"^Example 0: token 1 has 1 fields but token 0 has 2"),
        ([["a"], [("a", "DT")], [("b", "DT"), ("c",)]], {}, r"^Example 2: token 1 has 1 fields"),
        ([[("a", "DT")]], {"columns": ["pos", "chunk"]}, r"^Example 0: tokens have 1 extra"),
        ([["a"], ["b", 3]], {}, r"^Example 1: token 1 is 3; TokenFeatures expects a string"),
        ([["a"], ["b", ("c", None)]], {}, r"^Example 1: token 1 is \('c', None\)"),
        ([["a"], ["b", ["c", ["d"]]]], {}, r"^Example 1: token 1 is \['c', \['d'\]\]"),
        ([["a"], ["b", {"form": "c"}]], {}, r"^Example 1: token 1 is \{'form': 'c'\}"),
        ([["a", ()]], {}, r"^Example 0: token 1 is \(\); TokenFeatures expects"),
        ([["a"], []], {}, r"^X\[1\] is an empty sequence"),
        ([[{"form": "a"}, "b"]], {}, r"^Example 0: token 1 is 'b'; TokenFeatures expects CoNLL-U"),
        ([[{"form": "a"}, {"form": 3}]], {}, r"^Example 0: token 1 is \{'form': 3\}"),
        (
            [[{"form": "a", "xpos": "DT"}], [{"form": "b", "xpos": ["NN"]}]],
            {"columns": ["xpos"]},
            r"^Example 1: token 0 has \['NN'\] in field 'xpos'",
        ),
        (
            [[{"form": "a", "xpos": 1}]],
            {"columns": ["xpos"]},
            r"^Example 0: token 0 has 1 in field 'xpos'",
        ),
    ],
)
def test_encode_names_bad_tokens_as_transform_does(X, params, match):
    feats = TokenFeatures(**params)
    with pytest.raises((TypeError, ValueError), match=match) as by_dicts:
        feats.transform(X)
    with pytest.raises(type(by_dicts.value)) as by_types:
        feats.encode(X, TokenDictEncoder(), learn=True)
    assert str(by_types.value) == str(by_dicts.value)


@pytest.fixture(scope="module")
def chunking_sample(corpus):
    home = corpus("conll2000").parent
    train = fetch_conll2000("train", data_home=home, download_if_missing=False)
    test = fetch_conll2000("test", data_home=home, download_if_missing=False)
    return train.data[:400], train.target[:400], test.data[:200]


@pytest.mark.parametrize("n_features", [None, 2**12])
def test_a_tagger_on_token_features_learns_what_it_learns_from_the_dicts(
    chunking_sample, n_features
):
    X, y, X_test = chunking_sample
    params = {"max_iter": 3, "random_state": 0, "n_features": n_features}
    by_types = StructuredPerceptron(features=TokenFeatures(), **params).fit(X, y)
    dicts = TokenFeatures()
    by_dicts = StructuredPerceptron(**params).fit(dicts.fit_transform(X), y)
    assert by_types.predict(X_test) == by_dicts.predict(dicts.transform(X_test))
    assert by_types.score(X_test[:50], by_types.predict(X_test[:50])) == 1.0
    emissions = [m.structure_.emission_matrix(m.coef_) for m in (by_types, by_dicts)]
    if n_features is None:  # the same rows, permuted: line them up by feature name
        names = [m.encoder_.get_feature_names_out() for m in (by_types, by_dicts)]
        assert sorted(names[0]) == sorted(names[1])
        emissions = [e[np.argsort(n, kind="stable")] for e, n in zip(emissions, names)]
    assert (emissions[0] != emissions[1]).nnz == 0
    # transitions, start and stop weights
    for a, b in zip(*(m.structure_.split(m.coef_)[1:] for m in (by_types, by_dicts))):
        assert np.array_equal(a, b)


def test_a_tagger_makes_no_dict_per_token(monkeypatch):
    def no_dicts(self, i, seq):
        raise AssertionError("a dict per token")

    monkeypatch.setattr(TokenFeatures, "_sentence", no_dicts)
    model = StructuredPerceptron(features=TokenFeatures(columns=["pos"]), random_state=0)
    model.fit(_TAGGED, [[t for _, t in s] for s in _TAGGED])
    model.partial_fit([[("The", "DT"), ("cat", "NN")]], [["DT", "NN"]])  # "cat" is new
    assert model.predict(_TAGGED) == [[t for _, t in s] for s in _TAGGED]
