"""The passive-aggressive update (Crammer et al. 2006), as CRFsuite's
``train_passive_aggressive.c`` makes it for linear chains.

For an example ``(x, y)`` whose decoded output ``y*`` differs from ``y`` with loss
``rho = structure.loss(encoded, i, y, y*)`` (Hamming, the tokens labelled wrong, for chains), with
``d = phi(x, y) - phi(x, y*)``, the cost

    loss = w . phi(x, y*) - w . phi(x, y) + sqrt(rho)      (error_sensitive)
    loss = w . phi(x, y*) - w . phi(x, y) + 1              (otherwise)

(the prediction-based cost-sensitive loss of sec. 6, with ``sqrt(rho)`` the square root
of the Hamming cost) gives the step

    tau = loss / ||d||^2                    PA       (pa_type=0, eq. 6)
    tau = min(c, loss / ||d||^2)            PA-I     (pa_type=1, eq. 7)
    tau = loss / (||d||^2 + 1 / (2 c))      PA-II    (pa_type=2, eq. 8)

and the update ``w += tau d``: one violation ``(tau, y, y*)`` for the learner's loop.
No update when ``y* == y``.
"""

from numbers import Integral, Real

import numpy as np

from ..utils._sklearn_compat import Interval
from ._base import UpdateRule, Violation

PA, PA_I, PA_II = 0, 1, 2


class PassiveAggressiveUpdate(UpdateRule):
    """The passive-aggressive step: the smallest change of ``w`` that scores the gold
    output above the prediction by the cost (PA), capped (PA-I) or softened (PA-II).

    When the decoded output ``y*`` differs from ``y`` on ``rho`` tokens, with
    ``d = phi(x, y) - phi(x, y*)`` and
    ``loss = w . phi(x, y*) - w . phi(x, y) + sqrt(rho)`` (``+ 1`` when not
    ``error_sensitive``), return the violation ``(tau, y, y*)`` with
    ``tau = loss / ||d||^2`` (PA), ``min(c, loss / ||d||^2)`` (PA-I) or
    ``loss / (||d||^2 + 1 / (2 c))`` (PA-II): the learner then makes
    ``w += tau d``. This is CRFsuite's ``train_passive_aggressive.c``, formula for
    formula; ``||d||^2`` comes from the structure's sparse feature difference
    (``structure.delta``), so the rule works with the chain decoders
    (:class:`~skstruct.Viterbi`, :class:`~skstruct.BeamSearch`,
    :class:`~skstruct.Greedy`).

    Use it as ``StructuredPerceptron(update=PassiveAggressiveUpdate(...))``, or through
    :class:`~skstruct.PassiveAggressive`, which adds CRFsuite's defaults and stopping
    rule.

    Parameters
    ----------
    pa_type : {0, 1, 2}, default=1
        ``0``: PA, no slack; ``1``: PA-I; ``2``: PA-II (CRFsuite's ``type``).
    c : float > 0, default=1.0
        The aggressiveness ``C`` of PA-I and PA-II (unused by PA).
    error_sensitive : bool, default=True
        Cost ``sqrt(rho)`` for an output of loss ``rho`` (``structure.loss``: the
        number of wrongly labelled tokens for chains), else ``1``.

    Notes
    -----
    Deviations from CRFsuite, neither of which changes anything under exact
    (Viterbi) search: the loss is clipped at zero, as the hinge loss of the paper is
    (an inexact search may return an output scoring below gold by more than the cost:
    no update then); and an update whose ``d`` is zero (the prediction differs from
    gold only in parts that have no features) is skipped, where PA's step would be
    ``0 / 0`` (``tau * 0`` in the other variants).

    The epoch's counts (``history_``): ``mistakes`` (examples decoded wrongly),
    ``updates`` and ``loss``, the summed loss of the mistakes (CRFsuite's "Loss", which
    its stopping rule reads).

    References
    ----------
    K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer (2006). Online
    Passive-Aggressive Algorithms. JMLR 7, 551-585 (sec. 3, eqs. 6-8; sec. 6).

    N. Okazaki (2007). CRFsuite: a fast implementation of Conditional Random Fields.
    ``lib/crf/src/train_passive_aggressive.c``.

    Examples
    --------
    >>> from skstruct import StructuredPerceptron, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> from skstruct.updates import PassiveAggressiveUpdate
    >>> X, y = make_chain_data(200, random_state=0)
    >>> model = StructuredPerceptron(update=PassiveAggressiveUpdate(pa_type=2, c=0.1),
    ...                              features=TokenFeatures(), random_state=0)
    >>> round(model.fit(X[:150], y[:150]).score(X[150:], y[150:]), 2)
    0.97
    """

    needs_trace = False
    needs_example = True
    required_capability = (
        "sparse_delta",
        "the passive-aggressive step divides by ||phi(y) - phi(y*)||^2, which needs the "
        "feature difference as a sparse vector (structure.delta)",
    )
    _parameter_constraints: dict = {
        "pa_type": [Interval(Integral, 0, 2, closed="both")],
        "c": [Interval(Real, 0, None, closed="neither")],
        "error_sensitive": ["boolean"],
    }

    def __init__(self, pa_type=1, c=1.0, error_sensitive=True):
        self.pa_type = pa_type
        self.c = c
        self.error_sensitive = error_sensitive

    def epoch_stats(self):
        return {"mistakes": 0, "updates": 0, "loss": 0.0}

    def violations(self, trace, structure=None, scores=None, stats=None, example=None):
        """``[(tau, y, y*)]`` when ``y* != y`` (and the step is not zero), else ``[]``."""
        stats = self.epoch_stats() if stats is None else stats
        gold, pred = trace.gold, trace.path
        if not np.any(gold != pred):
            return []
        stats["mistakes"] += 1
        margin = structure.margin(scores, gold, pred, 0, gold.shape[0])  # w . d
        cost = (
            np.sqrt(structure.loss(example.encoded, example.index, gold, pred))
            if self.error_sensitive
            else 1.0
        )
        loss = max(float(cost - margin), 0.0)
        stats["loss"] += loss
        _, delta = structure.delta(example.encoded, example.index, gold, pred)
        norm2 = float(delta @ delta)
        if loss == 0.0 or norm2 == 0.0:
            return []
        stats["updates"] += 1
        return [Violation(self.step(loss, norm2), gold, pred, -margin)]

    def step(self, loss, norm2):
        """``tau`` for a ``loss`` and ``||d||^2 = norm2`` (both > 0)."""
        if self.pa_type == PA_I:
            return min(self.c, loss / norm2)
        if self.pa_type == PA_II:
            return loss / (norm2 + 0.5 / self.c)
        return loss / norm2
