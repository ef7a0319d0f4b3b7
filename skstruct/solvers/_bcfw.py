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

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .._kernels import bcfw as _bcfw
from .._kernels import eg_hinge as _eg_hinge
from ..decoders import ChuLiuEdmonds, Eisner, Viterbi
from ..engine import AveragedWeights, Minibatch
from ..structures import ArcFactoredTree, LinearChain
from ..utils.parts import in_parts

#: One example a batch, one thread: Algorithm 3 as the paper states it.
SEQUENTIAL = Minibatch(1, 1)


class BlockPool:
    """Sparse vectors ``(keys, values)``, one per block, back to back in one pool that
    the kernels read and write (see :mod:`skstruct._kernels.bcfw`); each starts empty."""

    def __init__(self, n_blocks, size=1024):
        self.start = np.zeros(n_blocks, dtype=np.int64)
        self.length = np.zeros(n_blocks, dtype=np.int64)
        self.capacity = np.zeros(n_blocks, dtype=np.int64)
        self.keys = np.empty(size, dtype=np.int64)
        self.values = np.empty(size)
        self.used = np.zeros(1, dtype=np.int64)

    @property
    def arrays(self):
        return self.start, self.length, self.capacity, self.keys, self.values, self.used

    def get(self, i):
        """Block ``i``: views of its keys (ascending) and values."""
        s, m = self.start[i], self.length[i]
        return self.keys[s : s + m], self.values[s : s + m]

    def set(self, i, keys, values):
        """Make ``(keys, values)`` block ``i`` (copied into the pool)."""
        while not _bcfw.store_block(*self.arrays, i, keys, values):
            self.grow(keys.size)

    def grow(self, needed=0):
        """Blocks back to back, each with room to grow, in a pool twice as large as they
        need (at least ``needed`` more entries free)."""
        capacity = _bcfw.room(self.length)
        start = np.zeros_like(self.start)
        np.cumsum(capacity[:-1], out=start[1:])
        used = int(capacity.sum())
        size = max(2 * used, used + 2 * _bcfw.room(needed), 1024)
        keys, values = np.empty(size, dtype=np.int64), np.empty(size)
        for i in np.flatnonzero(self.length):
            old, new, m = self.start[i], start[i], self.length[i]
            keys[new : new + m], values[new : new + m] = (
                self.keys[old : old + m],
                self.values[old : old + m],
            )
        self.start, self.capacity, self.keys, self.values = start, capacity, keys, values
        self.used[0] = used


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
    n_threads : int, default=1
        Threads of the duality gap's pass of the oracle.
    """

    def __init__(self, structure, decoder, encoded, gold, Ci, n_threads=1):
        self.decoder, self.encoded, self.n_threads = decoder, encoded, n_threads
        # one dtype for every kernel (the hinge kernels take int64)
        self.gold = np.asarray(gold, dtype=np.int64)
        self.Ci = np.asarray(Ci, dtype=np.float64)
        n = encoded.n_sentences
        self.blocks = BlockPool(n)  # w_i: every alpha_i starts on the gold output, w_i = 0
        self.block_loss = np.zeros(n)  # l_i
        # w, the lazy sums of its weighted average, and the step count (n_seen)
        self.weights = AveragedWeights(structure)
        self.loss = 0.0  # sum_i C_i l_i
        self.loss_sum = 0.0  # its lazy averaging sum

    @property
    def n_steps(self):
        return self.weights.n_seen

    def _gold(self, i):
        offsets = self.weights.structure.output_offsets(self.encoded)
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
        gold, best, _ = self.oracle(i, self.weights.coef)
        return self.take_step(i, gold, best)

    def take_step(self, i, gold, best):
        """Move block ``i`` towards the corner of output ``best`` by the exact line
        search against the current weights; returns ``(gamma, gap)``, the gap of the
        block along that direction (its duality gap when ``best`` is its oracle's
        output under the current weights, less when the weights have moved since)."""
        state, Ci = self.weights, self.Ci[i]
        structure = state.structure
        loss = structure.loss(self.encoded, i, gold, best)
        corner_keys, psi = structure.delta(self.encoded, i, gold, best)
        keys, block, corner = _bcfw.aligned(*self.blocks.get(i), corner_keys, Ci * psi)
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
            self.blocks.set(i, keys, block + change)
            loss_change = Ci * gamma * (loss - self.block_loss[i])
            self.block_loss[i] += gamma * (loss - self.block_loss[i])
            self.loss += loss_change
            self.loss_sum += lazy * loss_change
        state.n_seen = m
        return gamma, gap

    def epoch(self, order, minibatch=SEQUENTIAL):
        """A step on each example of ``order``, in minibatches (``minibatch.size``
        consecutive examples: their oracles all search against the weights the batch
        starts from, on up to ``minibatch.threads`` threads, and their steps are taken
        in turn; size 1 is Algorithm 3). Returns the epoch's counts. Chains searched
        by exact Viterbi and unlabelled trees run a kernel
        (:func:`~skstruct._kernels.bcfw.chain_epoch`, ``tree_epoch``: the same steps),
        other structures :meth:`take_step` per example."""
        order = np.asarray(order, dtype=np.int64)
        fused = self._fused()
        if fused is not None:
            gammas = self._kernel_epoch(fused, order, minibatch)
        else:
            gammas = self._python_epoch(order, minibatch)
        return {"mean_step": float(gammas.mean()) if gammas.size else None,
                "null_steps": int(np.count_nonzero(gammas == 0.0))}  # fmt: skip

    def _python_epoch(self, order, minibatch):
        gammas, done = np.empty(order.size), 0

        def oracle(i):  # against the weights the batch starts from (``coef`` below)
            return self.oracle(i, coef)[:2]

        with ThreadPoolExecutor(minibatch.threads) as pool:
            for batch in minibatch.batches(order):
                coef = self.weights.coef  # the layout may have grown
                parallel = minibatch.parallel(batch)
                found = list(pool.map(oracle, batch) if parallel else map(oracle, batch))
                for i, (gold, best) in zip(batch, found):
                    gammas[done] = self.take_step(i, gold, best)[0]
                    done += 1
        return gammas

    def _fused(self):
        """The kernel epoch for this structure and decoder: "chain", "tree" or None."""
        structure, decoder = self.weights.structure, self.decoder
        if type(structure) is LinearChain and type(decoder) is Viterbi:
            return "chain"
        tree = type(structure) is ArcFactoredTree and type(decoder) in (Eisner, ChuLiuEdmonds)
        # the kernel searches as the structure says (its single root): so must the decoder
        if tree and not structure.n_labels and decoder.single_root == structure.single_root:
            return "tree"
        return None

    def _kernel_epoch(self, kind, order, minibatch):
        state, structure, encoded = self.weights, self.weights.structure, self.encoded
        size = minibatch.size
        longest = max(int(np.diff(encoded.offsets).max(initial=1)), 1)
        pred = np.empty(size * longest, np.int32 if kind == "chain" else np.int64)
        token_start = np.empty(size + 1, dtype=np.int64)
        gammas, position, decoded = np.empty(order.size), 0, -1
        losses = np.array([self.loss, self.loss_sum])
        while position < order.size:
            batching = (order, position, size, minibatch.kernel_threads, decoded, pred,
                        token_start)  # fmt: skip
            blocks = (self.Ci, self.block_loss, *self.blocks.arrays, losses, gammas)
            if kind == "chain":
                sparse = structure.rows.sparse_flag(structure.n_labels)  # None: full rows
                state.n_seen, position, full, decoded, needed = _bcfw.chain_epoch(
                    encoded.indptr, encoded.indices, encoded.data, encoded.offsets, self.gold,
                    *batching, structure.rows.arrays, state.coef, state.coef_sum,
                    structure.n_labels, structure.order, structure.trigrams, state.n_seen,
                    *blocks, sparse,
                )  # fmt: skip
            else:
                parts = (structure.siblings, structure.grandparent_parts,
                         None if self.decoder.projective else True)  # fmt: skip
                state.n_seen, position, full, decoded, needed = _bcfw.tree_epoch(
                    encoded.attrs, encoded.offsets, self.gold, *batching, state.coef,
                    state.coef_sum, structure.n_features, parts, structure.single_root,
                    state.n_seen, *blocks,
                )  # fmt: skip
            if full == 1:  # the emission pool: grow it, go on from that example
                structure.grow(state)
            elif full == 2:  # the block pool: room for the block that did not fit
                self.blocks.grow(needed)
        self.loss, self.loss_sum = float(losses[0]), float(losses[1])
        return gammas

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
        hinge = self.kernel_hinges(structure, coef)
        if hinge is None:
            hinge = self.python_hinges(structure, coef)
        primal = 0.5 * float(coef @ coef) + float(self.Ci @ hinge)
        return {"primal": primal, "dual": float(dual), "gap": primal - float(dual)}

    def python_hinges(self, structure, coef):
        """Every example's hinge ``max_y (L + w . phi(y)) - w . phi(y_i)``, by the
        decoder under loss-augmented scores (a lower bound when it searches inexactly)."""
        hinge = np.empty(self.encoded.n_sentences)
        for i in range(hinge.size):
            gold, best, scores = self.oracle(i, coef, structure)
            augmented = structure.augment(scores, gold)
            hinge[i] = structure.path_score(augmented, best) - structure.path_score(scores, gold)
        return hinge

    def kernel_hinges(self, structure, coef):
        """:meth:`python_hinges` by one parallel kernel, for first-order chains (exact
        Viterbi, whatever the decoder: the gap is then exact with a beam too) and
        first-order unlabelled trees; None for other structures."""
        encoded, out = self.encoded, np.empty(self.encoded.n_sentences)
        tree = isinstance(structure, ArcFactoredTree)
        if isinstance(structure, LinearChain) and structure.order == 1:
            arrays = (encoded.indptr, encoded.indices, encoded.data, encoded.offsets,
                      structure.rows.arrays, coef, structure.n_labels, self.gold)  # fmt: skip
            in_parts(lambda part: _eg_hinge.chain_hinges(*arrays, part, out), encoded.offsets,
                     self.n_threads)  # fmt: skip
        elif tree and structure.order == 1 and not structure.n_labels:
            arrays = (encoded.attrs, encoded.offsets, coef, structure.n_features, self.gold,
                      self.decoder.projective, structure.single_root)  # fmt: skip
            in_parts(lambda part: _eg_hinge.tree_hinges(*arrays, part, out), encoded.offsets,
                     self.n_threads, power=3)  # fmt: skip
        else:
            return None
        return out
