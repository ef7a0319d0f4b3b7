"""Linear-chain kernels of order 0, 1 and 2: scoring, exact Viterbi, perceptron epoch.

Weights of a chain live in one flat float64 vector ``coef`` laid out as
``[transition (n_labels, n_labels) | start | stop | trigram (n_labels, n_labels,
n_labels), order 2 only | emission pool]``; ``split_coef`` returns the blocks as views.
The emission pool holds the weights of the (feature, label) pairs listed by the
emission ``rows`` (see ``rows.py``): pairs without a weight score zero. The score of a
label sequence ``y`` of length ``n`` is

    sum_i unary[i, y_i]
    + [order >= 1] (start[y_0] + sum_{i>=1} transition[y_{i-1}, y_i] + stop[y_{n-1}])
    + [order == 2] sum_{i>=2} trigram[y_{i-2}, y_{i-1}, y_i].

Tokens are the rows of a CSR matrix (``indptr``, ``indices``, ``data``); sentence
``i`` is rows ``offsets[i]:offsets[i + 1]``.

A chain of order 0 or 1 has no trigram weights, and the serial kernels get
``trigram=None`` (top-level kernels ``trigrams=None``; ``True`` for order 2): numba
prunes the branches under ``trigram is None`` while compiling, so a first-order model
never compiles second-order code (about a second of a cold first fit). Where
``trigram`` is an array, ``order`` decides at run time (an order-1 chain's trigram is
then empty): the ``prange`` kernels take that form (``split_by_order``), as numba's
parallel lowering mis-handled a value typed None inside them (numba 0.68).
"""

import numpy as np
from numba import prange

from ._config import ONE, TRUE, ZERO, by_threads, helper, njit, njit_parallel, serial_twin
from .balance import balanced_parts, one_part, sentence_parts
from .rows import add_token_scores, ensure, full_row_slots, look_up_token_pairs, token_pair_slots
from .values import feature_value


@njit
def n_structure_weights(n_labels, order):
    """Number of weights that are not emissions: transitions, start, stop, trigrams."""
    n = n_labels * (n_labels + 2)
    if order == 2:
        n += n_labels * n_labels * n_labels
    return n


@njit
def split_coef(coef, n_labels, trigrams):
    """Views (emission pool, transition, start, stop, trigram) of a flat weight vector.

    trigrams : None (orders 0 and 1: trigram is None) or True (order 2: trigram is a
    view of shape (n_labels,) * 3).
    """
    L = n_labels
    transition = coef[: L * L].reshape((L, L))
    start = coef[L * L : L * (L + 1)]
    stop = coef[L * (L + 1) : L * (L + 2)]
    a = L * (L + 2)
    if trigrams is None:
        return coef[a:], transition, start, stop, None
    trigram = coef[a : a + L * L * L].reshape((L, L, L))
    return coef[a + L * L * L :], transition, start, stop, trigram


@njit
def split_by_order(coef, n_labels, order):
    """``split_coef`` with a trigram array whatever the order (shape (0, 0, 0) below
    order 2): what the ``prange`` kernels split by.

    One return path, never through ``split_coef``: called with a flag typed ``bool``
    rather than a literal, ``split_coef`` types its trigram optional, and numba 0.68's
    parallel lowering mishandles optional values (BCFW's parallel chain oracles then
    took other steps than the serial ones in 6 of 15 runs). Nor the other way round:
    ``split_coef`` written through this function cost the default perceptron's cold
    first fit about 0.4 s more compilation (7.42 / 7.68 s against 6.91 / 7.35 s)."""
    L = n_labels
    a = L * (L + 2)
    side = L if order == 2 else 0
    b = a + side * side * side
    return (
        coef[b:],
        coef[: L * L].reshape((L, L)),
        coef[L * L : L * (L + 1)],
        coef[L * (L + 1) : a],
        coef[a:b].reshape((side, side, side)),
    )


