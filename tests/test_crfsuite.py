"""skstruct.crfsuite against sklearn-crfsuite itself: every argument, attribute, method,
metric and scorer; the same model as CRFsuite's for lbfgs; marginals against
enumeration."""

import inspect
import pickle

import numpy as np
import pytest
import sklearn_crfsuite
from scipy.special import logsumexp
from sklearn_crfsuite import metrics as their_metrics
from sklearn_crfsuite import scorers as their_scorers

from skstruct import ExponentiatedGradientSSVM, StructuredPerceptron, crfsuite, load, save
from skstruct.crfsuite import metrics, scorers
from skstruct.datasets import fetch_conll2002
from skstruct.features import crfsuite_tutorial_features
from skstruct.learners import StructuredWeightedViolationsPerceptron
from skstruct.learners.crf import LinearChainCRF
from tests.naive import all_paths

#: What sklearn-crfsuite has that a CRF trained without CRFsuite cannot: its model-file
#: resource and its trainer factory.
CRFSUITE_ONLY = {"modelfile", "trainer_cls"}


@pytest.fixture(scope="module")
def ner(corpus):
    """The first 400 sentences of CoNLL-2002 Spanish and 150 of its test set, with the
    tutorial's features."""
    home = corpus("conll2002-es").parent
    train = fetch_conll2002("es", "train", data_home=home, download_if_missing=False)
    test = fetch_conll2002("es", "testb", data_home=home, download_if_missing=False)
    X = crfsuite_tutorial_features(train.data[:400])
    X_test = crfsuite_tutorial_features(test.data[:150])
    return X, train.target[:400], X_test, test.target[:150]


def _tiny():
    X = [[{"w": "John", "cap": True}, {"w": "runs"}], [{"w": "Mary"}, {"w": "sleeps"}]] * 5
    y = [["B-PER", "O"], ["B-PER", "O"]] * 5
    return X, y


def test_every_sklearn_crfsuite_argument_with_its_default():
    theirs = inspect.signature(sklearn_crfsuite.CRF.__init__).parameters
    ours = inspect.signature(crfsuite.CRF.__init__).parameters
    assert set(theirs) <= set(ours)
    for name, parameter in theirs.items():
        assert ours[name].default == parameter.default, name
    assert set(crfsuite.CRF().get_params()) >= set(sklearn_crfsuite.CRF().get_params())


def test_every_public_attribute_and_method(ner):
    X, y, _, _ = ner
    theirs = sklearn_crfsuite.CRF(max_iterations=5).fit(X[:50], y[:50])
    ours = crfsuite.CRF(max_iterations=5).fit(X[:50], y[:50])
    public = {name for name in dir(theirs) if not name.startswith("_")}
    missing = {name for name in public - CRFSUITE_ONLY if not hasattr(ours, name)}
    assert not missing
    assert type(ours.classes_) is list and ours.classes_ == sorted(theirs.classes_)
    assert ours.attributes_ and all(isinstance(a, str) for a in ours.attributes_)
    assert set(ours.attributes_) == set(theirs.attributes_)  # python-crfsuite's names
    assert ours.num_attributes_ == theirs.num_attributes_
    assert isinstance(ours.size_, int) and ours.size_ > 0
    assert len(ours.training_log_.iterations) == 5
    assert set(theirs.training_log_.last_iteration) - {"scores"} <= set(
        ours.training_log_.last_iteration
    )
    # python-crfsuite's Tagger calls, answered from our model (tests/test_crfsuite_users.py)
    assert sorted(ours.tagger_.labels()) == sorted(theirs.tagger_.labels())
    assert ours.tagger_.tag(X[0]) == ours.predict_single(X[0])
    assert set(ours.tagger_.info().transitions) <= {
        (a, b) for a in ours.classes_ for b in ours.classes_
    }
    assert set(dir(theirs.tagger_.info())) >= {"labels", "attributes", "transitions",
                                               "state_features", "header"}  # fmt: skip


