"""StructuredModel: what every skstruct learner shares besides its training algorithm.

The decoder (checked once, before any work on the data) chooses the structure and the
task; the task encodes ``X`` and ``y`` and turns output ids back into labels or heads.
A learner sets ``coef_`` in the weight layout of ``structure_``.
"""

from numbers import Integral

import numpy as np
from joblib import effective_n_jobs
from joblib.parallel import get_active_backend
from sklearn.base import BaseEstimator, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._kernels.threads import available_threads, numba_threads
from ..decoders import Viterbi
from ..utils.scorer_guard import refuse_sklearn_scorer
from ..utils.tags import sequence_tags
from ..utils.validation import (
    examples_from,
    is_lazy,
    sequence_chunks,
)
from ._confidence import ChainConfidenceMixin
from ._inspection import ChainInspectionMixin


class StructuredModel(ChainInspectionMixin, ChainConfidenceMixin, BaseEstimator):
    """A linear model over sequences or trees (see the learners that subclass it)."""

    #: Whether the learner can learn relation labels with heads.
    learns_relation_labels = True

    def check_decoder(self, relation_labels=False):
        """The decoder to learn with (a validated clone; ``Viterbi()`` for None),
        refused with a ValueError when it lacks a capability this learner needs.

        ``fit`` calls it before any work on the data, and so does the command line
        before reading files.

        Parameters
        ----------
        relation_labels : bool, default=False
            Also require that relation labels can be learnt (labelled parsing).

        Returns
        -------
        decoder : decoder object
        """
        decoder = Viterbi() if self.decoder is None else clone(self.decoder)
        decoder._validate_params()
        capabilities = decoder.capabilities
        needs = list(self._decoder_needs())
        if relation_labels:
            needs.append(
                ("relation_labels", "Relation labels in y need a decoder that predicts them")
            )
        for capability, need in needs:
            if not getattr(capabilities, capability):
                raise ValueError(f"{need}; {type(decoder).__name__} {decoder.lacking(capability)}.")
        if relation_labels and not self.learns_relation_labels:
            raise ValueError(
                f"{type(self).__name__} parses unlabelled trees: pass y as head lists, not "
                f"(head, deprel) pairs."
            )
        return decoder

    def check_examples(self, X, y, X_name="X", y_name="y"):
        """``X`` and ``y`` as lists, checked by the task of this learner's decoder
        (before any fitted state exists; errors name the example)."""
        decoder = Viterbi() if self.decoder is None else self.decoder
        return decoder.capabilities.task.check_examples(X, y, X_name, y_name)

    def _decoder_needs(self):
        """``(capability, why)`` pairs the decoder must meet (learners add theirs)."""
        return ()

    @property
    def task_(self):
        """What the fitted model predicts (:mod:`skstruct.tasks`), chosen by its decoder."""
        return self.decoder_.capabilities.task

    def _initialize(self, X, y, classes, rng, decoder=None):
        """Fresh fitted state for ``X``, ``y``; returns the encoded training data.
        ``decoder``: the one :meth:`check_decoder` returned, if called already."""
        self._resolve()
        self.__dict__.pop("temperature_", None)  # calibrated for the weights of a past fit
        self.decoder_ = self.check_decoder() if decoder is None else decoder
        encoded, outputs = self.task_.initialize(self, X, y, classes)
        self._rng = check_random_state(self.random_state) if rng is None else rng
        self.history_ = []
        return encoded, outputs

    def _discard_fit(self):
        """Forget everything ``fit`` set: after a hard interrupt the learner is unfitted."""
        for name in [n for n in vars(self) if n.endswith("_") and not n.startswith("__")]:
            delattr(self, name)
        for name in ("_weights", "_rng"):
            self.__dict__.pop(name, None)

    def _resolve(self):
        """Set the fitted components a learner derives from its parameters (hook)."""

    # -- prediction -----------------------------------------------------------------------

    def predict(self, X, fixed=None):
        """Label sequences for ``X``.

        Parameters
        ----------
        X : list of sequences, or a one-shot iterable of sequences
            A generator, an iterator or another iterable that is no collection is read
            :data:`~skstruct.utils.validation.CHUNK_SIZE` (4096) sequences at a time, each
            chunk encoded and decoded before the next is read: features of the whole
            input are never held at once.
        fixed : list, default=None
            Labels known in advance (sequence labelling): one entry per sequence of
            ``X``, None, a dict ``{position: label}``, or a list of one label or None
            per token. The best sequence that has them is returned (and keeps to the
            decoder's ``allowed``); a ValueError names an example that has no such
            sequence.

        Returns
        -------
        list of list
            One label list per sequence, labels as given in ``fit``.

        Raises
        ------
        skstruct.metrics.UnsupportedScorerError
            When called by a scikit-learn scorer of a :mod:`sklearn.metrics` function
            (``scoring="accuracy"``), which cannot score sequences.
        """
        refuse_sklearn_scorer()
        check_is_fitted(self, "coef_")
        _check_fixed_length(fixed, X)
        predicted = []
        for start, chunk, _ in sequence_chunks(X, task=self.task_):
            with examples_from(start):  # errors name examples by their index in X
                encoded = self.task_.encode_X(self, chunk)
                bounds = self.structure_.output_offsets(encoded)
                forced = self._fixed_labels(fixed, start, chunk)
                ids = self._predict_ids(encoded, self.coef_)
                if forced:
                    coef = self.structure_.constrain(self.coef_)
                    for i, known in forced.items():
                        scores = self._sentence_scores(encoded, coef, i, known)
                        path = self.decoder_.decode(self.structure_, scores)
                        if not self.structure_.path_score(scores, path) > -np.inf:
                            self._refuse_unreachable(i, known)
                        ids[bounds[i] : bounds[i + 1]] = path
            predicted.extend(self.task_.predicted(self, encoded, ids, bounds.tolist()))
        return predicted

    def predict_nbest(self, X, k=5, fixed=None):
        """The ``k`` best label sequences (or trees) of each sequence of ``X``, with
        their scores.

        Exact with ``Viterbi(order=1)`` (list Viterbi), ``Eisner()`` (k-best
        projective trees, Huang & Chiang 2005) and ``CKY()`` (k-best constituency trees
        of the pruned space, the same algorithm); with ``BeamSearch`` the best ``k`` (at
        most ``beam_size``) of its final beam. Every sequence returned keeps to the
        decoder's ``allowed`` and to ``fixed``; the first is :meth:`predict`'s.

        Parameters
        ----------
        X : list of sequences, or a one-shot iterable of sequences
        k : int, default=5
        fixed : list, default=None
            Labels known in advance, as for :meth:`predict`.

        Returns
        -------
        list of list of (list, float)
            Per sequence, up to ``k`` pairs ``(labels, score)``, best first (heads for a
            parser, a Tree for ``CKY``); fewer when fewer sequences are allowed (or the
            beam held fewer).

        Examples
        --------
        >>> from skstruct import StructuredPerceptron
        >>> X = [[{"w": "a"}, {"w": "b"}], [{"w": "b"}]]
        >>> model = StructuredPerceptron(random_state=0).fit(X, [["A", "B"], ["B"]])
        >>> [labels for labels, score in model.predict_nbest(X[:1], k=3)[0]]
        [['A', 'B'], ['B', 'B'], ['A', 'A']]
        """
        check_is_fitted(self, "coef_")
        self._needs_nbest("predict_nbest")
        if not (isinstance(k, Integral) and k >= 1):
            raise ValueError(f"k must be a positive integer, got {k!r}.")
        _check_fixed_length(fixed, X)
        found = []
        for start, chunk, _ in sequence_chunks(X, task=self.task_):
            with examples_from(start):
                encoded = self.task_.encode_X(self, chunk)
                forced = self._fixed_labels(fixed, start, chunk) or {}
                coef = self.structure_.constrain(self.coef_)
                for i in range(len(chunk)):
                    best = self._sentence_nbest(encoded, coef, i, forced.get(i), int(k))
                    found.append(self._candidates(encoded, i, best))
        return found

    def _candidates(self, encoded, i, best):
        """``(prediction, score)`` of each of sentence ``i``'s ``best`` outputs."""
        return [(self.task_.prediction(self, encoded, i, path), score) for path, score in best]

    def _fixed_labels(self, fixed, start, chunk):
        """``{i: (positions, label ids)}`` for the sequences of ``chunk`` (the one
        starting at ``start`` in ``X``) that ``fixed`` gives labels for."""
        if fixed is None:
            return {}
        self._needs_nbest("fixed=")
        if not hasattr(self.task_, "encode_fixed"):
            raise ValueError(
                f"fixed= fixes the labels of a sequence labeller's tokens; "
                f"{type(self.decoder_).__name__} does not label tokens."
            )
        forced = {}
        for i, sequence in enumerate(chunk):
            try:
                entry = fixed[start + i]
            except (IndexError, KeyError, TypeError):
                raise ValueError(
                    f"Example {i}: fixed must give an entry (None, a dict or a list) for "
                    f"every sequence of X; it has none for this one."
                ) from None
            known = self.task_.encode_fixed(self, entry, len(sequence), i)
            if known is not None:
                forced[i] = known
        return forced

    def _sentence_scores(self, encoded, coef, i, known):
        """The part scores of sentence ``i`` of ``encoded`` under ``coef`` (constrained
        already), with the labels ``known`` (or None) fixed."""
        scores = self.structure_.scores(encoded, i, coef)
        return scores if known is None else self.structure_.fix(scores, *known)

    def _sentence_nbest(self, encoded, coef, i, known, k):
        """The decoder's ``k`` best outputs of sentence ``i`` (see
        :meth:`_sentence_scores`); refuses a sentence no allowed output fits."""
        self._needs_nbest("predict_nbest")
        best = self.decoder_.nbest(self.structure_, self._sentence_scores(encoded, coef, i, known),
                                   k)  # fmt: skip
        if not best:
            self._refuse_unreachable(i, known)
        return best

    def _refuse_unreachable(self, i, known):
        constraints = self.structure_.constraints
        limits = [] if constraints is None else [constraints.description]
        limits += [] if known is None else ["the fixed labels"]
        lost = "" if self.decoder_.capabilities.exact else " (or the beam lost every one)"
        raise ValueError(f"Example {i}: no label sequence keeps to {' and '.join(limits)}{lost}.")

    def _needs_nbest(self, what):
        if not hasattr(self.decoder_, "nbest"):
            raise ValueError(
                f"{what} needs a chain decoder (Viterbi, BeamSearch, Greedy), Eisner or CKY; "
                f"{type(self.decoder_).__name__} has no n-best search."
            )

    def score(self, X, y):
        """Token accuracy of ``predict(X)`` against ``y``.

        A gold label never seen in training counts as an error (no model could
        predict it), as in :func:`~skstruct.metrics.token_accuracy` and
        ``skstruct evaluate``. For a parser: UAS, the heads alone.

        Parameters
        ----------
        X : list of sequences, or a one-shot iterable of sequences
            Read in chunks, as by :meth:`predict`.
        y : list of label sequences, or a one-shot iterable of them

        Returns
        -------
        score : float
        """
        check_is_fitted(self, "coef_")
        if not (is_lazy(X) or is_lazy(y)):
            X, y = self.task_.check_examples(X, y)
            return self._token_accuracy(self.encode(X, y), self.coef_)
        n_correct = n_tokens = 0
        for start, X_chunk, y_chunk in sequence_chunks(X, y, task=self.task_):
            with examples_from(start):
                encoded, outputs = self.encode(X_chunk, y_chunk)
            predicted = self._predict_ids(encoded, self.coef_)
            correct, total = self.task_.score(self.structure_, encoded, predicted, outputs)
            n_correct += correct
            n_tokens += total
        # the mean _token_accuracy takes: counts of 0/1 are exact, the division rounds once
        return n_correct / n_tokens

    def encode(self, X, y=None, *, names=("X", "y")):
        """``X`` (and ``y``) in the fitted encoding: what :meth:`run_epoch` and
        :meth:`score_encoded` take.

        Parameters
        ----------
        X : list of sequences
        y : list of label sequences or head lists, default=None
            Labels unseen in training get an id no prediction equals (they count as
            errors when scored).
        names : (str, str), default=("X", "y")
            The names errors give ``X`` and ``y`` (``"X_dev"``, ...).

        Returns
        -------
        (encoded X, outputs) or encoded X when ``y`` is None
        """
        if y is None:
            return self.task_.encode_X(self, X, names[0])
        return self.task_.encode(self, X, y, names)

    def score_encoded(self, data, coef=None):
        """Token accuracy (UAS for a parser) on encoded ``data`` (from :meth:`encode`),
        with ``coef`` (default: ``coef_``)."""
        return self._token_accuracy(data, self.coef_ if coef is None else coef)

    def _compile_prediction(self, encoded):
        """Decode one sentence of ``encoded`` with the fitted model, so that the first
        ``predict`` compiles nothing: a learner whose epochs decode through kernels of
        their own compiles prediction's kernel here, in ``fit`` (from numba's disk cache,
        it is loaded in milliseconds)."""
        if encoded.n_sentences:
            self._predict_ids(encoded.take(np.arange(1)), self.coef_)

    def _prediction_threads(self):
        return kernel_threads(getattr(self, "n_jobs", None))

    def _predict_ids(self, encoded, coef, structure=None):
        structure = self.structure_ if structure is None else structure
        with numba_threads(self._prediction_threads()):
            return self.decoder_.predict(structure, encoded, coef)

    def _token_accuracy(self, data, coef, structure=None):
        """Token accuracy of ``coef`` (laid out by ``structure``, default ``structure_``)."""
        encoded, outputs = data
        structure = self.structure_ if structure is None else structure
        predicted = self._predict_ids(encoded, coef, structure)
        correct, total = self.task_.score(structure, encoded, predicted, outputs)
        return correct / total

    def __sklearn_tags__(self):
        return sequence_tags(super().__sklearn_tags__())


