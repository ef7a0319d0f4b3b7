"""The EG learner's hinge pass: ``max_y (L(y_i, y) + w . phi(y)) - w . phi(y_i)`` of
every sentence, by loss-augmented Viterbi, Eisner or Chu-Liu-Edmonds.

Each sentence writes only its own ``out[i]``: the result does not depend on the thread
count. The sums are numpy's pairwise sums written out
(:func:`pairwise_sum`), so that every hinge is bit for bit what the learner's former
Python loop (fancy indexing and ``ndarray.sum``) computed, and so are the primal
objectives and the ``tol`` stops read off them.
"""

import numpy as np

from ._config import TRUE, ZERO, helper, njit
from .bcfw import add_hamming_loss
from .chain import longest_sentence, split_coef, unary_scores, viterbi_into
from .tree_scores import arc_scores, single_root_penalty
from .tree_search import chu_liu_edmonds, eisner, scratch

#: numpy's pairwise summation sums blocks of at most this many values with 8 accumulators.
_BLOCK = 128


@helper
def _block_sum(values, lo, n):
    """numpy's sum of at most 128 values: fewer than 8 in turn, else 8 interleaved
    partial sums, added pairwise, then the rest in turn."""
    if n < 8:
        total = 0.0
        for i in range(lo, lo + n):
            total += values[i]
        return total
    # eight scalars, not an array: an allocation here, on every thread, serialised
    # the parallel hinge passes on the allocator
    r0, r1, r2, r3 = values[lo], values[lo + 1], values[lo + 2], values[lo + 3]
    r4, r5, r6, r7 = values[lo + 4], values[lo + 5], values[lo + 6], values[lo + 7]
    i = 8
    while i < n - n % 8:
        at = lo + i
        r0 += values[at]
        r1 += values[at + 1]
        r2 += values[at + 2]
        r3 += values[at + 3]
        r4 += values[at + 4]
        r5 += values[at + 5]
        r6 += values[at + 6]
        r7 += values[at + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        total += values[lo + i]
        i += 1
    return total


@helper
def _half(n):
    """Where numpy splits more than 128 values: half of them, less the rest of 8."""
    half = n // 2
    return half - half % 8


@njit
def pairwise_sum(values, lo, n):
    """``values[lo:lo + n].sum()`` exactly as numpy (>= 1.9) sums a contiguous float64
    array: blocks of at most 128 (:func:`_block_sum`), larger runs split in two
    (:func:`_half`) and the halves' sums added.

    numpy recurses; the halving is walked here with a stack of pending runs instead,
    since a recursive kernel does not load from numba's disk cache. Each entry is a run
    ``(lo, n)`` and how far it got: 0 not split yet, 1 its left half being summed,
    2 its right half (the left's sum waiting in ``left``).
    """
    if n <= _BLOCK:
        return _block_sum(values, lo, n)
    depth = 2
    while (n >> depth) > 0:  # every split at least halves a run: log2(n) levels suffice
        depth += 1
    los, ns = np.empty(depth, dtype=np.int64), np.empty(depth, dtype=np.int64)
    stage, left = np.zeros(depth, dtype=np.int64), np.empty(depth)
    los[0], ns[0], top, total = lo, n, 0, 0.0
    while top >= 0:
        if stage[top] == 0 and ns[top] > _BLOCK:  # split: sum the left half first
            stage[top] = 1
            los[top + 1], ns[top + 1], stage[top + 1] = los[top], _half(ns[top]), 0
            top += 1
            continue
        if stage[top] == 0:  # a block: its sum goes back to the run it halves
            total = _block_sum(values, los[top], ns[top])
            top -= 1
        while top >= 0 and stage[top] == 2:  # a right half done: the run is done
            total = left[top] + total
            top -= 1
        if top >= 0:  # a left half done: keep its sum, sum the right half
            left[top], stage[top] = total, 2
            half = _half(ns[top])
            los[top + 1], ns[top + 1], stage[top + 1] = los[top] + half, ns[top] - half, 0
            top += 1
    return total


@helper
def _chain_path_score(unary, path, n, transition, start, stop, work):
    """The learner's ``_path_score``: the path's unary scores summed, then start and
    stop, then its transitions summed (``work``: (>= n,) scratch)."""
    for t in range(n):
        work[t] = unary[t, path[t]]
    score = pairwise_sum(work, ZERO, n) + start[path[0]] + stop[path[n - 1]]
    for t in range(1, n):
        work[t - 1] = transition[path[t - 1], path[t]]
    return score + pairwise_sum(work, ZERO, n - 1)


@njit
def chain_hinges(indptr, indices, data, offsets, rows, coef, n_labels, gold, sentences, out):
    """``out[i]``: the hinge loss of sentence ``i`` of a first-order chain under
    ``coef`` (Hamming loss; ``gold`` the labels of all tokens), for each ``i`` of
    ``sentences`` (a part of the corpus: ``utils.parts.in_parts`` runs parts on
    threads, each reusing its own buffers)."""
    emission, transition, start, stop, _ = split_coef(coef, n_labels, None)
    longest = max(longest_sentence(offsets), 1)
    unary = np.empty((longest, n_labels))
    backptr = np.empty((longest, n_labels), dtype=np.int32)
    path = np.empty(longest, dtype=np.int32)
    # the gold labels copied to Viterbi's path type: one _chain_path_score to compile
    gold_path = np.empty(longest, dtype=np.int32)
    work = np.empty(longest)
    for i in sentences:
        lo, hi = offsets[i], offsets[i + 1]
        n = hi - lo
        unary_scores(indptr, indices, data, lo, hi, rows, emission, unary)
        for t in range(n):
            gold_path[t] = gold[lo + t]
        gold_score = _chain_path_score(unary, gold_path, n, transition, start, stop, work)
        add_hamming_loss(unary, n, gold[lo:hi])  # every wrong label earns 1
        viterbi_into(unary, n, transition, start, stop, TRUE, backptr, path)
        out[i] = _chain_path_score(unary, path, n, transition, start, stop, work) - gold_score


@helper
def _arc_sum(scores, heads, n, work):
    """``scores[heads, 1..n].sum()`` as numpy sums it."""
    for d in range(1, n + 1):
        work[d - 1] = scores[heads[d - 1], d]
    return pairwise_sum(work, ZERO, n)


@njit
def tree_hinges(attrs, offsets, coef, n_features, gold, projective, single_root, sentences,
                out):  # fmt: skip
    """``out[i]``: the hinge loss of sentence ``i`` of a first-order unlabelled tree
    under ``coef`` (per-word Hamming loss; ``gold`` the heads of all words), for each
    ``i`` of ``sentences`` (see :func:`chain_hinges`)."""
    longest = max(longest_sentence(offsets), 1)
    buffer = scratch(longest, None)[3]
    work = np.empty(longest)
    scores_rows = np.empty((longest + 1, longest + 1))
    augmented_rows = np.empty((longest + 1, longest + 1))
    search_rows = np.empty((longest + 1, longest + 1))
    for i in sentences:
        start = offsets[i]
        n = offsets[i + 1] - start
        N = n + 1
        scores = scores_rows[:N, :N]
        arc_scores(attrs, start, n, coef, n_features, scores, buffer)
        gold_heads = gold[start : start + n]
        gold_score = _arc_sum(scores, gold_heads, n, work)
        augmented, search = augmented_rows[:N, :N], search_rows[:N, :N]
        for h in range(N):
            for d in range(N):
                augmented[h, d] = scores[h, d] + 1.0  # every wrong head earns 1, the
                search[h, d] = augmented[h, d]
        for d in range(1, N):  # gold one 0 (+ 0.0 as the learner added it: -0.0 -> 0.0)
            augmented[gold_heads[d - 1], d] = scores[gold_heads[d - 1], d] + 0.0
            search[gold_heads[d - 1], d] = augmented[gold_heads[d - 1], d]
        if single_root:
            single_root_penalty(search, n, 0.0)
        heads = eisner(search, n) if projective else chu_liu_edmonds(search)
        out[i] = _arc_sum(augmented, heads[1:], n, work) - gold_score
