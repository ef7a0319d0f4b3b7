"""Tree marginals and log-partition functions against enumeration of trees (naive.py)."""

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.special import logsumexp

from skstruct._kernels.tree_marginals import inside_outside, matrix_tree
from tests import naive

KERNELS = [(inside_outside, True), (matrix_tree, False)]  # (kernel, projective space)
kernels = pytest.mark.parametrize(
    "kernel, projective", KERNELS, ids=["inside_outside", "matrix_tree"]
)
roots = pytest.mark.parametrize("single_root", [False, True], ids=["multi", "single"])
TOL = {"rtol": 1e-9, "atol": 1e-9}


@functools.cache
def _trees(n, projective, single_root):
    """All trees of n words as an int array (n_trees, n + 1)."""
    return np.array(list(naive.all_trees(n, projective, single_root)))


def _brute_force(theta, projective, single_root):
    """(log Z, marginals) by enumerating every tree of the space."""
    n = theta.shape[0] - 1
    trees = _trees(n, projective, single_root)
    words = np.arange(1, n + 1)
    with np.errstate(invalid="ignore"):  # -inf - -inf when no tree has a finite weight
        scores = theta[trees[:, 1:], words].sum(axis=1)
        log_z = logsumexp(scores)
        weights = np.exp(scores - log_z)
    mu = np.zeros_like(theta)
    for d in words:
        np.add.at(mu[:, d], trees[:, d], weights)
    return log_z, mu


def _run(kernel, theta, single_root, pad=0):
    """Call a kernel with an ``out`` full of NaN, ``pad`` rows and columns too large."""
    n = theta.shape[0] - 1
    out = np.full((n + 1 + pad, n + 1 + pad), np.nan)
    log_z = kernel(theta, n, single_root, out)
    assert np.isnan(out[n + 1 :]).all() and np.isnan(out[:, n + 1 :]).all()
    return log_z, out[: n + 1, : n + 1]


def _check(kernel, projective, theta, single_root, pad=0):
    log_z, mu = _run(kernel, theta, single_root, pad)
    expected_log_z, expected_mu = _brute_force(theta, projective, single_root)
    assert np.isfinite(mu).all()
    assert np.allclose(log_z, expected_log_z, **TOL)
    assert np.allclose(mu, expected_mu, **TOL)
    return log_z, mu


@kernels
@roots
@pytest.mark.parametrize("n", range(1, 6))
@pytest.mark.parametrize("seed", range(4))
def test_agrees_with_enumeration(kernel, projective, single_root, n, seed):
    theta = 3 * np.random.default_rng(seed).normal(size=(n + 1, n + 1))
    _, mu = _check(kernel, projective, theta, single_root, pad=seed % 2)
    assert np.allclose(mu[:, 1:].sum(axis=0), 1.0, **TOL)  # one head per word
    assert (mu[:, 0] == 0).all() and (np.diag(mu) == 0).all()
    if single_root:
        assert np.isclose(mu[0].sum(), 1.0, **TOL)


@kernels
@roots
@pytest.mark.parametrize("n", range(1, 6))
def test_zero_potentials_count_trees(kernel, projective, single_root, n):
    log_z, mu = _run(kernel, np.zeros((n + 1, n + 1)), single_root)
    n_trees = len(_trees(n, projective, single_root))
    assert np.isclose(log_z, np.log(n_trees), **TOL)
    assert np.allclose(mu[:, 1:].sum(axis=0), 1.0, **TOL)


@kernels
@roots
def test_one_word(kernel, projective, single_root):
    theta = np.array([[np.nan, 1.5], [-np.inf, np.nan]])
    log_z, mu = _run(kernel, theta, single_root)
    assert log_z == 1.5
    assert mu.tolist() == [[0.0, 1.0], [0.0, 0.0]]


@kernels
@roots
@pytest.mark.parametrize("seed", range(3))
def test_ignores_column_zero_and_the_diagonal(kernel, projective, single_root, seed):
    theta = np.random.default_rng(seed).normal(size=(5, 5))
    expected = _run(kernel, theta, single_root)
    theta[:, 0] = np.nan
    np.fill_diagonal(theta, np.inf)
    log_z, mu = _run(kernel, theta, single_root)
    assert log_z == expected[0] and (mu == expected[1]).all()


