"""Beam search over the action sequences of a transition system, written once for
arc-standard (:mod:`.transition`) and arc-eager (:mod:`.arc_eager`).

The systems share the state layout (a stack, the next buffer position, heads, the
leftmost and rightmost children and the valencies of every position) and differ in
which actions are valid, how an action changes the state and which features a state
has. ``eager`` chooses: None for arc-standard, a boolean (``_config.TRUE``) for
arc-eager. The system's functions are picked by its type when numba types a kernel
(overloads), so each system's kernel compiles only its own functions.

Every sentence of ``n`` words takes ``2 n`` actions in both systems. Candidates are
ranked by score, ties by (beam slot, action): generated in that order and selected by a
stable sort.
"""

import numpy as np
from numba.core import types
from numba.extending import overload

from . import arc_eager as _eager
from . import transition as _standard
from ._config import FALSE, ONE, helper, njit
from .arc_features import _hash_finish
from .sorting import stable_argsort

# Each helper is a stub whose numba implementation is chosen at typing time by the type
# of ``eager`` (an overload): a kernel compiled for one system compiles only that
# system's functions, which branch pruning on ``eager is None`` does not guarantee.


def _n_actions(eager):
    """Actions of the system (numba only)."""


def _n_templates(eager, attrs):
    """Feature templates of the system's states over ``attrs`` (numba only)."""


def _is_valid(eager, action, stack, size, b, n, heads):
    """Whether ``action`` applies to the state (numba only)."""


def _state_prefixes(eager, attrs, start, n, stack, size, b, heads, lc, rc, nl, nr, out):
    """The state's template hashes into ``out`` (numba only)."""


def _apply(eager, action, stack, size, b, heads, lc, rc, nl, nr):
    """Apply ``action``; the new (stack size, buffer position) (numba only)."""


def _standard_system(eager):
    return isinstance(eager, (types.NoneType, types.Omitted))


@overload(_n_actions)
def _n_actions_impl(eager):
    count = _standard.N_ACTIONS if _standard_system(eager) else _eager.N_ACTIONS
    return lambda eager: count


@overload(_n_templates)
def _n_templates_impl(eager, attrs):
    if _standard_system(eager):
        count = _standard.N_TEMPLATES
        return lambda eager, attrs: count
    return lambda eager, attrs: _eager.template_count(attrs)


@overload(_is_valid)
def _is_valid_impl(eager, action, stack, size, b, n, heads):
    if _standard_system(eager):

        def standard(eager, action, stack, size, b, n, heads):
            s1 = stack[size - 2] if size >= 2 else -1
            return _standard.is_valid(action, size, s1, b, n)

        return standard

    def arc_eager(eager, action, stack, size, b, n, heads):
        return _eager.is_valid(action, stack[size - 1], b, n, heads)

    return arc_eager


@overload(_state_prefixes)
def _state_prefixes_impl(eager, attrs, start, n, stack, size, b, heads, lc, rc, nl, nr, out):
    if _standard_system(eager):

        def standard(eager, attrs, start, n, stack, size, b, heads, lc, rc, nl, nr, out):
            _standard.state_prefixes(attrs, start, n, stack, size, b, lc, rc, nl, nr, out)

        return standard

    def arc_eager(eager, attrs, start, n, stack, size, b, heads, lc, rc, nl, nr, out):
        _eager.state_prefixes(attrs, start, n, stack, size, b, heads, lc, rc, nl, nr, out)

    return arc_eager


@overload(_apply)
def _apply_impl(eager, action, stack, size, b, heads, lc, rc, nl, nr):
    if _standard_system(eager):

        def standard(eager, action, stack, size, b, heads, lc, rc, nl, nr):
            return _standard._apply(action, stack, size, b, heads, lc, rc, nl, nr)

        return standard

    def arc_eager(eager, action, stack, size, b, heads, lc, rc, nl, nr):
        return _eager._apply(action, stack, size, b, heads, lc, rc, nl, nr)

    return arc_eager


@helper
def _score(states, n_templates, action, coef, n_features):
    """The score of ``action`` in the state whose template hashes are
    ``states[:n_templates]``."""
    total = 0.0
    for j in range(n_templates):
        total += coef[_hash_finish(states[j], action, n_features)]
    return total


@helper
def _copy_row(to, j, rows, k):
    """``to[j] = rows[k]`` (rows of one width), written out: numba compiles a row
    assignment together with the message it raises where shapes differ, about 1.3 s of
    a transition parser's first fit."""
    for q in range(rows.shape[1]):
        to[j, q] = rows[k, q]


