"""Emission rows: the labels each feature has a weight for, and where that weight is.

A chain's emission weights are sparse: feature ``f`` holds weights only for the labels
it was updated with (a perceptron never moves any other (feature, label) weight off
zero), so memory grows with what training touches, not with features x labels.
``rows = (start, length, capacity, labels, used)``: row ``f`` is
``labels[start[f] : start[f] + length[f]]``, sorted, inside a segment of ``capacity[f]``
slots of one pool; ``used[0]`` pool slots are taken. The weight of the entry at pool
slot ``p`` is ``emission[p]`` (``emission`` is the pool part of a weight vector), so
rows and every weight array laid out by them move together.

A row that outgrows its segment moves to the end of the pool with twice the room (the
old segment is left as a hole until the pool is compacted, in Python); a full pool
makes ``insert`` return False and change nothing, so a caller can grow the pool and
try again.
"""

import numpy as np

from ._config import helper, njit
from .values import feature_value


@helper
def lower_bound(rows, f, k):
    """Pool slot of label ``k`` in row ``f``, or where it would be inserted."""
    start, length, _, labels, _ = rows
    lo = start[f]
    hi = lo + length[f]
    while lo < hi:
        mid = (lo + hi) >> 1
        if labels[mid] < k:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit
def slot(rows, f, k):
    """Pool slot of the weight of (feature ``f``, label ``k``), or -1 when it has none."""
    start, length, _, labels, _ = rows
    if k < length[f] and labels[start[f] + k] == k:  # a full row (and any row's head)
        return start[f] + k
    p = lower_bound(rows, f, k)
    if p < start[f] + length[f] and labels[p] == k:
        return p
    return -1


@njit
def ensure(rows, f, k, n_labels, emission, emission_sum):
    """Give (``f``, ``k``) a weight (zero in both arrays) unless it has one.

    Returns False, changing nothing, when the pool has no room for it.
    """
    start, length, capacity, labels, used = rows
    p = lower_bound(rows, f, k)
    end = start[f] + length[f]
    if p < end and labels[p] == k:
        return True
    if length[f] == capacity[f]:
        room = min(max(2 * capacity[f], 2), n_labels)
        if used[0] + room > labels.shape[0]:
            return False
        new = used[0]
        for j in range(length[f]):
            labels[new + j] = labels[start[f] + j]
            emission[new + j] = emission[start[f] + j]
            emission_sum[new + j] = emission_sum[start[f] + j]
        p += new - start[f]
        end += new - start[f]
        start[f] = new
        capacity[f] = room
        used[0] += room
    for j in range(end, p, -1):
        labels[j] = labels[j - 1]
        emission[j] = emission[j - 1]
        emission_sum[j] = emission_sum[j - 1]
    labels[p] = k
    emission[p] = 0.0
    emission_sum[p] = 0.0
    length[f] += 1
    return True


@helper
def ensure_token_pairs(rows, indptr, indices, lo, gold, pred, n_tokens, n_labels, em, em_sum):
    """Give every (feature, label) pair that ``phi(gold) - phi(pred)`` touches over the
    first ``n_tokens`` tokens (from row ``lo``) a weight. False when the pool is full
    (pairs given a weight so far keep it: zero weights change no score)."""
    for pos in range(n_tokens):
        g = gold[pos]
        p = pred[pos]
        if g == p:
            continue
        for j in range(indptr[lo + pos], indptr[lo + pos + 1]):
            f = indices[j]
            if not (ensure(rows, f, g, n_labels, em, em_sum)
                    and ensure(rows, f, p, n_labels, em, em_sum)):  # fmt: skip
                return False
    return True


@helper
def token_pair_buffer(indptr, lo, gold, pred, n_tokens):
    """An int64 array with room for the slots of every pair ``phi(gold) - phi(pred)``
    touches over the first ``n_tokens`` tokens (two per feature of a differing position)."""
    n_entries = 0
    for pos in range(n_tokens):
        if gold[pos] != pred[pos]:
            n_entries += indptr[lo + pos + 1] - indptr[lo + pos]
    return np.empty(2 * n_entries, dtype=np.int64)


@helper
def token_pair_slots(rows, indptr, indices, lo, gold, pred, n_tokens, n_labels, em, em_sum):
    """``(room, slots)``: the pool slots of the pairs ``phi(gold) - phi(pred)`` touches,
    given a weight first: for each differing position (in order), each feature:
    (feature, gold label), then (feature, predicted label). ``room`` is False when the
    pool is full (see ``ensure_token_pairs``).

    (A tuple, not None or the slots, and one function for looking up and one for
    inserting: an optional return type, calls spread with ``*args`` and a literal flag
    choosing between the two loops cost a cold fit 0.7 s of compilation, measured.)
    """
    slots = token_pair_buffer(indptr, lo, gold, pred, n_tokens)
    if look_up_token_pairs(rows, indptr, indices, lo, gold, pred, n_tokens, slots):
        return True, slots
    # some pair has no weight yet: give them one, then look up again (insertions move
    # entries)
    if not ensure_token_pairs(rows, indptr, indices, lo, gold, pred, n_tokens, n_labels, em,
                              em_sum):  # fmt: skip
        return False, slots
    look_up_token_pairs(rows, indptr, indices, lo, gold, pred, n_tokens, slots)
    return True, slots


@helper
def full_row_slots(rows, indptr, indices, lo, gold, pred, n_tokens):
    """``token_pair_slots``'s slots where every row is full (holds every label, in
    order: label ``k`` of row ``f`` at ``start[f] + k``), so no pair needs a weight or a
    search."""
    start = rows[0]
    slots = token_pair_buffer(indptr, lo, gold, pred, n_tokens)
    k = 0
    for pos in range(n_tokens):
        g = gold[pos]
        p = pred[pos]
        if g == p:
            continue
        for j in range(indptr[lo + pos], indptr[lo + pos + 1]):
            first = start[indices[j]]
            slots[k] = first + g
            slots[k + 1] = first + p
            k += 2
    return slots


