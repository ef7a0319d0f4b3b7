"""Hashed features of dependency parts: the token attributes' layout, and the ids of an
arc's (McDonald, Crammer & Pereira 2005, Table 1), a sibling part's (McDonald & Pereira
2006), a grandparent part's (Koo & Collins 2010) and a labelled arc's features.

Words are rows ``start .. start + n - 1`` of ``attrs`` (int64, one column per token
attribute: ``FORM, POS, PREFIX`` and, where a fourth column is given, ``COARSE``: a
coarse POS that turns on the coarse-POS arc templates; after it, up to ``MAX_EXTRA``
extra columns, token fields such as the lemma, each with templates of its own), whose
values are vocabulary ids
with three reserved ones: ``UNKNOWN`` (not seen in training), ``ROOT`` (the root's
attributes) and ``NONE`` (beyond the sentence, for the surrounding-POS features).
Features are never stored: their ids are hashed from a template number and the
attribute ids into ``[0, n_features)`` whenever they are needed. The transition
parsers' features hash with the same functions.
"""

import numpy as np

from ._config import helper, njit

# numpy integers, not Python ints: numba types a Python int global as a literal, and a
# kernel called with each column's literal would be compiled once per column
FORM, POS, PREFIX, COARSE = (np.int64(column) for column in range(4))
N_ATTRS = 3  # without the optional COARSE column
UNKNOWN, ROOT, NONE = 0, 1, 2
N_RESERVED = 3
#: Features of one arc: 21 templates with and without direction and distance, plus one
#: in-between-POS feature per word between head and dependent; with a COARSE column,
#: 20 more templates (twice) and a second in-between feature per word.
N_ARC_TEMPLATES = 42
N_COARSE_TEMPLATES = 20
#: With a COARSE column: how many words between head and dependent share the head's
#: coarse POS, and the dependent's (0-3 or more), with both POS and the direction.
N_COUNT_TEMPLATES = 2
#: Extra attribute columns after COARSE (token fields such as the lemma or the FEATS
#: set): at most MAX_EXTRA of them, each with N_EXTRA_TEMPLATES templates (twice).
MAX_EXTRA = 3
N_EXTRA_TEMPLATES = 6
N_SIBLING_TEMPLATES = 12
#: Features of a grandparent part: 7 templates (9 with a COARSE column), each alone and
#: with the directions of the two arcs.
N_GRANDPARENT_TEMPLATES = 18
N_LABEL_TEMPLATES = 10

_PRIME = np.uint64(1099511628211)
_OFFSET = np.uint64(14695981039346656037)
_M1 = np.uint64(0xFF51AFD7ED558CCD)
_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_S33 = np.uint64(33)
NO_DIST = 255


# Helpers, not njit functions: called with literal template numbers, an njit function
# was compiled once per distinct tuple of literals (120 times on a cold cache), and an
# explicit signature instead compiled them when this module was imported, before any
# parser was used: in every cold import of a chain's modules (0.4-0.5 s, and numba's own
# set-up, on a slow machine), and at every import where no disk cache is writable. A
# helper is typed without its literals, once per caller's argument types (one copy each
# in a parser's fit: benchmarks/measurements/import_compiles_2026-12-01/).
@helper
def _hash_prefix(template, a, b, c, d):
    """FNV-1a state after a template number and four attribute ids."""
    h = _OFFSET
    h = (h ^ np.uint64(template)) * _PRIME
    h = (h ^ np.uint64(a)) * _PRIME
    h = (h ^ np.uint64(b)) * _PRIME
    h = (h ^ np.uint64(c)) * _PRIME
    return (h ^ np.uint64(d)) * _PRIME


@helper
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


@helper
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


@helper
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
    """Room for the feature ids of one arc in a sentence of ``n`` words (with ``coarse``,
    room for the coarse templates and for MAX_EXTRA extra columns' templates)."""
    if coarse:
        extra = 2 * MAX_EXTRA * N_EXTRA_TEMPLATES
        return N_ARC_TEMPLATES + 2 * N_COARSE_TEMPLATES + N_COUNT_TEMPLATES + extra + 2 * n
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
        for column in range(COARSE + 1, attrs.shape[1]):
            k = _extra_arc_ids(attrs, start, n, h, d, n_features, out, np.int64(k), column)
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


