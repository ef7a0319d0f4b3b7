"""sklearn-crfsuite's ``scorers``: :func:`~sklearn.metrics.make_scorer` of
:mod:`skstruct.crfsuite.metrics`, for ``cross_val_score``, ``GridSearchCV`` and
``RandomizedSearchCV``.

Examples
--------
>>> from sklearn.metrics import make_scorer
>>> from skstruct.crfsuite import metrics, scorers
>>> f1 = make_scorer(metrics.flat_f1_score, average="weighted")  # as in the tutorial
>>> scorers.flat_accuracy, scorers.sequence_accuracy  # doctest: +ELLIPSIS
(make_scorer(flat_accuracy_score...), make_scorer(sequence_accuracy_score...))
"""

from sklearn.metrics import make_scorer

from . import metrics

__all__ = ["flat_accuracy", "sequence_accuracy"]

flat_accuracy = make_scorer(metrics.flat_accuracy_score)
sequence_accuracy = make_scorer(metrics.sequence_accuracy_score)
