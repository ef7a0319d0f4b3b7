"""The negative log-likelihood of a first-order linear-chain CRF and its gradient.

``p(y | x) ∝ exp(start[y_0] + sum_t unary[t, y_t] + sum_{t>=1} transition[y_{t-1}, y_t]
+ stop[y_{n-1}])``, in the weight layout of :mod:`skstruct._kernels.chain` (emission
weights in a pool laid out by emission rows). This is the objective CRFsuite's
``lbfgs`` and ``l2sgd`` minimise (plus their regularisers, added by the caller):

    NLL(w) = sum_i log Z(x_i) - w . Phi,    grad = E_w[phi] - Phi,

where ``Phi`` is the gold feature counts of the corpus (:func:`empirical_counts`: it
does not depend on ``w``, so it is counted once per fit) and ``E_w[phi]`` the counts
expected under the model (:func:`chunk_expectations`).

Forward-backward runs on scaled probabilities, as CRFsuite's does: potentials are
exponentiated once per token (shifted by their maximum, so nothing overflows) and each
step's forward vector is normalised, its scale kept, so there is no ``exp`` in the
``L x L`` loops, whose inner loops run over contiguous memory (they vectorise). The
expected transition counts ``sum_t alpha_{t-1}(j) E[j, k] u_t(k) beta_t(k)`` are
gathered as ``sum_t alpha_{t-1}(j) (u_t beta_t)(k)`` over a whole chunk and multiplied
by ``E`` once. A sentence whose scales underflow (weights in the hundreds, as a line
search may try) is done again in log space (:mod:`skstruct._kernels.chain_marginals`),
exactly.

The corpus is cut into a fixed number of chunks of consecutive sentences; each chunk's
expectations go to a buffer of their own and the buffers are added in chunk order, so
the result is the same on any number of threads (the caller runs groups of chunks on
Python threads: the kernel holds no GIL, and compiles in a fraction of a ``prange``
kernel's time).
"""

import numpy as np

from ._config import helper, njit
from .chain import longest_sentence, split_coef, unary_scores
from .chain_marginals import forward_backward
from .rows import slot
from .values import feature_value


@helper
def scaled_forward_backward(unary, n, potentials, shift, scratch, outer, sample_weight):
    """Marginals of a chain of ``n`` tokens on scaled probabilities.

    Writes ``p(y_t = k)`` to ``scratch``'s marginal rows and adds ``sample_weight`` times
    ``sum_{t>=1} alpha_{t-1}(j) / scale_t * u_t(k) beta_t(k)`` to ``outer`` (the expected
    transition counts once multiplied by ``exp(transition - shift)``; 1.0 leaves every
    sum as it is). Returns log Z,
    or NaN when a scale underflowed (then ``outer`` is unchanged: use the log-space
    pass). ``potentials`` and ``shift``: :func:`exp_potentials`.
    """
    L = unary.shape[1]
    u, alpha, beta, ub, scale, marginal = scratch
    e_transition, e_transposed = potentials[:L], potentials[L : 2 * L]
    e_start, e_stop = potentials[2 * L], potentials[2 * L + 1]
    log_z = shift[1] + (n - 1) * shift[0] + shift[2]
    for t in range(n):  # u[t] = exp(unary[t] - max_k unary[t, k])
        top = unary[t, 0]
        for k in range(1, L):
            top = max(top, unary[t, k])
        log_z += top
        for k in range(L):
            u[t, k] = np.exp(unary[t, k] - top)
    for t in range(n):
        a = alpha[t]
        if t == 0:
            for k in range(L):
                a[k] = e_start[k]
        else:
            a[:] = 0.0
            previous = alpha[t - 1]
            for j in range(L):
                weight = previous[j]
                row = e_transition[j]
                for k in range(L):
                    a[k] += weight * row[k]
        total = 0.0
        for k in range(L):
            a[k] *= u[t, k]
            total += a[k]
        if not total > 0.0:
            return np.nan
        scale[t] = total
        log_z += np.log(total)
        for k in range(L):
            a[k] /= total
    z_end = 0.0
    for k in range(L):
        z_end += alpha[n - 1, k] * e_stop[k]
    if not z_end > 0.0:
        return np.nan
    log_z += np.log(z_end)
    # beta scaled so that alpha[t] . beta[t] = 1: p(y_t = k) = alpha[t, k] * beta[t, k]
    for k in range(L):
        beta[n - 1, k] = e_stop[k] / z_end
        ub[n - 1, k] = u[n - 1, k] * beta[n - 1, k]
    for t in range(n - 2, -1, -1):
        b = beta[t]
        b[:] = 0.0
        following = ub[t + 1]
        for k in range(L):
            weight = following[k] / scale[t + 1]
            column = e_transposed[k]
            for j in range(L):
                b[j] += weight * column[j]
        for k in range(L):
            ub[t, k] = u[t, k] * b[k]
    for t in range(1, n):
        following = ub[t]
        for j in range(L):
            share = sample_weight * alpha[t - 1, j] / scale[t]
            row = outer[j]
            for k in range(L):
                row[k] += share * following[k]
    for t in range(n):
        for k in range(L):
            marginal[t, k] = alpha[t, k] * beta[t, k]
    return log_z


