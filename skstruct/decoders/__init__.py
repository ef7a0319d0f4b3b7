"""How to search an output space: decoder objects (estimator parameters) and functions."""

from .chain import BeamSearch, Greedy, Viterbi, viterbi

__all__ = ["BeamSearch", "Greedy", "Viterbi", "viterbi"]
