"""EmissionRows: which (feature, label) pairs of a chain have a weight, and where."""

import numpy as np
import scipy.sparse as sp

from .._kernels import rows as _rows
from .._kernels._config import TRUE
from ..utils.arrays import concat_ranges, sorted_unique


class EmissionRows:
    """Sparse emission layout of a :class:`~skstruct.structures.LinearChain`.

    Row ``f`` lists, sorted, the labels feature ``f`` has a weight for; the weights
    themselves sit in the pool part of the chain's weight vector, at the same slots
    (see :mod:`skstruct._kernels.rows`). A fitted model's rows are compact (rows back
    to back, no free slots); training rows keep free room and grow as updates touch
    new pairs.

    Parameters
    ----------
    start : ndarray of int64 (n_features,)
    length, capacity : ndarray of int32 (n_features,)
    labels : ndarray of int32 (pool_size,)
    used : ndarray of int64 (1,)
        Pool slots taken (by rows or by the holes rows left when they moved).
    """

    def __init__(self, start, length, capacity, labels, used):
        self.start = start
        self.length = length
        self.capacity = capacity
        self.labels = labels
        self.used = used

    @classmethod
    def empty(cls, n_features, pool_size=0):
        """No pairs yet, ``pool_size`` free slots."""
        return cls(
            np.zeros(n_features, dtype=np.int64),
            np.zeros(n_features, dtype=np.int32),
            np.zeros(n_features, dtype=np.int32),
            np.zeros(pool_size, dtype=np.int32),
            np.zeros(1, dtype=np.int64),
        )

    @classmethod
    def from_csr(cls, indptr, labels):
        """Compact rows holding ``labels[indptr[f]:indptr[f + 1]]`` (sorted) for feature ``f``."""
        indptr = np.asarray(indptr, dtype=np.int64)
        length = np.diff(indptr).astype(np.int32)
        labels = np.ascontiguousarray(labels, dtype=np.int32)
        return cls(indptr[:-1].copy(), length, length.copy(), labels, np.array([labels.size]))

    @classmethod
    def full(cls, n_features, n_labels):
        """Every (feature, label) pair, row-major: the layout of a dense weight matrix."""
        indptr = np.arange(n_features + 1, dtype=np.int64) * n_labels
        return cls.from_csr(indptr, np.tile(np.arange(n_labels, dtype=np.int32), n_features))

    @classmethod
    def seen(cls, encoded, labels, n_labels):
        """Compact rows of the pairs (feature, gold label) that occur in ``encoded``."""
        tokens = np.repeat(np.arange(encoded.n_tokens), np.diff(encoded.indptr))
        codes = sorted_unique(encoded.indices.astype(np.int64) * n_labels + labels[tokens])
        return cls.from_codes(codes, encoded.n_features, n_labels)

    @classmethod
    def from_codes(cls, codes, n_features, n_labels):
        """Compact rows of the pairs ``feature * n_labels + label`` in ``codes`` (sorted,
        distinct)."""
        features, labels = np.divmod(codes, n_labels)
        indptr = np.zeros(n_features + 1, dtype=np.int64)
        np.cumsum(np.bincount(features, minlength=n_features), out=indptr[1:])
        return cls.from_csr(indptr, labels)

    @property
    def arrays(self):
        """``(start, length, capacity, labels, used)``: what the kernels take."""
        return self.start, self.length, self.capacity, self.labels, self.used

    @property
    def n_features(self):
        return self.start.size

    @property
    def pool_size(self):
        return self.labels.size

    @property
    def nnz(self):
        """Pairs with a weight."""
        return int(self.length.sum(dtype=np.int64))

    def is_full(self, n_labels):
        """Whether every row holds all ``n_labels`` labels (sorted and distinct, so in
        order: label ``k`` of row ``f`` at pool slot ``start[f] + k``)."""
        return bool(np.all(self.length == n_labels))

    def sparse_flag(self, n_labels):
        """The chain epochs' ``sparse`` argument (``chain.perceptron_epoch``,
        ``bcfw.chain_epoch``): None where every row is full, so that the epoch is
        compiled without the code that searches for pairs and inserts them (learners
        start with full rows wherever ``dense_fits``); TRUE where a row may lack pairs."""
        return None if self.is_full(n_labels) else TRUE

    def live_slots(self):
        """Pool slots of every pair, row by row (the compact order)."""
        return concat_ranges(self.start, self.start + self.length)

    def indptr(self):
        """Row pointers of the compact layout."""
        indptr = np.zeros(self.n_features + 1, dtype=np.int64)
        np.cumsum(self.length, out=indptr[1:])
        return indptr

    def compacted(self, pool_size=None, keep=None):
        """``(rows, slots)``: rows back to back in a pool of ``pool_size`` slots (default:
        no free slot); the pair at new slot ``j`` was at old slot ``slots[j]``. ``keep``
        (bool, one per pool slot) leaves out the pairs it is False for."""
        slots = self.live_slots()
        length = self.length
        if keep is not None:
            kept = keep[slots]
            owner = np.repeat(np.arange(self.n_features), length)
            length = np.bincount(owner[kept], minlength=self.n_features).astype(np.int32)
            slots = slots[kept]
        indptr = np.zeros(self.n_features + 1, dtype=np.int64)
        np.cumsum(length, out=indptr[1:])
        pool_size = slots.size if pool_size is None else pool_size
        labels = np.zeros(pool_size, dtype=np.int32)
        labels[: slots.size] = self.labels[slots]
        rows = EmissionRows(
            indptr[:-1].copy(), length.copy(), length.copy(), labels, np.array([slots.size])
        )
        return rows, slots

    def with_n_features(self, n_features):
        """The same pairs, with empty rows for the features added by a grown vocabulary."""
        extra = n_features - self.n_features
        pad = lambda a, value=0: np.concatenate([a, np.full(extra, value, dtype=a.dtype)])  # noqa: E731
        return EmissionRows(
            pad(self.start, self.used[0]), pad(self.length), pad(self.capacity),
            self.labels.copy(), self.used.copy(),
        )  # fmt: skip

    def copy(self):
        return EmissionRows(*(a.copy() for a in self.arrays))

    def matrix(self, values, n_labels):
        """``values`` (one per pool slot) as a scipy CSR matrix (n_features, n_labels)."""
        slots = self.live_slots()
        return sp.csr_matrix(
            (values[slots], self.labels[slots], self.indptr()), shape=(self.n_features, n_labels)
        )

    def position_of(self, f, k):
        """Pool slot of the weight of (``f``, ``k``), or -1."""
        return int(_rows.slot(self.arrays, f, k))
