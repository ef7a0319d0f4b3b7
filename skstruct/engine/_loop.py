"""BaseStructuredLearner: the online training loop shared by the perceptron family.

The one loop of the papers lives here (:meth:`BaseStructuredLearner.run_epoch`): per
example, the decoder searches, the update rule returns weighted violations, and the
weights take them through the averaging state. Around it: shuffling, dev scoring,
early stopping, ``history_``, ``partial_fit``, and the public engine API
(``init_state``, ``run_epoch``, ``set_state``) that ParameterMixing drives. A learner
chooses its update rule (``_resolve``) and, through it, what the decoder must do.
"""

import copy
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from .._kernels.threads import numba_threads
from ..updates import DecodedOutput, Example
from ..utils._sklearn_compat import HasMethods, Interval, StrOptions, fit_context
from ..utils.interrupt import deferred_interrupt, warn_interrupted
from ._fused import Minibatch, fused_epoch
from ._model import StructuredModel, kernel_threads
from ._progress import EpochProgress
from ._weights import AveragedWeights


class BaseStructuredLearner(StructuredModel):
    """Online structured learner over lists of sequences (see subclasses)."""

    #: ``y`` may hold None for unknown labels (see :meth:`run_epoch`).
    learns_partial_labels = True

    _parameter_constraints: dict = {
        "decoder": [HasMethods(["make_structure", "decode", "search", "predict"]), None],
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
        "batch_size": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "n_jobs": [Integral, None],
        "class_weight": [dict, StrOptions({"balanced"}), None],
    }

    # -- training -----------------------------------------------------------------------

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, *, X_dev=None, y_dev=None, sample_weight=None):
        """Train for up to ``max_iter`` epochs.

        Parameters
        ----------
        X : list of sequences
            Token feature dicts (sklearn-crfsuite format), or raw tokens when
            ``features`` is set.
        y : list of label sequences
            One label per token; None for a token whose label is unknown (the gold is
            then the best sequence that has the known labels).
        X_dev, y_dev : list of sequences, default=None
            A development set scored after every epoch (``history_``); with
            ``n_iter_no_change`` it decides when to stop.
        sample_weight : array-like of shape (n_sequences,), default=None
            A finite, non-negative weight per sequence, multiplying every update made
            on it: 0 leaves the sequence out, equal weights only rescale a perceptron's
            weights. Weighted epochs take the
            generic training loop. Routed by scikit-learn's metadata routing
            (``set_fit_request(sample_weight=True)``).

        Returns
        -------
        self : object
            The fitted learner.
        """
        decoder = self.check_decoder()
        X, y = decoder.capabilities.task.check_examples(X, y)
        weights = check_sample_weight(sample_weight, len(X))
        rng = check_random_state(self.random_state)
        X, y, X_dev, y_dev, weights = development_set(self, X, y, X_dev, y_dev, rng, weights)
        X, y, weights = drop_unweighted(X, y, weights)
        try:
            if self.warm_start and hasattr(self, "coef_"):
                encoded, labels = self._extend(X, y)
            else:
                encoded, labels = self._initialize(X, y, classes=None, rng=rng, decoder=decoder)
            dev = None
            if X_dev is not None:
                dev = self.encode(X_dev, y_dev, names=("X_dev", "y_dev"))
            data = training_data(encoded, labels, weights)
            with deferred_interrupt() as interrupt:
                best = self._train(data, dev, interrupt)
        except KeyboardInterrupt:  # a second Ctrl-C: nothing half-trained stays behind
            self._discard_fit()
            raise
        self._set_model(self._current_model() if best is None else best)
        self._compile_prediction(encoded)
        return self

    def _train(self, data, dev, interrupt):
        """Up to ``max_iter`` epochs over ``data`` (see :meth:`run_epoch`); returns the best
        epoch's ``(structure, coef)`` under early stopping (else None). Stops after the
        epoch in progress when ``interrupt``."""
        self.n_iter_ = 0
        stopping = EarlyStopping(self.n_iter_no_change)
        progress = EpochProgress(self, self.max_iter)
        for _ in progress:
            record, model = self._epoch(data, dev)
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
            stop = stopping.stop(record["dev_score"], model, self.n_iter_)
            if stopping.iteration is not None:
                self.best_iteration_ = stopping.iteration
            if stop or self._converged(record):
                break
        return stopping.model

    def _converged(self, record):
        """Whether training stops after the epoch of ``record`` (its ``history_`` entry),
        before ``max_iter``: a learner's own stopping rule (none here)."""
        return False

    @fit_context(prefer_skip_nested_validation=False)
    def partial_fit(self, X, y, *, classes=None, sample_weight=None):
        """Run exactly one epoch over ``X``, starting from the current weights.

        Parameters
        ----------
        X : list of sequences
        y : list of label sequences
        classes : array-like, default=None
            All labels that will ever be seen. Needed on the first call when later
            batches may carry labels this one lacks; ignored afterwards (but checked).
        sample_weight : array-like of shape (n_sequences,), default=None
            A weight per sequence (see :meth:`fit`).

        Returns
        -------
        self : object
        """
        X, y = self.check_examples(X, y)
        X, y, weights = drop_unweighted(X, y, check_sample_weight(sample_weight, len(X)))
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
        self._epoch(training_data(encoded, labels, weights), None)
        self._set_model(self._current_model())
        return self

    def _initialize(self, X, y, classes, rng, decoder=None):
        encoded, outputs = super()._initialize(X, y, classes, rng, decoder)
        self.class_weight_ = resolve_class_weight(self, outputs)
        self._weights = self._new_state()
        return encoded, outputs

    def _new_state(self):
        """A fresh training state over ``structure_``: zero weights and averaging sums."""
        return AveragedWeights(self.structure_)

    def _set_model(self, model):
        """Make ``model``, a ``(structure, coef)`` pair, the fitted ``structure_`` and
        ``coef_``."""
        self.structure_, self.coef_ = model

    def _extend(self, X, y):
        """Continue training on ``X``, ``y``: grow the vocabulary, keep the labels."""
        self._resolve()
        self.__dict__.pop("temperature_", None)  # calibrated for the weights before
        encoded, outputs = self.task_.extend(self, X, y)
        state = self._weights
        if encoded.n_features != state.structure.n_features:
            # new features get empty rows: the weight arrays stay as they are
            state.structure = state.structure.with_n_features(encoded.n_features)
        return encoded, outputs

    def _current_model(self):
        """The model now, ``(structure, coef)``: averaged or current weights (new arrays)."""
        return self._weights.model(self.average)

    def _epoch(self, data, dev):
        """One epoch over ``data`` in the order drawn from the learner's random state;
        appends history.

        Returns the record and, when there is a dev set, the ``(structure, coef)`` it was
        scored with (else None: averaging all weights every epoch would cost more than an
        epoch).
        """
        encoded = data[0]
        n = encoded.n_sentences
        order = self._rng.permutation(n) if self.shuffle else np.arange(n)
        start = time.perf_counter()
        stats = self.run_epoch(self._weights, data, order)
        seconds = time.perf_counter() - start
        self.n_iter_ += 1
        correct = stats.pop("correct")
        record = {
            "epoch": len(self.history_) + 1,
            "sequences": len(order),
            **stats,
            "train_score": correct / int(self._weights.structure.output_offsets(encoded)[-1]),
            "dev_score": None,
            "seconds": seconds,
        }
        model = None
        if dev is not None:
            model = self._current_model()
            record["dev_score"] = self._token_accuracy(dev, model[1], model[0])
        self.history_.append(record)
        return record, model

    # -- the engine API ----------------------------------------------------------------------

    def init_state(self, X, y, *, classes=None, sample_weight=None):
        """Fit the encoding (features, labels, structure) on ``X``, ``y`` and return the
        training state and data the engine works on.

        This is what ``fit`` does before its first epoch; ParameterMixing (and any other
        driver of epochs) starts here.

        Parameters
        ----------
        X, y : list of sequences
            Training data, as for :meth:`fit`.
        classes : array-like, default=None
            All labels (see :meth:`partial_fit`).
        sample_weight : array-like of shape (n_sequences,), default=None
            A weight per sequence (see :meth:`fit`); sequences of weight 0 are left out
            of ``data``.

        Returns
        -------
        state : AveragedWeights
            Zero weights and averaging sums (or the learner's own state, as AROW's
            :class:`~skstruct.learners.ConfidenceWeights`).
        data : tuple
            ``(encoded X, gold outputs)``, and the weight of each sequence third when
            they are not all 1: pass it, or a part of it (``(encoded.take(rows), ...)``),
            to :meth:`run_epoch`.
        """
        X, y = self.check_examples(X, y)
        X, y, weights = drop_unweighted(X, y, check_sample_weight(sample_weight, len(X)))
        encoded, labels = self._initialize(X, y, classes=classes, rng=None)
        return self._new_state(), training_data(encoded, labels, weights)

    def shard_encoder(self, X, only_if_cheaper=False):
        """Prepare to encode the training data ``X`` a shard at a time, each shard on
        its own (on the worker that trains it): fits what needs the whole corpus, the
        decoder and the ``features`` transformer, and returns a copy holding only what
        :meth:`encode_shard` reads; None when this learner's task cannot encode shards
        on their own (then :meth:`init_state` encodes the whole data).

        Parameters
        ----------
        X : list of sequences
            The whole training input, checked (ParameterMixing's ``check_examples``).
        only_if_cheaper : bool, default=False
            Also None where the task finds encoding here and shipping the shards encoded
            cheaper (``ParameterMixing(encode_on="auto")``).

        Returns
        -------
        template : estimator or None
        """
        self._resolve()
        self.decoder_ = self.check_decoder()
        if not self.task_.encodes_shards(self):
            return None
        if only_if_cheaper and not self.task_.shards_cheaper_on_workers(self):
            return None
        self.task_.fit_features(self, X)
        return self.worker_copy(keep=("features_",))

    def encode_shard(self, X, y):
        """The shard ``X``, ``y`` encoded on its own (call it on :meth:`shard_encoder`'s
        copy, e.g. on a worker): a :class:`~skstruct.tasks._base.ShardEncoding`."""
        return self.task_.encode_shard(self, X, y)

    def encode_X_part(self, X):
        """A part of a scoring input (a development set) encoded on its own: call it
        on :meth:`shard_encoder`'s copy, e.g. on a worker, if the task
        ``encodes_scoring_parts``; :meth:`encode_from_parts` takes the parts."""
        return self.task_.encode_X_part(self, X)

    def encode_from_parts(self, parts, y=None, *, names=("X", "y")):
        """What :meth:`encode` gives for ``X`` (and ``y``), from the parts of ``X`` that
        :meth:`encode_X_part` encoded, in order, mapped into the encoding
        :meth:`init_state_from_shards` merged: no pass over ``X``."""
        encoded = self.task_.encode_X_from_parts(self, parts)
        if y is None:
            return encoded
        return encoded, self.task_.encode_y(self, y, name=names[1], strict=False)

    def init_state_from_shards(self, shards):
        """:meth:`init_state` from the shards' own encodings (:meth:`encode_shard` of
        every shard, in order): the shards' vocabularies and label names merged, with no
        pass over the data.

        Returns
        -------
        state : AveragedWeights
            Zero weights and averaging sums.
        data : list of tuple
            ``(encoded X, gold outputs)`` of each shard, in the merged encoding.
        """
        self.__dict__.pop("temperature_", None)
        data = self.task_.initialize_from_shards(self, shards)
        self._rng = check_random_state(self.random_state)
        self.history_ = []
        return self._new_state(), data

    def run_epoch(self, state, data, order):
        """Visit the examples ``order`` of ``data`` once, updating ``state`` in place.

        Per example: ``decoder.search`` (``decoder.decode`` for rules that need no
        trace), ``rule.violations``, and every violation ``(gamma, y', z')`` applied
        as ``w += gamma (phi(y') - phi(z'))`` with the averaging sums. Combinations
        with a registered fused epoch (:mod:`skstruct.engine._fused`) run it
        instead, with the same result.

        Parameters
        ----------
        state : AveragedWeights
            The weights and averaging state (from :meth:`init_state`).
        data : tuple
            ``(encoded X, gold outputs)``, or ``(encoded X, gold outputs, sample
            weights)`` (a float per sequence, multiplying its updates).
        order : array of int
            The examples to visit, in order.

        Returns
        -------
        stats : dict
            The epoch's counts: ``correct`` (tokens decoded right before any update)
            and the rule's (``mistakes``, ``updates``, ...), as ``history_`` records.
        """
        encoded, outputs, weights = unpack(data)
        structure, decoder, rule = state.structure, self.decoder_, self.update_rule_
        with numba_threads(kernel_threads(self.n_jobs)) as n_threads, constrained(state):
            minibatch = Minibatch.of(self.batch_size, len(order), n_threads)
            fused = fused_epoch(structure, decoder, rule)
            # partial labels: each gold is completed from the weights of its turn, and
            # weighted updates: the generic loop does both (the fused kernels take fixed
            # golds and unit weights)
            plain = weights is None and getattr(self, "class_weight_", None) is None
            if fused is not None and plain and not has_unknown_labels(structure, outputs):
                return fused(structure, decoder, rule, encoded, outputs, order, state, minibatch)
            return self._generic_epoch(state, encoded, outputs, order, minibatch, weights)

    def _generic_epoch(self, state, encoded, outputs, order, minibatch, weights=None):
        """The loop of :meth:`run_epoch` in Python, a minibatch at a time: every
        sentence of a batch is decoded and its violations chosen against the weights
        the batch starts from (in ``minibatch.threads`` threads: kernels release the
        GIL), then the updates are applied in order."""
        structure, decoder, rule = state.structure, self.decoder_, self.update_rule_
        task, search = self.task_, rule.needs_trace
        offsets = structure.output_offsets(encoded)
        partial = has_unknown_labels(structure, outputs)
        by_label = getattr(self, "class_weight_", None)
        stats, correct = rule.epoch_stats(), 0

        def decode(i):
            gold = outputs[offsets[i] : offsets[i + 1]]
            scores = structure.scores(encoded, i, state.coef)
            if partial:
                gold = completed_gold(structure, scores, gold, i)
            if search:
                return gold, scores, decoder.search(structure, scores, gold, rule.restarts)
            return gold, scores, DecodedOutput(decoder.decode(structure, scores), gold)

        with ThreadPoolExecutor(minibatch.threads) as pool:
            for batch in minibatch.batches(order):
                parallel = minibatch.parallel(batch)
                decoded = list(pool.map(decode, batch) if parallel else map(decode, batch))
                chosen = []
                for i, (gold, scores, trace) in zip(batch, decoded):
                    correct += int(np.count_nonzero(task.correct(structure, trace.path, gold)))
                    extra = {"example": Example(encoded, i)} if rule.needs_example else {}
                    try:
                        chosen.append(rule.violations(trace, structure, scores, stats, **extra))
                    except ValueError as exc:
                        raise ValueError(f"Example {i}: {exc}") from None
                for i, violations in zip(batch, chosen):
                    scale = 1.0 if weights is None else weights[i]
                    for v in violations:
                        if by_label is None:
                            structure.update(state, encoded, i, v.gold, v.pred, scale * v.weight)
                        else:  # each token's part by its gold label's weight
                            token_weights = by_label[v.gold[: v.pred.shape[0]]]
                            structure.update_by_tokens(state, encoded, i, v.gold, v.pred,
                                                       scale * v.weight, token_weights)  # fmt: skip
                    state.n_seen += 1
        stats = rule.finish_stats(stats)
        stats["correct"] = correct
        return stats

    def set_state(self, state, n_iter=None):
        """Make ``state`` the model: ``coef_`` becomes its averaged weights (or its
        current ones with ``average=False``), as at the end of ``fit``.

        Parameters
        ----------
        state : AveragedWeights
        n_iter : int or None, default=None
            Epochs it took, recorded as ``n_iter_``.

        Returns
        -------
        self : object
        """
        self._weights = state  # partial_fit and warm_start continue from it
        self._set_model(state.model(self.average))
        if n_iter is not None:
            self.n_iter_ = n_iter
        return self

    def worker_copy(self, keep=()):
        """A copy holding only what :meth:`run_epoch` reads (no vocabulary, feature
        transformer, structure, weights, history or training state, but the attributes
        named in ``keep``): small to ship to worker processes. (``run_epoch`` reads the
        structure of the state it is given; a chain's ``structure_`` carries its emission
        rows, 2.2 MB on Brown 20,000 sentences, which went with every task.)"""
        slim = copy.copy(self)
        dropped = ("encoder_", "features_", "structure_", "coef_", "history_", "_weights", "_rng")
        for name in dropped:
            if name not in keep:
                slim.__dict__.pop(name, None)
        return slim


