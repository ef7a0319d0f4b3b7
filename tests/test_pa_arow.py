"""Passive-aggressive and AROW training of linear chains, checked against slow twins of
CRFsuite's ``train_passive_aggressive.c`` and ``train_arow.c`` written out below."""

import io
import itertools
import math
from collections import defaultdict

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV
from sklearn.utils._param_validation import InvalidParameterError

from skstruct import (
    AROW,
    BeamSearch,
    Eisner,
    ParameterMixing,
    PassiveAggressive,
    StructuredPerceptron,
    TokenFeatures,
    Viterbi,
    load,
    save,
)
from skstruct.datasets import make_chain_data
from skstruct.features import TokenDictEncoder
from skstruct.metrics import token_accuracy_scorer
from skstruct.structures import LinearChain
from skstruct.updates import DecodedOutput, Example, PassiveAggressiveUpdate

# -- the twins: dict weights, brute-force argmax, CRFsuite's formulas -----------------------


def _phi(sentence, labels, order):
    """Feature counts of (sentence, labels) as {part: value}; tokens are {feature: value}."""
    parts = defaultdict(float)
    for token, label in zip(sentence, labels):
        for feature, value in token.items():
            parts[("emission", feature, label)] += value
    if order >= 1:
        parts[("start", labels[0])] += 1.0
        parts[("stop", labels[-1])] += 1.0
        for a, b in itertools.pairwise(labels):
            parts[("transition", a, b)] += 1.0
    return parts


def _score(w, sentence, labels, order):
    return sum(w.get(part, 0.0) * v for part, v in _phi(sentence, labels, order).items())


def _argmax(w, sentence, classes, order):
    """The best label sequence by enumeration; among ties (1e-9), the one Viterbi keeps:
    lowest last label, then lowest label before it, and so on."""
    outputs = list(itertools.product(range(len(classes)), repeat=len(sentence)))
    scores = [_score(w, sentence, [classes[k] for k in out], order) for out in outputs]
    best = max(scores)
    tied = [out for out, s in zip(outputs, scores) if s >= best - 1e-9]
    return [classes[k] for k in min(tied, key=lambda out: out[::-1])]


def _difference(sentence, gold, pred, order):
    """phi(gold) - phi(pred), collected part by part as CRFsuite's delta_collect does."""
    d = defaultdict(float)
    for part, v in _phi(sentence, gold, order).items():
        d[part] += v
    for part, v in _phi(sentence, pred, order).items():
        d[part] -= v
    return d


def crfsuite_pa(X, y, classes, order, pa_type, c, error_sensitive, averaging, max_iter, epsilon):
    """train_passive_aggressive.c, visiting the examples in order. Returns the model
    CRFsuite returns (``w - ws / u``, averaged over the u = T + 1 weight vectors from the
    initial one), u and the epochs run."""
    w, ws, u, epochs = {}, defaultdict(float), 1, 0
    for _ in range(max_iter):
        sum_loss = 0.0
        for sentence, gold in zip(X, y):
            pred = _argmax(w, sentence, classes, order)
            errors = sum(g != p for g, p in zip(gold, pred))
            if errors:
                sv, sc = _score(w, sentence, pred, order), _score(w, sentence, gold, order)
                cost = sv - sc + (math.sqrt(errors) if error_sensitive else 1.0)
                d = _difference(sentence, gold, pred, order)
                norm2 = sum(v * v for v in d.values())
                tau = {0: cost / norm2, 1: min(c, cost / norm2), 2: cost / (norm2 + 0.5 / c)}
                for part, v in d.items():
                    w[part] = w.get(part, 0.0) + tau[pa_type] * v
                    ws[part] += tau[pa_type] * u * v
                sum_loss += cost
            u += 1
        epochs += 1
        if sum_loss / len(X) < epsilon:
            break
    if not averaging:
        return w, u, epochs
    return {part: v - ws[part] / u for part, v in w.items()}, u, epochs


