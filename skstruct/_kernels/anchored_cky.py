"""CKY over anchored rules scored by hashed surface features (Hall, Durrett & Klein
2014, "Less grammar, more features"), in a space pruned by a first pass.

A sentence is ``atoms`` (n, 3) int64: per word its word id, its tag (a grammar symbol
id: the leaves are given) and its shape class. The grammar is ``cky``'s: binary rules
``A -> B C`` (``binary`` (R, 3), sorted by ``B``, ``left_start`` the rows of each left
child), one layer of unary rules ``A -> B`` over a span (``unary`` (U, 2)) and root
rules (``root_ok`` (n_symbols,) bool). ``allowed[i, j, A]`` says which labelled spans
survived pruning.

The parts of a tree and their features (every feature an id hashed from a template
number, the atoms it reads and the label or rule, never stored):

- a binary node ``(r, i, k, j)``, rule ``r = A -> B C`` over words ``i..j-1`` split
  at ``k``: the *span* features of ``(i, j)`` (first and last word and tag, the words
  and tags just outside, the length, the span's shape, tag pairs) conjoined with ``A``,
  and the rule alone and conjoined with the tags and words at the split, the length,
  the first and the last tag;
- a unary node ``(u, i, j)``, rule ``u = A' -> A`` over the span: the span features
  conjoined with ``A'``, and the rule alone and with the first and last tag and the
  length;
- the root: the symbol under it.

An output (what the learners compare and update with) is int32 of length ``6n - 5``:
first the unary rule over each word (-1: none), then each binary node ``(i, k, j, r,
u)`` in preorder (``u`` the unary over it, -1: none).
"""

import numpy as np

from ._config import ZERO, helper, njit
from .arc_features import _hash
from .cky import _logaddexp

NEG = -np.inf
WORD, TAG, SHAPE = np.int64(0), np.int64(1), np.int64(2)
BOUNDARY = np.int64(-1)  # the atom before the first word and after the last
#: Keys of one part: span features (with the label), a binary rule's, a unary rule's.
N_LABEL_KEYS = 14
N_BINARY_KEYS = 7
N_UNARY_KEYS = 4


@njit
def output_length(n):
    """Output ids of a sentence of ``n`` words."""
    return 6 * n - 5


@helper
def length_bucket(length):
    """1-5 as they are, then 6-10, 11-20 and more."""
    if length <= 5:
        return length
    if length <= 10:
        return 6
    return 7 if length <= 20 else 8


@helper
def shape_table(atoms):
    """``table[i, j]``: a hash of the shape classes of words ``i..j-1`` (the span's
    shape, Hall et al.'s)."""
    n = atoms.shape[0]
    table = np.zeros((n + 1, n + 1), dtype=np.int64)
    for i in range(n):
        h = np.int64(17)
        for j in range(i + 1, n + 1):
            h = _hash(50, h, atoms[j - 1, SHAPE], 0, 0, 0, 1 << 62)
            table[i, j] = h
    return table


@helper
def _atom(atoms, i, column):
    if i < 0 or i >= atoms.shape[0]:
        return BOUNDARY
    return atoms[i, column]


@helper
def label_keys(atoms, shapes, i, j, a, n_features, out, at):
    """Write the span features of ``(i, j)`` conjoined with label ``a`` at
    ``out[at:]``; returns the next free position."""
    first_tag, last_tag = _atom(atoms, i, TAG), _atom(atoms, j - 1, TAG)
    before_tag, after_tag = _atom(atoms, i - 1, TAG), _atom(atoms, j, TAG)
    out[at] = _hash(1, atoms[i, WORD], 0, 0, 0, a, n_features)
    out[at + 1] = _hash(2, atoms[j - 1, WORD], 0, 0, 0, a, n_features)
    out[at + 2] = _hash(3, _atom(atoms, i - 1, WORD), 0, 0, 0, a, n_features)
    out[at + 3] = _hash(4, _atom(atoms, j, WORD), 0, 0, 0, a, n_features)
    out[at + 4] = _hash(5, first_tag, 0, 0, 0, a, n_features)
    out[at + 5] = _hash(6, last_tag, 0, 0, 0, a, n_features)
    out[at + 6] = _hash(7, before_tag, 0, 0, 0, a, n_features)
    out[at + 7] = _hash(8, after_tag, 0, 0, 0, a, n_features)
    out[at + 8] = _hash(9, length_bucket(j - i), 0, 0, 0, a, n_features)
    out[at + 9] = _hash(10, shapes[i, j], 0, 0, 0, a, n_features)
    out[at + 10] = _hash(11, first_tag, last_tag, 0, 0, a, n_features)
    out[at + 11] = _hash(12, before_tag, first_tag, 0, 0, a, n_features)
    out[at + 12] = _hash(13, last_tag, after_tag, 0, 0, a, n_features)
    out[at + 13] = _hash(14, 0, 0, 0, 0, a, n_features)
    return at + N_LABEL_KEYS


