"""The tree searches: Eisner's algorithm (first and second order, projective),
Chu-Liu-Edmonds (any tree), one sentence's best tree under the weights, and the
decoding loop of prediction.

A sentence of ``n`` words is positions ``1..n``; position 0 is the artificial root.
``heads[d]`` is the head of word ``d`` (``heads[0]`` is unused, -1).
"""

import numpy as np

from ._config import FALSE, TRUE, helper, njit
from .arc_features import (
    N_LABEL_TEMPLATES,
    N_SIBLING_TEMPLATES,
    arc_width,
)
from .tree_scores import (
    add_arc_loss,
    add_label_scores,
    arc_scores,
    grandparent_scores,
    largest_sibling_score,
    sibling_scores,
    single_root_penalty,
)


# a helper: called with literal directions and kinds, an njit function was compiled
# once per combination of literals (5 copies); a helper is typed without them
@helper
def _push(stack, i, a, b, c, d):
    stack[i, 0], stack[i, 1], stack[i, 2], stack[i, 3] = a, b, c, d


_COMPLETE, _INCOMPLETE, _SIBLING = 0, 1, 2  # kinds of items on the backtracking stacks


@helper
def _split_complete(stack, top, s, t, dr, r):
    """Push the halves of complete span ``[s, t]`` (direction ``dr``) split at ``r``: an
    incomplete span and the complete span beyond it. Returns the new stack top."""
    if dr == 0:
        _push(stack, top, s, r, 0, _COMPLETE)
        _push(stack, top + 1, r, t, 0, _INCOMPLETE)
    else:
        _push(stack, top, s, r, 1, _INCOMPLETE)
        _push(stack, top + 1, r, t, 1, _COMPLETE)
    return top + 2


@helper
def _best_meeting(complete, s, t):
    """Best ``complete[s, r, right] + complete[r + 1, t, left]`` over ``r``: the two
    halves an arc between ``s`` and ``t`` (or a sibling pair) joins. Returns (score, r)."""
    best, arg = -np.inf, s
    for r in range(s, t):
        v = complete[s, r, 1] + complete[r + 1, t, 0]
        if v > best:
            best, arg = v, r
    return best, arg


@helper
def _fill_complete(complete, incomplete, complete_bp, s, t):
    """Complete spans ``[s, t]`` of both directions from smaller ones (Eisner's second
    rule, shared by both orders): a complete span is an incomplete one plus a complete
    one on the dependent's far side."""
    best, arg = -np.inf, s
    for r in range(s, t):
        v = complete[s, r, 0] + incomplete[r, t, 0]
        if v > best:
            best, arg = v, r
    complete[s, t, 0] = best
    complete_bp[s, t, 0] = arg
    best, arg = -np.inf, t
    for r in range(s + 1, t + 1):
        v = incomplete[s, r, 1] + complete[r, t, 1]
        if v > best:
            best, arg = v, r
    complete[s, t, 1] = best
    complete_bp[s, t, 1] = arg


# -- first-order Eisner ------------------------------------------------------------------------


@njit
def eisner(arc, n):
    """Best projective tree under arc scores ``arc[h, d]`` (Eisner 1996), O(n^3).

    Returns heads (int64, ``n + 1``; ``heads[0] = -1``). Ties go to the first split
    point in increasing order.
    """
    N = n + 1
    # [s, t, dir]: dir 0 = the head is t (arcs point left), 1 = the head is s
    complete = np.full((N, N, 2), -np.inf)
    incomplete = np.full((N, N, 2), -np.inf)
    complete_bp = np.zeros((N, N, 2), dtype=np.int64)
    incomplete_bp = np.zeros((N, N, 2), dtype=np.int64)
    for s in range(N):
        complete[s, s, 0] = 0.0
        complete[s, s, 1] = 0.0
    for k in range(1, N):
        for s in range(N - k):
            t = s + k
            best, arg = _best_meeting(complete, s, t)
            if s > 0:
                incomplete[s, t, 0] = best + arc[t, s]
            incomplete[s, t, 1] = best + arc[s, t]
            incomplete_bp[s, t, 0] = arg
            incomplete_bp[s, t, 1] = arg
            _fill_complete(complete, incomplete, complete_bp, s, t)
    heads = np.full(N, -1, dtype=np.int64)
    # explicit stack of items (s, t, dir, kind)
    stack = np.zeros((4 * N + 4, 4), dtype=np.int64)
    _push(stack, 0, 0, n, 1, _COMPLETE)
    top = 1
    while top > 0:
        top -= 1
        s, t, dr, kind = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
        if s == t:
            continue
        if kind == _COMPLETE:
            top = _split_complete(stack, top, s, t, dr, complete_bp[s, t, dr])
        else:
            r = incomplete_bp[s, t, dr]
            if dr == 0:
                heads[s] = t
            else:
                heads[t] = s
            _push(stack, top, s, r, 1, _COMPLETE)
            _push(stack, top + 1, r + 1, t, 0, _COMPLETE)
            top += 2
    return heads


