"""First-order linear-chain kernels: scoring, Viterbi and the perceptron epoch.

Weights of a chain live in one flat float64 vector ``coef`` laid out as
``[emission (n_features, n_labels) | transition (n_labels, n_labels) | start | stop]``;
``split_coef`` returns the four blocks as views. Tokens are the rows of a CSR
matrix (``indptr``, ``indices``, ``data``); sentence ``i`` is rows
``offsets[i]:offsets[i + 1]``.
"""

import numpy as np
from numba import prange

from ._config import njit, njit_parallel


@njit
def split_coef(coef, n_labels):
    """Views (emission, transition, start, stop) of a flat chain weight vector.

    coef : float64 (n_features * n_labels + n_labels * (n_labels + 2),).
    """
    n_chain = n_labels * (n_labels + 2)
    n_features = (coef.shape[0] - n_chain) // n_labels
    n_emission = n_features * n_labels
    emission = coef[:n_emission].reshape((n_features, n_labels))
    transition = coef[n_emission : n_emission + n_labels * n_labels].reshape((n_labels, n_labels))
    start = coef[n_emission + n_labels * n_labels : n_emission + n_labels * (n_labels + 1)]
    stop = coef[n_emission + n_labels * (n_labels + 1) :]
    return emission, transition, start, stop


@njit
def unary_scores(indptr, indices, data, lo, hi, emission, out):
    """Emission scores of tokens ``lo:hi`` into ``out`` (float64 (>= hi - lo, n_labels)).

    emission : float64 (n_features, n_labels). Feature ids outside the emission
    table (unseen at fit time) must have been dropped by the encoder.
    """
    n_labels = emission.shape[1]
    for t in range(lo, hi):
        row = out[t - lo]
        row[:] = 0.0
        for j in range(indptr[t], indptr[t + 1]):
            f = indices[j]
            v = data[j]
            for k in range(n_labels):
                row[k] += v * emission[f, k]


@njit
def viterbi_into(unary, n_tokens, transition, start, stop, first_order, backptr, path):
    """Best label sequence of the first ``n_tokens`` rows of ``unary``, written to ``path``.

    unary : float64 (>= n_tokens, n_labels); transition : float64 (n_labels, n_labels)
    indexed [prev, curr]; start, stop : float64 (n_labels,); backptr : int32 scratch
    (>= n_tokens, n_labels); path : int32 (>= n_tokens,). With ``first_order=False``
    transitions, start and stop are ignored (independent per-token argmax).
    Ties go to the lowest label index, both for back-pointers and at the last token.
    Returns the score of the path.
    """
    n_labels = unary.shape[1]
    if not first_order:
        total = 0.0
        for t in range(n_tokens):
            arg = 0
            for k in range(1, n_labels):
                if unary[t, k] > unary[t, arg]:
                    arg = k
            path[t] = arg
            total += unary[t, arg]
        return total
    best = np.empty(n_labels)
    prev_best = np.empty(n_labels)
    for k in range(n_labels):
        best[k] = start[k] + unary[0, k]
    for t in range(1, n_tokens):
        prev_best[:] = best
        for curr in range(n_labels):
            arg = 0
            top = prev_best[0] + transition[0, curr]
            for prev in range(1, n_labels):
                s = prev_best[prev] + transition[prev, curr]
                if s > top:  # strict: keeps the lowest index on ties
                    arg = prev
                    top = s
            best[curr] = top + unary[t, curr]
            backptr[t, curr] = arg
    last = 0
    top = best[0] + stop[0]
    for k in range(1, n_labels):
        if best[k] + stop[k] > top:
            last = k
            top = best[k] + stop[k]
    path[n_tokens - 1] = last
    for t in range(n_tokens - 1, 0, -1):
        path[t - 1] = backptr[t, path[t]]
    return top


@njit
def viterbi(unary, transition, start, stop):
    """Highest-scoring label sequence of one first-order chain.

    unary : float64 (n_tokens, n_labels), n_tokens >= 1; transition : float64
    (n_labels, n_labels) indexed [prev, curr]; start, stop : float64 (n_labels,).
    Returns path : int32 (n_tokens,) and its score. Ties go to the lowest label.
    """
    n_tokens, n_labels = unary.shape
    backptr = np.zeros((n_tokens, n_labels), dtype=np.int32)
    path = np.empty(n_tokens, dtype=np.int32)
    score = viterbi_into(unary, n_tokens, transition, start, stop, True, backptr, path)
    return path, score


