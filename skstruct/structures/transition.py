"""TransitionSystem: dependency parsing as a search over parser actions."""

import importlib
from functools import cache
from typing import NamedTuple

import numpy as np

from .._kernels._config import TRUE
from ._base import Structure
from ._fixed import FixedLayout


class TransitionSystem(FixedLayout, Structure):
    """Parser actions (arc-standard, arc-eager, ...) scored by hashed state features
    conjoined with the action; the kernel module ``skstruct._kernels.<kernel>`` holds
    the system's oracle, search and features.

    A sentence of ``n`` words takes ``2 n`` actions in every system here, so the update
    rules of Huang et al. (2012) apply to action prefixes: step ``t`` of a trace is
    action ``t``. Outputs are heads, one per word.

    Parameters
    ----------
    n_features : int
        Size of the hashed weight space.
    kernel : str
        Name of the kernel module: ``"transition"`` (arc-standard) or ``"arc_eager"``.
    """

    n_labels = 0

    def __init__(self, n_features, kernel):
        self.n_features = n_features
        self.kernel = kernel

    @property
    def n_weights(self):
        return self.n_features

    @property
    def actions(self):
        """The kernel module: ``oracle``, ``replay_features``, ``N_TEMPLATES``, ..."""
        return _kernel_module(self.kernel)

    @property
    def eager(self):
        """The system flag of the beam search (``_kernels.transition_beam``): None for
        arc-standard, a numpy boolean for arc-eager."""
        return None if self.kernel == "transition" else TRUE

    def encode(self, heads, labels=None):
        return np.asarray(heads, dtype=np.int32)

    def split_outputs(self, outputs):
        outputs = np.asarray(outputs, dtype=np.int64)
        return outputs, np.zeros_like(outputs)

    def scores(self, encoded, i, coef):
        """What a search of sentence ``i`` needs: :class:`TransitionScores` (action
        scores are computed from the weights as the search goes)."""
        start = int(encoded.offsets[i])
        return TransitionScores(encoded.attrs, start, int(encoded.offsets[i + 1]) - start, coef)

    def oracle(self, heads):
        """The gold action sequence (int64 (2 n,)) of a projective tree (heads per word)."""
        n = len(heads)
        gold = np.concatenate(([-1], np.asarray(heads, dtype=np.int64)))
        actions = np.empty(2 * n, dtype=np.int64)
        if not self.actions.oracle(gold, n, actions):
            raise ValueError(
                f"No action sequence builds the tree {list(heads)}: it is not projective "
                f"(or not single-rooted)."
            )
        return actions

    def add_delta(self, encoded, i, gold, pred, coef, scale):
        """``coef += scale * (phi(gold) - phi(pred))`` for action prefixes ``gold`` and
        ``pred`` of sentence ``i`` (each replayed from the initial state)."""
        start = int(encoded.offsets[i])
        n = int(encoded.offsets[i + 1]) - start
        states = np.empty(self.actions.N_TEMPLATES, dtype=np.uint64)
        for actions, sign in ((gold, 1.0), (pred, -1.0)):
            actions = np.asarray(actions, dtype=np.int64)
            self.actions.replay_features(
                encoded.attrs, start, n, actions, len(actions), self.n_features, coef,
                sign * scale, states,
            )  # fmt: skip


class TransitionScores(NamedTuple):
    """One sentence for a transition search: the corpus' word attributes, the
    sentence's first word and length, and the weights."""

    attrs: np.ndarray
    start: int
    n: int
    coef: np.ndarray


class TransitionTrace(NamedTuple):
    """Trace of a beam search over actions (step ``t`` = action ``t``); the fields the
    update rules read are those of :class:`~skstruct.structures.SearchTrace`."""

    path: np.ndarray  # int32 (n,) heads of the best final state
    gold: np.ndarray  # int64 (2n,) the gold actions
    actions: np.ndarray  # int64 (2n, beam_size) beam items' last actions
    parents: np.ndarray  # int64 (2n, beam_size) beam items' parent slots
    best_score: np.ndarray
    gold_score: np.ndarray
    gold_in_beam: np.ndarray
    best_is_gold: np.ndarray
    fell_off: np.ndarray

    @property
    def margin(self):
        """``best_score - gold_score`` per step."""
        return self.best_score - self.gold_score

    def prefix(self, t):
        """Actions of the best prefix after step ``t`` (int64 (t + 1,))."""
        out = np.empty(t + 1, dtype=np.int64)
        slot = 0
        for step in range(t, -1, -1):
            out[step] = self.actions[step, slot]
            slot = self.parents[step, slot]
        return out

    def gold_prefix(self, t):
        """The gold actions up to step ``t``."""
        return self.gold[: t + 1]


@cache
def _kernel_module(name):
    return importlib.import_module(f"skstruct._kernels.{name}")
