"""Structured Weighted Violations Perceptron kernels for chains (Dror & Reichart 2016).

A mixed assignment ``m^J`` takes the prediction's labels on the positions ``J`` and
the gold labels elsewhere. For the built-in substructure sets every ``J`` is a range
``[a, b)``, so ``w . (phi(y) - phi(m^J))`` and the update touch only the parts that
meet the range: emissions in it, label bigrams and trigrams reaching into it, and the
start / stop parts at the edges.
"""

import numpy as np
from numba import prange

from ._config import helper, njit, njit_parallel, serial_twin
from .chain import (
    _decode_into,
    decode_sentence,
    epoch_scratch,
    split_by_order,
    split_coef,
    unary_scores,
)
from .rows import add_pair, ensure_token_pairs
from .values import feature_value

# Option codes: strings stay in Python; kernels see ints.
SUBSTRUCTURES_SINGLE, SUBSTRUCTURES_ERRORS, SUBSTRUCTURES_SPANS, SUBSTRUCTURES_FULL = 0, 1, 2, 3
GAMMA_WM, GAMMA_WMR, GAMMA_UNIFORM = 0, 1, 2
# Counters per epoch, in the order of ``swvp_epoch``'s ``counts`` array.
N_COUNTS = 7
(
    COUNT_MISTAKES,
    COUNT_UPDATES,
    COUNT_TERMS,
    COUNT_BACKOFFS,
    COUNT_DROPPED,
    COUNT_CONDITION_FAILED,
    COUNT_STUCK,
) = range(N_COUNTS)


@njit
def window_score(unary, path, n, a, b, transition, start, stop, trigram, order):
    """Score of the parts of ``path`` that meet positions ``[a, b)``.

    Emissions at ``a..b-1``; bigrams ending at ``a..b``; trigrams ending at
    ``a..b+1``; start if ``a == 0``; stop if ``b == n``. Two paths equal outside
    ``[a, b)`` differ in score by exactly the difference of their window scores.
    """
    total = 0.0
    for k in range(a, b):
        total += unary[k, path[k]]
    if order >= 1:
        if a == 0:
            total += start[path[0]]
        if b == n:
            total += stop[path[n - 1]]
        for k in range(max(1, a), min(n, b + 1)):
            total += transition[path[k - 1], path[k]]
    if trigram is not None and order == 2:
        for k in range(max(2, a), min(n, b + 2)):
            total += trigram[path[k - 2], path[k - 1], path[k]]
    return total


@helper
def add_window_delta(
    indptr, indices, data, row, gold, mixed, n, a, b, order, trigrams, rows, coef, n_labels, scale
):
    """coef += scale * (phi(gold) - phi(mixed)), for ``mixed`` equal to gold outside [a, b).

    Emission pairs without a weight in ``rows`` are left out: give them one first
    (``rows.ensure_token_pairs``)."""
    emission, transition, start, stop, trigram = split_coef(coef, n_labels, trigrams)
    for k in range(a, b):
        if gold[k] != mixed[k]:
            for j in range(indptr[row + k], indptr[row + k + 1]):
                v = scale * feature_value(data, j)
                add_pair(rows, indices[j], gold[k], v, emission)
                add_pair(rows, indices[j], mixed[k], -v, emission)
    if order == 0:
        return
    if a == 0 and gold[0] != mixed[0]:
        start[gold[0]] += scale
        start[mixed[0]] -= scale
    if b == n and gold[n - 1] != mixed[n - 1]:
        stop[gold[n - 1]] += scale
        stop[mixed[n - 1]] -= scale
    for k in range(max(1, a), min(n, b + 1)):
        if gold[k - 1] != mixed[k - 1] or gold[k] != mixed[k]:
            transition[gold[k - 1], gold[k]] += scale
            transition[mixed[k - 1], mixed[k]] -= scale
    if trigrams is not None:  # (trigram is a local: numba prunes on arguments)
        for k in range(max(2, a), min(n, b + 2)):
            if gold[k - 2] != mixed[k - 2] or gold[k - 1] != mixed[k - 1] or gold[k] != mixed[k]:
                trigram[gold[k - 2], gold[k - 1], gold[k]] += scale
                trigram[mixed[k - 2], mixed[k - 1], mixed[k]] -= scale