def constrained(state):
    """The context an epoch on ``state`` runs in: a decoder's ``allowed=`` (its chain's
    constraints) holds for the whole epoch (``LinearChain.forbidding``)."""
    forbidding = getattr(state.structure, "forbidding", None)
    return nullcontext() if forbidding is None else forbidding(state)


def resolve_class_weight(learner, outputs):
    """``class_weight_``: the weight of each label id, from the learner's
    ``class_weight`` and the training labels ``outputs`` (ids, -1 unknown); None
    without class weights."""
    class_weight = learner.class_weight
    if class_weight is None:
        return None
    classes = getattr(learner, "classes_", None)
    if not hasattr(learner.structure_, "complete") or classes is None:
        raise ValueError(
            "class_weight weighs the labels of sequence labelling; it does not apply to parsing."
        )
    labels = classes.tolist()
    if isinstance(class_weight, str):  # "balanced"
        counts = np.bincount(outputs[outputs >= 0], minlength=len(labels)).astype(float)
        by_label = np.ones(len(labels))
        seen = counts > 0
        by_label[seen] = counts.sum() / (len(labels) * counts[seen])
        return by_label
    unknown = [label for label in class_weight if label not in labels]
    if unknown:
        raise ValueError(
            f"class_weight names labels the training data lacks: {unknown!r} (classes_: "
            f"{labels!r})."
        )
    by_label = np.ones(len(labels))
    for label, weight in class_weight.items():
        if not (isinstance(weight, Real) and np.isfinite(weight) and weight >= 0):
            raise ValueError(
                f"class_weight[{label!r}] is {weight!r}; weights must be finite and "
                f"non-negative numbers."
            )
        by_label[labels.index(label)] = float(weight)
    return by_label


