"""Bracket scores of constituency trees as EVALB computes them with COLLINS.prm.

Written here because no maintained Python package computes EVALB's figures exactly
(``nltk``, ``PYEVALB`` and others differ in deletion, label trimming or matching); the
rules below are EVALB's (Sekine & Collins 1997, its README and source), and
``tests/test_evalb.py`` checks hand-worked cases of each.

Per sentence, for the gold and the predicted tree alike:

1. Words whose tag is in ``delete_labels`` (COLLINS.prm: ``-NONE-`` and the
   punctuation tags ``, : `` '' .``) are removed; a constituent's span is counted in the
   remaining words, and one that covers none of them is dropped.
2. A constituent's label is cut at its first ``-`` or ``=`` (function tags, indices:
   ``NP-SBJ-1`` is ``NP``); constituents whose label is then in ``delete_labels`` are
   dropped (``TOP``; the root of a tree read from the Penn Treebank, whose label is
   empty, counts as ``TOP``). Preterminals are no constituents.
3. Labels in ``equivalent_labels`` are the same (``ADVP`` and ``PRT``).
4. Matched brackets: for every (label, start, end), the smaller of its gold and
   predicted counts. Recall = matched / gold, precision = matched / predicted, over the
   whole corpus; F1 their harmonic mean; complete match: sentences whose gold,
   predicted and matched counts are equal; tagging accuracy over the words kept.
5. A sentence's length, for the ``<= 40`` figures, counts its gold words whose tag is
   not ``-NONE-``. A sentence whose kept words differ between gold and prediction is an
   error (EVALB's "length unmatch" or "words unmatch") and is left out of every figure.
"""

from collections import Counter
from typing import NamedTuple

#: COLLINS.prm's DELETE_LABEL.
COLLINS_DELETE = frozenset({"TOP", "-NONE-", ",", ":", "``", "''", "."})
#: COLLINS.prm's DELETE_LABEL_FOR_LENGTH.
COLLINS_DELETE_FOR_LENGTH = frozenset({"-NONE-"})
#: COLLINS.prm's EQ_LABEL.
COLLINS_EQUIVALENT = (frozenset({"ADVP", "PRT"}),)
#: Root labels read as TOP: the Penn Treebank's empty outer brackets, and the usual names.
ROOT_LABELS = frozenset({"", "TOP", "ROOT"})


class EvalbScores(NamedTuple):
    """EVALB's summary figures (percentages, as EVALB prints them) and counts."""

    recall: float
    precision: float
    f1: float
    complete_match: float
    tagging_accuracy: float
    n_sentences: int
    n_errors: int
    matched: int
    gold_brackets: int
    predicted_brackets: int


def _trim(label):
    for i, char in enumerate(label):
        if char in "-=":
            return label[:i]
    return label


def _canonical(label, equivalent):
    for group in equivalent:
        if label in group:
            return min(group)
    return label


def _brackets(tree, delete, equivalent):
    """``(kept (word, tag) pairs, Counter of (label, start, end))`` of one tree."""
    words, brackets = [], Counter()

    def visit(node, is_root):
        start = len(words)
        if node.is_preterminal():
            if node.label() not in delete:
                words.append((node[0], node.label()))
            return
        for child in node:
            if isinstance(child, str):  # a word straight under a phrase: no tag to keep
                words.append((child, None))
            else:
                visit(child, False)
        end = len(words)
        label = "TOP" if is_root and node.label() in ROOT_LABELS else _trim(node.label())
        if end > start and label not in delete:
            brackets[(_canonical(label, equivalent), start, end)] += 1

    visit(tree, True)
    return words, brackets


def _length(tree, delete_for_length):
    return sum(1 for _, tag in tree.pos() if tag not in delete_for_length)


