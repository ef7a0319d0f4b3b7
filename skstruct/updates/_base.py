"""UpdateRule and Violation: what every update rule returns to the training loop."""

from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator


class Violation(NamedTuple):
    """One term of an update: ``w += weight * (phi(x, gold) - phi(x, pred))``.

    ``gold`` and ``pred`` are outputs in the search space of the structure (labels of a
    chain, output ids of a tree, actions of a transition system), possibly prefixes;
    ``margin`` is ``w . (phi(pred) - phi(gold))`` before the update (>= 0 for a
    violation in the sense of Huang et al. 2012).
    """

    weight: float
    gold: np.ndarray
    pred: np.ndarray
    margin: float


class UpdateRule(BaseEstimator):
    """Which weighted violations to learn from, given what the search found.

    The base learner's loop calls, per example, ``decoder.search`` (or, when
    :attr:`needs_trace` is False, ``decoder.decode``) and then :meth:`violations`,
    and applies the returned :class:`Violation` terms through the averaged weights.
    A rule counts what it did into the epoch's ``stats`` dict (the learner's
    ``history_`` record). A rule that reads the example's features (the size of its
    feature difference, :class:`~skstruct.updates.PassiveAggressiveUpdate`) sets
    :attr:`needs_example` and gets the :class:`Example` too.
    """

    _parameter_constraints: dict = {}

    #: Whether the rule reads a search trace (else only the decoded output).
    needs_trace = True
    #: Whether :meth:`violations` takes the training example (``example=``).
    needs_example = False
    #: Whether the search must restart from gold when it falls off the beam (LaSO).
    restarts = False
    #: The decoder capability a rule needs, with what to say when it is missing.
    required_capability = None

    def epoch_stats(self):
        """The counts of an epoch before its first example."""
        return {}

    def violations(self, trace, structure=None, scores=None, stats=None):
        """The weighted violations of one example (a list of :class:`Violation`).

        Parameters
        ----------
        trace : SearchTrace, TransitionTrace, OutputTrace or DecodedOutput
            What the search found (``path``) for the gold output (``gold``).
        structure, scores : optional
            The example's structure and part scores, for rules that score outputs of
            their own (SWVP's mixed assignments).
        stats : dict or None
            The epoch's counts, updated in place.

        Rules with :attr:`needs_example` also take ``example`` (an :class:`Example`).
        """
        raise NotImplementedError

    def finish_stats(self, stats):
        """The epoch's counts as recorded in ``history_``."""
        return stats


class DecodedOutput(NamedTuple):
    """What a rule without a trace (``needs_trace = False``) gets: the decoded output
    and the gold one."""

    path: np.ndarray
    gold: np.ndarray


class Example(NamedTuple):
    """The training example a rule with ``needs_example`` decides on: sentence ``index``
    of the encoded corpus ``encoded``, for ``structure.delta(encoded, index, gold,
    pred)`` (its feature difference as a sparse vector)."""

    encoded: object
    index: int
