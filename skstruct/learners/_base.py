"""BaseStructuredLearner: the online training loop shared by the perceptron family.

Everything but the epoch itself lives here: input checks, featurization and
encoding, label encoding, shuffling, dev scoring, early stopping, ``history_``,
``partial_fit``, ``predict`` and ``score``. A learner writes ``_run_epoch``.
"""

import time
from itertools import chain
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted
from tqdm.auto import tqdm

from ..decoders.chain import Viterbi
from ..features._encoder import TokenDictEncoder
from ..features.arc import ArcFeatures
from ..utils._sklearn_compat import HasMethods, Interval, _fit_context
from ..utils.tags import sequence_tags
from ..utils.validation import (
    _locate,
    check_sequences,
    check_sequences_and_labels,
    flat_labels,
)
from ._parsing import check_heads, check_training_trees, split_trees
from ._weights import AveragedWeights


class BaseStructuredLearner(BaseEstimator):
    """Online structured learner over lists of sequences (see subclasses)."""

    _parameter_constraints: dict = {
        "decoder": [HasMethods(["make_structure", "search_width"]), None],
        "features": [HasMethods(["fit", "transform"]), None],
        "n_features": [Interval(Integral, 1, None, closed="left"), None],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "average": ["boolean"],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "warm_start": ["boolean"],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither"), None],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left"), None],
        "verbose": ["verbose"],
    }

    # -- training -----------------------------------------------------------------------

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, *, X_dev=None, y_dev=None):
        """Train for up to ``max_iter`` epochs.

        Parameters
        ----------
        X : list of sequences
            Token feature dicts (sklearn-crfsuite format), or raw tokens when
            ``features`` is set.
        y : list of label sequences
            One label per token.
        X_dev, y_dev : list of sequences, default=None
            A development set scored after every epoch (``history_``); with
            ``n_iter_no_change`` it decides when to stop.

        Returns
        -------
        self : object
            The fitted learner.
        """
        X, y = check_sequences_and_labels(X, y)
        if (X_dev is None) != (y_dev is None):
            raise ValueError("Pass both X_dev and y_dev, or neither.")
        rng = check_random_state(self.random_state)
        if X_dev is not None:
            X_dev, y_dev = check_sequences_and_labels(X_dev, y_dev, X_name="X_dev", y_name="y_dev")
        elif self.validation_fraction is not None:
            X, y, X_dev, y_dev = _hold_out(X, y, self.validation_fraction, rng)
        if self.n_iter_no_change is not None and X_dev is None:
            raise ValueError(
                "n_iter_no_change needs a development set: pass X_dev and y_dev to fit, or "
                "set validation_fraction."
            )
        if self.warm_start and hasattr(self, "coef_"):
            encoded, labels = self._extend(X, y)
        else:
            encoded, labels = self._initialize(X, y, classes=None, rng=rng)
        dev = None
        if X_dev is not None:
            dev = (self._encode_X(X_dev, "X_dev"), self._encode_y(y_dev, name="y_dev"))
        self.n_iter_ = 0
        best_score, best_coef, since_best = -np.inf, None, 0
        epochs = tqdm(
            range(self.max_iter),
            desc=type(self).__name__,
            unit="epoch",
            disable=not self.verbose,
            leave=False,
        )
        for _ in epochs:
            record, coef = self._epoch(encoded, labels, dev)
            if self.verbose:
                epochs.set_postfix(mistakes=record["mistakes"], dev=record["dev_score"])
            if self.n_iter_no_change is None:
                continue
            if record["dev_score"] > best_score:
                best_score, best_coef, since_best = record["dev_score"], coef, 0
                self.best_iteration_ = self.n_iter_
            else:
                since_best += 1
                if since_best >= self.n_iter_no_change:
                    break
        self.coef_ = self._current_coef() if best_coef is None else best_coef
        return self

    @_fit_context(prefer_skip_nested_validation=False)
    def partial_fit(self, X, y, *, classes=None):
        """Run exactly one epoch over ``X``, starting from the current weights.

        Parameters
        ----------
        X : list of sequences
        y : list of label sequences
        classes : array-like, default=None
            All labels that will ever be seen. Needed on the first call when later
            batches may carry labels this one lacks; ignored afterwards (but checked).

        Returns
        -------
        self : object
        """
        X, y = check_sequences_and_labels(X, y)
        if hasattr(self, "coef_"):
            if classes is not None and not np.array_equal(np.unique(classes), self.classes_):
                raise ValueError(
                    f"classes={np.unique(classes).tolist()!r} differs from classes_ "
                    f"{self.classes_.tolist()!r} set by the first call to partial_fit."
                )
            encoded, labels = self._extend(X, y)
        else:
            encoded, labels = self._initialize(X, y, classes=classes, rng=None)
            self.n_iter_ = 0
        self._epoch(encoded, labels, None)
        self.coef_ = self._current_coef()
        return self

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
        self._weights = AveragedWeights(self.structure_.n_weights)
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
        self._weights = AveragedWeights(self.structure_.n_weights)
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

    def _extend(self, X, y):
        """Continue training on ``X``, ``y``: grow the vocabulary, keep the labels."""
        self._resolve()
        if _parses(self.decoder_):  # a fixed (hashed) weight space: nothing grows
            return self._encode_X(X), self._training_outputs(*split_trees(y))
        labels = self._encode_y(y)
        encoded = self.encoder_.partial_fit_transform(self._token_dicts(X))
        if encoded.n_features != self.structure_.n_features:
            old, self.structure_ = (
                self.structure_,
                self.structure_.with_n_features(encoded.n_features),
            )
            self._weights.resize(lambda coef: old.resize(coef, self.structure_))
        return encoded, labels

    def _current_coef(self):
        """The model's weights now: averaged (a new array) or a copy of the current ones."""
        return self._weights.averaged() if self.average else self._weights.coef.copy()

    def _epoch(self, encoded, labels, dev):
        """One epoch in the order drawn from the learner's random state; appends history.

        Returns the record and, when there is a dev set, the weights it was scored with
        (else None: averaging all weights every epoch would cost more than an epoch).
        """
        n = encoded.n_sentences
        order = self._rng.permutation(n) if self.shuffle else np.arange(n)
        start = time.perf_counter()
        stats = self._run_epoch(encoded, labels, order)
        seconds = time.perf_counter() - start
        self.n_iter_ += 1
        correct = stats.pop("correct")
        record = {
            "epoch": len(self.history_) + 1,
            **stats,
            "train_score": correct / encoded.n_tokens,
            "dev_score": None,
            "seconds": seconds,
        }
        coef = None
        if dev is not None:
            coef = self._current_coef()
            record["dev_score"] = self._token_accuracy(*dev, coef)
        self.history_.append(record)
        return record, coef

    def _resolve(self):
        """Set the fitted components a learner derives from its parameters (hook)."""

    def _run_epoch(self, encoded, labels, order):
        """Visit sentences ``order`` once, updating ``self._weights``.

        Returns a dict with ``mistakes`` (sentences decoded wrongly), ``updates``,
        ``correct`` (tokens decoded right before any update) and any other per-epoch
        counts the learner records in ``history_``.
        """
        raise NotImplementedError

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
        """
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

        Labels never seen in training raise a ValueError naming the example: no
        model could predict them, so a silent score would mislead.

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
        return self._token_accuracy(self._encode_X(X), self._encode_y(y), self.coef_)

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

    def _encode_y(self, y, name="y"):
        """Label ids (int32, all tokens); unseen labels raise, naming the example.

        For a parser: every word's head, each sentence checked to be a tree.
        """
        if _parses(self.decoder_):
            heads, deprels = split_trees(y, name=name)
            return self._parser_outputs(check_heads(heads, name=name), deprels, name, strict=False)
        labels = flat_labels(y, name=name)
        index = {label: i for i, label in enumerate(self.classes_.tolist())}
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


def _hold_out(X, y, fraction, rng):
    """Split off ``fraction`` of the sentences (at least one) as a development set."""
    n_dev = max(1, round(fraction * len(X)))
    if n_dev >= len(X):
        raise ValueError(
            f"validation_fraction={fraction} leaves no training data out of {len(X)} sequences."
        )
    dev = np.zeros(len(X), dtype=bool)
    dev[rng.choice(len(X), size=n_dev, replace=False)] = True
    pick = lambda seqs, mask: [s for s, m in zip(seqs, mask) if m]  # noqa: E731
    return pick(X, ~dev), pick(y, ~dev), pick(X, dev), pick(y, dev)