@njit
def unary_scores(indptr, indices, data, lo, hi, rows, emission, out):
    """Emission scores of tokens ``lo:hi`` into ``out`` (float64 (>= hi - lo, n_labels)).

    rows : emission rows; emission : their weights (the pool part of ``coef``).
    Feature ids outside the rows (unseen at fit time) must have been dropped by the
    encoder.
    """
    for t in range(lo, hi):
        row = out[t - lo]
        row[:] = 0.0
        add_token_scores(rows, indptr, indices, data, t, emission, row)


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
        for k in range(n_labels):  # an element loop: a slice copy compiles shape checks
            prev_best[k] = best[k]
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


@helper
def viterbi2_into(unary, n_tokens, transition, start, stop, trigram, backptr, path):
    """Exact second-order Viterbi in O(n L^3); like ``viterbi_into``.

    trigram : float64 (n_labels, n_labels, n_labels) indexed [y_{i-2}, y_{i-1}, y_i];
    backptr : int32 scratch (>= n_tokens, n_labels, n_labels). States are label
    pairs (y_{i-1}, y_i); ties go to the lowest index (y_{i-2}, then the final pair
    in row-major order). Returns the score of the path.
    """
    L = unary.shape[1]
    if n_tokens == 1:
        return viterbi_into(unary, ONE, transition, start, stop, TRUE, backptr[0], path)
    best = np.empty((L, L))  # best[a, b]: best prefix ending with y_{i-1} = a, y_i = b
    prev_best = np.empty((L, L))
    for a in range(L):
        for b in range(L):
            best[a, b] = start[a] + unary[0, a] + transition[a, b] + unary[1, b]
    for t in range(2, n_tokens):
        for a in range(L):  # an element loop: a slice copy compiles shape checks
            for b in range(L):
                prev_best[a, b] = best[a, b]
        for b in range(L):
            for c in range(L):
                arg = 0
                top = prev_best[0, b] + trigram[0, b, c]
                for a in range(1, L):
                    s = prev_best[a, b] + trigram[a, b, c]
                    if s > top:
                        arg = a
                        top = s
                best[b, c] = top + transition[b, c] + unary[t, c]
                backptr[t, b, c] = arg
    last_a, last_b = 0, 0
    top = best[0, 0] + stop[0]
    for a in range(L):
        for b in range(L):
            if best[a, b] + stop[b] > top:
                last_a, last_b = a, b
                top = best[a, b] + stop[b]
    path[n_tokens - 1] = last_b
    path[n_tokens - 2] = last_a
    for t in range(n_tokens - 1, 1, -1):
        path[t - 2] = backptr[t, path[t - 1], path[t]]
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
    score = viterbi_into(unary, n_tokens, transition, start, stop, TRUE, backptr, path)
    return path, score


@njit
def viterbi2(unary, transition, start, stop, trigram):
    """Highest-scoring label sequence of one second-order chain (see module docstring).

    Returns path : int32 (n_tokens,) and its score.
    """
    n_tokens, n_labels = unary.shape
    backptr = np.zeros((n_tokens, n_labels, n_labels), dtype=np.int32)
    path = np.empty(n_tokens, dtype=np.int32)
    score = viterbi2_into(unary, n_tokens, transition, start, stop, trigram, backptr, path)
    return path, score


@njit
def _decode_into(unary, n, transition, start, stop, trigram, order, backptr, backptr2, path):
    """Viterbi of order ``order`` (``trigram`` None: order 0 or 1, and no second-order
    code is compiled; ``backptr2`` the second-order back-pointers, None with it)."""
    if trigram is None:
        return viterbi_into(unary, n, transition, start, stop, order == 1, backptr, path)
    if order == 2:
        return viterbi2_into(unary, n, transition, start, stop, trigram, backptr2, path)
    return viterbi_into(unary, n, transition, start, stop, order == 1, backptr, path)


@helper
def backptr2_rows(trigram, order, n, n_labels):
    """Second-order back-pointers for ``n`` tokens (int32 (n, L, L), no rows below
    order 2); None for a chain without trigrams."""
    if trigram is None:
        return None
    return np.empty((n if order == 2 else 0, n_labels, n_labels), dtype=np.int32)


