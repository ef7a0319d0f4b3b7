"""Arc-eager transition parsing (Nivre 2003, 2008): static oracle, valid actions,
hashed state features and feature replay — the twin of
:mod:`skstruct._kernels.transition`, with the same functions and return conventions,
so that the structure of :mod:`skstruct.structures.transition` and the one beam search
of :mod:`skstruct._kernels.transition_beam` serve either.

A state is a stack of positions (0 the root, at the bottom), the next buffer position
``b`` (``1..n``, ``n + 1`` when empty) and the arcs built so far. Actions:

- ``SHIFT`` (0): push ``b``;
- ``LEFT`` (1): ``b0 -> s0`` (``b0`` becomes the head of ``s0``), pop ``s0``; only while
  the buffer is not empty, for a word ``s0`` (not the root) that has no head yet;
- ``RIGHT`` (2): ``s0 -> b0``, push ``b0``; from the root only while the root has no
  child yet, which needs no check (see below);
- ``REDUCE`` (3): pop ``s0`` (never the root). While the buffer is not empty, only a
  word whose head is a word: neither a headless word nor the root's child (which stays
  on the stack until the buffer is empty). Once the buffer is empty, any word: a
  headless one gets ``s1``, the word (or root) below it, as its head.

Why that end-of-buffer rule: every word is pushed once (SHIFT or RIGHT) and popped once
(LEFT or REDUCE), so every sentence of ``n`` words takes exactly ``2 n`` actions, and
no state is a dead end (SHIFT is valid while the buffer is not empty, REDUCE after).
A popped word's proper descendants have all been popped before it, so ``s1`` is never
a descendant of ``s0``: the arcs never close a cycle, and the final heads are a tree.
The root gets a child either by RIGHT (that child then sits right above the root until
the buffer is empty, so the root is neither ``s0`` again while words are left to
RIGHT-attach nor ``s1`` of a headless word) or by the end rule with ``s1 == 0`` (after
which the stack is the root alone): every final tree has exactly one root word. The
final trees are exactly the single-rooted projective ones.

Word attributes are the rows of ``attrs`` as in :mod:`skstruct._kernels.tree`; features
(Zhang & Nivre 2011 for arc-eager, unlabelled: words and POS of s0 and b0-b2, their
pairs and triples, the head, leftmost and rightmost children of s0, the leftmost child
of b0, the s0-b0 distance, valencies, the head of s0's head, plus whether s0 has a
head and the s1/s2 context) are hashed with the action as the last word. Where the
attributes carry a coarse POS (``ArcFeatures``' ``coarse_pos``: the UPOS beside the
XPOS of a UD treebank) the same contexts are read again over it, and over each field
column (``ArcFeatures``' ``fields``: lemmas, FEATS) a few more: :func:`template_count`
says how many templates a corpus's states have.
"""

import numpy as np

from ._config import ONE, helper, njit
from .arc_features import (
    COARSE,
    FORM,
    MAX_EXTRA,
    NONE,
    POS,
    _attr,
    _hash_finish,
    _hash_prefix,
    direction_distance,
)
from .transition import _fresh

# numpy integers, not Python ints: a Python int global is typed as a literal, and
# is_valid called with each action's literal would be compiled once per action
SHIFT, LEFT, RIGHT, REDUCE = (np.int64(action) for action in range(4))
N_ACTIONS = 4
#: Templates over the words and POS tags; over the coarse POS; over each field column.
#: Appended in that order, so that a corpus without a coarse POS has the first ones
#: alone and learns as it did before the others existed.
N_WORD_TEMPLATES, N_COARSE_POS_TEMPLATES, N_FIELD_TEMPLATES = 52, 14, 9
#: The most templates a state can have (room for the hashes of one state).
N_TEMPLATES = N_WORD_TEMPLATES + N_COARSE_POS_TEMPLATES + MAX_EXTRA * N_FIELD_TEMPLATES


@njit
def template_count(attrs):
    """The templates of a corpus's states: the word and POS ones; with a coarse POS
    column, its own; and those of each field column after it. On English-EWT dev (gold
    annotation, beam 8) the coarse POS took arc-eager over the XPOS from 86.73 to
    88.34 UAS."""
    if attrs.shape[1] <= COARSE:
        return N_WORD_TEMPLATES
    n_fields = attrs.shape[1] - COARSE - 1
    return N_WORD_TEMPLATES + N_COARSE_POS_TEMPLATES + n_fields * N_FIELD_TEMPLATES


@njit
def is_valid(action, s0, b, n, heads):
    """Whether ``action`` applies to a state with stack top ``s0``, buffer front ``b``
    and ``heads``.

    RIGHT from the root needs no check that the root has no child yet: the root is
    ``s0`` with words left in the buffer only before it has one (its child stays on the
    stack until the buffer is empty).
    """
    if action == SHIFT or action == RIGHT:
        return b <= n
    if action == LEFT:
        return b <= n and s0 != 0 and heads[s0] == -1
    return s0 != 0 and (b > n or heads[s0] > 0)