def has_unknown_labels(structure, outputs):
    """Whether some gold label is unknown (-1: None in ``y``), for a chain."""
    return hasattr(structure, "complete") and bool((outputs < 0).any())


def completed_gold(structure, scores, gold, i):
    """Example ``i``'s gold with its unknown labels filled in under ``scores`` (the
    latent-variable perceptron's gold; ``gold`` itself when all are known)."""
    try:
        return structure.complete(scores, gold)
    except ValueError as exc:
        raise ValueError(f"Example {i}: {exc}.") from None


class EarlyStopping:
    """``n_iter_no_change``: the best development score so far, the model and the
    iteration that had it (None until one is scored; always None without patience)."""

    def __init__(self, patience):
        self.patience = patience
        self.score, self.model, self.iteration, self.since = -np.inf, None, None, 0

    def stop(self, score, model, iteration):
        """Record an iteration's score; whether ``patience`` iterations have passed
        without a better one."""
        if self.patience is None:
            return False
        if score > self.score:
            self.score, self.model, self.iteration, self.since = score, model, iteration, 0
            return False
        self.since += 1
        return self.since >= self.patience


def development_set(estimator, X, y, X_dev, y_dev, rng, sample_weight=None):
    """``(X, y, X_dev, y_dev, sample_weight)``: the development set ``fit`` was given
    (checked), or ``estimator.validation_fraction`` of ``X`` held out (the weights of
    the rest kept), or None; refuses ``n_iter_no_change`` without one."""
    if (X_dev is None) != (y_dev is None):
        raise ValueError("Pass both X_dev and y_dev, or neither.")
    if X_dev is not None:
        X_dev, y_dev = estimator.check_examples(X_dev, y_dev, X_name="X_dev", y_name="y_dev")
    elif estimator.validation_fraction is not None:
        dev = _hold_out(len(X), estimator.validation_fraction, rng)
        pick = lambda seqs, mask: [s for s, m in zip(seqs, mask) if m]  # noqa: E731
        X, y, X_dev, y_dev = pick(X, ~dev), pick(y, ~dev), pick(X, dev), pick(y, dev)
        sample_weight = None if sample_weight is None else sample_weight[~dev]
    if estimator.n_iter_no_change is not None and X_dev is None:
        raise ValueError(
            "n_iter_no_change needs a development set: pass X_dev and y_dev to fit, or "
            "set validation_fraction."
        )
    return X, y, X_dev, y_dev, sample_weight


