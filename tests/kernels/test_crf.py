"""The CRF's negative log-likelihood and gradient against enumeration of every label
sequence; the same on any number of threads."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import logsumexp

from skstruct._kernels import crf as _crf
from skstruct.structures import EmissionRows, LinearChain
from tests.naive import all_paths


def _corpus(seed, n_sentences, max_len, n_features, n_labels):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, max_len + 1, size=n_sentences)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    n_tokens = int(offsets[-1])
    per_token = rng.integers(1, 4, size=n_tokens)
    indptr = np.concatenate([[0], np.cumsum(per_token)]).astype(np.int64)
    indices = np.concatenate(
        [rng.choice(n_features, size=m, replace=False) for m in per_token]
    ).astype(np.int32)
    data = rng.choice([1.0, 0.5, -2.0], size=indices.size)
    labels = rng.integers(0, n_labels, size=n_tokens).astype(np.int32)
    return indptr, indices, data, offsets, labels


def _chain(seed, n_features, n_labels, full):
    """A chain whose rows hold every pair, or a random subset (CRFsuite's seen pairs)."""
    rng = np.random.default_rng(seed + 1)
    if full:
        rows = EmissionRows.full(n_features, n_labels)
    else:
        codes = np.flatnonzero(rng.random(n_features * n_labels) < 0.5).astype(np.int64)
        rows = EmissionRows.from_codes(codes, n_features, n_labels)
    chain = LinearChain(n_features, n_labels, order=1, rows=rows)
    coef = rng.normal(size=chain.n_weights) * 2.0
    return chain, coef


def _enumerated(chain, coef, indptr, indices, data, offsets, labels, weights=None):
    """NLL and gradient (in coef's layout) by scoring every label sequence; sentence
    ``i`` counts ``weights[i]`` times (1 without)."""
    weights = np.ones(offsets.size - 1) if weights is None else weights
    L = chain.n_labels
    _, transition, start, stop, _ = chain.split(coef)
    dense = chain.emission_matrix(coef).toarray()
    nll, grad = 0.0, np.zeros_like(coef)
    g_emission, g_transition, g_start, g_stop, _ = chain.split(grad)
    g_dense = np.zeros_like(dense)
    for i in range(offsets.size - 1):
        lo, hi = offsets[i], offsets[i + 1]
        n = hi - lo
        feats = [(indices[indptr[t] : indptr[t + 1]], data[indptr[t] : indptr[t + 1]])
                 for t in range(lo, hi)]  # fmt: skip
        unary = np.array([[v @ dense[f, k] for k in range(L)] for f, v in feats])

        def score(path, unary=unary, n=n):
            s = start[path[0]] + stop[path[-1]] + sum(unary[t, path[t]] for t in range(n))
            return s + sum(transition[path[t - 1], path[t]] for t in range(1, n))

        paths = list(all_paths(n, L))
        scores = np.array([score(p) for p in paths])
        log_z = logsumexp(scores)
        gold = labels[lo:hi]
        nll += weights[i] * (log_z - score(gold))
        for path, weight in [*zip(paths, np.exp(scores - log_z)), (gold, -1.0)]:
            weight *= weights[i]
            g_start[path[0]] += weight
            g_stop[path[-1]] += weight
            for t in range(n):
                f, v = feats[t]
                g_dense[f, path[t]] += weight * v
                if t:
                    g_transition[path[t - 1], path[t]] += weight
    rows = chain.rows
    for f in range(chain.n_features):
        for p in range(rows.start[f], rows.start[f] + rows.length[f]):
            g_emission[p] = g_dense[f, rows.labels[p]]
    return nll, grad


def _kernel(chain, coef, corpus, n_chunks, parallel, weights=None):
    indptr, indices, data, offsets, labels = corpus
    n_sentences = offsets.size - 1
    weights = np.ones(n_sentences) if weights is None else weights
    chunk_start = np.linspace(0, n_sentences, n_chunks + 1).astype(np.int64)
    log_z = np.full(n_chunks, np.nan)
    grads = np.full((n_chunks, coef.size), np.nan)
    chunks = np.arange(n_chunks, dtype=np.int64)
    groups = np.array_split(chunks, 2) if parallel else [chunks]  # as threads take them
    for group in groups:
        _crf.chunk_expectations(indptr, indices, data, offsets, chain.rows.arrays, coef,
                                chain.n_labels, chunk_start, group, weights, log_z,
                                grads)  # fmt: skip
    empirical = np.zeros_like(coef)
    _crf.empirical_counts(indptr, indices, data, offsets, labels, chain.rows.arrays,
                          chain.n_labels, weights, empirical)  # fmt: skip
    return log_z.sum() - coef @ empirical, grads.sum(axis=0) - empirical


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3), st.booleans(), st.booleans())
def test_nll_and_gradient_equal_enumeration(seed, n_labels, full, weighted):
    corpus = _corpus(seed, n_sentences=4, max_len=4, n_features=5, n_labels=n_labels)
    chain, coef = _chain(seed, 5, n_labels, full)
    weights = np.random.default_rng(seed).uniform(0.0, 3.0, size=4) if weighted else None
    want_nll, want_grad = _enumerated(chain, coef, *corpus, weights)
    nll, grad = _kernel(chain, coef, corpus, n_chunks=2, parallel=False, weights=weights)
    assert nll == pytest.approx(want_nll, rel=1e-9, abs=1e-9)
    np.testing.assert_allclose(grad, want_grad, rtol=1e-8, atol=1e-9)


