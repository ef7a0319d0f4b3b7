"""What structures with a weight vector of fixed size share (trees, transition systems)."""

import numpy as np


class FixedLayout:
    """Training-state helpers of a structure whose layout never changes in training."""

    def update(self, state, encoded, i, gold, pred, weight):
        """Apply ``weight * (phi(gold) - phi(pred))`` for sentence ``i`` to the training
        ``state``: to its weights, and ``n_seen`` times to its averaging sums."""
        self.add_delta(encoded, i, gold, pred, state.coef, weight)
        if state.n_seen:
            self.add_delta(encoded, i, gold, pred, state.coef_sum, weight * state.n_seen)

    def add_at(self, state, keys, values):
        """Add ``values[0]`` to the training ``state``'s first array and ``values[1]`` to
        its second (its ``layout_arrays``) at positions ``keys`` (distinct)."""
        first, second = state.layout_arrays
        getattr(state, first)[keys] += values[0]
        getattr(state, second)[keys] += values[1]

    def training_copy(self):
        """The structure a training state uses: this one (nothing of it changes)."""
        return self

    def compact(self, coef, drop_zeros=False):
        """``(structure, coef)`` as a fitted model keeps them: unchanged."""
        return self, coef

    def change_since(self, start, start_coef, start_sum, coef, coef_sum):
        """What training changed from ``start_coef``/``start_sum``: ``(positions, coef
        values, sum values)`` (keys are positions in a fixed layout)."""
        keys = np.flatnonzero((coef != start_coef) | (coef_sum != start_sum))
        return keys, coef[keys], coef_sum[keys]

    def weight_keys(self):
        """The key of every weight, in order: its position."""
        return np.arange(self.n_weights, dtype=np.int64)

    def add_to(self, array, keys, values):
        """``array += (keys, values)``: keys are positions (distinct) in a fixed layout."""
        array[keys] += values

    def values_at(self, keys, *arrays):
        """The values of each of ``arrays`` at positions ``keys``."""
        return [array[keys] for array in arrays]

    def with_change(self, coef, coef_sum, keys, values, sum_values):
        """``(structure, coef, coef_sum)``: copies of the arrays with ``keys`` set."""
        coef, coef_sum = coef.copy(), coef_sum.copy()
        coef[keys], coef_sum[keys] = values, sum_values
        return self, coef, coef_sum
