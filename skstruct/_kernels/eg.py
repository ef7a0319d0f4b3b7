"""Scatter kernels of the exponentiated-gradient SSVM: expected features into weights.

``w = C * sum_i (phi(x_i, y_i) - E_{alpha_i}[phi(x_i, y)])`` is a sum over parts of
part features weighted by marginals, so adding ``scale * sum_r dmu_r * phi_r`` for a
change ``dmu`` of one example's marginals is all the EG learner ever does to ``w``.
A chain's ``phi`` has an emission coordinate only for the (feature, label) pairs of
its emission rows (the EG learner gives it every pair): the scatter adds to those alone.

With ``track=True`` the kernels also record, the first time each weight is touched,
its index and old value (``stamp[j] == mark`` marks it seen; a chain records the
whole row of a feature the first time one of its tokens touches it). The learner reads the
change of ``||w||^2`` off them to get the exact change of the dual objective, and
restores them when it rejects a step.
"""

import numpy as np

from ._config import njit
from .arc_features import arc_feature_ids
from .values import feature_value


@njit
def scatter_emissions(
    indptr, indices, data, lo, hi, dmu, rows, emission, scale, track, stamp, mark, slots, saved
):  # fmt: skip
    """``w[f, k] += scale * v * dmu[t - lo, k]`` for tokens ``lo:hi``, feature ``f`` of
    value ``v``, and every label ``k`` of row ``f`` (the pairs that have a weight;
    ``emission`` is the pool the ``rows`` lay out, see :mod:`skstruct._kernels.rows`).

    With ``track``, the first time a feature is touched its row's pool slots and old
    values go to ``slots`` and ``saved`` (room for the summed row lengths of the
    tokens' features). Returns how many slots were recorded.
    """
    start, length, _, labels, _ = rows
    k = 0
    for t in range(lo, hi):
        for j in range(indptr[t], indptr[t + 1]):
            f = indices[j]
            first, end = start[f], start[f] + length[f]
            if track and stamp[f] != mark:
                stamp[f] = mark
                for p in range(first, end):
                    slots[k] = p
                    saved[k] = emission[p]
                    k += 1
            v = scale * feature_value(data, j)
            for p in range(first, end):
                emission[p] += v * dmu[t - lo, labels[p]]
    return k


@njit
def scatter_arcs(
    attrs, start, n, dmu, coef, n_features, scale, buffer, track, stamp, mark, ids, saved
):  # fmt: skip
    """``coef[phi(h, d)] += scale * dmu[h, d]`` for every possible arc of one sentence
    (``h != d``, ``d >= 1``). Returns how many weights were recorded (``track``)."""
    k = 0
    for h in range(n + 1):
        for d in range(1, n + 1):
            if h == d or dmu[h, d] == 0.0:
                continue
            value = scale * dmu[h, d]
            m = arc_feature_ids(attrs, start, n, h, d, n_features, buffer)
            for j in range(m):
                # written out, not a helper: a kernel call per feature increfs and
                # decrefs its array arguments, ten times the cost of the addition
                f = buffer[j]
                if track and stamp[f] != mark:
                    stamp[f] = mark
                    ids[k] = f
                    saved[k] = coef[f]
                    k += 1
                coef[f] += value
    return k


@njit
def arc_ids(attrs, start, n, n_features, ids, counts):
    """Feature ids of every possible arc of one sentence: ``ids[h, d, :counts[h, d]]``,
    hashed once per EG step and reused by every attempt at it."""
    for h in range(n + 1):
        for d in range(1, n + 1):
            counts[h, d] = 0 if h == d else arc_feature_ids(attrs, start, n, h, d, n_features,
                                                             ids[h, d])  # fmt: skip


@njit
def arc_scores_at(coef, n, ids, counts, out):
    """``out[h, d] = w . phi(h, d)`` from :func:`arc_ids`; -inf where no arc can be."""
    for h in range(n + 1):
        out[h, 0] = -np.inf
        for d in range(1, n + 1):
            if h == d:
                out[h, d] = -np.inf
                continue
            total = 0.0
            for j in range(counts[h, d]):
                total += coef[ids[h, d, j]]
            out[h, d] = total


@njit
def scatter_arc_ids(coef, n, ids, counts, dmu, scale, stamp, mark, touched, saved):
    """:func:`scatter_arcs` with the ids of :func:`arc_ids`, always tracking."""
    k = 0
    for h in range(n + 1):
        for d in range(1, n + 1):
            if h == d or dmu[h, d] == 0.0:
                continue
            value = scale * dmu[h, d]
            for j in range(counts[h, d]):
                f = ids[h, d, j]  # written out, as in scatter_arcs
                if stamp[f] != mark:
                    stamp[f] = mark
                    touched[k] = f
                    saved[k] = coef[f]
                    k += 1
                coef[f] += value
    return k


@njit
def squared_norm(values):
    """``sum(values ** 2)`` without BLAS: one thread, no start-up cost on small arrays."""
    total = 0.0
    for v in values.ravel():
        total += v * v
    return total


@njit
def squared_norm_at(coef, ids, k):
    total = 0.0
    for j in range(k):
        total += coef[ids[j]] * coef[ids[j]]
    return total


@njit
def normalize_rows(theta):
    """Subtract each row's maximum: a row is one token's (or word's) choices, exactly
    one of which every output takes, so the distribution over outputs is unchanged
    while the running sums stay small."""
    for t in range(theta.shape[0]):
        top = -np.inf
        for c in range(theta.shape[1]):
            if theta[t, c] > top:
                top = theta[t, c]
        if top > -np.inf:
            for c in range(theta.shape[1]):
                theta[t, c] -= top
