"""Token types: features computed once per distinct token, rows stacked per token.

A corpus of a million tokens has some tens of thousands of distinct tokens (types).
:meth:`TokenFeatures.encode <skstruct.TokenFeatures.encode>` computes and encodes the
features of each type once, as small rows of a table, and builds every token's row by
concatenating table rows with array indexing: no Python object per token.
"""

from itertools import count

import numpy as np
import scipy.sparse as sp

from ..utils.arrays import concat_ranges
from ._encoded import EncodedSequences
from ._encoder import _densify

#: Tokens stacked per step of :func:`stack_rows`: bounds its temporary index arrays.
_STACK_CHUNK = 1 << 16


class _Invalid:
    """The key of every token that cannot be one (unhashable, or not a token at all)."""

    def __repr__(self):
        return "INVALID"


#: The one key of all the tokens :func:`type_ids` cannot hash: all invalid ones.
INVALID = _Invalid()


def type_ids(keys):
    """``(ids, distinct)``: the type id of every key (0, 1, ... in order of first
    occurrence) and the distinct keys, by C-level dict look-ups.

    A list key counts as the tuple of its items (a token may be a list of fields);
    a key that still cannot be hashed gets the key :data:`INVALID`.

    Examples
    --------
    >>> ids, distinct = type_ids(["the", "cat", ["the", "DT"], ("the", "DT"), {"x": 1}])
    >>> ids.tolist(), distinct
    ([0, 1, 2, 2, 3], ['the', 'cat', ('the', 'DT'), INVALID])
    """
    first = {}
    try:
        ids = np.fromiter(map(first.setdefault, keys, count()), np.int64, len(keys))
    except TypeError:  # a list token, or something unhashable: a Python pass over them all
        keys = list(map(_hashable, keys))
        first = {}
        ids = np.fromiter(map(first.setdefault, keys, count()), np.int64, len(keys))
    return _densify(ids, first), list(first)


def _hashable(key):
    if isinstance(key, list):
        key = tuple(key)
    try:
        hash(key)
    except TypeError:
        return INVALID
    return key


def stack_rows(table, slots, offsets, canonical):
    """Every token's row: the concatenation of table rows ``slots[t]``, in that order.

    Parameters
    ----------
    table : EncodedSequences
        The encoded rows of the types (one row per table row).
    slots : ndarray of shape (n_tokens, n_slots), dtype=int32 or intp
        Table row of each slot of each token (an empty row where a slot has nothing).
    offsets : ndarray of shape (n_sentences + 1,), dtype=int64
        Sentence offsets of the tokens.
    canonical : bool
        Sort each row's columns and add up repeated ones, as a hashed encoding does
        (:class:`~sklearn.feature_extraction.FeatureHasher` gives canonical rows, where
        colliding features add up); else rows keep the slots' order.

    Returns
    -------
    EncodedSequences

    Examples
    --------
    >>> table = EncodedSequences(
    ...     np.array([0, 0, 2, 3]), np.array([5, 1, 2], np.int32), np.ones(3), None, 8
    ... )
    >>> slots = np.array([[1, 2], [2, 0]])  # token 0: rows 1 then 2; token 1: row 2
    >>> X = stack_rows(table, slots, np.array([0, 2]), canonical=False)
    >>> X.indices.tolist(), X.indptr.tolist()
    ([5, 1, 2, 2], [0, 3, 4])
    """
    table_indptr = table.indptr
    row_nnz = np.diff(table_indptr)
    indptr = np.zeros(slots.shape[0] + 1, dtype=np.int64)
    for start in range(0, slots.shape[0], _STACK_CHUNK):  # small temporaries, as below
        stop = min(start + _STACK_CHUNK, slots.shape[0])
        indptr[start + 1 : stop + 1] = row_nnz[slots[start:stop]].sum(axis=1)
    np.cumsum(indptr, out=indptr)
    indices = np.empty(int(indptr[-1]), dtype=np.int32)
    binary = table.data.size == 0 < table.indices.size
    data = table.data if binary else np.empty(int(indptr[-1]), dtype=np.float64)
    # in steps of tokens, so that the per-entry index arrays stay small
    for start in range(0, slots.shape[0], _STACK_CHUNK):
        rows = slots[start : start + _STACK_CHUNK].ravel()
        entries = concat_ranges(table_indptr[rows], table_indptr[rows + 1])
        into = slice(indptr[start], indptr[min(start + _STACK_CHUNK, slots.shape[0])])
        indices[into] = table.indices[entries]
        if not binary:
            data[into] = table.data[entries]
    if canonical:
        return _canonical(indptr, indices, data, offsets, table.n_features)
    return EncodedSequences(indptr, indices, data, offsets, table.n_features)


def concatenate_rows(parts):
    """The rows of the EncodedSequences ``parts``, one after the other, as one sentence
    (see :meth:`EncodedSequences.concatenate`)."""
    both = EncodedSequences.concatenate(parts)
    return both._replace(offsets=np.array([0, both.indptr.size - 1], dtype=np.int64))


def _canonical(indptr, indices, data, offsets, n_features):
    """Rows with sorted columns, repeated columns added up, zeros dropped."""
    if data.size < indices.size:  # binary: the ones, to add up
        data = np.ones(indices.size)
    matrix = sp.csr_matrix((data, indices, indptr), shape=(indptr.size - 1, n_features))
    matrix.sum_duplicates()
    matrix.eliminate_zeros()
    return EncodedSequences(
        matrix.indptr.astype(np.int64),
        matrix.indices.astype(np.int32),
        EncodedSequences.compact_values(matrix.data.astype(np.float64)),
        offsets,
        n_features,
    )
