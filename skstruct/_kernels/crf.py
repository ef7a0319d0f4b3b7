"""The negative log-likelihood of a first-order linear-chain CRF and its gradient.

``p(y | x) ∝ exp(start[y_0] + sum_t unary[t, y_t] + sum_{t>=1} transition[y_{t-1}, y_t]
+ stop[y_{n-1}])``, in the weight layout of :mod:`skstruct._kernels.chain` (emission
weights in a pool laid out by emission rows). This is the objective CRFsuite's
``lbfgs`` and ``l2sgd`` minimise (plus their regularisers, added by the caller).

Forward-backward runs on scaled probabilities, as CRFsuite's does: potentials are
exponentiated once per token (shifted by their maximum, so nothing overflows) and each
step's forward vector is normalised, its scale kept, so there is no ``exp`` in the
``L x L`` inner loop. A sentence whose scales underflow (weights in the hundreds, as a
line search may try) is done again in log space
(:mod:`skstruct._kernels.chain_marginals`), exactly.

The corpus is cut into a fixed number of chunks of consecutive sentences; each chunk's
gradient goes to a buffer of its own and the buffers are added in chunk order, so the
result is the same on any number of threads.
"""

import numpy as np
from numba import prange

from ._config import njit, njit_parallel, serial_twin
from .chain import longest_sentence, split_coef, unary_scores
from .chain_marginals import forward_backward
from .rows import slot
from .values import feature_value


@njit
def scaled_marginals(unary, n, exp_transition, shift, u, alpha, beta, scale, pair):
    """Forward-backward on scaled probabilities: writes ``u[t, k] = p(y_t = k)`` and
    ``pair[j, k] = sum_t p(y_{t-1} = j, y_t = k)``; returns log Z, or NaN when a
    scale underflowed (weights in the hundreds: use the log-space pass)."""
    L = unary.shape[1]
    log_z = shift[1] + (n - 1) * shift[0] + shift[2]
    for t in range(n):  # u[t] = exp(unary[t] - max_k unary[t, k])
        top = unary[t, 0]
        for k in range(1, L):
            top = max(top, unary[t, k])
        log_z += top
        for k in range(L):
            u[t, k] = np.exp(unary[t, k] - top)
    e_start, e_stop = exp_transition[L], exp_transition[L + 1]
    for t in range(n):
        total = 0.0
        for k in range(L):
            if t == 0:
                s = e_start[k]
            else:
                s = 0.0
                for j in range(L):
                    s += alpha[t - 1, j] * exp_transition[j, k]
            alpha[t, k] = s * u[t, k]
            total += alpha[t, k]
        if not total > 0.0:
            return np.nan
        scale[t] = total
        log_z += np.log(total)
        for k in range(L):
            alpha[t, k] /= total
    z_end = 0.0
    for k in range(L):
        z_end += alpha[n - 1, k] * e_stop[k]
    if not z_end > 0.0:
        return np.nan
    log_z += np.log(z_end)
    # beta scaled so that alpha[t] . beta[t] = 1: p(y_t = k) = alpha[t, k] * beta[t, k]
    for k in range(L):
        beta[n - 1, k] = e_stop[k] / z_end
    for t in range(n - 2, -1, -1):
        for j in range(L):
            s = 0.0
            for k in range(L):
                s += exp_transition[j, k] * u[t + 1, k] * beta[t + 1, k]
            beta[t, j] = s / scale[t + 1]
    pair[:, :] = 0.0
    for t in range(1, n):
        for j in range(L):
            a = alpha[t - 1, j] / scale[t]
            for k in range(L):
                pair[j, k] += a * exp_transition[j, k] * u[t, k] * beta[t, k]
    for t in range(n):
        for k in range(L):
            u[t, k] = alpha[t, k] * beta[t, k]
    return log_z