# -- second-order (sibling) Eisner -------------------------------------------------------------


@njit
def eisner2(arc, sib, n):
    """Best projective tree under arc plus adjacent-sibling scores (McDonald & Pereira
    2006, sec. 3.2), O(n^3).

    A tree scores ``sum arc[h, d] + sum sib[h, s, d]`` over its arcs, ``s`` being the
    child of ``h`` before ``d`` on the same side counting outwards from ``h`` (``h``
    itself for the first). Returns heads as :func:`eisner` does.
    """
    N = n + 1
    complete = np.full((N, N, 2), -np.inf)
    incomplete = np.full((N, N, 2), -np.inf)
    sibling = np.full((N, N), -np.inf)  # [s, t]: s and t adjacent siblings, s < t
    complete_bp = np.zeros((N, N, 2), dtype=np.int64)
    incomplete_bp = np.zeros((N, N, 2), dtype=np.int64)  # -1: first child
    sibling_bp = np.zeros((N, N), dtype=np.int64)
    for s in range(N):
        complete[s, s, 0] = 0.0
        complete[s, s, 1] = 0.0
    for k in range(1, N):
        for s in range(N - k):
            t = s + k
            # sibling items (no root among siblings)
            if s > 0:
                best, arg = _best_meeting(complete, s, t)
                sibling[s, t] = best
                sibling_bp[s, t] = arg
            # s -> t: t is s's first right child, or follows sibling r
            best = complete[s, s, 1] + complete[s + 1, t, 0] + sib[s, s, t]
            arg = -1
            for r in range(s + 1, t):
                v = incomplete[s, r, 1] + sibling[r, t] + sib[s, r, t]
                if v > best:
                    best, arg = v, r
            incomplete[s, t, 1] = best + arc[s, t]
            incomplete_bp[s, t, 1] = arg
            # t -> s (no arcs into the root)
            if s > 0:
                best = complete[s, t - 1, 1] + complete[t, t, 0] + sib[t, t, s]
                arg = -1
                for r in range(s + 1, t):
                    v = sibling[s, r] + incomplete[r, t, 0] + sib[t, r, s]
                    if v > best:
                        best, arg = v, r
                incomplete[s, t, 0] = best + arc[t, s]
                incomplete_bp[s, t, 0] = arg
            _fill_complete(complete, incomplete, complete_bp, s, t)
    heads = np.full(N, -1, dtype=np.int64)
    # explicit stack of items (s, t, dir, kind)
    stack = np.zeros((4 * N + 4, 4), dtype=np.int64)
    _push(stack, 0, 0, n, 1, _COMPLETE)
    top = 1
    while top > 0:
        top -= 1
        s, t, dr, kind = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
        if s == t:
            continue
        if kind == _COMPLETE:
            top = _split_complete(stack, top, s, t, dr, complete_bp[s, t, dr])
        elif kind == _INCOMPLETE:
            r = incomplete_bp[s, t, dr]
            if dr == 1:
                heads[t] = s
                if r == -1:
                    _push(stack, top, s + 1, t, 0, _COMPLETE)
                    top += 1
                else:
                    _push(stack, top, s, r, 1, _INCOMPLETE)
                    _push(stack, top + 1, r, t, 0, _SIBLING)
                    top += 2
            else:
                heads[s] = t
                if r == -1:
                    _push(stack, top, s, t - 1, 1, _COMPLETE)
                    top += 1
                else:
                    _push(stack, top, s, r, 0, _SIBLING)
                    _push(stack, top + 1, r, t, 0, _INCOMPLETE)
                    top += 2
        else:
            r = sibling_bp[s, t]
            _push(stack, top, s, r, 1, _COMPLETE)
            _push(stack, top + 1, r + 1, t, 0, _COMPLETE)
            top += 2
    return heads


