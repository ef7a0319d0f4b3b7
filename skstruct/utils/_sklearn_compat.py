"""The only module that imports private scikit-learn API (it moves between releases)."""

from sklearn.base import _fit_context
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.metaestimators import _BaseComposition

#: sklearn's ``_fit_context`` decorator (parameter validation around ``fit``), under a
#: public name for the rest of the package.
fit_context = _fit_context

#: sklearn's base of estimators made of named estimators (``VotingClassifier``'s
#: ``estimators``): ``_get_params`` / ``_set_params`` of ``<name>__<parameter>``.
BaseComposition = _BaseComposition

__all__ = ["BaseComposition", "HasMethods", "Interval", "StrOptions", "fit_context"]
