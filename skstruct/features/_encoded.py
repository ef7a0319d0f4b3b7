"""EncodedSequences: a corpus of token feature vectors as one CSR matrix plus sentence offsets."""

from typing import NamedTuple

import numpy as np

from ..utils.arrays import concat_ranges

#: The ``data`` of binary features, shared by all of them. Writable like every other
#: ``data`` (it has no element to write): numba compiles a kernel once for each
#: writable/read-only combination of its arguments, so a read-only one here compiled
#: every chain kernel twice in a process that meets binary and real-valued features.
_NO_VALUES = np.empty(0)


class EncodedSequences(NamedTuple):
    """Token feature vectors of a list of sentences, stacked.

    Token ``t`` has features ``indices[indptr[t]:indptr[t + 1]]`` with values
    ``data[...]``; sentence ``i`` is tokens ``offsets[i]:offsets[i + 1]``. This is the
    form every kernel takes (ragged data as flat arrays plus offsets).

    Attributes
    ----------
    indptr : ndarray of shape (n_tokens + 1,), dtype=int64
        Row pointers of the CSR matrix whose rows are tokens.
    indices : ndarray of shape (nnz,), dtype=int32
        Feature columns.
    data : ndarray of shape (nnz,) or (0,), dtype=float64
        Feature values; empty when every value is 1 (binary features, the common
        case: no 8 bytes an entry to keep). :attr:`values` has them either way.
    offsets : ndarray of shape (n_sentences + 1,), dtype=int64
        The first token of every sentence, then the number of tokens.
    n_features : int
        Number of feature columns.
    n_sentences : int
        ``len(offsets) - 1``.
    n_tokens : int
        ``offsets[-1]``.
    """

    indptr: np.ndarray  # int64 (n_tokens + 1,)
    indices: np.ndarray  # int32 (nnz,)
    data: np.ndarray  # float64 (nnz,), or (0,): every value is 1
    offsets: np.ndarray  # int64 (n_sentences + 1,)
    n_features: int

    @property
    def values(self):
        """The value of every entry, float64 (nnz,) (ones made up for binary data)."""
        if self.data.size == self.indices.size:
            return self.data
        return np.ones(self.indices.size)

    @staticmethod
    def compact_values(data):
        """``data`` as stored: empty when every value is 1 (see ``data``)."""
        return _NO_VALUES if np.all(data == 1.0) else data

    @staticmethod
    def concatenate(parts):
        """The sentences of the EncodedSequences ``parts``, one after the other
        (``n_features``: the last part's, which an encoder that learns makes the largest).

        Examples
        --------
        >>> a = EncodedSequences(np.array([0, 1]), np.array([3], np.int32), np.ones(1),
        ...                      np.array([0, 1]), 4)
        >>> b = EncodedSequences(np.array([0, 0, 2]), np.array([1, 5], np.int32),
        ...                      np.ones(2), np.array([0, 2]), 6)
        >>> both = EncodedSequences.concatenate([a, b])
        >>> both.indptr.tolist(), both.indices.tolist(), both.offsets.tolist(), both.n_features
        ([0, 1, 1, 3], [3, 1, 5], [0, 1, 3], 6)
        """
        nnz = np.cumsum([0] + [part.indptr[-1] for part in parts])
        tokens = np.cumsum([0] + [part.offsets[-1] for part in parts])
        indptr = np.concatenate([[0]] + [part.indptr[1:] + at for part, at in zip(parts, nnz)])
        offsets = np.concatenate([[0]] + [part.offsets[1:] + at for part, at in zip(parts, tokens)])
        binary = all(part.data.size < part.indices.size or part.indices.size == 0 for part in parts)
        data = _NO_VALUES if binary else np.concatenate([part.values for part in parts])
        return EncodedSequences(
            indptr.astype(np.int64),
            np.concatenate([part.indices for part in parts]).astype(np.int32, copy=False),
            EncodedSequences.compact_values(data.astype(np.float64, copy=False)),
            offsets.astype(np.int64),
            parts[-1].n_features,
        )

    @property
    def n_sentences(self):
        return self.offsets.shape[0] - 1

    @property
    def n_tokens(self):
        return int(self.offsets[-1])

    def with_columns(self, columns, n_features):
        """The same corpus in another column space: feature ``j`` becomes
        ``columns[j]`` (an int array, e.g. :meth:`TokenDictEncoder.merge`'s), of
        ``n_features`` columns; entries of a feature whose column is -1 (one the other
        space lacks, :meth:`TokenDictEncoder.columns_of`) are dropped. Entries keep
        their order within each token.

        Examples
        --------
        >>> X = EncodedSequences(np.array([0, 2, 3]), np.array([0, 1, 1], np.int32),
        ...                      np.array([2.0, 1.0, 1.0]), np.array([0, 2]), 2)
        >>> Y = X.with_columns(np.array([-1, 4]), 5)
        >>> Y.indptr.tolist(), Y.indices.tolist(), Y.data.size, Y.n_features
        ([0, 1, 2], [4, 4], 0, 5)
        """
        indices = np.asarray(columns).astype(np.int32)[self.indices]
        kept = indices >= 0
        if kept.all():
            return self._replace(indices=indices, n_features=int(n_features))
        kept_before = np.zeros(kept.size + 1, dtype=np.int64)  # entries kept before each
        np.cumsum(kept, out=kept_before[1:])
        indptr = kept_before[self.indptr]
        data = self.compact_values(self.data[kept]) if self.data.size else self.data
        return self._replace(
            indptr=indptr, indices=indices[kept], data=data, n_features=int(n_features)
        )

    def take(self, sentences):
        """The sub-corpus made of ``sentences`` (an index array), in that order."""
        sentences = np.asarray(sentences, dtype=np.int64)
        starts, stops = self.offsets[sentences], self.offsets[sentences + 1]
        tokens = concat_ranges(starts, stops)
        entries = concat_ranges(self.indptr[tokens], self.indptr[tokens + 1])
        indptr = np.zeros(tokens.size + 1, dtype=np.int64)
        np.cumsum(self.indptr[tokens + 1] - self.indptr[tokens], out=indptr[1:])
        offsets = np.zeros(sentences.size + 1, dtype=np.int64)
        np.cumsum(stops - starts, out=offsets[1:])
        data = self.data[entries] if self.data.size else self.data
        return EncodedSequences(indptr, self.indices[entries], data, offsets, self.n_features)