# -- second order with grandparents (Koo & Collins 2010) ----------------------------------------
#
# Items carry the head's own head ``g`` (Koo & Collins' g-spans), so that an arc's
# grandparent part is scored where the arc is made: ``complete[h, e, g]`` is a complete
# span from ``h`` to ``e`` (either side), ``incomplete[h, m, g]`` the span of arc
# ``h -> m`` with the children of ``h`` between them, ``g`` the head of ``h``, outside
# the span; ``sibling[s, t, h]`` (``s < t``) joins adjacent children ``s``, ``t`` of
# ``h``. The root, which has no head, is item ``g = h = 0``. ``g`` is the last axis: the
# fill makes the items of one span for every ``g`` at once, each split adding the same
# number to a contiguous row of them, a loop the compiler turns into vector
# instructions (this search is O(n^4), the other parts of the parser's search O(n^3)).
# Back-pointers are not kept: the backtracking reruns the same maximisations for the
# items of the best tree only (the first best split, as the fill compares them), which
# saves three (n + 1)^3 tables.


@helper
def _outside(s, t, N):
    """The positions outside span ``[s, t]`` as two ranges ``(0, a)``, ``(b, N)``: the
    heads of ``s`` or ``t`` (of the root, ``s == 0``: its own item, 0)."""
    if s == 0:
        return 1, N
    return s, t + 1


@helper
def _best_complete(incomplete, complete, g, h, e):
    """The best ``incomplete[h, m, g] + complete[m, e, h]`` over the last child ``m`` of
    ``h`` on the side of ``e``: (score, m)."""
    best, arg = -np.inf, h
    step = 1 if e > h else -1
    for m in range(h + step, e + step, step):
        v = incomplete[h, m, g] + complete[m, e, h]
        if v > best:
            best, arg = v, m
    return best, arg


@helper
def _sibling_score(sibling, sib, h, r, m):
    """The sibling span of ``r`` and ``m`` (children of ``h``, ``r`` between them) plus
    the sibling part's score."""
    if m > h:
        return sibling[r, m, h] + sib[h, r, m]
    return sibling[m, r, h] + sib[h, r, m]


@helper
def _best_incomplete(incomplete, sibling, sib, first, g, h, m, only_child):
    """The best inside of arc ``h -> m`` (the arc's own scores left out): ``m`` the
    first child of ``h`` on its side (score ``first``, split -1), or the next after a
    sibling ``r`` (``only_child``: the first only). Returns (score, split)."""
    best, arg = first, -1
    if not only_child:
        lo, hi = (h + 1, m) if m > h else (m + 1, h)
        for r in range(lo, hi):
            v = incomplete[h, r, g] + _sibling_score(sibling, sib, h, r, m)
            if v > best:
                best, arg = v, r
    return best, arg


@helper
def _first_child(complete, sib, h, m):
    """The inside of arc ``h -> m`` when ``m`` is ``h``'s first child on its side."""
    return complete[m, h + 1 if m > h else h - 1, h] + sib[h, h, m]


@helper
def _best_sibling(complete, h, s, t):
    """The best ``complete[s, r, h] + complete[t, r + 1, h]`` over ``r``: (score, r)."""
    best, arg = -np.inf, s
    for r in range(s, t):
        v = complete[s, r, h] + complete[t, r + 1, h]
        if v > best:
            best, arg = v, r
    return best, arg


@helper
def _raise_row(row, items, value):
    """``row[g] = max(row[g], items[g] + value)``: a split's candidates for every ``g``
    at once. Every ``g``, the span's inside too: those cells are never read (an item's
    ``g`` is outside its span, so outside the spans it is made of), and one loop with
    no gap and an unconditional store is one the compiler vectorises (twice as fast)."""
    for g in range(row.shape[0]):
        v = items[g] + value
        row[g] = v if v > row[g] else row[g]


@helper
def _grand_sibling_row(sibling, complete, s, t):
    """``sibling[s, t, h]`` for every ``h`` (:func:`_best_sibling`'s score; the row
    starts at -inf)."""
    row = sibling[s, t]
    for r in range(s, t):  # every h, as in _raise_row
        left, right = complete[s, r], complete[t, r + 1]
        for h in range(row.shape[0]):
            v = left[h] + right[h]
            row[h] = v if v > row[h] else row[h]


