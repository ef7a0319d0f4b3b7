"""Feature differences of chains and trees as sparse vectors, and sparse additions to a
chain's weights.

``phi(x, gold) - phi(x, pred)`` is returned keyed by weight, whatever the layout (as
``LinearChain.change_since`` keys them): the position of a transition, start, stop or
trigram weight (``< n_dense``), or ``n_dense + feature * n_labels + label`` for an
emission pair. A part met more than once (a feature on two tokens, a label bigram at
two positions) is summed into one entry and parts that cancel are left out, as
CRFsuite's ``delta_finalize`` collapses them: the squared norm of the values is
``||phi(gold) - phi(pred)||^2`` (passive-aggressive steps, AROW).
"""

import numpy as np

from ._config import njit
from .arc_features import (
    N_GRANDPARENT_TEMPLATES,
    N_LABEL_TEMPLATES,
    N_SIBLING_TEMPLATES,
    arc_feature_ids,
    arc_width,
    grandparent_feature_ids,
    has_coarse,
    label_feature_ids,
    sibling_feature_ids,
)
from .chain import n_structure_weights
from .rows import ensure, slot
from .sorting import stable_argsort
from .tree_scores import grandparent_parts, sibling_parts
from .values import feature_value


@njit
def chain_delta(indptr, indices, data, lo, gold, pred, n_tokens, order, with_stop, n_labels,
                token_weight):  # fmt: skip
    """``(keys, values)``: ``phi(gold) - phi(pred)`` over the first ``n_tokens`` tokens of
    the sentence starting at row ``lo``, keys int64 ascending and distinct, values
    float64 nonzero.

    gold, pred : int32 (>= n_tokens,) label ids; ``with_stop`` adds the stop part (full
    sequences). The same parts as ``chain.add_chain_delta`` (positions, bigrams and
    trigrams where the two outputs differ, token feature values honoured), so the cost
    is O(m log m) for the m entries of the difference. Every part ending at position
    ``pos`` (its emissions, the bigram and trigram that end there, start at 0 and stop
    at the last) is multiplied by ``token_weight[pos]`` (ones: the plain difference).
    """
    n_dense = n_structure_weights(n_labels, order)
    L = n_labels
    size = 0
    for pos in range(n_tokens):
        if gold[pos] != pred[pos]:
            size += 2 * (indptr[lo + pos + 1] - indptr[lo + pos])
    if order >= 1:
        size += 4 + 2 * n_tokens * (2 if order == 2 else 1)
    keys = np.empty(size, dtype=np.int64)
    values = np.empty(size)
    m = 0
    for pos in range(n_tokens):
        g, p = gold[pos], pred[pos]
        if g == p:
            continue
        for j in range(indptr[lo + pos], indptr[lo + pos + 1]):
            v = token_weight[pos] * feature_value(data, j)
            base = n_dense + np.int64(indices[j]) * L
            keys[m], values[m] = base + g, v
            keys[m + 1], values[m + 1] = base + p, -v
            m += 2
    if order >= 1:
        start, stop = L * L, L * (L + 1)
        if gold[0] != pred[0]:
            keys[m], values[m] = start + gold[0], token_weight[0]
            keys[m + 1], values[m + 1] = start + pred[0], -token_weight[0]
            m += 2
        last = n_tokens - 1
        if with_stop and gold[last] != pred[last]:
            keys[m], values[m] = stop + gold[last], token_weight[last]
            keys[m + 1], values[m + 1] = stop + pred[last], -token_weight[last]
            m += 2
        for pos in range(1, n_tokens):
            if gold[pos - 1] != pred[pos - 1] or gold[pos] != pred[pos]:
                keys[m], values[m] = gold[pos - 1] * L + gold[pos], token_weight[pos]
                keys[m + 1], values[m + 1] = pred[pos - 1] * L + pred[pos], -token_weight[pos]
                m += 2
    if order == 2:
        trigram = L * (L + 2)
        for pos in range(2, n_tokens):
            same = gold[pos - 2] == pred[pos - 2] and gold[pos - 1] == pred[pos - 1]
            if not (same and gold[pos] == pred[pos]):
                keys[m] = trigram + (gold[pos - 2] * L + gold[pos - 1]) * L + gold[pos]
                keys[m + 1] = trigram + (pred[pos - 2] * L + pred[pos - 1]) * L + pred[pos]
                values[m], values[m + 1] = token_weight[pos], -token_weight[pos]
                m += 2
    return collapse(keys[:m], values[:m])