@helper
def binary_keys(atoms, r, i, k, j, n_features, out, at):
    """Write the features of binary rule ``r`` over ``(i, j)`` split at ``k`` (without
    the span features of its parent) at ``out[at:]``; returns the next free position."""
    out[at] = _hash(20, 0, 0, 0, 0, r, n_features)
    out[at + 1] = _hash(21, atoms[k - 1, TAG], atoms[k, TAG], 0, 0, r, n_features)
    out[at + 2] = _hash(22, atoms[k - 1, WORD], 0, 0, 0, r, n_features)
    out[at + 3] = _hash(23, atoms[k, WORD], 0, 0, 0, r, n_features)
    out[at + 4] = _hash(24, length_bucket(j - i), 0, 0, 0, r, n_features)
    out[at + 5] = _hash(25, atoms[i, TAG], 0, 0, 0, r, n_features)
    out[at + 6] = _hash(26, atoms[j - 1, TAG], 0, 0, 0, r, n_features)
    return at + N_BINARY_KEYS


@helper
def unary_keys(atoms, u, i, j, n_features, out, at):
    """Write the features of unary rule ``u`` over ``(i, j)`` (without the span features
    of its parent) at ``out[at:]``; returns the next free position."""
    out[at] = _hash(30, 0, 0, 0, 0, u, n_features)
    out[at + 1] = _hash(31, atoms[i, TAG], 0, 0, 0, u, n_features)
    out[at + 2] = _hash(32, atoms[j - 1, TAG], 0, 0, 0, u, n_features)
    out[at + 3] = _hash(33, length_bucket(j - i), 0, 0, 0, u, n_features)
    return at + N_UNARY_KEYS


@helper
def root_key(a, n_features):
    """The feature of symbol ``a`` under the root."""
    return _hash(40, 0, 0, 0, 0, a, n_features)


@njit
def _total(coef, keys, m):
    total = 0.0
    for t in range(m):
        total += coef[keys[t]]
    return total


@helper
def top_symbol(output, tag0, binary, unary):
    """The symbol under the root of an output (``tag0``: the first word's tag)."""
    n = (output.shape[0] + 5) // 6
    u = output[0] if n == 1 else output[n + 4]
    if u >= 0:
        return unary[u, 0]
    return tag0 if n == 1 else binary[output[n + 3], 0]


@njit
def output_keys(atoms, output, binary, unary, n_features):
    """Every feature id of the parts of ``output`` (with repeats: one per occurrence)."""
    n = atoms.shape[0]
    shapes = shape_table(atoms)
    width = (n - 1) * (N_LABEL_KEYS + N_BINARY_KEYS) + (2 * n - 1) * (N_LABEL_KEYS + N_UNARY_KEYS)
    keys = np.empty(width + 1, dtype=np.int64)
    at = ZERO
    for i in range(n):
        u = output[i]
        if u >= 0:
            at = label_keys(atoms, shapes, i, i + 1, unary[u, 0], n_features, keys, at)
            at = unary_keys(atoms, u, i, i + 1, n_features, keys, at)
    for node in range(n - 1):
        i, k, j, r, u = output[n + 5 * node : n + 5 * node + 5]
        at = label_keys(atoms, shapes, i, j, binary[r, 0], n_features, keys, at)
        at = binary_keys(atoms, r, i, k, j, n_features, keys, at)
        if u >= 0:
            at = label_keys(atoms, shapes, i, j, unary[u, 0], n_features, keys, at)
            at = unary_keys(atoms, u, i, j, n_features, keys, at)
    keys[at] = root_key(top_symbol(output, atoms[0, TAG], binary, unary), n_features)
    return keys[: at + 1]