@helper
def _coarse_arc_ids(attrs, start, n, h, d, n_features, out, k):
    """The coarse-POS templates of arc ``h -> d``, written from ``out[k]`` on."""
    hf, df = _attr(attrs, start, n, h, FORM), _attr(attrs, start, n, d, FORM)
    hc, dc = _attr(attrs, start, n, h, COARSE), _attr(attrs, start, n, d, COARSE)
    hc_l, hc_r = _attr(attrs, start, n, h - 1, COARSE), _attr(attrs, start, n, h + 1, COARSE)
    dc_l, dc_r = _attr(attrs, start, n, d - 1, COARSE), _attr(attrs, start, n, d + 1, COARSE)
    hc_l2, hc_r2 = _attr(attrs, start, n, h - 2, COARSE), _attr(attrs, start, n, h + 2, COARSE)
    dc_l2, dc_r2 = _attr(attrs, start, n, d - 2, COARSE), _attr(attrs, start, n, d + 2, COARSE)
    hf_l, hf_r = _attr(attrs, start, n, h - 1, FORM), _attr(attrs, start, n, h + 1, FORM)
    df_l, df_r = _attr(attrs, start, n, d - 1, FORM), _attr(attrs, start, n, d + 1, FORM)
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
        # two coarse tags either side of each word; the words next to them
        out[k + 12] = _hash(111, hc, hc_l2, hc_l, dc, x, n_features)
        out[k + 13] = _hash(112, hc, hc_r, hc_r2, dc, x, n_features)
        out[k + 14] = _hash(113, hc, dc_l2, dc_l, dc, x, n_features)
        out[k + 15] = _hash(114, hc, dc, dc_r, dc_r2, x, n_features)
        out[k + 16] = _hash(115, hc, dc, hf_l, 0, x, n_features)
        out[k + 17] = _hash(116, hc, dc, hf_r, 0, x, n_features)
        out[k + 18] = _hash(117, hc, dc, df_l, 0, x, n_features)
        out[k + 19] = _hash(118, hc, dc, df_r, 0, x, n_features)
        k += N_COARSE_TEMPLATES
    same_as_head, same_as_dependent = 0, 0
    for b in range(min(h, d) + 1, max(h, d)):
        bc = _attr(attrs, start, n, b, COARSE)
        out[k] = _hash(73, hc, bc, dc, 0, dd, n_features)
        same_as_head += bc == hc
        same_as_dependent += bc == dc
        k += 1
    # another verb between a verb and its dependent, another noun between a noun and its
    direction = 1 if h < d else 0
    out[k] = _hash(74, hc, dc, min(same_as_head, 3), 0, direction, n_features)
    out[k + 1] = _hash(75, hc, dc, min(same_as_dependent, 3), 0, direction, n_features)
    return k + N_COUNT_TEMPLATES


@helper
def _extra_arc_ids(attrs, start, n, h, d, n_features, out, k, column):
    """The templates of extra attribute ``column`` (a lemma, a FEATS set) of arc
    ``h -> d``, alone and crossed with the other word's coarse POS, written from
    ``out[k]`` on."""
    he, de = _attr(attrs, start, n, h, column), _attr(attrs, start, n, d, column)
    hc, dc = _attr(attrs, start, n, h, COARSE), _attr(attrs, start, n, d, COARSE)
    base = 80 + 10 * (column - COARSE - 1)
    dd = direction_distance(h, d)
    for conj in range(2):
        x = NO_DIST if conj == 0 else dd
        out[k + 0] = _hash(base + 0, he, hc, 0, 0, x, n_features)
        out[k + 1] = _hash(base + 1, de, dc, 0, 0, x, n_features)
        out[k + 2] = _hash(base + 2, he, de, 0, 0, x, n_features)
        out[k + 3] = _hash(base + 3, he, dc, 0, 0, x, n_features)
        out[k + 4] = _hash(base + 4, hc, de, 0, 0, x, n_features)
        out[k + 5] = _hash(base + 5, he, hc, de, dc, x, n_features)
        k += N_EXTRA_TEMPLATES
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