@helper
def _grand_incomplete_row(incomplete, sibling, sib, complete, arc, grand, h, m, only_child, a, b):
    """``incomplete[h, m, g]`` for every ``g``: the best inside of arc ``h -> m``
    (:func:`_best_incomplete`'s score), plus the arc's score, and for the outside ``g``
    (``[0, a)`` and ``[b, N)``, :func:`_outside`) the grandparent part's (none for the
    root's arcs)."""
    row = incomplete[h, m]
    row[:] = _first_child(complete, sib, h, m)
    if not only_child:
        lo, hi = (h + 1, m) if m > h else (m + 1, h)
        for r in range(lo, hi):
            _raise_row(row, incomplete[h, r], _sibling_score(sibling, sib, h, r, m))
    score = arc[h, m]
    for g in range(a):
        row[g] = row[g] + score + (grand[g, h, m] if h > 0 else 0.0)
    for g in range(b, row.shape[0]):
        row[g] = row[g] + score + grand[g, h, m]


@helper
def _grand_complete_row(incomplete, complete, h, e):
    """``complete[h, e, g]`` for every ``g`` (:func:`_best_complete`'s score; the row
    starts at -inf)."""
    row = complete[h, e]
    step = 1 if e > h else -1
    for m in range(h + step, e + step, step):
        _raise_row(row, incomplete[h, m], complete[m, e, h])


@njit
def eisner_grand(arc, sib, grand, n, single_root):
    """Best projective tree under arc, adjacent-sibling and grandparent scores (Koo &
    Collins 2010, Model 1 without its grand-sibling parts), O(n^4) time, O(n^3) memory.

    A tree scores ``sum arc[h, d] + sum sib[h, s, d] + sum grand[g, h, d]`` over its
    arcs, ``s`` as in :func:`eisner2` and ``g`` the head of ``h`` (words ``d`` whose head
    is the root have no grandparent part). ``single_root``: the root takes exactly one
    child (in the search, not by a penalty). Returns heads as :func:`eisner` does; ties
    go to the first split point in increasing order (the last child: the nearest).
    """
    N = n + 1
    complete = np.full((N, N, N), -np.inf)
    incomplete = np.full((N, N, N), -np.inf)
    sibling = np.full((N, N, N), -np.inf)
    for e in range(N):
        complete[e, e, :] = 0.0
    for k in range(1, N):
        for s in range(N - k):
            t = s + k
            a, b = _outside(s, t, N)
            if s > 0:
                _grand_sibling_row(sibling, complete, s, t)
            _grand_incomplete_row(incomplete, sibling, sib, complete, arc, grand, s, t,
                                  s == 0 and single_root, a, b)  # fmt: skip
            if s > 0:
                _grand_incomplete_row(incomplete, sibling, sib, complete, arc, grand, t, s,
                                      False, a, b)  # fmt: skip
            _grand_complete_row(incomplete, complete, s, t)
            if s > 0:
                _grand_complete_row(incomplete, complete, t, s)
    heads = np.full(N, -1, dtype=np.int64)
    stack = np.zeros((4 * N + 4, 4), dtype=np.int64)  # items (g, h, e, kind)
    _push(stack, 0, 0, 0, n, _COMPLETE)
    top = 1
    while top > 0:
        top -= 1
        g, h, e, kind = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
        if kind == _COMPLETE:
            if h != e:
                m = _best_complete(incomplete, complete, g, h, e)[1]
                _push(stack, top, g, h, m, _INCOMPLETE)
                _push(stack, top + 1, h, m, e, _COMPLETE)
                top += 2
        elif kind == _INCOMPLETE:
            heads[e] = h
            first = _first_child(complete, sib, h, e)
            r = _best_incomplete(incomplete, sibling, sib, first, g, h, e,
                                 h == 0 and single_root)[1]  # fmt: skip
            if r == -1:
                _push(stack, top, h, e, h + 1 if e > h else h - 1, _COMPLETE)
                top += 1
            else:
                _push(stack, top, g, h, r, _INCOMPLETE)
                _push(stack, top + 1, h, min(r, e), max(r, e), _SIBLING)
                top += 2
        else:
            r = _best_sibling(complete, g, h, e)[1]
            _push(stack, top, g, h, r, _COMPLETE)
            _push(stack, top + 1, g, e, r + 1, _COMPLETE)
            top += 2
    return heads


# -- Chu-Liu-Edmonds ---------------------------------------------------------------------------


