"""Small array helpers shared across layers."""

import numpy as np


def concat_ranges(starts, stops):
    """``np.concatenate([np.arange(a, b) for a, b in zip(starts, stops)])``, vectorised."""
    lengths = stops - starts
    firsts = np.zeros(lengths.size, dtype=np.int64)
    np.cumsum(lengths[:-1], out=firsts[1:])
    return np.repeat(starts - firsts, lengths) + np.arange(lengths.sum(), dtype=np.int64)


def read_only(data):
    """``data`` (an array, or a tuple of arrays and tuples) as read-only views: for
    kernels that only read their arguments.

    numba types a read-only array apart from a writable one and compiles a kernel once
    for each. The weight cache of parameter mixing and ray's object store hand out
    read-only arrays where a fit in one process has writable ones, so the kernels they
    reached compiled once more (mixing's pair kernels, on every cold ray worker:
    ``benchmarks/measurements/suite_compile_log_2026-11-30/``). A view copies
    nothing, and the kernel compiles once.

    Examples
    --------
    >>> rows, codes = read_only((np.zeros(3), np.arange(2)))
    >>> rows.flags.writeable, codes.flags.writeable
    (False, False)
    """
    if isinstance(data, np.ndarray):
        view = data.view()
        view.flags.writeable = False
        return view
    return tuple(read_only(item) for item in data)


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
