"""Dependency-tree kernels: hashed arc and sibling features, Eisner (first and second
order), Chu-Liu-Edmonds, and the fused perceptron epoch.

A sentence of ``n`` words is positions ``1..n``; position 0 is the artificial root.
``heads[d]`` is the head of word ``d`` (``heads[0]`` is unused, -1). Words are rows
``start .. start + n - 1`` of ``attrs`` (int64, one column per token attribute:
``FORM, POS, PREFIX`` and, where a fourth column is given, ``COARSE``: a coarse POS
that turns on the coarse-POS arc templates), whose values are vocabulary ids with
three reserved ones: ``UNKNOWN`` (not seen in training), ``ROOT`` (the root's
attributes) and ``NONE`` (beyond the sentence, for the surrounding-POS features).

Features are never stored: the ids of an arc's features (McDonald, Crammer & Pereira
2005, Table 1) and of a sibling part's (McDonald & Pereira 2006) are hashed from a
template number and the attribute ids into ``[0, n_features)`` whenever they are
needed, so scoring a sentence costs O(n^2 * templates) array reads and no Python.

Score matrices are ``arc[h, d]`` of shape ``(n + 1, n + 1)`` and, for second order,
``sib[h, s, d]``: the part "``d`` is the child of ``h`` next after ``s`` on the same
side" (``s == h``: ``d`` is ``h``'s first child on that side).
"""

import numpy as np

from ._config import njit

# numpy integers, not Python ints: numba types a Python int global as a literal, and a
# kernel called with each column's literal would be compiled once per column
FORM, POS, PREFIX, COARSE = (np.int64(column) for column in range(4))
N_ATTRS = 3  # without the optional COARSE column
UNKNOWN, ROOT, NONE = 0, 1, 2
N_RESERVED = 3
#: Features of one arc: 21 templates with and without direction and distance, plus one
#: in-between-POS feature per word between head and dependent; with a COARSE column,
#: 12 more templates (twice) and a second in-between feature per word.
N_ARC_TEMPLATES = 42
N_COARSE_TEMPLATES = 12
N_SIBLING_TEMPLATES = 12
N_LABEL_TEMPLATES = 10

_PRIME = np.uint64(1099511628211)
_OFFSET = np.uint64(14695981039346656037)
_M1 = np.uint64(0xFF51AFD7ED558CCD)
_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_S33 = np.uint64(33)
NO_DIST = 255


# Explicit signatures: called with literal template numbers, these would otherwise be
# compiled once per distinct tuple of literals (120 times on a cold cache).
@njit("uint64(int64, int64, int64, int64, int64)")
def _hash_prefix(template, a, b, c, d):
    """FNV-1a state after a template number and four attribute ids."""
    h = _OFFSET
    h = (h ^ np.uint64(template)) * _PRIME
    h = (h ^ np.uint64(a)) * _PRIME
    h = (h ^ np.uint64(b)) * _PRIME
    h = (h ^ np.uint64(c)) * _PRIME
    return (h ^ np.uint64(d)) * _PRIME


@njit("int64(uint64, int64, int64)")
def _hash_finish(h, x, n_features):
    """Mix the last word ``x`` into a prefix state, then the splitmix64 finaliser, so
    that the low bits (kept by the modulus) depend on every input."""
    h = (h ^ np.uint64(x)) * _PRIME
    h = (h ^ (h >> _S33)) * _M1
    h = (h ^ (h >> _S33)) * _M2
    h = h ^ (h >> _S33)
    size = np.uint64(n_features)
    if size & (size - np.uint64(1)) == 0:  # a power of two (the default): no division
        return np.int64(h & (size - np.uint64(1)))
    return np.int64(h % size)


@njit("int64(int64, int64, int64, int64, int64, int64, int64)")
def _hash(template, a, b, c, d, x, n_features):
    """Feature id of ``template`` over attribute ids ``a..d`` and a last word ``x``
    (direction and distance, or a label): FNV-1a over 64-bit words, then splitmix64."""
    return _hash_finish(_hash_prefix(template, a, b, c, d), x, n_features)