@helper
def sibling_pair_score(coef, sf, sp, df, dp, direction, n_features):
    """The summed weights of the sibling templates over the sibling and the dependent
    alone (33-35 and 32: their words and POS, each alone and with the ``direction``),
    which :func:`sibling_feature_ids` gives every head: the score ``sibling_scores``
    makes once per pair of words."""
    total = 0.0
    for t in range(4):
        if t == 0:
            prefix = _hash_prefix(32, sp, dp, 0, 0)
        elif t == 1:
            prefix = _hash_prefix(33, sf, df, 0, 0)
        elif t == 2:
            prefix = _hash_prefix(34, sf, dp, 0, 0)
        else:
            prefix = _hash_prefix(35, sp, df, 0, 0)
        total += coef[_hash_finish(prefix, NO_DIST, n_features)]
        total += coef[_hash_finish(prefix, direction, n_features)]
    return total


#: Grandparent templates over the grandparent and the dependent only (their scores for
#: each pair of words and directions are made once, see ``tree_scores``), and over all
#: three words; one more of each with a COARSE column.
N_GRANDPARENT_PAIRS = 4
N_GRANDPARENT_TRIPLES = 3


@helper
def grandparent_directions(g, h, d):
    """The directions of arcs ``g -> h`` and ``h -> d`` as one number, 0-3."""
    return (2 if g < h else 0) + (1 if h < d else 0)


@njit
def grandparent_pair_prefixes(attrs, start, n, g, d, out):
    """Hash states of the grandparent templates over ``g`` and ``d`` alone (Koo &
    Collins 2010; TurboParser): their POS and words in pairs, and with a COARSE column
    their coarse POS. Returns how many; a feature is a state finished with NO_DIST or
    with :func:`grandparent_directions`."""
    gf, gp = _attr(attrs, start, n, g, FORM), _attr(attrs, start, n, g, POS)
    df, dp = _attr(attrs, start, n, d, FORM), _attr(attrs, start, n, d, POS)
    out[0] = _hash_prefix(142, gp, dp, 0, 0)
    out[1] = _hash_prefix(143, gf, dp, 0, 0)
    out[2] = _hash_prefix(144, gp, df, 0, 0)
    out[3] = _hash_prefix(145, gf, df, 0, 0)
    if not has_coarse(attrs):
        return N_GRANDPARENT_PAIRS
    out[4] = _hash_prefix(149, _attr(attrs, start, n, g, COARSE), _attr(attrs, start, n, d, COARSE),
                          0, 0)  # fmt: skip
    return N_GRANDPARENT_PAIRS + 1


@njit
def grandparent_triple_prefixes(attrs, start, n, g, h, d, out):
    """Hash states of the grandparent templates over all three words: the three POS
    tags, and a word of one end with the other two POS tags; with a COARSE column the
    three coarse tags. Returns how many, finished as the pair templates are."""
    gf, gp = _attr(attrs, start, n, g, FORM), _attr(attrs, start, n, g, POS)
    hp = _attr(attrs, start, n, h, POS)
    df, dp = _attr(attrs, start, n, d, FORM), _attr(attrs, start, n, d, POS)
    out[0] = _hash_prefix(141, gp, hp, dp, 0)
    out[1] = _hash_prefix(146, gf, hp, dp, 0)
    out[2] = _hash_prefix(147, gp, hp, df, 0)
    if not has_coarse(attrs):
        return N_GRANDPARENT_TRIPLES
    gc, hc = _attr(attrs, start, n, g, COARSE), _attr(attrs, start, n, h, COARSE)
    out[3] = _hash_prefix(148, gc, hc, _attr(attrs, start, n, d, COARSE), 0)
    return N_GRANDPARENT_TRIPLES + 1


@njit
def grandparent_feature_ids(attrs, start, n, g, h, d, n_features, out, states):
    """Write the feature ids of grandparent part ``(g, h, d)`` (arcs ``g -> h -> d``)
    into ``out``; returns how many (``out`` needs ``N_GRANDPARENT_TEMPLATES`` entries,
    ``states`` scratch for 5 hash states). The templates over all three words come
    first, then those of the pair; each alone and with the two arcs' directions."""
    x = grandparent_directions(g, h, d)
    k = 0
    for twice in range(2):
        if twice == 0:
            m = grandparent_triple_prefixes(attrs, start, n, g, h, d, states)
        else:
            m = grandparent_pair_prefixes(attrs, start, n, g, d, states)
        for t in range(m):
            out[k] = _hash_finish(states[t], NO_DIST, n_features)
            out[k + 1] = _hash_finish(states[t], x, n_features)
            k += 2
    return k


@helper
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
