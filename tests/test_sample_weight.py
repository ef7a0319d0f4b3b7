"""Per-sequence sample weights: 0 leaves a sequence out, equal weights only rescale a
perceptron, weights multiply updates (against a pure-Python twin), and scikit-learn's
metadata routing brings them through Pipeline and GridSearchCV."""

import numpy as np
import pytest
import sklearn
import sklearn.pipeline
from sklearn.model_selection import GridSearchCV, KFold

from skstruct import (
    AROW,
    SWVP,
    BeamSearch,
    Eisner,
    ExponentiatedGradientSSVM,
    LinearChainCRF,
    ParameterMixing,
    PassiveAggressive,
    StructuredPerceptron,
    TokenFeatures,
    Viterbi,
    crfsuite,
)
from skstruct.datasets import make_chain_data
from tests import naive
from tests.test_perceptron import _as_sparse, _token_dicts

LEARNERS = [
    StructuredPerceptron(random_state=0, max_iter=3),
    StructuredPerceptron(BeamSearch(2), update="max_violation", random_state=0, max_iter=3),
    SWVP(random_state=0, max_iter=3),
    PassiveAggressive(random_state=0, max_iter=3),
    AROW(random_state=0, max_iter=3),
]


def _data(seed=0, n=40, real=True):
    """Token dicts with a word and (``real``) a real-valued feature."""
    rng = np.random.default_rng(seed)
    X = [[{"w": f"w{rng.integers(6)}", **({"v": float(rng.normal())} if real else {})}
          for _ in range(rng.integers(1, 6))] for _ in range(n)]  # fmt: skip
    y = [[["A", "B", "C"][rng.integers(3)] for _ in seq] for seq in X]
    y[0][0], y[1][0], y[2][0] = "A", "B", "C"
    return X, y


@pytest.mark.parametrize("learner", LEARNERS, ids=repr)
def test_weight_zero_is_the_sequence_left_out(learner):
    X, y = _data()
    weights = np.ones(len(X))
    weights[[5, 9, 17]] = 0.0
    keep = weights > 0
    weighted = learner.fit(X, y, sample_weight=weights)
    coef, predicted = weighted.coef_.copy(), weighted.predict(X)
    subset = learner.fit([x for x, k in zip(X, keep) if k], [s for s, k in zip(y, keep) if k])
    np.testing.assert_array_equal(coef, subset.coef_)
    assert predicted == subset.predict(X)


@pytest.mark.parametrize("learner", LEARNERS[:3], ids=repr)
def test_equal_weights_rescale_a_perceptron(learner):
    # binary features: every score is a sum of integers, exact however scaled (with real
    # values, rounding may break an exact tie of two hypotheses differently)
    X, y = _data(1, real=False)
    a = learner.fit(X, y, sample_weight=np.full(len(X), 2.5))
    dense_a, predicted = naive.dense_chain_coef(a.structure_, a.coef_), a.predict(X)
    b = learner.fit(X, y, sample_weight=np.full(len(X), 1.75))
    # compared densely: a weight averaging to 0 may round to 1e-16 at one scale, and a
    # model keeps only its nonzero pairs
    np.testing.assert_allclose(
        naive.dense_chain_coef(b.structure_, b.coef_) / 1.75, dense_a / 2.5, atol=1e-12
    )
    assert b.predict(X) == predicted


def test_equal_weights_predict_as_no_weights():
    # the weighted loop breaks exact ties of scores otherwise than the fused Viterbi
    # kernel; real-valued features leave none
    X, y = _data(1)
    learner = StructuredPerceptron(random_state=0, max_iter=3)
    plain = learner.fit(X, y).predict(X)
    assert learner.fit(X, y, sample_weight=np.full(len(X), 3.0)).predict(X) == plain
    ones = learner.fit(X, y, sample_weight=np.ones(len(X)))  # the fused path again
    assert ones.predict(X) == plain


@pytest.mark.parametrize("batch_size", [1, 3])
def test_weighted_perceptron_matches_python_twin(batch_size):
    rng = np.random.default_rng(4)
    X = [[{**t, "v": float(rng.normal())} for t in seq] for seq in _token_dicts(rng, 12, 5)]
    y = [[f"L{rng.integers(3)}" for _ in seq] for seq in X]
    y[0][0], y[1][0], y[2][0] = "L0", "L1", "L2"
    weights = rng.uniform(0.2, 3.0, size=len(X))
    est = StructuredPerceptron(max_iter=3, average=False, shuffle=False, batch_size=batch_size)
    est.fit(X, y, sample_weight=weights)
    encoded = est.encoder_.transform(X)
    model = naive.ChainModel(encoded.n_features, 3)
    labels = [[int(lab[1]) for lab in seq] for seq in y]
    w = _weighted_twin(model, _as_sparse(encoded), labels, weights, 3, batch_size)
    np.testing.assert_allclose(
        naive.dense_chain_coef(est.structure_, est.coef_), model.to_flat(w), atol=1e-12
    )