@njit
def direction_distance(h, d):
    """``dir * 8 + bucket``: dir 1 for a head left of its dependent; buckets 1-5, 6-10, >10."""
    dist = abs(h - d)
    bucket = dist if dist <= 5 else (6 if dist <= 10 else 7)
    return (1 if h < d else 0) * 8 + bucket


@njit
def _attr(attrs, start, n, i, column):
    """Attribute ``column`` of position ``i`` (0 the root, beyond 1..n NONE)."""
    if i == 0:
        return ROOT
    if i < 0 or i > n:
        return NONE
    return attrs[start + i - 1, column]


@njit
def has_coarse(attrs):
    """Whether token attributes carry the COARSE column (the coarse-POS templates)."""
    return attrs.shape[1] > COARSE


@njit
def arc_width(n, coarse):
    """Room for the feature ids of one arc in a sentence of ``n`` words."""
    if coarse:
        return N_ARC_TEMPLATES + 2 * N_COARSE_TEMPLATES + 2 * n
    return N_ARC_TEMPLATES + n


@njit(inline="always")
def arc_feature_ids(attrs, start, n, h, d, n_features, out):
    """Write the feature ids of arc ``h -> d`` into ``out``; returns how many.

    ``out`` needs ``arc_width(n, has_coarse(attrs))`` entries. The coarse-POS ids come
    after all the others, so that a model without them runs the very same loop.
    """
    k = _fine_arc_ids(attrs, start, n, h, d, n_features, out)
    if has_coarse(attrs):
        # np.int64: k may be typed as a literal where the fine ids are inlined, and a
        # literal argument compiles a copy of its own
        k = _coarse_arc_ids(attrs, start, n, h, d, n_features, out, np.int64(k))
    return k


@njit(inline="always")
def _fine_arc_ids(attrs, start, n, h, d, n_features, out):
    hf, hp = _attr(attrs, start, n, h, FORM), _attr(attrs, start, n, h, POS)
    hx = _attr(attrs, start, n, h, PREFIX)
    df, dp = _attr(attrs, start, n, d, FORM), _attr(attrs, start, n, d, POS)
    dx = _attr(attrs, start, n, d, PREFIX)
    hp_l, hp_r = _attr(attrs, start, n, h - 1, POS), _attr(attrs, start, n, h + 1, POS)
    dp_l, dp_r = _attr(attrs, start, n, d - 1, POS), _attr(attrs, start, n, d + 1, POS)
    dd = direction_distance(h, d)
    k = 0
    for conj in range(2):
        x = NO_DIST if conj == 0 else dd
        # uni-gram
        out[k + 0] = _hash(1, hf, hp, 0, 0, x, n_features)
        out[k + 1] = _hash(2, hf, 0, 0, 0, x, n_features)
        out[k + 2] = _hash(3, hp, 0, 0, 0, x, n_features)
        out[k + 3] = _hash(4, df, dp, 0, 0, x, n_features)
        out[k + 4] = _hash(5, df, 0, 0, 0, x, n_features)
        out[k + 5] = _hash(6, dp, 0, 0, 0, x, n_features)
        # bi-gram
        out[k + 6] = _hash(7, hf, hp, df, dp, x, n_features)
        out[k + 7] = _hash(8, hp, df, dp, 0, x, n_features)
        out[k + 8] = _hash(9, hf, df, dp, 0, x, n_features)
        out[k + 9] = _hash(10, hf, hp, dp, 0, x, n_features)
        out[k + 10] = _hash(11, hf, hp, df, 0, x, n_features)
        out[k + 11] = _hash(12, hf, df, 0, 0, x, n_features)
        out[k + 12] = _hash(13, hp, dp, 0, 0, x, n_features)
        # 5-character prefixes in place of words
        out[k + 13] = _hash(14, hx, dx, 0, 0, x, n_features)
        out[k + 14] = _hash(15, hx, dp, 0, 0, x, n_features)
        out[k + 15] = _hash(16, hp, dx, 0, 0, x, n_features)
        out[k + 16] = _hash(17, hx, hp, dx, dp, x, n_features)
        # surrounding POS
        out[k + 17] = _hash(18, hp, hp_r, dp_l, dp, x, n_features)
        out[k + 18] = _hash(19, hp_l, hp, dp_l, dp, x, n_features)
        out[k + 19] = _hash(20, hp, hp_r, dp, dp_r, x, n_features)
        out[k + 20] = _hash(21, hp_l, hp, dp, dp_r, x, n_features)
        k += 21
    # POS of every word in between, with direction and distance
    for b in range(min(h, d) + 1, max(h, d)):
        out[k] = _hash(22, hp, _attr(attrs, start, n, b, POS), dp, 0, dd, n_features)
        k += 1
    return k


