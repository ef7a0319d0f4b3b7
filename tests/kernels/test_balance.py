"""Parts of a minibatch for the threads (longest processing time first) against a
pure-Python twin and the brute-force best split."""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skstruct._kernels.balance import balanced_parts, one_part, sentence_parts


def _lpt_twin(costs, n_parts):
    """Graham's rule in plain Python: costliest first (ties in order), each to the
    least loaded part (ties: fewest positions, then lowest index)."""
    n_parts = max(1, min(n_parts, len(costs)))
    parts = [[] for _ in range(n_parts)]
    loads = [0.0] * n_parts
    for i in sorted(range(len(costs)), key=lambda i: -costs[i]):
        p = min(range(n_parts), key=lambda p: (loads[p], len(parts[p]), p))
        parts[p].append(i)
        loads[p] += costs[i]
    return parts


def _parts(schedule, part_start):
    bounds = itertools.pairwise(part_start)
    return [schedule[lo:hi].tolist() for lo, hi in bounds]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=40), st.integers(1, 20))
def test_balanced_parts_equal_the_python_twin(costs, n_parts):
    costs = np.array(costs, dtype=np.float64)
    schedule, part_start = balanced_parts(costs, n_parts)
    parts = _parts(schedule, part_start)
    assert parts == _lpt_twin(costs.tolist(), n_parts)
    assert sorted(schedule.tolist()) == list(range(costs.size))  # each position once
    assert all(parts)  # none empty, also when costs are zero


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 30), min_size=1, max_size=8), st.integers(1, 3))
def test_balanced_parts_are_within_grahams_bound_of_the_best_split(costs, n_parts):
    schedule, part_start = balanced_parts(np.array(costs, dtype=np.float64), n_parts)
    makespan = max(sum(costs[i] for i in part) for part in _parts(schedule, part_start))
    k = min(n_parts, len(costs))
    best = min(
        max(sum(c for c, a in zip(costs, assign) if a == p) for p in range(k))
        for assign in itertools.product(range(k), repeat=len(costs))
    )
    assert makespan <= (4 / 3 - 1 / (3 * k)) * best + 1e-9


def test_sentence_parts_cost_by_length_and_one_part_for_one_thread():
    offsets = np.array([0, 10, 11, 12, 13, 23, 24])  # lengths 10, 1, 1, 1, 10, 1
    batch = np.arange(6)
    assert _parts(*sentence_parts(offsets, batch, 2, 1)) == [[0, 1, 3], [4, 2, 5]]
    # cubic cost: the two long sentences outweigh everything else
    assert _parts(*sentence_parts(offsets, batch, 3, 3)) == [[0], [4], [1, 2, 3, 5]]
    assert _parts(*sentence_parts(offsets, batch, 1, 1)) == [[0, 1, 2, 3, 4, 5]]
    assert _parts(*one_part(3)) == [[0, 1, 2]]
