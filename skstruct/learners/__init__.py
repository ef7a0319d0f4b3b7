"""The scikit-learn estimators: orchestration only, the arithmetic is in the kernels."""

# Each learner's module is imported when the learner is first used (see skstruct/__init__).
import lazy_loader as _lazy

#: Public names, by the module that defines them.
_PUBLIC = {
    "arow": ["AROW"],
    "crf": ["ConditionalRandomField", "LinearChainCRF"],
    "eg": ["ExponentiatedGradientSSVM"],
    "mixing": ["ParameterMixing"],
    "passive_aggressive": ["PassiveAggressive"],
    "pcfg": ["PCFG"],
    "perceptron": ["StructuredPerceptron"],
    "ssvm": ["StructuredSVM"],
    "swvp": ["SWVP", "StructuredWeightedViolationsPerceptron"],
}

__getattr__, _, _ = _lazy.attach(__name__, submod_attrs=_PUBLIC)

# the engine's public classes, re-exported: the engine is imported by every learner
from ..engine import AveragedWeights, BaseStructuredLearner, ConfidenceWeights  # noqa: E402, F401

__all__ = sorted(
    {
        "AveragedWeights",
        "BaseStructuredLearner",
        "ConfidenceWeights",
        *(name for names in _PUBLIC.values() for name in names),
    }
)


def __dir__():
    return list(__all__)
