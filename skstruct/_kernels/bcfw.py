"""Kernels of the block-coordinate Frank-Wolfe structured SVM.

A block's share of the weights, ``w_i``, and the corner ``w_s`` a step moves it
towards are sparse vectors keyed by weight (``structure.delta``'s keys: ascending and
distinct). The blocks live back to back in one pool (``start``, ``length``,
``capacity`` per block; ``used`` the pool's first free entry), so that a whole epoch
can run in one kernel; a block that outgrows its room moves to the end of the pool.
"""

import numpy as np
from numba import prange

from ._config import ONE, TRUE, ZERO, helper, njit, njit_parallel
from .balance import sentence_parts
from .chain import (
    _decode_into,
    backptr2_rows,
    batch_token_starts,
    epoch_scratch,
    longest_sentence,
    n_structure_weights,
    split_by_order,
    split_coef,
    thread_count,
    thread_viterbi_rows,
    unary_scores,
)
from .delta import chain_delta, tree_delta
from .rows import ensure, slot
from .tree_search import decode, scratch

# Eisner's decoding costs n^3: a tree's weight when minibatches are split over threads
_CUBIC = np.int64(3)  # a numpy integer, not a literal (see _config.ZERO)
_QUARTIC = np.int64(4)  # with grandparent parts
_TWO = np.int64(2)  # second order: sibling parts


@njit
def aligned(keys_a, values_a, keys_b, values_b):
    """``(keys, a, b)``: the union of two sparse vectors' keys (ascending) and each
    vector's values there, 0 where it has no entry. A merge: O(len(a) + len(b))."""
    size = keys_a.shape[0] + keys_b.shape[0]
    keys = np.empty(size, dtype=np.int64)
    a = np.zeros(size)
    b = np.zeros(size)
    i = j = m = 0
    while i < keys_a.shape[0] or j < keys_b.shape[0]:
        if j == keys_b.shape[0] or (i < keys_a.shape[0] and keys_a[i] < keys_b[j]):
            keys[m], a[m] = keys_a[i], values_a[i]
            i += 1
        elif i == keys_a.shape[0] or keys_b[j] < keys_a[i]:
            keys[m], b[m] = keys_b[j], values_b[j]
            j += 1
        else:
            keys[m], a[m], b[m] = keys_a[i], values_a[i], values_b[j]
            i += 1
            j += 1
        m += 1
    return keys[:m], a[:m], b[:m]


@njit
def room(m):
    """The capacity a block of ``m`` entries gets when it moves: half as much again,
    so that a block growing one step at a time moves O(log) times."""
    return m + m // 2 + 4


@helper
def has_room(capacity, used, pool_size, i, m):
    """Whether block ``i`` can take ``m`` entries (in place, or moved to the end)."""
    return m <= capacity[i] or used[0] + room(m) <= pool_size


@njit
def store_block(start, length, capacity, pool_keys, pool_values, used, i, keys, values):
    """Make ``(keys, values)`` block ``i``; False, changing nothing, when the pool has
    no room for it (grow the pool, call again)."""
    m = keys.shape[0]
    if not has_room(capacity, used, pool_keys.shape[0], i, m):
        return False
    if m > capacity[i]:
        start[i], capacity[i] = used[0], room(m)
        used[0] += capacity[i]
    s = start[i]
    for j in range(m):  # a slice copy would compile numba's shape-error formatting
        pool_keys[s + j] = keys[j]
        pool_values[s + j] = values[j]
    length[i] = m
    return True


