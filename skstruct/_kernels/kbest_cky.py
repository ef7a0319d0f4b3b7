"""Exact k-best trees of anchored-rule CKY (:mod:`.anchored_cky`): Huang & Chiang's
(2005) k-best lists on every labelled span of the pruned space.

Every item keeps its ``k`` best derivations, best first: the *inner* item of a
labelled span ``(i, j, A)`` (built by a binary rule, or the word's tag over a one-word
span), its *outer* item (the inner item, or a unary rule over another label's inner
item of the span), and the root. A derivation is (score, rule, split, rank of its left
part, rank of its right part). An item's list merges the lists of every way to build it
("Algorithm 2" of Huang & Chiang), as :mod:`.kbest_tree` does over Eisner's chart: a
heap holds, per way, the next-best pair of ranks not yet taken, so no tree is listed
twice. Items are stored sparsely, one per labelled span pruning kept, so memory is
O(kept spans x k).

The parts, features and scores are those of :func:`.anchored_cky.best_tree`; the first
tree is its best tree (the same one where no two trees tie).
"""

import numpy as np

from ._config import FALSE, ZERO, helper, njit
from .anchored_cky import (
    NEG,
    TAG,
    _label_scores,
    _total,
    _unary_score,
    binary_keys,
    output_length,
    root_key,
    shape_table,
)
from .kbest_tree import _heap_pop, _heap_push

_IDENTITY = -1  # an outer item's derivation without a unary rule


@njit
def _merge(lists, target, tails_a, tails_b, adds, rules, splits, first, last, k, heap):
    """Fill list ``target`` from the ways ``first..last-1`` of building it: way ``e``
    joins the derivations of lists ``tails_a[e]`` and ``tails_b[e]`` and adds
    ``adds[e]``; a derivation records the way's rule and split."""
    score, rule, split, rank_a, rank_b, count = lists
    keys, ways, left, right = heap
    size = ZERO
    for e in range(first, last):
        ta, tb = tails_a[e], tails_b[e]
        if count[ta] > 0 and count[tb] > 0:
            v = score[ta, 0] + score[tb, 0] + adds[e]
            if v > NEG:
                size = _heap_push(keys, ways, left, right, size, v, e, ZERO, ZERO)
    found = 0
    while size > 0 and found < k:
        v, e, i, j = keys[0], ways[0], left[0], right[0]
        size = _heap_pop(keys, ways, left, right, size)
        score[target, found], rule[target, found], split[target, found] = v, rules[e], splits[e]
        rank_a[target, found], rank_b[target, found] = i, j
        found += 1
        ta, tb = tails_a[e], tails_b[e]
        # successors (i + 1, j) (from the first column only) and (i, j + 1): each rank
        # pair is pushed once
        if j == 0 and i + 1 < count[ta]:
            w = score[ta, i + 1] + score[tb, j] + adds[e]
            if w > NEG:
                size = _heap_push(keys, ways, left, right, size, w, e, i + 1, j)
        if j + 1 < count[tb]:
            w = score[ta, i] + score[tb, j + 1] + adds[e]
            if w > NEG:
                size = _heap_push(keys, ways, left, right, size, w, e, i, j + 1)
    count[target] = found


@helper
def _heap(size):
    return (np.empty(size), np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64),
            np.empty(size, dtype=np.int64))  # fmt: skip