@njit
def decode_sentences(indptr, indices, data, offsets, rows, coef, n_labels, order, trigrams,
                     sentences, paths, unary, backptr, backptr2):  # fmt: skip
    """Exact Viterbi paths of the sentences ``sentences`` (int64 ids), each written to
    its tokens' place ``paths[offsets[i]:offsets[i + 1]]`` (int32 (n_tokens,)).

    offsets : int64 (n_sentences + 1,) token offsets; rows : emission rows; coef :
    float64 flat chain weights (see ``split_coef``); unary, backptr (and backptr2, None
    without trigrams): scratch of at least the longest sentence's rows
    (``epoch_scratch``). The one decoding loop of prediction (run on a part of the
    sentences per thread: the kernel holds no GIL) and of the perceptron's epoch, so
    the first prediction after a fit compiles nothing.
    """
    emission, transition, start, stop, trigram = split_coef(coef, n_labels, trigrams)
    for s in range(sentences.shape[0]):
        lo = offsets[sentences[s]]
        hi = offsets[sentences[s] + 1]
        unary_scores(indptr, indices, data, lo, hi, rows, emission, unary)
        _decode_into(unary, hi - lo, transition, start, stop, trigram, order, backptr, backptr2,
                     paths[lo:hi])  # fmt: skip


@njit
def add_chain_delta(
    indptr, indices, data, lo, gold, pred, n_tokens, order, trigrams, with_stop, rows, coef,
    coef_sum, n_labels, scale, scale_sum, sparse,
):  # fmt: skip
    """coef += scale * delta and coef_sum += scale_sum * delta, delta = phi(x, gold) -
    phi(x, pred) over the first ``n_tokens`` tokens.

    The sentence starts at row ``lo``; gold, pred : int32 (>= n_tokens,) label ids.
    ``with_stop`` adds the stop part (full sequences; prefixes have none). Emission
    pairs the delta touches get a weight first (``rows`` grow); when the pool is full
    nothing is added and False is returned (grow the pool, call again). ``sparse``:
    None where every row is full (``EmissionRows.is_full``: pair (f, k) at pool slot
    ``start[f] + k``), so no pair is looked up or inserted and none of that code is
    compiled (1.2 s of the default perceptron's 5.6 s cold compile, measured); TRUE
    for rows that may lack pairs. Only positions,
    bigrams and trigrams where the two outputs differ are touched, so the cost is
    O(|delta phi|), which is what makes lazy averaging cheap.
    """
    emission, transition, start, stop, trigram = split_coef(coef, n_labels, trigrams)
    emission_sum, transition_s, start_s, stop_s, trigram_s = split_coef(coef_sum, n_labels,
                                                                        trigrams)  # fmt: skip
    if sparse is None:
        slots = full_row_slots(rows, indptr, indices, lo, gold, pred, n_tokens)
    else:
        room, slots = token_pair_slots(
            rows, indptr, indices, lo, gold, pred, n_tokens, n_labels, emission, emission_sum
        )
        if not room:
            return False
    add_chain_delta_to(indptr, data, lo, gold, pred, n_tokens, order, with_stop, slots,
                       emission, transition, start, stop, trigram, scale)  # fmt: skip
    if scale_sum != 0.0:
        add_chain_delta_to(indptr, data, lo, gold, pred, n_tokens, order, with_stop, slots,
                           emission_sum, transition_s, start_s, stop_s, trigram_s,
                           scale_sum)  # fmt: skip
    return True


@helper
def add_chain_delta_to(
    indptr, data, lo, gold, pred, n_tokens, order, with_stop, slots, emission, transition,
    start, stop, trigram, scale,
):  # fmt: skip
    """The parts of ``add_chain_delta`` for one weight array; ``slots`` from
    ``rows.token_pair_slots``."""
    add_emission_delta_to(indptr, data, lo, gold, pred, n_tokens, slots, emission, scale, ZERO,
                          emission.shape[0])  # fmt: skip
    add_dense_delta_to(gold, pred, n_tokens, order, with_stop, transition, start, stop, trigram,
                       scale)  # fmt: skip


