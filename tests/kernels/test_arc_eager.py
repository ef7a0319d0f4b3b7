"""Arc-eager kernels against the Python twin in naive.py and brute-force enumeration of
action sequences; the oracle on real trees."""

import functools
import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skstruct._kernels import arc_eager, transition, transition_beam
from skstruct._kernels._config import TRUE
from skstruct.datasets import load_conllu
from tests import naive
from tests.kernels.test_tree import _sentence, _trees


def _random_tree(seed, n):
    trees, _ = _trees(n, True, True)
    return trees[np.random.default_rng(seed).integers(len(trees))][1:].tolist()


def _oracle(gold):
    """The kernel's oracle actions for heads per word, or None when it refuses."""
    n = len(gold)
    out = np.empty(2 * n, dtype=np.int64)
    ok = arc_eager.oracle(np.array([-1, *gold], dtype=np.int64), n, out)
    return out if ok else None


@functools.cache
def _sequences(n):
    """Every valid action sequence of n words (by the twin, depth first) with its
    final state."""
    out = []

    def extend(state, actions):
        if len(actions) == 2 * n:
            out.append((actions, state))
            return
        for action in range(arc_eager.N_ACTIONS):
            if state.valid(action):
                child = state.copy()
                child.apply(action)
                extend(child, (*actions, action))

    extend(naive.ArcEagerState(n), ())
    return out


def _score(attrs, coef, n_features, actions):
    state, total = naive.ArcEagerState(len(attrs)), 0.0
    for action in actions:
        total += coef[state.features(attrs, n_features, action)].sum()
        state.apply(action)
    return total


def beam_search(*args):
    """The one transition beam search, for arc-eager."""
    return transition_beam.beam_search(*args, TRUE)


def predict_batch(*args):
    return transition_beam.predict_batch(*args, TRUE)


def test_same_interface_as_arc_standard():
    for name in ("oracle", "replay_features", "_apply"):
        assert inspect.signature(getattr(arc_eager, name)) == inspect.signature(
            getattr(transition, name)
        )
    assert (arc_eager.SHIFT, arc_eager.LEFT, arc_eager.RIGHT) == (
        transition.SHIFT,
        transition.LEFT,
        transition.RIGHT,
    )
    assert arc_eager.REDUCE == arc_eager.N_ACTIONS - 1 == naive.REDUCE


@settings(max_examples=40)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_oracle_matches_the_twin_and_rebuilds_the_tree(seed, n):
    gold = _random_tree(seed, n)
    actions = _oracle(gold)
    twin_actions, rebuilt = naive.arc_eager_oracle(gold)
    assert actions.tolist() == twin_actions
    assert rebuilt == gold


@pytest.mark.data
def test_oracle_rebuilds_every_tree_of_the_ptb_sample(data_home):
    for split in ("train", "dev", "test"):
        _, y = load_conllu(data_home / "ptb-sample" / f"{split}.conllu")
        for gold in y:
            state = naive.ArcEagerState(len(gold))
            for action in _oracle(list(gold)):
                assert state.valid(action)
                state.apply(action)
            assert state.heads[1:] == list(gold) and state.stack == [0]


@pytest.mark.parametrize(
    "gold",
    [[3, 4, 0, 3], [0, 4, 1, 1], [2, 0, 0], [0, 0]],
    ids=["non-projective", "non-projective-2", "two-roots", "two-roots-2"],
)
def test_oracle_refuses_trees_it_cannot_build(gold):
    assert _oracle(gold) is None
    assert naive.arc_eager_oracle(gold) is None or naive.arc_eager_oracle(gold)[1] != gold


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_every_action_sequence_builds_a_single_rooted_projective_tree(n):
    """Every path is 2n valid actions and ends with a single-rooted projective tree; every
    such tree is reached; the kernel's validity agrees with the twin's on every state."""
    sequences = _sequences(n)
    trees = set()
    for _, final in sequences:
        assert final.stack == [0] and final.b == n + 1
        assert naive.is_tree(final.heads) and naive.is_projective(final.heads)
        assert final.heads[1:].count(0) == 1
        trees.add(tuple(final.heads))
    expected, _ = _trees(n, True, True)
    assert trees == {tuple(t) for t in expected.tolist()}
    # the kernel's is_valid and _apply along every path
    for actions, final in sequences if n <= 5 else sequences[::7]:
        state = naive.ArcEagerState(n)
        stack, heads = np.empty(n + 2, dtype=np.int64), np.empty(n + 1, dtype=np.int64)
        lc, rc, nl, nr = (np.empty(n + 1, dtype=np.int64) for _ in range(4))
        transition._fresh(n, stack, heads, lc, rc, nl, nr)
        size, b = 1, 1
        for action in actions:
            for a in range(arc_eager.N_ACTIONS):
                assert arc_eager.is_valid(a, stack[size - 1], b, n, heads) == state.valid(a)
            size, b = arc_eager._apply(action, stack, size, b, heads, lc, rc, nl, nr)
            state.apply(action)
            assert stack[:size].tolist() == state.stack and heads.tolist() == state.heads
        assert heads.tolist() == final.heads


