"""Parts of a minibatch for the threads: sentences spread by their cost.

``prange`` hands each thread an equal run of consecutive iterations. A minibatch of 32
sentences on 16 threads is then two sentences a thread, and the batch waits for the
thread that drew the two longest: on Brown's lengths (mean 21, sd 13) that uses about
half of 16 threads. Spreading the sentences costliest first, each to the part with the
least cost so far (Graham's longest-processing-time rule), uses about 72% at 32
sentences and 96% at 64. Which thread decodes a sentence never changes what is decoded,
so no result depends on the parts.
"""

import numpy as np

from ._config import njit
from .sorting import stable_argsort


@njit
def balanced_parts(costs, n_parts):
    """Positions ``0..len(costs)-1`` in at most ``n_parts`` parts of near-equal total
    cost: ``(schedule, part_start)``, part ``p`` is
    ``schedule[part_start[p]:part_start[p + 1]]`` (costliest first), no part empty.

    >>> schedule, part_start = balanced_parts(np.array([5.0, 1.0, 4.0, 2.0]), 2)
    >>> [sorted(schedule[part_start[p] : part_start[p + 1]].tolist()) for p in range(2)]
    [[0, 1], [2, 3]]
    """
    m = costs.shape[0]
    n_parts = max(1, min(n_parts, m))
    order = stable_argsort(-costs)  # stable: ties keep batch order
    load = np.zeros(n_parts)
    part_of = np.empty(m, dtype=np.int64)
    part_start = np.zeros(n_parts + 1, dtype=np.int64)
    for i in order:
        p = 0  # the least loaded part; of equal loads, the one with fewest positions
        for q in range(1, n_parts):
            if load[q] < load[p] or (load[q] == load[p] and part_start[q + 1] < part_start[p + 1]):
                p = q
        load[p] += costs[i]
        part_of[i] = p
        part_start[p + 1] += 1
    for p in range(n_parts):
        part_start[p + 1] += part_start[p]
    filled = part_start[:-1].copy()
    schedule = np.empty(m, dtype=np.int64)
    for i in order:
        p = part_of[i]
        schedule[filled[p]] = i
        filled[p] += 1
    return schedule, part_start


@njit
def one_part(m):
    """All ``m`` positions in order as one part (a batch decoded on one thread)."""
    part_start = np.zeros(2, dtype=np.int64)
    part_start[1] = m
    return np.arange(m), part_start


@njit
def sentence_parts(offsets, batch, n_parts, power):
    """``balanced_parts`` of the sentences ``batch`` at a cost of length ** ``power``
    (1 for chains: every decoder's work grows with the tokens; 3 for trees: Eisner's and
    Chu-Liu-Edmonds' cubic loops). One part when ``n_parts`` is 1."""
    if n_parts <= 1:
        return one_part(batch.shape[0])
    costs = np.empty(batch.shape[0])
    for b in range(batch.shape[0]):
        costs[b] = float(offsets[batch[b] + 1] - offsets[batch[b]]) ** power
    return balanced_parts(costs, n_parts)