@helper
def add_emission_delta_to(indptr, data, lo, gold, pred, n_tokens, slots, emission, scale,
                          first_slot, end_slot):  # fmt: skip
    """The emission part of ``add_chain_delta_to``, restricted to the pool slots
    ``first_slot:end_slot`` (one thread's share: see ``add_batch_emission_deltas``)."""
    k = 0
    for pos in range(n_tokens):
        if gold[pos] != pred[pos]:
            for j in range(indptr[lo + pos], indptr[lo + pos + 1]):
                v = scale * feature_value(data, j)
                if first_slot <= slots[k] < end_slot:
                    emission[slots[k]] += v
                if first_slot <= slots[k + 1] < end_slot:
                    emission[slots[k + 1]] -= v
                k += 2


@helper
def add_dense_delta_to(gold, pred, n_tokens, order, with_stop, transition, start, stop, trigram,
                       scale):  # fmt: skip
    """The transition, start, stop and trigram parts of ``add_chain_delta_to`` (trigram
    None below order 2)."""
    if order == 0:
        return
    if gold[0] != pred[0]:
        start[gold[0]] += scale
        start[pred[0]] -= scale
    last = n_tokens - 1
    if with_stop and gold[last] != pred[last]:
        stop[gold[last]] += scale
        stop[pred[last]] -= scale
    for pos in range(1, n_tokens):
        if gold[pos - 1] != pred[pos - 1] or gold[pos] != pred[pos]:
            transition[gold[pos - 1], gold[pos]] += scale
            transition[pred[pos - 1], pred[pos]] -= scale
    if trigram is not None and order == 2:
        for pos in range(2, n_tokens):
            if (
                gold[pos - 2] != pred[pos - 2]
                or gold[pos - 1] != pred[pos - 1]
                or (gold[pos] != pred[pos])
            ):
                trigram[gold[pos - 2], gold[pos - 1], gold[pos]] += scale
                trigram[pred[pos - 2], pred[pos - 1], pred[pos]] -= scale


@njit
def longest_sentence(offsets):
    """Tokens in the longest sentence (at least 1)."""
    max_len = 1
    for i in range(offsets.shape[0] - 1):
        max_len = max(max_len, offsets[i + 1] - offsets[i])
    return max_len


@njit
def epoch_scratch(offsets, n_labels, trigram, order):
    """Buffers for decoding any sentence of a corpus: (unary, backptr, backptr2, path),
    backptr2 None without trigrams."""
    max_len = longest_sentence(offsets)
    unary = np.empty((max_len, n_labels))
    backptr = np.empty((max_len, n_labels), dtype=np.int32)
    path = np.empty(max_len, dtype=np.int32)
    return unary, backptr, backptr2_rows(trigram, order, max_len, n_labels), path


@helper
def thread_count(threads):
    """The threads a minibatch kernel runs on: ``threads``, or 1 for None (the kernels'
    way of saying "one thread, compile no parallel code")."""
    if threads is None:
        return ONE
    return threads


@helper
def thread_unary_rows(offsets, n_labels, threads):
    """A unary-score buffer per thread (``[part]`` for a part of a minibatch), as long
    as the corpus's longest sentence: the minibatch decisions reuse it for every
    sentence. A fresh array per sentence cost page faults where freed memory goes back
    to the system at once, as in dask's workers (``MALLOC_TRIM_THRESHOLD_=65536``): their
    epochs took 15-20% longer."""
    return np.empty((max(threads, 1), longest_sentence(offsets), n_labels))


@njit
def thread_viterbi_rows(offsets, n_labels, threads):
    """``(unary rows, back-pointer rows)`` per thread, for :func:`decode_sentence`."""
    unary_rows = thread_unary_rows(offsets, n_labels, threads)
    return unary_rows, np.empty(unary_rows.shape, dtype=np.int32)


@helper
def decode_sentence(indptr, indices, data, lo, n, rows, emission, transition, start, stop,
                    trigram, order, unary, backptr, path):  # fmt: skip
    """The exact best path of the ``n`` tokens from ``lo``, into ``path``; ``unary``
    and ``backptr`` are buffers of at least ``n`` rows (an order-2 chain's second
    back-pointers, ``n x L x L``, are the sentence's own: per thread and corpus-long
    they would take gigabytes at Brown's 472 labels)."""
    backptr2 = backptr2_rows(trigram, order, n, unary.shape[1])
    unary_scores(indptr, indices, data, lo, lo + n, rows, emission, unary)
    _decode_into(unary, n, transition, start, stop, trigram, order, backptr, backptr2, path)


