"""How to search an output space: decoder objects (estimator parameters) and functions."""

from .chain import Viterbi, viterbi

__all__ = ["Viterbi", "viterbi"]
