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

import importlib
from itertools import chain

import numpy as np

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


def _flattened(name):
    """scikit-learn's metric ``name`` of the token labels of ``y_true`` and ``y_pred``
    (lists of label sequences) put end to end. sklearn.metrics is imported on the first
    call: importing it costs 0.3 s and 40 MB, which ``import skstruct`` should not pay."""

    def flat(y_true, y_pred, *args, **kwargs):
        metric = getattr(importlib.import_module("sklearn.metrics"), name)
        return metric(_flatten(y_true), _flatten(y_pred), *args, **kwargs)

    flat.__name__ = flat.__qualname__ = f"flat_{name}"
    flat.__module__ = __name__
    flat.__doc__ = (
        f"scikit-learn's ``{name}`` of the token labels of ``y_true`` and ``y_pred`` (lists "
        "of label sequences) flattened; other arguments are passed on."
    )
    return flat


flat_accuracy_score = _flattened("accuracy_score")
flat_precision_score = _flattened("precision_score")
flat_recall_score = _flattened("recall_score")
flat_f1_score = _flattened("f1_score")
flat_fbeta_score = _flattened("fbeta_score")
flat_classification_report = _flattened("classification_report")


def sequence_accuracy_score(y_true, y_pred):
    """The fraction of sequences predicted entirely right (0 for no sequence)."""
    if len(y_true) != len(y_pred):
        raise ValueError(f"y_true has {len(y_true)} sequences but y_pred has {len(y_pred)}.")
    if not len(y_true):
        return 0
    matches = sum(list(t) == list(p) for t, p in zip(y_true, y_pred))
    return float(np.float64(matches) / len(y_true))
