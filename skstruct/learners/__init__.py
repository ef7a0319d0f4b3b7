"""The scikit-learn estimators: orchestration only, the arithmetic is in the kernels."""

from ..engine import AveragedWeights, BaseStructuredLearner, ConfidenceWeights
from .arow import AROW
from .crf import ConditionalRandomField, LinearChainCRF
from .eg import ExponentiatedGradientSSVM
from .mixing import ParameterMixing
from .passive_aggressive import PassiveAggressive
from .pcfg import PCFG
from .perceptron import StructuredPerceptron
from .ssvm import StructuredSVM
from .swvp import SWVP, StructuredWeightedViolationsPerceptron

__all__ = [
    "AROW",
    "PCFG",
    "SWVP",
    "AveragedWeights",
    "BaseStructuredLearner",
    "ConditionalRandomField",
    "ConfidenceWeights",
    "ExponentiatedGradientSSVM",
    "LinearChainCRF",
    "ParameterMixing",
    "PassiveAggressive",
    "StructuredPerceptron",
    "StructuredSVM",
    "StructuredWeightedViolationsPerceptron",
]
