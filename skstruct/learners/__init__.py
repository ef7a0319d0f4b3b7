"""The scikit-learn estimators: orchestration only, the arithmetic is in the kernels."""

from .perceptron import StructuredPerceptron

__all__ = ["StructuredPerceptron"]
