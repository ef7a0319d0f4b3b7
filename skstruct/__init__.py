"""skstruct: fast, scikit-learn-compatible linear structured models.

Sequence labelling (POS tagging, chunking, NER), dependency parsing and reranking of
explicit candidates with structured perceptrons (exact or beam search with
violation-fixing updates, SWVP, parameter mixing), passive-aggressive and AROW, CRFs
and structured SVMs (EG, block-coordinate Frank-Wolfe): every learner written once
against the structure protocol, numba kernels, and the scikit-learn estimator contract.
"""

# Names are imported when first used (PEP 562, through lazy_loader): ``import skstruct``
# loads none of the learners, so a process that only loads a saved model and predicts
# pays for the classes that model uses, not for all of them (issue 33).
import lazy_loader as _lazy

from ._version import __version__ as __version__

#: Public names, by the module that defines them.
_PUBLIC = {
    "clusters": ["WordClusters"],
    "compilation": ["kernel_cache_dir", "warmup"],
    "corpus_tags": ["CorpusTags"],
    "decoders": [
        "CKY",
        "ArcEager",
        "ArcStandard",
        "BeamSearch",
        "BestCandidate",
        "ChuLiuEdmonds",
        "Eisner",
        "Greedy",
        "Viterbi",
    ],
    "features": ["ArcFeatures", "TokenFeatures"],
    "learners": [
        "AROW",
        "PCFG",
        "SWVP",
        "ConditionalRandomField",
        "ExponentiatedGradientSSVM",
        "LinearChainCRF",
        "ParameterMixing",
        "PassiveAggressive",
        "StructuredPerceptron",
        "StructuredSVM",
        "StructuredWeightedViolationsPerceptron",
    ],
    "lemmas": ["PredictedLemmas"],
    "morphology": ["PredictedFeats"],
    "parsing": ["PredictedTrees"],
    "persistence": ["ModelFormatError", "load", "save"],
    "pipeline": ["PredictedTags"],
    "relations": ["PredictedRelations"],
    "reranking": ["JackknifedLists", "NBestReranker"],
    "ud": ["UDPipeline"],
    "voting": ["ReversedParser", "VotingParser"],
}

#: Subpackages and modules reachable as attributes (``skstruct.datasets.fetch_ptb_sample``
#: after a bare ``import skstruct``), each imported on first use.
_SUBMODULES = [
    "cli",
    "clusters",
    "compilation",
    "corpus_tags",
    "crfsuite",
    "datasets",
    "decoders",
    "engine",
    "features",
    "inspect",
    "learners",
    "lemmas",
    "metrics",
    "morphology",
    "parsing",
    "persistence",
    "pipeline",
    "plot",
    "relations",
    "reranking",
    "solvers",
    "structures",
    "tasks",
    "trees",
    "ud",
    "updates",
    "utils",
    "voting",
]

__getattr__, _, _ = _lazy.attach(__name__, _SUBMODULES, _PUBLIC)

__all__ = sorted({"__version__", *(name for names in _PUBLIC.values() for name in names)})


def __dir__():
    return sorted({*__all__, *_SUBMODULES})