@helper
def look_up_token_pairs(rows, indptr, indices, lo, gold, pred, n_tokens, slots):
    """The slots ``token_pair_slots`` gives, written to ``slots``, -1 for a pair without
    a weight, changing nothing (so threads may look up side by side); returns whether
    every pair has a weight."""
    k = 0
    found = True
    for pos in range(n_tokens):
        g = gold[pos]
        p = pred[pos]
        if g == p:
            continue
        for j in range(indptr[lo + pos], indptr[lo + pos + 1]):
            f = indices[j]
            slots[k] = slot(rows, f, g)
            slots[k + 1] = slot(rows, f, p)
            found = found and slots[k] >= 0 and slots[k + 1] >= 0
            k += 2
    return found


@njit
def add_token_scores(rows, indptr, indices, data, t, emission, row):
    """``row[k] += sum_f v_f * w[f, k]`` over the features ``f`` (values ``v_f``) of token ``t``."""
    start, length, _, labels, _ = rows
    n_labels = row.shape[0]
    for j in range(indptr[t], indptr[t + 1]):
        f = indices[j]
        v = feature_value(data, j)
        first = start[f]
        if length[f] == n_labels:  # a full row holds labels 0..L-1 in order: a dense loop
            # over a slice, whose indices need no negative-index check: the loop is
            # vectorised (twice as fast as emission[first + k], measured)
            weights = emission[first : first + n_labels]
            for k in range(n_labels):
                row[k] += v * weights[k]
        else:
            for p in range(first, first + length[f]):
                row[labels[p]] += v * emission[p]


@njit
def add_pair(rows, f, k, value, emission):
    """``w[f, k] += value`` for a pair that has a weight (else nothing changes)."""
    p = slot(rows, f, k)
    if p >= 0:
        emission[p] += value


# -- changes keyed by pair, whatever the layout (parameter mixing) ---------------------------------


@njit
def pair_slots(rows, codes, n_labels):
    """Pool slot of each pair ``codes[i]`` (``feature * n_labels + label``), -1 for a
    pair without a weight."""
    out = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        out[i] = slot(rows, codes[i] // n_labels, codes[i] % n_labels)
    return out


@njit
def merged_pairs(rows, emission, emission_sum, codes, values, sum_values, n_labels):
    """The pairs of ``rows`` and the pairs ``codes`` (``feature * n_labels + label``,
    ascending), the latter set to ``values`` (sums: ``sum_values``), in compact rows:
    ``(start, length, labels, emission, emission_sum)`` of a new pool. One merge of two
    sorted lists per row: linear in the pairs, with no pool to grow and retry."""
    start, length, _, labels, _ = rows
    n_features = start.shape[0]
    new_length = length.copy()
    for i in range(codes.shape[0]):
        f = codes[i] // n_labels
        if slot(rows, f, codes[i] % n_labels) < 0:
            new_length[f] += 1
    new_start = np.empty(n_features, dtype=np.int64)
    total = 0
    for f in range(n_features):
        new_start[f] = total
        total += new_length[f]
    out_labels = np.empty(total, dtype=np.int32)
    out = np.empty(total)
    out_sum = np.empty(total)
    i = 0
    for f in range(n_features):
        p, p_end, q = start[f], start[f] + length[f], new_start[f]
        while i < codes.shape[0] and codes[i] // n_labels == f:
            k = codes[i] % n_labels
            while p < p_end and labels[p] < k:  # pairs kept as they are
                out_labels[q], out[q], out_sum[q] = labels[p], emission[p], emission_sum[p]
                p += 1
                q += 1
            if p < p_end and labels[p] == k:  # a pair set anew
                p += 1
            out_labels[q], out[q], out_sum[q] = k, values[i], sum_values[i]
            q += 1
            i += 1
        while p < p_end:
            out_labels[q], out[q], out_sum[q] = labels[p], emission[p], emission_sum[p]
            p += 1
            q += 1
    return new_start, new_length, out_labels, out, out_sum


@njit
def changed_pairs(before, em_before, sum_before, after, em_after, sum_after, n_labels):
    """The pairs of ``after`` (a layout holding every pair of ``before``: rows only grow
    in training) whose weight or sum differs from ``before``'s (0 for a pair it lacks):
    ``(codes, values, sum_values)``, codes ascending. One merge of the two sorted label
    lists per row: linear in the pairs, however the pools lie."""
    b_start, b_length, _, b_labels, _ = before
    a_start, a_length, _, a_labels, _ = after
    n = 0
    for f in range(a_length.shape[0]):
        n += a_length[f]
    codes = np.empty(n, dtype=np.int64)
    values = np.empty(n)
    sum_values = np.empty(n)
    m = 0
    for f in range(a_length.shape[0]):
        q, q_end = b_start[f], b_start[f] + b_length[f]
        for p in range(a_start[f], a_start[f] + a_length[f]):
            k = a_labels[p]
            while q < q_end and b_labels[q] < k:
                q += 1
            old, old_sum = 0.0, 0.0
            if q < q_end and b_labels[q] == k:
                old, old_sum = em_before[q], sum_before[q]
            if em_after[p] != old or sum_after[p] != old_sum:
                codes[m] = f * n_labels + k
                values[m] = em_after[p]
                sum_values[m] = sum_after[p]
                m += 1
    return codes[:m], values[:m], sum_values[:m]
