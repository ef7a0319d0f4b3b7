"""Part scores of a dependency tree: the arc, sibling, grandparent and label scores of
a sentence under the weights (from the hashed features of :mod:`.arc_features`), the
single-root penalty, and the score of a given head vector.

Score matrices are ``arc[h, d]`` of shape ``(n + 1, n + 1)`` and, for second order,
``sib[h, s, d]``: the part "``d`` is the child of ``h`` next after ``s`` on the same
side" (``s == h``: ``d`` is ``h``'s first child on that side), and with grandparents
``grand[g, h, d]``: the part "``g`` is the head of ``h``, ``h`` the head of ``d``"
(``h`` a word, not the root).
"""

import numpy as np

from ._config import helper, njit
from .arc_features import (
    COARSE,
    FORM,
    N_LABEL_TEMPLATES,
    NO_DIST,
    NONE,
    POS,
    _attr,
    _hash_finish,
    _hash_prefix,
    arc_feature_ids,
    grandparent_directions,
    grandparent_pair_prefixes,
    grandparent_triple_prefixes,
    has_coarse,
    label_prefixes,
    sibling_pair_score,
)


@helper
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


@helper
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
def local_ids(attrs, start, n, column, out):
    """Sentence-local ids of attribute ``column`` at positions ``0..n`` (the root at 0)
    in ``out``: equal values get equal ids, ``0..k - 1`` in order of first appearance.
    Returns ``k``. The score kernels index their tables of template weights by them."""
    k = 0
    for i in range(n + 1):
        value = _attr(attrs, start, n, i, column)
        out[i] = -1
        for j in range(i):
            if _attr(attrs, start, n, j, column) == value:
                out[i] = out[j]
                break
        if out[i] < 0:
            out[i] = k
            k += 1
    return k


@njit
def sibling_scores(attrs, start, n, coef, n_features, out):
    """Fill ``out[h, s, d]`` for every sibling part (``s == h`` or ``s`` between h and d)
    with the summed weights of :func:`sibling_feature_ids`.

    The templates over the sibling and the dependent alone are scored once per pair of
    words, not once per head: a sibling between head and dependent is on the head's
    side of the dependent, so the pair gives the direction (and a first child, whose
    sibling is NONE, has one score per side). The weights of the template over the
    three POS (31) are kept in a table indexed by the words' sentence-local tags
    (:func:`local_ids`): a sentence repeats a few tags' triples thousands of times, and
    the table is small where the weights are tens of MB read at random. Each cell sums
    templates 31 and 36 (alone, then with the direction), then adds the pair's score."""
    N = n + 1
    pair = np.empty((N, N))  # pair[s, d]: the sibling s beside d, on s's side
    first = np.empty((N, 2))  # first[d, direction]: d a first child
    for d in range(1, N):
        df, dp = _attr(attrs, start, n, d, FORM), _attr(attrs, start, n, d, POS)
        for direction in range(2):
            first[d, direction] = sibling_pair_score(coef, NONE, NONE, df, dp, direction,
                                                     n_features)  # fmt: skip
        for s in range(1, N):
            if s != d:
                sf, sp = _attr(attrs, start, n, s, FORM), _attr(attrs, start, n, s, POS)
                pair[s, d] = sibling_pair_score(coef, sf, sp, df, dp, 1 if s < d else 0,
                                                n_features)  # fmt: skip
    pos = np.empty(N, np.int64)
    k = local_ids(attrs, start, n, POS, pos)
    # template 31's weights (the three POS; a first child's sibling NONE at k), kept per
    # sentence-local tags: slot 0 alone, slot 1 + direction with it
    three_tags = np.full((k, k + 1, k, 3), np.nan)
    for h in range(N):
        hp, hl = _attr(attrs, start, n, h, POS), pos[h]
        for d in range(1, N):
            if d == h:
                continue
            dp, dl = _attr(attrs, start, n, d, POS), pos[d]
            direction = 1 if h < d else 0
            for step in range(abs(h - d)):  # the first child (s == h), then s between
                if step == 0:
                    s, sp, sl, distance, pairs = h, NONE, k, 0, first[d, direction]
                else:
                    s = min(h, d) + step
                    sp, sl, distance = _attr(attrs, start, n, s, POS), pos[s], abs(s - d)
                    pairs = pair[s, d]
                alone = three_tags[hl, sl, dl, 0]
                with_direction = three_tags[hl, sl, dl, 1 + direction]
                if np.isnan(alone) or np.isnan(with_direction):
                    prefix = _hash_prefix(31, hp, sp, dp, 0)
                    alone = coef[_hash_finish(prefix, NO_DIST, n_features)]
                    with_direction = coef[_hash_finish(prefix, direction, n_features)]
                    three_tags[hl, sl, dl, 0] = alone
                    three_tags[hl, sl, dl, 1 + direction] = with_direction
                prefix = _hash_prefix(36, hp, sp, dp, distance)  # with the distance
                triple = 0.0
                triple += alone
                triple += with_direction
                triple += coef[_hash_finish(prefix, NO_DIST, n_features)]
                triple += coef[_hash_finish(prefix, direction, n_features)]
                out[h, s, d] = triple + pairs


