"""The only module that imports private scikit-learn API (it moves between releases)."""

from sklearn.base import _fit_context
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions

#: sklearn's ``_fit_context`` decorator (parameter validation around ``fit``), under a
#: public name for the rest of the package.
fit_context = _fit_context

__all__ = ["HasMethods", "Interval", "StrOptions", "fit_context"]