def test_attributes_are_none_before_fit_as_theirs():
    for name in ["classes_", "state_features_", "transition_features_", "attributes_",
                 "num_attributes_", "size_", "training_log_", "tagger_"]:  # fmt: skip
        assert getattr(sklearn_crfsuite.CRF(), name) is None
        assert getattr(crfsuite.CRF(), name) is None


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"all_possible_transitions": True},
        {"all_possible_states": True},
        {"min_freq": 3},
    ],
)
def test_lbfgs_is_crfsuites_model(ner, settings):
    """The same features (counted as CRFsuite generates them) and the same objective:
    both reach the same loss, to 0.2%.

    Features valued 0 (``False``) are left out of the data: CRFsuite gives a weight to a
    (attribute, label) pair seen only with value 0, skstruct's encoder drops zeros (a
    documented difference)."""
    X, y, _, _ = ner
    X = [[{k: v for k, v in token.items() if v is not False} for token in s] for s in X[:150]]
    y = y[:150]
    args = dict(algorithm="lbfgs", c1=0.0, c2=1.0, max_iterations=200, **settings)
    theirs = sklearn_crfsuite.CRF(**args).fit(X, y)
    ours = crfsuite.CRF(**args).fit(X, y)
    assert len(ours.state_features_) == len(theirs.state_features_)
    assert len(ours.transition_features_) == len(theirs.transition_features_)
    their_loss = theirs.training_log_.last_iteration["loss"]
    our_loss = ours.training_log_.last_iteration["loss"]
    assert our_loss == pytest.approx(their_loss, rel=2e-3)


def test_lbfgs_with_l1_matches_crfsuite(ner):
    X, y, X_test, y_test = ner
    args = dict(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=100)
    theirs = sklearn_crfsuite.CRF(**args).fit(X, y)
    ours = crfsuite.CRF(**args, n_jobs=2).fit(X, y)
    their_loss = theirs.training_log_.last_iteration["loss"]
    assert ours.training_log_.last_iteration["loss"] == pytest.approx(their_loss, rel=2e-2)
    # L1 zeroes most weights, as in CRFsuite
    assert len(ours.state_features_) < 0.6 * ours.model_.structure_.rows.nnz
    f1 = metrics.flat_f1_score(y_test, ours.predict(X_test), average="weighted")
    their_f1 = metrics.flat_f1_score(y_test, theirs.predict(X_test), average="weighted")
    assert f1 > their_f1 - 0.02


@pytest.mark.parametrize("algorithm", ["lbfgs", "l2sgd", "ap", "pa", "arow"])
def test_every_algorithm_learns_and_round_trips(ner, tmp_path, algorithm):
    X, y, X_test, y_test = ner
    crf = crfsuite.CRF(algorithm=algorithm, max_iterations=20).fit(X, y)
    y_pred = crf.predict(X_test)
    assert isinstance(y_pred, np.ndarray) and y_pred.dtype == object and y_pred.ndim == 1
    assert crf.score(X_test, y_test) > 0.9
    assert crf.predict_single(X_test[0]) == list(y_pred[0])
    again = pickle.loads(pickle.dumps(crf))
    assert list(map(list, again.predict(X_test))) == list(map(list, y_pred))
    save(crf, tmp_path / "model.skstruct")
    loaded = load(tmp_path / "model.skstruct")
    assert loaded.state_features_ == crf.state_features_
    assert loaded.transition_features_ == crf.transition_features_


def test_l2sgd_reaches_crfsuites_objective(ner):
    """SGD with CRFsuite's calibration and stopping rule: about the objective L-BFGS
    reaches, and CRFsuite's l2sgd's, on the same data."""
    X, y, _, _ = ner
    X = [[{k: v for k, v in token.items() if v is not False} for token in s] for s in X[:200]]
    y = y[:200]
    args = dict(algorithm="l2sgd", c2=1.0, max_iterations=60)
    theirs = sklearn_crfsuite.CRF(**args).fit(X, y)
    ours = crfsuite.CRF(**args).fit(X, y)
    optimum = crfsuite.CRF(algorithm="lbfgs", c2=1.0, max_iterations=300).fit(X, y)
    best = optimum.training_log_.last_iteration["loss"]
    their_loss = min(i["loss"] for i in theirs.training_log_.iterations)
    our_loss = min(i["loss"] for i in ours.training_log_.iterations)
    assert best <= our_loss < 1.05 * best
    assert our_loss == pytest.approx(their_loss, rel=0.03)
    assert ours.model_.t0_ > 0