@helper
def _attach(h, d, heads, lc, rc, nl, nr):
    heads[d] = h
    if d < h:
        if lc[h] == 0 or d < lc[h]:
            lc[h] = d
        nl[h] += 1
    else:
        if d > rc[h]:
            rc[h] = d
        nr[h] += 1


@njit
def _apply(action, stack, size, b, heads, lc, rc, nl, nr):
    """Apply ``action`` in place; returns the new (stack size, buffer position)."""
    s0 = stack[size - 1]
    if action == SHIFT:
        stack[size] = b
        return size + 1, b + 1
    if action == LEFT:  # b0 -> s0
        _attach(b, s0, heads, lc, rc, nl, nr)
        return size - 1, b
    if action == RIGHT:  # s0 -> b0
        _attach(s0, b, heads, lc, rc, nl, nr)
        stack[size] = b
        return size + 1, b + 1
    if heads[s0] == -1:  # REDUCE of a headless word (buffer empty): s1 -> s0
        _attach(stack[size - 2], s0, heads, lc, rc, nl, nr)
    return size - 1, b


@njit
def oracle(gold, n, out):
    """The static arc-eager oracle: write the ``2 n`` actions building ``gold`` (heads,
    ``gold[0]`` unused) into ``out``; returns False when no action sequence builds
    ``gold`` (not projective, or not single-rooted).

    LEFT when ``gold[s0] == b0``; else RIGHT when ``gold[b0] == s0``; else REDUCE when
    ``s0`` has its head and all its gold children (or the buffer is empty); else SHIFT
    (each only when valid).
    """
    stack = np.empty(n + 2, dtype=np.int64)
    heads = np.empty(n + 1, dtype=np.int64)
    lc, rc = np.empty(n + 1, dtype=np.int64), np.empty(n + 1, dtype=np.int64)
    nl, nr = np.empty(n + 1, dtype=np.int64), np.empty(n + 1, dtype=np.int64)
    _fresh(n, stack, heads, lc, rc, nl, nr)
    missing = np.zeros(n + 1, dtype=np.int64)  # gold children not yet attached
    for d in range(1, n + 1):
        missing[gold[d]] += 1
    size, b = ONE, ONE  # int64, not literals: the callees compile once
    for t in range(2 * n):
        s0 = stack[size - 1]
        if b <= n and s0 != 0 and gold[s0] == b and is_valid(LEFT, s0, b, n, heads):
            a = LEFT
            missing[b] -= 1
        elif b <= n and gold[b] == s0 and is_valid(RIGHT, s0, b, n, heads):
            a = RIGHT
            missing[s0] -= 1
        elif (b > n or missing[s0] == 0) and is_valid(REDUCE, s0, b, n, heads):
            a = REDUCE
        elif b <= n:
            a = SHIFT
        else:
            return False
        out[t] = a
        size, b = _apply(a, stack, size, b, heads, lc, rc, nl, nr)
    if size != 1:
        return False
    for d in range(1, n + 1):
        if heads[d] != gold[d]:
            return False
    return True