@njit
def substructure_ranges(gold, pred, n, kind, starts, stops):
    """Write the ranges ``[a, b)`` of JJ_x into ``starts``/``stops``; return |JJ_x|.

    single: every position; errors: every position where pred differs; spans:
    maximal runs of such positions; full: the whole sentence.
    """
    count = 0
    if kind == SUBSTRUCTURES_FULL:
        starts[0], stops[0] = 0, n
        return 1
    k = 0
    while k < n:
        wrong = gold[k] != pred[k]
        if kind == SUBSTRUCTURES_SINGLE or (kind == SUBSTRUCTURES_ERRORS and wrong):
            starts[count], stops[count] = k, k + 1
            count += 1
        elif kind == SUBSTRUCTURES_SPANS and wrong:
            end = k + 1
            while end < n and gold[end] != pred[end]:
                end += 1
            starts[count], stops[count] = k, end
            count += 1
            k = end
            continue
        k += 1
    return count


@helper
def set_gamma(margins, used, ranked, n_sets, kind, beta, out):
    """Weights of the mixed assignments flagged in ``used`` (bool), summing to 1.

    margins : ``w . (phi(y) - phi(m^J))`` per set (<= 0: a violation). wm: ``|margin|^beta``
    normalised; wmr: ``((N - r) / N)^beta`` normalised, where ``r`` is the 0-based rank
    of ``|margin|`` (largest first, ties by position) among the ``N`` sets flagged in
    ``ranked`` (all of JJ_x when balanced, the violating ones when aggressive, as the
    paper's footnote 5 says); uniform: equal weights. When every wm weight is 0 (all
    margins 0, as at the start of training), uniform.
    """
    out[:n_sets] = 0.0
    n_used = 0
    n_ranked = 0
    for j in range(n_sets):
        n_used += used[j]
        n_ranked += ranked[j]
    if n_used == 0:
        return
    if kind == GAMMA_WM:
        total = 0.0
        for j in range(n_sets):
            if used[j]:
                out[j] = abs(margins[j]) ** beta
                total += out[j]
        if total > 0.0:
            for j in range(n_sets):
                out[j] /= total
            return
        kind = GAMMA_UNIFORM
    if kind == GAMMA_WMR:
        total = 0.0
        for j in range(n_sets):
            if not used[j]:
                continue
            rank = 0
            for other in range(n_sets):
                if (
                    ranked[other]
                    and other != j
                    and (
                        abs(margins[other]) > abs(margins[j])
                        or (abs(margins[other]) == abs(margins[j]) and other < j)
                    )
                ):
                    rank += 1
            out[j] = ((n_ranked - rank) / n_ranked) ** beta
            total += out[j]
        for j in range(n_sets):
            out[j] /= total
        return
    for j in range(n_sets):
        if used[j]:
            out[j] = 1.0 / n_used


@njit
def choose_terms(
    margins, differs, n_sets, gamma_kind, beta, aggressive, enforce, used, ranked, gamma, counts
):
    """Pick the mixed assignments to update on and their weights (Algorithm 2, lines 10-11).

    differs : bool per set, ``m^J != y`` (only those are in I = Iv + Inv). Aggressive
    uses Iv only; balanced all of I. With ``enforce``, non-violating terms are dropped,
    largest margin first, until ``w . sum gamma delta phi <= 0`` (condition 2). Returns
    0 (update with ``gamma``), 1 (back off to the CSP update) or 2 (no update).
    """
    n_violating = 0
    for j in range(n_sets):
        used[j] = differs[j] and (margins[j] <= 0.0 or not aggressive)
        ranked[j] = used[j] or not aggressive
        if differs[j] and margins[j] <= 0.0:
            n_violating += 1
    if n_violating == 0:
        if enforce or aggressive:
            counts[COUNT_BACKOFFS if enforce else COUNT_STUCK] += 1
            return 1 if enforce else 2
    while True:
        set_gamma(margins, used, ranked, n_sets, gamma_kind, beta, gamma)
        if aggressive or not enforce:
            break
        product = 0.0
        for j in range(n_sets):
            product += gamma[j] * margins[j]
        if product <= 0.0:
            break
        worst = -1
        for j in range(n_sets):
            if used[j] and margins[j] > 0.0 and (worst < 0 or margins[j] > margins[worst]):
                worst = j
        used[worst] = False
        counts[COUNT_DROPPED] += 1
    if not aggressive and not enforce:
        product = 0.0
        for j in range(n_sets):
            product += gamma[j] * margins[j]
        if product > 0.0:
            counts[COUNT_CONDITION_FAILED] += 1
    return 0


