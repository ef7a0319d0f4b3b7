"""The scikit-learn estimator contract, for every public learner."""

import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.utils._param_validation import InvalidParameterError

from skstruct import (
    AROW,
    SWVP,
    ArcEager,
    ArcStandard,
    BeamSearch,
    ChuLiuEdmonds,
    Eisner,
    ExponentiatedGradientSSVM,
    ParameterMixing,
    PassiveAggressive,
    StructuredPerceptron,
    StructuredSVM,
    TokenFeatures,
    Viterbi,
)
from skstruct.datasets import make_chain_data
from skstruct.metrics import sequence_accuracy_scorer, token_accuracy_scorer

LEARNERS = [
    StructuredPerceptron(features=TokenFeatures(), max_iter=3, random_state=0),
    StructuredPerceptron(
        BeamSearch(beam_size=2, order=2),
        update="max_violation",
        features=TokenFeatures(),
        max_iter=3,
        random_state=0,
    ),
    SWVP(
        gamma="wmr", mode="balanced", beta=2.0, features=TokenFeatures(), max_iter=3, random_state=0
    ),
    PassiveAggressive(pa_type=2, features=TokenFeatures(), max_iter=3, random_state=0),
    AROW(features=TokenFeatures(), max_iter=3, random_state=0),
]
PARSERS = [
    StructuredPerceptron(decoder=Eisner(), max_iter=3, random_state=0),
    StructuredPerceptron(decoder=Eisner(order=2), max_iter=3, random_state=0),
    StructuredPerceptron(decoder=ChuLiuEdmonds(), max_iter=3, random_state=0),
    StructuredPerceptron(ArcStandard(beam_size=2), update="early", max_iter=3, random_state=0),
    StructuredPerceptron(ArcEager(beam_size=2), update="max_violation", max_iter=3, random_state=0),
    SWVP(decoder=Eisner(), max_iter=3, random_state=0),
]
EG = [
    ExponentiatedGradientSSVM(features=TokenFeatures(), max_iter=3, tol=None, random_state=0),
    ExponentiatedGradientSSVM(decoder=Eisner(), max_iter=3, tol=None, random_state=0),
    ExponentiatedGradientSSVM(
        decoder=ChuLiuEdmonds(), online=False, max_iter=3, tol=None, random_state=0
    ),
    StructuredSVM(features=TokenFeatures(), max_iter=3, tol=None, random_state=0),
    StructuredSVM(decoder=Eisner(order=2), max_iter=3, random_state=0),
]
ALL = LEARNERS + PARSERS + EG
BAD_PARAMS = [
    {"max_iter": 0},
    {"decoder": "viterbi"},
    {"decoder": Viterbi(order=3)},
    {"n_features": 0},
    {"validation_fraction": 1.5},
    {"n_iter_no_change": 0},
    {"average": "yes"},
    {"features": "TokenFeatures"},
    {"update": "max-violation"},
    {"substructures": "pairs"},
    {"gamma": "margin"},
    {"mode": "passive"},
    {"beta": -1.0},
    {"decoder": BeamSearch(beam_size=0)},
    {"decoder": BeamSearch(order=0)},
    {"decoder": Eisner(order=3)},
    {"decoder": ArcStandard(beam_size=0)},
    {"C": 0.0},
    {"learning_rate": -1.0},
    {"loss": "zero-one"},
    {"tol": -1e-3},
    {"online": "yes"},
    {"pa_type": 3},
    {"c": 0.0},
    {"averaging": "yes"},
    {"epsilon": -1.0},
    {"variance": 0.0},
    {"gamma": -1.0},
]


def _parses(decoder):
    """Whether ``decoder`` (None: Viterbi) predicts trees."""
    return decoder is not None and decoder.capabilities.task.name == "heads"


_CHAIN_DATA = make_chain_data(60, n_labels=3, n_words=20, random_state=0)


_WORDS = {"DT": ["the", "a"], "JJ": ["big", "red", "old"], "NN": ["dog", "cat", "man"],
          "VB": ["saw", "ate"], "IN": ["with", "near"]}  # fmt: skip


def _noun_phrase(tags, heads, head, rng):
    """Append "DT JJ* NN", the noun headed by ``head``; returns the noun's position."""
    adjectives = int(rng.integers(0, 3))
    tags.extend(["DT"] + ["JJ"] * adjectives + ["NN"])
    noun = len(tags)  # 1-based position of the noun
    heads.extend([noun] * (adjectives + 1) + [head])
    return noun


def _tree_data(n=60, seed=0):
    """Sentences "DT JJ* NN VB [DT JJ* NN] [IN DT NN]" with their (learnable) trees."""
    rng = np.random.default_rng(seed)
    X, y = [], []
    for _ in range(n):
        tags, heads = [], []
        subject = _noun_phrase(tags, heads, None, rng)
        tags.append("VB")
        verb = len(tags)
        heads.append(0)
        heads[subject - 1] = verb
        if rng.random() < 0.7:
            _noun_phrase(tags, heads, verb, rng)
        if rng.random() < 0.5:
            tags.append("IN")
            heads.append(verb)
            _noun_phrase(tags, heads, len(tags), rng)
        X.append([{"form": str(rng.choice(_WORDS[t])), "xpos": t} for t in tags])
        y.append(heads)
    return X, y


