"""Block-coordinate Frank-Wolfe on the structured SVM's dual (Lacoste-Julien, Jaggi,
Schmidt & Pletscher, ICML 2013, Algorithm 3 with the weighted average of sec. 4).

The dual has one block per example: a distribution ``alpha_i`` over its outputs. Only
what the weights and the objective need of it is kept, the block's share of the
weights and its expected loss::

    w_i = C_i (phi(x_i, y_i) - E_{alpha_i}[phi(x_i, y)]),   l_i = E_{alpha_i}[L(y_i, y)]

with ``w = sum_i w_i`` and the dual ``D = sum_i C_i l_i - 1/2 ||w||^2``. A step on block
``i`` asks the decoder for the loss-augmented argmax ``y*`` (the corner of the block's
simplex the linearised dual points to), and moves ``alpha_i`` towards it by the exact
line search ``gamma``: with ``w_s = C_i psi_i(y*)`` and ``d = w_s - w_i``::

    gamma = clip((C_i (L(y_i, y*) - l_i) - w . d) / ||d||^2, 0, 1)

The numerator is the block's duality gap; the gaps of all blocks sum to ``P(w) - D``.
``w_i`` is a sparse vector (keyed as ``structure.delta`` keys weights): it holds only
the parts of outputs the oracle ever returned, so ``w`` grows with what training
touches, as the perceptrons' weights do.

The paper's objective is ``lambda/2 ||w||^2 + 1/n sum_i H_i(w)``; ours, ``1/2 ||w||^2 +
C sum_i H_i(w)``, is that times ``1 / lambda`` with ``lambda = 1 / (n C)``: the same
iterates, ``w_s = psi / (lambda n) = C psi`` and ``l_s = L / n`` up to that factor.

Weighted averaging: ``w_bar(k+1) = k/(k+2) w_bar(k) + 2/(k+2) w(k+1)``, i.e. ``w_bar(K)
= 2/(K(K+1)) sum_{j<=K} j w(j)``. Kept lazily as the perceptron keeps its average:
with the step ``m`` changing ``w`` by ``delta_m``, ``sum_j j w(j) = K(K+1)/2 w(K) -
sum_m m(m-1)/2 delta_m``, so a step adds ``m(m-1)/2 delta_m`` to a second array. The
same weights average the expected losses, so the averaged iterate is a dual point as
well (``alpha_bar``, of which ``w_bar`` is the weights) and has a duality gap.
"""

import numpy as np

from .._kernels.bcfw import aligned
from ._weights import AveragedWeights

_NO_KEYS = np.empty(0, dtype=np.int64)
_NO_VALUES = np.empty(0)


