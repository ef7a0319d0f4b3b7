"""Arc-standard transition parsing: static oracle, valid actions, hashed state features
and feature replay (the beam search over both systems is :mod:`.transition_beam`).

A state is a stack of positions (0 the root, at the bottom), the next buffer position
``b`` (``1..n``, ``n + 1`` when empty) and the arcs built so far. Actions:

- ``SHIFT`` (0): push ``b``;
- ``LEFT`` (1): ``s1 <- s0`` (``s0`` becomes the head of ``s1``), pop ``s1``; not for the root;
- ``RIGHT`` (2): ``s1 -> s0``, pop ``s0``; from the root only when the buffer is empty,
  so the root gets exactly one word.

Every sentence of ``n`` words takes exactly ``2 n`` actions. Word attributes are the
rows of ``attrs`` as in :mod:`skstruct._kernels.tree`; features (Zhang & Nivre 2011,
a subset: words and POS of s0-s2 and b0-b2, children of s0 and s1, distance and
valency) are hashed with the action as the last word.
"""

import numpy as np

from ._config import ONE, njit
from .arc_features import FORM, NONE, POS, _attr, _hash_finish, _hash_prefix, direction_distance

SHIFT, LEFT, RIGHT = 0, 1, 2
N_ACTIONS = 3
N_TEMPLATES = 30


@njit
def oracle(gold, n, out):
    """The static arc-standard oracle: write the ``2 n`` actions building ``gold`` (heads,
    ``gold[0]`` unused) into ``out``; returns False when ``gold`` is not projective (no
    action sequence builds it)."""
    stack = np.empty(n + 2, dtype=np.int64)
    stack[0] = 0
    size, b = ONE, ONE  # int64, not literals: the callees compile once
    missing = np.zeros(n + 1, dtype=np.int64)  # gold children not yet attached
    for d in range(1, n + 1):
        missing[gold[d]] += 1
    for t in range(2 * n):
        if size >= 2:
            s0, s1 = stack[size - 1], stack[size - 2]
            if s1 != 0 and gold[s1] == s0:
                out[t] = LEFT
                missing[s0] -= 1
                stack[size - 2] = s0
                size -= 1
                continue
            if gold[s0] == s1 and missing[s0] == 0 and (s1 != 0 or b > n):
                out[t] = RIGHT
                missing[s1] -= 1
                size -= 1
                continue
        if b > n:
            return False
        out[t] = SHIFT
        stack[size] = b
        size += 1
        b += 1
    return size == 1


@njit
def is_valid(action, size, s1, b, n):
    if action == SHIFT:
        return b <= n
    if size < 2:
        return False
    if action == LEFT:
        return s1 != 0
    return s1 != 0 or b > n


