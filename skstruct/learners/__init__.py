"""The scikit-learn estimators: orchestration only, the arithmetic is in the kernels."""

from ._base import BaseStructuredLearner
from ._weights import AveragedWeights
from .eg import ExponentiatedGradientSSVM
from .mixing import ParameterMixing
from .perceptron import StructuredPerceptron
from .swvp import SWVP, StructuredWeightedViolationsPerceptron

__all__ = [
    "SWVP",
    "AveragedWeights",
    "BaseStructuredLearner",
    "ExponentiatedGradientSSVM",
    "ParameterMixing",
    "StructuredPerceptron",
    "StructuredWeightedViolationsPerceptron",
]
