"""Chunk (span) precision, recall and F1 with CoNLL ``conlleval`` semantics.

A chunk is found in a label sequence with the chunk-boundary rules of
``conlleval.pl``, the CoNLL-2000 shared-task evaluation script: a label is
split at its first ``-`` into a tag and a chunk type (``"B-NP"`` is tag ``B``,
type ``NP``; ``"B-NP-X"`` is type ``NP-X``; ``"B"`` has the empty type), and a
chunk starts or ends where the tag/type pair of two neighbouring labels says so.
Ill-formed sequences are read the way conlleval reads them: ``I-NP`` after
``O`` starts a chunk (IOB1 style), ``I-VP`` right after ``I-NP`` ends the NP
chunk and starts a VP chunk. Sentence boundaries always end a chunk. A predicted
chunk is correct when its start, end and type all equal those of a true chunk.
Precision is correct / predicted chunks, recall is correct / true chunks, both
pooled over all chunk types for ``average="micro"`` (conlleval's "overall"
line).

The chunks are extracted with ``seqeval.metrics.sequence_labeling.get_entities``
(the engine behind seqeval's default, non-strict mode, which mimics conlleval).
``tests/conlleval.py`` ports ``conlleval.pl`` line by line and
``tests/test_metrics.py`` checks that the counts agree exactly, on hand-written
edge cases, on random IOB1/IOB2/IOE/IOBES sequences, and on the CoNLL-2000 test
set with corrupted predictions.

Supported labels and known differences
--------------------------------------
Labels must be ``"O"`` or a tag ``B``, ``I``, ``E`` or ``S``, optionally
followed by ``-`` and a type: the IOB1, IOB2, IOE1, IOE2 and IOBES schemes.
On these labels the results equal conlleval's, with these exceptions:

* **IOBES.** ``conlleval.pl`` (version 2004-01-26) predates IOBES: it has no
  rule for ``S`` and does not end a chunk at ``E-X`` followed by ``B-X``, so
  it reads ``S-NP S-NP`` as one chunk. Like seqeval and the common Python
  ports of conlleval, we use the IOBES extension of its rules (``E`` and ``S``
  always end a chunk; ``B`` and ``S`` always start one). The extension changes
  nothing for IOB1, IOB2, IOE1 and IOE2, which only ever use ``B``/``I``/``O``
  or ``I``/``E``/``O``.
* **Type "0".** ``conlleval.pl`` tests the type for Perl truthiness, so the
  string ``"0"`` counts as no type (``B-0`` reads as ``B``). We keep ``"0"``
  as a type.
* **Typeless labels.** seqeval names the type of ``B``/``I`` chunks ``"_"``,
  which would merge them with chunks of a real ``"_"`` type. We keep the two
  apart; typeless chunks are reported under the empty type ``""``, as in
  conlleval. A type on ``O`` (``"O-NP"``) is ignored, as it has no effect in
  conlleval for the supported tags.
* **Other labels are rejected** with a ``ValueError``: conlleval's bracket
  tags ``[`` and ``]``, its ``.`` tag, other prefixes (BILOU's ``U-``/``L-``)
  and labels without a tag (``"NP"``). seqeval's default mode disagrees with
  conlleval on all of these (it ignores ``[``/``]``, reads ``"NP"`` as tag
  ``N`` of type ``P``, and counts a chunk twice after an unrecognised tag),
  and conlleval's own numbers on them are rarely what one means.

Undefined ratios
----------------
As in conlleval (and seqeval with ``zero_division=0``), precision is 0.0 when
nothing is predicted, recall is 0.0 when there is no true chunk, and F1 is 0.0
when precision + recall is 0. In particular a prediction without chunks on data
without chunks scores 0.0, not 1.0. No warning is raised, so cross-validation
folds without chunks do not flood the output.
"""

from collections import Counter
from numbers import Integral
from typing import NamedTuple

import numpy as np
from seqeval.metrics.sequence_labeling import get_entities

from ._validation import _check_sequences, _short_repr

_CHUNK_TAGS = frozenset("BIES")
_AVERAGES = ("micro", "macro", "weighted")
# seqeval names the type of a typeless label "_"; every real type is prefixed with
# this marker before seqeval sees it, so a real type "_" stays distinct.
_TYPE_MARK = "#"


