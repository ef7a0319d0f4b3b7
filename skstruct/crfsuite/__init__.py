"""A drop-in for sklearn-crfsuite: ``from skstruct import crfsuite as sklearn_crfsuite``.

``CRF`` takes every argument of ``sklearn_crfsuite.CRF`` (0.5) and has its attributes
and methods; :mod:`~skstruct.crfsuite.metrics` and :mod:`~skstruct.crfsuite.scorers`
are sklearn-crfsuite's. Training runs on skstruct's learners (L-BFGS / OWL-QN on the
CRF's likelihood, the averaged perceptron, passive-aggressive, AROW), with no
temporary files, picklable and savable with :func:`skstruct.save`. ``CRF.tagger_``
answers python-crfsuite's ``Tagger`` calls, and eli5's ``explain_weights`` and
``explain_prediction`` take a ``CRF`` once eli5 is imported (registered then).

Examples
--------
>>> from skstruct import crfsuite as sklearn_crfsuite
>>> from skstruct.crfsuite import metrics
>>> X = [[{"w": "John"}, {"w": "runs"}], [{"w": "Mary"}, {"w": "sleeps"}]] * 5
>>> y = [["B-PER", "O"], ["B-PER", "O"]] * 5
>>> crf = sklearn_crfsuite.CRF(c1=0.1, c2=0.1, max_iterations=50).fit(X, y)
>>> metrics.flat_f1_score(y, crf.predict(X), average="weighted")
1.0
"""

from . import metrics, scorers
from ._eli5 import install_hook
from ._estimator import CRF

install_hook()

__all__ = ["CRF", "metrics", "scorers"]