@njit
def _coarse_arc_ids(attrs, start, n, h, d, n_features, out, k):
    """The coarse-POS templates of arc ``h -> d``, written from ``out[k]`` on."""
    hf, df = _attr(attrs, start, n, h, FORM), _attr(attrs, start, n, d, FORM)
    hc, dc = _attr(attrs, start, n, h, COARSE), _attr(attrs, start, n, d, COARSE)
    hc_l, hc_r = _attr(attrs, start, n, h - 1, COARSE), _attr(attrs, start, n, h + 1, COARSE)
    dc_l, dc_r = _attr(attrs, start, n, d - 1, COARSE), _attr(attrs, start, n, d + 1, COARSE)
    dd = direction_distance(h, d)
    for conj in range(2):
        x = NO_DIST if conj == 0 else dd
        # words with coarse POS
        out[k + 0] = _hash(61, hf, hc, 0, 0, x, n_features)
        out[k + 1] = _hash(62, hc, 0, 0, 0, x, n_features)
        out[k + 2] = _hash(63, df, dc, 0, 0, x, n_features)
        out[k + 3] = _hash(64, dc, 0, 0, 0, x, n_features)
        out[k + 4] = _hash(65, hf, hc, df, dc, x, n_features)
        out[k + 5] = _hash(66, hc, df, dc, 0, x, n_features)
        out[k + 6] = _hash(67, hf, hc, dc, 0, x, n_features)
        out[k + 7] = _hash(68, hc, dc, 0, 0, x, n_features)
        # surrounding coarse POS
        out[k + 8] = _hash(69, hc, hc_r, dc_l, dc, x, n_features)
        out[k + 9] = _hash(70, hc_l, hc, dc_l, dc, x, n_features)
        out[k + 10] = _hash(71, hc, hc_r, dc, dc_r, x, n_features)
        out[k + 11] = _hash(72, hc_l, hc, dc, dc_r, x, n_features)
        k += N_COARSE_TEMPLATES
    for b in range(min(h, d) + 1, max(h, d)):
        out[k] = _hash(73, hc, _attr(attrs, start, n, b, COARSE), dc, 0, dd, n_features)
        k += 1
    return k


@njit
def sibling_feature_ids(attrs, start, n, h, s, d, n_features, out):
    """Write the feature ids of sibling part ``(h, s, d)`` into ``out``; returns how many.

    ``s == h`` marks ``d`` as the first child on its side (the sibling is NONE).
    ``out`` needs ``N_SIBLING_TEMPLATES`` entries.
    """
    hp = _attr(attrs, start, n, h, POS)
    df, dp = _attr(attrs, start, n, d, FORM), _attr(attrs, start, n, d, POS)
    if s == h:
        sf, sp = NONE, NONE
    else:
        sf, sp = _attr(attrs, start, n, s, FORM), _attr(attrs, start, n, s, POS)
    direction = 1 if h < d else 0
    k = 0
    for conj in range(2):
        x = NO_DIST if conj == 0 else direction
        out[k + 0] = _hash(31, hp, sp, dp, 0, x, n_features)
        out[k + 1] = _hash(32, sp, dp, 0, 0, x, n_features)
        out[k + 2] = _hash(33, sf, df, 0, 0, x, n_features)
        out[k + 3] = _hash(34, sf, dp, 0, 0, x, n_features)
        out[k + 4] = _hash(35, sp, df, 0, 0, x, n_features)
        out[k + 5] = _hash(36, hp, sp, dp, abs(s - d) if s != h else 0, x, n_features)
        k += 6
    return k