@njit
def perceptron_epoch(
    indptr, indices, data, offsets, labels, visit, rows, coef, coef_sum, n_labels, order,
    trigrams, n_seen, sparse,
):  # fmt: skip
    """One epoch of Collins' perceptron (exact Viterbi, full updates), lazy averaging.

    labels : int32 (n_tokens,) gold label ids; visit : int64 (n_visits,) sentence ids
    in visiting order; coef : float64 current weights w, updated in place; coef_sum :
    float64 (same shape) accumulates ``t * delta`` so that the average of w over all
    examples seen is ``w - coef_sum / n_seen`` (Daume III, 2006, sec. 2.1.1); n_seen :
    examples seen before this epoch; sparse : None where every emission row is full,
    else TRUE (see ``add_chain_delta``). Returns (n_seen, n_mistakes, n_tokens_correct,
    n_visited), the third counting tokens the current weights labelled right before any
    update; ``n_visited < len(visit)`` when the emission pool filled up: the
    example ``visit[n_visited]`` was not learnt from (nor counted), so grow the pool
    and go on from it.
    """
    trigram = split_coef(coef, n_labels, trigrams)[4]
    unary, backptr, backptr2, _ = epoch_scratch(offsets, n_labels, trigram, order)
    paths = np.empty(offsets[-1], dtype=np.int32)
    n_mistakes = 0
    n_correct = 0
    for step in range(visit.shape[0]):
        i = visit[step]
        lo = offsets[i]
        hi = offsets[i + 1]
        n = hi - lo
        decode_sentences(indptr, indices, data, offsets, rows, coef, n_labels, order, trigrams,
                         visit[step : step + 1], paths, unary, backptr, backptr2)  # fmt: skip
        pred = paths[lo:hi]
        gold = labels[lo:hi]
        n_wrong = 0
        for pos in range(n):
            if pred[pos] != gold[pos]:
                n_wrong += 1
        if n_wrong > 0:
            if not add_chain_delta(indptr, indices, data, lo, gold, pred, n, order, trigrams,
                                   TRUE, rows, coef, coef_sum, n_labels, 1.0,
                                   float(n_seen), sparse):  # fmt: skip
                return n_seen, n_mistakes, n_correct, step
            n_mistakes += 1
        n_correct += n - n_wrong
        n_seen += 1
    return n_seen, n_mistakes, n_correct, visit.shape[0]


@njit
def argmax_path(unary, transition, start, stop, trigram, order):
    """Exact best path of one sentence (int32 (n,)), with the epoch kernels' tie-breaking."""
    n, n_labels = unary.shape
    backptr = np.empty((n, n_labels), dtype=np.int32)
    path = np.empty(n, dtype=np.int32)
    _decode_into(unary, n, transition, start, stop, trigram, order, backptr,
                 backptr2_rows(trigram, order, n, n_labels), path)  # fmt: skip
    return path


@njit_parallel
def viterbi_decisions(
    indptr, indices, data, offsets, labels, batch, token_start, rows, coef, n_labels, order,
    pred, steps, correct, schedule, part_start, entry_start, slots, found, unary_rows,
    backptr_rows,
):  # fmt: skip
    """Exact Viterbi paths of the sentences ``batch`` against the same weights, in
    parallel (a thread a part of ``balance.balanced_parts``): the first half of a
    minibatch epoch of Collins' perceptron.

    The path of ``batch[b]`` goes to ``pred[token_start[b]:]``; ``steps[b]`` is its last
    position when it has a mistake (a full update), else -1; ``correct[b]`` counts its
    tokens labelled right; the pool slots of the pairs its update touches go to
    ``slots[entry_start[b]:]`` (``rows.look_up_token_pairs``; ``found[b]``: all have a
    weight). Each sentence writes only its own entries. ``unary_rows`` and
    ``backptr_rows``: a buffer per part (``thread_viterbi_rows``).
    """
    emission, transition, start, stop, trigram = split_by_order(coef, n_labels, order)
    for part in prange(part_start.shape[0] - 1):
        unary, backptr = unary_rows[part], backptr_rows[part]
        for at in range(part_start[part], part_start[part + 1]):
            b = schedule[at]
            lo = offsets[batch[b]]
            n = offsets[batch[b] + 1] - lo
            path = pred[token_start[b] : token_start[b] + n]
            decode_sentence(indptr, indices, data, lo, n, rows, emission, transition, start,
                            stop, trigram, order, unary, backptr, path)  # fmt: skip
            right = 0
            for k in range(n):
                right += path[k] == labels[lo + k]
            correct[b] = right
            steps[b] = n - 1 if right < n else -1
            found[b] = right == n or look_up_token_pairs(
                rows, indptr, indices, lo, labels[lo:], path, n, slots[entry_start[b] :]
            )


