"""LinearChain: the output space of sequence labelling and its weight layout."""

from typing import NamedTuple

import numpy as np

from .._kernels import chain as _chain
from .._kernels import swvp as _swvp


class LinearChain:
    """A linear chain of order 0, 1 or 2 over ``n_labels`` labels and ``n_features`` features.

    Parts are (token feature, label) emissions; from order 1, label bigrams plus start
    and stop labels; at order 2, label trigrams too. The weights are one flat vector
    laid out as ``[emission (n_features, n_labels) | transition (n_labels, n_labels) |
    start | stop | trigram (n_labels ** 3), order 2 only]``; a zeroth-order chain keeps
    its transition, start and stop weights at zero.

    Parameters
    ----------
    n_features : int
    n_labels : int
    order : {0, 1, 2}
    """

    def __init__(self, n_features, n_labels, order=1):
        self.n_features = n_features
        self.n_labels = n_labels
        self.order = order

    @property
    def n_weights(self):
        return self.n_features * self.n_labels + _chain.n_structure_weights(
            self.n_labels, self.order
        )

    @property
    def n_states(self):
        """Equivalence classes of prefixes (their last ``order`` labels): exact beam width."""
        return self.n_labels**self.order

    def split(self, coef):
        """Views ``(emission, transition, start, stop, trigram)`` of a flat weight vector."""
        return _chain.split_coef(coef, self.n_labels, self.order)

    def with_n_features(self, n_features):
        """The same chain over a vocabulary grown to ``n_features``."""
        return LinearChain(n_features, self.n_labels, self.order)

    def resize(self, coef, target):
        """``coef`` moved into the layout of ``target`` (a grown chain); new rows are zero."""
        out = np.zeros(target.n_weights)
        n_old = self.n_features * self.n_labels
        out[:n_old] = coef[:n_old]
        out[target.n_features * self.n_labels :] = coef[n_old:]
        return out

    def scores(self, encoded, i, coef):
        """The part scores of sentence ``i`` under ``coef``: a :class:`ChainScores`
        (emission scores computed, the other parts views of ``coef``)."""
        lo, hi = encoded.offsets[i], encoded.offsets[i + 1]
        unary = np.empty((hi - lo, self.n_labels))
        emission, transition, start, stop, trigram = self.split(coef)
        _chain.unary_scores(encoded.indptr, encoded.indices, encoded.data, lo, hi, emission, unary)
        return ChainScores(unary, transition, start, stop, trigram)

    def margin(self, scores, gold, mixed, a, b):
        """``w . (phi(gold) - phi(mixed))`` for ``mixed`` equal to ``gold`` outside ``[a, b)``.

        Only the parts meeting ``[a, b)`` are summed, as the SWVP kernel does, so both
        paths round alike.
        """
        n = gold.shape[0]
        args = (scores.transition, scores.start, scores.stop, scores.trigram, self.order)
        return _swvp.window_score(scores.unary, gold, n, a, b, *args) - _swvp.window_score(
            scores.unary, mixed, n, a, b, *args
        )

    def add_delta(self, encoded, i, gold, pred, coef, scale):
        """coef += scale * (phi(gold) - phi(pred)) for sentence ``i``; ``pred`` may be a prefix.

        ``gold`` and ``pred`` are compared over ``len(pred)`` tokens; the stop part
        counts only when ``pred`` covers the whole sentence.
        """
        lo = encoded.offsets[i]
        n = encoded.offsets[i + 1] - lo
        _chain.add_chain_delta(
            encoded.indptr,
            encoded.indices,
            encoded.data,
            lo,
            gold,
            pred,
            pred.shape[0],
            self.order,
            pred.shape[0] == n,
            coef,
            self.n_labels,
            scale,
        )


class ChainScores(NamedTuple):
    """Part scores of one sentence: emissions ``unary`` (n, L) and the label bigram,
    start, stop and trigram weights (views of the weight vector)."""

    unary: np.ndarray
    transition: np.ndarray
    start: np.ndarray
    stop: np.ndarray
    trigram: np.ndarray