@kernels
@roots
@pytest.mark.parametrize("n", range(2, 6))
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("offset", [0.0, 1e5])
def test_large_potentials(kernel, projective, single_root, n, seed, offset):
    theta = 1e4 * np.random.default_rng(seed).normal(size=(n + 1, n + 1)) + offset
    log_z, _ = _check(kernel, projective, theta, single_root)
    assert np.isfinite(log_z)


@kernels
@roots
def test_best_arcs_forming_a_cycle(kernel, projective, single_root):
    # Each word's best head is the other word: a determinant of exp(theta) would
    # cancel to exp(-1e4) relative to its entries, i.e. to 0.
    theta = np.zeros((4, 4))
    theta[1, 2] = theta[2, 1] = 1e4
    theta[2, 3] = 5e3
    _check(kernel, projective, theta, single_root)


@kernels
@roots
@pytest.mark.parametrize("seed", range(40))
def test_forbidden_arcs(kernel, projective, single_root, seed):
    rng = np.random.default_rng(seed)
    n = 2 + seed % 4
    theta = 2 * rng.normal(size=(n + 1, n + 1))
    theta[rng.random(theta.shape) < 0.4] = -np.inf
    log_z, mu = _run(kernel, theta, single_root)
    expected_log_z, expected_mu = _brute_force(theta, projective, single_root)
    if expected_log_z == -np.inf:
        assert log_z == -np.inf and (mu == 0).all()
    else:
        assert np.allclose(log_z, expected_log_z, **TOL)
        assert np.allclose(mu, expected_mu, **TOL)


@roots
def test_word_with_only_a_root_arc(single_root):
    # Word 1 can hang from nothing but the root: single-root elimination must keep it last.
    theta = np.random.default_rng(0).normal(size=(5, 5))
    theta[2:, 1] = -np.inf
    _check(matrix_tree, False, theta, single_root)


@roots
@pytest.mark.parametrize("n", [8, 20])
def test_matrix_tree_matches_the_determinant(single_root, n):
    """Koo et al. (2007) by numpy's LU, where it is accurate: small potentials, n too
    large to enumerate."""
    theta = np.random.default_rng(n).normal(size=(n + 1, n + 1))
    A = np.exp(theta)
    np.fill_diagonal(A, 0.0)
    words = A[1:, 1:]
    laplacian = np.diag(words.sum(axis=0)) - words
    if single_root:
        laplacian[0] = A[0, 1:]
    else:
        laplacian += np.diag(A[0, 1:])
    sign, expected_log_z = np.linalg.slogdet(laplacian)
    inv = np.linalg.inv(laplacian)
    expected = np.zeros_like(theta)
    not_first = np.arange(n) > 0 if single_root else np.ones(n, dtype=bool)
    for m in range(n):
        expected[0, m + 1] = A[0, m + 1] * (inv[m, 0] if single_root else inv[m, m])
        for h in range(n):
            if h != m:
                expected[h + 1, m + 1] = words[h, m] * (
                    not_first[m] * inv[m, m] - not_first[h] * inv[m, h]
                )
    log_z, mu = _run(matrix_tree, theta, single_root)
    assert sign == 1.0
    assert np.allclose(log_z, expected_log_z, **TOL)
    assert np.allclose(mu, expected, **TOL)


@roots
@pytest.mark.parametrize("n", [30, 60])
def test_long_sentences_are_distributions(single_root, n):
    theta = 5 * np.random.default_rng(n).normal(size=(n + 1, n + 1))
    for kernel, _ in KERNELS:
        log_z, mu = _run(kernel, theta, single_root)
        assert np.isfinite(log_z)
        assert (mu >= 0).all() and (mu <= 1 + 1e-9).all()
        assert np.allclose(mu[:, 1:].sum(axis=0), 1.0, **TOL)
        if single_root:
            assert np.isclose(mu[0].sum(), 1.0, **TOL)
    # Every projective tree is a tree.
    assert _run(inside_outside, theta, single_root)[0] < _run(matrix_tree, theta, single_root)[0]


_potential = st.floats(-20, 20, allow_nan=False, width=64)


@st.composite
def _theta(draw, max_words=5):
    n = draw(st.integers(1, max_words))
    return draw(arrays(np.float64, (n + 1, n + 1), elements=_potential))


@settings(max_examples=60, deadline=None)
@given(_theta(), st.booleans(), st.sampled_from(KERNELS))
def test_agrees_with_enumeration_hypothesis(theta, single_root, kernel_space):
    kernel, projective = kernel_space
    _check(kernel, projective, theta, single_root)