@njit
def label_prefixes(attrs, start, n, h, d, out):
    """Hash states of the label templates of arc ``h -> d`` (``N_LABEL_TEMPLATES``): a
    label feature is one of these finished with the label and the direction."""
    hf, hp = _attr(attrs, start, n, h, FORM), _attr(attrs, start, n, h, POS)
    df, dp = _attr(attrs, start, n, d, FORM), _attr(attrs, start, n, d, POS)
    hp_r = _attr(attrs, start, n, h + 1, POS)
    dp_l, dp_r = _attr(attrs, start, n, d - 1, POS), _attr(attrs, start, n, d + 1, POS)
    out[0] = _hash_prefix(41, hp, dp, 0, 0)
    out[1] = _hash_prefix(42, hf, dp, 0, 0)
    out[2] = _hash_prefix(43, hp, df, 0, 0)
    out[3] = _hash_prefix(44, df, 0, 0, 0)
    out[4] = _hash_prefix(45, dp, 0, 0, 0)
    out[5] = _hash_prefix(46, hp, 0, 0, 0)
    out[6] = _hash_prefix(47, hf, 0, 0, 0)
    out[7] = _hash_prefix(48, hp, dp, direction_distance(h, d), 0)
    out[8] = _hash_prefix(49, dp_l, dp, dp_r, 0)
    out[9] = _hash_prefix(50, hp, hp_r, dp, 0)


@njit
def label_feature_ids(attrs, start, n, h, d, label, n_features, states, out):
    """Write the ids of the label features of arc ``h -> d`` with ``label``; returns how
    many (``N_LABEL_TEMPLATES``). ``states`` is scratch for the hash states."""
    label_prefixes(attrs, start, n, h, d, states)
    x = label * 2 + (1 if h < d else 0)
    for t in range(N_LABEL_TEMPLATES):
        out[t] = _hash_finish(states[t], x, n_features)
    return N_LABEL_TEMPLATES


@njit
def add_label_scores(attrs, start, n, coef, n_features, n_labels, arc, best_label, states):
    """``arc[h, d] += max_l score(h, d, l)``, the best label kept in ``best_label[h, d]``.

    This keeps first-order labelled parsing exact: given the arcs, each label is chosen
    on its own. Ties go to the lowest label id.
    """
    for h in range(n + 1):
        for d in range(1, n + 1):
            if h == d:
                continue
            label_prefixes(attrs, start, n, h, d, states)
            direction = 1 if h < d else 0
            best, arg = -np.inf, 0
            for label in range(n_labels):
                x = label * 2 + direction
                total = 0.0
                for t in range(N_LABEL_TEMPLATES):
                    total += coef[_hash_finish(states[t], x, n_features)]
                if total > best:
                    best, arg = total, label
            arc[h, d] += best
            best_label[h, d] = arg


@njit
def label_score_tensor(attrs, start, n, coef, n_features, n_labels, out, states):
    """Fill ``out[h, d, l]`` with the label-feature score of arc ``h -> d`` labelled ``l``."""
    for h in range(n + 1):
        for d in range(1, n + 1):
            if h == d:
                continue
            label_prefixes(attrs, start, n, h, d, states)
            direction = 1 if h < d else 0
            for label in range(n_labels):
                total = 0.0
                for t in range(N_LABEL_TEMPLATES):
                    total += coef[_hash_finish(states[t], label * 2 + direction, n_features)]
                out[h, d, label] = total


@njit
def _sum_at(coef, ids, k):
    total = 0.0
    for j in range(k):
        total += coef[ids[j]]
    return total


@njit
def arc_scores(attrs, start, n, coef, n_features, out, buffer):
    """Fill ``out[h, d]`` (``(n + 1, n + 1)``) with arc scores; impossible arcs get -inf."""
    for h in range(n + 1):
        out[h, 0] = -np.inf
        for d in range(1, n + 1):
            if h == d:
                out[h, d] = -np.inf
                continue
            k = arc_feature_ids(attrs, start, n, h, d, n_features, buffer)
            out[h, d] = _sum_at(coef, buffer, k)


