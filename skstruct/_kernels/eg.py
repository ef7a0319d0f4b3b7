"""Scatter kernels of the exponentiated-gradient SSVM: expected features into weights.

``w = C * sum_i (phi(x_i, y_i) - E_{alpha_i}[phi(x_i, y)])`` is a sum over parts of
part features weighted by marginals, so adding ``scale * sum_r dmu_r * phi_r`` for a
change ``dmu`` of one example's marginals is all the EG learner ever does to ``w``.

With ``track=True`` the kernels also record, the first time each weight is touched,
its index and old value (``stamp[j] == mark`` marks it seen). The learner reads the
change of ``||w||^2`` off them to get the exact change of the dual objective, and
restores them when it rejects a step.
"""

import numpy as np

from ._config import njit
from .tree import arc_feature_ids


@njit
def scatter_emissions(
    indptr, indices, data, lo, hi, dmu, emission, scale, track, stamp, mark, rows, saved
):  # fmt: skip
    """``emission[f, :] += scale * v * dmu[t - lo, :]`` for tokens ``lo:hi``, feature
    ``f`` of value ``v``. Returns how many emission rows were recorded (``track``)."""
    k = 0
    for t in range(lo, hi):
        for j in range(indptr[t], indptr[t + 1]):
            f = indices[j]
            if track and stamp[f] != mark:
                stamp[f] = mark
                rows[k] = f
                saved[k, :] = emission[f, :]
                k += 1
            v = scale * data[j]
            for c in range(emission.shape[1]):
                emission[f, c] += v * dmu[t - lo, c]
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
                f = buffer[j]
                if track and stamp[f] != mark:
                    stamp[f] = mark
                    ids[k] = f
                    saved[k] = coef[f]
                    k += 1
                coef[f] += value
    return k


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
