"""A stable argsort for the kernels, written out.

``np.argsort(keys, kind="mergesort")`` inside a kernel costs numba about a second to
compile for each key type (float64 and int64 here: the beam searches, the batch
balancer, the delta of two outputs), on every first fit that reaches it; a merge sort
written in loops compiles in a small fraction of that and sorts alike
(``benchmarks/measurements/stable_argsort_2026-11-29/``). The kernels sort a beam's
candidates, a batch's sentences or an output's parts: hundreds to thousands of keys.
"""

import numpy as np

from ._config import helper

#: Runs of this many keys are sorted by insertion before merging.
_RUN = 16


@helper
def stable_argsort(keys):
    """The positions of ``keys`` (a 1-D array, no NaN) in ascending order of their key,
    equal keys in the order they come: ``np.argsort(keys, kind="stable")``.

    >>> from numba import njit
    >>> njit(stable_argsort.py_func)(np.array([3.0, 1.0, 3.0, 0.5])).tolist()
    [3, 1, 0, 2]
    """
    n = keys.shape[0]
    order = np.arange(n)
    # insertion sort of each run; the strict comparison keeps equal keys in order
    for lo in range(0, n, _RUN):
        hi = min(lo + _RUN, n)
        for i in range(lo + 1, hi):
            position = order[i]
            key = keys[position]
            j = i - 1
            while j >= lo and keys[order[j]] > key:
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = position
    # merge runs pairwise; of equal keys the left run's (earlier) comes first
    other = np.empty(n, dtype=np.int64)
    source, target = order, other
    width = _RUN
    while width < n:
        for lo in range(0, n, 2 * width):
            mid, hi = min(lo + width, n), min(lo + 2 * width, n)
            i, j = lo, mid
            for k in range(lo, hi):
                if j < hi and (i >= mid or keys[source[j]] < keys[source[i]]):
                    target[k] = source[j]
                    j += 1
                else:
                    target[k] = source[i]
                    i += 1
        source, target = target, source
        width *= 2
    return source