class FrankWolfeBlocks:
    """The dual blocks of a structured SVM and the weights they sum to.

    Parameters
    ----------
    structure : LinearChain or ArcFactoredTree
        Its ``scores``, ``augment``, ``delta``, ``values_at`` and ``add_at`` are all
        the solver asks of it.
    decoder : decoder
        ``decode`` under loss-augmented scores is the max-oracle (exact for Viterbi,
        Eisner, Chu-Liu-Edmonds; ``BeamSearch`` makes it approximate).
    encoded : encoded X
    gold : array of output ids, every sentence's back to back
    Ci : ndarray of shape (n_sentences,)
        Each example's ``C`` (``C`` times its sample weight).
    """

    def __init__(self, structure, decoder, encoded, gold, Ci):
        self.structure, self.decoder, self.encoded = structure, decoder, encoded
        self.gold, self.Ci = gold, np.asarray(Ci, dtype=np.float64)
        n = encoded.n_sentences
        self.block_keys = [_NO_KEYS] * n
        self.block_values = [_NO_VALUES] * n
        self.block_loss = np.zeros(n)  # l_i: every alpha_i starts on the gold output
        # w, the lazy sums of its weighted average, and the step count (n_seen)
        self.weights = AveragedWeights(structure)
        self.loss = 0.0  # sum_i C_i l_i
        self.loss_sum = 0.0  # its lazy averaging sum

    @property
    def n_steps(self):
        return self.weights.n_seen

    def _gold(self, i):
        offsets = self.encoded.offsets
        return self.gold[offsets[i] : offsets[i + 1]]

    def oracle(self, i, coef, structure=None):
        """The loss-augmented argmax of example ``i`` under ``coef`` (laid out by
        ``structure``, default the training weights'): ``(gold, y*, scores)``."""
        structure = self.weights.structure if structure is None else structure
        gold = self._gold(i)
        scores = structure.scores(self.encoded, i, coef)
        return gold, self.decoder.decode(structure, structure.augment(scores, gold)), scores

    def step(self, i):
        """One block step on example ``i``; returns ``(gamma, block gap)``."""
        state, Ci = self.weights, self.Ci[i]
        structure = state.structure
        gold, best, _ = self.oracle(i, state.coef)
        loss = float(np.count_nonzero(gold != best))
        corner_keys, psi = structure.delta(self.encoded, i, gold, best)
        keys, block, corner = aligned(self.block_keys[i], self.block_values[i], corner_keys,
                                      Ci * psi)  # fmt: skip
        direction = corner - block  # w_s - w_i
        (w,) = structure.values_at(keys, state.coef)
        gap = Ci * (loss - self.block_loss[i]) - float(w @ direction)
        curvature = float(direction @ direction)
        if curvature > 0.0:
            gamma = min(max(gap / curvature, 0.0), 1.0)
        else:  # w_s = w_i: the dual is linear along the segment
            gamma = 1.0 if gap > 0.0 else 0.0
        m = state.n_seen + 1
        lazy = 0.5 * m * (m - 1)  # the weight of this change in the averaging sums
        if gamma > 0.0:
            change = gamma * direction
            structure.add_at(state, keys, (change, lazy * change))
            self.block_keys[i], self.block_values[i] = keys, block + change
            loss_change = Ci * gamma * (loss - self.block_loss[i])
            self.block_loss[i] += gamma * (loss - self.block_loss[i])
            self.loss += loss_change
            self.loss_sum += lazy * loss_change
        state.n_seen = m
        return gamma, gap

    def epoch(self, order):
        """A step on each example of ``order``, in turn; returns the epoch's counts."""
        gammas = np.empty(len(order))
        for k, i in enumerate(order):
            gammas[k], _ = self.step(i)
        return {"mean_step": float(gammas.mean()) if gammas.size else None,
                "null_steps": int(np.count_nonzero(gammas == 0.0))}  # fmt: skip

    def averaged(self):
        """``(w_bar, sum_i C_i l_bar_i)``: the weighted-average iterate (a new array, in
        the training layout) and its dual's loss term."""
        K = self.weights.n_seen
        if K == 0:
            return self.weights.coef.copy(), self.loss
        scale = 2.0 / (K * (K + 1.0))
        return self.weights.coef - scale * self.weights.coef_sum, self.loss - scale * self.loss_sum

    def model(self, average=True):
        """``(structure, coef, dual)``: the weights of the averaged (or last) iterate in
        a compact layout (a chain's pool also holds stale slots, which must not count
        in a norm), and the best dual value known, the larger of the averaged and the
        last dual point's: a lower bound on the optimum."""
        structure, last = self.weights.structure.compact(self.weights.coef)
        dual = self.loss - 0.5 * float(last @ last)
        if not average:
            return structure, last, dual
        coef, loss = self.averaged()
        coef = self.weights.structure.compact(coef)[1]
        return structure, coef, max(dual, loss - 0.5 * float(coef @ coef))

    def objectives(self, structure, coef, dual):
        """Primal ``P(coef)`` (``coef`` compact, laid out by ``structure``; a pass of the
        max-oracle over every example), the ``dual`` value given (of any dual point: a
        lower bound on the optimum) and their gap, which bounds ``P(coef) - P*``."""
        hinge = np.empty(self.encoded.n_sentences)
        for i in range(hinge.size):
            gold, best, scores = self.oracle(i, coef, structure)
            augmented = structure.augment(scores, gold)
            hinge[i] = structure.path_score(augmented, best) - structure.path_score(scores, gold)
        primal = 0.5 * float(coef @ coef) + float(self.Ci @ hinge)
        return {"primal": primal, "dual": float(dual), "gap": primal - float(dual)}
