"""Update rules: which violations a perceptron learns from."""

from .search import (
    UPDATE_RULES,
    EarlyUpdate,
    HybridUpdate,
    LaSOUpdate,
    LatestUpdate,
    MaxViolationUpdate,
    StandardUpdate,
)

__all__ = [
    "UPDATE_RULES",
    "EarlyUpdate",
    "HybridUpdate",
    "LaSOUpdate",
    "LatestUpdate",
    "MaxViolationUpdate",
    "StandardUpdate",
]
