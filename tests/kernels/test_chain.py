"""Chain kernels against brute-force enumeration and the pure-Python twins in naive.py."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skstruct import Viterbi
from skstruct._kernels import beam, chain
from skstruct.decoders import viterbi
from skstruct.engine._fused import Minibatch, fused_epoch
from skstruct.features import EncodedSequences
from skstruct.learners import AveragedWeights
from skstruct.structures import LinearChain
from skstruct.structures.emission_rows import EmissionRows
from skstruct.updates import StandardUpdate
from tests import naive, strategies


@given(strategies.chain_potentials())
def test_viterbi_matches_enumeration(potentials):
    path, score = chain.viterbi(*potentials)
    assert score == pytest.approx(naive.max_chain_score(*potentials))
    assert naive.chain_score(path, *potentials) == pytest.approx(score)


@given(strategies.chain_potentials())
def test_viterbi_matches_python_twin_including_ties(potentials):
    path, _ = chain.viterbi(*potentials)
    assert path.tolist() == naive.viterbi(*(p.tolist() for p in potentials))


@given(strategies.chain_potentials())
def test_zeroth_order_is_per_token_argmax(potentials):
    unary = potentials[0]
    n, n_labels = unary.shape
    path = np.empty(n, dtype=np.int32)
    backptr = np.empty((n, n_labels), dtype=np.int32)
    score = chain.viterbi_into(unary, n, *potentials[1:], False, backptr, path)
    assert path.tolist() == naive.viterbi(unary.tolist(), None, None, None, first_order=False)
    assert score == pytest.approx(unary.max(axis=1).sum())


def test_viterbi_textbook_example():
    # Wikipedia's "healthy/fever" HMM in log space: observations normal, cold, dizzy.
    start = np.log([0.6, 0.4])
    transition = np.log([[0.7, 0.3], [0.4, 0.6]])
    emission = np.log([[0.5, 0.4, 0.1], [0.1, 0.3, 0.6]])
    unary = emission[:, [0, 1, 2]].T
    path, score = viterbi(unary, transition, start)
    assert path.tolist() == [0, 0, 1]  # Healthy, Healthy, Fever
    assert np.exp(score) == pytest.approx(0.01512)


def test_public_viterbi_rejects_bad_shapes_and_values():
    with pytest.raises(ValueError, match="transition must have shape"):
        viterbi(np.zeros((3, 2)), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="unary must have shape"):
        viterbi(np.zeros((0, 2)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="NaN or infinite"):
        viterbi(np.array([[np.nan, 0.0]]), np.zeros((2, 2)))


def _encode(sentences, n_features):
    tokens = [tok for s in sentences for tok in s]
    indptr = np.zeros(len(tokens) + 1, dtype=np.int64)
    np.cumsum([len(t) for t in tokens], out=indptr[1:])
    indices = np.array([f for t in tokens for f, _ in t], dtype=np.int32)
    data = np.array([v for t in tokens for _, v in t], dtype=np.float64)
    offsets = np.zeros(len(sentences) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in sentences], out=offsets[1:])
    return EncodedSequences(indptr, indices, data, offsets, n_features)


@settings(max_examples=60, deadline=None)
@given(strategies.sparse_corpus(), st.booleans(), st.integers(0, 2**31 - 1))
def test_predict_batch_matches_python_twin(corpus, first_order, seed):
    sentences, _ = corpus
    structure = naive.full_chain(6, 3, int(first_order))
    dense = np.random.default_rng(seed).integers(-2, 3, structure.n_weights).astype(float)
    coef = naive.from_dense_chain_coef(structure, dense)
    model = naive.ChainModel(6, 3, first_order)
    w = _dict_weights(model, dense)
    got = Viterbi(order=int(first_order)).predict(structure, _encode(sentences, 6), coef)
    expected = [label for s in sentences for label in model.decode(s, w)]
    assert got.tolist() == expected


@settings(max_examples=60, deadline=None)
@given(strategies.sparse_corpus(), st.booleans(), st.booleans())
def test_add_chain_delta_is_phi_difference(corpus, first_order, full):
    sentences, labels = corpus
    encoded = _encode(sentences, 6)
    model = naive.ChainModel(6, 3, first_order)
    rng = np.random.default_rng(0)
    for i, sentence in enumerate(sentences):
        gold = np.array(labels[i], dtype=np.int32)
        pred = rng.integers(0, 3, gold.size).astype(np.int32)
        # sparse rows start empty: the pairs the delta touches are inserted first; full
        # rows (sparse=None) hold every pair and take the path that inserts nothing
        rows = EmissionRows.full(6, 3) if full else EmissionRows.empty(6, pool_size=64)
        structure = LinearChain(6, 3, int(first_order), rows)
        coef, coef_sum = np.zeros(structure.n_weights), np.zeros(structure.n_weights)
        assert chain.add_chain_delta(
            encoded.indptr, encoded.indices, encoded.data, encoded.offsets[i], gold, pred,
            gold.size, int(first_order), None, True, structure.rows.arrays, coef, coef_sum, 3,
            2.0, 3.0, None if full else True,
        )  # fmt: skip
        np.testing.assert_array_equal(coef_sum, 1.5 * coef)
        delta = model.phi(sentence, gold.tolist())
        for part, v in model.phi(sentence, pred.tolist()).items():
            delta[part] = delta.get(part, 0.0) - v
        np.testing.assert_allclose(
            naive.dense_chain_coef(structure, coef),
            model.to_flat({p: 2.0 * v for p, v in delta.items()}),
        )


@settings(max_examples=40, deadline=None)
@given(
    strategies.sparse_corpus(),
    st.booleans(),
    st.integers(1, 3),
    st.integers(0, 1000),
    st.sampled_from([1, 3]),
    st.sampled_from([1, 2]),
    st.booleans(),
)
def test_perceptron_epochs_match_python_twin(
    corpus, first_order, n_epochs, seed, batch, threads, full
):
    sentences, labels = corpus
    encoded = _encode(sentences, 6)
    gold = np.array([label for seq in labels for label in seq], dtype=np.int32)
    rng = np.random.default_rng(seed)
    orders = [rng.permutation(len(sentences)) for _ in range(n_epochs)]
    # full rows (as learners start with where dense_fits) take the epoch's path that
    # looks up and inserts no pair; empty rows grow
    structure = LinearChain(6, 3, int(first_order), EmissionRows.full(6, 3) if full else None)
    weights = AveragedWeights(structure)
    decoder, rule = Viterbi(order=int(first_order)), StandardUpdate()
    epoch = fused_epoch(structure, decoder, rule)
    minibatch = Minibatch(batch, threads)
    mistakes = [
        epoch(weights.structure, decoder, rule, encoded, gold, order, weights, minibatch)[
            "mistakes"
        ]
        for order in orders
    ]

    model = naive.ChainModel(6, 3, first_order)
    w, average, expected_mistakes = naive.perceptron(model, sentences, labels, orders, batch)
    assert mistakes == expected_mistakes
    grown = weights.structure
    np.testing.assert_array_equal(naive.dense_chain_coef(grown, weights.coef), model.to_flat(w))
    np.testing.assert_allclose(
        naive.dense_chain_coef(grown, weights.averaged()), model.to_flat(average), atol=1e-12
    )


def _dict_weights(model, coef):
    F, L = model.n_features, model.n_labels
    w = {}
    for f in range(F):
        for k in range(L):
            w[("emission", f, k)] = coef[f * L + k]
    base = F * L
    for a in range(L):
        for b in range(L):
            w[("transition", a, b)] = coef[base + a * L + b]
    for k in range(L):
        w[("start", k)] = coef[base + L * L + k]
        w[("stop", k)] = coef[base + L * L + L + k]
    return w


@settings(max_examples=30, deadline=None)
@given(strategies.sparse_corpus(), st.integers(0, 2), st.integers(0, 2**31 - 1))
def test_decoding_in_parts_decodes_alike(corpus, order, seed):
    # prediction decodes a part of the sentences per thread: any split gives the paths
    # of one call over them all
    sentences, _ = corpus
    encoded = _encode(sentences, 6)
    structure = naive.full_chain(6, 3, order)
    coef = np.random.default_rng(seed).normal(size=structure.n_weights)
    arrays = (encoded.indptr, encoded.indices, encoded.data, encoded.offsets,
              structure.rows.arrays, coef, 3, order, structure.trigrams)  # fmt: skip
    longest = int(np.diff(encoded.offsets).max())
    all_sentences = np.arange(len(sentences), dtype=np.int64)
    parts = np.array_split(np.random.default_rng(seed).permutation(all_sentences), 3)

    def viterbi_paths(groups):
        paths = np.full(encoded.offsets[-1], -1, dtype=np.int32)
        backptr2 = np.empty((longest, 3, 3), dtype=np.int32) if order == 2 else None
        for group in groups:
            chain.decode_sentences(*arrays, group, paths, np.empty((longest, 3)),
                                   np.empty((longest, 3), dtype=np.int32), backptr2)  # fmt: skip
        return paths

    def beam_paths(groups):
        paths = np.full(encoded.offsets[-1], -1, dtype=np.int32)
        for group in groups:
            beam.beam_decode_sentences(*arrays, 2, group, paths, np.empty((longest, 3)))
        return paths

    whole = viterbi_paths([all_sentences])
    assert (whole >= 0).all()
    np.testing.assert_array_equal(viterbi_paths(parts), whole)
    np.testing.assert_array_equal(beam_paths(parts), beam_paths([all_sentences]))


@pytest.mark.parametrize("order", [0, 1, 2])
def test_split_by_order_is_split_coef_with_a_trigram_array(order):
    # the prange kernels' split: the layout's views, and an empty trigram below order 2
    # (never an optional one: numba's parallel lowering mishandles those); split_coef
    # gives the same views with the trigram None below order 2
    L = 3
    coef = np.arange(chain.n_structure_weights(L, order) + 7, dtype=np.float64)
    a, m = L * (L + 2), (L**3 if order == 2 else 0)
    side = L if m else 0
    layout = [coef[a + m :], coef[: L * L].reshape(L, L), coef[L * L : L * (L + 1)],
              coef[L * (L + 1) : a], coef[a : a + m].reshape(side, side, side)]  # fmt: skip
    views = chain.split_by_order(coef, L, order)
    expected = chain.split_coef(coef, L, True if order == 2 else None)
    for got, split, want in zip(views[:4], expected[:4], layout[:4]):
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(split, want)
        assert np.shares_memory(got, coef)
    np.testing.assert_array_equal(views[4], layout[4])
    if order == 2:
        np.testing.assert_array_equal(expected[4], layout[4])
    else:
        assert expected[4] is None and views[4].shape == (0, 0, 0)
    for signature in chain.split_by_order.nopython_signatures:
        assert "Optional" not in str(signature.return_type)
