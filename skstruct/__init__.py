"""skstruct: fast, scikit-learn-compatible linear structured models.

Sequence labelling (POS tagging, chunking, NER), dependency parsing and reranking of
explicit candidates with structured perceptrons (exact or beam search with
violation-fixing updates, SWVP, parameter mixing), passive-aggressive and AROW, CRFs
and structured SVMs (EG, block-coordinate Frank-Wolfe): every learner written once
against the structure protocol, numba kernels, and the scikit-learn estimator contract.
"""

# crfsuite: its CRF registers with the model files (skstruct.persistence)
from . import crfsuite  # noqa: F401
from ._version import __version__
from .clusters import WordClusters
from .compilation import kernel_cache_dir, warmup
from .corpus_tags import CorpusTags
from .decoders import (
    CKY,
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
    PCFG,
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
from .lemmas import PredictedLemmas
from .morphology import PredictedFeats
from .parsing import PredictedTrees
from .persistence import ModelFormatError, load, save
from .pipeline import PredictedTags
from .relations import PredictedRelations
from .reranking import JackknifedLists, NBestReranker
from .ud import UDPipeline

__all__ = [
    "AROW",
    "CKY",
    "PCFG",
    "SWVP",
    "ArcEager",
    "ArcFeatures",
    "ArcStandard",
    "BeamSearch",
    "BestCandidate",
    "ChuLiuEdmonds",
    "ConditionalRandomField",
    "CorpusTags",
    "Eisner",
    "ExponentiatedGradientSSVM",
    "Greedy",
    "JackknifedLists",
    "LinearChainCRF",
    "ModelFormatError",
    "NBestReranker",
    "ParameterMixing",
    "PassiveAggressive",
    "PredictedFeats",
    "PredictedLemmas",
    "PredictedRelations",
    "PredictedTags",
    "PredictedTrees",
    "StructuredPerceptron",
    "StructuredSVM",
    "StructuredWeightedViolationsPerceptron",
    "TokenFeatures",
    "UDPipeline",
    "Viterbi",
    "WordClusters",
    "__version__",
    "kernel_cache_dir",
    "load",
    "save",
    "warmup",
]
