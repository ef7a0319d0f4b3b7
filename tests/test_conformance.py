"""Conformance beyond tests/test_contract.py: ParameterMixing joins the learners, the
transformers get the same contract, scikit-learn's own ``check_*`` functions run where
they accept list input, and results do not depend on ``n_jobs``."""

import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import (
    check_get_params_invariance,
    check_no_attributes_set_in_init,
    check_parameters_default_constructible,
    check_set_params,
)

from skstruct import (
    ArcFeatures,
    CorpusTags,
    Eisner,
    NBestReranker,
    ParameterMixing,
    PredictedFeats,
    PredictedLemmas,
    PredictedRelations,
    PredictedTags,
    PredictedTrees,
    StructuredPerceptron,
    TokenFeatures,
    UDPipeline,
    WordClusters,
)
from skstruct.features import DependencyTreeFeatures, TokenDictEncoder
from skstruct.metrics import sequence_accuracy_scorer, token_accuracy_scorer
from tests.test_contract import _CHAIN_DATA, _TREE_DATA, ALL, _parses
from tests.test_corpus_tags import tagged as tagged_corpus

MIXERS = [
    ParameterMixing(
        StructuredPerceptron(features=TokenFeatures(), random_state=0),
        n_shards=2, max_iter=3, n_jobs=1, random_state=0,
    ),
    ParameterMixing(
        StructuredPerceptron(decoder=Eisner(), random_state=0),
        n_shards=2, iterative=False, max_iter=2, n_jobs=1, random_state=0,
    ),
]  # fmt: skip
ESTIMATORS = ALL + MIXERS
TRANSFORMERS = [
    TokenFeatures(),
    ArcFeatures(n_features=2**10),
    TokenDictEncoder(),
    PredictedTags(StructuredPerceptron(features=TokenFeatures(), max_iter=2, random_state=0)),
    PredictedLemmas(columns=(), max_iter=2, random_state=0),
    PredictedFeats(columns=(), max_iter=2, random_state=0),
    PredictedRelations(columns=("xpos",), max_iter=2, random_state=0),
    PredictedTrees(order=1, fields=(), max_iter=2, random_state=0),
    UDPipeline(max_iter=1, random_state=0),
    WordClusters(n_clusters=2, n_components=2, min_count=1, random_state=0),
    CorpusTags(tagged_corpus, guide=True, max_iter=2, random_state=0),
]
RERANKERS = [
    NBestReranker(StructuredPerceptron(decoder=Eisner(), max_iter=2), DependencyTreeFeatures()),
]


def _decoder(estimator):
    inner = getattr(estimator, "estimator", estimator)  # a mixer's learner
    return getattr(inner, "decoder", None)


def _data(learner):
    return _TREE_DATA if _parses(_decoder(learner)) else _CHAIN_DATA


def _ids(estimator):
    name = type(estimator).__name__
    if not hasattr(estimator, "max_iter"):  # a transformer
        return name
    return f"{name}-{type(_decoder(estimator)).__name__}"


@pytest.mark.parametrize("estimator", ESTIMATORS + TRANSFORMERS + RERANKERS, ids=_ids)
@pytest.mark.parametrize(
    "check",
    [
        check_no_attributes_set_in_init,
        check_get_params_invariance,
        check_set_params,
        check_parameters_default_constructible,
    ],
    ids=lambda check: check.__name__,
)
def test_scikit_learn_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_set_params warns on a failed round trip
        check(type(estimator).__name__, clone(estimator))


@pytest.mark.parametrize("mixer", MIXERS, ids=_ids)
def test_mixing_contract(mixer):
    X, y = _data(mixer)
    model = clone(mixer)
    with pytest.raises(NotFittedError):
        model.predict(X)
    before = pickle.dumps(model.get_params(deep=True))
    assert model.fit(X, y) is model
    assert pickle.dumps(model.get_params(deep=True)) == before
    loaded = pickle.loads(pickle.dumps(model))
    assert loaded.predict(X) == model.predict(X)
    np.testing.assert_array_equal(loaded.coef_, model.coef_)
    again = clone(mixer).fit(X, y)
    np.testing.assert_array_equal(again.coef_, model.coef_)
    other = clone(mixer).set_params(random_state=5).fit(X, y)
    assert not np.array_equal(other.coef_, model.coef_)  # the seed draws the shards
    scores = cross_val_score(clone(mixer), X, y, cv=5)
    assert scores.shape == (5,) and np.all(scores > 0.5)


