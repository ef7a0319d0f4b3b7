"""Token feature values as the kernels read them."""

from ._config import helper


@helper
def feature_value(data, j):
    """The value of entry ``j`` of a token-feature CSR: ``data[j]``, or 1 when ``data``
    is empty (binary features store no values: see ``EncodedSequences.data``)."""
    return data[j] if data.shape[0] else 1.0