@settings(max_examples=40)
@given(st.integers(0, 2**32 - 1), st.integers(1, 7), st.integers(1, 5))
def test_beam_search_matches_the_python_twin(seed, n, beam_size):
    attrs = _sentence(seed, n, vocab=4)
    gold = _random_tree(seed, n)
    gold_actions = _oracle(gold)
    coef = np.random.default_rng(seed).normal(size=503)
    heads, actions, parents, best, gold_score, in_beam, best_is_gold = beam_search(
        attrs, 0, n, coef, 503, beam_size, gold_actions, True
    )
    twin = naive.arc_eager_beam(attrs.tolist(), coef, 503, beam_size, gold_actions.tolist())
    assert heads[1:].tolist() == twin[0]
    np.testing.assert_allclose(best, twin[1])
    np.testing.assert_allclose(gold_score, twin[2])
    assert in_beam.tolist() == twin[3]
    assert best_is_gold.tolist() == twin[4]
    assert actions.shape == parents.shape == (2 * n, beam_size)
    # the best prefix's actions replay to its score
    for t in (0, n - 1, 2 * n - 1):
        prefix, slot = [], 0
        for step in range(t, -1, -1):
            prefix.append(actions[step, slot])
            slot = parents[step, slot]
        assert _score(attrs.tolist(), coef, 503, prefix[::-1]) == pytest.approx(best[t])


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(0, 3))
def test_an_exhaustive_beam_finds_the_best_action_sequence(seed, n, columns):
    # columns: none past the POS and prefix; a coarse POS; and one or two fields
    attrs = _sentence(seed, n, vocab=4, coarse=columns > 0, extra=max(columns - 1, 0))
    coef = np.random.default_rng(seed).normal(size=211)
    sequences = _sequences(n)
    scores = [_score(attrs.tolist(), coef, 211, actions) for actions, _ in sequences]
    no_gold = np.zeros(0, dtype=np.int64)
    heads, _, _, best, *_ = beam_search(attrs, 0, n, coef, 211, len(sequences), no_gold, False)
    assert best[-1] == pytest.approx(max(scores))
    assert heads.tolist() == sequences[int(np.argmax(scores))][1].heads


@pytest.mark.parametrize(
    ("coarse", "fields", "n_templates"), [(False, 0, 52), (True, 0, 66), (True, 3, 93)]
)
def test_replayed_features_match_the_twin(coarse, fields, n_templates):
    attrs = _sentence(5, 6, coarse=coarse, extra=fields)
    assert arc_eager.template_count(attrs) == n_templates
    assert arc_eager.N_TEMPLATES == 93  # room for the most
    gold = _random_tree(5, 6)
    actions = _oracle(gold)
    for n_steps in (7, 12):
        coef = np.zeros(97)
        states = np.empty(arc_eager.N_TEMPLATES, dtype=np.uint64)
        arc_eager.replay_features(attrs, 0, 6, actions, n_steps, 97, coef, 2.0, states)
        expected, state = np.zeros(97), naive.ArcEagerState(6)
        for action in actions[:n_steps]:
            features = state.features(attrs.tolist(), 97, action)
            assert len(features) == n_templates
            np.add.at(expected, features, 2.0)
            state.apply(action)
        np.testing.assert_array_equal(coef, expected)


@settings(max_examples=20)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4))
def test_predict_batch_is_beam_search_sentence_by_sentence(seed, beam_size):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 8, size=4)
    offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    attrs = np.concatenate([_sentence(seed + i, int(m)) for i, m in enumerate(lengths)])
    coef = rng.normal(size=1009)
    out = predict_batch(attrs, offsets, coef, 1009, beam_size)
    no_gold = np.zeros(0, dtype=np.int64)
    for i, m in enumerate(lengths):
        heads = beam_search(attrs, offsets[i], m, coef, 1009, beam_size, no_gold, False)
        assert out[offsets[i] : offsets[i + 1]].tolist() == heads[0][1:].tolist()


def test_a_fit_compiles_one_signature_per_helper_and_nothing_of_arc_standard():
    """Action constants and state counters reach the helpers as int64, not literals
    (one copy each), and the beam search compiled for arc-eager picks its functions by
    type: arc-standard's are not compiled with it. (Kernels loaded from numba's disk
    cache list no signatures: the check bites where the cache is cold, as in CI.)"""
    from skstruct import ArcEager, StructuredPerceptron
    from skstruct.compilation import _tree_data

    X, labelled = _tree_data(6)
    heads = [[head for head, _ in sentence] for sentence in labelled]
    StructuredPerceptron(ArcEager(2), update="max_violation", max_iter=1).fit(X, heads)
    for kernel in (arc_eager.is_valid, arc_eager._apply, arc_eager.state_prefixes):
        assert not [s for s in map(str, kernel.signatures) if "Literal" in s], kernel.__name__
    standard_before = len(transition.is_valid.signatures)
    StructuredPerceptron(ArcEager(2), update="max_violation", max_iter=1).fit(X, heads)
    assert len(transition.is_valid.signatures) == standard_before