def test_model_filename_saves_and_loads_as_sklearn_crfsuite(ner, tmp_path):
    X, y, X_test, _ = ner
    path = str(tmp_path / "ner.model")
    crf = crfsuite.CRF(max_iterations=10, model_filename=path).fit(X, y)
    fresh = crfsuite.CRF(model_filename=path)
    assert list(map(list, fresh.predict(X_test))) == list(map(list, crf.predict(X_test)))
    assert fresh.classes_ == crf.classes_


def test_arguments_of_another_algorithm_are_refused():
    X, y = _tiny()
    with pytest.raises(ValueError, match=r"c1=0.1 does not apply to algorithm='ap'"):
        crfsuite.CRF(algorithm="ap", c1=0.1).fit(X, y)
    with pytest.raises(ValueError, match="pa_type"):
        crfsuite.CRF(algorithm="pa", pa_type=3).fit(X, y)
    with pytest.raises(ValueError, match="Pass both X_dev and y_dev"):
        crfsuite.CRF().fit(X, y, X_dev=X)
    with pytest.raises(ValueError, match=r"c1=0\.1 does not apply to algorithm='l2sgd'"):
        crfsuite.CRF(algorithm="l2sgd", c1=0.1).fit(X, y)


def test_marginals_sum_to_one_and_equal_enumeration():
    X, y = _tiny()
    X = [*X, [{"w": "Ann"}, {"w": "runs"}, {"w": "John"}], [{"w": "x", "cap": True}]]
    y = [*y, ["B-PER", "O", "B-LOC"], ["B-LOC"]]
    for learner in [LinearChainCRF(c2=0.1), StructuredPerceptron(max_iter=3, random_state=0)]:
        model = learner.fit(X, y)
        marginals = model.predict_marginals(X)
        _, transition, start, stop, _ = model.structure_.split(model.coef_)
        for i, sequence in enumerate(marginals):
            encoded = model.encode(X[i : i + 1])
            unary = model.structure_.scores(encoded, 0, model.coef_).unary
            n, L = unary.shape
            paths = list(all_paths(n, L))
            scores = np.array([
                start[p[0]] + stop[p[-1]] + sum(unary[t, p[t]] for t in range(n))
                + sum(transition[p[t - 1], p[t]] for t in range(1, n))
                for p in paths
            ])  # fmt: skip
            probabilities = np.exp(scores - logsumexp(scores))
            for t, token in enumerate(sequence):
                assert sum(token.values()) == pytest.approx(1.0, abs=1e-9)
                for k, label in enumerate(model.classes_):
                    want = sum(q for p, q in zip(paths, probabilities) if p[t] == k)
                    assert token[label] == pytest.approx(want, abs=1e-9)


def test_our_chain_learners_have_the_same_attributes(ner):
    X, y, X_test, _ = ner
    X, y = X[:60], y[:60]
    learners = [
        StructuredPerceptron(max_iter=2, random_state=0),
        StructuredWeightedViolationsPerceptron(max_iter=2, random_state=0),
        ExponentiatedGradientSSVM(max_iter=2, random_state=0),
        LinearChainCRF(max_iter=5),
    ]
    for learner in learners:
        model = learner.fit(X, y)
        assert model.state_features_ and model.transition_features_
        assert len(model.attributes_) == model.num_attributes_
        assert model.size_ > 0 and model.training_log_.iterations
        token = model.predict_marginals_single(X_test[0])[0]
        assert sum(token.values()) == pytest.approx(1.0, abs=1e-9)
        assert model.predict_single(X_test[0]) == model.predict(X_test[:1])[0]


def _label_sequences(seed, n=30):
    rng = np.random.default_rng(seed)
    labels = ["O", "B-PER", "I-PER", "B-LOC"]
    y_true = [list(rng.choice(labels, size=rng.integers(1, 6))) for _ in range(n)]
    y_pred = [[t if rng.random() < 0.7 else rng.choice(labels) for t in s] for s in y_true]
    return y_true, y_pred


