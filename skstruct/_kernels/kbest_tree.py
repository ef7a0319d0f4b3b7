"""Exact k-best projective trees under first-order arc scores (Eisner 1996) or arc
plus adjacent-sibling scores (McDonald & Pereira 2006): Eisner's chart with Huang &
Chiang's (2005) k-best lists on every item.

Every item of the chart (a complete or incomplete span, either direction, and at
second order a sibling span) keeps its ``k`` best derivations, best first, each as
(score, split point, rank of the left part, rank of the right part). An item's list
merges the lists of every way to build it ("Algorithm 2" of Huang & Chiang): a heap
holds, per way, the next-best pair of ranks not yet taken; popping the best and
pushing its two successors ``(i + 1, j)`` (only while ``j == 0``) and ``(i, j + 1)``
visits each rank pair at most once, so no derivation is listed twice. O(n^3 + n^2 k
log n) time, O(n^2 k) memory. Ties go to the first way in the order the 1-best
kernels of ``tree_search`` try them.
"""

import numpy as np

from ._config import ONE, ZERO, helper, njit

# the kinds of items (sibling: second order): numpy integers, so that the helpers they
# are passed to compile once, not once per literal kind (the order, a literal 1 or 2,
# does give each helper a copy per order: the first-order copy leaves out the
# second-order rules, which kept k-best Eisner about 4 % faster)
_COMPLETE, _INCOMPLETE, _SIBLING = (np.int64(kind) for kind in range(3))


@helper
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


@helper
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
def _children(kind, s, t, d, r, order):
    """The two items a derivation of item (kind, s, t, d) at split ``r`` joins, each as
    (kind, s, t, d): Eisner's rules, and at second order McDonald & Pereira's (``r =
    -1``: the dependent is the head's first child on that side)."""
    if kind == _SIBLING:
        return _COMPLETE, s, r, 1, _COMPLETE, r + 1, t, 0
    if kind == _COMPLETE:
        if d == 0:
            return _COMPLETE, s, r, 0, _INCOMPLETE, r, t, 0
        return _INCOMPLETE, s, r, 1, _COMPLETE, r, t, 1
    if order == 1:
        return _COMPLETE, s, r, 1, _COMPLETE, r + 1, t, 0
    if d == 1:
        if r == -1:
            return _COMPLETE, s, s, 1, _COMPLETE, s + 1, t, 0
        return _INCOMPLETE, s, r, 1, _SIBLING, r, t, 0
    if r == -1:
        return _COMPLETE, s, t - 1, 1, _COMPLETE, t, t, 0
    return _SIBLING, s, r, 0, _INCOMPLETE, r, t, 0


@njit
def _merge(lists, kind, s, t, d, splits_r, adds, n_edges, order, k, heap):
    """Fill the k-best list of item (kind, s, t, d) from its ``n_edges`` ways to be
    built: at split ``splits_r[e]`` the two items of :func:`_children`, plus
    ``adds[e]`` (the arc and sibling scores the step adds)."""
    score, split, rank_a, rank_b, count = lists
    keys, edges, left, right = heap
    size = ZERO
    for e in range(n_edges):
        ak, a_s, a_t, ad, bk, b_s, b_t, bd = _children(kind, s, t, d, splits_r[e], order)
        if count[ak, a_s, a_t, ad] > 0 and count[bk, b_s, b_t, bd] > 0:
            v = score[ak, a_s, a_t, ad, 0] + score[bk, b_s, b_t, bd, 0] + adds[e]
            if v > -np.inf:
                size = _heap_push(keys, edges, left, right, size, v, e, ZERO, ZERO)
    n_found = 0
    while size > 0 and n_found < k:
        v, e, i, j = keys[0], edges[0], left[0], right[0]
        size = _heap_pop(keys, edges, left, right, size)
        score[kind, s, t, d, n_found] = v
        split[kind, s, t, d, n_found] = splits_r[e]
        rank_a[kind, s, t, d, n_found] = i
        rank_b[kind, s, t, d, n_found] = j
        n_found += 1
        ak, a_s, a_t, ad, bk, b_s, b_t, bd = _children(kind, s, t, d, splits_r[e], order)
        # the successors (i + 1, j) (from the first column only) and (i, j + 1): each
        # rank pair is pushed once
        if j == 0 and i + 1 < count[ak, a_s, a_t, ad]:
            w = score[ak, a_s, a_t, ad, i + 1] + score[bk, b_s, b_t, bd, j] + adds[e]
            if w > -np.inf:
                size = _heap_push(keys, edges, left, right, size, w, e, i + 1, j)
        if j + 1 < count[bk, b_s, b_t, bd]:
            w = score[ak, a_s, a_t, ad, i] + score[bk, b_s, b_t, bd, j + 1] + adds[e]
            if w > -np.inf:
                size = _heap_push(keys, edges, left, right, size, w, e, i, j + 1)
    count[kind, s, t, d] = n_found


@helper
def _edges_between(splits_r, adds, first, last, add):
    """Splits ``first..last``, each adding ``add``; returns their number."""
    m = 0
    for r in range(first, last + 1):
        splits_r[m], adds[m] = r, add
        m += 1
    return m