@helper
def sentence_expectations(indptr, indices, data, lo, n, rows, emission, transition, start,
                          stop, potentials, shift, unary, scratch, outer, log_pair, weight,
                          grad):  # fmt: skip
    """``log Z`` of the sentence of ``n`` tokens from token ``lo``; adds ``weight`` (its
    sample weight) times its expected feature counts to ``grad`` (a weight vector's
    layout), but its expected transition counts to ``outer`` (see
    :func:`scaled_forward_backward`), or to ``grad`` directly when the sentence needed
    the log-space pass (``log_pair`` its scratch)."""
    L = transition.shape[0]
    row_start, row_length, _, row_labels, _ = rows
    marginal = scratch[5]
    g_emission, g_transition, g_start, g_stop, _ = split_coef(grad, L, None)
    unary_scores(indptr, indices, data, lo, lo + n, rows, emission, unary)
    log_z = scaled_forward_backward(unary, n, potentials, shift, scratch, outer, weight)
    if np.isnan(log_z):
        log_z = forward_backward(unary, n, transition, start, stop, marginal, log_pair)
        for j in range(L):
            for k in range(L):
                g_transition[j, k] += weight * log_pair[j, k]
    for t in range(n):
        for q in range(indptr[lo + t], indptr[lo + t + 1]):
            f = indices[q]
            v = weight * feature_value(data, q)
            for p in range(row_start[f], row_start[f] + row_length[f]):
                g_emission[p] += v * marginal[t, row_labels[p]]
    for k in range(L):
        g_start[k] += weight * marginal[0, k]
        g_stop[k] += weight * marginal[n - 1, k]
    return log_z


@helper
def sentence_scratch(longest, n_labels):
    """Buffers for :func:`scaled_forward_backward` on up to ``longest`` tokens:
    ``(u, alpha, beta, u * beta, scale, marginal)``."""
    rows = (longest, n_labels)
    return (np.empty(rows), np.empty(rows), np.empty(rows), np.empty(rows), np.empty(longest),
            np.empty(rows))  # fmt: skip


@helper
def exp_potentials(transition, start, stop):
    """``(potentials, shift)`` for :func:`scaled_forward_backward`: rows ``[0, L)`` hold
    ``exp(transition - shift[0])``, rows ``[L, 2L)`` its transpose, then
    ``exp(start - shift[1])`` and ``exp(stop - shift[2])``."""
    L = transition.shape[0]
    out, shift = np.empty((2 * L + 2, L)), np.empty(3)
    exp_potentials_into(transition, start, stop, out, shift)
    return out, shift


@helper
def exp_potentials_into(transition, start, stop, out, shift):
    """:func:`exp_potentials` into given buffers (SGD's weights change every sentence:
    no allocation per sentence)."""
    L = transition.shape[0]
    shift[0], shift[1], shift[2] = transition.max(), start.max(), stop.max()
    for j in range(L):
        for k in range(L):
            out[j, k] = np.exp(transition[j, k] - shift[0])
            out[L + k, j] = out[j, k]
    for k in range(L):
        out[2 * L, k] = np.exp(start[k] - shift[1])
        out[2 * L + 1, k] = np.exp(stop[k] - shift[2])


