"""Binary features store no values (``EncodedSequences.data`` empty): every kernel that
reads values must read them as ones. Each learner's fit on binary data is checked
bit for bit against the same fit with the ones stored, the path it replaces."""

import numpy as np
import pytest

from skstruct import (
    SWVP,
    BeamSearch,
    ExponentiatedGradientSSVM,
    StructuredPerceptron,
    TokenFeatures,
    Viterbi,
)
from skstruct.datasets import make_chain_data
from skstruct.features import EncodedSequences, TokenDictEncoder


@pytest.fixture(scope="module")
def chains():
    return make_chain_data(60, n_labels=8, n_words=60, random_state=5)


def _explicit_ones(monkeypatch):
    """Keep the ones: every encoder stores data as the generic path did."""
    monkeypatch.setattr(EncodedSequences, "compact_values", staticmethod(lambda data: data))


@pytest.mark.parametrize(
    "make",
    [
        lambda: StructuredPerceptron(
            Viterbi(), max_iter=3, random_state=0, features=TokenFeatures()
        ),
        lambda: StructuredPerceptron(
            Viterbi(order=2), max_iter=3, batch_size=4, random_state=0, features=TokenFeatures()
        ),
        lambda: StructuredPerceptron(
            BeamSearch(beam_size=2),
            update="max_violation",
            max_iter=3,
            random_state=0,
            features=TokenFeatures(),
        ),
        lambda: SWVP(max_iter=3, random_state=0, features=TokenFeatures()),
        lambda: ExponentiatedGradientSSVM(max_iter=3, random_state=0, features=TokenFeatures()),
    ],
    ids=["viterbi", "viterbi2-batch", "beam-maxviol", "swvp", "eg"],
)
def test_binary_data_fits_as_the_stored_ones_do(chains, monkeypatch, make):
    X, y = chains
    binary = make().fit(X, y)
    _explicit_ones(monkeypatch)
    stored = make().fit(X, y)
    np.testing.assert_array_equal(np.asarray(binary.coef_), np.asarray(stored.coef_))
    assert binary.predict(X) == stored.predict(X)


def test_binary_features_keep_no_values_and_read_as_ones(chains):
    X, _ = chains
    encoded = TokenFeatures().encode(X, TokenDictEncoder(), learn=True)
    assert encoded.data.size == 0 < encoded.indices.size
    np.testing.assert_array_equal(encoded.values, np.ones(encoded.indices.size))
    part = encoded.take([3, 1])
    assert part.data.size == 0 and part.values.size == part.indices.size


def test_values_other_than_one_are_kept():
    encoded = TokenDictEncoder().fit_transform([[{"w": "a", "len": 3}, {"w": "b"}]])
    assert encoded.data.size == encoded.indices.size
    assert sorted(encoded.values.tolist()) == [1.0, 1.0, 3.0]