@njit
def _incomplete_edges(splits_r, adds, s, t, d, arc, sib, order):
    """The ways to build incomplete span (s, t, d): its splits and what each adds."""
    h, dep = (s, t) if d == 1 else (t, s)
    if order == 1:
        return _edges_between(splits_r, adds, s, t - 1, arc[h, dep])
    splits_r[0], adds[0] = -1, arc[h, dep] + sib[h, h, dep]  # the first child
    m = 1
    for r in range(s + 1, t):  # r: the sibling before the dependent
        splits_r[m], adds[m] = r, arc[h, dep] + sib[h, r, dep]
        m += 1
    return m


@njit
def _kbest(arc, sib, n, k, order):
    N = n + 1
    score = np.full((3, N, N, 2, k), -np.inf)
    split = np.zeros((3, N, N, 2, k), dtype=np.int64)
    rank_a = np.zeros((3, N, N, 2, k), dtype=np.int64)
    rank_b = np.zeros((3, N, N, 2, k), dtype=np.int64)
    count = np.zeros((3, N, N, 2), dtype=np.int64)
    lists = (score, split, rank_a, rank_b, count)
    size = N + 2 * k + 2
    heap = (np.empty(size), np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64),
            np.empty(size, dtype=np.int64))  # fmt: skip
    splits_r, adds = np.empty(N + 1, dtype=np.int64), np.empty(N + 1)
    for s in range(N):
        for d in range(2):
            score[_COMPLETE, s, s, d, 0] = 0.0
            count[_COMPLETE, s, s, d] = 1
    for width in range(1, N):
        for s in range(N - width):
            t = s + width
            if order == 2 and s > 0:  # adjacent siblings s, t of a head outside [s, t]
                m = _edges_between(splits_r, adds, s, t - 1, 0.0)
                _merge(lists, _SIBLING, s, t, ZERO, splits_r, adds, m, order, k, heap)
            if s > 0:  # no arcs into the root
                m = _incomplete_edges(splits_r, adds, s, t, ZERO, arc, sib, order)
                _merge(lists, _INCOMPLETE, s, t, ZERO, splits_r, adds, m, order, k, heap)
            m = _incomplete_edges(splits_r, adds, s, t, ONE, arc, sib, order)
            _merge(lists, _INCOMPLETE, s, t, ONE, splits_r, adds, m, order, k, heap)
            m = _edges_between(splits_r, adds, s, t - 1, 0.0)
            _merge(lists, _COMPLETE, s, t, ZERO, splits_r, adds, m, order, k, heap)
            m = _edges_between(splits_r, adds, s + 1, t, 0.0)
            _merge(lists, _COMPLETE, s, t, ONE, splits_r, adds, m, order, k, heap)
    m = count[_COMPLETE, 0, n, 1] if n > 0 else 0
    heads = np.full((m, N), -1, dtype=np.int64)
    totals = np.empty(m)
    stack = np.zeros((8 * N + 8, 5), dtype=np.int64)
    for best in range(m):
        totals[best] = score[_COMPLETE, 0, n, 1, best]
        _entry(stack, ZERO, _COMPLETE, ZERO, n, ONE, best)
        top = 1
        while top > 0:
            top -= 1
            kind, s, t, d, rank = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3], \
                stack[top, 4]  # fmt: skip
            if s == t:
                continue
            if kind == _INCOMPLETE:
                if d == 0:
                    heads[best, s] = t
                else:
                    heads[best, t] = s
            r = split[kind, s, t, d, rank]
            ak, a_s, a_t, ad, bk, b_s, b_t, bd = _children(kind, s, t, d, r, order)
            _entry(stack, top, ak, a_s, a_t, ad, rank_a[kind, s, t, d, rank])
            _entry(stack, top + 1, bk, b_s, b_t, bd, rank_b[kind, s, t, d, rank])
            top += 2
    return heads, totals


@njit
def kbest_eisner(arc, n, k):
    """The ``k`` best projective trees under arc scores ``arc[h, d]`` (``n`` words, 0
    the root), best first.

    Returns ``(heads int64 (m, n + 1), scores float64 (m,))``, ``m <= k`` the number of
    projective trees (with ``heads[:, 0] = -1``); ``heads[0]`` is a best tree, and
    with distinct scores it is ``tree_search.eisner``'s. Trees scoring ``-inf``
    (through a forbidden arc) are left out.
    """
    return _kbest(arc, np.zeros((1, 1, 1)), n, k, 1)


@njit
def kbest_eisner2(arc, sib, n, k):
    """The ``k`` best projective trees under arc plus adjacent-sibling scores
    (``sib[h, s, d]``, as ``tree_search.eisner2`` reads them), best first; returns as
    :func:`kbest_eisner` does, ``heads[0]`` being ``eisner2``'s tree when the scores
    are distinct."""
    return _kbest(arc, sib, n, k, 2)


@njit
def _entry(stack, top, kind, s, t, d, rank):
    stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3], stack[top, 4] = (
        kind, s, t, d, rank,
    )  # fmt: skip
