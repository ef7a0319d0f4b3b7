"""CandidateSets: each example a set of explicit candidates, the output one of them
(reranking, as in Collins' slides: the parses of an n-best list)."""

from typing import NamedTuple

import numpy as np

from ..utils.arrays import sparse_sum
from ._base import Structure
from ._fixed import FixedLayout


class CandidateSets(FixedLayout, Structure):
    """The output space of reranking: example ``i`` has ``k_i`` candidates, each a
    feature vector (a row of the encoded examples: candidate ``c`` of example ``i`` is
    row ``offsets[i] + c``) with a given loss, and an output is the index of one
    candidate (one output id per example).

    ``phi(x_i, c)`` is candidate ``c``'s row, so ``w`` is one weight per feature and a
    candidate scores ``w . phi(x_i, c)``; a part is a whole candidate. The loss of
    ``c`` is its given loss less the gold (the best) candidate's, so that the gold one
    costs 0 and the structured SVM's hinge is never negative. The losses travel with
    the encoded examples (``encoded.losses``, one per row: an
    :class:`~skstruct.tasks.reranking.EncodedCandidates`).

    Exact marginals are a softmax over the candidates: every learner of the library
    trains it (the CRF is then a maximum-entropy reranker, EG's dual a distribution
    over each example's candidates, as in the slides' parse-reranking experiment).

    Parameters
    ----------
    n_features : int
        Feature columns: the weight vector's size.

    Examples
    --------
    >>> import numpy as np
    >>> from skstruct.tasks.reranking import EncodedCandidates
    >>> encoded = EncodedCandidates(  # one example, candidates {0: 1.0} and {1: 1.0}
    ...     np.array([0, 1, 2]), np.array([0, 1], np.int32), np.empty(0), np.array([0, 2]),
    ...     2, np.array([0.0, 3.0]))
    >>> structure = CandidateSets(2)
    >>> scores = structure.scores(encoded, 0, np.array([0.5, 1.0]))
    >>> scores.values.tolist(), structure.loss(encoded, 0, np.array([0]), np.array([1]))
    ([0.5, 1.0], 3.0)
    >>> structure.augment(scores, np.array([0])).values.tolist()
    [0.5, 4.0]
    """

    has_marginals = True
    has_expected_delta = True

    def __init__(self, n_features):
        self.n_features = n_features

    @property
    def n_weights(self):
        return self.n_features

    def output_offsets(self, encoded):
        """One output per example: the index of its chosen candidate."""
        return np.arange(encoded.n_sentences + 1, dtype=np.int64)

    @staticmethod
    def _rows(encoded, i):
        return int(encoded.offsets[i]), int(encoded.offsets[i + 1])

    def _row_entries(self, encoded, i):
        """``(candidate of each entry, feature ids, values)`` of example ``i``'s rows."""
        lo, hi = self._rows(encoded, i)
        first, last = int(encoded.indptr[lo]), int(encoded.indptr[hi])
        rows = np.repeat(np.arange(hi - lo), np.diff(encoded.indptr[lo : hi + 1]))
        values = encoded.data[first:last] if encoded.data.size else np.ones(last - first)
        return rows, encoded.indices[first:last].astype(np.int64), values

    def scores(self, encoded, i, coef):
        """Every candidate's score ``w . phi`` and its loss: a :class:`CandidateScores`."""
        lo, hi = self._rows(encoded, i)
        rows, features, values = self._row_entries(encoded, i)
        scores = np.bincount(rows, weights=coef[features] * values, minlength=hi - lo)
        return CandidateScores(scores, _relative(encoded.losses[lo:hi]))

    def score(self, scores, output):
        """The score of the chosen candidate (``output``: its index, an array of one)."""
        return float(scores.values[int(output[0])])

    path_score = score

    def margin(self, scores, gold, mixed, a=None, b=None):
        """``w . phi(gold) - w . phi(mixed)``."""
        return self.score(scores, gold) - self.score(scores, mixed)

    def loss(self, encoded, i, gold, output):
        """The chosen candidate's loss less the gold one's (a float)."""
        lo, _ = self._rows(encoded, i)
        losses = encoded.losses
        return float(losses[lo + int(output[0])] - losses[lo + int(gold[0])])

    def augment(self, scores, gold, loss_weight=1.0):
        """Every candidate's score plus ``loss_weight`` times its loss against ``gold``."""
        losses = scores.losses - scores.losses[int(gold[0])]
        return scores._replace(values=scores.values + loss_weight * losses)

    def n_choices(self, scores):
        """The candidates of the example."""
        return scores.values.shape[0]

    def marginals(self, scores):
        """``(log Z, mu)``: the softmax of the candidates' scores (``mu.values``), the
        losses carried along."""
        top = scores.values.max()
        shifted = np.exp(scores.values - top)
        total = shifted.sum()
        return float(top + np.log(total)), scores._replace(values=shifted / total)

    def expected_loss(self, mu, gold):
        """The loss expected under the candidate probabilities ``mu``."""
        return float(mu.values @ (mu.losses - mu.losses[int(gold[0])]))

    def delta(self, encoded, i, gold, pred):
        """``phi(gold) - phi(pred)``: the two rows' difference, keys ascending."""
        return self._weighted_rows(encoded, i, _indicator(encoded, i, gold, pred))

    def expected_delta(self, encoded, i, gold, mu):
        """``phi(gold) - sum_c mu_c phi(c)``."""
        weights = -mu.values.copy()
        weights[int(gold[0])] += 1.0
        return self._weighted_rows(encoded, i, weights)

    def _weighted_rows(self, encoded, i, weights):
        """``sum_c weights[c] phi(x_i, c)`` as a sparse vector."""
        rows, features, values = self._row_entries(encoded, i)
        return sparse_sum(features, weights[rows] * values)

    def add_delta(self, encoded, i, gold, pred, coef, scale):
        """``coef += scale * (phi(gold) - phi(pred))``."""
        keys, values = self.delta(encoded, i, gold, pred)
        coef[keys] += scale * values


class CandidateScores(NamedTuple):
    """Part scores of one candidate set: each candidate's score (``values``, (k,)) and
    its loss less the best one's (``losses``, (k,): data carried along, no potential;
    :attr:`constants` says so to code that does arithmetic on part scores)."""

    values: np.ndarray
    losses: np.ndarray

    #: Fields that are no part potentials (EG's step leaves them as they are).
    constants = ("losses",)


def _relative(losses):
    return losses - losses.min() if losses.size else losses


def _indicator(encoded, i, gold, pred):
    """+1 at the gold candidate, -1 at the predicted one (0 each when they agree)."""
    lo, hi = CandidateSets._rows(encoded, i)
    weights = np.zeros(hi - lo)
    weights[int(gold[0])] += 1.0
    weights[int(pred[0])] -= 1.0
    return weights
