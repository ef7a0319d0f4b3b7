"""Input a new user hands over as it comes: pandas columns, CoNLL-U token dicts with
unannotated (``None``) fields, sklearn's scorer names, a model path in a missing folder."""

import io
import os

import numpy as np
import pandas as pd
import pytest
from numpydoc.docscrape import ClassDoc
from sklearn.metrics import accuracy_score, make_scorer
from sklearn.model_selection import GridSearchCV, cross_val_score

import skstruct
from skstruct import (
    ChuLiuEdmonds,
    Eisner,
    ParameterMixing,
    StructuredPerceptron,
    TokenFeatures,
    decoders,
    save,
)
from skstruct.datasets import load_conllu, make_chain_data
from skstruct.metrics import (
    UnsupportedScorerError,
    token_accuracy,
    token_accuracy_scorer,
)
from tests.test_contract import _TREE_DATA

UD = """\
# newdoc id = test-doc
# sent_id = 1
# text = Dogs bark.
1\tDogs\tdog\tNOUN\tNNS\tNumber=Plur\t2\tnsubj\t2:nsubj\t_
2\tbark\tbark\tVERB\tVBP\tMood=Ind|Tense=Pres\t0\troot\t0:root\tSpaceAfter=No
3\t.\t.\tPUNCT\t.\t_\t2\tpunct\t2:punct\t_

# sent_id = 2
# text = Cats sleep.
1\tCats\tcat\tNOUN\tNNS\tNumber=Plur\t2\tnsubj\t2:nsubj\t_
2\tsleep\tsleep\tVERB\tVBP\t_\t0\troot\t0:root\tSpaceAfter=No
3\t.\t.\tPUNCT\t.\t_\t2\tpunct\t2:punct\t_

"""


@pytest.fixture(scope="module")
def chain_data():
    return make_chain_data(60, random_state=0)


def _tagger(**params):
    params = {"features": TokenFeatures(), "max_iter": 3, "random_state": 0, **params}
    return StructuredPerceptron(**params)


# -- pandas --------------------------------------------------------------------------------------


def test_pandas_series_and_one_column_frame_fit_like_lists(chain_data):
    X, y = chain_data
    reference = _tagger().fit(X, y)
    index = np.arange(len(X))[::-1] * 10  # an index that is not 0..n-1 must not matter
    series = pd.Series(X, index=index)
    frame = pd.DataFrame({"tokens": X}, index=index)
    for X_in in (series, frame):
        model = _tagger().fit(X_in, pd.Series(y, index=index))
        assert np.array_equal(model.coef_, reference.coef_)
        assert model.predict(X_in) == reference.predict(X)
        assert model.score(X_in, y) == reference.score(X, y)


def test_frames_with_other_shapes_are_refused_with_a_hint(chain_data):
    X, y = chain_data
    frame = pd.DataFrame({"tokens": X, "labels": y})
    with pytest.raises(TypeError, match=r"X is a DataFrame with 2 columns \('tokens', 'labels'\)"
                       r".*X=frame\['tokens'\]"):  # fmt: skip
        _tagger().fit(frame, y)
    with pytest.raises(TypeError, match=r"y is a DataFrame with 2 columns"):
        _tagger().fit(X, frame)


def test_pandas_works_in_cross_validation(chain_data):
    X, y = chain_data
    scores = cross_val_score(_tagger(), pd.Series(X), pd.Series(y), cv=3,
                             scoring=token_accuracy_scorer)  # fmt: skip
    assert np.array_equal(scores, cross_val_score(_tagger(), X, y, cv=3,
                                                  scoring=token_accuracy_scorer))  # fmt: skip


# -- load_conllu output as tagger input ----------------------------------------------------------


def test_load_conllu_tokens_are_tagger_input_as_they_are():
    X, _ = load_conllu(io.StringIO(UD))
    upos = [[token["upos"] for token in sentence] for sentence in X]
    assert X[0][2]["feats"] is None and X[0][1]["misc"] == {"SpaceAfter": "No"}
    model = StructuredPerceptron(max_iter=10, random_state=0).fit(X, upos)
    names = set(model.encoder_.get_feature_names_out())
    assert "form=Dogs" in names and "feats:Number=Plur" in names
    assert "deps:nsubj:2" in names  # enhanced dependencies as (relation, head) tuples
    assert not any("None" in name for name in names)  # unannotated fields are no feature
    assert model.predict(X) == upos
    hashed = StructuredPerceptron(n_features=2**12, max_iter=10, random_state=0).fit(X, upos)
    assert hashed.predict(X) == upos


def test_none_fields_are_the_same_as_absent_ones():
    X, _ = load_conllu(io.StringIO(UD))
    upos = [[token["upos"] for token in sentence] for sentence in X]
    without = [[{k: v for k, v in t.items() if v is not None} for t in s] for s in X]
    for n_features in (None, 2**12):
        a = StructuredPerceptron(n_features=n_features, max_iter=2, random_state=0).fit(X, upos)
        b = StructuredPerceptron(n_features=n_features, max_iter=2, random_state=0)
        assert np.array_equal(a.coef_, b.fit(without, upos).coef_)