@helper
def _find_cycle(heads, n_nodes):
    """A cycle of ``heads`` (node 0 has none) as a boolean mask, or an all-False mask."""
    color = np.zeros(n_nodes, dtype=np.int64)  # 0 new, 1 on the current path, 2 done
    in_cycle = np.zeros(n_nodes, dtype=np.bool_)
    for start in range(1, n_nodes):
        if color[start] != 0:
            continue
        v = start
        while v > 0 and color[v] == 0:
            color[v] = 1
            v = heads[v]
        if v > 0 and color[v] == 1:  # came back to the current path: a cycle through v
            u = v
            while True:
                in_cycle[u] = True
                u = heads[u]
                if u == v:
                    break
            return in_cycle
        v = start
        while v > 0 and color[v] == 1:
            color[v] = 2
            v = heads[v]
    return in_cycle


@helper
def _greedy_heads(arc):
    m = arc.shape[0]
    heads = np.full(m, -1, dtype=np.int64)
    for d in range(1, m):
        best, arg = -np.inf, 0
        for h in range(m):
            if h != d and arc[h, d] > best:
                best, arg = arc[h, d], h
        heads[d] = arg
    return heads


@njit
def chu_liu_edmonds(arc):
    """Maximum spanning arborescence rooted at node 0 (Chu & Liu 1965; Edmonds 1967).

    ``arc[h, d]`` of shape ``(m, m)``; -inf marks a missing arc. Returns heads (int64,
    ``heads[0] = -1``). Every node takes its best head; while that makes a cycle, the
    cycle is contracted into one node (arcs into it scored by what they displace) and
    the smaller graph solved the same way; the solutions are then expanded back, level
    by level. O(m^3) in all; ties go to the lowest head index.
    """
    # what each contraction needs to be undone: (greedy heads, nodes kept, for each kept
    # node the cycle node it enters / the cycle node it leaves from)
    saved_heads = [np.empty(0, dtype=np.int64)]
    saved_outside = [np.empty(0, dtype=np.int64)]
    saved_enter = [np.empty(0, dtype=np.int64)]
    saved_leave = [np.empty(0, dtype=np.int64)]
    current = arc
    while True:
        m = current.shape[0]
        heads = _greedy_heads(current)
        in_cycle = _find_cycle(heads, m)
        n_cycle = 0
        for v in range(m):
            n_cycle += in_cycle[v]
        if n_cycle == 0:
            break
        outside = np.empty(m - n_cycle, dtype=np.int64)
        j = 0
        for v in range(m):
            if not in_cycle[v]:
                outside[j] = v
                j += 1
        size = m - n_cycle + 1
        c = size - 1
        cycle_score = 0.0
        for v in range(m):
            if in_cycle[v]:
                cycle_score += current[heads[v], v]
        sub = np.full((size, size), -np.inf)
        enter = np.zeros(size, dtype=np.int64)
        leave = np.zeros(size, dtype=np.int64)
        for a in range(size - 1):
            u = outside[a]
            for b in range(1, size - 1):
                sub[a, b] = current[u, outside[b]]
            best, arg = -np.inf, -1
            for v in range(m):
                if in_cycle[v]:
                    score = current[u, v] - current[heads[v], v]
                    if score > best:
                        best, arg = score, v
            sub[a, c] = best + cycle_score
            enter[a] = arg
        for b in range(1, size - 1):
            v = outside[b]
            best, arg = -np.inf, -1
            for u in range(m):
                if in_cycle[u] and current[u, v] > best:
                    best, arg = current[u, v], u
            sub[c, b] = best
            leave[b] = arg
        saved_heads.append(heads)
        saved_outside.append(outside)
        saved_enter.append(enter)
        saved_leave.append(leave)
        current = sub
    while len(saved_heads) > 1:
        sub_heads = heads
        heads = saved_heads.pop().copy()
        outside, enter, leave = saved_outside.pop(), saved_enter.pop(), saved_leave.pop()
        c = outside.shape[0]
        for b in range(1, c):
            h = sub_heads[b]
            heads[outside[b]] = leave[b] if h == c else outside[h]
        a = sub_heads[c]
        heads[enter[a]] = outside[a]
    return heads


# -- decoding and training ---------------------------------------------------------------------


@njit
def scratch(longest, siblings):
    """Work arrays for sentences of up to ``longest`` words: (arc, sib, best_label,
    buffer, states, labels); ``sib`` a dummy without ``siblings`` (None)."""
    N = longest + 1
    arc = np.empty((N, N))
    if siblings is None:
        sib = np.empty((1, 1, 1))
    else:
        sib = np.empty((N, N, N))
    best_label = np.zeros((N, N), dtype=np.int64)
    size = arc_width(N, TRUE) + N_SIBLING_TEMPLATES + N_LABEL_TEMPLATES
    buffer = np.empty(size, dtype=np.int64)
    states = np.empty(N_LABEL_TEMPLATES, dtype=np.uint64)
    labels = np.zeros(N, dtype=np.int64)
    return arc, sib, best_label, buffer, states, labels


