"""What an output is: the output spaces (parts, weight layout, scores, feature deltas)."""

from ._base import Structure
from ._trace import OutputTrace, SearchTrace
from .candidates import CandidateScores, CandidateSets
from .chain import ChainScores, LinearChain
from .constituency import AnchoredRules, ParseScores
from .constraints import ChainConstraints, ForbiddenGoldWarning
from .emission_rows import EmissionRows
from .transition import TransitionScores, TransitionSystem, TransitionTrace
from .tree import ArcFactoredTree, TreeScores

__all__ = [
    "AnchoredRules",
    "ArcFactoredTree",
    "CandidateScores",
    "CandidateSets",
    "ChainConstraints",
    "ChainScores",
    "EmissionRows",
    "ForbiddenGoldWarning",
    "LinearChain",
    "OutputTrace",
    "ParseScores",
    "SearchTrace",
    "Structure",
    "TransitionScores",
    "TransitionSystem",
    "TransitionTrace",
    "TreeScores",
]