def evalb(
    gold,
    predicted,
    *,
    max_length=None,
    delete_labels=COLLINS_DELETE,
    delete_labels_for_length=COLLINS_DELETE_FOR_LENGTH,
    equivalent_labels=COLLINS_EQUIVALENT,
):
    """EVALB's bracket recall, precision and F1 (COLLINS.prm by default), complete
    match and tagging accuracy of ``predicted`` trees against ``gold`` ones.

    Parameters
    ----------
    gold : list of Tree
        The treebank's trees.
    predicted : list of Tree
        A parser's trees of the same sentences (words), one each.
    max_length : int or None, default=None
        Score only the sentences of at most this many words (``40``: EVALB's ``len<=40``
        section; lengths leave out ``delete_labels_for_length`` tags).
    delete_labels : set of str, default=COLLINS_DELETE
        EVALB's DELETE_LABEL (COLLINS.prm's: TOP, -NONE-, the punctuation tags).
    delete_labels_for_length : set of str, default=COLLINS_DELETE_FOR_LENGTH
        EVALB's DELETE_LABEL_FOR_LENGTH (COLLINS.prm's: -NONE-).
    equivalent_labels : sequence of sets of str, default=COLLINS_EQUIVALENT
        EVALB's EQ_LABEL (COLLINS.prm's: ADVP and PRT).

    Returns
    -------
    EvalbScores

    Examples
    --------
    >>> from skstruct.trees import Tree
    >>> gold = Tree.fromstring("(TOP (S (NP (DT the) (NN dog)) (VP (VBZ barks)) (. .)))")
    >>> pred = Tree.fromstring("(TOP (S (DT the) (VP (NN dog) (VBZ barks)) (. .)))")
    >>> scores = evalb([gold], [pred])
    >>> round(scores.recall, 2), scores.precision, scores.matched  # S matches; NP, VP do not
    (33.33, 50.0, 1)
    """
    if len(gold) != len(predicted):
        raise ValueError(
            f"gold and predicted have different numbers of trees: {len(gold)} and {len(predicted)}."
        )
    matched = n_gold = n_pred = complete = words = correct_tags = n_sentences = errors = 0
    for g, p in zip(gold, predicted):
        if max_length is not None and _length(g, delete_labels_for_length) > max_length:
            continue
        n_sentences += 1
        g_words, g_brackets = _brackets(g, delete_labels, equivalent_labels)
        p_words, p_brackets = _brackets(p, delete_labels, equivalent_labels)
        if [w for w, _ in g_words] != [w for w, _ in p_words]:
            errors += 1  # EVALB: "length unmatch" / "words unmatch", left out
            continue
        both = sum((g_brackets & p_brackets).values())
        gold_count, pred_count = sum(g_brackets.values()), sum(p_brackets.values())
        matched, n_gold, n_pred = matched + both, n_gold + gold_count, n_pred + pred_count
        complete += gold_count == pred_count == both
        words += len(g_words)
        correct_tags += sum(
            _canonical(a, equivalent_labels) == _canonical(b, equivalent_labels)
            for (_, a), (_, b) in zip(g_words, p_words)
        )
    recall = 100.0 * matched / n_gold if n_gold else 0.0
    precision = 100.0 * matched / n_pred if n_pred else 0.0
    f1 = 2 * recall * precision / (recall + precision) if recall + precision else 0.0
    valid = n_sentences - errors
    return EvalbScores(
        recall, precision, f1, 100.0 * complete / valid if valid else 0.0,
        100.0 * correct_tags / words if words else 0.0, n_sentences, errors, matched, n_gold,
        n_pred,
    )  # fmt: skip


def bracket_f1_score(y_true, y_pred):
    """EVALB's labelled bracket F1 (COLLINS.prm, all lengths) as a fraction in [0, 1]:
    for ``make_scorer`` and model selection.

    Parameters
    ----------
    y_true : list of Tree
        The gold trees.
    y_pred : list of Tree
        The predicted trees of the same sentences.

    Returns
    -------
    float

    Examples
    --------
    >>> from skstruct.trees import Tree
    >>> t = Tree.fromstring("(S (NP (NN it)) (VP (VBZ works)))")
    >>> bracket_f1_score([t], [t])
    1.0
    """
    return evalb(y_true, y_pred).f1 / 100.0