def crfsuite_arow(X, y, classes, order, variance, gamma, max_iter, epsilon):
    """train_arow.c, visiting the examples in order: (mean, cov, epochs run)."""
    mean, cov, epochs = {}, defaultdict(lambda: variance), 0
    for _ in range(max_iter):
        sum_loss = 0.0
        for sentence, gold in zip(X, y):
            pred = _argmax(mean, sentence, classes, order)
            errors = sum(g != p for g, p in zip(gold, pred))
            if errors:
                sv, sc = _score(mean, sentence, pred, order), _score(mean, sentence, gold, order)
                cost = sv - sc + errors
                d = _difference(sentence, gold, pred, order)
                frac = gamma + sum(v * v * cov[part] for part, v in d.items())
                alpha = cost / frac
                for part, v in d.items():
                    mean[part] = mean.get(part, 0.0) + alpha * cov[part] * v
                    cov[part] = 1.0 / (1.0 / cov[part] + v * v / gamma)
                sum_loss += cost
        epochs += 1
        if sum_loss / len(X) <= epsilon:
            break
    return mean, cov, epochs


# -- data and the learners' weights as dicts ----------------------------------------------


def _tiny_data(seed, n=8, n_labels=3, max_len=3):
    """Token dicts with an indicator and real-valued features, and random labels (all
    used): what the twins and the learners both read."""
    rng = np.random.default_rng(seed)
    classes = [f"L{k}" for k in range(n_labels)]
    X, y = [], []
    for i in range(n):
        length = int(rng.integers(1, max_len + 1))
        X.append(
            [
                {f"w={rng.integers(4)}": 1.0, "x": round(float(rng.normal()), 3),
                 f"s={rng.integers(2)}": round(float(rng.uniform(0.5, 2.0)), 3)}
                for _ in range(length)
            ]
        )  # fmt: skip
        y.append([classes[(i + t) % n_labels if i < n_labels else rng.integers(n_labels)]
                  for t in range(length)])  # fmt: skip
    return X, y, classes


def _as_dict(est, array=None):
    """``coef_`` (or another array in its layout) as {part: value}, zeros left out."""
    array = est.coef_ if array is None else array
    structure, classes = est.structure_, est.classes_.tolist()
    names = est.encoder_.get_feature_names_out()
    out = {}
    emission = structure.emission_matrix(array).tocoo()
    for f, k, v in zip(emission.row, emission.col, emission.data):
        out[("emission", str(names[f]), classes[k])] = float(v)
    _, transition, start, stop, _ = structure.split(array)
    if structure.order >= 1:
        for a, b in itertools.product(range(len(classes)), repeat=2):
            out[("transition", classes[a], classes[b])] = float(transition[a, b])
        for k in range(len(classes)):
            out[("start", classes[k])] = float(start[k])
            out[("stop", classes[k])] = float(stop[k])
    return {part: v for part, v in out.items() if v != 0.0}


def _assert_same_weights(got, expected, atol=1e-9):
    expected = {part: v for part, v in expected.items() if abs(v) > 1e-12}
    got = {part: v for part, v in got.items() if abs(v) > 1e-12}
    assert set(got) == set(expected)
    for part, v in expected.items():
        assert got[part] == pytest.approx(v, abs=atol, rel=1e-9), part


