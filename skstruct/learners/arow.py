"""AROW: CRFsuite's Adaptive Regularization of Weights for linear chains (Crammer,
Kulesza & Dredze 2009), on the base learner's epochs with a confidence per weight."""

from numbers import Real

import numpy as np

from ..engine import (
    BaseStructuredLearner,
    ConfidenceWeights,
    completed_gold,
    constrained,
    has_unknown_labels,
    unpack,
)
from ..utils._sklearn_compat import Interval

#: The base learner's parameters AROW has no use for: it does not average, and its
#: updates read the confidences each earlier update changed (no minibatches).
_NOT_AROWS = ("average", "batch_size", "n_jobs")


class AROW(BaseStructuredLearner):
    """Adaptive Regularization of Weights, as CRFsuite's ``arow`` algorithm.

    Each weight ``w_k`` has a variance ``sigma_k`` (a diagonal covariance, the
    learner's confidence in it), ``variance`` at first. For each training sequence in
    turn, decode ``y* = argmax w . phi(x, y')``; when ``y* != y`` on ``rho`` tokens,
    with ``d = phi(x, y) - phi(x, y*)``:

    - ``loss = w . phi(x, y*) - w . phi(x, y) + rho``,
    - ``beta = 1 / (sum_k sigma_k d_k^2 + gamma)`` and ``alpha = loss * beta``,
    - ``w_k += alpha sigma_k d_k``, then ``1 / sigma_k += d_k^2 / gamma``.

    Weights that features of many updates touch become confident (small
    ``sigma_k``) and move less. Training stops after ``max_iter`` epochs, or after an
    epoch whose summed loss over the ``n`` training sequences has
    ``loss / n <= epsilon``. The weights are not averaged. Parameters, defaults and
    formulas are CRFsuite's (``train_arow.c``).

    Parameters
    ----------
    decoder : Viterbi, BeamSearch, Greedy or None, default=None
        The argmax (``None``: ``Viterbi()``, CRFsuite's first-order chain). Chains
        only: the update needs the feature difference ``d`` as a sparse vector.
    variance : float > 0, default=1.0
        The initial variance of every weight.
    gamma : float > 0, default=1.0
        The trade-off ``r`` between keeping the weights and fitting the example.
    max_iter : int, default=100
        Epochs at most (CRFsuite's ``max_iterations``).
    epsilon : float >= 0, default=0.0
        Stop after an epoch whose mean loss per training sequence is at most
        ``epsilon``. CRFsuite's default, 0, stops after the first epoch without a
        mistake.
    features, n_features, shuffle, random_state, warm_start, validation_fraction, \
n_iter_no_change, verbose
        As in :class:`~skstruct.StructuredPerceptron`.
    class_weight : dict, "balanced" or None, default=None
        Sequence labelling: scales each token's part of an update by the weight of its
        gold label (``{label: weight}``, 1 for a label not named; ``"balanced"``:
        ``n_tokens / (n_labels * count(label))`` over the training tokens). Weighted
        epochs take the generic training loop. Fitted as ``class_weight_``.

    Attributes
    ----------
    class_weight_ : ndarray of shape (n_labels,) or None
        The weight of each label (``classes_``' order) that ``class_weight`` gave.
    coef_, classes_, structure_, encoder_, features_, decoder_, n_iter_, \
best_iteration_
        As in :class:`~skstruct.StructuredPerceptron` (``coef_`` holds the current,
        not averaged, weights).
    variance_ : ndarray of shape (n_weights,)
        The variance of each weight of ``coef_`` (same layout) when training ended;
        a (feature, label) pair with no weight in ``coef_`` has ``variance``, unless
        it was updated back to exactly zero. With ``n_iter_no_change``, ``coef_`` is
        the best epoch's and ``variance_`` the last epoch's.
    history_ : list of dict
        Per epoch: ``mistakes`` (sequences decoded wrongly), ``updates``, ``loss``
        (the summed loss of the mistakes, CRFsuite's "Loss"), ``train_score``,
        ``dev_score``, ``seconds``.

    Notes
    -----
    Differences from CRFsuite:

    - *Features.* As for :class:`~skstruct.PassiveAggressive`: any (feature, label)
      pair an update touches gets a weight (and a variance of its own), which is
      CRFsuite with ``feature.possible_states=1`` and
      ``feature.possible_transitions=1``; the chain has start and stop weights too.
    - *Order.* ``shuffle=True`` draws the visiting order from ``random_state``.
    - The loss is clipped at zero (no update when an inexact search returns an
      output scoring below gold by more than ``rho``), and an update with ``d = 0``
      skipped: no change under exact search.
    - The variances are kept as precisions: ``1 / sigma_k`` grows by ``d_k^2 /
      gamma`` and ``sigma_k`` is read as ``1 / (1 / variance + that growth)``, where
      CRFsuite stores ``sigma_k`` and recomputes it as
      ``1 / (1 / sigma_k + d_k^2 / gamma)``: the same values up to rounding.

    It trains online, one example after another; :class:`~skstruct.ParameterMixing`
    does not mix its confidences.

    References
    ----------
    K. Crammer, A. Kulesza and M. Dredze (2009). Adaptive Regularization of Weight
    Vectors. NIPS 22.

    N. Okazaki (2007). CRFsuite: a fast implementation of Conditional Random Fields.
    ``lib/crf/src/train_arow.c``.

    Examples
    --------
    >>> from skstruct import AROW, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> X, y = make_chain_data(200, random_state=0)
    >>> model = AROW(variance=1.0, gamma=1.0, max_iter=10, features=TokenFeatures(),
    ...              random_state=0).fit(X[:150], y[:150])
    >>> round(model.score(X[150:], y[150:]), 2)
    0.95
    >>> bool((model.variance_ <= 1.0).all())
    True
    """

    _parameter_constraints: dict = {
        **{
            name: constraint
            for name, constraint in BaseStructuredLearner._parameter_constraints.items()
            if name not in _NOT_AROWS
        },
        "variance": [Interval(Real, 0, None, closed="neither")],
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "epsilon": [Interval(Real, 0, None, closed="left")],
    }

    #: AROW's weights are not averaged (the base learner reads this).
    average = False

    def __init__(
        self,
        decoder=None,
        *,
        variance=1.0,
        gamma=1.0,
        max_iter=100,
        epsilon=0.0,
        features=None,
        n_features=None,
        shuffle=True,
        random_state=None,
        warm_start=False,
        validation_fraction=None,
        n_iter_no_change=None,
        verbose=0,
        class_weight=None,
    ):
        self.decoder = decoder
        self.variance = variance
        self.gamma = gamma
        self.max_iter = max_iter
        self.epsilon = epsilon
        self.features = features
        self.n_features = n_features
        self.shuffle = shuffle
        self.random_state = random_state
        self.warm_start = warm_start
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.verbose = verbose
        self.class_weight = class_weight

    def _decoder_needs(self):
        yield (
            "sparse_delta",
            "AROW scales each weight's update by its own variance, which needs the "
            "feature difference as a sparse vector (structure.delta)",
        )

    def _new_state(self):
        return ConfidenceWeights(self.structure_, self.variance)

    def _set_model(self, model):
        super()._set_model(model)
        self.variance_ = self._weights.variances(self.structure_.weight_keys())

    def _converged(self, record):
        """CRFsuite's test: the epoch's mean loss per sequence is at most ``epsilon``."""
        return record["loss"] / record["sequences"] <= self.epsilon

    def run_epoch(self, state, data, order):
        """Visit the examples ``order`` of ``data`` once, updating ``state`` in place.

        Per example: ``decoder.decode``, and on a mistake AROW's update of the weights
        and their variances (see the class docstring).

        Parameters
        ----------
        state : ConfidenceWeights
            The weights and their variances (from :meth:`init_state`).
        data : tuple
            ``(encoded X, gold outputs)``, and sample weights third (see
            :meth:`~skstruct.learners.BaseStructuredLearner.run_epoch`).
        order : array of int
            The examples to visit, in order.

        Returns
        -------
        stats : dict
            ``correct`` (tokens decoded right before any update), ``mistakes``,
            ``updates`` and ``loss``.
        """
        if not isinstance(state, ConfidenceWeights):
            raise TypeError(
                f"AROW trains a ConfidenceWeights state (init_state returns one), not a "
                f"{type(state).__name__}: ParameterMixing does not mix AROW's variances."
            )
        with constrained(state):
            return self._arow_epoch(state, data, order)

    def _arow_epoch(self, state, data, order):
        encoded, outputs, weights = unpack(data)
        structure, decoder, task = state.structure, self.decoder_, self.task_
        offsets = structure.output_offsets(encoded)
        partial = has_unknown_labels(structure, outputs)  # complete each gold in its turn
        stats = {"mistakes": 0, "updates": 0, "loss": 0.0, "correct": 0}
        for i in order:
            gold = outputs[offsets[i] : offsets[i + 1]]
            scores = structure.scores(encoded, i, state.coef)
            if partial:
                gold = completed_gold(structure, scores, gold, i)
            pred = decoder.decode(structure, scores)
            stats["correct"] += int(np.count_nonzero(task.correct(structure, pred, gold)))
            if np.any(pred != gold):
                stats["mistakes"] += 1
                margin = structure.margin(scores, gold, pred, 0, gold.shape[0])  # w . d
                loss = max(structure.loss(encoded, i, gold, pred) - margin, 0.0)
                stats["loss"] += loss
                keys, delta = structure.delta(encoded, i, gold, pred)
                if loss > 0.0 and delta.size:
                    by_label = self.class_weight_
                    moved = None
                    if by_label is not None:  # the step, not the confidences, by label
                        moved = structure.delta(encoded, i, gold, pred, by_label[gold])
                    self._update(state, keys, delta, loss, 1.0 if weights is None else weights[i],
                                 moved)  # fmt: skip
                    stats["updates"] += 1
            state.n_seen += 1
        return stats

    def _update(self, state, keys, delta, loss, scale=1.0, moved=None):
        """AROW's step on the feature difference ``delta`` (at ``keys``) with ``loss``;
        a sample weight ``scale`` multiplies the step of the weights (not the gain in
        confidence), and ``moved`` (``(keys, delta)`` scaled by the class weights of
        the gold labels) replaces ``delta`` as the step's direction."""
        sigma = state.variances(keys)
        squared = delta * delta
        alpha = scale * loss / (self.gamma + squared @ sigma)
        if moved is None:
            state.structure.add_at(state, keys, (alpha * sigma * delta, squared / self.gamma))
            return
        step_keys, step = moved
        step = alpha * state.variances(step_keys) * step
        state.structure.add_at(state, step_keys, (step, np.zeros_like(step)))
        state.structure.add_at(state, keys, (np.zeros_like(delta), squared / self.gamma))
