"""PassiveAggressive: CRFsuite's online passive-aggressive learner (Crammer et al. 2006),
the base learner's loop with the passive-aggressive update rule."""

from numbers import Integral, Real

from ..engine import BaseStructuredLearner
from ..updates import PassiveAggressiveUpdate
from ..utils._sklearn_compat import Interval, StrOptions


class PassiveAggressive(BaseStructuredLearner):
    """Passive-aggressive training of a linear chain, as CRFsuite's ``pa`` algorithm.

    For each training sequence in turn, decode ``y* = argmax w . phi(x, y')``; when
    ``y* != y``, with ``d = phi(x, y) - phi(x, y*)`` and ``rho`` wrong tokens, make
    ``w += tau d`` for ``loss = w . phi(x, y*) - w . phi(x, y) + sqrt(rho)`` and

    - PA (``pa_type=0``): ``tau = loss / ||d||^2``,
    - PA-I (``pa_type=1``): ``tau = min(c, loss / ||d||^2)``,
    - PA-II (``pa_type=2``): ``tau = loss / (||d||^2 + 1 / (2 c))``

    (:class:`~skstruct.updates.PassiveAggressiveUpdate`). With ``averaging`` the model
    is the average of ``w`` over every example visited. Training stops after
    ``max_iter`` epochs, or after an epoch whose summed loss over the ``n`` training
    sequences has ``loss / n < epsilon``. Parameters and defaults are CRFsuite's
    (``train_passive_aggressive.c``); ``StructuredPerceptron(update=
    PassiveAggressiveUpdate(...))`` is the same update without the stopping rule.

    Parameters
    ----------
    decoder : Viterbi, BeamSearch, Greedy or None, default=None
        The argmax (``None``: ``Viterbi()``, CRFsuite's first-order chain). Chains
        only: the step needs the feature difference ``d`` as a sparse vector.
    pa_type : {0, 1, 2}, default=1
        PA, PA-I or PA-II (CRFsuite's ``type``).
    c : float > 0, default=1.0
        The aggressiveness of PA-I and PA-II.
    error_sensitive : bool, default=True
        Loss with the cost ``sqrt(rho)`` of ``rho`` wrong tokens, else ``1``.
    averaging : bool, default=True
        Return the averaged weights (CRFsuite's ``averaging``).
    max_iter : int, default=100
        Epochs at most (CRFsuite's ``max_iterations``).
    epsilon : float >= 0, default=0.0
        Stop after an epoch whose mean loss per training sequence is below
        ``epsilon``. CRFsuite's default, 0, never stops early: a mistake costs at
        least 1, an epoch without one costs 0, and the test is strict.
    features, n_features, shuffle, random_state, warm_start, validation_fraction, \
n_iter_no_change, n_jobs, verbose
        As in :class:`~skstruct.StructuredPerceptron`.
    batch_size : int or "auto", default=1
        As in :class:`~skstruct.StructuredPerceptron`, but online by default, as
        CRFsuite is.
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
        As in :class:`~skstruct.StructuredPerceptron`.
    update_rule_ : PassiveAggressiveUpdate
        The update rule the parameters describe, run by the base learner's loop.
    history_ : list of dict
        Per epoch: ``mistakes`` (sequences decoded wrongly), ``updates``, ``loss``
        (the summed loss of the mistakes, CRFsuite's "Loss"), ``train_score``,
        ``dev_score``, ``seconds``.

    Notes
    -----
    Differences from CRFsuite:

    - *Features.* The weights grow as in the perceptron: any (feature, label) pair an
      update touches gets a weight, so the learner is CRFsuite run with
      ``feature.possible_states=1`` and ``feature.possible_transitions=1`` (pairs
      never touched stay at zero there too). By default CRFsuite keeps weights only
      for the pairs seen in the training data and drops the rest of each update.
      The chain also has start and stop weights (label of the first and the last
      token), which CRFsuite's has not; ``Viterbi(order=0)`` has no transitions.
    - *Averaging.* CRFsuite averages over the ``T + 1`` weight vectors from the
      initial zero one, after ``T`` examples; here the average is over the ``T``
      vectors after each example. The two differ by the factor ``T / (T + 1)``,
      which changes no prediction.
    - *Order.* ``shuffle=True`` draws the visiting order from ``random_state``, not
      CRFsuite's generator, so the weights match CRFsuite's only for the same order.
    - The loss is clipped at zero, and an update with ``d = 0`` skipped (see
      :class:`~skstruct.updates.PassiveAggressiveUpdate`): no change under exact
      search.

    References
    ----------
    K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer (2006). Online
    Passive-Aggressive Algorithms. JMLR 7, 551-585.

    N. Okazaki (2007). CRFsuite: a fast implementation of Conditional Random Fields.
    ``lib/crf/src/train_passive_aggressive.c``.

    Examples
    --------
    >>> from skstruct import PassiveAggressive, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> X, y = make_chain_data(200, random_state=0)
    >>> model = PassiveAggressive(pa_type=1, c=1.0, max_iter=10, features=TokenFeatures(),
    ...                           random_state=0).fit(X[:150], y[:150])
    >>> round(model.score(X[150:], y[150:]), 2)
    0.96
    >>> sorted(model.history_[0])
    ['dev_score', 'epoch', 'loss', 'mistakes', 'seconds', 'sequences', 'train_score', 'updates']
    """

    _parameter_constraints: dict = {
        **{k: v for k, v in BaseStructuredLearner._parameter_constraints.items() if k != "average"},
        **PassiveAggressiveUpdate._parameter_constraints,  # the rule's parameters are PA's
        "averaging": ["boolean"],
        "epsilon": [Interval(Real, 0, None, closed="left")],
        "batch_size": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
    }

    def __init__(
        self,
        decoder=None,
        *,
        pa_type=1,
        c=1.0,
        error_sensitive=True,
        averaging=True,
        max_iter=100,
        epsilon=0.0,
        features=None,
        n_features=None,
        shuffle=True,
        random_state=None,
        warm_start=False,
        validation_fraction=None,
        n_iter_no_change=None,
        batch_size=1,
        n_jobs=None,
        verbose=0,
        class_weight=None,
    ):
        self.decoder = decoder
        self.pa_type = pa_type
        self.c = c
        self.error_sensitive = error_sensitive
        self.averaging = averaging
        self.max_iter = max_iter
        self.epsilon = epsilon
        self.features = features
        self.n_features = n_features
        self.shuffle = shuffle
        self.random_state = random_state
        self.warm_start = warm_start
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.batch_size = batch_size
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.class_weight = class_weight

    @property
    def average(self):
        """``averaging``, under the name the base learner reads."""
        return self.averaging

    def _make_rule(self):
        return PassiveAggressiveUpdate(
            pa_type=self.pa_type, c=self.c, error_sensitive=self.error_sensitive
        )

    def _resolve(self):
        self.update_rule_ = self._make_rule()

    def _decoder_needs(self):
        capability, why = PassiveAggressiveUpdate.required_capability
        yield capability, why

    def _converged(self, record):
        """CRFsuite's test: the epoch's mean loss per sequence is below ``epsilon``."""
        return record["loss"] / record["sequences"] < self.epsilon
