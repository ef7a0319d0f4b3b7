"""Synthetic sequence-labelling data sampled from a random HMM."""

from numbers import Integral

import numpy as np
from sklearn.utils import check_random_state

__all__ = ["HMM_SETUPS", "make_candidate_data", "make_chain_data", "make_hmm_sequences"]

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

    return _sample_hmm(start, transition, emission, lengths, rng, "L", "w")


def _sample_hmm(start, transition, emission, lengths, rng, label_prefix, word_prefix):
    """Sequences of the given lengths from an HMM, as (words, labels) string lists."""
    # Inverse-CDF sampling with one uniform draw per choice; the last cumulative
    # value is forced to 1 so that rounding never yields an index past the end.
    cum_start = _cumulative(start[None, :])[0]
    cum_transition = _cumulative(transition)
    cum_emission = _cumulative(emission)
    label_names = [f"{label_prefix}{k}" for k in range(transition.shape[0])]
    word_names = [f"{word_prefix}{k}" for k in range(emission.shape[1])]
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


# Dror & Reichart (2016), footnote 6: (n observations Cx, n states Cy, the values whose
# permutations form each transition row, the values whose permutations form each
# emission row).
HMM_SETUPS = {
    1: (5, 3, (0.7, 0.2, 0.1), (0.75, 0.1, 0.05, 0.05, 0.05)),
    2: (5, 3, (0.5, 0.3, 0.2), (0.6, 0.15, 0.1, 0.1, 0.05)),
    3: (20, 7, (0.7, 0.2, 0.1), (0.4, 0.2, 0.1, 0.1, 0.1)),
}


def make_hmm_sequences(setup, n_samples, length=8, random_state=None):
    """Sample the synthetic data of the SWVP paper (Dror & Reichart 2016, sec. 6).

    An HMM is drawn for the setup: every row of the transition matrix is a random
    permutation of the setup's transition values (padded with zeros to ``Cy``), every
    row of the emission matrix one of its emission values (padded to ``Cx``); the
    first state is uniform. Then ``n_samples`` sequences of ``length`` tokens are
    sampled from it. Setup 3's emission values sum to 0.9 as printed in the paper;
    they are normalised (0.44, 0.22, 0.11, 0.11, 0.11).

    Parameters
    ----------
    setup : {1, 2, 3}
        1: simple(++), learnable(+++), Cx=5, Cy=3, ``P(y'|y) = perm(0.7, 0.2, 0.1)``,
        ``P(x|y) = perm(0.75, 0.1, 0.05, 0.05, 0.05)``; 2: simple(++), learnable(++),
        Cx=5, Cy=3, perm(0.5, 0.3, 0.2), perm(0.6, 0.15, 0.1, 0.1, 0.05); 3: simple(+),
        learnable(+), Cx=20, Cy=7, perm(0.7, 0.2, 0.1, 0, ...), perm(0.4, 0.2, 0.1,
        0.1, 0.1, 0, ...).
    n_samples : int
        Number of sequences.
    length : int, default=8
        Tokens per sequence (the paper's L_x = 8).
    random_state : int, RandomState instance or None, default=None
        Seeds the HMM and the sampling: one seed, one data set.

    Returns
    -------
    X : list of list of str
        Observations ``"x0"``, ``"x1"``, ...
    y : list of list of str
        Hidden states ``"y0"``, ``"y1"``, ...

    Examples
    --------
    >>> from skstruct.datasets import make_hmm_sequences
    >>> X, y = make_hmm_sequences(1, 2, random_state=0)
    >>> len(X), len(X[0]), sorted(set(y[0]) | set(y[1])) <= ["y0", "y1", "y2"]
    (2, 8, True)
    """
    if setup not in HMM_SETUPS:
        raise ValueError(f"setup must be one of {sorted(HMM_SETUPS)}, got {setup!r}.")
    n_samples = _check_positive_int(n_samples, "n_samples")
    length = _check_positive_int(length, "length")
    n_words, n_labels, transition_values, emission_values = HMM_SETUPS[setup]
    rng = check_random_state(random_state)
    transition_row = np.zeros(n_labels)
    transition_row[: len(transition_values)] = transition_values
    emission_row = np.zeros(n_words)
    emission_row[: len(emission_values)] = emission_values
    # Setup 3's emission values add up to 0.9 in the paper; rows are normalised.
    transition_row /= transition_row.sum()
    emission_row /= emission_row.sum()
    transition = np.array([rng.permutation(transition_row) for _ in range(n_labels)])
    emission = np.array([rng.permutation(emission_row) for _ in range(n_labels)])
    start = np.full(n_labels, 1.0 / n_labels)
    lengths = np.full(n_samples, length)
    return _sample_hmm(start, transition, emission, lengths, rng, "y", "x")


