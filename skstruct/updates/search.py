"""Which violations to learn from, given a search trace (Huang, Fayong & Guo 2012).

Notation: for a sentence ``x`` with gold labels ``y`` of length ``n``, the search
keeps at step ``t`` a beam ``B_t`` of prefixes of length ``t + 1``, best first. A
triple ``(x, y[:t+1], z)`` with ``z != y[:t+1]`` is a *violation* when
``w . (phi(x, y[:t+1]) - phi(x, z)) <= 0`` (Definition 3), i.e. when the trace's
``margin[t] = best_score[t] - gold_score[t]`` is ``>= 0`` for ``z = B_t[0]``.
Every perceptron that updates only on violations converges on separable data with
at most ``R^2 / delta^2`` updates (Theorem 2).

A rule picks the steps ``t`` at which to update (:meth:`SearchUpdate.steps`); each
becomes the violation ``(1, y[:t+1], B_t[0])``, applied by the learner as
``phi(y[:t+1]) - phi(B_t[0])``. Rules are small estimators without parameters, so
they can be passed (and grid searched) as objects or by name.
"""

import numpy as np

from ._base import UpdateRule, Violation


class SearchUpdate(UpdateRule):
    """A rule that updates on ``(y[:t+1], B_t[0])`` at the steps :meth:`steps` picks.

    Its epoch counts: ``mistakes`` (examples with a violation), ``updates`` (pairs),
    ``invalid_updates`` (pairs that were no violation), ``invalid_standard``
    (examples on which the standard update would have been invalid) and
    ``mean_violation`` (mean margin of the pairs).
    """

    #: Violation-fixing rules read prefixes: only decoders that trace them qualify.
    required_capability = (
        "prefix_trace",
        "learns from the violations of an inexact, left-to-right search",
    )

    def steps(self, trace):
        """The steps ``t`` to update at (a list of int)."""
        raise NotImplementedError

    def epoch_stats(self):
        return {
            "mistakes": 0,
            "updates": 0,
            "invalid_updates": 0,
            "invalid_standard": 0,
            "margins": [],
        }

    def violations(self, trace, structure=None, scores=None, stats=None):
        """``(1, y[:t+1], B_t[0])`` for every step ``t`` of :meth:`steps`."""
        steps = self.steps(trace)
        found = [
            Violation(1.0, trace.gold_prefix(t), trace.prefix(t), trace.margin[t]) for t in steps
        ]
        if stats is not None:
            last = trace.best_score.shape[0] - 1  # tokens, actions, or one step for a tree
            if not trace.best_is_gold[last] and trace.margin[last] < 0:
                stats["invalid_standard"] += 1
            stats["mistakes"] += bool(found)
            stats["updates"] += len(found)
            for violation in found:
                stats["invalid_updates"] += bool(violation.margin < 0)
                stats["margins"].append(violation.margin)
        return found

    def finish_stats(self, stats):
        margins = stats.pop("margins")
        stats["mean_violation"] = float(np.mean(margins)) if margins else None
        return stats


class StandardUpdate(SearchUpdate):
    """Full update (Collins 2002): ``(y, B_{n-1}[0])`` whenever the search output is wrong.

    Valid under exact search (Lemma 1); under beam search it may update on a
    non-violation (the gold sequence scores higher but was pruned), which breaks
    convergence (sec. 3.2, Figure 1). Needs no prefixes, so it works with every
    decoder.
    """

    required_capability = None

    def steps(self, trace):
        """``[n - 1]`` when the best final sequence is not gold."""
        last = trace.best_score.shape[0] - 1
        return [] if trace.best_is_gold[last] else [last]


class EarlyUpdate(SearchUpdate):
    """Early update (Collins & Roark 2004; Huang et al. 2012, sec. 4, Algorithm 8).

    Update on the prefixes at the first step where the gold prefix falls off the
    beam; if it never does, a full update when the final best is wrong. Always a
    violation (Lemma 3).
    """

    def steps(self, trace):
        """The first step at which gold left the beam, else the standard update's."""
        fallen = np.flatnonzero(~trace.gold_in_beam)
        if fallen.size:
            return [int(fallen[0])]
        return StandardUpdate().steps(trace)


class HybridUpdate(SearchUpdate):
    """Hybrid update (sec. 5, method 1): the standard update when it is a violation,
    else the early update."""

    def steps(self, trace):
        """``[n - 1]`` if the full update is valid, else the early update's step."""
        last = trace.best_score.shape[0] - 1
        if not trace.best_is_gold[last] and trace.margin[last] >= 0:
            return [last]
        return EarlyUpdate().steps(trace)


class MaxViolationUpdate(SearchUpdate):
    """Max-violation update (sec. 5, method 2): the prefix pair that is most violated,
    ``argmin_t w . (phi(y[:t+1]) - phi(B_t[0]))`` over violations (first on ties)."""

    def steps(self, trace):
        """The step of largest ``margin`` among violations, if any."""
        candidates = _violating_steps(trace)
        if not candidates.size:
            return []
        return [int(candidates[np.argmax(trace.margin[candidates])])]


class LatestUpdate(SearchUpdate):
    """Latest update (sec. 5, method 3): the longest prefix pair that is still a
    violation, ``argmax_t |B_t[0]|`` subject to ``w . delta phi <= 0``."""

    def steps(self, trace):
        """The last violating step, if any."""
        candidates = _violating_steps(trace)
        return [int(candidates[-1])] if candidates.size else []


class LaSOUpdate(SearchUpdate):
    """LaSO-style continuation (Daume & Marcu 2005; Huang et al. 2012, sec. 7).

    Whenever the gold prefix falls off the beam, record an early-update violation and
    restart the search from the gold prefix; at the end, a full update if the final
    best is wrong. All recorded violations are applied together after the search of
    the example (every one was a violation under the weights that searched, so their
    sum is too); Daume & Marcu update before continuing instead.
    """

    restarts = True
    required_capability = ("restarts", "restarts the search from the gold prefix (LaSO)")

    def steps(self, trace):
        """Every restart step, plus ``n - 1`` when the final best is not gold."""
        last = trace.best_score.shape[0] - 1
        steps = [int(t) for t in np.flatnonzero(trace.fell_off)]
        if not trace.best_is_gold[last] and (not steps or steps[-1] != last):
            steps.append(last)
        return steps


def _violating_steps(trace):
    """Steps whose best prefix is wrong and scores at least the gold prefix."""
    return np.flatnonzero((trace.margin >= 0) & ~trace.best_is_gold)


#: The rule classes by the names ``update=`` accepts.
UPDATE_RULES = {
    "standard": StandardUpdate,
    "early": EarlyUpdate,
    "hybrid": HybridUpdate,
    "max_violation": MaxViolationUpdate,
    "latest": LatestUpdate,
    "laso": LaSOUpdate,
}
