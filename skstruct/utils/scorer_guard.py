"""Refuse scikit-learn's own scorers (``scoring="accuracy"``) on sequence predictions.

scikit-learn's metrics compare one label per sample; a skstruct learner predicts one
sequence per sample, so they fail on every fold. Model selection catches any
``Exception`` a scorer raises and records NaN with a long warning per fold, which hides
the mistake behind a table of NaNs. :func:`refuse_sklearn_scorer` is called by
``predict`` and raises :class:`UnsupportedScorerError`, which derives from
``BaseException`` precisely so that it stops the search instead.
"""

import sys

__all__ = ["UnsupportedScorerError", "refuse_sklearn_scorer"]

#: How many frames above ``predict`` are searched for a scorer: a scorer calls
#: ``predict`` through two or three helpers; deeper frames are not a scorer's.
_MAX_DEPTH = 8


class UnsupportedScorerError(BaseException):
    """A scikit-learn scorer was asked to score label sequences.

    Raised by ``predict`` when it is called by a scorer of a
    :mod:`sklearn.metrics` function, such as ``scoring="accuracy"`` in
    :func:`~sklearn.model_selection.cross_val_score` or
    :class:`~sklearn.model_selection.GridSearchCV`. It derives from
    ``BaseException``, not ``Exception``: scikit-learn turns every ``Exception``
    raised while scoring into a NaN score and a warning, which would hide this
    mistake. Use the scorers of :mod:`skstruct.metrics` instead.

    Examples
    --------
    >>> from sklearn.model_selection import cross_val_score
    >>> from skstruct import StructuredPerceptron, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> from skstruct.metrics import token_accuracy_scorer
    >>> X, y = make_chain_data(60, random_state=0)
    >>> model = StructuredPerceptron(features=TokenFeatures(), max_iter=2, random_state=0)
    >>> cross_val_score(model, X, y, cv=3, scoring="accuracy")
    Traceback (most recent call last):
    ...
    skstruct.utils.scorer_guard.UnsupportedScorerError: scoring with \
sklearn.metrics.accuracy_score ...
    >>> cross_val_score(model, X, y, cv=3, scoring=token_accuracy_scorer).round(2)
    array([0.93, 0.93, 0.94])
    """


def refuse_sklearn_scorer():
    """Raise :class:`UnsupportedScorerError` when a scikit-learn scorer of a
    :mod:`sklearn.metrics` function is calling the caller (a ``predict``).

    Scorers made with ``make_scorer`` of any other function (skstruct's, a user's)
    pass: they may well read sequences.
    """
    try:
        frame = sys._getframe(2)  # the caller of predict
    except ValueError:  # predict called with no Python frame above it: no scorer either
        return
    for _ in range(_MAX_DEPTH):
        if frame is None:
            return
        # f_globals is a plain reference; f_locals is built on access, so it is read only
        # in a frame of sklearn's scorer module (this runs on every predict).
        if frame.f_globals.get("__name__") != "sklearn.metrics._scorer":
            frame = frame.f_back
            continue
        scorer = frame.f_locals.get("self")
        if type(scorer).__module__ == "sklearn.metrics._scorer":
            function = getattr(scorer, "_score_func", None)
            module = getattr(function, "__module__", "") or ""
            if module.partition(".")[0] == "sklearn":
                raise UnsupportedScorerError(_message(function))
            return
        frame = frame.f_back


def _message(function):
    name = f"sklearn.metrics.{getattr(function, '__name__', function)}"
    return (
        f"scoring with {name} (e.g. scoring='accuracy') compares one label per sample, "
        f"but this model predicts a sequence per sample, so every score would be NaN. "
        f"Use a scorer from skstruct.metrics: scoring=token_accuracy_scorer (token "
        f"accuracy; for a parser, heads right), span_f1_scorer (chunks and entities), "
        f"sequence_accuracy_scorer, or scoring=skstruct.metrics.SCORERS for all three."
    )
