"""CKY over a binary grammar with one layer of unary rules above every span (what
``skstruct.trees.TreeTransform`` makes of a treebank: unary chains collapsed into one
rule), and a root rule over the whole sentence.

A sentence is its words' tag symbols ``tags`` (n,). ``binary`` (R, 3) holds rules
``A -> B C`` as symbol ids, sorted by ``B``, with ``left_start`` (n_symbols + 1,) the
rows of each left child; ``unary`` (U, 2) rules ``A -> B``; ``root`` (n_symbols,) the
score of ``ROOT -> A`` (``-inf`` where there is no such rule). Scores are additive
(log-probabilities for a PCFG, ``w . phi`` for a discriminative model).

``viterbi`` finds the best tree, ``inside_outside`` sums over all of them (log Z and
every rule's expected count: what a CRF's gradient, EG's marginals and pruning by
posteriors need).

Charts: ``inner[i, j, A]`` the best score of ``A`` over words ``i..j-1`` built by a
binary rule (or ``A`` the tag of a one-word span), ``outer[i, j, A]`` the best with an
optional unary rule on top; backpointers say which rule and split.
"""

import numpy as np

from ._config import FALSE, TRUE, helper, njit

NEG = -np.inf


@njit
def viterbi(tags, n_symbols, binary, binary_score, left_start, unary, unary_score, root):
    """The best tree's score and its backpointers: ``(score, top, split, rule, urule)``
    with ``top`` the symbol under ROOT (-1: no tree), ``split[i, j, A]`` and
    ``rule[i, j, A]`` the binary rule building ``inner[i, j, A]`` (-1 for a tag),
    ``urule[i, j, A]`` the unary rule giving ``outer[i, j, A]`` (-1: none, ``inner``)."""
    n = tags.shape[0]
    inner = np.full((n + 1, n + 1, n_symbols), NEG)
    outer = np.full((n + 1, n + 1, n_symbols), NEG)
    split = np.full((n + 1, n + 1, n_symbols), -1, dtype=np.int32)
    rule = np.full((n + 1, n + 1, n_symbols), -1, dtype=np.int32)
    urule = np.full((n + 1, n + 1, n_symbols), -1, dtype=np.int32)
    for i in range(n):
        inner[i, i + 1, tags[i]] = 0.0
        _unaries(inner, outer, urule, i, i + 1, unary, unary_score)
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length
            for k in range(i + 1, j):
                for b in range(n_symbols):
                    left = outer[i, k, b]
                    if left == NEG:
                        continue
                    for r in range(left_start[b], left_start[b + 1]):
                        right = outer[k, j, binary[r, 2]]
                        if right == NEG:
                            continue
                        a = binary[r, 0]
                        total = left + right + binary_score[r]
                        if total > inner[i, j, a]:  # strict: the first found wins ties
                            inner[i, j, a] = total
                            split[i, j, a] = k
                            rule[i, j, a] = r
            _unaries(inner, outer, urule, i, j, unary, unary_score)
    best, top = NEG, -1
    for a in range(n_symbols):
        total = outer[0, n, a] + root[a]
        if total > best:
            best, top = total, a
    return best, top, split, rule, urule


@helper
def _unaries(inner, outer, urule, i, j, unary, unary_score):
    """``outer[i, j]``: ``inner[i, j]``, or better by one unary rule over it."""
    for a in range(inner.shape[2]):
        outer[i, j, a] = inner[i, j, a]
    for u in range(unary.shape[0]):
        below = inner[i, j, unary[u, 1]]
        if below == NEG:
            continue
        total = below + unary_score[u]
        if total > outer[i, j, unary[u, 0]]:
            outer[i, j, unary[u, 0]] = total
            urule[i, j, unary[u, 0]] = u


@njit
def _logaddexp(a, b):
    if a == NEG:
        return b
    if b == NEG:
        return a
    if a > b:
        return a + np.log1p(np.exp(b - a))
    return b + np.log1p(np.exp(a - b))


