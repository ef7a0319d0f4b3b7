"""BaseStructuredLearner: the online training loop shared by the perceptron family.

Everything but the epoch itself lives here (encoding, ``predict`` and ``score`` come
from :class:`StructuredModel`): shuffling, dev scoring, early stopping,
``history_``, ``partial_fit``. A learner writes ``_run_epoch``.
"""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from ..utils._interrupt import deferred_interrupt, warn_interrupted
from ..utils._sklearn_compat import HasMethods, Interval, _fit_context
from ..utils.validation import check_sequences_and_labels
from ._model import StructuredModel, _parses
from ._parsing import split_trees
from ._progress import EpochProgress
from ._weights import AveragedWeights


class BaseStructuredLearner(StructuredModel):
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
        try:
            if self.warm_start and hasattr(self, "coef_"):
                encoded, labels = self._extend(X, y)
            else:
                encoded, labels = self._initialize(X, y, classes=None, rng=rng)
            dev = None
            if X_dev is not None:
                dev = (
                    self._encode_X(X_dev, "X_dev"),
                    self._encode_y(y_dev, name="y_dev", strict=False),
                )
            with deferred_interrupt() as interrupt:
                best_coef = self._train(encoded, labels, dev, interrupt)
        except KeyboardInterrupt:  # a second Ctrl-C: nothing half-trained stays behind
            self._discard_fit()
            raise
        self.coef_ = self._current_coef() if best_coef is None else best_coef
        return self

    def _train(self, encoded, labels, dev, interrupt):
        """Up to ``max_iter`` epochs; returns the best epoch's weights under early
        stopping (else None). Stops after the epoch in progress when ``interrupt``."""
        self.n_iter_ = 0
        best_score, best_coef, since_best = -np.inf, None, 0
        progress = EpochProgress(self, self.max_iter)
        for _ in progress:
            record, coef = self._epoch(encoded, labels, dev)
            progress.report(
                record,
                [
                    ("train", f"{100 * record['train_score']:.2f}%", "online train accuracy"),
                    ("mistakes", record["mistakes"], f"/{record['sequences']} sequences wrong"),
                ],
            )
            if interrupt.requested:
                warn_interrupted(self, self.n_iter_)
                break
            if self.n_iter_no_change is None:
                continue
            if record["dev_score"] > best_score:
                best_score, best_coef, since_best = record["dev_score"], coef, 0
                self.best_iteration_ = self.n_iter_
            else:
                since_best += 1
                if since_best >= self.n_iter_no_change:
                    break
        return best_coef

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
        encoded, outputs = super()._initialize(X, y, classes, rng)
        self._weights = AveragedWeights(self.structure_.n_weights)
        return encoded, outputs

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
            "sequences": len(order),
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

    def _run_epoch(self, encoded, labels, order):
        """Visit sentences ``order`` once, updating ``self._weights``.

        Returns a dict with ``mistakes`` (sentences decoded wrongly), ``updates``,
        ``correct`` (tokens decoded right before any update) and any other per-epoch
        counts the learner records in ``history_``.
        """
        raise NotImplementedError


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
