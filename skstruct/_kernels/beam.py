"""Beam search over linear chains of order 0, 1 and 2, with dynamic-programming merging.

Hypotheses that agree on their last ``order`` labels are equivalent (Huang et al.
2012, sec. 4.2): only the best of each class is kept, so a beam at least as wide as
the ``n_labels ** order`` classes is exact. Scores follow ``chain.py``'s model.

Beam slots: step ``t`` keeps up to ``beam_size`` items in slots ``0..beam_size - 1``,
sorted best first; slot ``beam_size`` is reserved for the gold item a LaSO-style
search restarts from. Items are (label, parent slot at ``t - 1``).
"""

import numpy as np
from numba import prange

from ._config import FALSE, TRUE, ZERO, by_threads, helper, njit, njit_parallel, serial_twin
from .chain import (
    add_chain_delta,
    apply_chain_decisions,
    lay_out_batch,
    longest_sentence,
    minibatch_buffers,
    split_by_order,
    split_coef,
    thread_count,
    thread_unary_rows,
    unary_scores,
)
from .rows import look_up_token_pairs
from .sorting import stable_argsort


@helper
def _extension(unary, t, n, prev_state, c, n_labels, order, transition, start, stop, trigram):
    """Score added by labelling token ``t`` with ``c`` after a hypothesis in ``prev_state``."""
    v = unary[t, c]
    if order >= 1:
        if t == 0:
            v += start[c]
        else:
            v += transition[prev_state % n_labels, c]
        if t == n - 1:
            v += stop[c]
    if trigram is not None and order == 2 and t >= 2:
        v += trigram[prev_state // n_labels, prev_state % n_labels, c]
    return v


@helper
def _first_order_candidates(unary, t, n, transition, stop, labels, scores, lo, hi, cand_score,
                            cand_parent, cand_label, touched):  # fmt: skip
    """Candidates of step ``t > 0`` of a first-order beam: for every label, its best
    extension of the live items ``lo:hi`` of step ``t - 1``. The same additions in the
    same order as the general loop of ``beam_search``, and ties to the lower slot as
    there (the first generated), so both give the same beams bit for bit. Returns the
    number of candidates (every label, in label order)."""
    L = unary.shape[1]
    last = t == n - 1
    for slot in range(lo, hi):
        prev = labels[t - 1, slot]
        prev_score = scores[t - 1, slot]
        for c in range(L):
            ext = unary[t, c] + transition[prev, c]
            if last:
                ext += stop[c]
            v = prev_score + ext
            if slot == lo or v > cand_score[c]:  # strict: the first generated wins ties
                cand_score[c] = v
                cand_parent[c] = slot
    for c in range(L):
        cand_label[c] = c
        touched[c] = c
    return L


@njit
def beam_search(unary, n, transition, start, stop, trigram, order, beam_size, gold, laso):
    """Beam search for one sentence, with the trace the update rules need.

    unary : float64 (>= n, n_labels); gold : int32 (n,) gold labels, or (0,) when
    predicting; laso : restart from the gold prefix whenever it falls off the beam.
    Returns ``(path, labels, parents, first_slot, best_score, gold_score,
    gold_in_beam, best_is_gold, fell_off)``: path int32 (n,) is the best final
    sequence; labels, parents int32 (n, beam_size + 1) the beams; first_slot int32 (n,)
    the slot of the best live item per step (0, or ``beam_size`` after a restart);
    then per step: the best item's prefix score, the gold prefix's score, whether
    the gold prefix is in the beam, whether the best item is the gold prefix, and
    whether the search restarted from gold there. Final steps include stop scores.
    Candidates are ranked by score; ties keep the first generated (lower parent slot,
    then lower label).
    """
    L = unary.shape[1]
    n_states = 1
    for _ in range(order):
        n_states *= L
    K = beam_size
    track = gold.shape[0] > 0
    labels = np.full((n, K + 1), -1, dtype=np.int32)
    parents = np.full((n, K + 1), -1, dtype=np.int32)
    states = np.zeros((n, K + 1), dtype=np.int64)
    scores = np.full((n, K + 1), -np.inf)
    n_live = np.zeros(n, dtype=np.int64)
    first_slot = np.zeros(n, dtype=np.int32)
    best_score = np.zeros(n)
    gold_score = np.zeros(n)
    gold_in_beam = np.zeros(n, dtype=np.bool_)
    best_is_gold = np.zeros(n, dtype=np.bool_)
    fell_off = np.zeros(n, dtype=np.bool_)
    # per-state scratch: the best candidate of each equivalence class at this step
    stamp = np.full(n_states, -1, dtype=np.int64)
    cand_score = np.empty(n_states)
    cand_parent = np.empty(n_states, dtype=np.int32)
    cand_label = np.empty(n_states, dtype=np.int32)
    touched = np.empty(min(n_states, max(K, 1) * L + L), dtype=np.int64)
    top = np.empty(K, dtype=np.int64)
    gold_slot = 0  # slot of the gold prefix at the previous step (-1: fallen off)
    gold_state = ZERO
    running_gold = 0.0
    for t in range(n):
        n_touched = 0
        if t == 0:
            lo, hi = 0, 1  # the empty hypothesis, state 0, score 0
        else:
            lo = first_slot[t - 1]
            hi = lo + n_live[t - 1]
        if order == 1 and t > 0:
            # every class is a label: the best parent per label, without bookkeeping
            n_touched = _first_order_candidates(unary, t, n, transition, stop, labels, scores,
                                                lo, hi, cand_score, cand_parent, cand_label,
                                                touched)  # fmt: skip
            hi = lo  # done: skip the general loop
        for slot in range(lo, hi):
            prev_state = states[t - 1, slot] if t > 0 else 0
            prev_score = scores[t - 1, slot] if t > 0 else 0.0
            # _extension, written out: a call per candidate costs more than the sum.
            # Same additions in the same order, so gold and beam scores agree bit for bit.
            last = prev_state % L
            before_last = prev_state // L
            # the class of (prefix, c) is base + c: n_states is a multiple of L from order 1
            base = (prev_state * L) % n_states if order >= 1 else 0
            for c in range(L):
                ext = unary[t, c]
                if order >= 1:
                    if t == 0:
                        ext += start[c]
                    else:
                        ext += transition[last, c]
                    if t == n - 1:
                        ext += stop[c]
                if trigram is not None and order == 2 and t >= 2:
                    ext += trigram[before_last, last, c]
                v = prev_score + ext
                ns = base + c if order >= 1 else 0
                if stamp[ns] != t:
                    stamp[ns] = t
                    touched[n_touched] = ns
                    n_touched += 1
                    cand_score[ns] = v
                    cand_parent[ns] = slot if t > 0 else -1
                    cand_label[ns] = c
                elif v > cand_score[ns]:  # strict: the first generated wins ties
                    cand_score[ns] = v
                    cand_parent[ns] = slot if t > 0 else -1
                    cand_label[ns] = c
        # top-K classes, best first (stable: ties keep generation order)
        m = min(K, n_touched)
        if 4 * K >= n_touched:
            keys = np.empty(n_touched)
            for j in range(n_touched):
                keys[j] = -cand_score[touched[j]]
            order_idx = stable_argsort(keys)
            for j in range(m):
                top[j] = touched[order_idx[j]]
        else:
            size = 0
            floor = -np.inf  # the K-th best score once the top is full, in a register
            for j in range(n_touched):
                s = touched[j]
                v = cand_score[s]
                if size == K and v <= floor:
                    continue
                pos = size if size < K else K - 1
                while pos > 0 and cand_score[top[pos - 1]] < v:
                    top[pos] = top[pos - 1]
                    pos -= 1
                top[pos] = s
                if size < K:
                    size += 1
                if size == K:
                    floor = cand_score[top[K - 1]]
        for j in range(m):
            s = top[j]
            labels[t, j] = cand_label[s]
            parents[t, j] = cand_parent[s]
            states[t, j] = s
            scores[t, j] = cand_score[s]
        n_live[t] = m
        first_slot[t] = 0
        best_score[t] = scores[t, 0]
        if not track:
            continue
        g = gold[t]
        running_gold += _extension(
            unary, t, n, gold_state, g, L, order, transition, start, stop, trigram
        )
        gold_state = (gold_state * L + g) % n_states
        gold_score[t] = running_gold
        new_gold_slot = -1
        if gold_slot >= 0:
            for j in range(m):
                if (
                    states[t, j] == gold_state
                    and labels[t, j] == g
                    and (parents[t, j] == (gold_slot if t > 0 else -1))
                ):
                    new_gold_slot = j
                    break
        gold_in_beam[t] = new_gold_slot >= 0
        best_is_gold[t] = new_gold_slot == 0
        if laso and gold_slot >= 0 and new_gold_slot < 0:
            fell_off[t] = True
            labels[t, K] = g
            parents[t, K] = gold_slot if t > 0 else -1
            states[t, K] = gold_state
            scores[t, K] = running_gold
            first_slot[t] = K
            n_live[t] = 1
            new_gold_slot = K
        gold_slot = new_gold_slot
    path = np.empty(n, dtype=np.int32)
    backtrack(labels, parents, n - 1, first_slot[n - 1], path)
    return (
        path,
        labels,
        parents,
        first_slot,
        best_score,
        gold_score,
        gold_in_beam,
        (best_is_gold),
        fell_off,
    )


@njit
def backtrack(labels, parents, t, slot, out):
    """Write the labels of the prefix ending in ``slot`` at step ``t`` to ``out[:t + 1]``."""
    for j in range(t, -1, -1):
        out[j] = labels[j, slot]
        slot = parents[j, slot]


@njit
def beam_decode_sentences(indptr, indices, data, offsets, rows, coef, n_labels, order,
                          trigrams, beam_size, sentences, paths, unary):  # fmt: skip
    """Beam-search paths of the sentences ``sentences``, each written to its tokens'
    place in ``paths``; the arrays as in ``chain.decode_sentences`` (``unary``: scratch
    of at least the longest sentence's rows)."""
    emission, transition, start, stop, trigram = split_coef(coef, n_labels, trigrams)
    no_gold = np.zeros(0, dtype=np.int32)
    for s in range(sentences.shape[0]):
        lo = offsets[sentences[s]]
        hi = offsets[sentences[s] + 1]
        unary_scores(indptr, indices, data, lo, hi, rows, emission, unary)
        path = beam_search(unary, hi - lo, transition, start, stop, trigram, order, beam_size,
                           no_gold, FALSE)[0]  # fmt: skip
        for k in range(hi - lo):
            paths[lo + k] = path[k]


# Update rules a fused epoch runs (skstruct.updates.search), as kernel codes.
RULE_STANDARD, RULE_EARLY, RULE_HYBRID, RULE_MAX_VIOLATION, RULE_LATEST = range(5)
# Counters of ``search_update_epoch``, in the order of its ``counts`` array.
N_EPOCH_COUNTS = 5
COUNT_MISTAKES, COUNT_UPDATES, COUNT_INVALID, COUNT_INVALID_STANDARD, COUNT_CORRECT = range(5)


@helper
def update_step(rule, best_score, gold_score, gold_in_beam, best_is_gold, n):
    """The step a single-step rule updates at, or -1 (see ``skstruct.updates.search``)."""
    last = n - 1
    standard = -1 if best_is_gold[last] else last
    if rule == RULE_STANDARD:
        return standard
    if rule == RULE_HYBRID and not best_is_gold[last] and best_score[last] >= gold_score[last]:
        return last
    if rule == RULE_EARLY or rule == RULE_HYBRID:
        for t in range(n):
            if not gold_in_beam[t]:
                return t
        return standard
    found = -1
    for t in range(n):
        margin = best_score[t] - gold_score[t]
        if margin >= 0 and not best_is_gold[t]:
            if rule == RULE_LATEST or found < 0:
                found = t
            elif margin > best_score[found] - gold_score[found]:
                found = t
    return found


@helper
def search_sentence(indptr, indices, data, lo, n, gold, rows, emission, transition, start, stop,
                    trigram, order, beam_size, rule, unary):  # fmt: skip
    """Beam search on the ``n`` tokens from ``lo`` and the step ``rule`` updates at
    (-1: none): ``(step, path, labels, parents, best_score, gold_score,
    best_is_gold)`` as ``beam_search`` gives them. ``unary``: a buffer of >= n rows."""
    unary_scores(indptr, indices, data, lo, lo + n, rows, emission, unary)
    result = beam_search(unary, n, transition, start, stop, trigram, order, beam_size, gold,
                         FALSE)  # fmt: skip
    path, beam_labels, parents, _, best, gold_score, in_beam, best_is_gold, _ = result
    step = update_step(rule, best, gold_score, in_beam, best_is_gold, n)
    return step, path, beam_labels, parents, best, gold_score, best_is_gold


@njit
def search_update_epoch(
    indptr, indices, data, offsets, labels, visit, rows, coef, coef_sum, n_labels, order,
    trigrams, n_seen, beam_size, rule, counts, margins,
):  # fmt: skip
    """One perceptron epoch with beam search and a violation-fixing update, lazy averaging.

    The generic loop's ``BeamSearch.search`` + ``SearchUpdate.violations`` +
    ``LinearChain.update`` per sentence, in one kernel (single-step rules: standard,
    early, hybrid, max-violation, latest). Arrays as in ``chain.perceptron_epoch``;
    counts : int64 (N_EPOCH_COUNTS,) incremented in place; margins : float64
    (>= len(visit),) gets the margin of every update, in order (``counts[COUNT_UPDATES]``
    of them). Returns (n_seen, n_visited), ``n_visited < len(visit)`` when the emission
    pool filled up: ``visit[n_visited]`` was not learnt from nor counted.
    """
    emission, transition, start, stop, trigram = split_coef(coef, n_labels, trigrams)
    max_len = longest_sentence(offsets)
    unary = np.empty((max_len, n_labels))
    pred = np.empty(max_len, dtype=np.int32)
    for step in range(visit.shape[0]):
        i = visit[step]
        lo = offsets[i]
        n = offsets[i + 1] - lo
        gold = labels[lo : lo + n]
        t, path, beam_labels, parents, best, gold_score, best_is_gold = search_sentence(
            indptr, indices, data, lo, n, gold, rows, emission, transition, start, stop,
            trigram, order, beam_size, rule, unary,
        )  # fmt: skip
        if t >= 0:
            backtrack(beam_labels, parents, t, ZERO, pred)
            if not add_chain_delta(indptr, indices, data, lo, gold, pred, t + 1, order,
                                   trigrams, t + 1 == n, rows, coef, coef_sum, n_labels, 1.0,
                                   float(n_seen), TRUE):  # fmt: skip
                return n_seen, step
            margin = best[t] - gold_score[t]
            margins[counts[COUNT_UPDATES]] = margin
            counts[COUNT_MISTAKES] += 1
            counts[COUNT_UPDATES] += 1
            counts[COUNT_INVALID] += margin < 0
        if not best_is_gold[n - 1] and best[n - 1] - gold_score[n - 1] < 0:
            counts[COUNT_INVALID_STANDARD] += 1
        for k in range(n):
            counts[COUNT_CORRECT] += path[k] == gold[k]
        n_seen += 1
    return n_seen, visit.shape[0]


@njit_parallel
def search_decisions(
    indptr, indices, data, offsets, labels, batch, token_start, rows, coef, n_labels, order,
    beam_size, rule, pred, steps, margins, correct, invalid_standard, schedule, part_start,
    entry_start, slots, found, unary_rows,
):  # fmt: skip
    """Decode the sentences ``batch`` against the same weights, in parallel (a thread a
    part of ``balance.balanced_parts``), and decide each one's update (the first half of
    a minibatch epoch; Zhao & Huang 2013).

    Sentence ``batch[b]`` gets: ``steps[b]``, the step its rule updates at (-1: none),
    the predicted prefix up to that step in ``pred[token_start[b]:]``, the margin there
    in ``margins[b]``, its tokens decoded right in ``correct[b]``, whether the
    standard update would be invalid in ``invalid_standard[b]``, and the pool slots of
    the pairs its update touches in ``slots[entry_start[b]:]`` (``found[b]``: all have a
    weight; see ``chain.apply_chain_decisions``). Every sentence writes only its own
    entries, so the result does not depend on the number of threads. ``unary_rows``: a
    buffer per part (``chain.thread_unary_rows``).
    """
    emission, transition, start, stop, trigram = split_by_order(coef, n_labels, order)
    for part in prange(part_start.shape[0] - 1):
        unary = unary_rows[part]
        for at in range(part_start[part], part_start[part + 1]):
            b = schedule[at]
            lo = offsets[batch[b]]
            n = offsets[batch[b] + 1] - lo
            gold = labels[lo : lo + n]
            t, path, beam_labels, parents, best, gold_score, best_is_gold = search_sentence(
                indptr, indices, data, lo, n, gold, rows, emission, transition, start, stop,
                trigram, order, beam_size, rule, unary,
            )  # fmt: skip
            steps[b] = t
            found[b] = True
            if t >= 0:
                backtrack(beam_labels, parents, t, ZERO, pred[token_start[b] :])
                margins[b] = best[t] - gold_score[t]
                found[b] = look_up_token_pairs(rows, indptr, indices, lo, gold,
                                               pred[token_start[b] :], t + 1,
                                               slots[entry_start[b] :])  # fmt: skip
            right = 0
            for k in range(n):
                right += path[k] == gold[k]
            correct[b] = right
            invalid_standard[b] = (not best_is_gold[n - 1]
                                   and best[n - 1] - gold_score[n - 1] < 0)  # fmt: skip


#: The same, one thread (no thread pool to wake for a batch decoded serially).
search_decisions_serial = serial_twin(search_decisions)


@njit
def search_minibatch_epoch(
    indptr, indices, data, offsets, labels, visit, rows, coef, coef_sum, n_labels, order,
    trigrams, n_seen, beam_size, rule, counts, margins, batch_size, threads,
):  # fmt: skip
    """One epoch of ``search_update_epoch`` in minibatches: ``search_decisions`` (on
    ``threads`` threads; None: one, compiling no parallel code) then
    ``chain.apply_chain_decisions`` per batch of ``batch_size`` consecutive entries of
    ``visit``. ``counts`` and ``margins`` as in
    ``search_update_epoch``: margins of the updates in batch order. Returns (n_seen,
    n_visited); ``n_visited`` is the start of a batch, not applied nor counted, when the
    emission pool filled up (grow it, go on from there)."""
    buffers = minibatch_buffers(indptr, offsets, batch_size)
    pred, steps, right, starts, entry_start, slots, found = buffers
    batch_margins = np.zeros(batch_size)
    invalid_standard = np.empty(batch_size, dtype=np.bool_)
    unary_rows = thread_unary_rows(offsets, n_labels, thread_count(threads))
    decisions = by_threads(threads, search_decisions_serial, search_decisions)
    for lo in range(0, visit.shape[0], batch_size):
        batch = visit[lo : lo + batch_size]
        m = batch.shape[0]
        schedule, part_start = lay_out_batch(indptr, offsets, batch, threads, starts,
                                             entry_start)  # fmt: skip
        # explicit arguments: a parallel kernel called as ``kernel(*args)`` from here
        # decided differently from its serial twin (numba 0.68)
        decisions(indptr, indices, data, offsets, labels, batch, starts, rows, coef, n_labels,
                  order, beam_size, rule, pred, steps[:m], batch_margins[:m], right[:m],
                  invalid_standard[:m], schedule, part_start, entry_start, slots, found[:m],
                  unary_rows)  # fmt: skip
        seen = apply_chain_decisions(indptr, indices, data, offsets, labels, batch, starts,
                                     pred, steps[:m], entry_start, slots, found[:m], rows, coef,
                                     coef_sum, n_labels, order, trigrams, n_seen,
                                     threads)  # fmt: skip
        if seen < 0:
            return n_seen, lo
        n_seen = seen
        for b in range(m):
            if steps[b] >= 0:
                margins[counts[COUNT_UPDATES]] = batch_margins[b]
                counts[COUNT_MISTAKES] += 1
                counts[COUNT_UPDATES] += 1
                counts[COUNT_INVALID] += batch_margins[b] < 0
            counts[COUNT_INVALID_STANDARD] += invalid_standard[b]
            counts[COUNT_CORRECT] += right[b]
    return n_seen, visit.shape[0]
