"""Exact k-best Viterbi for a first-order chain (list Viterbi).

Every (token, label) keeps the ``k`` best prefix scores ending there, each with the
label and rank of its predecessor; the ``k`` best full sequences are the best ``k`` of
the last token's lists plus stop scores. O(n L^2 k) additions and O(n L^2 k^2)
comparisons at most. Scores are added as ``viterbi_into`` adds them (``prefix +
transition``, then ``+ unary``; the stop score last), and ties go to the lower
predecessor label, then rank, as there, so the best sequence is Viterbi's.
"""

import numpy as np

from ._config import ZERO, helper, njit


@helper
def _insert(keys, labels, ranks, size, k, value, label, rank):
    """Insert a candidate into a list sorted best first (``size`` entries, at most
    ``k``); a candidate no better than an equal one listed stays after it. Returns
    the new size."""
    if size == k and not value > keys[k - 1]:
        return size
    pos = size if size < k else k - 1
    while pos > 0 and value > keys[pos - 1]:
        keys[pos] = keys[pos - 1]
        labels[pos] = labels[pos - 1]
        ranks[pos] = ranks[pos - 1]
        pos -= 1
    keys[pos] = value
    labels[pos] = label
    ranks[pos] = rank
    return min(size + 1, k)


@njit
def kbest_paths(unary, transition, start, stop, k):
    """The ``k`` best label sequences of a first-order chain, best first.

    unary : float64 (n, L); transition : float64 (L, L) [prev, curr]; start, stop :
    float64 (L,). Returns ``(paths int32 (m, n), scores float64 (m,))`` with ``m <= k``
    the number of sequences whose score is above ``-inf`` (forbidden parts score
    ``-inf``), ties to the lower label at every step as Viterbi.
    """
    n, L = unary.shape
    scores = np.full((n, L, k), -np.inf)
    back_label = np.zeros((n, L, k), dtype=np.int32)
    back_rank = np.zeros((n, L, k), dtype=np.int32)
    count = np.zeros((n, L), dtype=np.int64)
    keys = np.empty(k)
    for c in range(L):
        scores[0, c, 0] = start[c] + unary[0, c]
        count[0, c] = 1
    for t in range(1, n):
        for c in range(L):
            size = ZERO
            for p in range(L):
                for r in range(count[t - 1, p]):
                    value = scores[t - 1, p, r] + transition[p, c]
                    size = _insert(keys, back_label[t, c], back_rank[t, c], size, k, value, p, r)
            for r in range(size):
                scores[t, c, r] = keys[r] + unary[t, c]
            count[t, c] = size
    final_label = np.zeros(k, dtype=np.int32)
    final_rank = np.zeros(k, dtype=np.int32)
    size = ZERO
    for c in range(L):
        for r in range(count[n - 1, c]):
            size = _insert(keys, final_label, final_rank, size, k, scores[n - 1, c, r] + stop[c],
                           c, r)  # fmt: skip
    m = 0
    while m < size and keys[m] > -np.inf:
        m += 1
    paths = np.empty((m, n), dtype=np.int32)
    out = np.empty(m)
    for j in range(m):
        out[j] = keys[j]
        label, rank = final_label[j], final_rank[j]
        for t in range(n - 1, -1, -1):
            paths[j, t] = label
            if t > 0:
                label, rank = back_label[t, label, rank], back_rank[t, label, rank]
    return paths, out
