"""EncodedSequences: a corpus of token feature vectors as one CSR matrix plus sentence offsets."""

from typing import NamedTuple

import numpy as np


class EncodedSequences(NamedTuple):
    """Token feature vectors of a list of sentences, stacked.

    Token ``t`` has features ``indices[indptr[t]:indptr[t + 1]]`` with values
    ``data[...]``; sentence ``i`` is tokens ``offsets[i]:offsets[i + 1]``. This is the
    form every kernel takes (ragged data as flat arrays plus offsets).
    """

    indptr: np.ndarray  # int64 (n_tokens + 1,)
    indices: np.ndarray  # int32 (nnz,)
    data: np.ndarray  # float64 (nnz,)
    offsets: np.ndarray  # int64 (n_sentences + 1,)
    n_features: int

    @property
    def n_sentences(self):
        return self.offsets.shape[0] - 1

    @property
    def n_tokens(self):
        return int(self.offsets[-1])