@njit
def grandparent_scores(attrs, start, n, coef, n_features, out, states, every):
    """Fill ``out[g, h, d]`` for the grandparent parts: ``h`` and ``d`` words, ``g``
    (the root or a word) outside the span of ``h`` and ``d``, as in projective trees;
    with ``every``, any ``g`` but ``h`` (``g`` between them, or ``d`` itself), so that
    any head vector can be scored. Other cells are left as they are.

    The templates over the grandparent and the dependent alone are scored once per
    pair of words and directions, not once per head between them. Those over all three
    words (:func:`grandparent_triple_prefixes`' four, written out here) keep their
    weights in tables indexed by the words' sentence-local tags (:func:`local_ids`) and
    positions, as :func:`sibling_scores` does, read from ``coef`` before the cells are
    summed (see below); each cell sums the same weights in the same order as
    :func:`_grandparent_cell`, so that both give the same number. (Written out: a loop
    over the templates ran 20 % slower, and a function taking the table, a helper or
    inlined by numba, 50-80 % slower.) ``states``: scratch for 5 hash states."""
    N = n + 1
    pair = np.zeros((N, N, 4))
    for g in range(N):
        for d in range(1, N):
            for t in range(grandparent_pair_prefixes(attrs, start, n, g, d, states)):
                alone = coef[_hash_finish(states[t], NO_DIST, n_features)]
                for x in range(4):
                    pair[g, d, x] += alone + coef[_hash_finish(states[t], x, n_features)]
    coarse = has_coarse(attrs)
    form, tag, ctag = np.empty(N, np.int64), np.empty(N, np.int64), np.zeros(N, np.int64)
    for i in range(N):
        form[i], tag[i] = _attr(attrs, start, n, i, FORM), _attr(attrs, start, n, i, POS)
        if coarse:
            ctag[i] = _attr(attrs, start, n, i, COARSE)
    pos, cpos = np.empty(N, np.int64), np.zeros(N, np.int64)
    k = local_ids(attrs, start, n, POS, pos)
    kc = local_ids(attrs, start, n, COARSE, cpos) if coarse else 1
    # The four templates' weights, in one array of four tables back to back: 141 (the
    # three POS), 146 (by the grandparent's position), 147 (by the dependent's
    # position), 148 (the three coarse POS); each indexed by the head's and the
    # dependent's keys first and the grandparent's last (the loop over grandparents
    # then reads a few hundred contiguous bytes), slot 0 the template alone, slot
    # 1 + x with the directions x. They are found before any cell is summed: a first
    # walk over the cells hashes each key a cell needs, once, into ``at``; then one
    # loop of independent loads reads them from ``coef`` (tens of MB), which the
    # processor overlaps, where a weight read when its first cell met it waited for
    # memory alone (most of this kernel's time). A second walk sums the cells.
    o146 = k * k * k * 5
    o147 = o146 + k * k * N * 5
    o148 = o147 + k * N * k * 5
    at = np.full(o148 + kc * kc * kc * 5, -1, np.int64)
    weights = np.empty(at.shape[0])
    for walk in range(2):
        if walk == 1:
            for p in range(at.shape[0]):
                if at[p] >= 0:
                    weights[p] = coef[at[p]]
        for h in range(1, N):
            hp, hc = pos[h], cpos[h]
            for d in range(1, N):
                if d == h:
                    continue
                dp, dc = pos[d], cpos[d]
                lo, hi = min(h, d), max(h, d)
                for g in range(N):
                    if g == h or (not every and lo <= g <= hi):
                        continue
                    x = grandparent_directions(g, h, d)
                    gp = pos[g]
                    p141 = ((hp * k + dp) * k + gp) * 5
                    p146 = o146 + ((hp * k + dp) * N + g) * 5
                    p147 = o147 + ((hp * N + d) * k + gp) * 5
                    p148 = o148 + ((hc * kc + dc) * kc + cpos[g]) * 5
                    if walk == 0:
                        if at[p141] < 0 or at[p141 + 1 + x] < 0:
                            pre = _hash_prefix(141, tag[g], tag[h], tag[d], 0)
                            at[p141] = _hash_finish(pre, NO_DIST, n_features)
                            at[p141 + 1 + x] = _hash_finish(pre, x, n_features)
                        if at[p146] < 0 or at[p146 + 1 + x] < 0:
                            pre = _hash_prefix(146, form[g], tag[h], tag[d], 0)
                            at[p146] = _hash_finish(pre, NO_DIST, n_features)
                            at[p146 + 1 + x] = _hash_finish(pre, x, n_features)
                        if at[p147] < 0 or at[p147 + 1 + x] < 0:
                            pre = _hash_prefix(147, tag[g], tag[h], form[d], 0)
                            at[p147] = _hash_finish(pre, NO_DIST, n_features)
                            at[p147 + 1 + x] = _hash_finish(pre, x, n_features)
                        if coarse and (at[p148] < 0 or at[p148 + 1 + x] < 0):
                            pre = _hash_prefix(148, ctag[g], ctag[h], ctag[d], 0)
                            at[p148] = _hash_finish(pre, NO_DIST, n_features)
                            at[p148 + 1 + x] = _hash_finish(pre, x, n_features)
                        continue
                    total = pair[g, d, x]
                    total += weights[p141]
                    total += weights[p141 + 1 + x]
                    total += weights[p146]
                    total += weights[p146 + 1 + x]
                    total += weights[p147]
                    total += weights[p147 + 1 + x]
                    if coarse:
                        total += weights[p148]
                        total += weights[p148 + 1 + x]
                    out[g, h, d] = total


