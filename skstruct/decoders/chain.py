"""Exact decoding of linear chains."""

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator

from .._kernels import chain as _chain
from ..structures.chain import LinearChain
from ..utils._sklearn_compat import Interval


class Viterbi(BaseEstimator):
    """Exact decoding of a linear chain by the Viterbi algorithm.

    Pass it as the ``decoder`` of a learner; ``GridSearchCV`` reaches its parameters
    as ``decoder__order``.

    Parameters
    ----------
    order : {0, 1}, default=1
        Markov order of the chain. ``1`` scores label bigrams plus start and stop
        labels and decodes in O(n L^2); ``0`` has no transitions, so each token is
        labelled on its own (a multiclass perceptron per token) in O(n L).

    Notes
    -----
    Ties are broken towards the lowest label index, at every back-pointer and at
    the last token, so decoding is deterministic.

    References
    ----------
    A. Viterbi (1967). Error bounds for convolutional codes and an asymptotically
    optimum decoding algorithm. IEEE Trans. Information Theory 13(2).

    Examples
    --------
    >>> from skstruct import StructuredPerceptron, Viterbi
    >>> StructuredPerceptron(decoder=Viterbi(order=0))
    StructuredPerceptron(decoder=Viterbi(order=0))
    """

    _parameter_constraints: dict = {"order": [Interval(Integral, 0, 1, closed="both")]}

    def __init__(self, order=1):
        self.order = order

    def make_structure(self, n_features, n_labels):
        """The :class:`~skstruct.structures.LinearChain` this decoder searches."""
        self._validate_params()
        return LinearChain(n_features, n_labels, first_order=self.order == 1)


def viterbi(unary, transition, start=None, stop=None):
    """Find the highest-scoring label sequence of a first-order chain.

    Parameters
    ----------
    unary : array-like of shape (n_tokens, n_labels)
        Score of each label at each position.
    transition : array-like of shape (n_labels, n_labels)
        Score of moving from label ``prev`` (row) to label ``curr`` (column).
    start, stop : array-like of shape (n_labels,), default=None
        Scores of the first and the last label. ``None`` means zeros.

    Returns
    -------
    path : ndarray of shape (n_tokens,), dtype=int32
    score : float

    Examples
    --------
    >>> viterbi([[2.0, 0.0], [0.0, 1.0]], [[0.0, -5.0], [-5.0, 0.0]])[0]
    array([0, 0], dtype=int32)
    """
    unary = np.ascontiguousarray(unary, dtype=np.float64)
    if unary.ndim != 2 or unary.shape[0] == 0 or unary.shape[1] == 0:
        raise ValueError(f"unary must have shape (n_tokens >= 1, n_labels >= 1), got {unary.shape}")
    n_labels = unary.shape[1]
    transition = np.ascontiguousarray(transition, dtype=np.float64)
    if transition.shape != (n_labels, n_labels):
        raise ValueError(
            f"transition must have shape ({n_labels}, {n_labels}), got {transition.shape}"
        )
    start = np.zeros(n_labels) if start is None else np.ascontiguousarray(start, dtype=np.float64)
    stop = np.zeros(n_labels) if stop is None else np.ascontiguousarray(stop, dtype=np.float64)
    for name, arr in (("start", start), ("stop", stop)):
        if arr.shape != (n_labels,):
            raise ValueError(f"{name} must have shape ({n_labels},), got {arr.shape}")
    for name, arr in (
        ("unary", unary),
        ("transition", transition),
        ("start", start),
        ("stop", stop),
    ):
        if not np.isfinite(arr).all():
            raise ValueError(f"{name} contains NaN or infinite scores")
    path, score = _chain.viterbi(unary, transition, start, stop)
    return path, float(score)