@njit
def _positions(rows, keys, n_dense, n_labels, out, sparse):
    """Where each key's weight is in a chain's weight vector (``out``; -1 for a pair
    without one); returns how many have none. ``sparse``: None where every emission
    row is full (label ``k`` of row ``f`` at pool slot ``start[f] + k``: no search),
    else TRUE."""
    missing = 0
    for j in range(keys.shape[0]):
        key = keys[j]
        if key < n_dense:
            out[j] = key
        elif sparse is None:
            code = key - n_dense
            out[j] = n_dense + rows[0][code // n_labels] + code % n_labels
        else:
            p = slot(rows, (key - n_dense) // n_labels, (key - n_dense) % n_labels)
            out[j] = n_dense + p if p >= 0 else -1
            missing += p < 0
    return missing


@njit
def line_search(block_gain, coef, positions, direction):
    """The exact line search ``gamma = clip((C_i (L - l_i) - w . d) / ||d||^2, 0, 1)``
    of a step along ``direction`` (``d``, at weight ``positions``; -1 for a pair with
    no weight yet, whose ``w`` is 0); ``block_gain`` is ``C_i (L - l_i)``."""
    dot = 0.0
    curvature = 0.0
    for j in range(direction.shape[0]):
        if positions[j] >= 0:
            dot += coef[positions[j]] * direction[j]
        curvature += direction[j] * direction[j]
    gap = block_gain - dot
    if curvature > 0.0:
        return min(max(gap / curvature, 0.0), 1.0)
    return 1.0 if gap > 0.0 else 0.0  # w_s = w_i: the dual is linear along the segment


@njit
def take_step(
    i, gamma, m, loss, keys, positions, block, direction, coef, coef_sum, Ci, block_loss, start,
    length, capacity, pool_keys, pool_values, used, losses,
):  # fmt: skip
    """Step ``m`` (``gamma > 0``) on block ``i``: ``gamma * direction`` added to the
    weights at ``positions`` (every one has a weight), times ``m(m-1)/2`` to their
    averaging sums, to the block (keys ``keys``; its room checked) and its loss."""
    lazy = 0.5 * m * (m - 1)
    change = gamma * direction
    for j in range(keys.shape[0]):
        coef[positions[j]] += change[j]
        coef_sum[positions[j]] += lazy * change[j]
    store_block(start, length, capacity, pool_keys, pool_values, used, i, keys, block + change)
    loss_change = Ci[i] * gamma * (loss - block_loss[i])
    block_loss[i] += gamma * (loss - block_loss[i])
    losses[0] += loss_change
    losses[1] += lazy * loss_change


@helper
def add_hamming_loss(unary, n, gold):
    """Add the Hamming loss to the unary scores of ``n`` tokens: every label +1, the
    ``gold`` one -1 again (as ``LinearChain.augment`` adds it, so that the rounding is
    the learner's)."""
    for t in range(n):
        for k in range(unary.shape[1]):
            unary[t, k] += 1.0
        unary[t, gold[t]] -= 1.0


@helper
def augmented_path(indptr, indices, data, lo, n, gold, rows, emission, transition, first, last,
                   trigram, order, unary, backptr, backptr2, path):  # fmt: skip
    """The loss-augmented argmax of the ``n`` tokens from ``lo`` into ``path``: Viterbi
    under emission scores with the Hamming loss added (every label +1, the ``gold`` one
    -1 again, as ``LinearChain.augment`` adds it). ``unary``, ``backptr`` and (order
    2; else None) ``backptr2``: buffers of at least ``n`` rows (``chain.epoch_scratch``'s)."""
    unary_scores(indptr, indices, data, lo, lo + n, rows, emission, unary)
    add_hamming_loss(unary, n, gold)
    _decode_into(unary, n, transition, first, last, trigram, order, backptr, backptr2, path)


@njit_parallel
def chain_oracles(
    indptr, indices, data, offsets, labels, batch, token_start, rows, coef, n_labels, order,
    pred, schedule, part_start, unary_rows, backptr_rows,
):  # fmt: skip
    """The loss-augmented argmax of every sentence of ``batch`` against the same
    weights, in parallel (a thread a part of ``balance.sentence_parts``): sentence
    ``batch[b]``'s goes to ``pred[token_start[b]:]``. Each writes only its own entries,
    so the result does not depend on the number of threads."""
    emission, transition, first, last, trigram = split_by_order(coef, n_labels, order)
    for part in prange(part_start.shape[0] - 1):
        unary, backptr = unary_rows[part], backptr_rows[part]
        for at in range(part_start[part], part_start[part + 1]):
            b = schedule[at]
            lo = offsets[batch[b]]
            n = offsets[batch[b] + 1] - lo
            # a sentence's own second-order back-pointers (``chain.decode_sentence``)
            backptr2 = backptr2_rows(trigram, order, n, n_labels)
            augmented_path(indptr, indices, data, lo, n, labels[lo : lo + n], rows, emission,
                           transition, first, last, trigram, order, unary, backptr, backptr2,
                           pred[token_start[b] : token_start[b] + n])  # fmt: skip


@helper
def batch_of(visit, position, batch_size, offsets, decoded, token_start):
    """``(lo, batch, fresh)``: the minibatch ``visit[position]`` belongs to (positions
    ``lo ..``) and whether its oracles are still to run (``decoded`` is another batch's
    start); a fresh batch's token starts are written to ``token_start``."""
    lo = position - position % batch_size
    batch = visit[lo : min(lo + batch_size, visit.shape[0])]
    fresh = decoded != lo
    if fresh:
        batch_token_starts(offsets, batch, token_start)
    return lo, batch, fresh


@njit
def chain_epoch(
    indptr, indices, data, offsets, labels, visit, position, batch_size, threads, decoded,
    pred, token_start, rows, coef, coef_sum, n_labels, order, trigrams, n_seen, Ci, block_loss,
    start, length, capacity, pool_keys, pool_values, used, losses, gammas, sparse,
):  # fmt: skip
    """BCFW steps on the chain examples ``visit[position:]`` in minibatches: what
    ``FrankWolfeBlocks.step`` does with an exact Viterbi oracle, in one kernel.

    The batches are ``visit[k * batch_size : (k + 1) * batch_size]``. A batch's oracles
    (:func:`chain_oracles`, on ``threads`` threads; None: one, compiling no parallel
    code) all search against the weights the
    batch starts from; its steps are then taken in turn, each line search against the
    weights as the steps before it left them (``batch_size=1``: Algorithm 3 itself).
    ``pred`` and ``token_start`` hold the decoded batch (room for ``batch_size``
    longest sentences; ``decoded``: the position its batch starts at, -1 for none).

    Per step: ``psi = phi(gold) - phi(y*)`` (``delta.chain_delta``), the block and
    the corner ``C_i psi`` on one set of keys, the line search, and the change applied
    to ``coef`` and (times ``m(m-1)/2`` for the ``m``-th step) to ``coef_sum``, the
    block and its loss. ``losses``: ``[sum_i C_i l_i, its lazy averaging sum]``,
    updated in place; ``gammas[s]``: the ``gamma`` of the step on ``visit[s]``.
    ``sparse``: None where every emission row is full (``EmissionRows.is_full``), so
    no pair is searched for or inserted and none of that code is compiled (as in
    ``chain.perceptron_epoch``); TRUE for rows that may lack pairs.

    Returns ``(n_seen, position, full, decoded, needed)``: ``full`` 1 when the emission
    pool, 2 when the block pool had no room for the step on ``visit[position]`` (not
    taken: grow the pool, by at least room for ``needed`` entries, and call again from
    ``position`` with ``decoded``: the batch is not decoded twice), 0 when every
    example was visited.
    """
    n_dense = n_structure_weights(n_labels, order)
    emission, transition, first_w, last_w, trigram = split_coef(coef, n_labels, trigrams)
    unary_rows, backptr_rows = thread_viterbi_rows(offsets, n_labels, thread_count(threads))
    backptr2 = epoch_scratch(offsets, n_labels, trigram, order)[2]  # for the oracles in turn
    ones = np.ones(unary_rows.shape[1])
    while position < visit.shape[0]:
        lo, batch, fresh = batch_of(visit, position, batch_size, offsets, decoded, token_start)
        if fresh:
            if threads is not None:
                schedule, part_start = sentence_parts(offsets, batch, threads, ONE)
                chain_oracles(indptr, indices, data, offsets, labels, batch, token_start, rows,
                              coef, n_labels, order, pred, schedule, part_start, unary_rows,
                              backptr_rows)  # fmt: skip
            else:  # in turn, no thread pool (a batch of one: Algorithm 3)
                for b in range(batch.shape[0]):
                    first, n = offsets[batch[b]], offsets[batch[b] + 1] - offsets[batch[b]]
                    augmented_path(indptr, indices, data, first, n, labels[first : first + n],
                                   rows, emission, transition, first_w, last_w, trigram, order,
                                   unary_rows[0], backptr_rows[0], backptr2,
                                   pred[token_start[b] : token_start[b] + n])  # fmt: skip
            decoded = lo
        for step in range(position, lo + batch.shape[0]):
            i = visit[step]
            first, n = offsets[i], offsets[i + 1] - offsets[i]
            gold = labels[first : first + n]
            at = token_start[step - lo]
            path = pred[at : at + n]
            loss = 0.0
            for t in range(n):
                if path[t] != gold[t]:
                    loss += 1.0
            corner_keys, psi = chain_delta(indptr, indices, data, first, gold, path, n, order,
                                           TRUE, n_labels, ones)  # fmt: skip
            s = start[i]
            keys, block, corner = aligned(pool_keys[s : s + length[i]],
                                          pool_values[s : s + length[i]], corner_keys,
                                          Ci[i] * psi)  # fmt: skip
            direction = corner - block
            positions = np.empty(keys.shape[0], dtype=np.int64)
            missing = _positions(rows, keys, n_dense, n_labels, positions, sparse)
            gamma = line_search(Ci[i] * (loss - block_loss[i]), coef, positions, direction)
            m = n_seen + 1
            if gamma > 0.0:
                if not has_room(capacity, used, pool_keys.shape[0], i, keys.shape[0]):
                    return n_seen, step, 2, decoded, keys.shape[0]
                # pairs without a weight get one (rows may move: look up again); full
                # rows (sparse None) have every pair, and none of this is compiled
                if sparse is not None and missing:
                    emission_sum = coef_sum[n_dense:]
                    for j in range(keys.shape[0]):
                        if positions[j] < 0:
                            code = keys[j] - n_dense
                            if not ensure(rows, code // n_labels, code % n_labels, n_labels,
                                          emission, emission_sum):  # fmt: skip
                                return n_seen, step, 1, decoded, keys.shape[0]
                    _positions(rows, keys, n_dense, n_labels, positions, sparse)
                take_step(i, gamma, m, loss, keys, positions, block, direction, coef, coef_sum,
                          Ci, block_loss, start, length, capacity, pool_keys, pool_values, used,
                          losses)  # fmt: skip
            gammas[step] = gamma
            n_seen = m
        position = lo + batch.shape[0]
    return n_seen, visit.shape[0], 0, decoded, 0


@helper
def tree_oracle(attrs, start, n, coef, n_features, gold, parts, single_root, work, out):
    """The loss-augmented argmax of an unlabelled tree, its words' heads into ``out``:
    ``tree_search.decode`` with the Hamming loss against ``gold`` (the words' gold
    heads) added to the arc scores. ``parts``: ``(siblings, grandparents,
    non_projective)``, each None or True as ``decode`` takes them; ``work``:
    ``tree_search.scratch`` for at least ``n`` words."""
    siblings, grandparents, non_projective = parts
    heads = decode(attrs, start, n, coef, n_features, siblings, grandparents, non_projective,
                   single_root, None, work, gold)  # fmt: skip
    for d in range(n):
        out[d] = heads[d + 1]


@njit_parallel
def tree_oracles(attrs, offsets, heads, batch, token_start, coef, n_features, parts,
                 single_root, pred, schedule, part_start):  # fmt: skip
    """:func:`tree_oracle` of every sentence of ``batch`` against the same weights, in
    parallel (a thread a part of ``balance.sentence_parts``): the heads of sentence
    ``batch[b]``'s words go to ``pred[token_start[b]:]``."""
    longest = longest_sentence(offsets)
    for part in prange(part_start.shape[0] - 1):
        work = scratch(longest, parts[0])
        for at in range(part_start[part], part_start[part + 1]):
            b = schedule[at]
            first = offsets[batch[b]]
            n = offsets[batch[b] + 1] - first
            tree_oracle(attrs, first, n, coef, n_features, heads[first : first + n], parts,
                        single_root, work, pred[token_start[b] :])  # fmt: skip


@njit
def tree_epoch(
    attrs, offsets, heads, visit, position, batch_size, threads, decoded, pred, token_start,
    coef, coef_sum, n_features, parts, single_root, n_seen, Ci, block_loss, start, length,
    capacity, pool_keys, pool_values, used, losses, gammas,
):  # fmt: skip
    """:func:`chain_epoch` for unlabelled trees (:func:`tree_oracle`'s oracles: Eisner
    of the first or (with siblings) second order, with grandparent parts or not, or
    Chu-Liu-Edmonds, as ``parts`` says): the same minibatches, steps, arguments and
    returns (``heads``: every word's gold head; ``full`` is 2 or 0, the hashed weights
    never fill up)."""
    longest = longest_sentence(offsets)
    work = scratch(longest, parts[0])
    gold_heads = np.full(longest + 1, -1, dtype=np.int64)
    pred_heads = np.full(longest + 1, -1, dtype=np.int64)
    no_labels = np.zeros(longest + 1, dtype=np.int64)
    order = ONE if parts[0] is None else _TWO
    cost = _CUBIC if parts[1] is None else _QUARTIC
    while position < visit.shape[0]:
        lo, batch, fresh = batch_of(visit, position, batch_size, offsets, decoded, token_start)
        if fresh:
            if threads is not None:
                schedule, part_start = sentence_parts(offsets, batch, threads, cost)
                tree_oracles(attrs, offsets, heads, batch, token_start, coef, n_features,
                             parts, single_root, pred, schedule, part_start)  # fmt: skip
            else:  # in turn, no thread pool (a batch of one: Algorithm 3)
                for b in range(batch.shape[0]):
                    first, n = offsets[batch[b]], offsets[batch[b] + 1] - offsets[batch[b]]
                    tree_oracle(attrs, first, n, coef, n_features, heads[first : first + n],
                                parts, single_root, work, pred[token_start[b] :])  # fmt: skip
            decoded = lo
        for step in range(position, lo + batch.shape[0]):
            i = visit[step]
            first, n = offsets[i], offsets[i + 1] - offsets[i]
            at = token_start[step - lo]
            loss = 0.0
            for d in range(1, n + 1):
                gold_heads[d], pred_heads[d] = heads[first + d - 1], pred[at + d - 1]
                if pred_heads[d] != gold_heads[d]:
                    loss += 1.0
            corner_keys, psi = tree_delta(attrs, first, n, gold_heads, no_labels, pred_heads,
                                          no_labels, n_features, order, parts[1],
                                          ZERO)  # fmt: skip
            s = start[i]
            keys, block, corner = aligned(pool_keys[s : s + length[i]],
                                          pool_values[s : s + length[i]], corner_keys,
                                          Ci[i] * psi)  # fmt: skip
            direction = corner - block
            gamma = line_search(Ci[i] * (loss - block_loss[i]), coef, keys, direction)
            m = n_seen + 1
            if gamma > 0.0:
                if not has_room(capacity, used, pool_keys.shape[0], i, keys.shape[0]):
                    return n_seen, step, 2, decoded, keys.shape[0]
                take_step(i, gamma, m, loss, keys, keys, block, direction, coef, coef_sum, Ci,
                          block_loss, start, length, capacity, pool_keys, pool_values, used,
                          losses)  # fmt: skip
            gammas[step] = gamma
            n_seen = m
        position = lo + batch.shape[0]
    return n_seen, visit.shape[0], 0, decoded, 0