@njit
def state_prefixes(attrs, start, n, stack, size, b, lc, rc, nl, nr, out):
    """Hash states of the ``N_TEMPLATES`` feature templates of a parser state."""
    s0 = stack[size - 1] if size >= 1 else -1
    s1 = stack[size - 2] if size >= 2 else -1
    s2 = stack[size - 3] if size >= 3 else -1
    b0, b1, b2 = b, b + 1, b + 2
    s0w, s0p = _attr(attrs, start, n, s0, FORM), _attr(attrs, start, n, s0, POS)
    s1w, s1p = _attr(attrs, start, n, s1, FORM), _attr(attrs, start, n, s1, POS)
    s2p = _attr(attrs, start, n, s2, POS)
    b0w, b0p = _attr(attrs, start, n, b0, FORM), _attr(attrs, start, n, b0, POS)
    b1w, b1p = _attr(attrs, start, n, b1, FORM), _attr(attrs, start, n, b1, POS)
    b2p = _attr(attrs, start, n, b2, POS)
    s0lc = _attr(attrs, start, n, lc[s0], POS) if s0 >= 0 and lc[s0] > 0 else NONE
    s0rc = _attr(attrs, start, n, rc[s0], POS) if s0 >= 0 and rc[s0] > 0 else NONE
    s1lc = _attr(attrs, start, n, lc[s1], POS) if s1 >= 0 and lc[s1] > 0 else NONE
    s1rc = _attr(attrs, start, n, rc[s1], POS) if s1 >= 0 and rc[s1] > 0 else NONE
    dist = direction_distance(s1, s0) if s1 >= 0 and s0 >= 0 else 0
    v0 = nl[s0] * 16 + nr[s0] if s0 >= 0 else 0
    v1 = nl[s1] * 16 + nr[s1] if s1 >= 0 else 0
    out[0] = _hash_prefix(101, s0w, 0, 0, 0)
    out[1] = _hash_prefix(102, s0p, 0, 0, 0)
    out[2] = _hash_prefix(103, s0w, s0p, 0, 0)
    out[3] = _hash_prefix(104, s1w, 0, 0, 0)
    out[4] = _hash_prefix(105, s1p, 0, 0, 0)
    out[5] = _hash_prefix(106, s1w, s1p, 0, 0)
    out[6] = _hash_prefix(107, b0w, 0, 0, 0)
    out[7] = _hash_prefix(108, b0p, 0, 0, 0)
    out[8] = _hash_prefix(109, b0w, b0p, 0, 0)
    out[9] = _hash_prefix(110, b1p, 0, 0, 0)
    out[10] = _hash_prefix(111, b1w, 0, 0, 0)
    out[11] = _hash_prefix(112, s0w, s1w, 0, 0)
    out[12] = _hash_prefix(113, s0p, s1p, 0, 0)
    out[13] = _hash_prefix(114, s0w, s0p, s1p, 0)
    out[14] = _hash_prefix(115, s0p, s1w, s1p, 0)
    out[15] = _hash_prefix(116, s0w, s0p, s1w, s1p)
    out[16] = _hash_prefix(117, s0p, s1p, b0p, 0)
    out[17] = _hash_prefix(118, s0p, b0p, 0, 0)
    out[18] = _hash_prefix(119, s0w, b0w, 0, 0)
    out[19] = _hash_prefix(120, s1p, s0p, s0lc, 0)
    out[20] = _hash_prefix(121, s1p, s0p, s0rc, 0)
    out[21] = _hash_prefix(122, s1p, s1lc, s0p, 0)
    out[22] = _hash_prefix(123, s1p, s1rc, s0p, 0)
    out[23] = _hash_prefix(124, s0p, s1p, dist, 0)
    out[24] = _hash_prefix(125, s0w, dist, 0, 0)
    out[25] = _hash_prefix(126, s2p, s1p, s0p, 0)
    out[26] = _hash_prefix(127, s0p, b0p, b1p, 0)
    out[27] = _hash_prefix(128, b0p, b1p, b2p, 0)
    out[28] = _hash_prefix(129, s0p, v0, 0, 0)
    out[29] = _hash_prefix(130, s1p, v1, 0, 0)


@njit
def _apply(action, stack, size, b, heads, lc, rc, nl, nr):
    """Apply ``action`` in place; returns the new (stack size, buffer position)."""
    if action == SHIFT:
        stack[size] = b
        return size + 1, b + 1
    s0, s1 = stack[size - 1], stack[size - 2]
    if action == LEFT:  # s0 -> s1
        heads[s1] = s0
        if lc[s0] == 0 or s1 < lc[s0]:
            lc[s0] = s1
        nl[s0] += 1
        stack[size - 2] = s0
        return size - 1, b
    heads[s0] = s1  # RIGHT: s1 -> s0
    if s0 > rc[s1]:
        rc[s1] = s0
    nr[s1] += 1
    return size - 1, b


@njit
def _fresh(n, stack, heads, lc, rc, nl, nr):
    stack[0] = 0
    heads[:] = -1
    lc[:] = 0
    rc[:] = 0
    nl[:] = 0
    nr[:] = 0


@njit
def replay_features(attrs, start, n, actions, n_steps, n_features, coef, scale, states):
    """``coef[phi(x, actions[:n_steps])] += scale``: the features of each (state, action)."""
    stack = np.empty(n + 2, dtype=np.int64)
    heads = np.empty(n + 1, dtype=np.int64)
    lc, rc = np.empty(n + 1, dtype=np.int64), np.empty(n + 1, dtype=np.int64)
    nl, nr = np.empty(n + 1, dtype=np.int64), np.empty(n + 1, dtype=np.int64)
    _fresh(n, stack, heads, lc, rc, nl, nr)
    size, b = ONE, ONE  # int64, not literals: the callees compile once
    for t in range(n_steps):
        a = actions[t]
        state_prefixes(attrs, start, n, stack, size, b, lc, rc, nl, nr, states)
        for j in range(N_TEMPLATES):
            coef[_hash_finish(states[j], a, n_features)] += scale
        size, b = _apply(a, stack, size, b, heads, lc, rc, nl, nr)
