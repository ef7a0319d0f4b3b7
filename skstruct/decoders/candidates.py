"""BestCandidate: the decoder of candidate sets (reranking): the highest-scoring
candidate of each set."""

import numpy as np

from ..structures import OutputTrace
from ..structures.candidates import CandidateSets
from ..tasks.reranking import RERANKING
from ._base import Capabilities, Decoder


class BestCandidate(Decoder):
    """Pick the highest-scoring candidate of each example's explicit candidate set
    (reranking: each example a list of candidates, e.g. a parser's n-best list).

    Exact, with exact marginals (a softmax over the candidates), so every learner
    trains it: the perceptron is Collins' reranking perceptron, the CRF a
    maximum-entropy reranker, ``StructuredSVM`` (BCFW and EG) the slides' reranking
    SVM. SWVP refuses it: a candidate is one part, with nothing to mix.

    ``X`` is a list of examples, each a list of candidates (feature dicts, or a
    sparse matrix or array with a row per candidate); ``y`` gives, per example, the
    index of the gold candidate or the loss of every candidate (the gold one is the
    first of least loss). ``predict`` returns the chosen index of each example.
    Ties go to the first candidate.

    Examples
    --------
    >>> from skstruct import BestCandidate, StructuredPerceptron
    >>> X = [[{"good": 1.0}, {"bad": 1.0}], [{"bad": 1.0}, {"good": 1.0}, {"meh": 1.0}]]
    >>> model = StructuredPerceptron(BestCandidate(), random_state=0).fit(X, [0, 1])
    >>> model.predict([[{"bad": 1.0}, {"meh": 1.0}, {"good": 1.0}]])
    [2]
    >>> StructuredPerceptron(BestCandidate()).fit(X, [[0.0, 2.0], [1.0, 0.0, 0.5]]).score(X, [0, 1])
    1.0
    """

    _parameter_constraints: dict = {}

    @property
    def capabilities(self):
        return Capabilities(
            task=RERANKING,
            exact=True,
            marginals=True,
            prefix_trace=False,
            restarts=False,
            mixed_assignments=False,
            relation_labels=False,
            sparse_delta=True,
            loss_augmented=True,
        )

    def make_structure(self, n_features, n_labels=0):
        """The :class:`~skstruct.structures.CandidateSets` of ``n_features`` columns."""
        return CandidateSets(n_features)

    def decode(self, structure, scores):
        """The index of the best candidate (int32 (1,))."""
        return np.array([int(np.argmax(scores.values))], dtype=np.int32)

    def search(self, structure, scores, gold, restarts=False):
        """The best candidate, with its score and the gold one's (one step)."""
        best = self.decode(structure, scores)
        return OutputTrace.of(
            best, gold, structure.score(scores, best), structure.score(scores, gold)
        )

    def predict(self, structure, encoded, coef):
        """The best candidate of every example (int32 (n_examples,)): every row scored
        at once, the first best of each example's rows."""
        values = encoded.values * coef[encoded.indices]
        rows = np.repeat(np.arange(encoded.n_tokens), np.diff(encoded.indptr))
        scores = np.bincount(rows, weights=values, minlength=encoded.n_tokens)
        starts = encoded.offsets[:-1]
        best = np.maximum.reduceat(scores, starts) if starts.size else scores[:0]
        is_best = scores == np.repeat(best, np.diff(encoded.offsets))
        first = np.minimum.reduceat(np.where(is_best, np.arange(scores.size), scores.size),
                                    starts) if starts.size else starts  # fmt: skip
        return (first - starts).astype(np.int32)

    def lacking(self, capability):
        if capability == "mixed_assignments":
            return "chooses whole candidates, which do not mix position by position"
        return super().lacking(capability)
