"""Learning trees: adding a tree's features to the weights, the perceptron's update of
one sentence, and the fused perceptron epoch (decode and update, sentence by
sentence) with its minibatch half."""

import numpy as np

from ._config import helper, njit
from .arc_features import (
    arc_feature_ids,
    grandparent_feature_ids,
    label_feature_ids,
    sibling_feature_ids,
)
from .tree_scores import (
    grandparent_parts,
    sibling_parts,
)
from .tree_search import (
    decode_trees,
    max_length,
    one_based_tree,
    scratch,
)


@njit
def add_tree_features(attrs, start, n, heads, labels, coef, n_features, siblings, grandparents,
                      n_labels, scale, buffer, states):  # fmt: skip
    """``coef[phi(x, heads, labels)] += scale``: arc features, label features when
    ``n_labels`` is not None, sibling features when ``siblings`` is not None,
    grandparent features when ``grandparents`` is not None (see :func:`decode`).

    ``heads`` may be any head vector, a tree or not (a mixed assignment of SWVP).
    """
    for d in range(1, n + 1):
        k = arc_feature_ids(attrs, start, n, heads[d], d, n_features, buffer)
        for j in range(k):
            coef[buffer[j]] += scale
        if n_labels is not None:
            k = label_feature_ids(
                attrs, start, n, heads[d], d, labels[d], n_features, states, buffer
            )
            for j in range(k):
                coef[buffer[j]] += scale
    if siblings is not None:
        parts = np.empty((n, 3), dtype=np.int64)
        for p in range(sibling_parts(heads, n, parts)):
            h, s, d = parts[p, 0], parts[p, 1], parts[p, 2]
            k = sibling_feature_ids(attrs, start, n, h, s, d, n_features, buffer)
            for j in range(k):
                coef[buffer[j]] += scale
    if grandparents is not None:
        parts = np.empty((n, 3), dtype=np.int64)
        for p in range(grandparent_parts(heads, n, parts)):
            g, h, d = parts[p, 0], parts[p, 1], parts[p, 2]
            k = grandparent_feature_ids(attrs, start, n, g, h, d, n_features, buffer, states)
            for j in range(k):
                coef[buffer[j]] += scale


@helper
def learn_tree(attrs, start, n, gold, gold_labels, pred, pred_labels, coef, coef_sum, n_seen,
               n_features, siblings, grandparents, n_labels, buffer, states):  # fmt: skip
    """The perceptron update of one parsed sentence, with lazy averaging, when a head or
    (``n_labels`` not None) a label is wrong. Returns (whether it was a mistake, wrong
    heads).
    """
    wrong_heads, wrong = 0, False
    for d in range(1, n + 1):
        if pred[d] != gold[d]:
            wrong_heads += 1
            wrong = True
        elif n_labels is not None and pred_labels[d] != gold_labels[d]:
            wrong = True
    if wrong:
        for target, t in ((coef, 1.0), (coef_sum, float(n_seen))):
            if t == 0.0:
                continue
            add_tree_features(attrs, start, n, gold, gold_labels, target, n_features, siblings,
                              grandparents, n_labels, t, buffer, states)  # fmt: skip
            add_tree_features(attrs, start, n, pred, pred_labels, target, n_features, siblings,
                              grandparents, n_labels, -t, buffer, states)  # fmt: skip
    return wrong, wrong_heads


@njit
def perceptron_epoch(
    attrs, offsets, heads, labels, visit, coef, coef_sum, n_seen, n_features, siblings,
    grandparents, non_projective, single_root, n_labels,
):  # fmt: skip
    """One perceptron epoch over the sentences in ``visit``, with lazy averaging.

    ``heads`` and ``labels`` hold every word's gold head and label id (ignored when
    ``n_labels`` is None: unlabelled), sentence by sentence, aligned with the rows of
    ``attrs``; ``siblings``, ``grandparents``, ``non_projective`` and ``n_labels`` as in
    :func:`decode`. A
    sentence is a mistake when a head or a label is wrong. Updates ``coef`` and
    ``coef_sum`` in place; returns (mistakes, correct heads before each update,
    examples seen).
    """
    work = scratch(max_length(offsets), siblings)
    buffer, states = work[3], work[4]
    N = work[0].shape[0]
    gold = np.empty(N, dtype=np.int64)
    gold_labels = np.zeros(N, dtype=np.int64)
    pred, pred_labels = np.empty(N, dtype=np.int64), np.zeros(N, dtype=np.int64)
    heads_out = np.empty(offsets[-1], dtype=np.int64)
    labels_out = np.zeros(offsets[-1], dtype=np.int64)
    mistakes, correct = 0, 0
    for step in range(visit.shape[0]):
        i = visit[step]
        start = offsets[i]
        n = offsets[i + 1] - start
        one_based_tree(heads, labels, start, n, n_labels, gold, gold_labels)
        # prediction's loop, on one sentence: a fit compiles what predicting runs
        decode_trees(attrs, offsets, visit[step : step + 1], coef, n_features, siblings,
                     grandparents, non_projective, single_root, n_labels, work, heads_out,
                     labels_out)  # fmt: skip
        one_based_tree(heads_out, labels_out, start, n, n_labels, pred, pred_labels)
        wrong, wrong_heads = learn_tree(attrs, start, n, gold, gold_labels, pred, pred_labels, coef,
                                        coef_sum, n_seen, n_features, siblings, grandparents,
                                        n_labels, buffer, states)  # fmt: skip
        correct += n - wrong_heads
        mistakes += wrong
        n_seen += 1
    return mistakes, correct, n_seen


@njit
def apply_tree_decisions(
    attrs, offsets, heads, labels, batch, pred_heads, pred_labels, coef, coef_sum, n_seen,
    n_features, siblings, grandparents, n_labels,
):  # fmt: skip
    """The updates for the trees :func:`decode_trees` found for ``batch`` (in their
    sentences' places of ``pred_heads``, ``pred_labels``), applied in order with lazy
    averaging (the second half of a minibatch epoch). Returns (mistakes, correct heads,
    n_seen), as ``perceptron_epoch``."""
    longest = 0
    for b in range(batch.shape[0]):
        longest = max(longest, offsets[batch[b] + 1] - offsets[batch[b]])
    work = scratch(longest, siblings)
    buffer, states = work[3], work[4]
    N = longest + 1
    gold, gold_labels = np.empty(N, dtype=np.int64), np.zeros(N, dtype=np.int64)
    pred, pred_label = np.empty(N, dtype=np.int64), np.zeros(N, dtype=np.int64)
    mistakes, correct = 0, 0
    for b in range(batch.shape[0]):
        start = offsets[batch[b]]
        n = offsets[batch[b] + 1] - start
        one_based_tree(heads, labels, start, n, n_labels, gold, gold_labels)
        one_based_tree(pred_heads, pred_labels, start, n, n_labels, pred, pred_label)
        wrong, wrong_heads = learn_tree(attrs, start, n, gold, gold_labels, pred, pred_label, coef,
                                        coef_sum, n_seen, n_features, siblings, grandparents,
                                        n_labels, buffer, states)  # fmt: skip
        correct += n - wrong_heads
        mistakes += wrong
        n_seen += 1
    return mistakes, correct, n_seen