def _weighted_twin(model, sentences, labels, weights, epochs, batch_size):
    """Collins' perceptron whose update on example i is ``weights[i]`` times the usual."""
    w = {}
    for _ in range(epochs):
        order = list(range(len(sentences)))
        for lo in range(0, len(order), batch_size):
            batch = order[lo : lo + batch_size]
            predictions = [model.decode(sentences[i], w) for i in batch]
            for i, pred in zip(batch, predictions):
                if list(pred) != list(labels[i]):
                    for part, v in model.phi(sentences[i], labels[i]).items():
                        w[part] = w.get(part, 0.0) + weights[i] * v
                    for part, v in model.phi(sentences[i], pred).items():
                        w[part] = w.get(part, 0.0) - weights[i] * v
    return w


def test_mixing_shards_keep_their_weights():
    X, y = _data(2)
    weights = np.random.default_rng(0).uniform(0.5, 2.0, size=len(X))
    weights[3] = 0.0
    serial = StructuredPerceptron(max_iter=3, random_state=0)
    one = ParameterMixing(serial, n_shards=1, max_iter=3, random_state=0)
    one.fit(X, y, sample_weight=weights)
    np.testing.assert_array_equal(one.coef_, serial.fit(X, y, sample_weight=weights).coef_)
    two = ParameterMixing(serial, n_shards=2, max_iter=3, random_state=0, n_jobs=2)
    two.fit(X, y, sample_weight=weights)
    assert np.isfinite(two.coef_).all()


def test_validation_fraction_keeps_the_weights_of_the_rest():
    X, y = _data(3, n=60)
    weights = np.random.default_rng(1).uniform(0.5, 2.0, size=len(X))
    learner = StructuredPerceptron(max_iter=3, random_state=0, validation_fraction=0.2)
    fitted = learner.fit(X, y, sample_weight=weights)
    assert all(r["dev_score"] is not None for r in fitted.history_)


@pytest.mark.parametrize(
    "weights,match",
    [
        ([1.0] * 3, r"one weight per sequence \(40\), got shape \(3,\)"),
        ([1.0] * 39 + [-1.0], r"Example 39: sample_weight\[39\] is -1.0"),
        ([1.0] * 39 + [np.nan], r"Example 39: sample_weight\[39\] is nan"),
        ([0.0] * 40, "0 for every sequence"),
        (["a"] * 40, "sample_weight must be numbers"),
    ],
)
def test_bad_weights_are_refused(weights, match):
    X, y = _data()
    with pytest.raises(ValueError, match=match):
        StructuredPerceptron().fit(X, y, sample_weight=weights)


def test_metadata_routing_through_pipeline_and_grid_search():
    X, y = make_chain_data(60, random_state=0)
    weights = np.random.default_rng(0).uniform(0.5, 2.0, size=len(X))
    with sklearn.config_context(enable_metadata_routing=True):
        learner = StructuredPerceptron(features=TokenFeatures(), random_state=0, max_iter=2)
        learner.set_fit_request(sample_weight=True)
        pipe = sklearn.pipeline.make_pipeline(learner)
        pipe.fit(X, y, sample_weight=weights)
        direct = StructuredPerceptron(features=TokenFeatures(), random_state=0, max_iter=2)
        direct.fit(X, y, sample_weight=weights)
        np.testing.assert_array_equal(pipe[-1].coef_, direct.coef_)
        search = GridSearchCV(learner, {"max_iter": [1, 2]}, cv=KFold(3))
        search.fit(X, y, sample_weight=weights)
        # the refit on all the data got every weight
        best = StructuredPerceptron(features=TokenFeatures(), random_state=0,
                                    max_iter=search.best_params_["max_iter"])  # fmt: skip
        np.testing.assert_array_equal(
            search.best_estimator_.coef_, best.fit(X, y, sample_weight=weights).coef_
        )
        unasked = StructuredPerceptron(features=TokenFeatures())
        with pytest.raises(Exception, match="sample_weight"):
            sklearn.pipeline.make_pipeline(unasked).fit(X, y, sample_weight=weights)
    viterbi_unused = Viterbi()  # decoders take no part in routing
    assert not hasattr(viterbi_unused, "set_fit_request")