class _SpanCounts(NamedTuple):
    types: list  # sorted chunk types (str) seen in y_true or y_pred
    n_correct: np.ndarray  # (n_types,) int64, correctly predicted chunks
    n_pred: np.ndarray  # (n_types,) int64, predicted chunks
    n_true: np.ndarray  # (n_types,) int64, true chunks (the support)


def _seqeval_label(label):
    """Return the seqeval spelling of a supported label, or None if unsupported."""
    if not isinstance(label, str):
        return None
    tag, _, chunk_type = label.partition("-")
    if tag == "O":
        return "O"
    if tag not in _CHUNK_TAGS:
        return None
    return f"{tag}-{_TYPE_MARK}{chunk_type}" if chunk_type else tag


def _chunks(sequences, name):
    """Chunks of every sequence as a list of (type, sentence, start, end) tuples."""
    spelling = {}
    chunks = []
    for i, seq in enumerate(sequences):
        normalised = []
        for label in seq:
            try:
                normalised.append(spelling[label])
                continue
            except (KeyError, TypeError):  # new label, or an unhashable one
                pass
            new = _seqeval_label(label)
            if new is None:
                raise ValueError(
                    f"Span metrics need chunk labels 'O', or 'B', 'I', 'E', 'S' optionally "
                    f"followed by '-' and a type (IOB1, IOB2, IOE1, IOE2 or IOBES), but "
                    f"{name}[{i}] contains {_short_repr(label)} ({type(label).__name__}). "
                    f"conlleval's '[', ']' and '.' tags and BILOU's 'U-'/'L-' are not "
                    f"supported; token_accuracy works with any labels."
                )
            spelling[label] = new
            normalised.append(new)
        for chunk_type, start, end in get_entities(normalised):
            chunk_type = "" if chunk_type == "_" else chunk_type[len(_TYPE_MARK) :]
            chunks.append((chunk_type, i, start, end))
    return chunks


def extract_spans(y):
    """The chunks (entities) of each label sequence, as the span metrics read them.

    Parameters
    ----------
    y : list of label sequences
        IOB1, IOB2, IOE1, IOE2 or IOBES labels (see the module's notes).

    Returns
    -------
    list of list of (int, int, str)
        Per sequence, ``(start, end, type)`` per chunk, tokens ``start`` to ``end - 1``.

    Examples
    --------
    >>> extract_spans([["B-PER", "I-PER", "O", "B-LOC"], ["O"]])
    [[(0, 2, 'PER'), (3, 4, 'LOC')], []]
    """
    y = [list(seq) for seq in y]
    found = [[] for _ in y]
    for kind, i, start, last in _chunks(y, "y"):
        found[i].append((start, last + 1, kind))
    return found


def _span_counts(y_true, y_pred):
    """Count correct, predicted and true chunks per chunk type."""
    y_true, y_pred = _check_sequences(y_true, y_pred)
    true_chunks = _chunks(y_true, "y_true")
    pred_chunks = _chunks(y_pred, "y_pred")
    correct = Counter(c[0] for c in set(true_chunks).intersection(pred_chunks))
    pred = Counter(c[0] for c in pred_chunks)
    true = Counter(c[0] for c in true_chunks)
    types = sorted(set(pred) | set(true))
    return _SpanCounts(
        types,
        np.array([correct[t] for t in types], dtype=np.int64),
        np.array([pred[t] for t in types], dtype=np.int64),
        np.array([true[t] for t in types], dtype=np.int64),
    )