def _check_fixed_length(fixed, X):
    """Refuse a ``fixed=`` that is no list, or whose length is not ``X``'s."""
    if fixed is None:
        return
    if not (hasattr(fixed, "__len__") and hasattr(fixed, "__getitem__")):
        raise TypeError(
            f"fixed must be a list with an entry (None, a dict or a list) per sequence of "
            f"X, got {type(fixed).__name__}."
        )
    if is_lazy(X) or not hasattr(X, "__len__"):
        return
    if len(fixed) != len(X):
        raise ValueError(
            f"fixed has {len(fixed)} entries for {len(X)} sequences of X: give one (None, "
            f"a dict or a list) per sequence."
        )


def kernel_threads(n_jobs):
    """Threads a learner's kernels run on, in training and prediction: ``n_jobs`` by
    joblib's conventions, except that ``None`` outside a :func:`joblib.parallel_config`
    context that sets ``n_jobs`` is every thread numba has (``NUMBA_NUM_THREADS``: every
    core, or a loky worker's share of them, which joblib sets), as scikit-learn's
    histogram gradient boosting takes every core. No result depends on it (tested for
    every learner), so the usual reason to default to one thread does not apply; on
    two cores the CRF's gradient takes 0.51x the time of one thread's (issue 33)."""
    if n_jobs is None and get_active_backend()[1] is None:
        return available_threads()
    return effective_n_jobs(n_jobs)