@njit
def allowed_mask(n, n_symbols, cells):
    """The dense mask of the labelled spans ``cells`` (flat ids ``(i * (n + 1) + j) *
    n_symbols + A``)."""
    mask = np.zeros((n + 1) * (n + 1) * n_symbols, dtype=np.bool_)
    for c in cells:
        mask[c] = True
    return mask.reshape((n + 1, n + 1, n_symbols))


@njit
def best_tree(atoms, allowed, binary, left_start, unary, root_ok, coef, n_features,
              loss_inner, loss_top, augmented, out, charts):  # fmt: skip
    """Write the best tree of the pruned space into ``out`` (int32, ``6n - 5``) and
    return its score (``-inf``: no tree, ``out`` untouched). With ``augmented``, a
    binary node labelled ``A`` over ``(i, j)`` costs ``loss_inner[i, j, A]`` more and
    a unary one ``loss_top[i, j, A']`` (the score returned includes them).

    The search fills ``charts``, ``(inner, outer, split, rule, urule, live, n_live)``:
    float64, float64 and four int32 arrays of shape ``(m, m, n_symbols)`` and an int64
    ``(m, m)``, for any ``m > n``, whatever they hold (the ``(n + 1, n + 1)`` corner is
    set here; ``structures._cky_charts.new_charts`` makes them). Reused from sentence
    to sentence, they spare the system a fresh allocation of some MB a sentence, which
    it faults in page by page."""
    n, n_symbols = atoms.shape[0], allowed.shape[2]
    shapes = shape_table(atoms)
    inner, outer, split, rule, urule, live, n_live = charts
    inner[: n + 1, : n + 1, :] = NEG
    outer[: n + 1, : n + 1, :] = NEG
    split[: n + 1, : n + 1, :] = -1
    rule[: n + 1, : n + 1, :] = -1
    urule[: n + 1, : n + 1, :] = -1
    n_live[: n + 1, : n + 1] = 0
    label = np.zeros(n_symbols)
    keys = np.empty(N_LABEL_KEYS + N_BINARY_KEYS, dtype=np.int64)
    for i in range(n):
        inner[i, i + 1, atoms[i, TAG]] = 0.0
        _best_unaries(atoms, shapes, allowed, unary, coef, n_features, loss_top, augmented,
                      inner, outer, urule, live, n_live, label, keys, i, i + 1)  # fmt: skip
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length
            for a in range(n_symbols):
                if allowed[i, j, a]:
                    m = label_keys(atoms, shapes, i, j, a, n_features, keys, ZERO)
                    label[a] = _total(coef, keys, m)
                    if augmented:
                        label[a] += loss_inner[i, j, a]
            for k in range(i + 1, j):
                for t in range(n_live[i, k]):
                    b = live[i, k, t]
                    left = outer[i, k, b]
                    for r in range(left_start[b], left_start[b + 1]):
                        a, c = binary[r, 0], binary[r, 2]
                        right = outer[k, j, c]
                        if right == NEG or not allowed[i, j, a]:
                            continue
                        m = binary_keys(atoms, r, i, k, j, n_features, keys, ZERO)
                        total = left + right + label[a] + _total(coef, keys, m)
                        if total > inner[i, j, a]:  # strict: the first found wins ties
                            inner[i, j, a] = total
                            split[i, j, a] = k
                            rule[i, j, a] = r
            _best_unaries(atoms, shapes, allowed, unary, coef, n_features, loss_top, augmented,
                          inner, outer, urule, live, n_live, label, keys, i, j)  # fmt: skip
    best, top = NEG, np.int64(-1)  # not a literal: _write_tree compiles once
    for a in range(n_symbols):
        if root_ok[a] and outer[0, n, a] > NEG:
            total = outer[0, n, a] + coef[root_key(a, n_features)]
            if total > best:
                best, top = total, a
    if top >= 0:
        _write_tree(n, top, binary, unary, split, rule, urule, out)
    return best