@njit
def inside_outside(tags, n_symbols, binary, binary_score, left_start, unary, unary_score,
                   root):  # fmt: skip
    """``log Z`` of the trees of ``viterbi``'s model (scores as log-potentials) and the
    expected count of every rule under ``p(tree) ∝ exp(score)``: ``(log Z,
    binary (R,), unary (U,), root (n_symbols,))``. ``log Z`` is ``-inf`` (and the
    counts 0) where no tree spans the sentence."""
    inner, outer, log_z = _inside(tags, n_symbols, binary, binary_score, left_start, unary,
                                  unary_score, root, FALSE)  # fmt: skip
    counts = (np.zeros(binary.shape[0]), np.zeros(unary.shape[0]), np.zeros(n_symbols))
    if log_z != NEG:
        _outside(inner, outer, log_z, binary, binary_score, left_start, unary, unary_score,
                 root, counts, FALSE)  # fmt: skip
    return log_z, counts[0], counts[1], counts[2]


@njit
def span_posteriors(tags, n_symbols, binary, binary_score, left_start, unary, unary_score,
                    root, best):  # fmt: skip
    """``post[i, j, A]``: the probability that a tree has a node labelled ``A`` over
    words ``i..j-1`` (built by a binary rule, or by a unary rule over the span: the
    larger of the two), all zeros where no tree spans the sentence; with ``best``
    True, the max-marginal instead: the probability of the most probable tree with
    that node relative to the most probable tree (1 on it; sums become maxima, far
    cheaper). What pruning by a cheap first pass keeps or drops."""
    inner, outer, log_z = _inside(tags, n_symbols, binary, binary_score, left_start, unary,
                                  unary_score, root, best)  # fmt: skip
    post = np.zeros(inner.shape)
    if log_z == NEG:
        return post
    counts = (np.zeros(binary.shape[0]), np.zeros(unary.shape[0]), np.zeros(n_symbols))
    above_inner, above_outer = _outside(inner, outer, log_z, binary, binary_score, left_start,
                                        unary, unary_score, root, counts, best)  # fmt: skip
    n = tags.shape[0]
    for i in range(n):
        for j in range(i + 1, n + 1):
            for a in range(n_symbols):
                built = inner[i, j, a] + above_inner[i, j, a]
                topped = outer[i, j, a] + above_outer[i, j, a]
                best = max(built, topped)
                if best > NEG:
                    post[i, j, a] = min(1.0, np.exp(best - log_z))
    return post


@njit
def _inside(tags, n_symbols, binary, binary_score, left_start, unary, unary_score, root, best):
    """The inside charts ``(inner, outer, log Z)``: ``inner[i, j, A]`` the log-sum over
    the ways to build ``A`` over ``i..j-1`` by a binary rule (or as its tag),
    ``outer`` with an optional unary rule on top (``best``: maxima, not sums)."""
    n = tags.shape[0]
    inner = np.full((n + 1, n + 1, n_symbols), NEG)
    outer = np.full((n + 1, n + 1, n_symbols), NEG)
    for i in range(n):
        inner[i, i + 1, tags[i]] = 0.0
        _sum_unaries(inner, outer, i, i + 1, unary, unary_score, best)
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length
            for k in range(i + 1, j):
                for b in range(n_symbols):
                    left = outer[i, k, b]
                    if left == NEG:
                        continue
                    for r in range(left_start[b], left_start[b + 1]):
                        right = outer[k, j, binary[r, 2]]
                        if right != NEG:
                            a = binary[r, 0]
                            inner[i, j, a] = _plus(
                                inner[i, j, a], left + right + binary_score[r], best
                            )
            _sum_unaries(inner, outer, i, j, unary, unary_score, best)
    log_z = NEG
    for a in range(n_symbols):
        log_z = _plus(log_z, outer[0, n, a] + root[a], best)
    return inner, outer, log_z


