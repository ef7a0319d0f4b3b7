"""Exact k-best projective trees under first-order arc scores: Eisner's algorithm with
Huang & Chiang's (2005) k-best lists on every item.

Every item of Eisner's chart (a complete or incomplete span, either direction) keeps
its ``k`` best derivations, best first, each as (score, split point, rank of the left
part, rank of the right part). An item's list merges the lists of every way to build
it (one per split point, "Algorithm 2" of Huang & Chiang): a heap holds, per split,
the next-best pair of ranks not yet taken; popping the best and pushing its two
successors ``(i + 1, j)`` (only while ``j == 0``) and ``(i, j + 1)`` visits each rank
pair at most once, so no duplicate derivation is listed. O(n^3 + n^2 k log n) time,
O(n^2 k) memory. Ties go to the smaller split point, as in ``tree_search.eisner``.
"""

import numpy as np

from ._config import njit

_COMPLETE, _INCOMPLETE = 0, 1  # the two kinds of items (and of backtracking entries)


@njit
def _heap_push(keys, splits, left, right, size, key, split, i, j):
    """Push onto a max-heap (ties: the smaller split first); returns the new size."""
    pos = size
    while pos > 0:
        parent = (pos - 1) // 2
        if keys[parent] > key or (keys[parent] == key and splits[parent] <= split):
            break
        keys[pos], splits[pos] = keys[parent], splits[parent]
        left[pos], right[pos] = left[parent], right[parent]
        pos = parent
    keys[pos], splits[pos], left[pos], right[pos] = key, split, i, j
    return size + 1


@njit
def _heap_pop(keys, splits, left, right, size):
    """Remove the top of the heap (read it first); returns the new size."""
    size -= 1
    key, split, i, j = keys[size], splits[size], left[size], right[size]
    pos = 0
    while True:
        child = 2 * pos + 1
        if child >= size:
            break
        if child + 1 < size and (
            keys[child + 1] > keys[child]
            or (keys[child + 1] == keys[child] and splits[child + 1] < splits[child])
        ):
            child += 1
        if key > keys[child] or (key == keys[child] and split <= splits[child]):
            break
        keys[pos], splits[pos] = keys[child], splits[child]
        left[pos], right[pos] = left[child], right[child]
        pos = child
    keys[pos], splits[pos], left[pos], right[pos] = key, split, i, j
    return size


@njit
def _merge(lists, a_kind, a_d, b_kind, b_d, s, t, first, last, shift, arc, k, heap, out_kind,
           d):  # fmt: skip
    """Fill the k-best list of item (``out_kind``, s, t, d) from its split points
    ``r = first..last``: the left part item (a_kind, s, r, a_d), the right part item
    (b_kind, r + shift, t, b_d), plus the arc score ``arc`` (0 for complete spans)."""
    score, split, rank_a, rank_b, count = lists
    keys, splits, left, right = heap
    size = 0
    for r in range(first, last + 1):
        if count[a_kind, s, r, a_d] > 0 and count[b_kind, r + shift, t, b_d] > 0:
            v = score[a_kind, s, r, a_d, 0] + score[b_kind, r + shift, t, b_d, 0] + arc
            if v > -np.inf:
                size = _heap_push(keys, splits, left, right, size, v, r, 0, 0)
    n_found = 0
    while size > 0 and n_found < k:
        v, r, i, j = keys[0], splits[0], left[0], right[0]
        size = _heap_pop(keys, splits, left, right, size)
        score[out_kind, s, t, d, n_found] = v
        split[out_kind, s, t, d, n_found] = r
        rank_a[out_kind, s, t, d, n_found] = i
        rank_b[out_kind, s, t, d, n_found] = j
        n_found += 1
        # the successors (i + 1, j) (from the first column only) and (i, j + 1): each
        # rank pair is pushed once
        if j == 0 and i + 1 < count[a_kind, s, r, a_d]:
            w = score[a_kind, s, r, a_d, i + 1] + score[b_kind, r + shift, t, b_d, j] + arc
            if w > -np.inf:
                size = _heap_push(keys, splits, left, right, size, w, r, i + 1, j)
        if j + 1 < count[b_kind, r + shift, t, b_d]:
            w = score[a_kind, s, r, a_d, i] + score[b_kind, r + shift, t, b_d, j + 1] + arc
            if w > -np.inf:
                size = _heap_push(keys, splits, left, right, size, w, r, i, j + 1)
    count[out_kind, s, t, d] = n_found