@helper
def _grandparent_cell(attrs, start, n, coef, n_features, g, h, d, states):
    """The score of grandparent part ``(g, h, d)``, summed in the order in which
    :func:`grandparent_scores` sums its cell (the pair templates first, then those of
    all three words), so that both give the same number."""
    x = grandparent_directions(g, h, d)
    total = 0.0
    for t in range(grandparent_pair_prefixes(attrs, start, n, g, d, states)):
        total += (
            coef[_hash_finish(states[t], NO_DIST, n_features)]
            + coef[_hash_finish(states[t], x, n_features)]
        )
    for t in range(grandparent_triple_prefixes(attrs, start, n, g, h, d, states)):
        total += coef[_hash_finish(states[t], NO_DIST, n_features)]
        total += coef[_hash_finish(states[t], x, n_features)]
    return total


@njit
def fill_grandparent_parts(attrs, start, n, coef, n_features, grand, heads, states):
    """Score the grandparent parts ``(heads[h], h, d)`` of a head vector (slot 0 the
    root's) whose cells of ``grand`` are NaN: the cells that :func:`grandparent_scores`
    leaves without ``every`` (a grandparent between the two words, which no projective
    tree has), met only by head vectors that are not projective trees. Returns how many
    it filled."""
    filled = 0
    for d in range(1, n + 1):
        h = heads[d]
        if h > 0 and np.isnan(grand[heads[h], h, d]):
            grand[heads[h], h, d] = _grandparent_cell(
                attrs, start, n, coef, n_features, heads[h], h, d, states
            )
            filled += 1
    return filled


