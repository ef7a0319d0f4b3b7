"""SearchTrace: what a search for one sentence saw, step by step, for the update rules."""

from typing import NamedTuple

import numpy as np

from .._kernels.beam import backtrack


class SearchTrace(NamedTuple):
    """Trace of a beam search over one sentence of ``n`` tokens (step ``t`` = token ``t``).

    Scores are model scores ``w . phi`` of prefixes; at the last step they include the
    stop part, so they are scores of whole sequences.
    """

    path: np.ndarray  # int32 (n,) the best final sequence
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