@njit
def kbest_trees(atoms, allowed, binary, left_start, unary, root_ok, coef, n_features, k):
    """The ``k`` best trees of the pruned space, best first.

    Arguments as :func:`.anchored_cky.best_tree`'s (without a loss). Returns
    ``(outputs int32 (m, 6n - 5), scores float64 (m,))``, ``m <= k`` the number of
    trees the pruned space holds (0: none spans the sentence).
    """
    n, n_symbols = atoms.shape[0], allowed.shape[2]
    shapes = shape_table(atoms)
    # an item per labelled span pruning kept, and per word's tag
    item = np.full((n + 1, n + 1, n_symbols), -1, dtype=np.int64)
    n_items = 0
    for i in range(n):
        for j in range(i + 1, n + 1):
            for a in range(n_symbols):
                if allowed[i, j, a] or (j == i + 1 and a == atoms[i, TAG]):
                    item[i, j, a] = n_items
                    n_items += 1
    # list 2v: item v's inner derivations, 2v + 1 its outer ones; then a unit list (one
    # empty derivation, the missing second part of a unary step) and the root's
    unit, root = 2 * n_items, 2 * n_items + 1
    n_lists = 2 * n_items + 2
    score = np.full((n_lists, k), NEG)
    rule = np.full((n_lists, k), -1, dtype=np.int32)
    split = np.full((n_lists, k), -1, dtype=np.int32)
    rank_a = np.zeros((n_lists, k), dtype=np.int32)
    rank_b = np.zeros((n_lists, k), dtype=np.int32)
    count = np.zeros(n_lists, dtype=np.int64)
    lists = (score, rule, split, rank_a, rank_b, count)
    score[unit, 0], count[unit] = 0.0, 1
    # unary rules by parent: ``by_parent[parent_start[a]:parent_start[a + 1]]``
    parent_start = np.zeros(n_symbols + 1, dtype=np.int64)
    for u in range(unary.shape[0]):
        parent_start[unary[u, 0] + 1] += 1
    parent_start = np.cumsum(parent_start)
    by_parent, filled = np.empty(unary.shape[0], dtype=np.int64), parent_start[:-1].copy()
    for u in range(unary.shape[0]):
        by_parent[filled[unary[u, 0]]] = u
        filled[unary[u, 0]] += 1
    # the ways of building the items of one span (at most a binary rule per split point,
    # a unary rule per outer item, a symbol under the root), and the heap
    size = max((n - 1) * binary.shape[0], unary.shape[0] + 1, n_symbols, 1)
    tails_a, tails_b = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
    adds, rules = np.empty(size), np.empty(size, dtype=np.int64)
    splits, parents = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
    order = np.empty(size, dtype=np.int64)
    heap = _heap(size + 2 * k + 2)
    # the symbols of each span with an outer derivation (the left children worth trying)
    live = np.empty((n + 1, n + 1, n_symbols), dtype=np.int32)
    n_live = np.zeros((n + 1, n + 1), dtype=np.int64)
    label = np.zeros(n_symbols)
    keys = np.empty(32, dtype=np.int64)
    starts = np.zeros(n_symbols + 1, dtype=np.int64)
    none = np.zeros((1, 1, 1))
    for length in range(1, n + 1):
        for i in range(n - length + 1):
            j = i + length
            if length == 1:
                leaf = item[i, j, atoms[i, TAG]]
                score[2 * leaf, 0], count[2 * leaf] = 0.0, 1
            else:
                _label_scores(atoms, shapes, allowed, coef, n_features, keys, label, i, j, none,
                              0.0, FALSE)  # fmt: skip
                m = ZERO
                for mid in range(i + 1, j):
                    for t in range(n_live[i, mid]):
                        b = live[i, mid, t]
                        left = item[i, mid, b]
                        for r in range(left_start[b], left_start[b + 1]):
                            a, c = binary[r, 0], binary[r, 2]
                            right = item[mid, j, c]
                            if not allowed[i, j, a] or right < 0 or count[2 * right + 1] == 0:
                                continue
                            t = binary_keys(atoms, r, i, mid, j, n_features, keys, ZERO)
                            tails_a[m], tails_b[m] = 2 * left + 1, 2 * right + 1
                            adds[m] = label[a] + _total(coef, keys, t)
                            rules[m], splits[m], parents[m] = r, mid, a
                            m += 1
                # the ways grouped by parent (a stable counting sort), then merged
                starts[:] = 0
                for e in range(m):
                    starts[parents[e] + 1] += 1
                for a in range(n_symbols):
                    starts[a + 1] += starts[a]
                filled = starts[:-1].copy()
                for e in range(m):
                    order[filled[parents[e]]] = e
                    filled[parents[e]] += 1
                sorted_a, sorted_b = tails_a[order[:m]], tails_b[order[:m]]
                sorted_adds, sorted_rules = adds[order[:m]], rules[order[:m]]
                sorted_splits = splits[order[:m]]
                for a in range(n_symbols):
                    if starts[a + 1] > starts[a]:
                        _merge(lists, 2 * item[i, j, a], sorted_a, sorted_b, sorted_adds,
                               sorted_rules, sorted_splits, starts[a], starts[a + 1], k,
                               heap)  # fmt: skip
            # outer items: the inner item itself, or a unary rule over another's
            for a in range(n_symbols):
                v = item[i, j, a]
                if v < 0:
                    continue
                m = ZERO
                tails_a[m], tails_b[m], adds[m], rules[m], splits[m] = 2 * v, unit, 0.0, -1, -1
                m += 1
                if allowed[i, j, a]:
                    for t in range(parent_start[a], parent_start[a + 1]):
                        u = by_parent[t]
                        below = item[i, j, unary[u, 1]]
                        if below < 0 or count[2 * below] == 0:
                            continue
                        tails_a[m], tails_b[m], rules[m], splits[m] = 2 * below, unit, u, -1
                        adds[m] = _unary_score(atoms, shapes, coef, n_features, keys, u, a, i, j,
                                               none, 0.0, FALSE)  # fmt: skip
                        m += 1
                _merge(lists, 2 * v + 1, tails_a, tails_b, adds, rules, splits, ZERO, m, k, heap)
                if count[2 * v + 1] > 0:
                    live[i, j, n_live[i, j]] = a
                    n_live[i, j] += 1
    # the root: a symbol that may stand under it, over the whole sentence
    m = ZERO
    for a in range(n_symbols):
        v = item[0, n, a]
        if root_ok[a] and v >= 0 and count[2 * v + 1] > 0:
            tails_a[m], tails_b[m], rules[m], splits[m] = 2 * v + 1, unit, a, -1
            adds[m] = coef[root_key(a, n_features)]
            m += 1
    _merge(lists, root, tails_a, tails_b, adds, rules, splits, ZERO, m, k, heap)
    found = count[root]
    outputs = np.full((found, output_length(n)), -1, dtype=np.int32)
    for t in range(found):
        _write_tree(n, lists, item, binary, unary, rule[root, t], rank_a[root, t], outputs[t])
    return outputs, score[root, :found].copy()