def _hold_out(n, fraction, rng):
    """Which of ``n`` sentences (a bool mask) form the development set: ``fraction`` of
    them, at least one."""
    n_dev = max(1, round(fraction * n))
    if n_dev >= n:
        raise ValueError(
            f"validation_fraction={fraction} leaves no training data out of {n} sequences."
        )
    dev = np.zeros(n, dtype=bool)
    dev[rng.choice(n, size=n_dev, replace=False)] = True
    return dev


def check_sample_weight(sample_weight, n_sequences):
    """``sample_weight`` as a float array of one finite, non-negative weight per
    sequence (None stays None), or a ValueError naming the first bad one.

    Parameters
    ----------
    sample_weight : array-like of shape (n_sequences,) or None
    n_sequences : int

    Returns
    -------
    ndarray of shape (n_sequences,) or None

    Examples
    --------
    >>> check_sample_weight([1, 0.5], 2)
    array([1. , 0.5])
    """
    if sample_weight is None:
        return None
    try:
        weights = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"sample_weight must be numbers, one per sequence; got {sample_weight!r:.80}."
        ) from None
    if weights.shape != (n_sequences,):
        raise ValueError(
            f"sample_weight must hold one weight per sequence ({n_sequences}), got shape "
            f"{weights.shape}."
        )
    bad = np.flatnonzero(~np.isfinite(weights) | (weights < 0))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"Example {i}: sample_weight[{i}] is {float(weights[i])}; weights must be finite and "
            f"non-negative."
        )
    if not (weights > 0).any():
        raise ValueError("sample_weight is 0 for every sequence: nothing to learn from.")
    return weights


def drop_unweighted(X, y, weights):
    """``(X, y, weights)`` without the sequences of weight 0 (as if never given), and
    ``weights`` None when every one left is 1 (the unweighted, fused path)."""
    if weights is None:
        return X, y, None
    keep = weights > 0
    if not keep.all():
        X = [x for x, k in zip(X, keep) if k]
        y = [labels for labels, k in zip(y, keep) if k]
        weights = weights[keep]
    return X, y, None if (weights == 1.0).all() else weights


def training_data(encoded, outputs, weights):
    """What :meth:`BaseStructuredLearner.run_epoch` takes: ``(encoded, outputs)``, with
    the per-sequence ``weights`` third when there are any."""
    return (encoded, outputs) if weights is None else (encoded, outputs, weights)


def unpack(data):
    """``(encoded, outputs, weights or None)`` of :func:`training_data`'s tuple."""
    encoded, outputs, *rest = data
    return encoded, outputs, (rest[0] if rest else None)
