"""Fused epochs: a whole epoch in one kernel, for the (structure, decoder, update rule)
combinations a kernel covers.

The generic loop (:meth:`BaseStructuredLearner.run_epoch`) calls Python per sentence;
at ~25 tokens a sentence that dispatch costs more than the arithmetic, so the common
combinations run in one kernel instead. A fused epoch is registered for exact types
(a subclass of a rule or decoder may change what it does, so it takes the generic
loop) and must give what the generic loop gives: tests check each against it.
"""

from typing import NamedTuple

import numpy as np

from .._kernels import beam as _beam
from .._kernels import chain as _chain
from .._kernels import swvp as _swvp
from .._kernels import tree as _tree
from .._kernels.balance import sentence_parts
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
from ..utils.parts import longest_sentence, on_threads

#: (structure type, decoder type, rule type) -> (covers, epoch)
FUSED_EPOCHS = {}


class Minibatch(NamedTuple):
    """How an epoch visits its examples: ``size`` at a time, decoded against the
    weights the batch starts from on up to ``threads`` threads, updates applied in
    order (Zhao & Huang 2013). ``size=1`` is the online perceptron."""

    size: int
    threads: int

    #: ``batch_size="auto"`` keeps this many rounds of updates an epoch (batches of
    #: ``n_examples // AUTO_ROUNDS``, 1 to ``AUTO_MAX``): see ``StructuredPerceptron``'s
    #: ``batch_size`` for the measurements behind both numbers.
    AUTO_ROUNDS = 1600
    AUTO_MAX = 32

    @classmethod
    def of(cls, batch_size, n_examples, threads):
        """The minibatches of an epoch over ``n_examples`` for a ``batch_size``
        parameter (an int, or ``"auto"``). Never depends on ``threads``, so neither
        does any result."""
        if batch_size == "auto":
            batch_size = min(max(n_examples // cls.AUTO_ROUNDS, 1), cls.AUTO_MAX)
        return cls(batch_size, threads)

    def batches(self, order):
        """Consecutive pieces of ``order``, ``size`` long (the last may be shorter)."""
        return [order[lo : lo + self.size] for lo in range(0, len(order), self.size)]

    def parallel(self, batch):
        """Whether decoding ``batch`` is worth waking the thread pool."""
        return self.threads > 1 and len(batch) > 1

    @property
    def kernel_threads(self):
        """The threads of a minibatch epoch kernel: None (one thread, and no parallel
        code compiled) for one thread or batches of one, else ``threads``."""
        return self.threads if self.threads > 1 and self.size > 1 else None

    def kernel(self, batch, module, name):
        """The kernel ``module.name`` that decodes ``batch``: the parallel one, or its
        one-thread twin ``name + "_serial"`` (no thread pool to wake)."""
        return getattr(module, name if self.parallel(batch) else f"{name}_serial")

    def parts(self, offsets, batch, power):
        """``(schedule, part_start)``: the sentences of ``batch`` in a part per thread of
        near-equal cost (length ** ``power``; see ``_kernels.balance``)."""
        return sentence_parts(offsets, batch, self.threads if self.parallel(batch) else 1, power)


def token_starts(offsets, batch):
    """Where each sentence of ``batch`` starts in a buffer of the batch's tokens
    (int64 (len(batch) + 1,), the last entry the total)."""
    starts = np.zeros(len(batch) + 1, dtype=np.int64)
    np.cumsum(offsets[batch + 1] - offsets[batch], out=starts[1:])
    return starts


def register(structure, decoder, rule, covers=None):
    """Register ``epoch(structure, decoder, rule, encoded, outputs, order, state,
    minibatch) -> stats`` for exact types; ``covers(structure, decoder, rule)`` may
    narrow it down."""

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
def chain_perceptron_epoch(structure, decoder, rule, encoded, labels, order, state, minibatch):
    """Collins' perceptron on a chain: Viterbi and full updates, in one kernel."""
    mistakes = correct = 0
    order = np.asarray(order, dtype=np.int64)
    while order.size:
        args = (encoded.indptr, encoded.indices, encoded.data, encoded.offsets, labels, order,
                structure.rows.arrays, state.coef, state.coef_sum, structure.n_labels,
                structure.order, structure.trigrams, state.n_seen)  # fmt: skip
        if minibatch.size > 1:
            epoch = _chain.viterbi_minibatch_epoch(*args, minibatch.size, minibatch.kernel_threads)
        else:
            sparse = structure.rows.sparse_flag(structure.n_labels)  # None: full rows
            epoch = _chain.perceptron_epoch(*args, sparse)
        state.n_seen, wrong, right, visited = epoch
        mistakes, correct, order = mistakes + wrong, correct + right, order[visited:]
        if order.size:  # the emission pool is full: grow it, go on from there
            structure.grow(state)
    return _standard_stats(mistakes, correct)


def _tree_perceptron_epoch(structure, decoder, rule, encoded, outputs, order, state, minibatch):
    """Collins' perceptron on trees: Eisner or Chu-Liu-Edmonds and full updates."""
    heads, labels = structure.split_outputs(outputs)
    options = (structure.siblings, structure.grandparent_parts,
               None if decoder.projective else True, structure.single_root,
               structure.label_count)  # fmt: skip
    if minibatch.size > 1:
        return _tree_minibatch_epoch(structure, options, encoded, heads, labels, order, state,
                                     minibatch)  # fmt: skip
    mistakes, correct, state.n_seen = _tree.perceptron_epoch(
        encoded.attrs, encoded.offsets, heads, labels, np.asarray(order, dtype=np.int64),
        state.coef, state.coef_sum, state.n_seen, structure.n_features, *options,
    )  # fmt: skip
    return _standard_stats(mistakes, correct)


def _tree_minibatch_epoch(structure, options, encoded, heads, labels, order, state, minibatch):
    """Minibatches of trees: a batch's trees decoded against the weights it starts from
    (``decode_trees`` on a part of the batch per thread, parts of near-equal cubic cost),
    then its updates applied in order."""
    offsets, n_tokens = encoded.offsets, encoded.offsets[-1]
    pred_heads, pred_labels = np.empty(n_tokens, np.int64), np.zeros(n_tokens, np.int64)
    # a work array per part (there are at most ``threads`` parts): each call its own
    works = [_tree.scratch(longest_sentence(offsets), options[0]) for _ in range(minibatch.threads)]
    mistakes = correct = 0
    for batch in minibatch.batches(np.asarray(order, dtype=np.int64)):
        schedule, part_start = minibatch.parts(offsets, batch, 3)
        parts = [(works[p], batch[schedule[part_start[p] : part_start[p + 1]]])
                 for p in range(part_start.size - 1)]  # fmt: skip

        def decide(part):
            work, sentences = part
            _tree.decode_trees(encoded.attrs, offsets, sentences, state.coef,
                               structure.n_features, *options, work, pred_heads,
                               pred_labels)  # fmt: skip

        on_threads(decide, parts)
        wrong, right, state.n_seen = _tree.apply_tree_decisions(
            encoded.attrs, offsets, heads, labels, batch, pred_heads, pred_labels, state.coef,
            state.coef_sum, state.n_seen, structure.n_features, options[0], options[1],
            options[4],
        )  # fmt: skip
        mistakes, correct = mistakes + wrong, correct + right
    return _standard_stats(mistakes, correct)


register(ArcFactoredTree, Eisner, StandardUpdate)(_tree_perceptron_epoch)
register(ArcFactoredTree, ChuLiuEdmonds, StandardUpdate)(_tree_perceptron_epoch)


@register(
    LinearChain,
    Viterbi,
    MixedAssignments,
    covers=lambda structure, decoder, rule: rule.kernel_options() is not None,
)
def chain_swvp_epoch(structure, decoder, rule, encoded, labels, order, state, minibatch):
    """SWVP on a chain with built-in substructures and gamma, in one kernel."""
    counts = np.zeros(_swvp.N_COUNTS + 1, dtype=np.int64)
    order = np.asarray(order, dtype=np.int64)
    if minibatch.size > 1:
        scratch = _chain.thread_viterbi_rows(encoded.offsets, structure.n_labels,
                                             minibatch.threads)  # fmt: skip
        for batch in minibatch.batches(order):
            counts += _swvp_minibatch(structure, rule, encoded, labels, batch, state, minibatch,
                                      scratch)  # fmt: skip
        order = order[:0]
    while order.size:
        state.n_seen, visited = _swvp.swvp_epoch(
            encoded.indptr, encoded.indices, encoded.data, encoded.offsets, labels, order,
            structure.rows.arrays, state.coef, state.coef_sum, structure.n_labels,
            structure.order, structure.trigrams, state.n_seen, *rule.kernel_options(), counts,
        )  # fmt: skip
        order = order[visited:]
        if order.size:  # the emission pool is full: grow it, go on from there
            structure.grow(state)
    stats = dict(zip(COUNT_NAMES, counts[: _swvp.N_COUNTS].tolist()))
    stats["correct"] = int(counts[_swvp.N_COUNTS])
    return stats


def _swvp_minibatch(structure, rule, encoded, labels, batch, state, minibatch, scratch):
    """One SWVP minibatch: terms chosen in parallel, applied in order; returns counts.
    ``scratch``: the decoders' buffers, one per thread (``swvp_decisions``)."""
    starts = token_starts(encoded.offsets, batch)
    n_tokens = starts[-1]
    terms = (
        np.empty(n_tokens, dtype=np.int32),  # predicted labels
        np.empty(batch.size, dtype=np.int64),  # ranges per sentence
        np.empty(n_tokens, dtype=np.int64),  # range starts
        np.empty(n_tokens, dtype=np.int64),  # range stops
        np.empty(n_tokens, dtype=np.bool_),  # used
        np.empty(n_tokens),  # gamma
        np.zeros((batch.size, _swvp.N_COUNTS + 1), dtype=np.int64),
    )
    data = (encoded.indptr, encoded.indices, encoded.data, encoded.offsets, labels, batch, starts)
    decide = minibatch.kernel(batch, _swvp, "swvp_decisions")
    decide(*data, structure.rows.arrays, state.coef, structure.n_labels, structure.order,
           *rule.kernel_options(), *terms,
           *minibatch.parts(encoded.offsets, batch, 1), *scratch)  # fmt: skip
    while True:
        n_seen = _swvp.apply_swvp_decisions(
            *data, structure.rows.arrays, state.coef, state.coef_sum, structure.n_labels,
            structure.order, structure.trigrams, state.n_seen, *terms,
        )  # fmt: skip
        if n_seen >= 0:
            state.n_seen = n_seen
            return terms[-1].sum(axis=0)
        structure.grow(state)  # nothing was applied: grow, apply the batch again


#: Single-step violation-fixing rules and their kernel codes.
_SEARCH_RULES = {
    StandardUpdate: _beam.RULE_STANDARD,
    EarlyUpdate: _beam.RULE_EARLY,
    HybridUpdate: _beam.RULE_HYBRID,
    MaxViolationUpdate: _beam.RULE_MAX_VIOLATION,
    LatestUpdate: _beam.RULE_LATEST,
}


def chain_search_epoch(structure, decoder, rule, encoded, labels, order, state, minibatch):
    """Beam search (an exact one for Viterbi) and a single-step violation-fixing
    update on a chain, in one kernel (online, or a minibatch at a time)."""
    beam_size = structure.n_states if isinstance(decoder, Viterbi) else decoder.beam_size
    order = np.asarray(order, dtype=np.int64)
    counts = np.zeros(_beam.N_EPOCH_COUNTS, dtype=np.int64)
    margins = np.empty(order.size)
    while order.size:
        args = (encoded.indptr, encoded.indices, encoded.data, encoded.offsets, labels, order,
                structure.rows.arrays, state.coef, state.coef_sum, structure.n_labels,
                structure.order, structure.trigrams, state.n_seen, beam_size,
                _SEARCH_RULES[type(rule)], counts, margins)  # fmt: skip
        if minibatch.size > 1:
            epoch = _beam.search_minibatch_epoch(*args, minibatch.size, minibatch.kernel_threads)
        else:
            epoch = _beam.search_update_epoch(*args)
        state.n_seen, visited = epoch
        order = order[visited:]
        if order.size:  # the emission pool is full: grow it, go on from there
            structure.grow(state)
    return _search_stats(counts, margins[: counts[_beam.COUNT_UPDATES]])


def _search_stats(counts, margins):
    return {
        "mistakes": int(counts[_beam.COUNT_MISTAKES]),
        "updates": int(counts[_beam.COUNT_UPDATES]),
        "invalid_updates": int(counts[_beam.COUNT_INVALID]),
        "invalid_standard": int(counts[_beam.COUNT_INVALID_STANDARD]),
        "mean_violation": float(np.mean(margins)) if margins.size else None,
        "correct": int(counts[_beam.COUNT_CORRECT]),
    }


for _rule in _SEARCH_RULES:
    for _decoder in (BeamSearch, Greedy):
        register(LinearChain, _decoder, _rule)(chain_search_epoch)
    if _rule is not StandardUpdate:  # Viterbi with the standard update has its own kernel
        register(LinearChain, Viterbi, _rule)(chain_search_epoch)