@njit
def sentence_nll(indptr, indices, data, lo, n, gold, rows, emission, transition, start, stop,
                 exp_transition, shift, scratch, grad):  # fmt: skip
    """``-log p(gold | x)`` of the sentence of ``n`` tokens from token ``lo``; adds its
    gradient to ``grad`` (a weight vector's layout). ``exp_transition`` and ``shift``:
    :func:`exp_potentials`; ``scratch``: :func:`sentence_scratch`."""
    L = transition.shape[0]
    row_start, row_length, _, row_labels, _ = rows
    unary, u, alpha, beta, scale, pair = scratch
    g_emission, g_transition, g_start, g_stop, _ = split_coef(grad, L, 1)
    unary_scores(indptr, indices, data, lo, lo + n, rows, emission, unary)
    gold_score = start[gold[0]] + stop[gold[n - 1]]
    for t in range(n):
        gold_score += unary[t, gold[t]]
        if t > 0:
            gold_score += transition[gold[t - 1], gold[t]]
    log_z = scaled_marginals(unary, n, exp_transition, shift, u, alpha, beta, scale, pair)
    if np.isnan(log_z):
        log_z = forward_backward(unary, n, transition, start, stop, u, pair)
    for j in range(L):
        for k in range(L):
            g_transition[j, k] += pair[j, k]
    for t in range(n):
        if t > 0:
            g_transition[gold[t - 1], gold[t]] -= 1.0
        for q in range(indptr[lo + t], indptr[lo + t + 1]):
            f = indices[q]
            v = feature_value(data, q)
            for p in range(row_start[f], row_start[f] + row_length[f]):
                g_emission[p] += v * u[t, row_labels[p]]
            p = slot(rows, f, gold[t])
            if p >= 0:
                g_emission[p] -= v
    for k in range(L):
        g_start[k] += u[0, k]
        g_stop[k] += u[n - 1, k]
    g_start[gold[0]] -= 1.0
    g_stop[gold[n - 1]] -= 1.0
    return log_z - gold_score


@njit
def sentence_scratch(longest, n_labels):
    """Buffers for :func:`sentence_nll` on sentences of up to ``longest`` tokens."""
    rows = (longest, n_labels)
    return (np.empty(rows), np.empty(rows), np.empty(rows), np.empty(rows), np.empty(longest),
            np.empty((n_labels, n_labels)))  # fmt: skip


@njit
def exp_potentials(transition, start, stop):
    """``(exp_transition, shift)`` for :func:`sentence_nll`."""
    L = transition.shape[0]
    shift = np.array([transition.max(), start.max(), stop.max()])
    out = np.empty((L + 2, L))
    for j in range(L):
        for k in range(L):
            out[j, k] = np.exp(transition[j, k] - shift[0])
    for k in range(L):
        out[L, k] = np.exp(start[k] - shift[1])
        out[L + 1, k] = np.exp(stop[k] - shift[2])
    return out, shift


@njit_parallel
def chunk_nll(indptr, indices, data, offsets, labels, rows, coef, n_labels, chunk_start,
              losses, grads):  # fmt: skip
    """Each chunk ``c`` (sentences ``chunk_start[c]`` to ``chunk_start[c + 1]``) writes
    its negative log-likelihood to ``losses[c]`` and its gradient to ``grads[c]``, one
    thread a chunk."""
    emission, transition, start, stop, _ = split_coef(coef, n_labels, 1)
    exp_transition, shift = exp_potentials(transition, start, stop)
    longest = longest_sentence(offsets)
    for c in prange(chunk_start.shape[0] - 1):
        scratch = sentence_scratch(longest, n_labels)
        grads[c, :] = 0.0
        loss = 0.0
        for i in range(chunk_start[c], chunk_start[c + 1]):
            lo = offsets[i]
            n = offsets[i + 1] - lo
            loss += sentence_nll(indptr, indices, data, lo, n, labels[lo : lo + n], rows,
                                 emission, transition, start, stop, exp_transition, shift,
                                 scratch, grads[c])  # fmt: skip
        losses[c] = loss


#: The same, one thread.
chunk_nll_serial = serial_twin(chunk_nll)