@njit
def empirical_counts(indptr, indices, data, offsets, labels, rows, n_labels, weights, out):
    """Adds the gold feature counts ``Phi = sum_i w_i phi(x_i, y_i)`` of the corpus to
    ``out`` (a weight vector's layout), ``w_i = weights[i]`` the sentences' sample
    weights; pairs without a weight count nothing."""
    g_emission, g_transition, g_start, g_stop, _ = split_coef(out, n_labels, None)
    for i in range(offsets.shape[0] - 1):
        lo, hi = offsets[i], offsets[i + 1]
        w = weights[i]
        g_start[labels[lo]] += w
        g_stop[labels[hi - 1]] += w
        for t in range(lo, hi):
            if t > lo:
                g_transition[labels[t - 1], labels[t]] += w
            for q in range(indptr[t], indptr[t + 1]):
                p = slot(rows, indices[q], labels[t])
                if p >= 0:
                    g_emission[p] += w * feature_value(data, q)


@njit
def chunk_expectations(indptr, indices, data, offsets, rows, coef, n_labels, chunk_start,
                       chunks, weights, log_z, grads):  # fmt: skip
    """Each chunk ``c`` of ``chunks`` (sentences ``chunk_start[c]`` to ``chunk_start[c +
    1]``) writes the sum of its sentences' ``log Z`` to ``log_z[c]`` and their expected
    feature counts to ``grads[c]``, each times the sentence's sample weight
    (``weights[i]``)."""
    emission, transition, start, stop, _ = split_coef(coef, n_labels, None)
    potentials, shift = exp_potentials(transition, start, stop)
    longest = longest_sentence(offsets)
    L = n_labels
    scratch = sentence_scratch(longest, L)
    unary = np.empty((longest, L))
    outer = np.empty((L, L))
    log_pair = np.empty((L, L))
    for c in chunks:
        outer[:, :] = 0.0
        grads[c, :] = 0.0
        total = 0.0
        for i in range(chunk_start[c], chunk_start[c + 1]):
            lo = offsets[i]
            w = weights[i]
            total += w * sentence_expectations(indptr, indices, data, lo, offsets[i + 1] - lo,
                                               rows, emission, transition, start, stop,
                                               potentials, shift, unary, scratch, outer,
                                               log_pair, w, grads[c])  # fmt: skip
        g_transition = grads[c, : L * L].reshape((L, L))
        for j in range(L):
            for k in range(L):
                g_transition[j, k] += outer[j, k] * potentials[j, k]
        log_z[c] = total


@njit
def path_score(unary, path, transition, start, stop):
    """The score of the label sequence ``path`` (``unary``'s first ``len(path)`` rows)."""
    n = path.shape[0]
    score = start[path[0]] + stop[path[n - 1]]
    for s in range(n):
        score += unary[s, path[s]]
        if s > 0:
            score += transition[path[s - 1], path[s]]
    return score


