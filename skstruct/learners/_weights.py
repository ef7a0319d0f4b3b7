"""AveragedWeights: the perceptron's weights with the lazy averaging state."""

import numpy as np


class AveragedWeights:
    """Current weights ``coef``, plus what is needed to average them in O(1) per update.

    With ``t`` the number of examples seen before an update ``delta``, the kernels add
    ``delta`` to ``coef`` and ``t * delta`` to ``coef_sum``. After ``n_seen``
    examples the average of the weights held after each example is then
    ``coef - coef_sum / n_seen`` (Daume III, 2006, sec. 2.1.1; seqlearn does the same),
    so an update costs ``O(|delta phi|)`` however many weights there are.

    Parameters
    ----------
    n_weights : int
    """

    def __init__(self, n_weights):
        self.coef = np.zeros(n_weights)
        self.coef_sum = np.zeros(n_weights)
        self.n_seen = 0

    @classmethod
    def from_state(cls, coef, coef_sum, n_seen):
        """Weights holding the given arrays (not copies) and example count."""
        weights = cls(0)
        weights.coef, weights.coef_sum, weights.n_seen = coef, coef_sum, n_seen
        return weights

    def averaged(self):
        """The averaged weights (a new array); the current ones before any example."""
        if self.n_seen == 0:
            return self.coef.copy()
        return self.coef - self.coef_sum / self.n_seen

    def resize(self, resize_one):
        """Apply ``resize_one(array) -> array`` to both weight arrays (a grown vocabulary)."""
        self.coef = resize_one(self.coef)
        self.coef_sum = resize_one(self.coef_sum)