@njit
def sibling_scores(attrs, start, n, coef, n_features, out, buffer):
    """Fill ``out[h, s, d]`` for every sibling part (``s == h`` or ``s`` between h and d)."""
    for h in range(n + 1):
        for d in range(1, n + 1):
            if d == h:
                continue
            k = sibling_feature_ids(attrs, start, n, h, h, d, n_features, buffer)
            out[h, h, d] = _sum_at(coef, buffer, k)
            for s in range(min(h, d) + 1, max(h, d)):
                k = sibling_feature_ids(attrs, start, n, h, s, d, n_features, buffer)
                out[h, s, d] = _sum_at(coef, buffer, k)


@njit
def single_root_penalty(arc, n):
    """Subtract from every root arc more than any two trees' scores can differ by.

    Every tree has at least one root arc, so the best tree under the penalised scores
    is the best tree with exactly one root child.
    """
    biggest = 0.0
    for h in range(n + 1):
        for d in range(1, n + 1):
            if h != d and abs(arc[h, d]) > biggest:
                biggest = abs(arc[h, d])
    penalty = 1.0 + 2.0 * (n + 1) * biggest
    for d in range(1, n + 1):
        arc[0, d] -= penalty
    return penalty


# an explicit signature: called with literal directions and kinds, the helper would be
# compiled once per combination of literals (5 copies)
@njit("void(int64[:, ::1], int64, int64, int64, int64, int64)")
def _push(stack, i, a, b, c, d):
    stack[i, 0], stack[i, 1], stack[i, 2], stack[i, 3] = a, b, c, d


_COMPLETE, _INCOMPLETE, _SIBLING = 0, 1, 2  # kinds of items on the backtracking stacks


@njit
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


@njit
def _best_meeting(complete, s, t):
    """Best ``complete[s, r, right] + complete[r + 1, t, left]`` over ``r``: the two
    halves an arc between ``s`` and ``t`` (or a sibling pair) joins. Returns (score, r)."""
    best, arg = -np.inf, s
    for r in range(s, t):
        v = complete[s, r, 1] + complete[r + 1, t, 0]
        if v > best:
            best, arg = v, r
    return best, arg


@njit
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


# -- Chu-Liu-Edmonds ---------------------------------------------------------------------------


@njit
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


@njit
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
    size = arc_width(N, True) + N_SIBLING_TEMPLATES + N_LABEL_TEMPLATES
    buffer = np.empty(size, dtype=np.int64)
    states = np.empty(N_LABEL_TEMPLATES, dtype=np.uint64)
    labels = np.zeros(N, dtype=np.int64)
    return arc, sib, best_label, buffer, states, labels


@njit
def decode(attrs, start, n, coef, n_features, siblings, non_projective, single_root, n_labels,
           work):  # fmt: skip
    """Best tree of one sentence under ``coef``: its heads, and with relation labels the
    labels in ``work[5]`` (``work`` from :func:`scratch`).

    What to search is given by types, so that numba compiles only that decoder (see
    "What a first run compiles" in the architecture notes): ``siblings`` None (first
    order) or True (second order, Eisner with siblings); ``non_projective`` None
    (Eisner) or True (Chu-Liu-Edmonds); ``n_labels`` None (unlabelled) or the number of
    relation labels.
    """
    arc, sib, best_label, buffer, states, labels = work
    arc_view = arc[: n + 1, : n + 1]
    arc_scores(attrs, start, n, coef, n_features, arc_view, buffer)
    if n_labels is not None:
        add_label_scores(attrs, start, n, coef, n_features, n_labels, arc_view, best_label, states)
    if single_root:
        single_root_penalty(arc_view, n)
    if siblings is not None:
        sib_view = sib[: n + 1, : n + 1, : n + 1]
        sibling_scores(attrs, start, n, coef, n_features, sib_view, buffer)
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
def sibling_parts(heads, n, out):
    """Write the sibling parts ``(h, s, d)`` of a head vector into ``out`` (``(n, 3)``);
    returns how many. Children are taken outwards from the head, right side first;
    the first child on a side has ``s == h``. Any head vector works, tree or not.
    """
    k = 0
    for h in range(n + 1):
        prev = h
        for d in range(h + 1, n + 1):
            if heads[d] == h:
                out[k, 0], out[k, 1], out[k, 2] = h, prev, d
                prev = d
                k += 1
        prev = h
        for d in range(h - 1, 0, -1):
            if heads[d] == h:
                out[k, 0], out[k, 1], out[k, 2] = h, prev, d
                prev = d
                k += 1
    return k