# -- the twins agree ------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("order", [0, 1])
@pytest.mark.parametrize("averaging", [True, False])
@pytest.mark.parametrize("pa_type", [0, 1, 2])
@pytest.mark.parametrize("error_sensitive", [True, False])
def test_pa_matches_crfsuite_twin(seed, order, averaging, pa_type, error_sensitive):
    X, y, classes = _tiny_data(seed)
    params = {"pa_type": pa_type, "c": 0.3, "error_sensitive": error_sensitive}
    est = PassiveAggressive(
        Viterbi(order=order), averaging=averaging, max_iter=4, shuffle=False, **params
    ).fit(X, y)
    w, u, epochs = crfsuite_pa(X, y, classes, order, averaging=averaging, max_iter=4,
                               epsilon=0.0, **params)  # fmt: skip
    # CRFsuite averages over T + 1 vectors (the first one zero), skstruct over T
    scale = u / (u - 1) if averaging else 1.0
    _assert_same_weights(_as_dict(est), {part: v * scale for part, v in w.items()})
    assert est.n_iter_ == epochs == 4  # epsilon=0 never stops PA early
    expected = [_argmax(w, sentence, classes, order) for sentence in X]
    assert est.predict(X) == expected


@pytest.mark.parametrize("pa_type", [0, 1, 2])
def test_the_update_rule_in_the_perceptron_is_the_same_learner(pa_type):
    X, y, _ = _tiny_data(3)
    rule = PassiveAggressiveUpdate(pa_type=pa_type, c=0.5, error_sensitive=False)
    common = {"max_iter": 3, "shuffle": False}
    perceptron = StructuredPerceptron(update=rule, batch_size=1, **common).fit(X, y)
    pa = PassiveAggressive(pa_type=pa_type, c=0.5, error_sensitive=False, **common).fit(X, y)
    np.testing.assert_array_equal(perceptron.coef_, pa.coef_)
    assert [r["loss"] for r in perceptron.history_] == [r["loss"] for r in pa.history_]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("order", [0, 1])
@pytest.mark.parametrize(("variance", "gamma"), [(1.0, 1.0), (0.3, 2.0), (4.0, 0.5)])
def test_arow_matches_crfsuite_twin(seed, order, variance, gamma):
    X, y, classes = _tiny_data(seed)
    est = AROW(Viterbi(order=order), variance=variance, gamma=gamma, max_iter=5, shuffle=False)
    est.fit(X, y)
    mean, cov, epochs = crfsuite_arow(X, y, classes, order, variance, gamma, 5, 0.0)
    _assert_same_weights(_as_dict(est), mean)
    assert est.n_iter_ == epochs
    assert est.predict(X) == [_argmax(mean, sentence, classes, order) for sentence in X]
    # variance_ follows coef_'s layout
    for part, v in _as_dict(est, est.variance_).items():
        assert v == pytest.approx(cov[part], rel=1e-9), part


def test_arow_variance_decreases_only_on_touched_weights():
    X, y, classes = _tiny_data(0)
    variance = 0.7
    est = AROW(variance=variance, max_iter=1, shuffle=False).fit(X, y)
    _, cov, _ = crfsuite_arow(X, y, classes, 1, variance, 1.0, 1, 0.0)
    touched = {part for part, v in cov.items() if v != variance}
    assert touched
    # every weight: the dense ones from variance_, every (feature, label) pair from the state
    state, chain = est._weights, est._weights.structure
    n_features, n_labels = chain.n_features, chain.n_labels
    keys = np.concatenate([
        np.arange(chain.n_dense),
        chain.n_dense + np.arange(n_features * n_labels, dtype=np.int64),
    ])  # fmt: skip
    variances = state.variances(keys)
    names = est.encoder_.get_feature_names_out()
    L = n_labels
    parts = [("transition", classes[a], classes[b]) for a in range(L) for b in range(L)]
    parts += [("start", label) for label in classes] + [("stop", label) for label in classes]
    parts += [("emission", str(names[f]), classes[k]) for f in range(n_features) for k in range(L)]
    for part, v in zip(parts, variances):
        if part in touched:
            assert v < variance, part
        else:
            assert v == variance, part
    assert (est.variance_ <= variance).all()


# -- the update rule ------------------------------------------------------------------------


