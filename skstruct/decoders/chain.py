"""Decoders for linear chains: exact Viterbi, beam search and greedy search.

A decoder is a small estimator (so ``GridSearchCV`` reaches ``decoder__beam_size``)
that picks the structure (``make_structure``) and runs its algorithm on it
(``decode``, ``search``, ``predict``).
"""

from numbers import Integral

import numpy as np

from .._kernels import beam as _beam
from .._kernels import chain as _chain
from .._kernels import kbest as _kbest
from .._kernels.threads import current_threads
from ..structures import LinearChain, SearchTrace
from ..structures.constraints import ChainConstraints
from ..structures.emission_rows import EmissionRows
from ..tasks import SEQUENCE_LABELLING
from ..utils._sklearn_compat import Interval, StrOptions
from ..utils.parts import in_parts, longest_sentence
from ._base import Capabilities, Decoder

#: ``allowed``: a tagging scheme, or the allowed (label_from, label_to) pairs.
ALLOWED = [None, StrOptions({"bio", "bioes"}), set, frozenset, list, tuple]


#: Learners start with dense emission rows (every (feature, label) pair, as a weight
#: matrix) when there are at most this many labels and pairs: a dense row scores a
#: token in one vectorised loop and finds a pair's weight by an index, where sparse rows
#: search and scatter (CoNLL-2000, 22 labels: an epoch of the perceptron 0.16 s sparse
#: against 0.11 s dense); beyond them sparse rows keep memory to the pairs training
#: touches (Brown's 472 tags). Fitted models keep only their nonzero pairs either way.
DENSE_LABELS = 32
DENSE_PAIRS = 1 << 22


def dense_fits(n_features, n_labels):
    """Whether a chain learner starts with dense emission rows (see :data:`DENSE_PAIRS`).

    >>> dense_fits(50_000, 22), dense_fits(50_000, 45)
    (True, False)
    """
    return n_labels <= DENSE_LABELS and n_features * n_labels <= DENSE_PAIRS


class _ChainDecoder(Decoder):
    def make_structure(self, n_features, n_labels, labels=None):
        """The :class:`~skstruct.structures.LinearChain` this decoder searches, with the
        constraints of ``allowed`` resolved against the label names ``labels`` (in id
        order; needed when ``allowed`` is set)."""
        self._validate_params()
        allowed = getattr(self, "allowed", None)
        if allowed is not None and self.order == 0:
            raise ValueError(
                f"allowed={allowed!r} constrains transitions, which a chain of order 0 "
                f"does not have: use Viterbi(order=1) or order=2."
            )
        if allowed is not None and labels is None:
            raise ValueError("allowed needs the label names to resolve against.")
        constraints = None if allowed is None else ChainConstraints.from_allowed(allowed, labels)
        rows = EmissionRows.full(n_features, n_labels) if dense_fits(n_features, n_labels) else None
        return LinearChain(n_features, n_labels, self.order, rows, constraints)

    def _capabilities(self, exact):
        return Capabilities(
            task=SEQUENCE_LABELLING,
            exact=exact,
            marginals=exact and self.order == 1,
            prefix_trace=True,
            restarts=True,
            mixed_assignments=True,
            relation_labels=False,
            sparse_delta=True,
            loss_augmented=True,
        )

    def _beam_search(self, structure, scores, gold, beam_size, restarts):
        result = _beam.beam_search(scores.unary, scores.unary.shape[0], *scores[1:],
                                   structure.order, beam_size, gold, restarts)  # fmt: skip
        path, labels, parents, _, best, gold_score, in_beam, best_is_gold, fell_off = result
        return SearchTrace(
            path, gold, labels, parents, best, gold_score, in_beam, best_is_gold, fell_off
        )

    def _beam_predict(self, structure, encoded, coef, beam_size):
        structure.check_lengths(encoded)
        arrays = (encoded.indptr, encoded.indices, encoded.data, encoded.offsets,
                  structure.rows.arrays, structure.constrain(coef), structure.n_labels,
                  structure.order, structure.trigrams, beam_size)  # fmt: skip
        paths = np.empty(encoded.offsets[-1], dtype=np.int32)
        longest = longest_sentence(encoded.offsets)

        def decode(sentences):
            unary = np.empty((longest, structure.n_labels))
            _beam.beam_decode_sentences(*arrays, sentences, paths, unary)

        in_parts(decode, encoded.offsets, current_threads())
        return paths


