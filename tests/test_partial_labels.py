"""Training on partially labelled sequences (None in ``y``): the latent-variable
perceptron, whose gold is the best path that has the known labels."""

import numpy as np
import pytest

from skstruct import (
    AROW,
    SWVP,
    BeamSearch,
    ExponentiatedGradientSSVM,
    LinearChainCRF,
    ParameterMixing,
    PassiveAggressive,
    StructuredPerceptron,
    Viterbi,
)
from skstruct.structures import ChainScores
from tests import naive
from tests.test_perceptron import _token_dicts, assert_equals_python_twin


def _hide(y, fraction, seed):
    rng = np.random.default_rng(seed)
    return [[None if rng.random() < fraction else label for label in seq] for seq in y]


@pytest.mark.parametrize("batch_size", [1, 4])
@pytest.mark.parametrize("average", [True, False])
@pytest.mark.parametrize("order", [0, 1])
def test_latent_perceptron_matches_python_twin(average, order, batch_size):
    # real feature values: no two paths tie, for the generic loop's exact beam (which
    # partial labels take) breaks ties otherwise than the twin's Viterbi
    rng = np.random.default_rng(2)
    X = [[{**token, "v": float(rng.normal())} for token in seq] for seq in _token_dicts(rng, 12, 5)]
    y = [[f"L{rng.integers(3)}" for _ in seq] for seq in X]
    y[0][0], y[1][0], y[2][0] = "L0", "L1", "L2"
    partial = _hide(y, 0.4, 0)
    partial[0][0], partial[1][0], partial[2][0] = "L0", "L1", "L2"
    assert_equals_python_twin(X, partial, order, average, batch_size)


@pytest.mark.parametrize("seed", range(6))
def test_complete_is_the_best_path_with_the_known_labels(seed):
    rng = np.random.default_rng(seed)
    n, L = int(rng.integers(1, 5)), 3
    scores = ChainScores(
        rng.normal(size=(n, L)), rng.normal(size=(L, L)), rng.normal(size=L),
        rng.normal(size=L), np.zeros((0, 0, 0)),
    )  # fmt: skip
    gold = np.where(rng.random(n) < 0.5, -1, rng.integers(L, size=n)).astype(np.int32)
    chain = naive.full_chain(0, L, 1)
    path = chain.complete(scores, gold)
    assert all(path[t] == g for t, g in enumerate(gold) if g >= 0)
    best = max(
        naive.chain_score(p, *scores[:4])
        for p in naive.all_paths(n, L)
        if all(p[t] == g for t, g in enumerate(gold) if g >= 0)
    )
    assert naive.chain_score(path.tolist(), *scores[:4]) == pytest.approx(best)
    assert chain.complete(scores, np.zeros(n, dtype=np.int32)).tolist() == [0] * n


def _separable(seed, n=120):
    """Each word decides its label; the label of a token also depends on the one before."""
    rng = np.random.default_rng(seed)
    X, y = [], []
    for _ in range(n):
        words = rng.integers(6, size=int(rng.integers(2, 7)))
        X.append([{f"w={w}": 1.0} for w in words])
        y.append([("B-X" if w < 2 else "I-X" if w < 4 else "O") for w in words])
        for t, label in enumerate(y[-1]):  # keep it IOB2
            if label == "I-X" and (t == 0 or y[-1][t - 1] == "O"):
                y[-1][t] = "B-X"
    return X, y


LEARNERS = [
    StructuredPerceptron(random_state=0),
    StructuredPerceptron(BeamSearch(2), update="max_violation", random_state=0),
    StructuredPerceptron(BeamSearch(2), update="early", random_state=0, batch_size=8),
    StructuredPerceptron(Viterbi(allowed="bio"), random_state=0),
    SWVP(random_state=0),
    PassiveAggressive(random_state=0),
]


@pytest.mark.parametrize("learner", [*LEARNERS, AROW(random_state=0)], ids=repr)
def test_every_online_learner_learns_the_hidden_labels(learner):
    X, y = _separable(0)
    partial = _hide(y, 0.3, 1)
    predicted = learner.fit(X, partial).predict(X)
    hidden = [(p, t) for ps, ts, hs in zip(predicted, y, partial) for p, t, h in zip(ps, ts, hs)
              if h is None]  # fmt: skip
    assert len(hidden) > 50
    assert np.mean([p == t for p, t in hidden]) > 0.95
    assert learner.score(X, y) > 0.95


def test_mixing_trains_on_partial_labels():
    X, y = _separable(1)
    partial = _hide(y, 0.3, 2)
    serial = StructuredPerceptron(max_iter=3, random_state=0)
    one = ParameterMixing(serial, n_shards=1, max_iter=3, random_state=0).fit(X, partial)
    np.testing.assert_array_equal(one.coef_, serial.fit(X, partial).coef_)
    two = ParameterMixing(serial, n_shards=2, max_iter=3, random_state=0).fit(X, partial)
    assert two.score(X, y) > 0.9


@pytest.mark.parametrize("learner", [LinearChainCRF(max_iter=5), ExponentiatedGradientSSVM()])
def test_batch_learners_refuse_unknown_labels(learner):
    with pytest.raises(
        TypeError, match=r"label None at position 1 of y\[0\].*StructuredPerceptron"
    ):
        learner.fit([[{"w": "a"}, {"w": "b"}]], [["A", None]])


def test_all_unknown_is_refused_and_classes_leave_none_out():
    with pytest.raises(ValueError, match="only None"):
        StructuredPerceptron().fit([[{"w": "a"}]], [[None]])
    model = StructuredPerceptron().fit([[{"w": "a"}, {"w": "b"}]], [["A", None]])
    assert model.classes_.tolist() == ["A"]
