"""TokenFeatures: raw tokens -> sklearn-crfsuite token dicts."""

import pytest
from sklearn.base import clone

from skstruct import TokenFeatures
from skstruct.features import crfsuite_tutorial_features, word_shape


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
