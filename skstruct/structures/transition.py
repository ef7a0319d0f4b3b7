"""ArcStandardSystem: transition-based dependency parsing as a search over actions."""

from typing import NamedTuple

import numpy as np

from .._kernels import transition as _transition
from .._kernels.tree import N_ATTRS


class ArcStandardSystem:
    """Arc-standard transitions (SHIFT, LEFT-ARC, RIGHT-ARC) scored by hashed state
    features conjoined with the action (see :mod:`skstruct._kernels.transition`).

    A sentence of ``n`` words takes ``2 n`` actions, so the update rules of Huang et
    al. (2012) apply to action prefixes: step ``t`` of a trace is action ``t``.
    Outputs are heads, one per word.

    Parameters
    ----------
    n_features : int
        Size of the hashed weight space.
    """

    n_labels = 0

    def __init__(self, n_features):
        self.n_features = n_features

    @property
    def n_weights(self):
        return self.n_features

    def encode(self, heads, labels=None):
        return np.asarray(heads, dtype=np.int32)

    def split_outputs(self, outputs):
        outputs = np.asarray(outputs, dtype=np.int64)
        return outputs, np.zeros_like(outputs)

    def predict(self, encoded, coef, beam_size=1):
        """Heads (int32 (n_tokens,)) by beam search of width ``beam_size``."""
        heads = _transition.predict_batch(
            _attrs(encoded), encoded.offsets, coef, self.n_features, beam_size
        )
        return heads.astype(np.int32)

    def unary(self, encoded, i, coef):
        """What a search of sentence ``i`` needs: ``(attrs, start, n)``."""
        start = int(encoded.offsets[i])
        return _attrs(encoded), start, int(encoded.offsets[i + 1]) - start

    def oracle(self, heads):
        """The gold action sequence (int64 (2 n,)) of a projective tree (heads per word)."""
        n = len(heads)
        gold = np.concatenate(([-1], np.asarray(heads, dtype=np.int64)))
        actions = np.empty(2 * n, dtype=np.int64)
        if not _transition.oracle(gold, n, actions):
            raise ValueError(
                f"No arc-standard action sequence builds the tree {list(heads)}: it is not "
                f"projective (or not single-rooted)."
            )
        return actions

    def search(self, sentence, coef, beam_size, gold, laso=False):
        """Beam search with the gold action sequence traced: a :class:`TransitionTrace`."""
        if laso:
            raise ValueError("LaSO restarts are not implemented for transition parsers.")
        attrs, start, n = sentence
        heads, actions, parents, best, gold_score, in_beam, best_is_gold = _transition.beam_search(
            attrs, start, n, coef, self.n_features, beam_size, self.oracle(gold), True
        )
        return TransitionTrace(
            heads[1:].astype(np.int32),
            actions,
            parents,
            best,
            gold_score,
            in_beam,
            best_is_gold,
            np.zeros(2 * n, dtype=bool),
        )

    def add_delta(self, encoded, i, gold, pred, coef, scale):
        """``coef += scale * (phi(gold actions[:t]) - phi(pred))`` for an action prefix
        ``pred`` of length ``t``; ``gold`` are the gold heads."""
        attrs, start, n = self.unary(encoded, i, coef)
        states = np.empty(_transition.N_TEMPLATES, dtype=np.uint64)
        t = len(pred)
        gold_actions = self.oracle(gold)
        for actions, sign in ((gold_actions, 1.0), (np.asarray(pred, dtype=np.int64), -1.0)):
            _transition.replay_features(
                attrs, start, n, actions, t, self.n_features, coef, sign * scale, states
            )


class TransitionTrace(NamedTuple):
    """Trace of a beam search over actions (step ``t`` = action ``t``); the fields the
    update rules read are those of :class:`~skstruct.structures._trace.SearchTrace`."""

    path: np.ndarray  # int32 (n,) heads of the best final state
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


def _attrs(encoded):
    return encoded.indices.reshape(-1, N_ATTRS)
