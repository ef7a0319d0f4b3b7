"""skstruct: fast, scikit-learn-compatible structured perceptrons.

Sequence labelling (POS tagging, chunking, NER) and dependency parsing with Collins'
averaged structured perceptron, exact or beam search with violation-fixing updates,
numba kernels and the scikit-learn estimator contract.
"""

from ._persistence import ModelFormatError, load, save
from .compilation import kernel_cache_dir, warmup
from .decoders import (
    ArcEager,
    ArcStandard,
    BeamSearch,
    BestCandidate,
    ChuLiuEdmonds,
    Eisner,
    Greedy,
    Viterbi,
)
from .features import ArcFeatures, TokenFeatures
from .learners import (
    AROW,
    SWVP,
    ConditionalRandomField,
    ExponentiatedGradientSSVM,
    LinearChainCRF,
    ParameterMixing,
    PassiveAggressive,
    StructuredPerceptron,
    StructuredSVM,
    StructuredWeightedViolationsPerceptron,
)
from .pipeline import PredictedTags

__version__ = "0.1.0.dev0"

__all__ = [
    "AROW",
    "SWVP",
    "ArcEager",
    "ArcFeatures",
    "ArcStandard",
    "BeamSearch",
    "BestCandidate",
    "ChuLiuEdmonds",
    "ConditionalRandomField",
    "Eisner",
    "ExponentiatedGradientSSVM",
    "Greedy",
    "LinearChainCRF",
    "ModelFormatError",
    "ParameterMixing",
    "PassiveAggressive",
    "PredictedTags",
    "StructuredPerceptron",
    "StructuredSVM",
    "StructuredWeightedViolationsPerceptron",
    "TokenFeatures",
    "Viterbi",
    "__version__",
    "kernel_cache_dir",
    "load",
    "save",
    "warmup",
]