@helper
def _best_unaries(atoms, shapes, allowed, unary, coef, n_features, loss_top, augmented, inner,
                  outer, urule, live, n_live, label, keys, i, j):  # fmt: skip
    """``outer[i, j]``: ``inner[i, j]`` or better by an allowed unary rule over it; then
    the list of the cell's symbols with a finite ``outer`` (``live``)."""
    n_symbols = inner.shape[2]
    for a in range(n_symbols):
        outer[i, j, a] = inner[i, j, a]
    for u in range(unary.shape[0]):
        a, b = unary[u, 0], unary[u, 1]
        below = inner[i, j, b]
        if below == NEG or not allowed[i, j, a]:
            continue
        m = label_keys(atoms, shapes, i, j, a, n_features, keys, ZERO)
        m = unary_keys(atoms, u, i, j, n_features, keys, m)
        total = below + _total(coef, keys, m)
        if augmented:
            total += loss_top[i, j, a]
        if total > outer[i, j, a]:
            outer[i, j, a] = total
            urule[i, j, a] = u
    _list_live(outer, live, n_live, i, j)


@helper
def _list_live(outer, live, n_live, i, j):
    """``live[i, j, :n_live[i, j]]``: the symbols of span ``(i, j)`` with a finite
    ``outer`` score (the left children worth trying)."""
    count = 0
    for a in range(outer.shape[2]):
        if outer[i, j, a] > NEG:
            live[i, j, count] = a
            count += 1
    n_live[i, j] = count


@njit
def _write_tree(n, top, binary, unary, split, rule, urule, out):
    """The output layout of the tree under ``top`` from the backpointers (preorder)."""
    for i in range(n):
        out[i] = -1
    # a stack of (i, j, symbol as outer): preorder, left child on top
    stack = np.empty((2 * n, 3), dtype=np.int64)
    stack[0, 0], stack[0, 1], stack[0, 2] = 0, n, top
    size, node = 1, 0
    while size > 0:
        size -= 1
        i, j, a = stack[size, 0], stack[size, 1], stack[size, 2]
        u = urule[i, j, a]
        if u >= 0:
            a = unary[u, 1]
        if j - i == 1:
            out[i] = u
            continue
        r, k = rule[i, j, a], split[i, j, a]
        at = n + 5 * node
        out[at], out[at + 1], out[at + 2], out[at + 3], out[at + 4] = i, k, j, r, u
        node += 1
        stack[size, 0], stack[size, 1], stack[size, 2] = k, j, binary[r, 2]
        stack[size + 1, 0], stack[size + 1, 1], stack[size + 1, 2] = i, k, binary[r, 1]
        size += 2


@njit
def inside(atoms, allowed, binary, left_start, unary, root_ok, coef, n_features, loss_inner,
           loss_top, loss_weight, augmented):  # fmt: skip
    """``(log Z, inner, outer)``: the log-sum of ``exp(score)`` over the trees of the
    pruned space, and the inside charts (``inner[i, j, A]`` over the ways to build ``A``
    over ``i..j-1`` by a binary rule, or as the word's tag; ``outer`` with an optional
    unary rule on top). ``log Z`` is ``-inf`` where no tree spans the sentence. With
    ``augmented``, a binary node's score gains ``loss_weight * loss_inner[i, j, A]`` and
    a unary one's ``loss_weight * loss_top[i, j, A']`` (as in :func:`best_tree`)."""
    n, n_symbols = atoms.shape[0], allowed.shape[2]
    shapes = shape_table(atoms)
    inner = np.full((n + 1, n + 1, n_symbols), NEG)
    outer = np.full((n + 1, n + 1, n_symbols), NEG)
    live = np.empty((n + 1, n + 1, n_symbols), dtype=np.int32)
    n_live = np.zeros((n + 1, n + 1), dtype=np.int64)
    label = np.zeros(n_symbols)
    keys = np.empty(N_LABEL_KEYS + N_BINARY_KEYS, dtype=np.int64)
    for length in range(1, n + 1):
        for i in range(n - length + 1):
            j = i + length
            if length == 1:
                inner[i, j, atoms[i, TAG]] = 0.0
            else:
                _label_scores(atoms, shapes, allowed, coef, n_features, keys, label, i, j,
                              loss_inner, loss_weight, augmented)  # fmt: skip
            for k in range(i + 1, j):
                for t in range(n_live[i, k]):
                    b = live[i, k, t]
                    for r in range(left_start[b], left_start[b + 1]):
                        a, c = binary[r, 0], binary[r, 2]
                        if outer[k, j, c] == NEG or not allowed[i, j, a]:
                            continue
                        m = binary_keys(atoms, r, i, k, j, n_features, keys, ZERO)
                        total = outer[i, k, b] + outer[k, j, c] + label[a] + _total(coef, keys, m)
                        inner[i, j, a] = _logaddexp(inner[i, j, a], total)
            for a in range(n_symbols):
                outer[i, j, a] = inner[i, j, a]
            for u in range(unary.shape[0]):
                a, b = unary[u, 0], unary[u, 1]
                if inner[i, j, b] == NEG or not allowed[i, j, a]:
                    continue
                own = _unary_score(atoms, shapes, coef, n_features, keys, u, a, i, j, loss_top,
                                   loss_weight, augmented)  # fmt: skip
                total = inner[i, j, b] + own
                outer[i, j, a] = _logaddexp(outer[i, j, a], total)
            _list_live(outer, live, n_live, i, j)
    log_z = NEG
    for a in range(n_symbols):
        if root_ok[a] and outer[0, n, a] > NEG:
            log_z = _logaddexp(log_z, outer[0, n, a] + coef[root_key(a, n_features)])
    return log_z, inner, outer


