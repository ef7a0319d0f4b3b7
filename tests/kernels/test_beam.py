"""Second-order Viterbi and beam search against brute force and a pure-Python twin."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from skstruct import BeamSearch
from skstruct._kernels import chain
from skstruct.structures import ChainScores, LinearChain
from skstruct.structures.emission_rows import EmissionRows
from tests import naive

# Multiples of 1/4 add up exactly in any order, so the twin (which sums whole paths)
# and the kernel (which sums prefix by prefix) see the same ties; 0 and +-1 make many.
_scores = st.integers(-12, 12).map(lambda k: k / 4)


@st.composite
def second_order_potentials(draw, max_tokens=5, max_labels=3):
    n = draw(st.integers(1, max_tokens))
    L = draw(st.integers(1, max_labels))
    elements = draw(st.sampled_from([_scores, st.integers(-1, 1).map(float)]))
    return (
        draw(arrays(np.float64, (n, L), elements=elements)),
        draw(arrays(np.float64, (L, L), elements=elements)),
        draw(arrays(np.float64, (L,), elements=elements)),
        draw(arrays(np.float64, (L,), elements=elements)),
        draw(arrays(np.float64, (L, L, L), elements=elements)),
    )


@given(second_order_potentials())
def test_second_order_viterbi_matches_enumeration(potentials):
    path, score = chain.viterbi2(*potentials)
    assert score == pytest.approx(naive.max_chain_score_order(*potentials, 2))
    assert naive.chain_score_order(path, *potentials, 2) == pytest.approx(score)


def _chain_with(potentials, order):
    """A chain structure and weights whose transition parts are the given potentials."""
    structure = LinearChain(0, potentials[0].shape[1], order)
    coef = np.zeros(structure.n_weights)
    _, transition, start, stop, trigram = structure.split(coef)
    transition[:], start[:], stop[:] = potentials[1], potentials[2], potentials[3]
    if order == 2:
        trigram[:] = potentials[4]
    return structure, coef


def _search(potentials, order, beam_size, gold):
    structure, coef = _chain_with(potentials, order)
    scores = ChainScores(potentials[0], *structure.split(coef)[1:])
    return BeamSearch(beam_size).search(structure, scores, np.asarray(gold, dtype=np.int32))


@settings(max_examples=150)
@given(second_order_potentials(), st.integers(0, 2), st.data())
def test_wide_beam_is_exact(potentials, order, data):
    L = potentials[0].shape[1]
    gold = data.draw(
        st.lists(st.integers(0, L - 1), min_size=len(potentials[0]), max_size=len(potentials[0]))
    )
    trace = _search(potentials, order, L**order + data.draw(st.integers(0, 2)), gold)
    best = naive.max_chain_score_order(*potentials, order)
    assert trace.best_score[-1] == pytest.approx(best)
    assert naive.chain_score_order(trace.path, *potentials, order) == pytest.approx(best)
    # Even exact DP search drops a gold prefix beaten within its class; that drop is
    # then a violation against the best prefix, which early update relies on.
    assert (trace.margin[~trace.gold_in_beam] >= 0).all()


@settings(max_examples=200)
@given(second_order_potentials(), st.integers(0, 2), st.integers(1, 3), st.data())
def test_beam_matches_python_twin(potentials, order, beam_size, data):
    n, L = potentials[0].shape
    gold = data.draw(st.lists(st.integers(0, L - 1), min_size=n, max_size=n))
    trace = _search(potentials, order, beam_size, gold)
    path, best_scores, in_beam = naive.beam_search(
        *(p.tolist() for p in potentials), order, beam_size, gold
    )
    assert trace.path.tolist() == path
    np.testing.assert_allclose(trace.best_score, best_scores, atol=1e-9)
    assert trace.gold_in_beam.tolist() == in_beam
    for t in range(n):
        prefix = trace.prefix(t)
        scored = naive.chain_score_order(prefix, *potentials, order, with_stop=t == n - 1)
        assert scored == pytest.approx(trace.best_score[t])
        gold_scored = naive.chain_score_order(
            gold[: t + 1], *potentials, order, with_stop=t == n - 1
        )
        assert gold_scored == pytest.approx(trace.gold_score[t])
        assert trace.best_is_gold[t] == (prefix.tolist() == gold[: t + 1] and in_beam[t])


@settings(max_examples=100)
@given(second_order_potentials(max_tokens=6), st.integers(1, 2), st.data())
def test_laso_restarts_keep_gold_alive(potentials, order, data):
    n, L = potentials[0].shape
    gold = np.asarray(
        data.draw(st.lists(st.integers(0, L - 1), min_size=n, max_size=n)), dtype=np.int32
    )
    structure, coef = _chain_with(potentials, order)
    scores = ChainScores(potentials[0], *structure.split(coef)[1:])
    trace = BeamSearch(1).search(structure, scores, gold, restarts=True)
    for t in np.flatnonzero(trace.fell_off):
        assert not trace.gold_in_beam[t] and trace.margin[t] >= 0
        # after the restart the search continues from the gold prefix
        if t + 1 < n:
            assert trace.prefix(t + 1)[: t + 1].tolist() == gold[: t + 1].tolist()


@settings(max_examples=60)
@given(st.integers(0, 2), st.integers(1, 5), st.integers(1, 6), st.integers(0, 10**6))
def test_add_chain_delta_of_prefixes_is_phi_difference(order, n_labels, n_tokens, seed):
    rng = np.random.default_rng(seed)
    n_features = 4
    tokens = [
        [(int(f), float(rng.integers(1, 3))) for f in rng.choice(n_features, 2, replace=False)]
        for _ in range(n_tokens)
    ]
    gold = rng.integers(0, n_labels, n_tokens).astype(np.int32)
    length = int(rng.integers(1, n_tokens + 1))
    pred = rng.integers(0, n_labels, length).astype(np.int32)
    indptr = np.arange(0, 2 * n_tokens + 1, 2, dtype=np.int64)
    indices = np.array([f for tok in tokens for f, _ in tok], dtype=np.int32)
    values = np.array([v for tok in tokens for _, v in tok])
    structure = LinearChain(n_features, n_labels, order, EmissionRows.empty(n_features, 64))
    coef, coef_sum = np.zeros(structure.n_weights), np.zeros(structure.n_weights)
    assert chain.add_chain_delta(
        indptr, indices, values, 0, gold, pred, length, order, structure.trigrams,
        length == n_tokens, structure.rows.arrays, coef, coef_sum, n_labels, 1.0, 0.0, True,
    )  # fmt: skip
    assert not coef_sum.any()
    # phi(gold prefix) - phi(pred) through scores: w . delta for random w, both ways
    dense_structure = naive.full_chain(n_features, n_labels, order)
    w = rng.normal(size=dense_structure.n_weights)
    emission, transition, start, stop, trigram = dense_structure.split(w)
    emission = emission.reshape(n_features, n_labels)
    coef = naive.from_dense_chain_coef(dense_structure, naive.dense_chain_coef(structure, coef))
    unary = np.array(
        [
            [sum(v * emission[f, k] for f, v in tok) for k in range(n_labels)]
            for tok in tokens[:length]
        ]
    )
    full = length == n_tokens

    def score(path):
        return naive.chain_score_order(
            path, unary, transition, start, stop, trigram, order, with_stop=full
        )

    assert coef @ w == pytest.approx(score(gold[:length].tolist()) - score(pred.tolist()))
