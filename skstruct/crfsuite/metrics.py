"""sklearn-crfsuite's ``metrics``: scikit-learn's token-level metrics over flattened
label sequences, and sequence accuracy. The same functions, names and signatures as
``sklearn_crfsuite.metrics`` (0.5), so that ``from skstruct.crfsuite import metrics``
replaces it.

For entity-level (chunk) scores with CoNLL's semantics, which token-level F1 only
approximates, see :func:`skstruct.metrics.span_f1_score`.

Examples
--------
>>> from skstruct.crfsuite import metrics
>>> y_true = [["B-PER", "I-PER", "O"], ["O"]]
>>> y_pred = [["B-PER", "O", "O"], ["O"]]
>>> metrics.flat_accuracy_score(y_true, y_pred)
0.75
>>> metrics.sequence_accuracy_score(y_true, y_pred)
0.5
"""

import functools
from itertools import chain

import numpy as np
from sklearn import metrics as _sk

__all__ = [
    "flat_accuracy_score",
    "flat_classification_report",
    "flat_f1_score",
    "flat_fbeta_score",
    "flat_precision_score",
    "flat_recall_score",
    "sequence_accuracy_score",
]


def _flatten(sequences):
    return list(chain.from_iterable(sequences))


def _flattened(metric):
    """``metric`` of the token labels of ``y_true`` and ``y_pred`` (lists of label
    sequences) put end to end."""

    @functools.wraps(metric)
    def flat(y_true, y_pred, *args, **kwargs):
        return metric(_flatten(y_true), _flatten(y_pred), *args, **kwargs)

    flat.__doc__ = (
        f"scikit-learn's ``{metric.__name__}`` of the token labels of ``y_true`` and "
        "``y_pred`` (lists of label sequences) flattened; other arguments are passed on."
    )
    return flat


flat_accuracy_score = _flattened(_sk.accuracy_score)
flat_precision_score = _flattened(_sk.precision_score)
flat_recall_score = _flattened(_sk.recall_score)
flat_f1_score = _flattened(_sk.f1_score)
flat_fbeta_score = _flattened(_sk.fbeta_score)
flat_classification_report = _flattened(_sk.classification_report)
for _function, _name in [
    (flat_accuracy_score, "flat_accuracy_score"),
    (flat_precision_score, "flat_precision_score"),
    (flat_recall_score, "flat_recall_score"),
    (flat_f1_score, "flat_f1_score"),
    (flat_fbeta_score, "flat_fbeta_score"),
    (flat_classification_report, "flat_classification_report"),
]:
    _function.__name__ = _function.__qualname__ = _name
    _function.__module__ = __name__


def sequence_accuracy_score(y_true, y_pred):
    """The fraction of sequences predicted entirely right (0 for no sequence)."""
    if len(y_true) != len(y_pred):
        raise ValueError(f"y_true has {len(y_true)} sequences but y_pred has {len(y_pred)}.")
    if not len(y_true):
        return 0
    matches = sum(list(t) == list(p) for t, p in zip(y_true, y_pred))
    return float(np.float64(matches) / len(y_true))