@pytest.mark.parametrize("mixer", MIXERS, ids=_ids)
def test_results_do_not_depend_on_n_jobs(mixer):
    X, y = _data(mixer)
    serial = clone(mixer).set_params(n_jobs=1).fit(X, y)
    parallel = clone(mixer).set_params(n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(serial.coef_, parallel.coef_)
    assert serial.predict(X) == parallel.predict(X)


def test_mixing_in_pipeline_and_grid_search():
    X, y = _CHAIN_DATA
    learner = StructuredPerceptron(random_state=0)
    pipe = make_pipeline(TokenFeatures(), ParameterMixing(learner, n_shards=2, n_jobs=1))
    assert pipe.fit(X, y).score(X, y) > 0.8
    search = GridSearchCV(
        ParameterMixing(clone(learner).set_params(features=TokenFeatures()), n_jobs=1),
        {"n_shards": [2, 3], "iterative": [True, False]},
        cv=3,
        scoring=token_accuracy_scorer,
    ).fit(X, y)
    assert len(search.cv_results_["params"]) == 4
    results = cross_validate(
        search.best_estimator_, X, y, cv=KFold(3),
        scoring={"token": token_accuracy_scorer, "sequence": sequence_accuracy_scorer},
    )  # fmt: skip
    assert np.all(results["test_token"] >= results["test_sequence"])


def _transformer_data(transformer):
    trees = isinstance(
        transformer,
        ArcFeatures
        | PredictedTags
        | PredictedFeats
        | PredictedRelations
        | WordClusters
        | CorpusTags,
    )
    X, _ = _TREE_DATA if trees else _CHAIN_DATA
    if isinstance(transformer, TokenDictEncoder):
        return TokenFeatures().fit_transform(X)
    if isinstance(transformer, PredictedLemmas):  # lemmas to learn: the forms, lower-cased
        return [[{**t, "lemma": t["form"].lower()} for t in s] for s in _TREE_DATA[0]]
    if isinstance(transformer, PredictedRelations | PredictedTrees | UDPipeline):
        # parsed: heads, relations to learn, and for the pipeline all it predicts
        return [
            [
                {
                    **t,
                    "upos": t["xpos"],
                    "lemma": t["form"],
                    "feats": None,
                    "head": h,
                    "deprel": "root" if h == 0 else t["xpos"],
                }
                for t, h in zip(s, hs)
            ]
            for s, hs in zip(*_TREE_DATA)
        ]
    return X


def _same(a, b):
    """Transform outputs compared exactly: lists of dicts, or EncodedSequences."""
    if isinstance(a, list):
        return a == b
    return all(np.array_equal(x, y) for x, y in zip(a, b))


@pytest.mark.parametrize("transformer", TRANSFORMERS, ids=_ids)
def test_transformer_contract(transformer):
    X = _transformer_data(transformer)
    twin = clone(transformer)
    assert repr(twin) == repr(transformer)
    assert set(vars(type(transformer)())) == set(transformer.get_params(deep=False))
    before = pickle.dumps(twin.get_params())
    assert twin.fit(X) is twin
    assert pickle.dumps(twin.get_params()) == before
    out = twin.transform(X)
    assert _same(pickle.loads(pickle.dumps(twin)).transform(X), out)
    assert _same(clone(transformer).fit(X).transform(X), out)  # deterministic


@pytest.mark.parametrize("transformer", TRANSFORMERS[1:], ids=_ids)
def test_stateful_transformers_refuse_transform_before_fit(transformer):
    with pytest.raises(NotFittedError):
        clone(transformer).transform(_transformer_data(transformer))
