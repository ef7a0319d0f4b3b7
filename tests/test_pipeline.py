"""PredictedTags: a tagger fills the POS field, then a parser reads it."""

import numpy as np
import pytest
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline

from skstruct import Eisner, PredictedTags, StructuredPerceptron, TokenFeatures
from skstruct.datasets import load_conllu
from skstruct.metrics import token_accuracy, token_accuracy_scorer, uas_score
from tests.test_contract import _TREE_DATA


def _tagger():
    return StructuredPerceptron(features=TokenFeatures(), max_iter=3, random_state=0)


def test_transform_replaces_only_the_field_with_the_taggers_predictions():
    X, _ = _TREE_DATA
    filler = PredictedTags(_tagger()).fit(X[:40])
    predicted = filler.tagger_.predict(X[40:])
    out = filler.transform(X[40:])
    assert [[t["xpos"] for t in s] for s in out] == predicted
    for sentence, original in zip(out, X[40:]):
        assert [t["form"] for t in sentence] == [t["form"] for t in original]
    assert X[40][0].get("xpos") is not None  # the input is not modified
    # tokens without the field get it (raw text)
    bare = [[{"form": t["form"]} for t in s] for s in X[40:]]
    assert [[t["xpos"] for t in s] for s in filler.transform(bare)] == predicted


def test_the_tagger_never_reads_the_gold_field():
    X, _ = _TREE_DATA
    filler = PredictedTags(_tagger()).fit(X)
    scrambled = [[{**t, "xpos": "GARBAGE"} for t in s] for s in X]
    assert filler.transform(scrambled) == filler.transform(X)


def test_upos_field_and_default_tagger_are_reproducible():
    X, _ = _TREE_DATA
    X = [[{**t, "upos": t["xpos"].lower()} for t in s] for s in X]
    a = PredictedTags(field="upos", random_state=0).fit(X).transform(X)
    b = PredictedTags(field="upos", random_state=0).fit(X).transform(X)
    assert a == b
    assert (
        token_accuracy([[t["upos"] for t in s] for s in X], [[t["upos"] for t in s] for s in a])
        > 0.9
    )


def test_fields_tagged_jointly_are_one_label_split_back():
    X, _ = _TREE_DATA
    X = [[{**t, "upos": t["xpos"][0]} for t in s] for s in X]  # "NN" -> "N": a function
    joint = PredictedTags(_tagger(), field=("upos", "xpos")).fit(X[:40])
    labels = joint.tagger_.predict(X[40:])
    assert all(label.count("\t") == 1 for s in labels for label in s)
    out = joint.transform([[{"form": t["form"]} for t in s] for s in X[40:]])
    assert [[f"{t['upos']}\t{t['xpos']}" for t in s] for s in out] == labels
    # a joint tag is a pair the training data had: the UPOS is the XPOS's first letter
    assert all(t["upos"] == t["xpos"][0] for s in out for t in s)
    missing = [[{"form": "dog", "xpos": "NN"}]]
    with pytest.raises(ValueError, match=r"Example 0: token 0 has no 'upos' tag"):
        PredictedTags(_tagger(), field=("upos", "xpos")).fit(missing)


def test_tokens_without_the_gold_field_are_named():
    X, _ = _TREE_DATA
    X = [list(s) for s in X]
    X[3] = [*X[3][:1], {"form": "dog"}, *X[3][2:]]
    with pytest.raises(ValueError, match=r"Example 3: token 1 has no 'xpos' tag to learn from"):
        PredictedTags(_tagger()).fit(X)


def test_pipeline_tags_then_parses_and_cross_validates():
    X, heads = _TREE_DATA
    pipe = make_pipeline(
        PredictedTags(_tagger()), StructuredPerceptron(Eisner(), max_iter=3, random_state=0)
    )
    raw = [[{"form": t["form"]} for t in s] for s in X[40:]]
    pipe.fit(X[:40], heads[:40])
    assert uas_score(heads[40:], pipe.predict(raw)) > 0.8
    scores = cross_val_score(pipe, X, heads, cv=3, scoring=token_accuracy_scorer)
    assert np.isfinite(scores).all()


def test_ptb_sample_parsing_with_predicted_tags(data_home):
    X, heads = load_conllu(data_home / "ptb-sample" / "train.conllu")
    X_test, heads_test = load_conllu(data_home / "ptb-sample" / "test.conllu")
    X, heads, X_test, heads_test = X[:800], heads[:800], X_test[:120], heads_test[:120]
    tags = PredictedTags(random_state=0).fit(X)
    tagged = tags.transform(X_test)
    accuracy = token_accuracy([[t["xpos"] for t in s] for s in X_test],
                              [[t["xpos"] for t in s] for s in tagged])  # fmt: skip
    assert 0.85 < accuracy < 1.0
    parser = StructuredPerceptron(Eisner(), max_iter=4, random_state=0).fit(X, heads)
    gold_uas = uas_score(heads_test, parser.predict(X_test))
    predicted_uas = uas_score(heads_test, parser.predict(tagged))
    assert predicted_uas <= gold_uas
    assert predicted_uas > 0.65