class Viterbi(_ChainDecoder):
    """Exact decoding of a linear chain by dynamic programming (Viterbi).

    Pass it as the ``decoder`` of a learner; ``GridSearchCV`` reaches its parameters
    as ``decoder__order``.

    Parameters
    ----------
    order : {0, 1, 2}, default=1
        Markov order of the chain. ``1`` scores label bigrams plus start and stop
        labels and decodes in O(n L^2); ``2`` adds label trigrams, O(n L^3); ``0`` has
        no transitions, so each token is labelled on its own (a multiclass perceptron
        per token) in O(n L).
    allowed : {"bio", "bioes"}, set of (str, str) pairs or None, default=None
        The label sequences the search may return, in training (the outputs the
        updates compare with the gold) and in prediction. ``"bio"``: IOB2, ``I-X``
        only after ``B-X`` or ``I-X``; ``"bioes"`` (or BILOU): entities as
        ``B I* E`` or ``S``; or exactly the ``(label_from, label_to)`` transitions given.
        See :class:`~skstruct.structures.constraints.ChainConstraints`. Training data
        whose gold labels break the constraint is refused, naming the example.

    Notes
    -----
    Ties are broken towards the lowest label index, at every back-pointer and at
    the last token, so decoding is deterministic. ``search`` (what an update rule
    other than ``"standard"`` learns from) runs an exact beam, as wide as the
    ``L ** order`` label histories, to get the per-prefix trace the rule needs.

    References
    ----------
    A. Viterbi (1967). Error bounds for convolutional codes and an asymptotically
    optimum decoding algorithm. IEEE Trans. Information Theory 13(2).

    Examples
    --------
    >>> from skstruct import StructuredPerceptron, Viterbi
    >>> StructuredPerceptron(decoder=Viterbi(order=2))
    StructuredPerceptron(decoder=Viterbi(order=2))
    """

    _parameter_constraints: dict = {
        "order": [Interval(Integral, 0, 2, closed="both")],
        "allowed": ALLOWED,
    }

    def __init__(self, order=1, allowed=None):
        self.order = order
        self.allowed = allowed

    @property
    def capabilities(self):
        return self._capabilities(exact=True)

    def decode(self, structure, scores):
        """The best label path (int32 (n,)), ties to the lowest label."""
        return _chain.argmax_path(*scores, structure.order)

    def search(self, structure, scores, gold, restarts=False):
        """An exact beam search (``L ** order`` wide) tracing the gold prefixes."""
        return self._beam_search(structure, scores, gold, structure.n_states, restarts)

    def nbest(self, structure, scores, k):
        """The ``k`` best label paths with their scores, best first (exact list
        Viterbi; first order only): ``[(path int32 (n,), score), ...]``, fewer when
        fewer have a score above ``-inf``. The first is :meth:`decode`'s path."""
        if structure.order != 1:
            advice = (
                "BeamSearch(order=2, beam_size=...) gives the beam's best"
                if structure.order == 2
                else "order 0 labels each token on its own"
            )
            raise ValueError(
                f"The exact n best need a first-order chain (Viterbi(order=1)), not order "
                f"{structure.order}; {advice}."
            )  # fmt: skip
        paths, totals = _kbest.kbest_paths(scores.unary, scores.transition, scores.start,
                                           scores.stop, k)  # fmt: skip
        return list(zip(paths, totals.tolist()))

    def predict(self, structure, encoded, coef):
        structure.check_lengths(encoded)
        # the arguments' types are those of the perceptron's epoch, which decodes
        # through the same kernel: after a fit, predicting compiles nothing
        arrays = (encoded.indptr, encoded.indices, encoded.data, encoded.offsets,
                  structure.rows.arrays, structure.constrain(coef), structure.n_labels,
                  structure.order, structure.trigrams)  # fmt: skip
        paths = np.empty(encoded.offsets[-1], dtype=np.int32)
        longest, n_labels = longest_sentence(encoded.offsets), structure.n_labels

        def decode(sentences):
            backptr2 = None
            if structure.trigrams:
                backptr2 = np.empty((longest, n_labels, n_labels), dtype=np.int32)
            _chain.decode_sentences(*arrays, sentences, paths, np.empty((longest, n_labels)),
                                    np.empty((longest, n_labels), dtype=np.int32),
                                    backptr2)  # fmt: skip

        in_parts(decode, encoded.offsets, current_threads())
        return paths


