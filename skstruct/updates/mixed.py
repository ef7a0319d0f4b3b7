"""SWVP's update: a weighted sum of mixed assignments (Dror & Reichart 2016, Alg. 2)."""

import itertools
from numbers import Real

import numpy as np

from .._kernels import swvp as _swvp
from ..utils._sklearn_compat import Interval, StrOptions
from ._base import UpdateRule, Violation

SUBSTRUCTURES = {
    "single": _swvp.SUBSTRUCTURES_SINGLE,
    "errors": _swvp.SUBSTRUCTURES_ERRORS,
    "spans": _swvp.SUBSTRUCTURES_SPANS,
    "full": _swvp.SUBSTRUCTURES_FULL,
}
GAMMAS = {"wm": _swvp.GAMMA_WM, "wmr": _swvp.GAMMA_WMR, "uniform": _swvp.GAMMA_UNIFORM}
# 2^L mixed assignments per sentence: beyond this length "all" is refused.
MAX_LENGTH_ALL = 12
#: The epoch counts, in the order of the SWVP kernel's ``counts`` array.
COUNT_NAMES = (
    "mistakes",
    "updates",
    "terms",
    "csp_backoffs",
    "dropped_terms",
    "condition2_failures",
    "stuck",
)


class MixedAssignments(UpdateRule):
    """The update of the Structured Weighted Violations Perceptron.

    When the prediction ``y*`` differs from ``y``, form for each substructure ``J``
    (a set of positions) the mixed assignment ``m^J`` (``y*`` on ``J``, ``y``
    elsewhere) and return the violations ``(gamma_J, y, m^J)``. The parameters are
    those of :class:`~skstruct.SWVP`, which documents them; ``substructures="full"``
    is Collins' update.

    Parameters
    ----------
    substructures : {"single", "errors", "spans", "full", "all"} or callable, \
            default="single"
    gamma : {"wm", "wmr", "uniform"} or callable, default="wm"
    mode : {"aggressive", "balanced"}, default="aggressive"
    beta : float, default=1.0
    enforce_conditions : bool, default=True
    """

    needs_trace = False
    required_capability = (
        "mixed_assignments",
        "SWVP mixes the prediction and the gold output position by position, which needs "
        "a factored output (chains, or graph-based trees with Eisner / ChuLiuEdmonds)",
    )
    _parameter_constraints: dict = {
        "substructures": [StrOptions({*SUBSTRUCTURES, "all"}), callable],
        "gamma": [StrOptions(set(GAMMAS)), callable],
        "mode": [StrOptions({"aggressive", "balanced"})],
        "beta": [Interval(Real, 0, None, closed="left")],
        "enforce_conditions": ["boolean"],
    }

    def __init__(
        self, substructures="single", gamma="wm", mode="aggressive", beta=1.0,
        enforce_conditions=True,
    ):  # fmt: skip
        self.substructures = substructures
        self.gamma = gamma
        self.mode = mode
        self.beta = beta
        self.enforce_conditions = enforce_conditions

    def kernel_options(self):
        """The options as the fused kernel's int codes, or None when a callable or
        ``"all"`` needs the Python loop."""
        if not (isinstance(self.substructures, str) and self.substructures in SUBSTRUCTURES):
            return None
        if not isinstance(self.gamma, str):
            return None
        return (
            SUBSTRUCTURES[self.substructures],
            GAMMAS[self.gamma],
            float(self.beta),
            self.mode == "aggressive",
            self.enforce_conditions,
        )

    def epoch_stats(self):
        return dict.fromkeys(COUNT_NAMES, 0)

    def violations(self, trace, structure=None, scores=None, stats=None):
        """``(gamma_J, y, m^J)`` for the mixed assignments in play (CSP's ``(1, y, y*)``
        when none violates and the conditions are enforced)."""
        stats = self.epoch_stats() if stats is None else stats
        gold, pred = trace.gold, trace.path
        if not (pred != gold).any():
            return []
        stats["mistakes"] += 1
        mixed, margins = [], []
        for J in self._substructure_sets(gold, pred):
            m = gold.copy()
            m[J] = pred[J]
            mixed.append(m)
            a, b = (int(J.min()), int(J.max()) + 1) if J.size else (0, 0)
            margins.append(structure.margin(scores, gold, m, a, b))
        margins = np.array(margins)
        differs = np.array([bool((m != gold).any()) for m in mixed])
        used = np.zeros(len(mixed), dtype=bool)
        ranked = np.zeros(len(mixed), dtype=bool)
        gamma = np.zeros(len(mixed))
        counts = np.zeros(_swvp.N_COUNTS + 1, dtype=np.int64)
        case = self._choose_terms(margins, differs, used, ranked, gamma, counts)
        for name, count in zip(COUNT_NAMES, counts.tolist()):
            stats[name] += count
        if case == 2:  # stuck: no update
            return []
        stats["updates"] += 1
        if case == 1:  # CSP back-off (its margin is not needed: SWVP records none)
            found = [Violation(1.0, gold, pred, np.nan)]
        else:
            found = [
                Violation(float(g), gold, m, -float(margin))
                for m, g, margin in zip(mixed, gamma, margins)
                if g != 0.0
            ]
        stats["terms"] += len(found)
        return found

    def _substructure_sets(self, gold, pred):
        n = gold.shape[0]
        if callable(self.substructures):
            return [np.asarray(J, dtype=np.int64) for J in self.substructures(gold, pred)]
        if self.substructures == "all":
            if n > MAX_LENGTH_ALL:
                raise ValueError(
                    f"substructures='all' makes 2**{n} mixed assignments for this {n}-token "
                    f"sequence; it is allowed up to {MAX_LENGTH_ALL} tokens. Use 'single', "
                    f"'spans' or a callable."
                )
            return [
                np.array(J, dtype=np.int64)
                for size in range(1, n + 1)
                for J in itertools.combinations(range(n), size)
            ]
        starts = np.empty(n, dtype=np.int64)
        stops = np.empty(n, dtype=np.int64)
        count = _swvp.substructure_ranges(
            gold, pred, n, SUBSTRUCTURES[self.substructures], starts, stops
        )
        return [np.arange(a, b) for a, b in zip(starts[:count], stops[:count])]

    def _choose_terms(self, margins, differs, used, ranked, gamma, counts):
        """Which terms to use and their gamma: returns 0 (use them), 1 (CSP back-off)
        or 2 (stuck: no update), counting into ``counts`` as the kernel does."""
        aggressive = self.mode == "aggressive"
        if not callable(self.gamma):
            return _swvp.choose_terms(
                margins, differs, margins.shape[0], GAMMAS[self.gamma], float(self.beta),
                aggressive, self.enforce_conditions, used, ranked, gamma, counts,
            )  # fmt: skip
        # A user SETGAMMA: the same selection, enforcement and back-off as the kernel.
        used[:] = differs & ((margins <= 0) | (not aggressive))
        violating = differs & (margins <= 0)
        if not violating.any() and (self.enforce_conditions or aggressive):
            counts[_swvp.COUNT_BACKOFFS if self.enforce_conditions else _swvp.COUNT_STUCK] += 1
            return 1 if self.enforce_conditions else 2
        while True:
            gamma[:] = 0.0
            weights = np.asarray(self.gamma(margins[used]), dtype=float)
            if weights.shape != (int(used.sum()),) or (weights < 0).any() or weights.sum() <= 0:
                raise ValueError(
                    f"gamma returned {weights!r} for {int(used.sum())} mixed assignments; it "
                    f"must return that many non-negative weights, not all zero."
                )
            gamma[used] = weights / weights.sum()
            if aggressive or not self.enforce_conditions or gamma @ margins <= 0:
                break
            worst = np.flatnonzero(used & (margins > 0))
            used[worst[np.argmax(margins[worst])]] = False
            counts[_swvp.COUNT_DROPPED] += 1
        if not aggressive and not self.enforce_conditions and gamma @ margins > 0:
            counts[_swvp.COUNT_CONDITION_FAILED] += 1
        return 0