@njit
def sgd_epoch(indptr, indices, data, offsets, labels, rows, n_labels, order, v, free, lam, t0,
              clock, scratch_len, weights):  # fmt: skip
    """One epoch of CRFsuite's ``l2sgd`` over the sentences ``order``: per sentence,
    ``eta = 1 / (lam (t0 + t))``, the weights decay by ``1 - eta lam`` and move by
    ``eta`` times the sentence's sample weight (``weights[i]``) along
    ``phi(gold) - E[phi]``. The weights are ``decay * v``; ``v`` is
    updated in place (only the sentence's features: the decay is a scalar) and
    multiplied by the decay at the end, as CRFsuite does. ``free`` (one per structure
    weight: transition, start, stop) is 0 for the weights the model lacks.

    ``clock[0]`` is ``t``, the sentences seen before this epoch; it is advanced.
    Returns the sum of the sentences' ``-log p(gold | x)`` times their sample weights,
    each under the weights before its own update.
    """
    L = n_labels
    v_emission, v_transition, v_start, v_stop, _ = split_coef(v, L, None)
    f_transition = free[: L * L].reshape((L, L))
    f_start, f_stop = free[L * L : L * (L + 1)], free[L * (L + 1) : L * (L + 2)]
    row_start, row_length, _, row_labels, _ = rows
    scratch = sentence_scratch(scratch_len, L)
    marginal = scratch[5]
    unary = np.empty((scratch_len, L))
    transition, start, stop = np.empty((L, L)), np.empty(L), np.empty(L)
    outer, log_pair = np.empty((L, L)), np.empty((L, L))
    potentials, shift = np.empty((2 * L + 2, L)), np.empty(3)
    decay, t, total = 1.0, clock[0], 0.0
    for i in order:
        lo, hi = offsets[i], offsets[i + 1]
        n = hi - lo
        eta = 1.0 / (lam * (t0 + t))
        decay *= 1.0 - eta * lam
        gain = weights[i] * eta / decay
        # scores under the weights decay * v
        unary_scores(indptr, indices, data, lo, hi, rows, v_emission, unary)
        for s in range(n):
            for k in range(L):
                unary[s, k] *= decay
        for j in range(L):
            for k in range(L):
                transition[j, k] = decay * v_transition[j, k]
        for k in range(L):
            start[k] = decay * v_start[k]
            stop[k] = decay * v_stop[k]
        gold_score = path_score(unary, labels[lo:hi], transition, start, stop)
        exp_potentials_into(transition, start, stop, potentials, shift)
        outer[:, :] = 0.0
        log_z = scaled_forward_backward(unary, n, potentials, shift, scratch, outer, 1.0)
        if np.isnan(log_z):
            log_z = forward_backward(unary, n, transition, start, stop, marginal, log_pair)
        else:
            for j in range(L):
                for k in range(L):
                    log_pair[j, k] = outer[j, k] * potentials[j, k]
        total += weights[i] * (log_z - gold_score)
        # v += gain * (phi(gold) - E[phi])
        for s in range(n):
            gold = labels[lo + s]
            for q in range(indptr[lo + s], indptr[lo + s + 1]):
                f = indices[q]
                value = gain * feature_value(data, q)
                for p in range(row_start[f], row_start[f] + row_length[f]):
                    k = row_labels[p]
                    v_emission[p] -= value * marginal[s, k]
                    if k == gold:
                        v_emission[p] += value
            if s > 0:
                previous = labels[lo + s - 1]
                v_transition[previous, gold] += gain * f_transition[previous, gold]
        for j in range(L):
            for k in range(L):
                v_transition[j, k] -= gain * f_transition[j, k] * log_pair[j, k]
        for k in range(L):
            v_start[k] -= gain * f_start[k] * marginal[0, k]
            v_stop[k] -= gain * f_stop[k] * marginal[n - 1, k]
        v_start[labels[lo]] += gain * f_start[labels[lo]]
        v_stop[labels[hi - 1]] += gain * f_stop[labels[hi - 1]]
        t += 1.0
    for p in range(v.shape[0]):
        v[p] *= decay
    clock[0] = t
    return total


@njit
def corpus_nll(indptr, indices, data, offsets, labels, rows, n_labels, order, coef, weights):
    """``sum_i -w_i log p(gold_i | x_i)`` over the sentences ``order`` under ``coef``,
    ``w_i = weights[i]`` their sample weights."""
    total = 0.0
    longest = longest_sentence(offsets)
    L = n_labels
    emission, transition, start, stop, _ = split_coef(coef, L, None)
    potentials, shift = exp_potentials(transition, start, stop)
    scratch = sentence_scratch(longest, L)
    unary = np.empty((longest, L))
    outer, log_pair = np.zeros((L, L)), np.empty((L, L))
    for i in order:
        lo, hi = offsets[i], offsets[i + 1]
        n = hi - lo
        unary_scores(indptr, indices, data, lo, hi, rows, emission, unary)
        z = scaled_forward_backward(unary, n, potentials, shift, scratch, outer, 1.0)
        if np.isnan(z):
            z = forward_backward(unary, n, transition, start, stop, scratch[5], log_pair)
        total += weights[i] * (z - path_score(unary, labels[lo:hi], transition, start, stop))
    return total
