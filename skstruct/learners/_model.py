"""StructuredModel: what every skstruct learner shares besides its training algorithm.

Featurization and encoding of sequences and trees, label and head encoding with
errors that name the example, ``predict`` and ``score``. A learner sets
``coef_`` in the weight layout of ``structure_``.
"""

from itertools import chain

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ..decoders.chain import Viterbi
from ..features._encoder import TokenDictEncoder
from ..features.arc import ArcFeatures
from ..metrics._scorer_guard import refuse_sklearn_scorer
from ..utils.tags import sequence_tags
from ..utils.validation import (
    _locate,
    check_sequences,
    check_sequences_and_labels,
    flat_labels,
)
from ._parsing import check_heads, check_training_trees, split_trees


class StructuredModel(BaseEstimator):
    """A linear model over sequences or trees (see the learners that subclass it)."""

    def _initialize(self, X, y, classes, rng):
        """Fresh fitted state for ``X``, ``y``; returns the encoded training data."""
        self._resolve()
        self.decoder_ = Viterbi() if self.decoder is None else clone(self.decoder)
        self.decoder_._validate_params()  # before any work on the data
        if _parses(self.decoder_):
            return self._initialize_parser(X, y, rng)
        if isinstance(self.features, ArcFeatures):
            raise ValueError(
                f"features=ArcFeatures() builds parser features, but the decoder "
                f"{self.decoder_!r} labels sequences: use Eisner() or ChuLiuEdmonds()."
            )
        self.features_ = None if self.features is None else clone(self.features).fit(X)
        labels_flat = flat_labels(y)
        if classes is None:
            self.classes_ = np.unique(np.asarray(labels_flat))
        else:
            self.classes_ = np.unique(np.asarray(flat_labels([list(classes)], name="classes")))
        self.encoder_ = TokenDictEncoder(self.n_features)
        encoded = self.encoder_.fit_transform(self._token_dicts(X))
        self.structure_ = self.decoder_.make_structure(encoded.n_features, self.classes_.size)
        self._rng = check_random_state(self.random_state) if rng is None else rng
        self.history_ = []
        return encoded, self._encode_y(y)

    def _initialize_parser(self, X, y, rng):
        """``_initialize`` for a tree decoder: ArcFeatures, output ids, an ArcFactoredTree."""
        features = ArcFeatures() if self.features is None else clone(self.features)
        if not isinstance(features, ArcFeatures):
            raise ValueError(
                f"{type(self.decoder_).__name__} parses, so features must be an ArcFeatures "
                f"(or None for the default), not {features!r}."
            )
        if self.n_features is not None:
            features.set_params(n_features=self.n_features)
        self.features_ = None
        heads, deprels = split_trees(y)
        if deprels is not None:
            self.classes_ = np.unique(np.asarray(flat_labels(deprels, name="deprels")))
        else:
            self.__dict__.pop("classes_", None)
        self.encoder_ = features
        encoded = self.encoder_.fit_transform(X)
        self.decoder_.check_lengths(encoded)
        self.structure_ = self.decoder_.make_structure(
            encoded.n_features, 0 if deprels is None else self.classes_.size
        )
        outputs = self._training_outputs(heads, deprels)
        self._rng = check_random_state(self.random_state) if rng is None else rng
        self.history_ = []
        return encoded, outputs

    def _training_outputs(self, heads, deprels):
        """Gold output ids to learn from: trees (checked first), as the decoder can take
        them (one root word, projective, or lifted)."""
        check_heads(heads)
        lifted = check_training_trees(heads, self.decoder_)
        flat_heads = np.fromiter(chain.from_iterable(lifted), dtype=np.int32)
        return self._parser_outputs(flat_heads, deprels, name="y", strict=True)

    def _parser_outputs(self, flat_heads, deprels, name, strict):
        """Output ids of checked heads (flat) and their labels (unseen labels raise when
        ``strict``, else count as label 0: attachment scores only read the heads)."""
        if not self.structure_.n_labels:
            return self.structure_.encode(flat_heads)
        if deprels is None:
            if strict:
                raise ValueError(f"The parser was trained with labels: {name} needs them too.")
            return self.structure_.encode(flat_heads, np.zeros_like(flat_heads))
        index = {label: k for k, label in enumerate(self.classes_.tolist())}
        labels = []
        for i, sentence in enumerate(deprels):
            for j, label in enumerate(sentence):
                if label not in index and strict:
                    raise ValueError(
                        f"{name}[{i}][{j}]: relation {label!r} was not seen in training."
                    )
                labels.append(index.get(label, 0))
        return self.structure_.encode(flat_heads, labels)

    def _discard_fit(self):
        """Forget everything ``fit`` set: after a hard interrupt the learner is unfitted."""
        for name in [n for n in vars(self) if n.endswith("_") and not n.startswith("__")]:
            delattr(self, name)
        for name in ("_weights", "_rng"):
            self.__dict__.pop(name, None)

    def _resolve(self):
        """Set the fitted components a learner derives from its parameters (hook)."""

    # -- prediction -----------------------------------------------------------------------

    def predict(self, X):
        """Label sequences for ``X``.

        Parameters
        ----------
        X : list of sequences

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
        X = check_sequences(X)
        encoded = self._encode_X(X)
        ids = self._predict_ids(encoded, self.coef_)
        if _parses(self.decoder_):
            labels = self._parser_predictions(ids)
        else:
            labels = self.classes_[ids].tolist()
        bounds = encoded.offsets.tolist()
        return [labels[bounds[i] : bounds[i + 1]] for i in range(len(X))]

    def score(self, X, y):
        """Token accuracy of ``predict(X)`` against ``y``.

        A gold label never seen in training counts as an error (no model could
        predict it), as in :func:`~skstruct.metrics.token_accuracy` and
        ``skstruct evaluate``. For a parser: UAS, the heads alone.

        Parameters
        ----------
        X : list of sequences
        y : list of label sequences

        Returns
        -------
        score : float
        """
        check_is_fitted(self, "coef_")
        X, y = check_sequences_and_labels(X, y)
        return self._token_accuracy(self._encode_X(X), self._encode_y(y, strict=False), self.coef_)

    def _predict_ids(self, encoded, coef):
        width = self.decoder_.search_width(self.structure_)
        return self.structure_.predict(encoded, coef, beam_size=width)

    def _token_accuracy(self, encoded, labels, coef):
        """Token accuracy; for a parser, UAS (heads right, labels not looked at)."""
        predicted = self._predict_ids(encoded, coef)
        if _parses(self.decoder_):
            predicted = self.structure_.split_outputs(predicted)[0]
            labels = self.structure_.split_outputs(labels)[0]
        return float(np.mean(predicted == labels))

    def _parser_predictions(self, ids):
        """Per word: the head, or ``(head, deprel)`` for a labelled parser."""
        heads, labels = self.structure_.split_outputs(ids)
        if not self.structure_.n_labels:
            return heads.tolist()
        return list(zip(heads.tolist(), self.classes_[labels].tolist()))

    # -- encoding ------------------------------------------------------------------------

    def _token_dicts(self, X):
        return X if self.features_ is None else self.features_.transform(X)

    def _encode_X(self, X, name="X"):
        encoded = self.encoder_.transform(self._token_dicts(X))
        if _parses(self.decoder_):
            self.decoder_.check_lengths(encoded, name)
        return encoded

    def _encode_y(self, y, name="y", strict=True):
        """Label ids (int32, all tokens). Unseen labels raise, naming the example, when
        ``strict`` (training data); else they get id -1, which no prediction equals, so
        scores count them as errors (scoring data).

        For a parser: every word's head, each sentence checked to be a tree.
        """
        if _parses(self.decoder_):
            heads, deprels = split_trees(y, name=name)
            return self._parser_outputs(check_heads(heads, name=name), deprels, name, strict=False)
        labels = flat_labels(y, name=name)
        index = {label: i for i, label in enumerate(self.classes_.tolist())}
        if not strict:
            get = index.get
            return np.fromiter((get(lab, -1) for lab in labels), dtype=np.int32, count=len(labels))
        try:
            return np.fromiter(map(index.__getitem__, labels), dtype=np.int32, count=len(labels))
        except (KeyError, TypeError):
            j = next(j for j, lab in enumerate(labels) if lab not in index)
            i, pos = _locate(y, j)
            raise ValueError(
                f"Example {i}: label {labels[j]!r} at position {pos} of {name}[{i}] was not "
                f"seen in training (classes_: {self.classes_.tolist()!r})."
            ) from None

    def __sklearn_tags__(self):
        return sequence_tags(super().__sklearn_tags__())


def _parses(decoder):
    """Whether ``decoder`` predicts trees (heads) rather than label sequences."""
    return getattr(decoder, "output", "labels") == "heads"