def _ratio(numerator, denominator):
    """Elementwise numerator / denominator, with 0.0 where the denominator is 0."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    return np.divide(numerator, denominator, out=np.zeros_like(numerator), where=denominator != 0)


def _prf(n_correct, n_pred, n_true):
    """Precision, recall and F1 as conlleval computes them (0.0 when undefined)."""
    precision = _ratio(n_correct, n_pred)
    recall = _ratio(n_correct, n_true)
    # 2PR / (P + R), not 2c / (p + t): the same number, rounded as conlleval rounds it.
    f1 = _ratio(2 * precision * recall, precision + recall)
    return precision, recall, f1


def _averaged(counts, average):
    if average == "micro":
        scores = _prf(counts.n_correct.sum(), counts.n_pred.sum(), counts.n_true.sum())
        return tuple(float(s) for s in scores)
    scores = _prf(counts.n_correct, counts.n_pred, counts.n_true)
    if not counts.types:
        return 0.0, 0.0, 0.0
    if average == "macro":
        return tuple(float(s.mean()) for s in scores)
    support = counts.n_true.sum()
    if support == 0:
        return 0.0, 0.0, 0.0
    return tuple(float(np.dot(s, counts.n_true) / support) for s in scores)


def _check_average(average):
    if average not in _AVERAGES:
        raise ValueError(f"average must be one of {_AVERAGES}, got {average!r}.")


def span_precision_recall_fscore(y_true, y_pred, *, average="micro"):
    """Chunk-level precision, recall and F1, as computed by CoNLL's conlleval.

    Chunks are read from the label sequences with conlleval's rules (see the
    Notes); a predicted chunk counts as correct only if a true chunk has the
    same start, end and type.

    Parameters
    ----------
    y_true : list of sequences of str
        Gold chunk labels, one sequence per sentence, in the IOB1, IOB2, IOE1,
        IOE2 or IOBES scheme (``"B-NP"``, ``"I-NP"``, ``"O"``, ``"B"``...).
    y_pred : list of sequences of str
        Predicted labels; same number of sequences as ``y_true`` and the same
        length for each pair. The two may use different schemes.
    average : {"micro", "macro", "weighted"}, default="micro"
        ``"micro"`` pools the chunks of all types (conlleval's overall score).
        ``"macro"`` is the unweighted mean of the per-type scores over the types
        seen in ``y_true`` or ``y_pred``; ``"weighted"`` weights that mean by the
        number of true chunks of each type.

    Returns
    -------
    precision : float
        Correct chunks divided by predicted chunks, in [0, 1].
    recall : float
        Correct chunks divided by true chunks, in [0, 1].
    f1 : float
        Harmonic mean of precision and recall, in [0, 1].

    Raises
    ------
    ValueError
        If a label is outside the supported schemes, if ``average`` is
        unknown, or if the inputs are inconsistent (different numbers of
        sequences, paired sequences of different lengths, no sequence).
    TypeError
        If an input is not a list of sequences (a string, a generator, or a
        flat list of labels).

    See Also
    --------
    span_f1_score : Only the F1 score.
    span_classification_report : The same scores for each chunk type.
    token_accuracy : Per-token accuracy.

    Notes
    -----
    A ratio with a zero denominator is 0.0, as in conlleval: data without
    chunks, predicted without chunks, scores (0.0, 0.0, 0.0). The module
    docstring of ``skstruct.metrics._span`` lists the chunking rules and the
    few deliberate differences from ``conlleval.pl``.

    References
    ----------
    E. F. Tjong Kim Sang and S. Buchholz (2000). Introduction to the CoNLL-2000
    Shared Task: Chunking. CoNLL-2000. Evaluation script ``conlleval.pl``.

    Examples
    --------
    >>> from skstruct.metrics import span_precision_recall_fscore
    >>> y_true = [["B-NP", "I-NP", "O", "B-VP"], ["B-NP"]]
    >>> y_pred = [["B-NP", "I-NP", "O", "B-NP"], ["O"]]
    >>> span_precision_recall_fscore(y_true, y_pred)
    (0.5, 0.3333333333333333, 0.4)

    An ``I-`` label after ``O`` starts a chunk, as in conlleval:

    >>> span_precision_recall_fscore([["O", "B-NP", "I-NP"]], [["O", "I-NP", "I-NP"]])
    (1.0, 1.0, 1.0)
    """
    _check_average(average)
    return _averaged(_span_counts(y_true, y_pred), average)


def span_f1_score(y_true, y_pred, *, average="micro"):
    """Chunk-level F1 score (conlleval's FB1), as a fraction in [0, 1].

    Parameters
    ----------
    y_true : list of sequences of str
        Gold chunk labels, one sequence per sentence, in the IOB1, IOB2, IOE1,
        IOE2 or IOBES scheme.
    y_pred : list of sequences of str
        Predicted labels; same number of sequences as ``y_true`` and the same
        length for each pair.
    average : {"micro", "macro", "weighted"}, default="micro"
        How to combine chunk types; see :func:`span_precision_recall_fscore`.

    Returns
    -------
    f1 : float
        ``2 * precision * recall / (precision + recall)``, or 0.0 when both
        are 0.

    See Also
    --------
    span_precision_recall_fscore : Precision and recall as well.
    span_f1_scorer : This metric as a scorer for model selection.

    Examples
    --------
    >>> from skstruct.metrics import span_f1_score
    >>> y_true = [["B-PER", "I-PER", "O", "B-LOC"]]
    >>> y_pred = [["B-PER", "I-PER", "O", "B-ORG"]]
    >>> span_f1_score(y_true, y_pred)
    0.5
    >>> span_f1_score(y_true, y_pred, average="macro")
    0.3333333333333333
    """
    return span_precision_recall_fscore(y_true, y_pred, average=average)[2]


def span_classification_report(y_true, y_pred, *, digits=2, output_dict=False):
    """Chunk-level precision, recall, F1 and support for each chunk type.

    One row per chunk type found in ``y_true`` or ``y_pred`` (sorted), then the
    micro, macro and weighted averages. The "micro avg" row is conlleval's
    overall score; the per-type rows are conlleval's per-type lines.

    Parameters
    ----------
    y_true : list of sequences of str
        Gold chunk labels, one sequence per sentence, in the IOB1, IOB2, IOE1,
        IOE2 or IOBES scheme.
    y_pred : list of sequences of str
        Predicted labels; same number of sequences as ``y_true`` and the same
        length for each pair.
    digits : int, default=2
        Number of decimals in the text report. Ignored when ``output_dict``
        is True.
    output_dict : bool, default=False
        Return a dict instead of a string.

    Returns
    -------
    report : str or dict
        The text report, or a dict mapping each chunk type and ``"micro avg"``,
        ``"macro avg"``, ``"weighted avg"`` to a dict with keys
        ``"precision"``, ``"recall"``, ``"f1-score"`` (floats) and
        ``"support"`` (number of true chunks, int). Chunks of typeless labels
        (``"B"``, ``"I"``) are listed under the type ``""``.

    See Also
    --------
    span_precision_recall_fscore : The averaged scores alone.
    flat_classification_report : Per-label scores over tokens.

    Examples
    --------
    >>> from skstruct.metrics import span_classification_report
    >>> y_true = [["B-NP", "I-NP", "O", "B-VP"], ["B-NP"]]
    >>> y_pred = [["B-NP", "I-NP", "O", "B-NP"], ["O"]]
    >>> print(span_classification_report(y_true, y_pred))
                  precision    recall  f1-score   support
    <BLANKLINE>
              NP       0.50      0.50      0.50         2
              VP       0.00      0.00      0.00         1
    <BLANKLINE>
       micro avg       0.50      0.33      0.40         3
       macro avg       0.25      0.25      0.25         3
    weighted avg       0.33      0.33      0.33         3
    <BLANKLINE>
    >>> span_classification_report(y_true, y_pred, output_dict=True)["NP"]
    {'precision': 0.5, 'recall': 0.5, 'f1-score': 0.5, 'support': 2}
    """
    if not isinstance(digits, Integral) or isinstance(digits, bool) or digits < 0:
        raise ValueError(f"digits must be a non-negative int, got {digits!r}.")
    counts = _span_counts(y_true, y_pred)
    scores = _prf(counts.n_correct, counts.n_pred, counts.n_true)
    rows = {}
    for i, (p, r, f) in enumerate(zip(*scores, strict=True)):
        rows[counts.types[i]] = (float(p), float(r), float(f), int(counts.n_true[i]))
    support = int(counts.n_true.sum())
    averages = {f"{avg} avg": (*_averaged(counts, avg), support) for avg in _AVERAGES}
    keys = ("precision", "recall", "f1-score", "support")
    if output_dict:
        all_rows = {**rows, **averages}
        return {name: dict(zip(keys, row, strict=True)) for name, row in all_rows.items()}

    width = max([len(name) for name in rows] + [len("weighted avg"), digits])
    head_fmt = "{:>{width}s} " + " {:>9}" * len(keys)
    row_fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    report = head_fmt.format("", *keys, width=width) + "\n\n"
    for name, row in rows.items():
        report += row_fmt.format(name, *row, width=width, digits=digits)
    report += "\n"
    for name, row in averages.items():
        report += row_fmt.format(name, *row, width=width, digits=digits)
    return report