#: The same, one thread.
viterbi_decisions_serial = serial_twin(viterbi_decisions)


@helper
def apply_chain_decisions(
    indptr, indices, data, offsets, labels, batch, token_start, pred, steps, entry_start, slots,
    found, rows, coef, coef_sum, n_labels, order, trigrams, n_seen, threads,
):  # fmt: skip
    """The second half of a minibatch epoch: the updates decided for ``batch`` (see
    ``viterbi_decisions``), applied in order, with lazy averaging.

    ``w += phi(gold) - phi(pred)`` over the first ``steps[b] + 1`` tokens of each
    sentence that has an update (stop scores when that is the whole sentence). The
    decisions looked up the pool slots of the pairs each update touches
    (``slots[entry_start[b]:]``, ``found[b]`` whether all have a weight). Every pair the
    batch touches gets a weight before any update is applied, so a full pool changes no
    weight: it returns -1 (grow the pool, call again); else the new n_seen. The
    emission additions run on ``threads`` threads (None: one, and no parallel code is
    compiled), each weight's additions in batch order, so the result never depends on
    ``threads``.
    """
    emission = split_coef(coef, n_labels, trigrams)[0]
    emission_sum = split_coef(coef_sum, n_labels, trigrams)[0]
    m = batch.shape[0]
    missing = False
    for b in range(m):
        missing = missing or not found[b]
    if missing:  # give the pairs a weight, in order (rows move), then look them up again
        for b in range(m):
            if steps[b] < 0:
                continue
            lo = offsets[batch[b]]
            at = token_start[b]
            k = entry_start[b]
            for pos in range(steps[b] + 1):
                gold, path = labels[lo + pos], pred[at + pos]
                if gold == path:
                    continue
                for j in range(indptr[lo + pos], indptr[lo + pos + 1]):
                    f = indices[j]
                    if slots[k] < 0 and not ensure(rows, f, gold, n_labels, emission,
                                                   emission_sum):  # fmt: skip
                        return -1
                    if slots[k + 1] < 0 and not ensure(rows, f, path, n_labels, emission,
                                                       emission_sum):  # fmt: skip
                        return -1
                    k += 2
        _look_up_batch_pairs(indptr, indices, offsets, labels, batch, token_start, pred, steps,
                             rows, entry_start, slots, threads)  # fmt: skip
    emission, transition, start, stop, trigram = split_coef(coef, n_labels, trigrams)
    emission_sum, transition_s, start_s, stop_s, trigram_s = split_coef(coef_sum, n_labels,
                                                                        trigrams)  # fmt: skip
    # add_chain_delta's additions, with the slots looked up: the emission parts on the
    # threads (each its own slots, all of their additions in batch order), then the rest
    add_emission_deltas = by_threads(threads, add_batch_emission_deltas_serial,
                                     add_batch_emission_deltas)  # fmt: skip
    add_emission_deltas(indptr, data, offsets, labels, batch, token_start, pred, steps,
                        entry_start, slots, emission, emission_sum, n_seen,
                        thread_count(threads))  # fmt: skip
    for b in range(m):
        if steps[b] >= 0:
            lo = offsets[batch[b]]
            n_tokens = steps[b] + 1
            with_stop = n_tokens == offsets[batch[b] + 1] - lo
            gold, path = labels[lo:], pred[token_start[b] :]
            add_dense_delta_to(gold, path, n_tokens, order, with_stop, transition, start, stop,
                               trigram, 1.0)  # fmt: skip
            if n_seen != 0:
                add_dense_delta_to(gold, path, n_tokens, order, with_stop, transition_s,
                                   start_s, stop_s, trigram_s, float(n_seen))  # fmt: skip
        n_seen += 1
    return n_seen


