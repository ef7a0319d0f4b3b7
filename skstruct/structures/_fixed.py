"""What structures with a weight vector of fixed size share (trees, transition systems)."""


class FixedLayout:
    """Training-state helpers of a structure whose layout never changes in training."""

    def update(self, state, encoded, i, gold, pred, weight):
        """Apply ``weight * (phi(gold) - phi(pred))`` for sentence ``i`` to the training
        ``state``: to its weights, and ``n_seen`` times to its averaging sums."""
        self.add_delta(encoded, i, gold, pred, state.coef, weight)
        if state.n_seen:
            self.add_delta(encoded, i, gold, pred, state.coef_sum, weight * state.n_seen)

    def training_copy(self):
        """The structure a training state uses: this one (nothing of it changes)."""
        return self

    def compact(self, coef, drop_zeros=False):
        """``(structure, coef)`` as a fitted model keeps them: unchanged."""
        return self, coef

    def union(self, others=()):
        """The layout holding every weight of this structure and of ``others``: this one
        (a fixed layout is the same for every training state)."""
        return self

    def moved(self, coef, target):
        """``coef`` in the layout of ``target`` (see :meth:`union`): ``coef`` itself."""
        return coef
