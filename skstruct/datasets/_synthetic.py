"""Synthetic sequence-labelling data sampled from a random HMM."""

from numbers import Integral

import numpy as np
from sklearn.utils import check_random_state

__all__ = ["make_chain_data"]

# Probability of keeping the previous label, on top of a random transition row:
# sticky chains make the transition features matter, as in real taggers.
_STICKINESS = 0.6
# Dirichlet concentration of the emission rows: well below 1, so each label
# puts most of its mass on a few words and a perceptron can learn the task.
_EMISSION_CONCENTRATION = 0.1


def make_chain_data(n_samples=100, *, n_labels=3, n_words=30, length=(4, 12), random_state=None):
    """Generate label sequences and word sequences from a random HMM.

    A hidden Markov model is drawn at random, then ``n_samples`` sequences are
    sampled from it. Transitions are sticky (a label tends to repeat) and
    emissions are peaked (each label prefers a few words), so the labels can be
    recovered from the words and their context: a small, quick task for demos
    and tests of sequence labellers.

    Parameters
    ----------
    n_samples : int, default=100
        Number of sequences.
    n_labels : int, default=3
        Number of hidden labels, named ``"L0"``, ``"L1"``, ...
    n_words : int, default=30
        Vocabulary size; words are named ``"w0"``, ``"w1"``, ...
    length : int or tuple of (int, int), default=(4, 12)
        Length of every sequence, or the inclusive range ``(low, high)`` its
        length is drawn from uniformly.
    random_state : int, RandomState instance or None, default=None
        Seeds both the model and the sampling. Pass an int for reproducible
        output across calls.

    Returns
    -------
    X : list of list of str
        The word sequences.
    y : list of list of str
        The label sequences, one label per word.

    Raises
    ------
    ValueError
        When an argument is not a positive integer or ``length`` is not a
        positive int or an increasing pair of positive ints.

    Notes
    -----
    Each transition row is ``0.6 * onehot(previous) + 0.4 * Dirichlet(1)``,
    the start distribution is ``Dirichlet(1)`` and each emission row is
    ``Dirichlet(0.1)`` over the vocabulary. Sampling costs O(total tokens).

    Examples
    --------
    >>> from skstruct.datasets import make_chain_data
    >>> X, y = make_chain_data(3, n_labels=2, n_words=5, length=4, random_state=0)
    >>> X[0], y[0]
    (['w2', 'w1', 'w1', 'w1'], ['L0', 'L0', 'L0', 'L0'])
    >>> [len(x) for x in make_chain_data(6, length=(2, 5), random_state=0)[0]]
    [5, 5, 3, 3, 3, 4]
    """
    n_samples = _check_positive_int(n_samples, "n_samples")
    n_labels = _check_positive_int(n_labels, "n_labels")
    n_words = _check_positive_int(n_words, "n_words")
    low, high = _check_length(length)
    rng = check_random_state(random_state)

    start = rng.dirichlet(np.ones(n_labels))
    transition = _STICKINESS * np.eye(n_labels) + (1 - _STICKINESS) * rng.dirichlet(
        np.ones(n_labels), size=n_labels
    )
    emission = rng.dirichlet(np.full(n_words, _EMISSION_CONCENTRATION), size=n_labels)
    lengths = rng.randint(low, high + 1, size=n_samples)

    # Inverse-CDF sampling with one uniform draw per choice; the last cumulative
    # value is forced to 1 so that rounding never yields an index past the end.
    cum_start = _cumulative(start[None, :])[0]
    cum_transition = _cumulative(transition)
    cum_emission = _cumulative(emission)
    label_names = [f"L{k}" for k in range(n_labels)]
    word_names = [f"w{k}" for k in range(n_words)]
    X, y = [], []
    for n_tokens in lengths:
        u = rng.random_sample((n_tokens, 2))
        labels = np.empty(n_tokens, dtype=np.intp)
        labels[0] = np.searchsorted(cum_start, u[0, 0], side="right")
        for t in range(1, n_tokens):
            labels[t] = np.searchsorted(cum_transition[labels[t - 1]], u[t, 0], side="right")
        # Vectorised searchsorted(side="right"): count cumulative values <= u.
        words = np.sum(cum_emission[labels] <= u[:, 1:], axis=1)
        X.append([word_names[w] for w in words])
        y.append([label_names[k] for k in labels])
    return X, y


def _cumulative(probabilities):
    cum = np.cumsum(probabilities, axis=1)
    cum[:, -1] = 1.0
    return cum


def _check_positive_int(value, name):
    if not isinstance(value, Integral) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}.")
    return int(value)


def _check_length(length):
    if isinstance(length, Integral) and not isinstance(length, bool):
        low = high = _check_positive_int(length, "length")
        return low, high
    try:
        low, high = length
    except (TypeError, ValueError):
        raise ValueError(
            f"length must be a positive int or a pair (low, high), got {length!r}."
        ) from None
    low = _check_positive_int(low, "length[0]")
    high = _check_positive_int(high, "length[1]")
    if low > high:
        raise ValueError(f"length must satisfy low <= high, got {length!r}.")
    return low, high