def test_token_features_read_conllu_dicts_without_the_gold_fields():
    X, _ = load_conllu(io.StringIO(UD))
    feats = TokenFeatures(columns=["lemma", "xpos"]).fit_transform(X)
    from_tuples = TokenFeatures(columns=["lemma", "xpos"]).fit_transform(
        [[(t["form"], t["lemma"], t["xpos"]) for t in s] for s in X]
    )
    assert feats == from_tuples
    form_only = TokenFeatures().fit_transform(X)[0][0]
    assert form_only["word"] == "Dogs" and not any("upos" in k or "NOUN" in str(v)
                                                   for k, v in form_only.items())  # fmt: skip
    X[0][1]["xpos"] = None  # unannotated: no feature, not the string "None"
    assert "xpos" not in TokenFeatures(columns=["xpos"]).fit_transform(X)[0][1]
    with pytest.raises(TypeError, match=r"Example 0: token 0 has \{'Number': 'Plur'\} in field "
                       r"'feats'; columns must name string fields"):  # fmt: skip
        TokenFeatures(columns=["feats"]).fit_transform(X)


# -- scikit-learn's scorer names -----------------------------------------------------------------


@pytest.mark.parametrize("scoring", ["accuracy", "f1_macro", make_scorer(accuracy_score)])
def test_sklearn_scorers_are_refused_not_turned_into_nan(chain_data, scoring):
    X, y = chain_data
    with pytest.raises(UnsupportedScorerError, match=r"skstruct\.metrics.*token_accuracy_scorer"):
        cross_val_score(_tagger(), X, y, cv=3, scoring=scoring)


def test_sklearn_scorer_refused_in_grid_search_parsers_and_mixing(chain_data):
    X, y = chain_data
    with pytest.raises(UnsupportedScorerError, match="accuracy_score"):
        GridSearchCV(_tagger(), {"max_iter": [1, 2]}, cv=2, scoring="accuracy").fit(X, y)
    X_trees, heads = _TREE_DATA
    parser = StructuredPerceptron(Eisner(), max_iter=1, random_state=0)
    with pytest.raises(UnsupportedScorerError):
        cross_val_score(parser, X_trees, heads, cv=2, scoring="accuracy")
    mixer = ParameterMixing(_tagger(), n_shards=2, max_iter=1, n_jobs=1, random_state=0)
    with pytest.raises(UnsupportedScorerError):
        cross_val_score(mixer, X, y, cv=2, scoring="accuracy", n_jobs=2)  # through joblib


def test_other_scorers_and_plain_predict_still_work(chain_data):
    X, y = chain_data
    model = _tagger().fit(X, y)

    def my_accuracy(y_true, y_pred):  # a user's own sequence metric
        return token_accuracy(y_true, y_pred)

    for scoring in (token_accuracy_scorer, make_scorer(my_accuracy)):
        assert np.isfinite(cross_val_score(_tagger(), X, y, cv=3, scoring=scoring)).all()
    assert make_scorer(my_accuracy)(model, X, y) == model.score(X, y)
    assert accuracy_score(np.concatenate(y), np.concatenate(model.predict(X))) == model.score(X, y)


# -- score and evaluate agree on labels never seen in training -----------------------------------


def test_score_counts_unseen_gold_labels_as_errors(chain_data):
    X, y = chain_data
    model = _tagger().fit(X, y)
    gold = [list(labels) for labels in y[:10]]
    gold[3][0] = gold[7][-1] = "NEVER-SEEN"
    assert model.score(X[:10], gold) == token_accuracy(gold, model.predict(X[:10]))
    assert model.score(X[:10], gold) < model.score(X[:10], y[:10])
    # the development score (early stopping, history_) counts them the same way
    with_dev = _tagger(max_iter=2).fit(X[10:], y[10:], X_dev=X[:10], y_dev=gold)
    assert with_dev.history_[-1]["dev_score"] == token_accuracy(gold, with_dev.predict(X[:10]))


# -- saving --------------------------------------------------------------------------------------


def test_save_into_a_missing_folder_names_the_folder_not_a_temporary_file(chain_data, tmp_path):
    model = _tagger(max_iter=1).fit(*chain_data)
    path = tmp_path / "missing" / "model.npz"
    with pytest.raises(FileNotFoundError) as info:
        save(model, path)
    message = str(info.value)
    assert str(tmp_path / "missing") in message and "partial" not in message
    assert info.value.filename == os.fspath(path)
    assert not (tmp_path / "missing").exists()


# -- help() -------------------------------------------------------------------------------------


def test_perceptron_help_names_every_decoder_it_takes():
    doc = ClassDoc(StructuredPerceptron)
    decoder_doc = next(p for p in doc["Parameters"] if p.name == "decoder")
    described = decoder_doc.type + " " + " ".join(decoder_doc.desc)
    for cls in decoders.DECODERS.values():
        assert cls.__name__ in described, cls.__name__
    assert ChuLiuEdmonds.__name__ in skstruct.StructuredPerceptron.__doc__
