"""Small array helpers shared across layers."""

import numpy as np


def concat_ranges(starts, stops):
    """``np.concatenate([np.arange(a, b) for a, b in zip(starts, stops)])``, vectorised."""
    lengths = stops - starts
    firsts = np.zeros(lengths.size, dtype=np.int64)
    np.cumsum(lengths[:-1], out=firsts[1:])
    return np.repeat(starts - firsts, lengths) + np.arange(lengths.sum(), dtype=np.int64)


def _map_arrays(data, func):
    """``data`` with ``func`` applied to each array in it, through tuples and named
    tuples; anything else is kept as it is."""
    if isinstance(data, np.ndarray):
        return func(data)
    if isinstance(data, tuple):
        items = [_map_arrays(item, func) for item in data]
        return type(data)(*items) if hasattr(data, "_fields") else tuple(items)
    return data


# numba types a read-only array apart from a writable one and compiles a kernel once
# for each; the two helpers below give a kernel one of the two, whatever arrays its
# caller holds.


def writable(data):
    """``data`` (arrays inside tuples and named tuples) with writable arrays: read-only
    ones are copied. For kernels that write, or that a fit calls with its own writable
    arrays too.

    ray's object store and joblib's memory-mapping of large arguments hand a worker
    read-only arrays: a cold ray worker compiled a whole epoch's kernels a second time
    (24 s of a 32 s test) beside the copies that training in one process compiles.
    """
    return _map_arrays(data, lambda array: array if array.flags.writeable else array.copy())


def read_only(data):
    """``data`` (arrays inside tuples and named tuples) as read-only views, which copy
    nothing: for kernels that only read their arguments.

    The weight cache of parameter mixing and ray's object store hand out read-only
    arrays where a fit in one process has writable ones, so the kernels they reached
    compiled once more (mixing's pair kernels, on every cold ray worker:
    ``benchmarks/measurements/suite_compile_log_2026-11-30/``).

    Examples
    --------
    >>> rows, codes = read_only((np.zeros(3), np.arange(2)))
    >>> rows.flags.writeable, codes.flags.writeable
    (False, False)
    """
    return _map_arrays(data, _read_only_view)


def _read_only_view(array):
    view = array.view()
    view.flags.writeable = False
    return view


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
