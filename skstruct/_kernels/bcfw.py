"""Sparse-vector kernels of the block-coordinate Frank-Wolfe structured SVM.

A block's share of the weights, ``w_i``, and the corner ``w_s`` a step moves it
towards are sparse vectors keyed by weight (``structure.delta``'s keys: ascending and
distinct). A step needs both on one set of keys.
"""

import numpy as np

from ._config import njit


@njit
def aligned(keys_a, values_a, keys_b, values_b):
    """``(keys, a, b)``: the union of two sparse vectors' keys (ascending) and each
    vector's values there, 0 where it has no entry. A merge: O(len(a) + len(b))."""
    size = keys_a.shape[0] + keys_b.shape[0]
    keys = np.empty(size, dtype=np.int64)
    a = np.zeros(size)
    b = np.zeros(size)
    i = j = m = 0
    while i < keys_a.shape[0] or j < keys_b.shape[0]:
        if j == keys_b.shape[0] or (i < keys_a.shape[0] and keys_a[i] < keys_b[j]):
            keys[m], a[m] = keys_a[i], values_a[i]
            i += 1
        elif i == keys_a.shape[0] or keys_b[j] < keys_a[i]:
            keys[m], b[m] = keys_b[j], values_b[j]
            j += 1
        else:
            keys[m], a[m], b[m] = keys_a[i], values_a[i], values_b[j]
            i += 1
            j += 1
        m += 1
    return keys[:m], a[:m], b[:m]