@njit
def largest_sibling_score(sib, n):
    """The largest ``|sib[h, s, d]|`` over the sibling parts (the cells
    :func:`sibling_scores` fills)."""
    biggest = 0.0
    for h in range(n + 1):
        for d in range(1, n + 1):
            if d == h:
                continue
            biggest = max(biggest, abs(sib[h, h, d]))
            for s in range(min(h, d) + 1, max(h, d)):
                biggest = max(biggest, abs(sib[h, s, d]))
    return biggest


@njit
def single_root_penalty(arc, n, sibling_bound):
    """Subtract from every root arc more than any two trees' scores can differ by.

    Every tree has at least one root arc, so the best tree under the penalised scores
    is the best tree with exactly one root child. ``sibling_bound``: 0 at first
    order; at second order the largest ``|sib|`` (:func:`largest_sibling_score`): a
    tree has ``n`` sibling parts, so sibling scores also move two trees' scores apart.
    """
    biggest = 0.0
    for h in range(n + 1):
        for d in range(1, n + 1):
            if h != d and abs(arc[h, d]) > biggest:
                biggest = abs(arc[h, d])
    penalty = 1.0 + 2.0 * (n + 1) * (biggest + sibling_bound)
    for d in range(1, n + 1):
        arc[0, d] -= penalty
    return penalty


@helper
def add_arc_loss(arc, n, gold):
    """Add to the arc scores ``arc`` the Hamming loss of a head vector against ``gold``
    (word ``d``'s gold head at ``gold[d - 1]``), as ``ArcFactoredTree.augment`` adds it:
    1 on every arc, then each word's gold arc 1 less again."""
    for h in range(n + 1):
        for d in range(1, n + 1):
            arc[h, d] += 1.0
    for d in range(1, n + 1):
        arc[gold[d - 1], d] -= 1.0


@helper
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


@helper
def grandparent_parts(heads, n, out):
    """Write the grandparent parts ``(g, h, d)`` of a head vector into ``out``
    (``(n, 3)``), word by word (``d`` ascending, those whose head is the root left
    out); returns how many. Any head vector works, tree or not."""
    k = 0
    for d in range(1, n + 1):
        h = heads[d]
        if h > 0:
            out[k, 0], out[k, 1], out[k, 2] = heads[h], h, d
            k += 1
    return k


@njit
def head_vector_score(arc, sib, grand, lab, heads, labels, n, order, grandparents, n_labels):
    """Score of any head vector (a tree or a mixed assignment) and its labels under
    arc, sibling (order 2), grandparent (``grandparents`` not None) and label (``n_labels > 0``)
    scores."""
    total = 0.0
    for d in range(1, n + 1):
        total += arc[heads[d], d]
        if n_labels > 0:
            total += lab[heads[d], d, labels[d]]
    if order == 2:
        parts = np.empty((n, 3), dtype=np.int64)
        for j in range(sibling_parts(heads, n, parts)):
            total += sib[parts[j, 0], parts[j, 1], parts[j, 2]]
    if grandparents is not None:
        parts = np.empty((n, 3), dtype=np.int64)
        for j in range(grandparent_parts(heads, n, parts)):
            total += grand[parts[j, 0], parts[j, 1], parts[j, 2]]
    return total