@njit
def collapse(keys, values):
    """Sum the values of equal keys (in the order given: a stable sort) and drop zero
    sums: ``(keys, values)`` with keys ascending and distinct."""
    by_key = stable_argsort(keys)
    out_keys = np.empty(keys.shape[0], dtype=np.int64)
    out_values = np.empty(keys.shape[0])
    n = 0
    i = 0
    while i < by_key.shape[0]:
        key = keys[by_key[i]]
        total = 0.0
        while i < by_key.shape[0] and keys[by_key[i]] == key:
            total += values[by_key[i]]
            i += 1
        if total != 0.0:
            out_keys[n], out_values[n] = key, total
            n += 1
    return out_keys[:n], out_values[:n]


@njit
def add_at_keys(rows, keys, n_dense, n_labels, first, second, first_values, second_values):
    """``first[keys] += first_values`` and ``second[keys] += second_values``: two weight
    arrays laid out by the chain's emission ``rows`` (keys as ``chain_delta`` gives
    them). Emission pairs get a slot first (``rows`` grow, both arrays move with them);
    when the pool is full nothing is added and False is returned (grow the pool, call
    again)."""
    emission, emission_2 = first[n_dense:], second[n_dense:]
    for i in range(keys.shape[0]):
        if keys[i] >= n_dense:
            code = keys[i] - n_dense
            if not ensure(rows, code // n_labels, code % n_labels, n_labels, emission, emission_2):
                return False
    for i in range(keys.shape[0]):
        key = keys[i]
        if key < n_dense:
            first[key] += first_values[i]
            second[key] += second_values[i]
        else:
            code = key - n_dense
            p = slot(rows, code // n_labels, code % n_labels)
            emission[p] += first_values[i]
            emission_2[p] += second_values[i]
    return True


@njit
def tree_delta(attrs, start, n, gold, gold_labels, pred, pred_labels, n_features, order,
               grandparents, n_labels):  # fmt: skip
    """``(keys, values)``: ``phi(x, gold) - phi(x, pred)`` of a sentence of ``n`` words
    (rows ``start ..`` of ``attrs``) as a sparse vector over the hashed features, keys
    ascending and distinct, values nonzero (``tree.add_tree_features``' parts: arcs,
    labels when ``n_labels > 0``, siblings at order 2, grandparents when
    ``grandparents`` is not None: a type, as in ``tree.decode``, so that numba compiles
    no grandparent code without them).

    gold, pred : int64 (n + 1,) head vectors (slot 0 unused); gold_labels, pred_labels
    the words' label ids. A word whose head and label agree adds nothing at order 1,
    so the cost grows with the differences there.
    """
    width = arc_width(n, has_coarse(attrs)) + N_SIBLING_TEMPLATES + N_LABEL_TEMPLATES + 1
    parts = np.empty((n, 3), dtype=np.int64)
    n_higher = 0  # sibling and grandparent parts per tree, at most
    if order == 2:
        n_higher = 2 * n
    if grandparents is not None:
        n_higher += n
        width += N_GRANDPARENT_TEMPLATES
    keys = np.empty(2 * (n + n_higher) * width, dtype=np.int64)
    values = np.empty(keys.shape[0])
    buffer = np.empty(width, dtype=np.int64)
    states = np.empty(N_LABEL_TEMPLATES, dtype=np.uint64)
    m = 0
    for heads, labels, sign in ((gold, gold_labels, 1.0), (pred, pred_labels, -1.0)):
        for d in range(1, n + 1):
            if order == 1 and gold[d] == pred[d] and gold_labels[d] == pred_labels[d]:
                continue
            k = arc_feature_ids(attrs, start, n, heads[d], d, n_features, buffer)
            for j in range(k):
                keys[m], values[m] = buffer[j], sign
                m += 1
            if n_labels > 0:
                k = label_feature_ids(attrs, start, n, heads[d], d, labels[d], n_features,
                                      states, buffer)  # fmt: skip
                for j in range(k):
                    keys[m], values[m] = buffer[j], sign
                    m += 1
        if order == 2:
            for p in range(sibling_parts(heads, n, parts)):
                k = sibling_feature_ids(attrs, start, n, parts[p, 0], parts[p, 1], parts[p, 2],
                                        n_features, buffer)  # fmt: skip
                for j in range(k):
                    keys[m], values[m] = buffer[j], sign
                    m += 1
        if grandparents is not None:
            for p in range(grandparent_parts(heads, n, parts)):
                k = grandparent_feature_ids(attrs, start, n, parts[p, 0], parts[p, 1],
                                            parts[p, 2], n_features, buffer, states)  # fmt: skip
                for j in range(k):
                    keys[m], values[m] = buffer[j], sign
                    m += 1
    return collapse(keys[:m], values[:m])