@njit
def _outside(inner, outer, log_z, binary, binary_score, left_start, unary, unary_score, root,
             counts, best):  # fmt: skip
    """The outside charts ``(above_inner, above_outer)`` of the inside ones, adding
    every rule's expected count to ``counts`` (binary, unary, root; ``best``: maxima,
    not sums, and no counts)."""
    binary_count, unary_count, root_count = counts
    n, n_symbols = inner.shape[0] - 1, inner.shape[2]
    # above_outer[i, j, A]: the outside score of A with its optional unary, above_inner
    # of A as built by a binary rule (with the unary over it, if any, outside)
    above_outer = np.full((n + 1, n + 1, n_symbols), NEG)
    above_inner = np.full((n + 1, n + 1, n_symbols), NEG)
    for a in range(n_symbols):
        above_outer[0, n, a] = root[a]
        root_count[a] = np.exp(root[a] + outer[0, n, a] - log_z) if outer[0, n, a] != NEG else 0.0
    for length in range(n, 0, -1):
        for i in range(n - length + 1):
            j = i + length
            for a in range(n_symbols):
                above_inner[i, j, a] = above_outer[i, j, a]
            for u in range(unary.shape[0]):
                a, b = unary[u, 0], unary[u, 1]
                if above_outer[i, j, a] == NEG or inner[i, j, b] == NEG:
                    continue
                through = above_outer[i, j, a] + unary_score[u]
                above_inner[i, j, b] = _plus(above_inner[i, j, b], through, best)
                if not best:
                    unary_count[u] += np.exp(through + inner[i, j, b] - log_z)
            for k in range(i + 1, j):
                for b in range(n_symbols):
                    left = outer[i, k, b]
                    if left == NEG:
                        continue
                    for r in range(left_start[b], left_start[b + 1]):
                        c = binary[r, 2]
                        right = outer[k, j, c]
                        top = above_inner[i, j, binary[r, 0]]
                        if right == NEG or top == NEG:
                            continue
                        base = top + binary_score[r]
                        above_outer[i, k, b] = _plus(above_outer[i, k, b], base + right, best)
                        above_outer[k, j, c] = _plus(above_outer[k, j, c], base + left, best)
                        if not best:
                            binary_count[r] += np.exp(base + left + right - log_z)
    return above_inner, above_outer


@helper
def _plus(a, b, best):
    """The semiring's sum of log-values: their maximum (``best``) or log-sum."""
    if best:
        return max(a, b)
    return _logaddexp(a, b)


@helper
def _sum_unaries(inner, outer, i, j, unary, unary_score, best):
    """``outer[i, j]``: the log-sum (``best``: maximum) of ``inner[i, j]`` and of one
    unary rule over it."""
    for a in range(inner.shape[2]):
        outer[i, j, a] = inner[i, j, a]
    for u in range(unary.shape[0]):
        below = inner[i, j, unary[u, 1]]
        if below != NEG:
            a = unary[u, 0]
            outer[i, j, a] = _plus(outer[i, j, a], below + unary_score[u], best)


#: The most memory one thread's CKY charts take: the search's, kept for a corpus
#: (``structures/_cky_charts.py``), and the pruning pass's, for the thread's part of the
#: sentences; a longer sentence gets charts of its own.
CHART_BYTES = 128 * 2**20
#: Bytes a cell of the pruning pass's charts takes per symbol: four float64 charts and
#: the live-symbol lists (int32).
PRUNING_BYTES = 4 * 8 + 4


def pruning_charts(n, n_symbols):
    """Flat charts for :func:`pruned_cells` on sentences of up to ``n`` words:
    ``(inner, outer, above_inner, above_outer, live, n_live)``, reused from sentence to
    sentence (made afresh for every sentence, the charts of a long sentence came from
    the system as new pages each time).

    >>> [chart.size for chart in pruning_charts(2, 5)][::5]
    [45, 9]
    """
    cells = (n + 1) * (n + 1)
    return (
        *(np.empty(cells * n_symbols) for _ in range(4)),
        np.empty(cells * n_symbols, dtype=np.int32),
        np.empty(cells, dtype=np.int64),
    )


def words_within(bytes_per_cell, n_symbols):
    """The longest sentence (at least 1 word) whose charts, ``bytes_per_cell`` bytes a
    cell and symbol, fit in :data:`CHART_BYTES`.

    >>> words_within(PRUNING_BYTES, 533)
    82
    """
    return max(int((CHART_BYTES / (bytes_per_cell * n_symbols)) ** 0.5) - 1, 1)