@njit
def head_vector_score(arc, sib, lab, heads, labels, n, order, n_labels):
    """Score of any head vector (a tree or a mixed assignment) and its labels under
    arc, sibling (order 2) and label (``n_labels > 0``) scores."""
    total = 0.0
    for d in range(1, n + 1):
        total += arc[heads[d], d]
        if n_labels > 0:
            total += lab[heads[d], d, labels[d]]
    if order == 2:
        parts = np.empty((n, 3), dtype=np.int64)
        for j in range(sibling_parts(heads, n, parts)):
            total += sib[parts[j, 0], parts[j, 1], parts[j, 2]]
    return total


@njit
def add_tree_features(
    attrs, start, n, heads, labels, coef, n_features, siblings, n_labels, scale, buffer, states
):
    """``coef[phi(x, heads, labels)] += scale``: arc features, label features when
    ``n_labels`` is not None, sibling features when ``siblings`` is not None (see
    :func:`decode`).

    ``heads`` may be any head vector, a tree or not (a mixed assignment of SWVP).
    """
    for d in range(1, n + 1):
        k = arc_feature_ids(attrs, start, n, heads[d], d, n_features, buffer)
        for j in range(k):
            coef[buffer[j]] += scale
        if n_labels is not None:
            k = label_feature_ids(
                attrs, start, n, heads[d], d, labels[d], n_features, states, buffer
            )
            for j in range(k):
                coef[buffer[j]] += scale
    if siblings is not None:
        parts = np.empty((n, 3), dtype=np.int64)
        for p in range(sibling_parts(heads, n, parts)):
            h, s, d = parts[p, 0], parts[p, 1], parts[p, 2]
            k = sibling_feature_ids(attrs, start, n, h, s, d, n_features, buffer)
            for j in range(k):
                coef[buffer[j]] += scale


@njit
def learn_tree(attrs, start, n, gold, gold_labels, pred, pred_labels, coef, coef_sum, n_seen,
               n_features, siblings, n_labels, buffer, states):  # fmt: skip
    """The perceptron update of one parsed sentence, with lazy averaging, when a head or
    (``n_labels`` not None) a label is wrong. Returns (whether it was a mistake, wrong
    heads).
    """
    wrong_heads, wrong = 0, False
    for d in range(1, n + 1):
        if pred[d] != gold[d]:
            wrong_heads += 1
            wrong = True
        elif n_labels is not None and pred_labels[d] != gold_labels[d]:
            wrong = True
    if wrong:
        for target, t in ((coef, 1.0), (coef_sum, float(n_seen))):
            if t == 0.0:
                continue
            add_tree_features(attrs, start, n, gold, gold_labels, target, n_features, siblings,
                              n_labels, t, buffer, states)  # fmt: skip
            add_tree_features(attrs, start, n, pred, pred_labels, target, n_features, siblings,
                              n_labels, -t, buffer, states)  # fmt: skip
    return wrong, wrong_heads


@njit
def max_length(offsets):
    longest = 0
    for i in range(offsets.shape[0] - 1):
        longest = max(longest, offsets[i + 1] - offsets[i])
    return longest


