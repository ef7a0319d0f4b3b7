"""LinearChain: the output space of sequence labelling and its weight layout."""

import numpy as np

from .._kernels import chain as _chain


class LinearChain:
    """A linear chain over ``n_labels`` labels with ``n_features`` token features.

    Parts are (token feature, label) emissions and, for a first-order chain,
    label bigrams plus start and stop labels. The weights are one flat vector laid out
    as ``[emission (n_features, n_labels) | transition (n_labels, n_labels) | start |
    stop]``; a zeroth-order chain keeps the transition block at zero.

    Parameters
    ----------
    n_features : int
    n_labels : int
    first_order : bool
        Whether label bigrams, start and stop labels are parts.
    """

    def __init__(self, n_features, n_labels, first_order=True):
        self.n_features = n_features
        self.n_labels = n_labels
        self.first_order = first_order

    @property
    def n_weights(self):
        return self.n_features * self.n_labels + self.n_labels * (self.n_labels + 2)

    def split(self, coef):
        """Views ``(emission, transition, start, stop)`` of a flat weight vector."""
        return _chain.split_coef(coef, self.n_labels)

    def with_n_features(self, n_features):
        """The same chain over a vocabulary grown to ``n_features``."""
        return LinearChain(n_features, self.n_labels, self.first_order)

    def resize(self, coef, target):
        """``coef`` moved into the layout of ``target`` (a grown chain); new rows are zero."""
        out = np.zeros(target.n_weights)
        n_old = self.n_features * self.n_labels
        out[:n_old] = coef[:n_old]
        out[target.n_features * self.n_labels :] = coef[n_old:]
        return out

    def predict(self, encoded, coef):
        """Label ids (int32 (n_tokens,)) of every sentence of ``encoded``."""
        return _chain.predict_batch(
            encoded.indptr,
            encoded.indices,
            encoded.data,
            encoded.offsets,
            coef,
            self.n_labels,
            self.first_order,
        )

    def perceptron_epoch(self, encoded, labels, order, weights):
        """One epoch of Collins' perceptron over ``order``; updates ``weights`` in place.

        Returns ``(n_mistakes, n_tokens_correct)``.
        """
        weights.n_seen, n_mistakes, n_correct = _chain.perceptron_epoch(
            encoded.indptr,
            encoded.indices,
            encoded.data,
            encoded.offsets,
            labels,
            order,
            weights.coef,
            weights.coef_sum,
            self.n_labels,
            self.first_order,
            weights.n_seen,
        )
        return n_mistakes, n_correct
