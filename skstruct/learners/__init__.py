"""The scikit-learn estimators: orchestration only, the arithmetic is in the kernels."""

from .eg import ExponentiatedGradientSSVM
from .mixing import ParameterMixing
from .perceptron import StructuredPerceptron
from .swvp import SWVP, StructuredWeightedViolationsPerceptron

__all__ = [
    "SWVP",
    "ExponentiatedGradientSSVM",
    "ParameterMixing",
    "StructuredPerceptron",
    "StructuredWeightedViolationsPerceptron",
]
