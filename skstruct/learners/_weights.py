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
