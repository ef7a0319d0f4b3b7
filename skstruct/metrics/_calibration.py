"""Calibration of token marginals: reliability bins and the expected calibration error.

A model is calibrated when, of the tokens it labels with confidence ``p`` (the
probability of its most probable label), a fraction ``p`` is right. The tokens are
binned by confidence into ``n_bins`` equal-width bins; the expected calibration error
(ECE, Naeini et al. 2015; Guo et al. 2017) is the token-weighted mean gap between each
bin's accuracy and its mean confidence.
"""

from numbers import Integral

import numpy as np

from ._validation import _check_sequences


def reliability_bins(y_true, marginals, *, n_bins=15):
    """Per confidence bin: tokens, mean confidence and accuracy of the top label.

    Parameters
    ----------
    y_true : list of label sequences
    marginals : list of list of dict
        Per sequence, per token, ``{label: probability}``, as ``predict_marginals``
        returns them.
    n_bins : int, default=15
        Equal-width bins over [0, 1].

    Returns
    -------
    counts : ndarray of shape (n_bins,)
    confidence, accuracy : ndarray of shape (n_bins,)
        NaN for an empty bin.

    Examples
    --------
    >>> counts, confidence, accuracy = reliability_bins(
    ...     [["A", "B"]], [[{"A": 0.9, "B": 0.1}, {"A": 0.6, "B": 0.4}]], n_bins=2)
    >>> counts.tolist(), confidence.tolist(), accuracy.tolist()
    ([0, 2], [nan, 0.75], [nan, 0.5])
    """
    if not (isinstance(n_bins, Integral) and n_bins >= 1):
        raise ValueError(f"n_bins must be a positive integer, got {n_bins!r}.")
    top = [[max(token, key=token.get) for token in seq] for seq in marginals]
    _check_sequences(y_true, top)
    confidence = np.array([max(token.values()) for seq in marginals for token in seq])
    correct = np.array([t == p for a, b in zip(y_true, top) for t, p in zip(a, b)], dtype=float)
    which = np.minimum((confidence * n_bins).astype(np.int64), n_bins - 1)
    counts = np.bincount(which, minlength=n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_confidence = np.bincount(which, confidence, n_bins) / counts
        accuracy = np.bincount(which, correct, n_bins) / counts
    return counts, mean_confidence, accuracy


def expected_calibration_error(y_true, marginals, *, n_bins=15):
    """The token-weighted mean gap between accuracy and confidence over confidence bins.

    Parameters
    ----------
    y_true : list of label sequences
    marginals : list of list of dict
        As ``predict_marginals`` returns them.
    n_bins : int, default=15

    Returns
    -------
    float

    Examples
    --------
    >>> expected_calibration_error([["A", "B"]], [[{"A": 0.9, "B": 0.1}, {"A": 0.6, "B": 0.4}]])
    0.35
    """
    counts, confidence, accuracy = reliability_bins(y_true, marginals, n_bins=n_bins)
    full = counts > 0
    return float(np.sum(counts[full] * np.abs(accuracy[full] - confidence[full])) / counts.sum())