@helper
def swvp_terms(
    unary, gold, pred, n, transition, start, stop, trigram, order, substructures, gamma_kind,
    beta, aggressive, enforce, starts, stops, used, gamma, counts,
):  # fmt: skip
    """The mixed assignments to update on for a prediction with a mistake, and their
    weights (margins from ``unary`` and the structure weights given). Writes the ranges
    to ``starts``/``stops``, the choice to ``used`` and the weights to ``gamma`` (each
    >= n long) and returns how many ranges there are; 0 when nothing is updated.
    Counts the update and its terms' outcomes in ``counts``."""
    mixed = np.empty(n, dtype=np.int32)
    margins = np.empty(n)
    differs = np.empty(n, dtype=np.bool_)
    ranked = np.empty(n, dtype=np.bool_)
    counts[COUNT_MISTAKES] += 1
    n_sets = substructure_ranges(gold, pred, n, substructures, starts, stops)
    for j in range(n_sets):
        a, b = starts[j], stops[j]
        for k in range(n):  # element loops: a slice copy compiles shape-error formatting
            mixed[k] = gold[k]
        differs[j] = False
        for k in range(a, b):
            mixed[k] = pred[k]
            differs[j] = differs[j] or pred[k] != gold[k]
        margins[j] = window_score(
            unary, gold, n, a, b, transition, start, stop, trigram, order
        ) - window_score(unary, mixed, n, a, b, transition, start, stop, trigram, order)
    case = choose_terms(margins, differs, n_sets, gamma_kind, beta, aggressive, enforce, used,
                        ranked, gamma, counts)  # fmt: skip
    if case == 2:
        return 0
    if case == 1:  # back off to the CSP update: J = [n], gamma = 1
        n_sets = 1
        starts[0], stops[0] = 0, n
        used[0] = True
        gamma[0] = 1.0
    counts[COUNT_UPDATES] += 1
    return n_sets


@helper
def apply_swvp_terms(
    indptr, indices, data, lo, gold, pred, n, order, trigrams, rows, coef, coef_sum, n_labels,
    n_seen, n_sets, starts, stops, used, gamma, counts,
):  # fmt: skip
    """Apply the terms ``swvp_terms`` chose, every one against the weights the margins
    were computed with (each term's delta is scaled, then added), with lazy averaging."""
    mixed = np.empty(n, dtype=np.int32)
    for j in range(n_sets):
        if not used[j] or gamma[j] == 0.0:
            continue
        a, b = starts[j], stops[j]
        for k in range(n):
            mixed[k] = pred[k] if a <= k < b else gold[k]
        counts[COUNT_TERMS] += 1
        add_window_delta(indptr, indices, data, lo, gold, mixed, n, a, b, order, trigrams, rows,
                         coef, n_labels, gamma[j])  # fmt: skip
        if n_seen > 0:
            add_window_delta(indptr, indices, data, lo, gold, mixed, n, a, b, order, trigrams,
                             rows, coef_sum, n_labels, gamma[j] * n_seen)  # fmt: skip


@njit
def swvp_epoch(
    indptr, indices, data, offsets, labels, visit, rows, coef, coef_sum, n_labels, order,
    trigrams, n_seen, substructures, gamma_kind, beta, aggressive, enforce, counts,
):  # fmt: skip
    """One SWVP epoch (argmax inference, built-in JJ_x and gamma), with lazy averaging.

    Arrays as in ``chain.perceptron_epoch``; substructures, gamma_kind : option codes
    above; counts : int64 (N_COUNTS + 1,) incremented in place, the last entry counting
    tokens labelled right before any update. Returns (n_seen, n_visited), the second
    less than ``len(visit)`` when the emission pool filled up (see
    ``chain.perceptron_epoch``): ``visit[n_visited]`` was not learnt from nor counted.
    """
    emission, transition, start, stop, trigram = split_coef(coef, n_labels, trigrams)
    unary, backptr, backptr2, pred = epoch_scratch(offsets, n_labels, trigram, order)
    max_len = pred.shape[0]
    starts = np.empty(max_len, dtype=np.int64)
    stops = np.empty(max_len, dtype=np.int64)
    used = np.empty(max_len, dtype=np.bool_)
    gamma = np.empty(max_len)
    emission_sum = split_coef(coef_sum, n_labels, trigrams)[0]
    for step in range(visit.shape[0]):
        i = visit[step]
        lo = offsets[i]
        n = offsets[i + 1] - lo
        gold = labels[lo : lo + n]
        unary_scores(indptr, indices, data, lo, lo + n, rows, emission, unary)
        _decode_into(unary, n, transition, start, stop, trigram, order, backptr, backptr2, pred)
        n_wrong = 0
        for k in range(n):
            if pred[k] != gold[k]:
                n_wrong += 1
        if n_wrong > 0:
            # every pair a mixed assignment touches is (feature, gold or predicted label)
            if not ensure_token_pairs(
                rows, indptr, indices, lo, gold, pred, n, n_labels, emission, emission_sum
            ):
                return n_seen, step
            n_sets = swvp_terms(unary, gold, pred, n, transition, start, stop, trigram, order,
                                substructures, gamma_kind, beta, aggressive, enforce, starts,
                                stops, used, gamma, counts)  # fmt: skip
            apply_swvp_terms(indptr, indices, data, lo, gold, pred, n, order, trigrams, rows,
                             coef, coef_sum, n_labels, n_seen, n_sets, starts, stops, used,
                             gamma, counts)  # fmt: skip
        counts[N_COUNTS] += n - n_wrong
        n_seen += 1
    return n_seen, visit.shape[0]


