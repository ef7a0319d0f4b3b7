"""Update rules: which weighted violations a perceptron learns from."""

from ._base import DecodedOutput, Example, UpdateRule, Violation
from .mixed import MixedAssignments
from .passive_aggressive import PassiveAggressiveUpdate
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
    "Example",
    "HybridUpdate",
    "LaSOUpdate",
    "LatestUpdate",
    "MaxViolationUpdate",
    "MixedAssignments",
    "PassiveAggressiveUpdate",
    "SearchUpdate",
    "StandardUpdate",
    "UpdateRule",
    "Violation",
]
