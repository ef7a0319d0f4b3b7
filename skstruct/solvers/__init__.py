"""Solvers: the optimisation behind the batch learners, written against the structure
protocol (fast paths per structure registered beside the generic classes).

- EG on the structured SVM's dual (:class:`StructuredDual`, :class:`CompactDual` for
  structures without part tables; ``online_step``, ``batch_step``, ``objectives``);
- block-coordinate Frank-Wolfe on the same dual (:class:`FrankWolfeBlocks`);
- the CRF's log-likelihood (:class:`StructuredLikelihood`) and its minimisers, L-BFGS /
  OWL-QN (:func:`minimize_lbfgs`) and CRFsuite's SGD (:func:`minimize_l2sgd`).
"""

from ._bcfw import BlockPool, FrankWolfeBlocks
from ._eg import (
    FAST_DUALS,
    ChainDual,
    CompactDual,
    Proposal,
    StructuredDual,
    TreeDual,
    batch_step,
    dual_for,
    dual_objective,
    example_C,
    gold_potential,
    objectives,
    online_epoch,
    online_step,
)
from ._l2sgd import SGDCorpus, minimize_l2sgd
from ._lbfgs import LINESEARCHES, minimize_lbfgs
from ._likelihood import (
    FAST_LIKELIHOODS,
    ChainLikelihood,
    StructuredLikelihood,
    gold_counts,
    likelihood,
)

__all__ = [
    "FAST_DUALS",
    "FAST_LIKELIHOODS",
    "LINESEARCHES",
    "BlockPool",
    "ChainDual",
    "ChainLikelihood",
    "CompactDual",
    "FrankWolfeBlocks",
    "Proposal",
    "SGDCorpus",
    "StructuredDual",
    "StructuredLikelihood",
    "TreeDual",
    "batch_step",
    "dual_for",
    "dual_objective",
    "example_C",
    "gold_counts",
    "gold_potential",
    "likelihood",
    "minimize_l2sgd",
    "minimize_lbfgs",
    "objectives",
    "online_epoch",
    "online_step",
]
