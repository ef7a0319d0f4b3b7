"""Emission rows kernels against a dict of (feature, label) -> weight."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skstruct._kernels import chain as _chain
from skstruct._kernels import rows as _rows
from skstruct._kernels._config import TRUE
from skstruct.structures import EmissionRows
from skstruct.utils.arrays import read_only

N_FEATURES, N_LABELS = 5, 6


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, N_FEATURES - 1), st.integers(0, N_LABELS - 1), st.integers(-3, 3)),
        max_size=60,
    ),
    st.integers(0, 40),
)
def test_ensure_and_add_match_a_dict(updates, pool_size):
    rows = EmissionRows.empty(N_FEATURES, pool_size=pool_size)
    values, sums = np.zeros(pool_size), np.zeros(pool_size)
    twin = {}
    for f, k, v in updates:
        before = [*(a.copy() for a in rows.arrays), values.copy(), sums.copy()]
        if not _rows.ensure(rows.arrays, f, k, N_LABELS, values, sums):
            # a full pool changes nothing, and only a new pair can need room
            assert (f, k) not in twin
            after = [*rows.arrays, values, sums]
            assert all(np.array_equal(a, b) for a, b in zip(before, after))
            continue
        _rows.add_pair(rows.arrays, f, k, float(v), values)
        twin[f, k] = twin.get((f, k), 0.0) + v
        assert rows.position_of(f, k) >= 0
    expected = np.zeros((N_FEATURES, N_LABELS))
    for (f, k), v in twin.items():
        expected[f, k] = v
    matrix = rows.matrix(values, N_LABELS)
    np.testing.assert_array_equal(matrix.toarray(), expected)
    assert rows.nnz == len(twin)  # a pair once, however often it was updated
    for f in range(N_FEATURES):  # rows sorted, inside their segments
        row = rows.labels[rows.start[f] : rows.start[f] + rows.length[f]]
        assert np.all(np.diff(row) > 0)
        assert rows.length[f] <= rows.capacity[f] <= N_LABELS
        assert rows.start[f] + rows.capacity[f] <= rows.used[0] or rows.capacity[f] == 0
    # compacting keeps every weight, and can leave out the zero ones
    compact, slots = rows.compacted()
    np.testing.assert_array_equal(compact.matrix(values[slots], N_LABELS).toarray(), expected)
    nonzero, slots = rows.compacted(keep=values != 0.0)
    assert nonzero.nnz == np.count_nonzero(expected)
    np.testing.assert_array_equal(nonzero.matrix(values[slots], N_LABELS).toarray(), expected)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_token_scores_match_the_dense_product(seed):
    rng = np.random.default_rng(seed)
    dense = rng.integers(-2, 3, (N_FEATURES, N_LABELS)) * (rng.random((N_FEATURES, N_LABELS)) < 0.4)
    indptr = np.zeros(N_FEATURES + 1, dtype=np.int64)
    np.cumsum((dense != 0).sum(axis=1), out=indptr[1:])
    rows = EmissionRows.from_csr(indptr, np.nonzero(dense)[1])
    values = dense[dense != 0].astype(float)
    token = rng.choice(N_FEATURES, 3, replace=False).astype(np.int32)
    data = rng.normal(size=3)
    out = np.zeros(N_LABELS)
    _rows.add_token_scores(rows.arrays, np.array([0, 3]), token, data, 0, values, out)
    np.testing.assert_allclose(out, data @ dense[token])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.booleans(), st.booleans())
def test_unary_scores_equal_adding_to_a_zero_row(seed, full_first, binary):
    """chain.unary_scores overwrites whatever its buffer held: the values of
    add_token_scores on a zero row, bit for bit, for stored and for binary values
    (binary data is empty and reads as ones)."""
    rng = np.random.default_rng(seed)
    dense = rng.normal(size=(N_FEATURES, N_LABELS)) * (rng.random((N_FEATURES, N_LABELS)) < 0.5)
    token = rng.choice(N_FEATURES, 3, replace=False).astype(np.int32)
    if full_first:
        dense[token[0]] = rng.normal(size=N_LABELS)
    indptr = np.zeros(N_FEATURES + 1, dtype=np.int64)
    np.cumsum((dense != 0).sum(axis=1), out=indptr[1:])
    rows = EmissionRows.from_csr(indptr, np.nonzero(dense)[1])
    values = dense[dense != 0]
    data = np.empty(0) if binary else rng.normal(size=3)
    added, scored = np.zeros(N_LABELS), np.full((1, N_LABELS), np.nan)
    _rows.add_token_scores(rows.arrays, np.array([0, 3]), token, data, 0, values, added)
    _chain.unary_scores(np.array([0, 3]), token, data, 0, 1, rows.arrays, values, scored)
    np.testing.assert_array_equal(scored[0], added)
    expected = (np.ones(3) if binary else data) @ dense[token]
    np.testing.assert_allclose(scored[0], expected)


_PAIRS = st.lists(
    st.tuples(st.integers(0, N_FEATURES - 1), st.integers(0, N_LABELS - 1), st.integers(-3, 3)),
    max_size=30,
)


@settings(max_examples=80, deadline=None)
@given(_PAIRS, _PAIRS)
def test_merged_pairs_match_a_dict(held, changes):
    """merged_pairs keeps the pairs held, sets the pairs changed (held or new), and
    lays the rows out compact and sorted, from rows with holes and free room."""
    rows = EmissionRows.empty(N_FEATURES, pool_size=4 * N_FEATURES * N_LABELS)
    values, sums = np.zeros(rows.pool_size), np.zeros(rows.pool_size)
    twin = {}
    for f, k, v in held:  # rows that moved and left holes behind
        assert _rows.ensure(rows.arrays, f, k, N_LABELS, values, sums)
        _rows.add_pair(rows.arrays, f, k, float(v), values)
        _rows.add_pair(rows.arrays, f, k, 2.0 * v, sums)
        twin[f, k] = (twin.get((f, k), (0.0, 0.0))[0] + v, twin.get((f, k), (0.0, 0.0))[1] + 2 * v)
    last = {(f, k): float(v) for f, k, v in changes}
    codes = np.array(sorted(f * N_LABELS + k for f, k in last), dtype=np.int64)
    new = np.array([last[divmod(int(c), N_LABELS)] for c in codes])
    # read-only, as the library passes them (LinearChain.with_change): the same compile
    start, length, labels, merged, merged_sums = _rows.merged_pairs(
        *read_only((rows.arrays, values, sums, codes, new, -new)), N_LABELS
    )
    for (f, k), v in last.items():
        twin[f, k] = (v, -v)
    got = {}
    for f in range(N_FEATURES):
        row = labels[start[f] : start[f] + length[f]]
        assert np.all(np.diff(row) > 0)
        for p in range(start[f], start[f] + length[f]):
            got[f, int(labels[p])] = (merged[p], merged_sums[p])
    assert got == twin
    assert start[0] == 0 and np.array_equal(start[1:], np.cumsum(length)[:-1])
    assert labels.size == len(twin)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-(2**40), 2**40), max_size=50))
def test_sorted_unique_is_np_unique(values):
    from skstruct.utils.arrays import sorted_unique

    values = np.array(values, dtype=np.int64)
    np.testing.assert_array_equal(sorted_unique(values), np.unique(values))


def test_rows_are_full_only_when_every_row_holds_every_label():
    """``is_full`` chooses the perceptron epoch's path that looks up and inserts no pair
    (``sparse=None``): it must hold only where every pair has its slot ``start[f] + k``."""
    full = EmissionRows.full(N_FEATURES, N_LABELS)
    assert full.is_full(N_LABELS)
    assert all(
        _rows.slot.py_func(full.arrays, f, k) == full.start[f] + k
        for f in range(N_FEATURES)
        for k in range(N_LABELS)
    )
    assert not full.is_full(N_LABELS + 1)
    assert not EmissionRows.empty(N_FEATURES, pool_size=64).is_full(N_LABELS)
    # compacted to the pairs of nonzero weight, as a fitted model keeps them
    keep = np.ones(full.pool_size, dtype=bool)
    keep[3] = False
    assert not full.compacted(keep=keep)[0].is_full(N_LABELS)
    # the epochs' flag follows it: None (no pair code compiled) only for full rows
    assert full.sparse_flag(N_LABELS) is None
    assert full.sparse_flag(N_LABELS + 1) is TRUE
    assert full.compacted(keep=keep)[0].sparse_flag(N_LABELS) is TRUE