@helper
def _unary_score(atoms, shapes, coef, n_features, keys, u, a, i, j, loss_top, loss_weight,
                 augmented):  # fmt: skip
    """The score of unary rule ``u`` (to ``A' = a``) over ``(i, j)``, its loss weighted
    in when ``augmented``; ``keys`` left holding its feature ids."""
    m = label_keys(atoms, shapes, i, j, a, n_features, keys, ZERO)
    m = unary_keys(atoms, u, i, j, n_features, keys, m)
    total = _total(coef, keys, m)
    if augmented:
        total += loss_weight * loss_top[i, j, a]
    return total


@helper
def _label_scores(atoms, shapes, allowed, coef, n_features, keys, label, i, j, loss_inner,
                  loss_weight, augmented):  # fmt: skip
    """``label[A]``: the span features of ``(i, j)`` with each allowed label, scored (with
    the binary node's weighted loss when ``augmented``)."""
    for a in range(allowed.shape[2]):
        if allowed[i, j, a]:
            m = label_keys(atoms, shapes, i, j, a, n_features, keys, ZERO)
            label[a] = _total(coef, keys, m)
            if augmented:
                label[a] += loss_weight * loss_inner[i, j, a]


@helper
def _add(array, keys, m, value):
    for t in range(m):
        array[keys[t]] += value


@njit
def add_expected_features(atoms, allowed, binary, left_start, unary, root_ok, coef, n_features,
                          loss_inner, loss_top, loss_weight, augmented, log_z, inner, outer,
                          array, scale):  # fmt: skip
    """``array += scale * E[phi]``, the features expected under ``p(tree) ∝
    exp(score)`` over the pruned space, from :func:`inside`'s ``log Z`` and charts
    (given the same scores and loss), by an outside pass: each part's probability is
    its outside score, its own and its children's inside scores, less ``log Z``.
    ``scale`` 0 adds nothing (``array`` is not read).

    Returns the expected loss (without its constant) when ``augmented``: the sum of
    ``loss_inner`` and ``loss_top`` over the nodes, each times its probability
    (unweighted by ``loss_weight``); 0 otherwise."""
    n, n_symbols = atoms.shape[0], allowed.shape[2]
    shapes = shape_table(atoms)
    above_outer = np.full((n + 1, n + 1, n_symbols), NEG)
    above_inner = np.full((n + 1, n + 1, n_symbols), NEG)
    label = np.zeros(n_symbols)
    keys = np.empty(N_LABEL_KEYS + N_BINARY_KEYS, dtype=np.int64)
    adding, expected_loss = scale != 0.0, 0.0
    for a in range(n_symbols):
        if root_ok[a] and outer[0, n, a] > NEG:
            key = root_key(a, n_features)
            above_outer[0, n, a] = coef[key]
            if adding:
                array[key] += scale * np.exp(coef[key] + outer[0, n, a] - log_z)
    for length in range(n, 0, -1):
        for i in range(n - length + 1):
            j = i + length
            for a in range(n_symbols):
                above_inner[i, j, a] = above_outer[i, j, a]
            for u in range(unary.shape[0]):
                a, b = unary[u, 0], unary[u, 1]
                if above_outer[i, j, a] == NEG or inner[i, j, b] == NEG or not allowed[i, j, a]:
                    continue
                own = _unary_score(atoms, shapes, coef, n_features, keys, u, a, i, j, loss_top,
                                   loss_weight, augmented)  # fmt: skip
                through = above_outer[i, j, a] + own
                above_inner[i, j, b] = _logaddexp(above_inner[i, j, b], through)
                probability = np.exp(through + inner[i, j, b] - log_z)
                if adding:
                    m = N_LABEL_KEYS + N_UNARY_KEYS
                    _add(array, keys, m, scale * probability)
                if augmented:
                    expected_loss += probability * loss_top[i, j, a]
            if length == 1:
                continue
            _label_scores(atoms, shapes, allowed, coef, n_features, keys, label, i, j,
                          loss_inner, loss_weight, augmented)  # fmt: skip
            for k in range(i + 1, j):
                for b in range(n_symbols):
                    left = outer[i, k, b]
                    if left == NEG:
                        continue
                    for r in range(left_start[b], left_start[b + 1]):
                        a, c = binary[r, 0], binary[r, 2]
                        right = outer[k, j, c]
                        if right == NEG or above_inner[i, j, a] == NEG or not allowed[i, j, a]:
                            continue
                        m = binary_keys(atoms, r, i, k, j, n_features, keys, ZERO)
                        base = above_inner[i, j, a] + label[a] + _total(coef, keys, m)
                        above_outer[i, k, b] = _logaddexp(above_outer[i, k, b], base + right)
                        above_outer[k, j, c] = _logaddexp(above_outer[k, j, c], base + left)
                        probability = np.exp(base + left + right - log_z)
                        if augmented:
                            expected_loss += probability * loss_inner[i, j, a]
                        if adding:
                            _add(array, keys, m, scale * probability)
                            m = label_keys(atoms, shapes, i, j, a, n_features, keys, ZERO)
                            _add(array, keys, m, scale * probability)
    return expected_loss