@njit_parallel
def predict_batch(indptr, indices, data, offsets, coef, n_labels, first_order):
    """Viterbi paths of every sentence, in parallel over sentences.

    offsets : int64 (n_sentences + 1,) token offsets; coef : float64 flat chain
    weights (see ``split_coef``). Returns int32 (n_tokens,) label ids.
    """
    emission, transition, start, stop = split_coef(coef, n_labels)
    n_sentences = offsets.shape[0] - 1
    paths = np.empty(offsets[n_sentences], dtype=np.int32)
    for i in prange(n_sentences):
        lo = offsets[i]
        hi = offsets[i + 1]
        n = hi - lo
        unary = np.empty((n, n_labels))
        backptr = np.empty((n, n_labels), dtype=np.int32)
        unary_scores(indptr, indices, data, lo, hi, emission, unary)
        viterbi_into(unary, n, transition, start, stop, first_order, backptr, paths[lo:hi])
    return paths


@njit
def add_chain_delta(
    indptr, indices, data, lo, gold, pred, n_tokens, first_order, coef, n_labels, scale
):
    """coef += scale * (phi(x, gold) - phi(x, pred)) for the sentence starting at row ``lo``.

    gold, pred : int32 (>= n_tokens,) label ids; coef : float64 flat chain weights.
    Only positions (and label bigrams) where the two outputs differ are touched, so
    the cost is O(|delta phi|), which is what makes lazy averaging cheap.
    """
    emission, transition, start, stop = split_coef(coef, n_labels)
    for pos in range(n_tokens):
        g = gold[pos]
        p = pred[pos]
        if g != p:
            for j in range(indptr[lo + pos], indptr[lo + pos + 1]):
                v = scale * data[j]
                emission[indices[j], g] += v
                emission[indices[j], p] -= v
    if not first_order:
        return
    if gold[0] != pred[0]:
        start[gold[0]] += scale
        start[pred[0]] -= scale
    last = n_tokens - 1
    if gold[last] != pred[last]:
        stop[gold[last]] += scale
        stop[pred[last]] -= scale
    for pos in range(1, n_tokens):
        if gold[pos - 1] != pred[pos - 1] or gold[pos] != pred[pos]:
            transition[gold[pos - 1], gold[pos]] += scale
            transition[pred[pos - 1], pred[pos]] -= scale


@njit
def perceptron_epoch(
    indptr, indices, data, offsets, labels, order, coef, coef_sum, n_labels, first_order, n_seen
):
    """One epoch of Collins' perceptron with lazy averaging over the sentences in ``order``.

    labels : int32 (n_tokens,) gold label ids; order : int64 (n_visits,) sentence ids;
    coef : float64 current weights w, updated in place; coef_sum : float64 (same shape)
    accumulates ``t * delta`` so that the average of w over all examples seen is
    ``w - coef_sum / n_seen`` (Daume III, 2006, sec. 2.1.1); n_seen : examples seen
    before this epoch. Returns (n_seen, n_mistakes, n_tokens_correct), where the
    last counts tokens the current weights labelled right before their update.
    """
    emission, transition, start, stop = split_coef(coef, n_labels)
    max_len = 1
    for i in range(offsets.shape[0] - 1):
        max_len = max(max_len, offsets[i + 1] - offsets[i])
    unary = np.empty((max_len, n_labels))
    backptr = np.empty((max_len, n_labels), dtype=np.int32)
    pred = np.empty(max_len, dtype=np.int32)
    n_mistakes = 0
    n_correct = 0
    for i in order:
        lo = offsets[i]
        hi = offsets[i + 1]
        n = hi - lo
        unary_scores(indptr, indices, data, lo, hi, emission, unary)
        viterbi_into(unary, n, transition, start, stop, first_order, backptr, pred)
        gold = labels[lo:hi]
        n_wrong = 0
        for pos in range(n):
            if pred[pos] != gold[pos]:
                n_wrong += 1
        n_correct += n - n_wrong
        if n_wrong > 0:
            n_mistakes += 1
            add_chain_delta(
                indptr, indices, data, lo, gold, pred, n, first_order, coef, n_labels, 1.0
            )
            if n_seen > 0:
                add_chain_delta(
                    indptr,
                    indices,
                    data,
                    lo,
                    gold,
                    pred,
                    n,
                    first_order,
                    coef_sum,
                    n_labels,
                    float(n_seen),
                )
        n_seen += 1
    return n_seen, n_mistakes, n_correct