def _one_example():
    """A chain, an encoded two-token sentence, gold and a prediction, and part scores."""
    X = [[{"a": 1.0, "b": 2.0}, {"a": 1.0, "c": -0.5}]]
    encoded = TokenDictEncoder().fit_transform(X)
    chain = LinearChain(encoded.n_features, 2, order=1)
    rng = np.random.default_rng(0)
    coef = np.zeros(chain.n_weights)
    coef[: chain.n_dense] = 0.1 * rng.normal(size=chain.n_dense)
    scores = chain.scores(encoded, 0, coef)
    return chain, encoded, scores


def test_pa_types_take_the_steps_of_their_formulas():
    chain, encoded, scores = _one_example()
    gold, pred = np.array([0, 1], dtype=np.int32), np.array([1, 0], dtype=np.int32)
    # d: a (value 1) on both tokens with swapped labels cancels; b: +-2, c: +-0.5;
    # transitions 0->1 vs 1->0, start 0 vs 1, stop 1 vs 0: all +-1
    norm2 = 2 * 4.0 + 2 * 0.25 + 6 * 1.0
    _, values = chain.delta(encoded, 0, gold, pred)
    assert values @ values == pytest.approx(norm2)
    margin = chain.margin(scores, gold, pred, 0, 2)
    loss = np.sqrt(2) - margin  # two wrong tokens
    assert loss / norm2 > 0.01
    trace, example = DecodedOutput(pred, gold), Example(encoded, 0)
    for c in (0.01, 10.0):
        taus = {}
        for pa_type in (0, 1, 2):
            rule = PassiveAggressiveUpdate(pa_type=pa_type, c=c)
            stats = rule.epoch_stats()
            (violation,) = rule.violations(trace, chain, scores, stats, example=example)
            assert stats == {"mistakes": 1, "updates": 1, "loss": pytest.approx(loss)}
            assert violation.margin == pytest.approx(-margin)
            taus[pa_type] = violation.weight
        assert taus[0] == pytest.approx(loss / norm2)
        assert taus[1] == pytest.approx(min(c, loss / norm2))
        assert taus[2] == pytest.approx(loss / (norm2 + 1 / (2 * c)))
        assert taus[2] < taus[0]
    assert taus[1] == taus[0] < 10.0  # c large: PA-I is PA
    rule = PassiveAggressiveUpdate(c=0.01)
    assert rule.violations(trace, chain, scores, None, example=example)[0].weight == 0.01


def test_no_update_without_a_mistake():
    chain, encoded, scores = _one_example()
    gold = np.array([0, 1], dtype=np.int32)
    rule = PassiveAggressiveUpdate()
    stats = rule.epoch_stats()
    assert rule.violations(DecodedOutput(gold.copy(), gold), chain, scores, stats,
                           example=Example(encoded, 0)) == []  # fmt: skip
    assert stats == {"mistakes": 0, "updates": 0, "loss": 0.0}