@njit_parallel
def swvp_decisions(
    indptr, indices, data, offsets, labels, batch, token_start, rows, coef, n_labels, order,
    substructures, gamma_kind, beta, aggressive, enforce, pred, n_sets, starts, stops,
    used, gamma, counts, schedule, part_start, unary_rows, backptr_rows,
):  # fmt: skip
    """Decode the sentences ``batch`` against the same weights, in parallel (a thread a
    part of ``balance.balanced_parts``), and choose each one's terms (``swvp_terms``):
    the first half of a minibatch SWVP epoch.

    Sentence ``batch[b]`` writes its path, ranges, choices and weights from
    ``token_start[b]`` on in ``pred``, ``starts``, ``stops``, ``used``, ``gamma``, its
    number of ranges (0: no update) to ``n_sets[b]`` and its counts to ``counts[b]``
    (int64 (len(batch), N_COUNTS + 1)): the result does not depend on the threads.
    ``unary_rows`` and ``backptr_rows``: a buffer per part (``chain.thread_viterbi_rows``).
    """
    emission, transition, start, stop, trigram = split_by_order(coef, n_labels, order)
    for part in prange(part_start.shape[0] - 1):
        unary, backptr = unary_rows[part], backptr_rows[part]
        for position in range(part_start[part], part_start[part + 1]):
            b = schedule[position]
            lo = offsets[batch[b]]
            n = offsets[batch[b] + 1] - lo
            at = token_start[b]
            gold = labels[lo : lo + n]
            path = pred[at : at + n]
            decode_sentence(indptr, indices, data, lo, n, rows, emission, transition, start,
                            stop, trigram, order, unary, backptr, path)  # fmt: skip
            n_wrong = 0
            for k in range(n):
                n_wrong += path[k] != gold[k]
            counts[b, N_COUNTS] = n - n_wrong
            n_sets[b] = 0
            if n_wrong > 0:
                n_sets[b] = swvp_terms(unary, gold, path, n, transition, start, stop,
                                       trigram, order, substructures, gamma_kind, beta,
                                       aggressive, enforce, starts[at:], stops[at:],
                                       used[at:], gamma[at:], counts[b])  # fmt: skip


#: The same, one thread.
swvp_decisions_serial = serial_twin(swvp_decisions)


@njit
def apply_swvp_decisions(
    indptr, indices, data, offsets, labels, batch, token_start, rows, coef, coef_sum,
    n_labels, order, trigrams, n_seen, pred, n_sets, starts, stops, used, gamma, counts,
):  # fmt: skip
    """The second half of a minibatch SWVP epoch: the terms ``swvp_decisions`` chose,
    applied in order with lazy averaging. Every pair the batch touches gets a weight
    before any term is applied, so a full pool changes no weight: it returns -1 (grow
    the pool, call again); else the new n_seen."""
    emission = split_coef(coef, n_labels, trigrams)[0]
    emission_sum = split_coef(coef_sum, n_labels, trigrams)[0]
    for b in range(batch.shape[0]):
        lo = offsets[batch[b]]
        n = offsets[batch[b] + 1] - lo
        if n_sets[b] > 0 and not ensure_token_pairs(
            rows, indptr, indices, lo, labels[lo:], pred[token_start[b] :], n, n_labels,
            emission, emission_sum,
        ):  # fmt: skip
            return -1
    for b in range(batch.shape[0]):
        lo = offsets[batch[b]]
        n = offsets[batch[b] + 1] - lo
        at = token_start[b]
        apply_swvp_terms(indptr, indices, data, lo, labels[lo : lo + n], pred[at:], n, order,
                         trigrams, rows, coef, coef_sum, n_labels, n_seen, n_sets[b], starts[at:],
                         stops[at:], used[at:], gamma[at:], counts[b])  # fmt: skip
        n_seen += 1
    return n_seen
