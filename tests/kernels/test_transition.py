"""Arc-standard kernels against the Python twin in naive.py; the oracle on real trees."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skstruct import ArcStandard
from skstruct._kernels import transition
from skstruct.datasets import load_conllu
from skstruct.structures import TransitionScores, TransitionSystem
from tests import naive
from tests.kernels.test_tree import _sentence, _trees


def _system(n_features):
    return TransitionSystem(n_features, ArcStandard.kernel)


def _random_tree(seed, n):
    trees, _ = _trees(n, True, True)
    return trees[np.random.default_rng(seed).integers(len(trees))][1:].tolist()


@settings(max_examples=40)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_oracle_matches_the_twin_and_rebuilds_the_tree(seed, n):
    gold = _random_tree(seed, n)
    actions = _system(10).oracle(gold)
    twin_actions, rebuilt = naive.arc_standard_oracle(gold)
    assert actions.tolist() == twin_actions
    assert rebuilt == gold


@pytest.mark.data
def test_oracle_rebuilds_every_tree_of_the_ptb_sample(data_home):
    system = _system(10)
    for split in ("train", "dev", "test"):
        _, y = load_conllu(data_home / "ptb-sample" / f"{split}.conllu")
        for gold in y:
            state = naive.ArcStandardState(len(gold))
            for action in system.oracle(gold):
                assert state.valid(action)
                state.apply(action)
            assert state.heads[1:] == list(gold) and state.stack == [0]


def test_oracle_refuses_non_projective_trees():
    with pytest.raises(ValueError, match="not projective"):
        _system(10).oracle([3, 4, 0, 3])


@settings(max_examples=40)
@given(st.integers(0, 2**32 - 1), st.integers(1, 7), st.integers(1, 5))
def test_beam_search_matches_the_python_twin(seed, n, beam_size):
    attrs = _sentence(seed, n, vocab=4)
    gold = _random_tree(seed, n)
    coef = np.random.default_rng(seed).normal(size=503)
    system = _system(503)
    trace = ArcStandard(beam_size).search(system, TransitionScores(attrs, 0, n, coef), gold)
    heads, best, gold_score, in_beam, best_is_gold = naive.arc_standard_beam(
        attrs.tolist(), coef, 503, beam_size, system.oracle(gold).tolist()
    )
    assert trace.path.tolist() == heads
    np.testing.assert_allclose(trace.best_score, best)
    np.testing.assert_allclose(trace.gold_score, gold_score)
    assert trace.gold_in_beam.tolist() == in_beam
    assert trace.best_is_gold.tolist() == best_is_gold
    # the best prefix's actions replay to its score
    for t in (0, 2 * n - 1):
        state, total = naive.ArcStandardState(n), 0.0
        for action in trace.prefix(t):
            total += coef[state.features(attrs.tolist(), 503, action)].sum()
            state.apply(action)
        assert total == pytest.approx(trace.best_score[t])


def test_replayed_features_match_the_twin():
    attrs = _sentence(5, 6)
    gold = _random_tree(5, 6)
    actions = _system(97).oracle(gold)
    coef = np.zeros(97)
    states = np.empty(transition.N_TEMPLATES, dtype=np.uint64)
    transition.replay_features(attrs, 0, 6, actions, 7, 97, coef, 2.0, states)
    expected, state = np.zeros(97), naive.ArcStandardState(6)
    for action in actions[:7]:
        np.add.at(expected, state.features(attrs.tolist(), 97, action), 2.0)
        state.apply(action)
    np.testing.assert_array_equal(coef, expected)