@njit
def kbest_eisner(arc, n, k):
    """The ``k`` best projective trees under arc scores ``arc[h, d]`` (``n`` words, 0
    the root), best first.

    Returns ``(heads int64 (m, n + 1), scores float64 (m,))``, ``m <= k`` the number of
    projective trees (with ``heads[:, 0] = -1``); ``heads[0]`` is a best tree, and
    with distinct scores it is ``tree_search.eisner``'s. Trees scoring ``-inf``
    (through a forbidden arc) are left out.
    """
    N = n + 1
    score = np.full((2, N, N, 2, k), -np.inf)
    split = np.zeros((2, N, N, 2, k), dtype=np.int64)
    rank_a = np.zeros((2, N, N, 2, k), dtype=np.int64)
    rank_b = np.zeros((2, N, N, 2, k), dtype=np.int64)
    count = np.zeros((2, N, N, 2), dtype=np.int64)
    lists = (score, split, rank_a, rank_b, count)
    size = N + 2 * k + 2
    heap = (np.empty(size), np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64),
            np.empty(size, dtype=np.int64))  # fmt: skip
    for s in range(N):
        for d in range(2):
            score[_COMPLETE, s, s, d, 0] = 0.0
            count[_COMPLETE, s, s, d] = 1
    C, INC = _COMPLETE, _INCOMPLETE
    for width in range(1, N):
        for s in range(N - width):
            t = s + width
            # incomplete: complete[s, r, right] + complete[r + 1, t, left] + the arc
            if s > 0:
                _merge(lists, C, 1, C, 0, s, t, s, t - 1, 1, arc[t, s], k, heap, INC, 0)
            _merge(lists, C, 1, C, 0, s, t, s, t - 1, 1, arc[s, t], k, heap, INC, 1)
            # complete, head t: complete[s, r, left] + incomplete[r, t, left]
            _merge(lists, C, 0, INC, 0, s, t, s, t - 1, 0, 0.0, k, heap, C, 0)
            # complete, head s: incomplete[s, r, right] + complete[r, t, right]
            _merge(lists, INC, 1, C, 1, s, t, s + 1, t, 0, 0.0, k, heap, C, 1)
    m = count[C, 0, n, 1] if n > 0 else 0
    heads = np.full((m, N), -1, dtype=np.int64)
    totals = np.empty(m)
    stack = np.zeros((4 * N + 4, 5), dtype=np.int64)
    for best in range(m):
        totals[best] = score[C, 0, n, 1, best]
        stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3], stack[0, 4] = C, 0, n, 1, best
        top = 1
        while top > 0:
            top -= 1
            kind, s, t, d, rank = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3], \
                stack[top, 4]  # fmt: skip
            if s == t:
                continue
            r = split[kind, s, t, d, rank]
            i, j = rank_a[kind, s, t, d, rank], rank_b[kind, s, t, d, rank]
            if kind == INC:
                if d == 0:
                    heads[best, s] = t
                else:
                    heads[best, t] = s
                _entry(stack, top, C, s, r, 1, i)
                _entry(stack, top + 1, C, r + 1, t, 0, j)
            elif d == 0:
                _entry(stack, top, C, s, r, 0, i)
                _entry(stack, top + 1, INC, r, t, 0, j)
            else:
                _entry(stack, top, INC, s, r, 1, i)
                _entry(stack, top + 1, C, r, t, 1, j)
            top += 2
    return heads, totals


@njit
def _entry(stack, top, kind, s, t, d, rank):
    stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3], stack[top, 4] = (
        kind, s, t, d, rank,
    )  # fmt: skip
