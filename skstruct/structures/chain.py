"""LinearChain: the output space of sequence labelling and its weight layout."""

import numpy as np

from .._kernels import beam as _beam
from .._kernels import chain as _chain
from .._kernels import swvp as _swvp
from ._trace import SearchTrace

#: Batches of fewer sentences are decoded on one thread (see _kernels.chain).
PARALLEL_FROM = 64


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

    def predict(self, encoded, coef, beam_size=None):
        """Label ids (int32 (n_tokens,)): exact Viterbi, or beam search of ``beam_size``."""
        arrays = (encoded.indptr, encoded.indices, encoded.data, encoded.offsets, coef)
        parallel = encoded.n_sentences >= PARALLEL_FROM
        if beam_size is None:
            kernel = _chain.predict_batch if parallel else _chain.predict_batch_serial
            return kernel(*arrays, self.n_labels, self.order)
        kernel = _beam.beam_predict_batch if parallel else _beam.beam_predict_batch_serial
        return kernel(*arrays, self.n_labels, self.order, beam_size)

    def perceptron_epoch(self, encoded, labels, visit, weights):
        """One epoch of Collins' perceptron (exact search, full updates), fused in a kernel.

        Updates ``weights`` in place; returns ``(n_mistakes, n_tokens_correct)``.
        """
        weights.n_seen, n_mistakes, n_correct = _chain.perceptron_epoch(
            encoded.indptr,
            encoded.indices,
            encoded.data,
            encoded.offsets,
            labels,
            visit,
            weights.coef,
            weights.coef_sum,
            self.n_labels,
            self.order,
            weights.n_seen,
        )
        return n_mistakes, n_correct

    def unary(self, encoded, i, coef):
        """Emission scores (float64 (n_tokens_i, n_labels)) of sentence ``i``."""
        lo, hi = encoded.offsets[i], encoded.offsets[i + 1]
        out = np.empty((hi - lo, self.n_labels))
        emission = self.split(coef)[0]
        _chain.unary_scores(encoded.indptr, encoded.indices, encoded.data, lo, hi, emission, out)
        return out

    def argmax(self, unary, coef):
        """Exact best path (int32 (n,)) of one sentence's emission scores ``unary``."""
        _, transition, start, stop, trigram = self.split(coef)
        return _chain.argmax_path(unary, transition, start, stop, trigram, self.order)

    def margin(self, unary, coef, gold, mixed, a, b):
        """``w . (phi(gold) - phi(mixed))`` for ``mixed`` equal to ``gold`` outside ``[a, b)``.

        Only the parts meeting ``[a, b)`` are summed, as the SWVP kernel does, so both
        paths round alike.
        """
        _, transition, start, stop, trigram = self.split(coef)
        n = gold.shape[0]
        args = (transition, start, stop, trigram, self.order)
        return _swvp.window_score(unary, gold, n, a, b, *args) - _swvp.window_score(
            unary, mixed, n, a, b, *args
        )

    def search(self, unary, coef, beam_size, gold, laso=False):
        """Beam search of one sentence with gold tracking; returns a :class:`SearchTrace`."""
        _, transition, start, stop, trigram = self.split(coef)
        result = _beam.beam_search(
            unary,
            unary.shape[0],
            transition,
            start,
            stop,
            trigram,
            self.order,
            beam_size,
            gold,
            laso,
        )
        path, labels, parents, _, best, gold_score, in_beam, best_is_gold, fell_off = result
        return SearchTrace(path, labels, parents, best, gold_score, in_beam, best_is_gold, fell_off)

    def swvp_epoch(self, encoded, labels, visit, weights, options, counts):
        """One SWVP epoch with built-in options (int codes), fused in a kernel."""
        weights.n_seen = _swvp.swvp_epoch(
            encoded.indptr,
            encoded.indices,
            encoded.data,
            encoded.offsets,
            labels,
            visit,
            weights.coef,
            weights.coef_sum,
            self.n_labels,
            self.order,
            weights.n_seen,
            *options,
            counts,
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