@njit
def pruned_cells(tags, n_symbols, binary, binary_score, left_start, unary, unary_score, root,
                 threshold, inner, outer, above_inner, above_outer, live, n_live):  # fmt: skip
    """The labelled spans pruning by max-marginals keeps: the flat indices (ascending)
    into an ``(n + 1, n + 1, n_symbols)`` chart of the cells where
    ``span_posteriors(..., best=True)`` is at least ``threshold`` (in (0, 1]).

    The same sums as ``span_posteriors`` (maxima, so the order they are taken in changes
    nothing), over the symbols live in each span only, and no split of a span that no
    tree reaches from above; in charts from :func:`pruning_charts` (flat, for
    sentences at least this long), which only the cells of this sentence are set in."""
    n = tags.shape[0]
    m = n + 1
    cells = m * m
    inner = inner[: cells * n_symbols].reshape((m, m, n_symbols))
    outer = outer[: cells * n_symbols].reshape((m, m, n_symbols))
    above_inner = above_inner[: cells * n_symbols].reshape((m, m, n_symbols))
    above_outer = above_outer[: cells * n_symbols].reshape((m, m, n_symbols))
    live = live[: cells * n_symbols].reshape((m, m, n_symbols))
    n_live = n_live[:cells].reshape((m, m))
    for length in range(1, m):
        for i in range(n - length + 1):
            j = i + length
            for a in range(n_symbols):
                inner[i, j, a] = NEG
                above_outer[i, j, a] = NEG
            if length == 1:
                inner[i, j, tags[i]] = 0.0
            for k in range(i + 1, j):
                for x in range(n_live[i, k]):
                    b = live[i, k, x]
                    left = outer[i, k, b]
                    for r in range(left_start[b], left_start[b + 1]):
                        right = outer[k, j, binary[r, 2]]
                        if right != NEG:
                            a = binary[r, 0]
                            inner[i, j, a] = max(inner[i, j, a], left + right + binary_score[r])
            _sum_unaries(inner, outer, i, j, unary, unary_score, TRUE)
            count = 0
            for a in range(n_symbols):
                if outer[i, j, a] != NEG:
                    live[i, j, count] = a
                    count += 1
            n_live[i, j] = count
    log_z = NEG
    for a in range(n_symbols):
        log_z = max(log_z, outer[0, n, a] + root[a])
    if log_z == NEG:
        return np.empty(0, dtype=np.int64)
    for a in range(n_symbols):
        above_outer[0, n, a] = root[a]
    for length in range(n, 0, -1):
        for i in range(n - length + 1):
            j = i + length
            reached = False
            for a in range(n_symbols):
                above_inner[i, j, a] = above_outer[i, j, a]
                reached = reached or above_outer[i, j, a] != NEG
            for u in range(unary.shape[0]):
                a, b = unary[u, 0], unary[u, 1]
                if above_outer[i, j, a] != NEG and inner[i, j, b] != NEG:
                    above_inner[i, j, b] = max(above_inner[i, j, b],
                                               above_outer[i, j, a] + unary_score[u])  # fmt: skip
            if not reached:  # no tree reaches the span: its splits get nothing from above
                continue
            for k in range(i + 1, j):
                for x in range(n_live[i, k]):
                    b = live[i, k, x]
                    left = outer[i, k, b]
                    for r in range(left_start[b], left_start[b + 1]):
                        c = binary[r, 2]
                        right = outer[k, j, c]
                        top = above_inner[i, j, binary[r, 0]]
                        if right == NEG or top == NEG:
                            continue
                        base = top + binary_score[r]
                        above_outer[i, k, b] = max(above_outer[i, k, b], base + right)
                        above_outer[k, j, c] = max(above_outer[k, j, c], base + left)
    # the cells kept, counted, then listed
    kept = np.empty(0, dtype=np.int64)
    for listing in range(2):
        count = 0
        for i in range(n):
            for j in range(i + 1, m):
                for a in range(n_symbols):
                    best = max(inner[i, j, a] + above_inner[i, j, a],
                               outer[i, j, a] + above_outer[i, j, a])  # fmt: skip
                    if best > NEG and min(1.0, np.exp(best - log_z)) >= threshold:
                        if listing:
                            kept[count] = (i * m + j) * n_symbols + a
                        count += 1
        if not listing:
            kept = np.empty(count, dtype=np.int64)
    return kept
