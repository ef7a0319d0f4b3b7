"""How to search an output space: decoder objects (estimator parameters) and functions."""

from .chain import BeamSearch, Greedy, Viterbi, viterbi
from .transition import ArcStandard
from .tree import ChuLiuEdmonds, Eisner

__all__ = ["ArcStandard", "BeamSearch", "ChuLiuEdmonds", "Eisner", "Greedy", "Viterbi", "viterbi"]