@njit
def mark_active_features(atoms, allowed, binary, left_start, unary, root_ok, n_features, inner,
                         outer, seen):  # fmt: skip
    """``seen[f] = True`` for every feature of every part of some tree of the pruned
    space: the features :func:`add_expected_features` adds a probability to. The
    parts are found as it finds them, from :func:`inside`'s charts under any finite
    weights (which spans can be built is all they are read for here)."""
    n, n_symbols = atoms.shape[0], allowed.shape[2]
    shapes = shape_table(atoms)
    above_outer = np.zeros((n + 1, n + 1, n_symbols), dtype=np.bool_)
    above_inner = np.zeros((n + 1, n + 1, n_symbols), dtype=np.bool_)
    keys = np.empty(N_LABEL_KEYS + N_BINARY_KEYS, dtype=np.int64)
    for a in range(n_symbols):
        if root_ok[a] and outer[0, n, a] > NEG:
            above_outer[0, n, a] = True
            seen[root_key(a, n_features)] = True
    for length in range(n, 0, -1):
        for i in range(n - length + 1):
            j = i + length
            for a in range(n_symbols):
                above_inner[i, j, a] = above_outer[i, j, a]
            for u in range(unary.shape[0]):
                a, b = unary[u, 0], unary[u, 1]
                if not above_outer[i, j, a] or inner[i, j, b] == NEG or not allowed[i, j, a]:
                    continue
                above_inner[i, j, b] = True
                m = label_keys(atoms, shapes, i, j, a, n_features, keys, ZERO)
                _mark(seen, keys, unary_keys(atoms, u, i, j, n_features, keys, m))
            if length == 1:
                continue
            for k in range(i + 1, j):
                for b in range(n_symbols):
                    if outer[i, k, b] == NEG:
                        continue
                    for r in range(left_start[b], left_start[b + 1]):
                        a, c = binary[r, 0], binary[r, 2]
                        if outer[k, j, c] == NEG or not (above_inner[i, j, a] and allowed[i, j, a]):
                            continue
                        above_outer[i, k, b] = True
                        above_outer[k, j, c] = True
                        m = binary_keys(atoms, r, i, k, j, n_features, keys, ZERO)
                        _mark(seen, keys, m)
                        m = label_keys(atoms, shapes, i, j, a, n_features, keys, ZERO)
                        _mark(seen, keys, m)


@njit
def _mark(seen, keys, m):
    for t in range(m):
        seen[keys[t]] = True