@njit
def decode(attrs, start, n, coef, n_features, siblings, grandparents, non_projective,
           single_root, n_labels, work, gold):  # fmt: skip
    """Best tree of one sentence under ``coef``: its heads, and with relation labels the
    labels in ``work[5]`` (``work`` from :func:`scratch`). With ``gold`` (the words' gold
    heads, word ``d``'s at ``gold[d - 1]``; None to decode) the structured SVM's oracle:
    the best tree under the arc scores plus the Hamming loss (:func:`add_arc_loss`).

    What to search is given by types, so that numba compiles only that decoder (see
    "What a first run compiles" in the architecture notes): ``siblings`` None (first
    order) or True (second order, Eisner with siblings); ``grandparents`` None or True
    (with siblings: Eisner with siblings and grandparents); ``non_projective`` None
    (Eisner) or True (Chu-Liu-Edmonds); ``n_labels`` None (unlabelled) or the number of
    relation labels.
    """
    arc, sib, best_label, buffer, states, labels = work
    arc_view = arc[: n + 1, : n + 1]
    arc_scores(attrs, start, n, coef, n_features, arc_view, buffer)
    if gold is not None:
        add_arc_loss(arc_view, n, gold)
    if n_labels is not None:
        add_label_scores(attrs, start, n, coef, n_features, n_labels, arc_view, best_label, states)
    sib_view = sib[: n + 1, : n + 1, : n + 1]
    if siblings is not None:
        sibling_scores(attrs, start, n, coef, n_features, sib_view)
    if single_root and grandparents is None:  # the grandparent search keeps it itself
        bound = 0.0 if siblings is None else largest_sibling_score(sib_view, n)
        single_root_penalty(arc_view, n, bound)
    if grandparents is not None:
        # made per sentence, as the search's own tables are
        grand = np.empty((n + 1, n + 1, n + 1))
        grandparent_scores(attrs, start, n, coef, n_features, grand, states, FALSE)
        heads = eisner_grand(arc_view, sib_view, grand, n, single_root)
    elif siblings is not None:
        heads = eisner2(arc_view, sib_view, n)
    elif non_projective is None:
        heads = eisner(arc_view, n)
    else:
        heads = chu_liu_edmonds(arc_view)
    if n_labels is not None:
        for d in range(1, n + 1):
            labels[d] = best_label[heads[d], d]
    return heads


@njit
def max_length(offsets):
    longest = 0
    for i in range(offsets.shape[0] - 1):
        longest = max(longest, offsets[i + 1] - offsets[i])
    return longest


@helper
def one_based_tree(heads, labels, start, n, n_labels, out_heads, out_labels):
    """The heads (and labels, unless ``n_labels`` is None) of words ``start:start + n``
    of flat arrays, as the decoders index them: word ``d`` at ``d`` (1..n), the root's
    head ``-1`` at 0."""
    out_heads[0] = -1
    for d in range(1, n + 1):
        out_heads[d] = heads[start + d - 1]
        if n_labels is not None:
            out_labels[d] = labels[start + d - 1]


@njit
def decode_trees(attrs, offsets, sentences, coef, n_features, siblings, grandparents,
                 non_projective, single_root, n_labels, work, heads_out,
                 labels_out):  # fmt: skip
    """Best trees of the sentences ``sentences`` under ``coef``: the heads and label ids
    (zeros when unlabelled) of sentence ``i``'s words go to ``heads_out`` and
    ``labels_out`` at ``offsets[i]:offsets[i + 1]`` (``work``: :func:`scratch` for the
    longest sentence; the options as in :func:`decode`). The one decoding loop of
    prediction, of a minibatch's decisions (a part of the sentences per thread: the
    kernel holds no GIL) and of :func:`perceptron_epoch`."""
    for s in range(sentences.shape[0]):
        start = offsets[sentences[s]]
        n = offsets[sentences[s] + 1] - start
        pred = decode(attrs, start, n, coef, n_features, siblings, grandparents, non_projective,
                      single_root, n_labels, work, None)  # fmt: skip
        for d in range(1, n + 1):
            heads_out[start + d - 1] = pred[d]
            labels_out[start + d - 1] = work[5][d]
