"""Update rules: which weighted violations a perceptron learns from."""

from ._base import DecodedOutput, UpdateRule, Violation
from .mixed import MixedAssignments
from .search import (
    UPDATE_RULES,
    EarlyUpdate,
    HybridUpdate,
    LaSOUpdate,
    LatestUpdate,
    MaxViolationUpdate,
    SearchUpdate,
    StandardUpdate,
)

__all__ = [
    "UPDATE_RULES",
    "DecodedOutput",
    "EarlyUpdate",
    "HybridUpdate",
    "LaSOUpdate",
    "LatestUpdate",
    "MaxViolationUpdate",
    "MixedAssignments",
    "SearchUpdate",
    "StandardUpdate",
    "UpdateRule",
    "Violation",
]