_TREE_DATA = _tree_data()


def _data(learner):
    parses = _parses(learner.decoder)
    return _TREE_DATA if parses else _CHAIN_DATA


@pytest.fixture
def data(request):
    """The data set for the test's learner: sequences, or trees for a parser."""
    return _data(request.node.callspec.params["learner"])


def _ids(learner):
    return f"{type(learner).__name__}-{type(learner.decoder).__name__}"


@pytest.mark.parametrize("learner", ALL, ids=_ids)
def test_clone_and_params_round_trip(learner):
    params = learner.get_params()
    twin = clone(learner)
    assert repr(twin) == repr(learner)
    assert twin.set_params(**params).get_params().keys() == params.keys()
    twin.set_params(max_iter=7)
    assert twin.max_iter == 7 and learner.max_iter == 3


@pytest.mark.parametrize("learner", ALL, ids=_ids)
def test_init_sets_only_parameters(learner):
    fresh = type(learner)()
    assert set(vars(fresh)) == set(fresh.get_params(deep=False))


@pytest.mark.parametrize("learner", ALL, ids=_ids)
def test_fit_returns_self_and_does_not_mutate_params(learner, data):
    learner = clone(learner)
    before = pickle.dumps(learner.get_params(deep=True))
    assert learner.fit(*data) is learner
    assert pickle.dumps(learner.get_params(deep=True)) == before
    fitted = [name for name in vars(learner) if name.endswith("_") and not name.startswith("_")]
    assert {"coef_", "n_iter_", "history_"} <= set(fitted)
    assert "classes_" in fitted or _parses(learner.decoder)


@pytest.mark.parametrize("learner", ALL, ids=_ids)
def test_predict_before_fit_raises_not_fitted(learner, data):
    with pytest.raises(NotFittedError):
        clone(learner).predict(data[0])
    with pytest.raises(NotFittedError):
        clone(learner).score(*data)


@pytest.mark.parametrize(
    ("learner", "params"),
    [
        (learner, params)
        for learner in ALL
        for params in BAD_PARAMS
        if set(params) <= set(learner.get_params())
    ],
    ids=str,
)
def test_bad_params_raise_invalid_parameter_error(learner, params, data):
    with pytest.raises(InvalidParameterError):
        clone(learner).set_params(**params).fit(*data)


@pytest.mark.parametrize("learner", ALL, ids=_ids)
def test_pickle_round_trip_predicts_the_same(learner, data):
    fitted = clone(learner).fit(*data)
    loaded = pickle.loads(pickle.dumps(fitted))
    assert loaded.predict(data[0]) == fitted.predict(data[0])
    np.testing.assert_array_equal(loaded.coef_, fitted.coef_)


@pytest.mark.parametrize("learner", ALL, ids=_ids)
def test_random_state_makes_fit_reproducible(learner, data):
    first = clone(learner).set_params(random_state=3).fit(*data).coef_
    second = clone(learner).set_params(random_state=3).fit(*data).coef_
    other = clone(learner).set_params(random_state=4).fit(*data).coef_
    np.testing.assert_array_equal(first, second)
    if learner.get_params().get("online", True):  # batch EG visits no order
        assert not np.array_equal(first, other)  # the seed does drive the visiting order


@pytest.mark.parametrize("learner", LEARNERS, ids=_ids)
def test_works_in_pipeline_gridsearch_and_cross_validation(learner, data):
    X, y = data
    pipe = make_pipeline(TokenFeatures(), clone(learner).set_params(features=None))
    assert pipe.fit(X, y).score(X, y) > 0.8
    search = GridSearchCV(
        clone(learner),
        {"max_iter": [1, 3], "decoder": [Viterbi()], "decoder__order": [0, 1]},
        cv=3,
        scoring=token_accuracy_scorer,
    ).fit(X, y)
    assert set(search.best_params_) == {"max_iter", "decoder", "decoder__order"}
    assert len(search.cv_results_["params"]) == 4
    _check_cross_validation(learner, X, y)


def _check_cross_validation(learner, X, y):
    """cross_val_score with the default score, cross_validate with several scorers."""
    scores = cross_val_score(clone(learner), X, y, cv=5)
    assert scores.shape == (5,) and np.all((scores > 0.5) & (scores <= 1.0))
    results = cross_validate(
        clone(learner),
        X,
        y,
        cv=KFold(3),
        scoring={"token": token_accuracy_scorer, "sequence": sequence_accuracy_scorer},
    )
    assert np.all(results["test_token"] >= results["test_sequence"])


@pytest.mark.parametrize("learner", PARSERS, ids=_ids)
def test_parsers_work_in_gridsearch_cross_validation_and_mixing(learner):
    X, y = _TREE_DATA
    assert clone(learner).fit(X, y).score(X, y) > 0.9  # the toy grammar is learnable
    grid = {"max_iter": [1, 3]}
    if "decoder__beam_size" in learner.get_params():
        grid["decoder__beam_size"] = [1, 2]
    search = GridSearchCV(clone(learner), grid, cv=3).fit(X, y)
    assert len(search.cv_results_["params"]) == 2 ** len(grid)
    _check_cross_validation(learner, X, y)
    mixed = ParameterMixing(clone(learner), n_shards=3, max_iter=2, random_state=0).fit(X, y)
    assert mixed.score(X, y) > 0.5