def test_huge_weights_stay_finite_and_exact():
    corpus = _corpus(3, n_sentences=3, max_len=4, n_features=5, n_labels=3)
    chain, coef = _chain(3, 5, 3, full=True)
    coef = coef * 300.0  # exp would overflow without the shifts
    want_nll, want_grad = _enumerated(chain, coef, *corpus)
    nll, grad = _kernel(chain, coef, corpus, n_chunks=1, parallel=False)
    assert nll == pytest.approx(want_nll, rel=1e-9)
    np.testing.assert_allclose(grad, want_grad, rtol=1e-7, atol=1e-7)


def test_threads_never_change_the_result():
    corpus = _corpus(7, n_sentences=60, max_len=9, n_features=30, n_labels=5)
    chain, coef = _chain(7, 30, 5, full=False)
    serial = _kernel(chain, coef, corpus, n_chunks=8, parallel=False)
    threaded = _kernel(chain, coef, corpus, n_chunks=8, parallel=True)
    assert serial[0] == threaded[0]
    np.testing.assert_array_equal(serial[1], threaded[1])


def _sgd_twin(chain, corpus, order, v, free, lam, t0, t, weights):
    """CRFsuite's l2sgd epoch in plain Python: marginals by enumerating every label
    sequence, weights as ``decay * v``; sentence ``i``'s step and loss times
    ``weights[i]``."""
    indptr, indices, data, offsets, labels = corpus
    L = chain.n_labels
    rows = chain.rows
    v = v.copy()
    decay, total = 1.0, 0.0
    for i in order:
        lo, hi = offsets[i], offsets[i + 1]
        n = hi - lo
        eta = 1.0 / (lam * (t0 + t))
        decay *= 1.0 - eta * lam
        gain = weights[i] * eta / decay
        w = decay * v
        _, transition, start, stop, _ = chain.split(w)
        dense = chain.emission_matrix(w).toarray()
        feats = [(indices[indptr[s] : indptr[s + 1]], data[indptr[s] : indptr[s + 1]])
                 for s in range(lo, hi)]  # fmt: skip
        unary = np.array([[vals @ dense[f, k] for k in range(L)] for f, vals in feats])

        def score(path, unary=unary, n=n, transition=transition, start=start, stop=stop):
            s = start[path[0]] + stop[path[-1]] + sum(unary[q, path[q]] for q in range(n))
            return s + sum(transition[path[q - 1], path[q]] for q in range(1, n))

        paths = list(all_paths(n, L))
        scores = np.array([score(p) for p in paths])
        log_z = logsumexp(scores)
        gold = tuple(labels[lo:hi])
        total += weights[i] * (log_z - score(gold))
        v_emission, v_transition, v_start, v_stop, _ = chain.split(v)
        f_transition = free[: L * L].reshape(L, L)
        f_start, f_stop = free[L * L : L * (L + 1)], free[L * (L + 1) :]
        for path, weight in [*zip(paths, -np.exp(scores - log_z)), (gold, 1.0)]:
            v_start[path[0]] += gain * weight * f_start[path[0]]
            v_stop[path[-1]] += gain * weight * f_stop[path[-1]]
            for q in range(n):
                f, vals = feats[q]
                for feature, value in zip(f, vals):
                    p = rows.position_of(feature, path[q])
                    if p >= 0:
                        v_emission[p] += gain * weight * value
                if q:
                    j, k = path[q - 1], path[q]
                    v_transition[j, k] += gain * weight * f_transition[j, k]
        t += 1
    return v * decay, total


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3), st.booleans())
def test_sgd_epoch_equals_its_twin(seed, n_labels, full):
    corpus = _corpus(seed, n_sentences=5, max_len=4, n_features=5, n_labels=n_labels)
    chain, coef = _chain(seed, 5, n_labels, full)
    v = coef * 0.3
    rng = np.random.default_rng(seed)
    free = (rng.random(n_labels * (n_labels + 2)) < 0.7).astype(float)
    order = rng.permutation(5)
    lam, t0, t = 0.05, 20.0, 3.0
    weights = rng.uniform(0.0, 3.0, size=5)
    want_v, want_loss = _sgd_twin(chain, corpus, order, v, free, lam, t0, t, weights)
    indptr, indices, data, offsets, labels = corpus
    got_v, clock = v.copy(), np.array([t])
    loss = _crf.sgd_epoch(indptr, indices, data, offsets, labels, chain.rows.arrays,
                          chain.n_labels, order, got_v, free, lam, t0, clock, 4,
                          weights)  # fmt: skip
    assert clock[0] == t + 5
    assert loss == pytest.approx(want_loss, rel=1e-9)
    np.testing.assert_allclose(got_v, want_v, rtol=1e-9, atol=1e-12)


def test_corpus_nll_equals_enumeration():
    corpus = _corpus(11, n_sentences=4, max_len=4, n_features=5, n_labels=3)
    chain, coef = _chain(11, 5, 3, full=False)
    weights = np.array([1.0, 0.0, 2.5, 0.3])
    want, _ = _enumerated(chain, coef, *corpus, weights)
    indptr, indices, data, offsets, labels = corpus
    got = _crf.corpus_nll(indptr, indices, data, offsets, labels, chain.rows.arrays, 3,
                          np.arange(4), coef, weights)  # fmt: skip
    assert got == pytest.approx(want, rel=1e-9)