class BeamSearch(_ChainDecoder):
    """Left-to-right beam search over a linear chain (Huang, Fayong & Guo 2012, Alg. 7).

    At each token, every hypothesis in the beam is extended by every label; of the
    extensions that agree on their last ``order`` labels only the best is kept
    (dynamic-programming merging, sec. 4.2), and the ``beam_size`` best survive.
    With ``beam_size >= n_labels ** order`` the search is exact.

    Parameters
    ----------
    beam_size : int, default=4
        Hypotheses kept per token; ``1`` is greedy search.
    order : {1, 2}, default=1
        Markov order of the chain (see :class:`Viterbi`).
    allowed : {"bio", "bioes"}, set of (str, str) pairs or None, default=None
        The label sequences the search may return (see :class:`Viterbi`).

    Notes
    -----
    Cost O(n * beam_size * L) per sentence plus selection, against Viterbi's O(n L^2)
    (order 1) or O(n L^3) (order 2). Train it with a violation-fixing update
    (``update="max_violation"`` or ``"early"``): the standard update can be invalid
    under inexact search and need not converge (sec. 3.2).

    Examples
    --------
    >>> from skstruct import BeamSearch, StructuredPerceptron
    >>> StructuredPerceptron(decoder=BeamSearch(beam_size=4, order=2), update="max_violation")
    StructuredPerceptron(decoder=BeamSearch(order=2), update='max_violation')
    """

    _parameter_constraints: dict = {
        "beam_size": [Interval(Integral, 1, None, closed="left")],
        "order": [Interval(Integral, 1, 2, closed="both")],
        "allowed": ALLOWED,
    }

    def __init__(self, beam_size=4, order=1, allowed=None):
        self.beam_size = beam_size
        self.order = order
        self.allowed = allowed

    @property
    def capabilities(self):
        return self._capabilities(exact=False)

    def decode(self, structure, scores):
        """The best label path (int32 (n,)) the beam keeps."""
        return self.search(structure, scores, _NO_GOLD).path

    def search(self, structure, scores, gold, restarts=False):
        """Beam search of ``beam_size`` tracing the gold prefixes."""
        return self._beam_search(structure, scores, gold, self.beam_size, restarts)

    def nbest(self, structure, scores, k):
        """The best ``k`` (at most ``beam_size``) label paths left in the final beam
        with their scores, best first: ``[(path int32 (n,), score), ...]``. Not the
        exact ``k`` best: the beam dropped the others on the way. The first is
        :meth:`decode`'s path."""
        trace = self.search(structure, scores, _NO_GOLD)
        n = scores.unary.shape[0]
        found = []
        for slot in range(min(k, self.beam_size)):
            if trace.labels[n - 1, slot] < 0:  # the beam held fewer items
                break
            path = np.empty(n, dtype=np.int32)
            _beam.backtrack(trace.labels, trace.parents, n - 1, slot, path)
            score = structure.path_score(scores, path)
            if score > -np.inf:
                found.append((path, score))
        return found

    def predict(self, structure, encoded, coef):
        return self._beam_predict(structure, encoded, coef, self.beam_size)


class Greedy(BeamSearch):
    """Greedy left-to-right search: :class:`BeamSearch` with ``beam_size=1`` (Alg. 4).

    Parameters
    ----------
    order : {1, 2}, default=1
        Markov order of the chain.
    allowed : {"bio", "bioes"}, set of (str, str) pairs or None, default=None
        The label sequences the search may return (see :class:`Viterbi`).

    Examples
    --------
    >>> from skstruct import Greedy, StructuredPerceptron
    >>> StructuredPerceptron(decoder=Greedy(), update="early")
    StructuredPerceptron(decoder=Greedy(), update='early')
    """

    #: Always one hypothesis.
    beam_size = 1
    _parameter_constraints: dict = {
        "order": [Interval(Integral, 1, 2, closed="both")],
        "allowed": ALLOWED,
    }

    def __init__(self, order=1, allowed=None):
        self.order = order
        self.allowed = allowed


_NO_GOLD = np.zeros(0, dtype=np.int32)


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