@njit
def state_prefixes(attrs, start, n, stack, size, b, heads, lc, rc, nl, nr, out):
    """Hash states of the feature templates of a parser state (the first
    ``template_count(attrs)`` entries of ``out``)."""
    s0 = stack[size - 1]
    s1 = stack[size - 2] if size >= 2 else -1
    s2 = stack[size - 3] if size >= 3 else -1
    b0, b1, b2 = b, b + 1, b + 2
    s0w, s0p = _attr(attrs, start, n, s0, FORM), _attr(attrs, start, n, s0, POS)
    s1w, s1p = _attr(attrs, start, n, s1, FORM), _attr(attrs, start, n, s1, POS)
    s2p = _attr(attrs, start, n, s2, POS)
    b0w, b0p = _attr(attrs, start, n, b0, FORM), _attr(attrs, start, n, b0, POS)
    b1w, b1p = _attr(attrs, start, n, b1, FORM), _attr(attrs, start, n, b1, POS)
    b2w, b2p = _attr(attrs, start, n, b2, FORM), _attr(attrs, start, n, b2, POS)
    h = heads[s0]  # -1: none (or s0 is the root)
    hh = heads[h] if h > 0 else -1
    s0hw, s0hp = _attr(attrs, start, n, h, FORM), _attr(attrs, start, n, h, POS)
    s0h2w, s0h2p = _attr(attrs, start, n, hh, FORM), _attr(attrs, start, n, hh, POS)
    has_head = 0 if h == -1 else (1 if h == 0 else 2)
    s0lw = _attr(attrs, start, n, lc[s0], FORM) if lc[s0] > 0 else NONE
    s0lp = _attr(attrs, start, n, lc[s0], POS) if lc[s0] > 0 else NONE
    s0rw = _attr(attrs, start, n, rc[s0], FORM) if rc[s0] > 0 else NONE
    s0rp = _attr(attrs, start, n, rc[s0], POS) if rc[s0] > 0 else NONE
    b0l = lc[b0] if b0 <= n else 0
    b0lw = _attr(attrs, start, n, b0l, FORM) if b0l > 0 else NONE
    b0lp = _attr(attrs, start, n, b0l, POS) if b0l > 0 else NONE
    dist = direction_distance(s0, b0) if b0 <= n else 0
    vr0, vl0 = nr[s0], nl[s0]
    vlb = nl[b0] if b0 <= n else 0
    # single words
    out[0] = _hash_prefix(201, s0w, s0p, 0, 0)
    out[1] = _hash_prefix(202, s0w, 0, 0, 0)
    out[2] = _hash_prefix(203, s0p, 0, 0, 0)
    out[3] = _hash_prefix(204, b0w, b0p, 0, 0)
    out[4] = _hash_prefix(205, b0w, 0, 0, 0)
    out[5] = _hash_prefix(206, b0p, 0, 0, 0)
    out[6] = _hash_prefix(207, b1w, b1p, 0, 0)
    out[7] = _hash_prefix(208, b1w, 0, 0, 0)
    out[8] = _hash_prefix(209, b1p, 0, 0, 0)
    out[9] = _hash_prefix(210, b2w, b2p, 0, 0)
    out[10] = _hash_prefix(211, b2w, 0, 0, 0)
    out[11] = _hash_prefix(212, b2p, 0, 0, 0)
    # pairs
    out[12] = _hash_prefix(213, s0w, s0p, b0w, b0p)
    out[13] = _hash_prefix(214, s0w, s0p, b0w, 0)
    out[14] = _hash_prefix(215, s0w, b0w, b0p, 0)
    out[15] = _hash_prefix(216, s0w, s0p, b0p, 0)
    out[16] = _hash_prefix(217, s0p, b0w, b0p, 0)
    out[17] = _hash_prefix(218, s0w, b0w, 0, 0)
    out[18] = _hash_prefix(219, s0p, b0p, 0, 0)
    out[19] = _hash_prefix(220, b0p, b1p, 0, 0)
    # triples
    out[20] = _hash_prefix(221, b0p, b1p, b2p, 0)
    out[21] = _hash_prefix(222, s0p, b0p, b1p, 0)
    out[22] = _hash_prefix(223, s0hp, s0p, b0p, 0)
    out[23] = _hash_prefix(224, s0p, s0lp, b0p, 0)
    out[24] = _hash_prefix(225, s0p, s0rp, b0p, 0)
    out[25] = _hash_prefix(226, s0p, b0p, b0lp, 0)
    # distance
    out[26] = _hash_prefix(227, s0w, dist, 0, 0)
    out[27] = _hash_prefix(228, s0p, dist, 0, 0)
    out[28] = _hash_prefix(229, b0w, dist, 0, 0)
    out[29] = _hash_prefix(230, b0p, dist, 0, 0)
    out[30] = _hash_prefix(231, s0w, b0w, dist, 0)
    out[31] = _hash_prefix(232, s0p, b0p, dist, 0)
    # valency
    out[32] = _hash_prefix(233, s0w, vr0, 0, 0)
    out[33] = _hash_prefix(234, s0p, vr0, 0, 0)
    out[34] = _hash_prefix(235, s0w, vl0, 0, 0)
    out[35] = _hash_prefix(236, s0p, vl0, 0, 0)
    out[36] = _hash_prefix(237, b0w, vlb, 0, 0)
    out[37] = _hash_prefix(238, b0p, vlb, 0, 0)
    # head and children
    out[38] = _hash_prefix(239, s0hw, 0, 0, 0)
    out[39] = _hash_prefix(240, s0hp, 0, 0, 0)
    out[40] = _hash_prefix(241, s0lw, 0, 0, 0)
    out[41] = _hash_prefix(242, s0lp, 0, 0, 0)
    out[42] = _hash_prefix(243, s0rw, 0, 0, 0)
    out[43] = _hash_prefix(244, s0rp, 0, 0, 0)
    out[44] = _hash_prefix(245, b0lw, 0, 0, 0)
    out[45] = _hash_prefix(246, b0lp, 0, 0, 0)
    out[46] = _hash_prefix(247, s0h2w, 0, 0, 0)
    out[47] = _hash_prefix(248, s0h2p, s0hp, s0p, 0)
    # has s0 a head (REDUCE or LEFT), and the stack below s0
    out[48] = _hash_prefix(249, s0p, has_head, b0p, 0)
    out[49] = _hash_prefix(250, s0w, has_head, 0, 0)
    out[50] = _hash_prefix(251, s1p, s0p, b0p, 0)
    out[51] = _hash_prefix(252, s2p, s1p, s0p, s1w)
    if attrs.shape[1] <= COARSE:
        return
    # the coarse POS (the UPOS beside the XPOS): POS contexts again, over it
    s0c, s1c = _attr(attrs, start, n, s0, COARSE), _attr(attrs, start, n, s1, COARSE)
    b0c, b1c = _attr(attrs, start, n, b0, COARSE), _attr(attrs, start, n, b1, COARSE)
    b2c, s0hc = _attr(attrs, start, n, b2, COARSE), _attr(attrs, start, n, h, COARSE)
    s0lc = _attr(attrs, start, n, lc[s0], COARSE) if lc[s0] > 0 else NONE
    s0rc = _attr(attrs, start, n, rc[s0], COARSE) if rc[s0] > 0 else NONE
    b0lc = _attr(attrs, start, n, b0l, COARSE) if b0l > 0 else NONE
    out[52] = _hash_prefix(253, s0c, 0, 0, 0)
    out[53] = _hash_prefix(254, b0c, 0, 0, 0)
    out[54] = _hash_prefix(255, b1c, 0, 0, 0)
    out[55] = _hash_prefix(256, s0c, b0c, 0, 0)
    out[56] = _hash_prefix(257, s0c, b0c, b1c, 0)
    out[57] = _hash_prefix(258, s1c, s0c, b0c, 0)
    out[58] = _hash_prefix(259, s0hc, s0c, b0c, 0)
    out[59] = _hash_prefix(260, s0c, s0lc, b0c, 0)
    out[60] = _hash_prefix(261, s0c, s0rc, b0c, 0)
    out[61] = _hash_prefix(262, s0c, b0c, b0lc, 0)
    out[62] = _hash_prefix(263, s0w, b0c, 0, 0)
    out[63] = _hash_prefix(264, s0c, b0w, 0, 0)
    out[64] = _hash_prefix(265, s0c, b0c, dist, 0)
    out[65] = _hash_prefix(266, b0c, b1c, b2c, 0)
    # each field (a lemma, FEATS ...): alone, paired, and with the coarse POS
    j = N_WORD_TEMPLATES + N_COARSE_POS_TEMPLATES
    for column in range(COARSE + 1, attrs.shape[1]):
        base = 270 + 10 * (column - COARSE - 1)
        s0f, b0f = _attr(attrs, start, n, s0, column), _attr(attrs, start, n, b0, column)
        b1f, s0hf = _attr(attrs, start, n, b1, column), _attr(attrs, start, n, h, column)
        out[j] = _hash_prefix(base, s0f, 0, 0, 0)
        out[j + 1] = _hash_prefix(base + 1, b0f, 0, 0, 0)
        out[j + 2] = _hash_prefix(base + 2, b1f, 0, 0, 0)
        out[j + 3] = _hash_prefix(base + 3, s0f, b0f, 0, 0)
        out[j + 4] = _hash_prefix(base + 4, s0f, b0c, 0, 0)
        out[j + 5] = _hash_prefix(base + 5, s0c, b0f, 0, 0)
        out[j + 6] = _hash_prefix(base + 6, s0hf, s0c, 0, 0)
        out[j + 7] = _hash_prefix(base + 7, s0f, s0c, 0, 0)
        out[j + 8] = _hash_prefix(base + 8, b0f, b0c, 0, 0)
        j += N_FIELD_TEMPLATES


@njit
def replay_features(attrs, start, n, actions, n_steps, n_features, coef, scale, states):
    """``coef[phi(x, actions[:n_steps])] += scale``: the features of each (state, action)."""
    stack = np.empty(n + 2, dtype=np.int64)
    heads = np.empty(n + 1, dtype=np.int64)
    lc, rc = np.empty(n + 1, dtype=np.int64), np.empty(n + 1, dtype=np.int64)
    nl, nr = np.empty(n + 1, dtype=np.int64), np.empty(n + 1, dtype=np.int64)
    _fresh(n, stack, heads, lc, rc, nl, nr)
    size, b = ONE, ONE  # int64, not literals: the callees compile once
    count = template_count(attrs)
    for t in range(n_steps):
        a = actions[t]
        state_prefixes(attrs, start, n, stack, size, b, heads, lc, rc, nl, nr, states)
        for j in range(count):
            coef[_hash_finish(states[j], a, n_features)] += scale
        size, b = _apply(a, stack, size, b, heads, lc, rc, nl, nr)
