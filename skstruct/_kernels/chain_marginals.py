"""Forward-backward for first-order linear chains, in log space.

The distribution is ``p(y) ∝ exp(start[y_0] + sum_t unary[t, y_t]
+ sum_{t>=1} pair[y_{t-1}, y_t] + stop[y_{n-1}])``, the layout of
:mod:`skstruct._kernels.chain`. Log space because the potentials fed in by the
exponentiated-gradient SSVM are running sums of scores that grow without bound:
scaled probabilities would underflow.
"""

import numpy as np

from ._config import njit
from .chain import longest_sentence, split_coef, unary_scores


@njit
def _logsumexp(values):
    top = values[0]
    for k in range(1, values.shape[0]):
        if values[k] > top:
            top = values[k]
    if top == -np.inf:
        return top
    total = 0.0
    for k in range(values.shape[0]):
        total += np.exp(values[k] - top)
    return top + np.log(total)


@njit
def log_tables(unary, n, pair, start, stop, alpha, beta):
    """Forward and backward tables of a chain of ``n`` tokens, in log space: ``alpha[t,
    k]`` sums the prefixes ending with label ``k`` at ``t`` (start and unary scores
    included), ``beta[t, k]`` the suffixes after it (``beta[n - 1] = stop``). Writes
    rows ``:n`` of both (float64 (>= n, L)); returns log Z. Scores of ``-inf`` (parts a
    constraint forbids) count as impossible."""
    L = unary.shape[1]
    work = np.empty(L)
    for k in range(L):
        alpha[0, k] = start[k] + unary[0, k]
    for t in range(1, n):
        for k in range(L):
            for j in range(L):
                work[j] = alpha[t - 1, j] + pair[j, k]
            alpha[t, k] = unary[t, k] + _logsumexp(work)
    for k in range(L):
        beta[n - 1, k] = stop[k]
    for t in range(n - 2, -1, -1):
        for j in range(L):
            for k in range(L):
                work[k] = pair[j, k] + unary[t + 1, k] + beta[t + 1, k]
            beta[t, j] = _logsumexp(work)
    for k in range(L):
        work[k] = alpha[n - 1, k] + stop[k]
    return _logsumexp(work)


@njit
def forward_backward(unary, n, pair, start, stop, mu_unary, mu_pair):
    """Marginals and log-partition of a chain of ``n`` tokens.

    unary : float64 (>= n, L); pair : float64 (L, L) indexed [prev, curr];
    start, stop : float64 (L,).
    Writes ``mu_unary[t, k] = p(y_t = k)`` (rows ``:n``) and ``mu_pair[j, k] =
    sum_{t>=1} p(y_{t-1} = j, y_t = k)`` (the expected count of each transition);
    returns log Z. The start and stop marginals are ``mu_unary[0]`` and
    ``mu_unary[n - 1]``.
    """
    L = unary.shape[1]
    alpha = np.empty((n, L))
    beta = np.empty((n, L))
    log_z = log_tables(unary, n, pair, start, stop, alpha, beta)
    for t in range(n):
        for k in range(L):
            mu_unary[t, k] = np.exp(alpha[t, k] + beta[t, k] - log_z)
    mu_pair[:, :] = 0.0
    for t in range(1, n):
        for j in range(L):
            a = alpha[t - 1, j] - log_z
            for k in range(L):
                mu_pair[j, k] += np.exp(a + pair[j, k] + unary[t, k] + beta[t, k])
    return log_z


@njit
def corpus_token_marginals(indptr, indices, data, offsets, rows, coef, n_labels, sentences, out):
    """``out[t, k] = p(y_t = k | x)`` for every token of the sentences ``sentences`` of
    an encoded corpus under a first-order chain's weights ``coef`` (each writes only
    its own rows: parts run side by side on threads, ``utils.parts.in_parts``)."""
    emission, transition, start, stop, _ = split_coef(coef, n_labels, None)
    longest = longest_sentence(offsets)
    unary = np.empty((longest, n_labels))
    pair = np.empty((n_labels, n_labels))
    for i in sentences:
        lo, hi = offsets[i], offsets[i + 1]
        unary_scores(indptr, indices, data, lo, hi, rows, emission, unary)
        forward_backward(unary, hi - lo, transition, start, stop, out[lo:hi], pair)
