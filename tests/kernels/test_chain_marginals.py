"""Forward-backward against enumeration of every label sequence."""

import numpy as np
import pytest
from hypothesis import given, settings
from scipy.special import logsumexp

from skstruct._kernels.chain_marginals import forward_backward
from tests.naive import all_paths, chain_score
from tests.strategies import chain_potentials


def _enumerated(unary, transition, start, stop):
    """log Z, token marginals and expected transition counts by brute force."""
    n, L = unary.shape
    paths = list(all_paths(n, L))
    scores = np.array([chain_score(p, unary, transition, start, stop) for p in paths])
    log_z = logsumexp(scores)
    prob = np.exp(scores - log_z)
    mu_unary, mu_pair = np.zeros((n, L)), np.zeros((L, L))
    for p, w in zip(paths, prob):
        for t, label in enumerate(p):
            mu_unary[t, label] += w
            if t:
                mu_pair[p[t - 1], label] += w
    return log_z, mu_unary, mu_pair


def _forward_backward(unary, transition, start, stop):
    n, L = unary.shape
    mu_unary, mu_pair = np.full((n, L), np.nan), np.full((L, L), np.nan)
    log_z = forward_backward(unary, n, transition, start, stop, mu_unary, mu_pair)
    return log_z, mu_unary, mu_pair


@settings(max_examples=200, deadline=None)
@given(chain_potentials(max_tokens=5, max_labels=3))
def test_marginals_and_log_partition_equal_enumeration(potentials):
    expected = _enumerated(*potentials)
    for got, want in zip(_forward_backward(*potentials), expected):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("n, L", [(1, 1), (1, 4), (3, 2), (5, 3)])
def test_zero_potentials_count_the_outputs(n, L):
    zeros = np.zeros((n, L)), np.zeros((L, L)), np.zeros(L), np.zeros(L)
    log_z, mu_unary, mu_pair = _forward_backward(*zeros)
    assert log_z == pytest.approx(n * np.log(L))
    np.testing.assert_allclose(mu_unary, 1.0 / L)
    np.testing.assert_allclose(mu_pair, (n - 1) / L**2)


@pytest.mark.parametrize("shift", [1e4, -1e5])
def test_huge_potentials_stay_exact(shift):
    rng = np.random.default_rng(0)
    unary = rng.normal(size=(4, 3)) * 1e3 + shift
    transition, start, stop = rng.normal(size=(3, 3)) * 1e3, rng.normal(size=3), rng.normal(size=3)
    expected = _enumerated(unary, transition, start, stop)
    got = _forward_backward(unary, transition, start, stop)
    assert np.all(np.isfinite(got[1]))
    for g, want in zip(got, expected):
        np.testing.assert_allclose(g, want, rtol=1e-9, atol=1e-9)