@pytest.mark.parametrize("seed", [0, 1])
def test_metrics_equal_sklearn_crfsuites(seed):
    y_true, y_pred = _label_sequences(seed)
    labels = ["B-PER", "I-PER", "B-LOC"]
    for name, kwargs in [
        ("flat_accuracy_score", {}),
        ("flat_precision_score", {"average": "macro", "labels": labels}),
        ("flat_recall_score", {"average": "micro"}),
        ("flat_f1_score", {"average": "weighted", "labels": labels}),
        ("flat_fbeta_score", {"beta": 0.5, "average": "macro"}),
        ("flat_classification_report", {"labels": labels, "digits": 3}),
        ("sequence_accuracy_score", {}),
    ]:
        ours = getattr(metrics, name)(y_true, y_pred, **kwargs)
        theirs = getattr(their_metrics, name)(y_true, y_pred, **kwargs)
        assert ours == theirs, name
    assert set(metrics.__all__) == {
        n for n in dir(their_metrics) if n.startswith(("flat_", "sequence_"))
    }


def test_scorers_equal_sklearn_crfsuites(ner):
    X, y, X_test, y_test = ner
    model = crfsuite.CRF(algorithm="ap", max_iterations=3).fit(X[:100], y[:100])
    for name in ["flat_accuracy", "sequence_accuracy"]:
        ours = getattr(scorers, name)(model, X_test, y_test)
        theirs = getattr(their_scorers, name)(model, X_test, y_test)
        assert ours == theirs


CONTRACT = [
    LinearChainCRF(c1=0.05, c2=0.1, max_iter=20),
    crfsuite.CRF(algorithm="lbfgs", c1=0.05, max_iterations=20),
    crfsuite.CRF(algorithm="ap", max_iterations=3),
]


@pytest.fixture(scope="module")
def chain_data():
    from skstruct import TokenFeatures
    from skstruct.datasets import make_chain_data

    X, y = make_chain_data(60, random_state=0)
    return TokenFeatures().fit_transform(X), y


@pytest.mark.parametrize("learner", CONTRACT, ids=repr)
def test_scikit_learn_contract(learner, chain_data):
    from sklearn.base import clone
    from sklearn.exceptions import NotFittedError
    from sklearn.model_selection import GridSearchCV, cross_val_score

    X, y = chain_data
    fresh = type(learner)()
    assert set(vars(fresh)) == set(fresh.get_params(deep=False))  # no logic in __init__
    twin = clone(learner)
    assert repr(twin) == repr(learner)
    with pytest.raises(NotFittedError):
        twin.predict(X)
    before = pickle.dumps(twin.get_params())
    assert twin.fit(X, y) is twin
    assert pickle.dumps(twin.get_params()) == before
    again = pickle.loads(pickle.dumps(twin))
    assert list(map(list, again.predict(X))) == list(map(list, twin.predict(X)))
    assert cross_val_score(clone(learner), X, y, cv=3).min() > 0.8
    ap = learner.get_params().get("algorithm") == "ap"
    grid = {"max_iterations": [1, 2]} if ap else {"c2": [0.1, 1.0]}
    search = GridSearchCV(clone(learner), grid, cv=3, scoring=scorers.flat_accuracy).fit(X, y)
    assert len(search.cv_results_["params"]) == 2


@pytest.mark.parametrize(
    ("learner", "params"),
    [
        (LinearChainCRF(), {"c1": -1.0}),
        (LinearChainCRF(), {"linesearch": "Armijo"}),
        (LinearChainCRF(), {"max_iter": 0}),
        (crfsuite.CRF(), {"algorithm": "sgd"}),
        (crfsuite.CRF(), {"c2": -0.1}),
        (crfsuite.CRF(), {"num_memories": 0}),
    ],
    ids=str,
)
def test_bad_parameters_are_refused(learner, params, chain_data):
    from sklearn.utils._param_validation import InvalidParameterError

    with pytest.raises(InvalidParameterError):
        learner.set_params(**params).fit(*chain_data)
