"""The scikit-learn estimators: orchestration only, the arithmetic is in the kernels."""

# Each learner's module is imported when the learner is first used (see skstruct/__init__).
import lazy_loader as _lazy

__getattr__, _, _ = _lazy.attach(
    __name__,
    submod_attrs={
        "arow": ["AROW"],
        "crf": ["ConditionalRandomField", "LinearChainCRF"],
        "eg": ["ExponentiatedGradientSSVM"],
        "mixing": ["ParameterMixing"],
        "passive_aggressive": ["PassiveAggressive"],
        "pcfg": ["PCFG"],
        "perceptron": ["StructuredPerceptron"],
        "ssvm": ["StructuredSVM"],
        "swvp": ["SWVP", "StructuredWeightedViolationsPerceptron"],
    },
)

# the engine's public classes, re-exported: the engine is imported by every learner
from ..engine import AveragedWeights, BaseStructuredLearner, ConfidenceWeights  # noqa: E402

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


def __dir__():
    return list(__all__)