@helper
def _write_tree(n, lists, item, binary, unary, top, rank, out):
    """The output layout of the derivation of rank ``rank`` of symbol ``top``'s outer
    item over the sentence (preorder, as :func:`.anchored_cky.best_tree` writes it)."""
    _, rule, split, rank_a, rank_b, _ = lists
    stack = np.empty((2 * n, 4), dtype=np.int64)  # (i, j, symbol, rank) of outer items
    stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3] = 0, n, top, rank
    size, node = 1, 0
    while size > 0:
        size -= 1
        i, j, a, t = stack[size, 0], stack[size, 1], stack[size, 2], stack[size, 3]
        outer = 2 * item[i, j, a] + 1
        u = rule[outer, t]
        if u != _IDENTITY:
            a = unary[u, 1]
        inner, t = 2 * item[i, j, a], rank_a[outer, t]
        if j - i == 1:
            out[i] = u
            continue
        r, mid = rule[inner, t], split[inner, t]
        at = n + 5 * node
        out[at], out[at + 1], out[at + 2], out[at + 3], out[at + 4] = i, mid, j, r, u
        node += 1
        stack[size, 0], stack[size, 1], stack[size, 2], stack[size, 3] = mid, j, binary[r, 2], \
            rank_b[inner, t]  # fmt: skip
        stack[size + 1, 0], stack[size + 1, 1], stack[size + 1, 2], stack[size + 1, 3] = i, mid, \
            binary[r, 1], rank_a[inner, t]  # fmt: skip
        size += 2