@pytest.mark.parametrize("order", [0, 1, 2])
def test_chain_delta_is_the_sparse_feature_difference(order):
    X, y, classes = _tiny_data(5, n=6, max_len=5)
    encoded = TokenDictEncoder().fit_transform(X)
    names = TokenDictEncoder().fit(X).get_feature_names_out()
    chain = LinearChain(encoded.n_features, len(classes), order=order)
    L, n_dense = len(classes), chain.n_dense
    rng = np.random.default_rng(0)
    for i, sentence in enumerate(X):
        gold = np.array([classes.index(label) for label in y[i]], dtype=np.int32)
        pred = rng.integers(0, L, size=gold.size).astype(np.int32)
        keys, values = chain.delta(encoded, i, gold, pred)
        assert (np.diff(keys) > 0).all() and (values != 0).all()
        expected = _difference(sentence, [classes[k] for k in gold], [classes[k] for k in pred],
                               min(order, 1))  # fmt: skip
        if order == 2:
            for t in range(2, gold.size):
                expected[("trigram", *gold[t - 2 : t + 1].tolist())] += 1.0
                expected[("trigram", *pred[t - 2 : t + 1].tolist())] -= 1.0
        got = {}
        for key, value in zip(keys.tolist(), values.tolist()):
            if key >= n_dense:
                f, k = divmod(key - n_dense, L)
                got[("emission", str(names[f]), classes[k])] = value
            elif key < L * L:
                got[("transition", classes[key // L], classes[key % L])] = value
            elif key < L * (L + 1):
                got[("start", classes[key - L * L])] = value
            elif key < L * (L + 2):
                got[("stop", classes[key - L * (L + 1)])] = value
            else:
                got[("trigram", *np.unravel_index(key - L * (L + 2), (L, L, L)))] = value
        got = {(p[0], *map(int, p[1:])) if p[0] == "trigram" else p: v for p, v in got.items()}
        _assert_same_weights(got, expected, atol=1e-12)


# -- the learners -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chain_data():
    X, y = make_chain_data(200, random_state=0)
    return X[:150], y[:150], X[150:], y[150:]


@pytest.mark.parametrize(
    "est",
    [
        PassiveAggressive(max_iter=10, features=TokenFeatures(), random_state=0),
        PassiveAggressive(pa_type=2, c=0.1, max_iter=10, features=TokenFeatures(), random_state=0),
        PassiveAggressive(
            BeamSearch(beam_size=2), max_iter=10, features=TokenFeatures(), random_state=0
        ),
        AROW(max_iter=10, features=TokenFeatures(), random_state=0),
        AROW(Viterbi(order=2), gamma=10.0, max_iter=10, features=TokenFeatures(), random_state=0),
    ],
    ids=["pa1", "pa2", "pa-beam", "arow", "arow-order2"],
)
def test_learns_chain_data(est, chain_data):
    X, y, X_test, y_test = chain_data
    perceptron = StructuredPerceptron(features=TokenFeatures(), random_state=0).fit(X, y)
    est.fit(X, y)
    assert est.score(X_test, y_test) >= perceptron.score(X_test, y_test) - 0.03
    assert est.score(X_test, y_test) > 0.9
    losses = [record["loss"] for record in est.history_]
    assert losses[-1] < losses[0]


def test_epsilon_stops_as_crfsuite_does():
    X = [[{"w": "a"}, {"w": "b"}], [{"w": "b"}], [{"w": "a"}]]
    y = [["A", "B"], ["B"], ["A"]]
    arow = AROW(max_iter=50, shuffle=False).fit(X, y)  # stops once an epoch has no mistake
    assert arow.n_iter_ < 50
    assert arow.history_[-1]["mistakes"] == 0 and arow.history_[-1]["loss"] == 0.0
    assert PassiveAggressive(max_iter=20).fit(X, y).n_iter_ == 20  # 0 < 0 is false
    assert PassiveAggressive(max_iter=20, epsilon=1e-9).fit(X, y).n_iter_ < 20
    assert PassiveAggressive(max_iter=20, epsilon=1e9).fit(X, y).n_iter_ == 1
    assert AROW(max_iter=20, epsilon=1e9).fit(X, y).n_iter_ == 1


def test_arow_partial_fit_continues_its_variances():
    X, y, _ = _tiny_data(1)
    fitted = AROW(max_iter=3, shuffle=False).fit(X, y)
    online = AROW(shuffle=False)
    for _ in range(3):
        online.partial_fit(X, y)
    np.testing.assert_array_equal(online.coef_, fitted.coef_)
    np.testing.assert_array_equal(online.variance_, fitted.variance_)


@pytest.mark.parametrize("est", [PassiveAggressive(max_iter=2), AROW(max_iter=2)])
def test_sklearn_contract(est):
    X, y, _ = _tiny_data(2)
    params = est.get_params()
    copy = clone(est)
    assert copy is not est and copy.get_params() == params
    assert clone(est).set_params(**params).get_params() == params
    with pytest.raises(NotFittedError):
        copy.predict(X)
    est.fit(X, y)
    assert est.get_params() == params  # fit changes no parameter
    assert not hasattr(clone(est), "coef_")


@pytest.mark.parametrize("est", [PassiveAggressive(max_iter=2), AROW(max_iter=2)])
def test_same_random_state_same_model_and_save_load(est):
    X, y, _ = _tiny_data(2)
    one = clone(est).set_params(random_state=0).fit(X, y)
    two = clone(est).set_params(random_state=0).fit(X, y)
    np.testing.assert_array_equal(one.coef_, two.coef_)
    buffer = io.BytesIO()
    save(one, buffer)
    buffer.seek(0)
    loaded = load(buffer)
    assert loaded.predict(X) == one.predict(X)
    assert type(loaded._weights) is type(one._weights)
    loaded.partial_fit(X, y)  # the training state came back too
    if isinstance(est, AROW):
        np.testing.assert_array_equal(loaded.variance_.shape, loaded.coef_.shape)


@pytest.mark.parametrize(
    ("est", "name"),
    [
        (PassiveAggressive(c=0.0), "'c'"),
        (PassiveAggressive(c=-1.0), "'c'"),
        (PassiveAggressive(pa_type=3), "'pa_type'"),
        (PassiveAggressive(pa_type=-1), "'pa_type'"),
        (PassiveAggressive(error_sensitive="yes"), "'error_sensitive'"),
        (PassiveAggressive(averaging="yes"), "'averaging'"),
        (PassiveAggressive(epsilon=-1.0), "'epsilon'"),
        (AROW(variance=0.0), "'variance'"),
        (AROW(variance=-2.0), "'variance'"),
        (AROW(gamma=0.0), "'gamma'"),
        (AROW(epsilon=-1e-4), "'epsilon'"),
        (StructuredPerceptron(update=PassiveAggressiveUpdate(c=0.0)), "'c'"),
        (StructuredPerceptron(update=PassiveAggressiveUpdate(pa_type=3)), "'pa_type'"),
    ],
)
def test_bad_parameters_are_refused(est, name):
    X, y, _ = _tiny_data(0)
    with pytest.raises(InvalidParameterError, match=name):
        est.fit(X, y)


def test_parameters_the_learners_do_not_have():
    for name in ("average", "batch_size", "n_jobs"):
        assert name not in AROW().get_params()
    assert "average" not in PassiveAggressive().get_params()
    with pytest.raises(ValueError, match="Invalid parameter 'average'"):
        PassiveAggressive().set_params(average=False)


@pytest.mark.parametrize("est", [PassiveAggressive(Eisner()), AROW(Eisner())])
def test_tree_decoders_are_refused_before_any_work(est):
    with pytest.raises(ValueError, match="sparse feature difference"):
        est.fit([[{"form": "a"}]], [[0]])


def test_parameter_mixing_refuses_arow():
    X, y, _ = _tiny_data(0)
    with pytest.raises(TypeError, match="ConfidenceWeights"):
        ParameterMixing(AROW(max_iter=1), n_shards=2, n_jobs=1).fit(X, y)


def test_grid_search_reaches_the_rule_and_mixing_takes_pa(chain_data):
    X, y, _, _ = chain_data
    X, y = X[:60], y[:60]
    rule = StructuredPerceptron(update=PassiveAggressiveUpdate(), features=TokenFeatures())
    grid = {"update__pa_type": [0, 2], "update__c": [0.1, 1.0], "max_iter": [2]}
    search = GridSearchCV(rule, grid, cv=2, scoring=token_accuracy_scorer).fit(X, y)
    assert len(search.cv_results_["params"]) == 4 and search.best_score_ > 0.8
    mixed = ParameterMixing(
        PassiveAggressive(max_iter=2, features=TokenFeatures()), n_shards=2, n_jobs=1, max_iter=2
    ).fit(X, y)
    assert mixed.score(X, y) > 0.8
