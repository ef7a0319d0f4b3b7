"""The only module that imports private scikit-learn API (it moves between releases)."""

from sklearn.base import _fit_context
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions

__all__ = ["HasMethods", "Interval", "StrOptions", "_fit_context"]
