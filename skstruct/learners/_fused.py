"""Fused epochs: a whole epoch in one kernel, for the (structure, decoder, update rule)
combinations a kernel covers.

The generic loop (:meth:`BaseStructuredLearner.run_epoch`) calls Python per sentence;
at ~25 tokens a sentence that dispatch costs more than the arithmetic, so the common
combinations run in one kernel instead. A fused epoch is registered for exact types
(a subclass of a rule or decoder may change what it does, so it takes the generic
loop) and must give what the generic loop gives: tests check each against it.
"""

import numpy as np

from .._kernels import beam as _beam
from .._kernels import chain as _chain
from .._kernels import swvp as _swvp
from .._kernels import tree as _tree
from ..decoders import BeamSearch, ChuLiuEdmonds, Eisner, Greedy, Viterbi
from ..structures import ArcFactoredTree, LinearChain
from ..updates import (
    EarlyUpdate,
    HybridUpdate,
    LatestUpdate,
    MaxViolationUpdate,
    MixedAssignments,
    StandardUpdate,
)
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


#: Single-step violation-fixing rules and their kernel codes.
_SEARCH_RULES = {
    StandardUpdate: _beam.RULE_STANDARD,
    EarlyUpdate: _beam.RULE_EARLY,
    HybridUpdate: _beam.RULE_HYBRID,
    MaxViolationUpdate: _beam.RULE_MAX_VIOLATION,
    LatestUpdate: _beam.RULE_LATEST,
}


def chain_search_epoch(structure, decoder, rule, encoded, labels, order, state):
    """Beam search (an exact one for Viterbi) and a single-step violation-fixing
    update on a chain, in one kernel."""
    beam_size = structure.n_states if isinstance(decoder, Viterbi) else decoder.beam_size
    counts = np.zeros(_beam.N_EPOCH_COUNTS, dtype=np.int64)
    order = np.asarray(order, dtype=np.int64)
    margins = np.empty(order.size)
    while order.size:
        state.n_seen, visited = _beam.search_update_epoch(
            encoded.indptr, encoded.indices, encoded.data, encoded.offsets, labels, order,
            structure.rows.arrays, state.coef, state.coef_sum, structure.n_labels,
            structure.order, state.n_seen, beam_size, _SEARCH_RULES[type(rule)], counts, margins,
        )  # fmt: skip
        order = order[visited:]
        if order.size:  # the emission pool is full: grow it, go on from there
            structure.grow(state)
    n_updates = int(counts[_beam.COUNT_UPDATES])
    return {
        "mistakes": int(counts[_beam.COUNT_MISTAKES]),
        "updates": n_updates,
        "invalid_updates": int(counts[_beam.COUNT_INVALID]),
        "invalid_standard": int(counts[_beam.COUNT_INVALID_STANDARD]),
        "mean_violation": float(np.mean(margins[:n_updates])) if n_updates else None,
        "correct": int(counts[_beam.COUNT_CORRECT]),
    }


for _rule in _SEARCH_RULES:
    for _decoder in (BeamSearch, Greedy):
        register(LinearChain, _decoder, _rule)(chain_search_epoch)
    if _rule is not StandardUpdate:  # Viterbi with the standard update has its own kernel
        register(LinearChain, Viterbi, _rule)(chain_search_epoch)
