"""L-BFGS and OWL-QN (skstruct.solvers._lbfgs) against a pure-Python twin: proximal
gradient descent (ISTA) on the same L1-regularised objective, run to convergence."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize

from skstruct.solvers._lbfgs import LINESEARCHES, minimize_lbfgs, pseudo_gradient


def _logistic(seed, n=60, d=8):
    """A logistic regression loss and its gradient (a smooth, convex f)."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, d))
    b = np.where(A @ rng.normal(size=d) + rng.normal(size=n) > 0, 1.0, -1.0)

    def fun(x):
        z = -b * (A @ x)
        loss = np.logaddexp(0.0, z).sum()
        return loss, A.T @ (-b / (1.0 + np.exp(-z)))

    lipschitz = 0.25 * np.linalg.norm(A, 2) ** 2
    return fun, d, lipschitz


def _ista(fun, d, c1, lipschitz, n_steps=20_000):
    """Proximal gradient with step 1/L, one coordinate at a time in plain Python."""
    x = [0.0] * d
    for _ in range(n_steps):
        _, g = fun(np.array(x))
        for i in range(d):
            z = x[i] - g[i] / lipschitz
            threshold = c1 / lipschitz
            x[i] = z - threshold if z > threshold else z + threshold if z < -threshold else 0.0
    return np.array(x)


def _pseudo_gradient_twin(x, g, c1):
    out = []
    for xi, gi in zip(x, g):
        if xi > 0:
            out.append(gi + c1)
        elif xi < 0:
            out.append(gi - c1)
        elif gi + c1 < 0:
            out.append(gi + c1)
        elif gi - c1 > 0:
            out.append(gi - c1)
        else:
            out.append(0.0)
    return np.array(out)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from([-1.5, 0.0, 0.0, 2.0]), min_size=1, max_size=8),
    st.integers(0, 1000),
    st.sampled_from([0.0, 0.5, 3.0]),
)
def test_pseudo_gradient_equals_its_twin(x, seed, c1):
    x = np.array(x)
    g = np.random.default_rng(seed).normal(scale=2.0, size=x.size)
    np.testing.assert_array_equal(pseudo_gradient(x, g, c1), _pseudo_gradient_twin(x, g, c1))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("c1", [1.0, 8.0])
def test_owlqn_finds_the_l1_minimiser_of_its_twin(seed, c1):
    fun, d, lipschitz = _logistic(seed)
    want = _ista(fun, d, c1, lipschitz)
    got = minimize_lbfgs(fun, np.zeros(d), c1=c1, epsilon=1e-10, period=0, max_iterations=500)
    np.testing.assert_allclose(got.x, want, atol=1e-5)
    assert np.array_equal(got.x == 0.0, np.abs(want) < 1e-9)  # the same weights exactly zero
    if c1 == 8.0:
        assert (want == 0.0).any()  # the test means something: the L1 term zeroes weights


def test_owlqn_solution_satisfies_the_optimality_conditions():
    fun, d, _ = _logistic(5, d=20)
    c1 = 4.0
    x = minimize_lbfgs(fun, np.zeros(d), c1=c1, epsilon=1e-10, period=0).x
    _, g = fun(x)
    nonzero = x != 0.0
    np.testing.assert_allclose(g[nonzero], -c1 * np.sign(x[nonzero]), atol=1e-6)
    assert np.all(np.abs(g[~nonzero]) <= c1 + 1e-6)
    assert (~nonzero).sum() >= 1


@pytest.mark.parametrize("linesearch", LINESEARCHES)
def test_lbfgs_matches_scipy_without_l1(linesearch):
    fun, d, _ = _logistic(3)

    def ridge(x):
        f, g = fun(x)
        return f + 0.5 * x @ x, g + x

    want = minimize(ridge, np.zeros(d), jac=True, method="L-BFGS-B", tol=1e-14).x
    got = minimize_lbfgs(ridge, np.zeros(d), epsilon=1e-6, period=0, linesearch=linesearch)
    assert got.success, got.message
    np.testing.assert_allclose(got.x, want, atol=1e-5)


def test_objective_never_rises_and_the_callback_sees_every_iteration():
    fun, d, _ = _logistic(4)
    seen = []
    result = minimize_lbfgs(fun, np.zeros(d), c1=1.0, max_iterations=15, callback=seen.append)
    assert [s.nit for s in seen] == list(range(1, result.nit + 1))
    losses = [s.fun for s in seen]
    assert all(a >= b for a, b in itertools.pairwise(losses))
    assert result.nfev >= result.nit


def test_stopping_rules():
    fun, d, _ = _logistic(6)
    capped = minimize_lbfgs(fun, np.zeros(d), c1=0.5, max_iterations=3, epsilon=0, period=0)
    assert capped.nit == 3 and "maximum number of iterations" in capped.message
    loose = minimize_lbfgs(fun, np.zeros(d), c1=0.5, epsilon=1e-1, period=0)
    tight = minimize_lbfgs(fun, np.zeros(d), c1=0.5, epsilon=1e-8, period=0)
    assert "epsilon" in loose.message and loose.nit < tight.nit
    slow = minimize_lbfgs(fun, np.zeros(d), c1=0.5, epsilon=0, period=2, delta=1e-2)
    assert "delta" in slow.message and slow.nit < tight.nit


def test_unknown_linesearch_is_refused():
    with pytest.raises(ValueError, match="linesearch must be one of"):
        minimize_lbfgs(lambda x: (0.0, x), np.zeros(2), linesearch="Armijo")
