"""Ready-made scorers for model selection with sequence-labelling estimators.

Each scorer calls ``estimator.predict(X)`` and compares the predicted label
sequences with ``y``, so it works with any estimator whose ``predict`` returns
one label sequence per sentence. Pass a scorer as ``scoring=`` to
:func:`~sklearn.model_selection.cross_val_score`,
:class:`~sklearn.model_selection.GridSearchCV` and friends, or pass the whole
:data:`SCORERS` dict for multi-metric evaluation (then choose the refit metric
by name, e.g. ``refit="span_f1"``).

sklearn's string names (``scoring="accuracy"``) do not work for label
sequences: sklearn's scorers expect one label per sample.

Examples
--------
>>> from sklearn.base import BaseEstimator
>>> from sklearn.model_selection import cross_val_score
>>> from skstruct.metrics import SCORERS, span_f1_scorer
>>> class Lookup(BaseEstimator):
...     def fit(self, X, y):
...         return self
...     def predict(self, X):
...         return [["B-NP" if tok == "dogs" else "O" for tok in x] for x in X]
>>> X = [["dogs", "bark"], ["cats", "sleep"], ["dogs", "run"]]
>>> y = [["B-NP", "B-VP"], ["B-NP", "B-VP"], ["B-NP", "B-VP"]]
>>> cross_val_score(Lookup(), X, y, cv=3, scoring=span_f1_scorer)
array([0.66666667, 0.        , 0.66666667])
>>> sorted(SCORERS)
['sequence_accuracy', 'span_f1', 'token_accuracy']
"""

from sklearn.metrics import make_scorer

from ._candidates import mean_candidate_loss, top1_accuracy
from ._span import span_f1_score
from ._token import sequence_accuracy, token_accuracy

#: Scorer for :func:`token_accuracy` (greater is better).
token_accuracy_scorer = make_scorer(token_accuracy)
#: Scorer for :func:`sequence_accuracy` (greater is better).
sequence_accuracy_scorer = make_scorer(sequence_accuracy)
#: Scorer for :func:`span_f1_score` with micro averaging (greater is better).
span_f1_scorer = make_scorer(span_f1_score)

#: Scorer for :func:`top1_accuracy` of rerankers (greater is better).
top1_scorer = make_scorer(top1_accuracy)
#: Scorer for :func:`mean_candidate_loss` of rerankers (negated: greater is better).
mean_candidate_loss_scorer = make_scorer(mean_candidate_loss, greater_is_better=False)

#: Scorers by name, for ``scoring=SCORERS[name]`` or multi-metric ``scoring=SCORERS``.
SCORERS = {
    "token_accuracy": token_accuracy_scorer,
    "sequence_accuracy": sequence_accuracy_scorer,
    "span_f1": span_f1_scorer,
}