@njit
def perceptron_epoch(
    attrs, offsets, heads, labels, visit, coef, coef_sum, n_seen, n_features, siblings,
    non_projective, single_root, n_labels,
):  # fmt: skip
    """One perceptron epoch over the sentences in ``visit``, with lazy averaging.

    ``heads`` and ``labels`` hold every word's gold head and label id (ignored when
    ``n_labels`` is None: unlabelled), sentence by sentence, aligned with the rows of
    ``attrs``; ``siblings``, ``non_projective`` and ``n_labels`` as in :func:`decode`. A
    sentence is a mistake when a head or a label is wrong. Updates ``coef`` and
    ``coef_sum`` in place; returns (mistakes, correct heads before each update,
    examples seen).
    """
    work = scratch(max_length(offsets), siblings)
    buffer, states = work[3], work[4]
    N = work[0].shape[0]
    gold = np.empty(N, dtype=np.int64)
    gold_labels = np.zeros(N, dtype=np.int64)
    pred, pred_labels = np.empty(N, dtype=np.int64), np.zeros(N, dtype=np.int64)
    heads_out = np.empty(offsets[-1], dtype=np.int64)
    labels_out = np.zeros(offsets[-1], dtype=np.int64)
    mistakes, correct = 0, 0
    for step in range(visit.shape[0]):
        i = visit[step]
        start = offsets[i]
        n = offsets[i + 1] - start
        one_based_tree(heads, labels, start, n, n_labels, gold, gold_labels)
        # prediction's loop, on one sentence: a fit compiles what predicting runs
        decode_trees(attrs, offsets, visit[step : step + 1], coef, n_features, siblings,
                     non_projective, single_root, n_labels, work, heads_out,
                     labels_out)  # fmt: skip
        one_based_tree(heads_out, labels_out, start, n, n_labels, pred, pred_labels)
        wrong, wrong_heads = learn_tree(attrs, start, n, gold, gold_labels, pred, pred_labels, coef,
                                        coef_sum, n_seen, n_features, siblings, n_labels, buffer,
                                        states)  # fmt: skip
        correct += n - wrong_heads
        mistakes += wrong
        n_seen += 1
    return mistakes, correct, n_seen


@njit
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
def decode_trees(attrs, offsets, sentences, coef, n_features, siblings, non_projective,
                 single_root, n_labels, work, heads_out, labels_out):  # fmt: skip
    """Best trees of the sentences ``sentences`` under ``coef``: the heads and label ids
    (zeros when unlabelled) of sentence ``i``'s words go to ``heads_out`` and
    ``labels_out`` at ``offsets[i]:offsets[i + 1]`` (``work``: :func:`scratch` for the
    longest sentence; the options as in :func:`decode`). The one decoding loop of
    prediction, of a minibatch's decisions (a part of the sentences per thread: the
    kernel holds no GIL) and of :func:`perceptron_epoch`."""
    for s in range(sentences.shape[0]):
        start = offsets[sentences[s]]
        n = offsets[sentences[s] + 1] - start
        pred = decode(attrs, start, n, coef, n_features, siblings, non_projective, single_root,
                      n_labels, work)  # fmt: skip
        for d in range(1, n + 1):
            heads_out[start + d - 1] = pred[d]
            labels_out[start + d - 1] = work[5][d]


@njit
def apply_tree_decisions(
    attrs, offsets, heads, labels, batch, pred_heads, pred_labels, coef, coef_sum, n_seen,
    n_features, siblings, n_labels,
):  # fmt: skip
    """The updates for the trees :func:`decode_trees` found for ``batch`` (in their
    sentences' places of ``pred_heads``, ``pred_labels``), applied in order with lazy
    averaging (the second half of a minibatch epoch). Returns (mistakes, correct heads,
    n_seen), as ``perceptron_epoch``."""
    longest = 0
    for b in range(batch.shape[0]):
        longest = max(longest, offsets[batch[b] + 1] - offsets[batch[b]])
    work = scratch(longest, siblings)
    buffer, states = work[3], work[4]
    N = longest + 1
    gold, gold_labels = np.empty(N, dtype=np.int64), np.zeros(N, dtype=np.int64)
    pred, pred_label = np.empty(N, dtype=np.int64), np.zeros(N, dtype=np.int64)
    mistakes, correct = 0, 0
    for b in range(batch.shape[0]):
        start = offsets[batch[b]]
        n = offsets[batch[b] + 1] - start
        one_based_tree(heads, labels, start, n, n_labels, gold, gold_labels)
        one_based_tree(pred_heads, pred_labels, start, n, n_labels, pred, pred_label)
        wrong, wrong_heads = learn_tree(attrs, start, n, gold, gold_labels, pred, pred_label, coef,
                                        coef_sum, n_seen, n_features, siblings, n_labels, buffer,
                                        states)  # fmt: skip
        correct += n - wrong_heads
        mistakes += wrong
        n_seen += 1
    return mistakes, correct, n_seen