def _cumulative(probabilities):
    cum = np.cumsum(probabilities, axis=1)
    cum[:, -1] = 1.0
    return cum


def _check_positive_int(value, name):
    if not isinstance(value, Integral) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}.")
    return int(value)


def _check_length(length, name="length"):
    """``(low, high)`` of a positive int or a pair of them (``name`` in errors)."""
    if isinstance(length, Integral) and not isinstance(length, bool):
        low = high = _check_positive_int(length, name)
        return low, high
    try:
        low, high = length
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be a positive int or a pair (low, high), got {length!r}."
        ) from None
    low = _check_positive_int(low, f"{name}[0]")
    high = _check_positive_int(high, f"{name}[1]")
    if low > high:
        raise ValueError(f"{name} must satisfy low <= high, got {length!r}.")
    return low, high


def make_candidate_data(
    n_samples=100, *, n_candidates=(2, 10), n_features=50, n_active=5, margin=0.0,
    noise=0.0, random_state=None,
):  # fmt: skip
    """Generate candidate sets for reranking, scored by a hidden weight vector.

    A weight vector ``w*`` is drawn; each example gets a random number of candidates,
    each a feature dict of ``n_active`` random features with random values. A
    candidate's loss is how far its score under ``w*`` (plus Gaussian ``noise``) falls
    short of its set's best, so the best candidate has loss 0. With ``noise=0`` and
    ``margin > 0``, every other candidate scores at least ``margin`` less than the
    best under ``w*`` (candidates closer are dropped): the data is separable with that
    margin, and any reranker that learns it exactly chooses every best candidate.

    Parameters
    ----------
    n_samples : int, default=100
        Number of candidate sets.
    n_candidates : int or (int, int), default=(2, 10)
        Candidates per set (a range is drawn from uniformly, both ends included).
    n_features : int, default=50
        Size of the feature vocabulary (features ``"f0"``, ``"f1"``, ...).
    n_active : int, default=5
        Features of each candidate.
    margin : float, default=0.0
        Least score gap under ``w*`` between the best candidate and the others.
    noise : float, default=0.0
        Standard deviation of the noise added to ``w*``'s scores before the losses
        are read off them (0: separable).
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    X : list of list of dict
        Per set, its candidates' feature dicts.
    y : list of ndarray
        Per set, each candidate's loss (0 for the best).

    Examples
    --------
    >>> X, y = make_candidate_data(3, n_candidates=4, margin=0.1, random_state=0)
    >>> len(X), [len(c) for c in X], [float(loss.min()) for loss in y]
    (3, [4, 4, 4], [0.0, 0.0, 0.0])
    """
    n_samples = _check_positive_int(n_samples, "n_samples")
    low, high = _check_length(n_candidates, "n_candidates")
    n_features = _check_positive_int(n_features, "n_features")
    n_active = min(_check_positive_int(n_active, "n_active"), n_features)
    rng = check_random_state(random_state)
    w = rng.normal(size=n_features)
    X, y = [], []
    while len(X) < n_samples:
        k = int(rng.randint(low, high + 1))
        features = [rng.choice(n_features, size=n_active, replace=False) for _ in range(k)]
        values = [rng.uniform(0.5, 1.5, size=n_active) for _ in range(k)]
        scores = np.array([w[f] @ v for f, v in zip(features, values)])
        scores += noise * rng.normal(size=k)
        best = int(np.argmax(scores))
        keep = (scores <= scores[best] - margin) | (np.arange(k) == best)
        if margin > 0 and keep.sum() < min(2, k):
            continue
        X.append([{f"f{j}": float(v) for j, v in zip(features[c], values[c])}
                  for c in np.flatnonzero(keep)])  # fmt: skip
        y.append(scores[best] - scores[keep])
    return X, y