# -- the CRF -----------------------------------------------------------------------------


def test_crf_weight_two_is_the_sequence_twice():
    from skstruct.solvers._likelihood import ChainLikelihood

    X, y = _data(5)
    weights = np.ones(len(X))
    weights[[1, 4]] = 2.0
    twice = [*X, X[1], X[4]], [*y, y[1], y[4]]
    crf = LinearChainCRF(c2=0.1, max_iter=30).fit(*twice)  # the layout of both
    encoded, labels = crf.encode(X, y)
    encoded_twice, labels_twice = crf.encode(*twice)
    weighted = ChainLikelihood(crf.structure_, encoded, labels, 0.1, 1, weights=weights)
    duplicated = ChainLikelihood(crf.structure_, encoded_twice, labels_twice, 0.1, 1)
    coef = np.random.default_rng(0).normal(size=crf.coef_.size)
    (a, grad_a), (b, grad_b) = weighted(coef), duplicated(coef)
    assert a == pytest.approx(b, rel=1e-12)
    np.testing.assert_allclose(grad_a, grad_b, rtol=1e-10, atol=1e-12)
    fitted = LinearChainCRF(c2=0.1, max_iter=30).fit(X, y, sample_weight=weights)
    np.testing.assert_allclose(fitted.coef_, crf.coef_, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("solver", ["lbfgs", "l2sgd"])
def test_crf_weight_zero_is_the_sequence_left_out(solver):
    X, y = _data(6)
    weights = np.ones(len(X))
    weights[[0, 7]] = 0.0
    keep = weights > 0
    crf = LinearChainCRF(solver=solver, c2=0.1, max_iter=20, random_state=0)
    weighted = crf.fit(X, y, sample_weight=weights).coef_.copy()
    subset = crf.fit([x for x, k in zip(X, keep) if k], [s for s, k in zip(y, keep) if k])
    np.testing.assert_array_equal(weighted, subset.coef_)


def test_crfsuite_drop_in_passes_the_weights():
    X, y = _data(7)
    weights = np.random.default_rng(2).uniform(0.5, 2.0, size=len(X))
    for algorithm in ("lbfgs", "ap"):
        ours = crfsuite.CRF(algorithm=algorithm, max_iterations=5).fit(X, y, sample_weight=weights)
        direct = ours._learner().fit(X, y, sample_weight=weights)
        np.testing.assert_array_equal(ours.model_.coef_, direct.coef_)


# -- class weights -----------------------------------------------------------------------


def _phi_by_token(model, sentence, path, token_weights):
    """phi(x, path) with each part scaled by the weight of the token it ends at."""
    counts = {}
    for t, (token, label) in enumerate(zip(sentence, path)):
        for f, v in token:
            key = ("emission", f, label)
            counts[key] = counts.get(key, 0.0) + token_weights[t] * v
        if t:
            key = ("transition", path[t - 1], label)
            counts[key] = counts.get(key, 0.0) + token_weights[t]
    counts[("start", path[0])] = counts.get(("start", path[0]), 0.0) + token_weights[0]
    last = ("stop", path[-1])
    counts[last] = counts.get(last, 0.0) + token_weights[-1]
    return counts


@pytest.mark.parametrize("class_weight", ["balanced", {"L0": 3.0, "L2": 0.5}])
def test_class_weighted_perceptron_matches_python_twin(class_weight):
    rng = np.random.default_rng(5)
    X = [[{**t, "v": float(rng.normal())} for t in seq] for seq in _token_dicts(rng, 12, 5)]
    y = [[f"L{rng.integers(3)}" for _ in seq] for seq in X]
    y[0][0], y[1][0], y[2][0] = "L0", "L1", "L2"
    est = StructuredPerceptron(max_iter=3, average=False, shuffle=False, class_weight=class_weight)
    est.fit(X, y)
    labels = [[int(lab[1]) for lab in seq] for seq in y]
    if class_weight == "balanced":
        from sklearn.utils.class_weight import compute_class_weight

        flat = np.concatenate(labels)
        by_label = compute_class_weight("balanced", classes=np.arange(3), y=flat)
    else:
        by_label = np.array([3.0, 1.0, 0.5])
    np.testing.assert_allclose(est.class_weight_, by_label)
    encoded = est.encoder_.transform(X)
    model = naive.ChainModel(encoded.n_features, 3)
    sentences = _as_sparse(encoded)
    w = {}
    for _ in range(3):
        for i, sentence in enumerate(sentences):
            pred = model.decode(sentence, w)
            if list(pred) != labels[i]:
                token_weights = by_label[labels[i]]
                for part, v in _phi_by_token(model, sentence, labels[i], token_weights).items():
                    w[part] = w.get(part, 0.0) + v
                for part, v in _phi_by_token(model, sentence, pred, token_weights).items():
                    w[part] = w.get(part, 0.0) - v
    np.testing.assert_allclose(
        naive.dense_chain_coef(est.structure_, est.coef_), model.to_flat(w), atol=1e-12
    )


@pytest.mark.parametrize("learner", LEARNERS, ids=repr)
def test_class_weight_changes_the_model_and_ones_do_not(learner):
    X, y = _data(8)
    plain = learner.fit(X, y).predict(X)
    ones = learner.set_params(class_weight={"A": 1.0}).fit(X, y)
    assert ones.class_weight_.tolist() == [1.0, 1.0, 1.0]
    if not isinstance(learner, (PassiveAggressive, AROW, SWVP)) and learner.decoder is None:
        assert ones.predict(X) == plain  # real-valued features: no exact ties
    heavy = learner.set_params(class_weight={"A": 20.0}).fit(X, y)
    predicted = [label for seq in heavy.predict(X) for label in seq]
    before = [label for seq in plain for label in seq]
    assert predicted.count("A") >= before.count("A")
    learner.set_params(class_weight=None)


def test_bad_class_weights_are_refused():
    X, y = _data()
    with pytest.raises(ValueError, match=r"class_weight names labels the training data lacks"):
        StructuredPerceptron(class_weight={"Z": 2.0}).fit(X, y)
    with pytest.raises(ValueError, match=r"class_weight\['A'\] is -1"):
        StructuredPerceptron(class_weight={"A": -1}).fit(X, y)
    with pytest.raises(ValueError, match="does not apply to parsing"):
        StructuredPerceptron(Eisner(), class_weight="balanced").fit(
            [[{"form": "a", "upos": "X"}, {"form": "b", "upos": "Y"}]], [[0, 1]]
        )


# -- the EG structured SVM -----------------------------------------------------------------


def test_eg_weight_two_is_the_example_twice():
    from skstruct.solvers import objectives

    X, y = _data(9, n=20)
    weights = np.ones(len(X))
    weights[[2, 5]] = 2.0
    twice = [*X, X[2], X[5]], [*y, y[2], y[5]]
    eg = ExponentiatedGradientSSVM(C=0.5, max_iter=2, random_state=0).fit(*twice)
    encoded, gold = eg.encode(X, y)
    encoded_twice, gold_twice = eg.encode(*twice)
    weighted, duplicated = eg._dual(encoded, gold, weights), eg._dual(encoded_twice, gold_twice)
    np.testing.assert_allclose(weighted.coef(), duplicated.coef(), atol=1e-12)
    coef = np.random.default_rng(0).normal(size=eg.coef_.size)
    assert objectives(weighted, coef)["primal"] == pytest.approx(
        objectives(duplicated, coef)["primal"], rel=1e-12
    )
    fitted = ExponentiatedGradientSSVM(C=0.5, max_iter=5, random_state=0)
    gaps = [r["gap"] for r in fitted.fit(X, y, sample_weight=weights).history_]
    assert gaps[-1] < gaps[0]


@pytest.mark.parametrize("parser", [False, True])
def test_eg_weight_zero_is_the_example_left_out(parser):
    if parser:
        rng = np.random.default_rng(0)
        X = [[{"form": f"w{rng.integers(5)}", "upos": f"P{rng.integers(3)}"} for _ in range(4)]
             for _ in range(12)]  # fmt: skip
        y = [[0, 1, 1, 3]] * 6 + [[2, 0, 2, 2]] * 6
        learner = ExponentiatedGradientSSVM(Eisner(), max_iter=3, random_state=0)
    else:
        X, y = _data(10, n=20)
        learner = ExponentiatedGradientSSVM(max_iter=3, random_state=0)
    weights = np.ones(len(X))
    weights[[1, 3]] = 0.0
    keep = weights > 0
    weighted = learner.fit(X, y, sample_weight=weights).coef_.copy()
    subset = learner.fit([x for x, k in zip(X, keep) if k], [s for s, k in zip(y, keep) if k])
    np.testing.assert_array_equal(weighted, subset.coef_)