@helper
def _look_up_batch_pairs(indptr, indices, offsets, labels, batch, token_start, pred, steps, rows,
                         entry_start, slots, threads):  # fmt: skip
    """``batch_pair_slots`` on ``threads`` threads (None: one, compiling no parallel
    code), in parts of near-equal look-ups (room for two a feature of each token)."""
    if threads is None:
        schedule, part_start = one_part(batch.shape[0])
    else:
        schedule, part_start = _pair_parts(entry_start, batch.shape[0], threads)
    look_up = by_threads(threads, batch_pair_slots_serial, batch_pair_slots)
    look_up(indptr, indices, offsets, labels, batch, token_start, pred, steps, rows, entry_start,
            slots, schedule, part_start)  # fmt: skip


@helper
def _pair_parts(entry_start, m, n_parts):
    """The ``m`` sentences of a batch in ``n_parts`` parts of near-equal pair look-ups
    (``entry_start``: where each sentence's pair slots start)."""
    costs = np.empty(m)
    for b in range(m):
        costs[b] = float(entry_start[b + 1] - entry_start[b])
    return balanced_parts(costs, n_parts)


@njit_parallel
def add_batch_emission_deltas(
    indptr, data, offsets, labels, batch, token_start, pred, steps, entry_start, slots,
    emission, emission_sum, n_seen, n_parts,
):  # fmt: skip
    """The emission parts of the updates of ``batch`` (``n_seen`` examples seen before
    it), in order, with the pool split in ``n_parts`` ranges of slots, one per thread:
    every weight gets its additions in batch order, so the result never depends on
    ``n_parts``. The memory latency of the scattered additions is what parallelises."""
    size = emission.shape[0]
    for part in prange(n_parts):
        first, end = size * part // n_parts, size * (part + 1) // n_parts
        for b in range(batch.shape[0]):
            if steps[b] < 0:
                continue
            lo = offsets[batch[b]]
            gold, path, at = labels[lo:], pred[token_start[b] :], slots[entry_start[b] :]
            add_emission_delta_to(indptr, data, lo, gold, path, steps[b] + 1, at, emission,
                                  1.0, first, end)  # fmt: skip
            if n_seen + b != 0:
                add_emission_delta_to(indptr, data, lo, gold, path, steps[b] + 1, at,
                                      emission_sum, float(n_seen + b), first, end)  # fmt: skip


#: The same, one thread.
add_batch_emission_deltas_serial = serial_twin(add_batch_emission_deltas)


@njit_parallel
def batch_pair_slots(
    indptr, indices, offsets, labels, batch, token_start, pred, steps, rows, entry_start, slots,
    schedule, part_start,
):  # fmt: skip
    """Pool slots of the pairs each update of ``batch`` touches (in the order of
    ``rows.token_pair_slots``), sentence ``b``'s at ``slots[entry_start[b]:]``, -1 for a
    pair without a weight; in parallel (a thread a part of ``balance.balanced_parts``),
    reading the rows only."""
    for part in prange(part_start.shape[0] - 1):
        for at in range(part_start[part], part_start[part + 1]):
            b = schedule[at]
            if steps[b] >= 0:
                lo = offsets[batch[b]]
                look_up_token_pairs(rows, indptr, indices, lo, labels[lo:], pred[token_start[b] :],
                                    steps[b] + 1, slots[entry_start[b] :])  # fmt: skip


#: The same, one thread.
batch_pair_slots_serial = serial_twin(batch_pair_slots)


@helper
def batch_entry_starts(indptr, offsets, batch, out):
    """Where each sentence of ``batch`` starts in a buffer of pair slots: room for two
    (the gold and the predicted label's) per feature of each of its tokens. Writes
    ``out[:len(batch) + 1]``."""
    out[0] = 0
    for b in range(batch.shape[0]):
        features = indptr[offsets[batch[b] + 1]] - indptr[offsets[batch[b]]]
        out[b + 1] = out[b] + 2 * features


