"""Small array helpers shared across layers."""

import numpy as np


def concat_ranges(starts, stops):
    """``np.concatenate([np.arange(a, b) for a, b in zip(starts, stops)])``, vectorised."""
    lengths = stops - starts
    firsts = np.zeros(lengths.size, dtype=np.int64)
    np.cumsum(lengths[:-1], out=firsts[1:])
    return np.repeat(starts - firsts, lengths) + np.arange(lengths.sum(), dtype=np.int64)


def sorted_unique(values):
    """``np.unique(values)`` for integers, by one sort: numpy 2.4's ``np.unique`` hashes
    integers first, which took 0.33 s on 340k int64 keys against 2 ms for this."""
    values = np.sort(values, kind="stable")
    keep = np.ones(values.size, dtype=bool)
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return values[keep]


def sparse_sum(keys, values):
    """``(keys, values)`` with equal keys summed, keys ascending, zero values dropped.

    Examples
    --------
    >>> sparse_sum(np.array([3, 1, 3]), np.array([1.0, 2.0, -1.0]))
    (array([1]), array([2.]))
    """
    unique, inverse = np.unique(keys, return_inverse=True)
    summed = np.bincount(inverse.ravel(), weights=values, minlength=unique.size)
    keep = summed != 0.0
    return unique[keep], summed[keep]
