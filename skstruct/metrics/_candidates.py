"""Metrics of reranking: how good the chosen candidates are."""

import numpy as np


def _chosen_losses(y_true, y_pred):
    """Per example, the chosen candidate's loss less the best one's (``y_true``: the
    gold index, a loss of 1 for every other candidate, or a loss per candidate)."""
    if len(y_true) != len(y_pred):
        raise ValueError(
            f"y_true and y_pred have different numbers of examples: {len(y_true)} and "
            f"{len(y_pred)}."
        )
    regrets = np.empty(len(y_true))
    for i, (gold, chosen) in enumerate(zip(y_true, y_pred)):
        if np.ndim(gold) == 0:
            regrets[i] = float(int(chosen) != int(gold))
            continue
        losses = np.asarray(gold, dtype=float)
        if not 0 <= int(chosen) < losses.size:
            raise ValueError(
                f"Example {i}: y_pred[{i}] = {chosen} is no index of its {losses.size} candidates."
            )
        regrets[i] = losses[int(chosen)] - losses.min()
    return regrets


def top1_accuracy(y_true, y_pred):
    """The share of examples whose chosen candidate is a best one (least loss).

    Parameters
    ----------
    y_true : list
        Per example, the index of the gold candidate or a loss per candidate.
    y_pred : list of int
        Per example, the index of the chosen candidate (a reranker's ``predict``).

    Returns
    -------
    float

    Examples
    --------
    >>> top1_accuracy([0, [0.5, 0.0, 0.0]], [0, 2])
    1.0
    """
    return float(np.mean(_chosen_losses(y_true, y_pred) == 0.0))


def mean_candidate_loss(y_true, y_pred):
    """The mean loss of the chosen candidates, each less its set's least loss (with a
    gold index: 1 for any other candidate). Lower is better.

    Parameters
    ----------
    y_true : list
        Per example, the index of the gold candidate or a loss per candidate.
    y_pred : list of int
        Per example, the index of the chosen candidate.

    Returns
    -------
    float

    Examples
    --------
    >>> mean_candidate_loss([0, [0.5, 0.0, 0.25]], [1, 2])
    0.625
    """
    return float(np.mean(_chosen_losses(y_true, y_pred)))