@helper
def most_pair_slots(indptr, offsets, batch_size):
    """Room ``batch_entry_starts`` needs for any batch of ``batch_size`` sentences."""
    most = 0
    for i in range(offsets.shape[0] - 1):
        most = max(most, indptr[offsets[i + 1]] - indptr[offsets[i]])
    return 2 * most * batch_size


@helper
def minibatch_buffers(indptr, offsets, batch_size):
    """What a chain's minibatch epoch refills for every batch of up to ``batch_size``
    sentences: ``(pred, steps, right, starts, entry_start, slots, found)``."""
    pred = np.empty(batch_size * longest_sentence(offsets), dtype=np.int32)
    steps = np.empty(batch_size, dtype=np.int64)
    right = np.empty(batch_size, dtype=np.int64)
    starts = np.empty(batch_size + 1, dtype=np.int64)
    entry_start = np.empty(batch_size + 1, dtype=np.int64)
    slots = np.empty(most_pair_slots(indptr, offsets, batch_size), dtype=np.int64)
    found = np.empty(batch_size, dtype=np.bool_)
    return pred, steps, right, starts, entry_start, slots, found


@helper
def lay_out_batch(indptr, offsets, batch, threads, starts, entry_start):
    """Where ``batch``'s tokens and pair slots start (written to ``starts`` and
    ``entry_start``), and its parts for ``threads`` threads (``balance.sentence_parts``;
    None: one part)."""
    batch_token_starts(offsets, batch, starts)
    batch_entry_starts(indptr, offsets, batch, entry_start)
    if threads is None:
        return one_part(batch.shape[0])
    return sentence_parts(offsets, batch, threads, ONE)


@helper
def batch_token_starts(offsets, batch, out):
    """Where each sentence of ``batch`` starts in a buffer of the batch's tokens: writes
    ``out[:len(batch) + 1]`` (the last entry the total)."""
    out[0] = 0
    for b in range(batch.shape[0]):
        out[b + 1] = out[b] + offsets[batch[b] + 1] - offsets[batch[b]]


@njit
def viterbi_minibatch_epoch(
    indptr, indices, data, offsets, labels, visit, rows, coef, coef_sum, n_labels, order,
    trigrams, n_seen, batch_size, threads,
):  # fmt: skip
    """One epoch of Collins' perceptron in minibatches (``viterbi_decisions`` then
    ``apply_chain_decisions`` per batch of ``batch_size`` consecutive entries of
    ``visit``), on ``threads`` threads (None: one thread, and only serial code is
    compiled). Returns (n_seen, mistakes, correct, n_visited) as ``perceptron_epoch``;
    ``n_visited`` is a batch start when the pool filled up (grow it, go on from there)."""
    buffers = minibatch_buffers(indptr, offsets, batch_size)
    pred, steps, right, starts, entry_start, slots, found = buffers
    unary_rows, backptr_rows = thread_viterbi_rows(offsets, n_labels, thread_count(threads))
    decisions = by_threads(threads, viterbi_decisions_serial, viterbi_decisions)
    mistakes = 0
    correct = 0
    for lo in range(0, visit.shape[0], batch_size):
        batch = visit[lo : lo + batch_size]
        m = batch.shape[0]
        schedule, part_start = lay_out_batch(indptr, offsets, batch, threads, starts,
                                             entry_start)  # fmt: skip
        # explicit arguments: see ``beam.search_minibatch_epoch``
        decisions(indptr, indices, data, offsets, labels, batch, starts, rows, coef, n_labels,
                  order, pred, steps[:m], right[:m], schedule, part_start, entry_start, slots,
                  found[:m], unary_rows, backptr_rows)  # fmt: skip
        seen = apply_chain_decisions(indptr, indices, data, offsets, labels, batch, starts,
                                     pred, steps[:m], entry_start, slots, found[:m], rows, coef,
                                     coef_sum, n_labels, order, trigrams, n_seen,
                                     threads)  # fmt: skip
        if seen < 0:
            return n_seen, mistakes, correct, lo
        n_seen = seen
        for b in range(m):
            mistakes += steps[b] >= 0
            correct += right[b]
    return n_seen, mistakes, correct, visit.shape[0]
