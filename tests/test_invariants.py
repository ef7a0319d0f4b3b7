"""The learners' invariants as hypothesis properties, on random small corpora: SWVP with
the full substructure is Collins' perceptron and one-shard mixing is the serial learner,
bit for bit (the fixed-data versions are in test_swvp.py and test_mixing.py)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skstruct import SWVP, BeamSearch, ParameterMixing, StructuredPerceptron, Viterbi
from tests.strategies import sparse_corpus


@st.composite
def corpora(draw):
    """Token dicts and string labels from a random sparse corpus."""
    sentences, labels = draw(sparse_corpus(max_sentences=6, max_tokens=5))
    X = [[{f"f{f}": v for f, v in token} for token in s] for s in sentences]
    y = [[f"L{label}" for label in path] for path in labels]
    return X, y


@settings(max_examples=40, deadline=None)
@given(
    corpora(),
    st.sampled_from([0, 1, 2]),
    st.booleans(),
    st.sampled_from(["wm", "wmr", "uniform"]),
    st.integers(0, 2**16),
)
def test_full_substructure_swvp_is_collins_perceptron(data, order, average, gamma, seed):
    common = {"average": average, "max_iter": 3, "random_state": seed}
    csp = StructuredPerceptron(Viterbi(order=order), **common).fit(*data)
    swvp = SWVP(Viterbi(order=order), substructures="full", gamma=gamma, **common).fit(*data)
    np.testing.assert_array_equal(swvp.coef_, csp.coef_)


@settings(max_examples=30, deadline=None)
@given(
    corpora(),
    st.sampled_from(
        [
            StructuredPerceptron(),
            StructuredPerceptron(BeamSearch(beam_size=2), update="max_violation"),
            SWVP(gamma="wmr", mode="balanced"),
        ]
    ),
    st.booleans(),
    st.booleans(),
    st.integers(0, 2**16),
)
def test_one_shard_mixing_is_the_serial_learner(data, learner, average, iterative, seed):
    learner = learner.set_params(average=average, max_iter=3, random_state=seed)
    serial = learner.fit(*data).coef_.copy()
    mixed = ParameterMixing(learner, n_shards=1, iterative=iterative, max_iter=3, n_jobs=1)
    np.testing.assert_array_equal(mixed.fit(*data).coef_, serial)
