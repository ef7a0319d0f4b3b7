"""Hypothesis strategies for small structured-prediction inputs."""

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

_scores = st.floats(-5, 5, allow_nan=False, allow_infinity=False, width=64)
# Small integers make ties frequent, which is where decoders go wrong.
_tied_scores = st.integers(-2, 2).map(float)


@st.composite
def chain_potentials(draw, max_tokens=6, max_labels=4):
    """(unary, transition, start, stop) of a first-order chain, float64 arrays."""
    n_tokens = draw(st.integers(1, max_tokens))
    n_labels = draw(st.integers(1, max_labels))
    elements = draw(st.sampled_from([_scores, _tied_scores]))
    unary = draw(arrays(np.float64, (n_tokens, n_labels), elements=elements))
    transition = draw(arrays(np.float64, (n_labels, n_labels), elements=elements))
    start = draw(arrays(np.float64, (n_labels,), elements=elements))
    stop = draw(arrays(np.float64, (n_labels,), elements=elements))
    return unary, transition, start, stop


@st.composite
def sparse_corpus(draw, max_sentences=5, max_tokens=5, n_features=6, n_labels=3):
    """Sentences of (feature id, value) tokens, with gold label paths."""
    n_sentences = draw(st.integers(1, max_sentences))
    sentences, labels = [], []
    for _ in range(n_sentences):
        n = draw(st.integers(1, max_tokens))
        sentence = []
        for _ in range(n):
            feats = draw(
                st.lists(st.integers(0, n_features - 1), min_size=1, max_size=3, unique=True)
            )
            values = draw(
                st.lists(
                    st.sampled_from([1.0, 0.5, 2.0, -1.0]), min_size=len(feats), max_size=len(feats)
                )
            )
            sentence.append(list(zip(feats, values)))
        sentences.append(sentence)
        labels.append(draw(st.lists(st.integers(0, n_labels - 1), min_size=n, max_size=n)))
    return sentences, labels
