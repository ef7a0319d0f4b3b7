"""Fused epochs: a whole epoch in one kernel, for the (structure, decoder, update rule)
combinations a kernel covers.

The generic loop (:meth:`BaseStructuredLearner.run_epoch`) calls Python per sentence;
at ~25 tokens a sentence that dispatch costs more than the arithmetic, so the common
combinations run in one kernel instead. A fused epoch is registered for exact types
(a subclass of a rule or decoder may change what it does, so it takes the generic
loop) and must give what the generic loop gives: tests check each against it.
"""

import numpy as np

from .._kernels import chain as _chain
from .._kernels import swvp as _swvp
from .._kernels import tree as _tree
from ..decoders import ChuLiuEdmonds, Eisner, Viterbi
from ..structures import ArcFactoredTree, LinearChain
from ..updates import MixedAssignments, StandardUpdate
from ..updates.mixed import COUNT_NAMES

#: (structure type, decoder type, rule type) -> (covers, epoch)
FUSED_EPOCHS = {}


def register(structure, decoder, rule, covers=None):
    """Register ``epoch(structure, decoder, rule, encoded, outputs, order, state) ->
    stats`` for exact types; ``covers(structure, decoder, rule)`` may narrow it down."""

    def decorate(epoch):
        FUSED_EPOCHS[structure, decoder, rule] = (covers, epoch)
        return epoch

    return decorate


def fused_epoch(structure, decoder, rule):
    """The fused epoch registered for these objects, or None."""
    found = FUSED_EPOCHS.get((type(structure), type(decoder), type(rule)))
    if found is None:
        return None
    covers, epoch = found
    return epoch if covers is None or covers(structure, decoder, rule) else None


def _standard_stats(mistakes, correct):
    return {
        "mistakes": mistakes,
        "updates": mistakes,
        "invalid_updates": 0,
        "invalid_standard": 0,
        "mean_violation": None,
        "correct": correct,
    }


@register(LinearChain, Viterbi, StandardUpdate)
def chain_perceptron_epoch(structure, decoder, rule, encoded, labels, order, state):
    """Collins' perceptron on a chain: Viterbi and full updates, in one kernel."""
    mistakes = correct = 0
    order = np.asarray(order, dtype=np.int64)
    while order.size:
        state.n_seen, wrong, right, visited = _chain.perceptron_epoch(
            encoded.indptr, encoded.indices, encoded.data, encoded.offsets, labels, order,
            structure.rows.arrays, state.coef, state.coef_sum, structure.n_labels,
            structure.order, state.n_seen,
        )  # fmt: skip
        mistakes, correct, order = mistakes + wrong, correct + right, order[visited:]
        if order.size:  # the emission pool is full: grow it, go on from there
            structure.grow(state)
    return _standard_stats(mistakes, correct)


def _tree_perceptron_epoch(structure, decoder, rule, encoded, outputs, order, state):
    """Collins' perceptron on trees: Eisner or Chu-Liu-Edmonds and full updates."""
    heads, labels = structure.split_outputs(outputs)
    mistakes, correct, state.n_seen = _tree.perceptron_epoch(
        encoded.attrs, encoded.offsets, heads, labels, np.asarray(order, dtype=np.int64),
        state.coef, state.coef_sum, state.n_seen, structure.n_features, structure.order,
        decoder.projective, structure.single_root, structure.n_labels,
    )  # fmt: skip
    return _standard_stats(mistakes, correct)


register(ArcFactoredTree, Eisner, StandardUpdate)(_tree_perceptron_epoch)
register(ArcFactoredTree, ChuLiuEdmonds, StandardUpdate)(_tree_perceptron_epoch)


@register(
    LinearChain,
    Viterbi,
    MixedAssignments,
    covers=lambda structure, decoder, rule: rule.kernel_options() is not None,
)
def chain_swvp_epoch(structure, decoder, rule, encoded, labels, order, state):
    """SWVP on a chain with built-in substructures and gamma, in one kernel."""
    counts = np.zeros(_swvp.N_COUNTS + 1, dtype=np.int64)
    order = np.asarray(order, dtype=np.int64)
    while order.size:
        state.n_seen, visited = _swvp.swvp_epoch(
            encoded.indptr, encoded.indices, encoded.data, encoded.offsets, labels, order,
            structure.rows.arrays, state.coef, state.coef_sum, structure.n_labels,
            structure.order, state.n_seen, *rule.kernel_options(), counts,
        )  # fmt: skip
        order = order[visited:]
        if order.size:  # the emission pool is full: grow it, go on from there
            structure.grow(state)
    stats = dict(zip(COUNT_NAMES, counts[: _swvp.N_COUNTS].tolist()))
    stats["correct"] = int(counts[_swvp.N_COUNTS])
    return stats
