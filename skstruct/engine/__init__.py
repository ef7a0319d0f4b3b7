"""The engine every learner runs on: the one training loop, the fitted model's shared
behaviour (encoding, ``predict``, ``score``), training states and minibatches.

Estimators (:mod:`skstruct.learners`) orchestrate; the loop here decodes with the
decoder, chooses violations with the update rule and updates through the structure.
"""

from ._fused import Minibatch, fused_epoch
from ._loop import (
    BaseStructuredLearner,
    EarlyStopping,
    check_sample_weight,
    completed_gold,
    constrained,
    development_set,
    drop_unweighted,
    has_unknown_labels,
    training_data,
    unpack,
)
from ._model import StructuredModel, kernel_threads
from ._progress import EpochProgress
from ._weights import AveragedWeights, ConfidenceWeights

__all__ = [
    "AveragedWeights",
    "BaseStructuredLearner",
    "ConfidenceWeights",
    "EarlyStopping",
    "EpochProgress",
    "Minibatch",
    "StructuredModel",
    "check_sample_weight",
    "completed_gold",
    "constrained",
    "development_set",
    "drop_unweighted",
    "fused_epoch",
    "has_unknown_labels",
    "kernel_threads",
    "training_data",
    "unpack",
]
