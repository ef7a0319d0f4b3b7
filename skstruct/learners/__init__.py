"""The scikit-learn estimators: orchestration only, the arithmetic is in the kernels."""

from .perceptron import StructuredPerceptron
from .swvp import SWVP, StructuredWeightedViolationsPerceptron

__all__ = ["SWVP", "StructuredPerceptron", "StructuredWeightedViolationsPerceptron"]
