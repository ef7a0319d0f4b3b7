"""skstruct: fast, scikit-learn-compatible structured perceptrons.

Sequence labelling (POS tagging, chunking, NER) with Collins' averaged structured
perceptron, exact or beam search with violation-fixing updates, numba kernels and
the scikit-learn estimator contract.
"""

from .decoders import BeamSearch, Greedy, Viterbi
from .features import TokenFeatures
from .learners import (
    SWVP,
    ParameterMixing,
    StructuredPerceptron,
    StructuredWeightedViolationsPerceptron,
)

__version__ = "0.1.0.dev0"

__all__ = [
    "SWVP",
    "BeamSearch",
    "Greedy",
    "ParameterMixing",
    "StructuredPerceptron",
    "StructuredWeightedViolationsPerceptron",
    "TokenFeatures",
    "Viterbi",
    "__version__",
]