@njit
def beam_search(attrs, start, n, coef, n_features, beam_size, gold_actions, track_gold, eager):
    """Beam search over action sequences; with ``track_gold``, the gold sequence's score
    and fate are traced step by step.

    Returns ``(heads of the best final state (n + 1,), actions (T, K), parents (T, K),
    best_score (T,), gold_score (T,), gold_in_beam (T,), best_is_gold (T,))`` with ``T =
    2 n``; row ``t`` of actions/parents describes the beam after step ``t``, best first.
    """
    T, K = 2 * n, beam_size
    n_actions, n_templates = _n_actions(eager), _n_templates(eager, attrs)
    stacks = np.zeros((K, n + 2), dtype=np.int64)
    heads = np.zeros((K, n + 1), dtype=np.int64)
    lcs, rcs = np.zeros((K, n + 1), dtype=np.int64), np.zeros((K, n + 1), dtype=np.int64)
    nls, nrs = np.zeros((K, n + 1), dtype=np.int64), np.zeros((K, n + 1), dtype=np.int64)
    sizes, bufs = np.ones(K, dtype=np.int64), np.ones(K, dtype=np.int64)
    scores, gold_flags = np.zeros(K), np.zeros(K, dtype=np.bool_)
    new_stacks, new_heads = stacks.copy(), heads.copy()
    new_lcs, new_rcs, new_nls, new_nrs = lcs.copy(), rcs.copy(), nls.copy(), nrs.copy()
    new_sizes, new_bufs = sizes.copy(), bufs.copy()
    new_scores, new_flags = scores.copy(), gold_flags.copy()
    _standard._fresh(n, stacks[0], heads[0], lcs[0], rcs[0], nls[0], nrs[0])
    n_items = 1
    gold_flags[0] = True
    actions = np.full((T, K), -1, dtype=np.int64)
    parents = np.full((T, K), -1, dtype=np.int64)
    best_score, gold_score = np.zeros(T), np.zeros(T)
    gold_in_beam, best_is_gold = np.zeros(T, dtype=np.bool_), np.zeros(T, dtype=np.bool_)
    # the gold state, followed alongside
    g_stack, g_heads = np.zeros(n + 2, dtype=np.int64), np.zeros(n + 1, dtype=np.int64)
    g_lc, g_rc = np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64)
    g_nl, g_nr = np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64)
    _standard._fresh(n, g_stack, g_heads, g_lc, g_rc, g_nl, g_nr)
    g_size, g_b, g_total = ONE, ONE, 0.0  # int64, not literals: one signature each
    states = np.empty(n_templates, dtype=np.uint64)
    cand_score = np.empty(K * n_actions)
    cand_item = np.empty(K * n_actions, dtype=np.int64)
    cand_action = np.empty(K * n_actions, dtype=np.int64)
    for t in range(T):
        n_cand = 0
        for k in range(n_items):
            size, b = sizes[k], bufs[k]
            _state_prefixes(eager, attrs, start, n, stacks[k], size, b, heads[k], lcs[k], rcs[k],
                            nls[k], nrs[k], states)  # fmt: skip
            for a in range(n_actions):
                if _is_valid(eager, a, stacks[k], size, b, n, heads[k]):
                    score = _score(states, n_templates, a, coef, n_features)
                    cand_score[n_cand] = scores[k] + score
                    cand_item[n_cand], cand_action[n_cand] = k, a
                    n_cand += 1
        # stable selection of the K best (candidates are generated in (item, action) order)
        order = stable_argsort(-cand_score[:n_cand])
        n_new = min(K, n_cand)
        for j in range(n_new):
            c = order[j]
            k, a = cand_item[c], cand_action[c]
            _copy_row(new_stacks, j, stacks, k)
            _copy_row(new_heads, j, heads, k)
            _copy_row(new_lcs, j, lcs, k)
            _copy_row(new_rcs, j, rcs, k)
            _copy_row(new_nls, j, nls, k)
            _copy_row(new_nrs, j, nrs, k)
            new_sizes[j], new_bufs[j] = _apply(
                eager, a, new_stacks[j], sizes[k], bufs[k], new_heads[j], new_lcs[j],
                new_rcs[j], new_nls[j], new_nrs[j],
            )  # fmt: skip
            new_scores[j] = cand_score[c]
            new_flags[j] = track_gold and gold_flags[k] and a == gold_actions[t]
            actions[t, j], parents[t, j] = a, k
        stacks, new_stacks = new_stacks, stacks
        heads, new_heads = new_heads, heads
        lcs, new_lcs, rcs, new_rcs = new_lcs, lcs, new_rcs, rcs
        nls, new_nls, nrs, new_nrs = new_nls, nls, new_nrs, nrs
        sizes, new_sizes, bufs, new_bufs = new_sizes, sizes, new_bufs, bufs
        scores, new_scores, gold_flags, new_flags = new_scores, scores, new_flags, gold_flags
        n_items = n_new
        best_score[t] = scores[0]
        if track_gold:
            g_a = gold_actions[t]
            _state_prefixes(eager, attrs, start, n, g_stack, g_size, g_b, g_heads, g_lc, g_rc,
                            g_nl, g_nr, states)  # fmt: skip
            g_total += _score(states, n_templates, g_a, coef, n_features)
            g_size, g_b = _apply(eager, g_a, g_stack, g_size, g_b, g_heads, g_lc, g_rc, g_nl,
                                 g_nr)  # fmt: skip
            gold_score[t] = g_total
            best_is_gold[t] = gold_flags[0]
            for k in range(n_items):
                if gold_flags[k]:
                    gold_in_beam[t] = True
    return heads[0].copy(), actions, parents, best_score, gold_score, gold_in_beam, best_is_gold


@njit
def predict_batch(attrs, offsets, coef, n_features, beam_size, eager):
    """Heads of every word of every sentence by beam search."""
    out = np.empty(offsets[-1], dtype=np.int64)
    no_gold = np.zeros(0, dtype=np.int64)
    for i in range(offsets.shape[0] - 1):
        start = offsets[i]
        n = offsets[i + 1] - start
        heads = beam_search(attrs, start, n, coef, n_features, beam_size, no_gold, FALSE,
                            eager)[0]  # fmt: skip
        for d in range(1, n + 1):
            out[start + d - 1] = heads[d]
    return out
