"""TransitionDecoder: what every transition-based parser decoder shares."""

import numpy as np

from .._kernels import transition_beam as _beam
from ..structures import TransitionSystem, TransitionTrace
from ..tasks import DEPENDENCY_PARSING
from ._base import Capabilities, Decoder


class TransitionDecoder(Decoder):
    """Beam search over the actions of a transition system (its kernel module named by
    the subclass' ``kernel``); ``beam_size`` and ``projectivize`` are the subclass'
    parameters. Unlabelled parsing, exactly one root word."""

    #: The kernel module of the system, ``skstruct._kernels.<kernel>``.
    kernel = None
    single_root = True
    projective = True

    @property
    def capabilities(self):
        return Capabilities(
            task=DEPENDENCY_PARSING,
            exact=False,
            marginals=False,
            prefix_trace=True,
            restarts=False,
            mixed_assignments=False,
            relation_labels=False,
            sparse_delta=False,
            loss_augmented=False,
        )

    def make_structure(self, n_features, n_labels=0):
        """The :class:`~skstruct.structures.TransitionSystem` this decoder searches."""
        self._validate_params()
        return TransitionSystem(n_features, self.kernel)

    def decode(self, structure, scores):
        """Heads (int32 (n,)) of the best final state in the beam."""
        attrs, start, n, coef = scores
        heads = _beam.beam_search(
            attrs, start, n, coef, structure.n_features, self.beam_size, _NO_GOLD, False,
            structure.eager,
        )[0]  # fmt: skip
        return heads[1:].astype(np.int32)

    def search(self, structure, scores, gold, restarts=False):
        """Beam search tracing the gold tree's action sequence (from the static
        oracle); the trace's ``gold`` holds those actions."""
        if restarts:
            raise ValueError("LaSO restarts are not implemented for transition parsers.")
        attrs, start, n, coef = scores
        gold = structure.oracle(gold)
        result = _beam.beam_search(
            attrs, start, n, coef, structure.n_features, self.beam_size, gold, True,
            structure.eager,
        )  # fmt: skip
        heads, actions, parents, best, gold_score, in_beam, best_is_gold = result
        return TransitionTrace(
            heads[1:].astype(np.int32), gold, actions, parents, best, gold_score, in_beam,
            best_is_gold, np.zeros(2 * n, dtype=bool),
        )  # fmt: skip

    def predict(self, structure, encoded, coef):
        heads = _beam.predict_batch(
            encoded.attrs, encoded.offsets, coef, structure.n_features, self.beam_size,
            structure.eager,
        )  # fmt: skip
        return heads.astype(np.int32)


_NO_GOLD = np.zeros(0, dtype=np.int64)
