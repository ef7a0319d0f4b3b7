"""LinearChainCRF: L-BFGS on the CRF likelihood (the kernel is tested against
enumeration in tests/kernels/test_crf.py)."""

import numpy as np
import pytest
from sklearn.base import clone

from skstruct import TokenFeatures
from skstruct.datasets import make_chain_data
from skstruct.learners.crf import LinearChainCRF
from skstruct.solvers._likelihood import ChainLikelihood


@pytest.fixture(scope="module")
def data():
    X, y = make_chain_data(120, random_state=0)
    return X[:90], y[:90], X[90:], y[90:]


def test_fit_reaches_a_stationary_point_and_predicts(data):
    X, y, X_test, y_test = data
    crf = LinearChainCRF(features=TokenFeatures(), c2=0.1, max_iter=300, epsilon=1e-10, period=0)
    crf.fit(X, y)
    encoded, labels = crf.encode(X, y)
    objective = ChainLikelihood(crf.structure_, encoded, labels, 0.1, n_threads=1)
    loss, grad = objective(crf.coef_)
    start_loss, start_grad = objective(np.zeros_like(crf.coef_))
    assert loss < 0.2 * start_loss
    assert np.abs(grad).max() < 1e-3 * np.abs(start_grad).max()
    assert crf.history_[-1]["loss"] == pytest.approx(loss)
    assert all(a["loss"] >= b["loss"] for a, b in zip(crf.history_, crf.history_[1:]))
    assert crf.score(X_test, y_test) > 0.9
    assert set(np.concatenate(crf.predict(X_test))) <= set(crf.classes_)


def test_threads_never_change_the_model(data):
    X, y, _, _ = data
    one = LinearChainCRF(features=TokenFeatures(), max_iter=15, n_jobs=1).fit(X, y)
    two = clone(one).set_params(n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.coef_, two.coef_)


def test_emission_pairs_are_the_seen_ones_unless_all_possible_states(data):
    X, y, _, _ = data
    seen = LinearChainCRF(features=TokenFeatures(), max_iter=3).fit(X, y)
    every = clone(seen).set_params(all_possible_states=True).fit(X, y)
    n_features, n_labels = seen.structure_.n_features, seen.structure_.n_labels
    assert every.structure_.rows.nnz == n_features * n_labels
    encoded, labels = seen.encode(X, y)
    tokens = np.repeat(np.arange(encoded.n_tokens), np.diff(encoded.indptr))
    pairs = set(zip(encoded.indices.tolist(), labels[tokens].tolist()))
    assert seen.structure_.rows.nnz == len(pairs)
    for f, k in list(pairs)[:50]:
        assert seen.structure_.rows.position_of(f, k) >= 0


@pytest.mark.parametrize("min_freq", [0, 2])
def test_gold_counts_follow_the_layout_min_freq_leaves(data, min_freq):
    from skstruct.solvers._likelihood import gold_counts
    from skstruct.structures import EmissionRows

    X, y, _, _ = data
    crf = LinearChainCRF(features=TokenFeatures(), min_freq=min_freq, max_iter=2).fit(X, y)
    encoded, labels = crf.encode(X, y)
    chain, _, counts = crf._weights(encoded, labels)
    np.testing.assert_array_equal(counts, gold_counts(chain, encoded, labels))
    seen = EmissionRows.seen(encoded, labels, len(crf.classes_)).nnz
    assert (chain.rows.nnz < seen) == bool(min_freq)  # min_freq does leave pairs out
