"""Search traces: what a search for one sentence saw, step by step, for the update rules."""

from typing import NamedTuple

import numpy as np

from .._kernels.beam import backtrack


class SearchTrace(NamedTuple):
    """Trace of a beam search over one sentence of ``n`` tokens (step ``t`` = token ``t``).

    Scores are model scores ``w . phi`` of prefixes; at the last step they include the
    stop part, so they are scores of whole sequences.
    """

    path: np.ndarray  # int32 (n,) the best final sequence
    gold: np.ndarray  # int32 (n,) the gold sequence
    labels: np.ndarray  # int32 (n, beam_size + 1) beam items' last labels
    parents: np.ndarray  # int32 (n, beam_size + 1) beam items' parent slots
    best_score: np.ndarray  # float64 (n,) score of the best prefix in the beam
    gold_score: np.ndarray  # float64 (n,) score of the gold prefix
    gold_in_beam: np.ndarray  # bool (n,) the gold prefix survived pruning
    best_is_gold: np.ndarray  # bool (n,) the best prefix is the gold prefix
    fell_off: np.ndarray  # bool (n,) a LaSO search restarted from gold here

    @property
    def margin(self):
        """``best_score - gold_score`` per step: >= 0 where the best prefix is a violation."""
        return self.best_score - self.gold_score

    def prefix(self, t):
        """Labels of the best prefix after step ``t`` (int32 (t + 1,))."""
        out = np.empty(t + 1, dtype=np.int32)
        backtrack(self.labels, self.parents, t, 0, out)
        return out

    def gold_prefix(self, t):
        """The gold labels up to step ``t``."""
        return self.gold[: t + 1]


class OutputTrace(NamedTuple):
    """The trace of an exact search that has no prefixes (a tree's dynamic program): one
    step, the whole output. Update rules read it as they read a :class:`SearchTrace`."""

    path: np.ndarray  # the best output
    gold: np.ndarray  # the gold output
    best_score: np.ndarray  # float64 (1,) score of the best output
    gold_score: np.ndarray  # float64 (1,) score of the gold output
    gold_in_beam: np.ndarray  # bool (1,): True (nothing is pruned)
    best_is_gold: np.ndarray  # bool (1,)
    fell_off: np.ndarray  # bool (1,): False

    @classmethod
    def of(cls, path, gold, best_score, gold_score):
        """The trace of ``path`` found for ``gold``, with their scores."""
        return cls(
            path,
            gold,
            np.array([best_score]),
            np.array([gold_score]),
            np.ones(1, dtype=bool),
            np.array([bool(np.array_equal(path, gold))]),
            np.zeros(1, dtype=bool),
        )

    @property
    def margin(self):
        return self.best_score - self.gold_score

    def prefix(self, t):
        return self.path

    def gold_prefix(self, t):
        return self.gold
