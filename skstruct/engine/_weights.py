"""AveragedWeights: the perceptron's weights with the lazy averaging state."""

import numpy as np


class AveragedWeights:
    """Current weights ``coef``, plus what is needed to average them in O(1) per update.

    With ``t`` the number of examples seen before an update ``delta``, the kernels add
    ``delta`` to ``coef`` and ``t * delta`` to ``coef_sum``. After ``n_seen``
    examples the average of the weights held after each example is then
    ``coef - coef_sum / n_seen`` (Daume III, 2006, sec. 2.1.1; seqlearn does the same),
    so an update costs ``O(|delta phi|)`` however many weights there are.

    ``structure`` is the layout both arrays follow. A chain's is the state's own: its
    emission rows grow as updates touch new (feature, label) pairs, and the arrays
    with them (``structure.update``).

    Parameters
    ----------
    structure : LinearChain, ArcFactoredTree or TransitionSystem
        Copied for the state where it grows (``structure.training_copy()``).
    """

    #: The arrays laid out by ``structure`` (a chain's pool moves them together).
    layout_arrays = ("coef", "coef_sum")

    def __init__(self, structure):
        self.structure = structure.training_copy()
        self.coef = np.zeros(self.structure.n_weights)
        self.coef_sum = np.zeros(self.structure.n_weights)
        self.n_seen = 0

    @classmethod
    def from_state(cls, structure, coef, coef_sum, n_seen):
        """Weights holding the given structure and arrays (not copies) and example count."""
        weights = cls.__new__(cls)
        weights.structure, weights.coef, weights.coef_sum = structure, coef, coef_sum
        weights.n_seen = n_seen
        return weights

    def averaged(self):
        """The averaged weights (a new array); the current ones before any example."""
        if self.n_seen == 0:
            return self.coef.copy()
        return self.coef - self.coef_sum / self.n_seen

    def model(self, average=True):
        """``(structure, coef)`` of the averaged (or current) weights, compacted as a
        fitted model keeps them (new arrays; pairs of weight zero left out)."""
        coef = self.averaged() if average else self.coef.copy()
        return self.structure.compact(coef, drop_zeros=True)

    def copy(self):
        """An independent copy (its own structure when that grows in training)."""
        return AveragedWeights.from_state(
            self.structure.training_copy(), self.coef.copy(), self.coef_sum.copy(), self.n_seen
        )

    def compacted(self):
        """This state in its compact layout (``structure.compact``: a chain's rows back
        to back, no free slot). A fixed layout keeps its structure and arrays; a chain gets
        new ones."""
        structure, coef = self.structure.compact(self.coef)
        coef_sum = self.structure.compact(self.coef_sum)[1]
        return AveragedWeights.from_state(structure, coef, coef_sum, self.n_seen)


class ConfidenceWeights:
    """AROW's training state: the weights (the mean of a Gaussian over weight vectors)
    and a diagonal variance per weight (Crammer, Kulesza & Dredze 2009).

    Every weight starts at 0 with variance ``variance``. The variance of weight ``k`` is
    kept as the precision its updates added, ``precision[k] = 1 / sigma_k - 1 /
    variance``: zero for a weight no update touched, so a chain's pool can leave the
    weights it does not hold out of both arrays, and grow both as updates touch new
    (feature, label) pairs (``structure.add_at``), as the perceptron's weights grow.
    AROW's diagonal update ``1 / sigma_k += d_k ** 2 / gamma`` (CRFsuite's
    ``train_arow.c``) is an addition to ``precision``.

    Parameters
    ----------
    structure : LinearChain
        Copied for the state, which grows it (``structure.training_copy()``).
    variance : float
        The initial variance of every weight.
    """

    #: The arrays laid out by ``structure`` (a chain's pool moves them together).
    layout_arrays = ("coef", "precision")

    def __init__(self, structure, variance):
        self.structure = structure.training_copy()
        self.coef = np.zeros(self.structure.n_weights)
        self.precision = np.zeros(self.structure.n_weights)
        self.variance = float(variance)
        self.n_seen = 0

    def variances(self, keys):
        """The variance of the weights at ``keys`` (ascending, as ``structure.delta``
        gives them; ``variance`` for a weight no update touched)."""
        (precision,) = self.structure.values_at(keys, self.precision)
        return 1.0 / (1.0 / self.variance + precision)

    def model(self, average=False):
        """``(structure, coef)`` of the current weights, compacted as a fitted model keeps
        them (new arrays; pairs of weight zero left out). AROW does not average:
        ``average`` must be False."""
        if average:
            raise ValueError("AROW's weights are not averaged (CRFsuite's are not either).")
        return self.structure.compact(self.coef, drop_zeros=True)
