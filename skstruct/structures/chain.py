"""LinearChain: the output space of sequence labelling and its weight layout."""

from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from .._kernels import chain as _chain
from .._kernels import chain_marginals as _chain_marginals
from .._kernels import delta as _delta
from .._kernels import rows as _rows
from .._kernels import swvp as _swvp
from .._kernels._config import TRUE
from ..utils.arrays import read_only, sparse_sum
from ._base import Structure
from .emission_rows import EmissionRows


class LinearChain(Structure):
    """A linear chain of order 0, 1 or 2 over ``n_labels`` labels and ``n_features`` features.

    Parts are (token feature, label) emissions; from order 1, label bigrams plus start
    and stop labels; at order 2, label trigrams too. The weights are one flat vector
    laid out as ``[transition (n_labels, n_labels) | start | stop | trigram
    (n_labels ** 3), order 2 only | emission pool]``; a zeroth-order chain keeps its
    transition, start and stop weights at zero.

    Emission weights are sparse: ``rows`` (:class:`EmissionRows`) lists the labels each
    feature has a weight for, and the pool holds those weights. A perceptron only ever
    moves the pairs it updates, so its rows start empty and grow as it learns: the model
    is the dense one, at the memory of what training touched. ``emission_matrix(coef)``
    gives the emission weights as a scipy sparse matrix (features x labels).

    Parameters
    ----------
    n_features : int
    n_labels : int
    order : {0, 1, 2}
    rows : EmissionRows or None, default=None
        None: no emission pair has a weight yet.
    constraints : ChainConstraints or None, default=None
        The label sequences allowed (a decoder's ``allowed=``): searches score forbidden
        transitions, first and last labels ``-inf`` (:meth:`constrain`,
        :meth:`forbidding`); the weights never hold ``-inf``.
    """

    def __init__(self, n_features, n_labels, order=1, rows=None, constraints=None):
        self.n_features = n_features
        self.n_labels = n_labels
        self.order = order
        self.rows = EmissionRows.empty(n_features) if rows is None else rows
        self.constraints = constraints

    @property
    def n_dense(self):
        """Weights that are not emissions: transitions, start, stop, trigrams."""
        return _chain.n_structure_weights(self.n_labels, self.order)

    @property
    def n_weights(self):
        return self.n_dense + self.rows.pool_size

    @property
    def trigrams(self):
        """What the kernels take for the trigram block: True at order 2, None below
        (numba then compiles no second-order code)."""
        return True if self.order == 2 else None

    @property
    def n_states(self):
        """Equivalence classes of prefixes (their last ``order`` labels): exact beam width."""
        return self.n_labels**self.order

    def split(self, coef):
        """Views ``(emission pool, transition, start, stop, trigram)`` of a flat weight
        vector; ``trigram`` is None below order 2."""
        return _chain.split_coef(coef, self.n_labels, self.trigrams)

    def emission_matrix(self, coef):
        """The emission weights of ``coef`` as a scipy CSR matrix (n_features, n_labels)."""
        return self.rows.matrix(self.split(coef)[0], self.n_labels)

    def with_rows(self, rows):
        """The same chain with the emission layout ``rows``."""
        return LinearChain(self.n_features, self.n_labels, self.order, rows, self.constraints)

    def with_n_features(self, n_features):
        """The same chain over a vocabulary grown to ``n_features`` (new rows empty)."""
        rows = self.rows.with_n_features(n_features)
        return LinearChain(n_features, self.n_labels, self.order, rows, self.constraints)

    def _forbidden(self):
        """Which weights of the dense block (``[transition | start | stop | trigram]``)
        the constraints forbid (bool (n_dense,)), or None without constraints."""
        if self.constraints is None:
            return None
        L, c = self.n_labels, self.constraints
        forbidden = np.zeros(self.n_dense, dtype=bool)
        forbidden[: L * L] = ~c.transition.ravel()
        forbidden[L * L : L * L + L] = ~c.start
        forbidden[L * L + L : L * L + 2 * L] = ~c.stop
        return forbidden

    def check_lengths(self, encoded):
        """Refuse a sentence of ``encoded`` whose length no allowed sequence has."""
        if self.constraints is not None:
            self.constraints.check_lengths(encoded.offsets)

    def constrain(self, coef):
        """``coef`` with the parts the constraints forbid at ``-inf`` (a new array), for
        searching and predicting; ``coef`` itself without constraints."""
        forbidden = self._forbidden()
        if forbidden is None:
            return coef
        constrained = coef.copy()
        constrained[: self.n_dense][forbidden] = -np.inf
        return constrained

    @contextmanager
    def forbidding(self, state):
        """Train with the forbidden parts of ``state.coef`` (the structure's own training
        state) at ``-inf``, and put their values back after: the searches of an epoch
        keep to allowed outputs, and no update moves a forbidden weight (the gold
        outputs are checked allowed). ``state.coef`` may be replaced meanwhile (the pool
        grows); its dense block is copied along."""
        forbidden = self._forbidden()
        if forbidden is None:
            yield
            return
        saved = state.coef[: self.n_dense][forbidden]
        state.coef[: self.n_dense][forbidden] = -np.inf
        try:
            yield
        finally:
            state.coef[: self.n_dense][forbidden] = saved

    def training_copy(self):
        """A chain of its own for a training state to grow (rows copied)."""
        return self.with_rows(self.rows.copy())

    def compact(self, coef, drop_zeros=False):
        """``(chain, coef)``: the same weights with rows back to back and no free slot;
        with ``drop_zeros``, pairs whose weight is zero are left out, which makes the
        layout depend on the weights alone (what a fitted model keeps)."""
        n_dense = self.n_dense
        keep = None
        if drop_zeros:
            keep = self.split(coef)[0] != 0.0
        rows, slots = self.rows.compacted(keep=keep)
        return self.with_rows(rows), np.concatenate([coef[:n_dense], coef[n_dense + slots]])

    def change_since(self, start, start_coef, start_sum, coef, coef_sum):
        """What training changed from ``start`` (the chain, weights and sums it began
        from; this chain holds every pair of it): ``(keys, coef values, sum values)``,
        keys ascending. Linear in the pairs, nothing of size features x labels."""
        n_dense = self.n_dense
        dense = np.flatnonzero(
            (coef[:n_dense] != start_coef[:n_dense]) | (coef_sum[:n_dense] != start_sum[:n_dense])
        )
        # read-only views: one compiled kernel, whichever arrays the shard cache hands in
        codes, values, sums = _rows.changed_pairs(
            *read_only((start.rows.arrays, start.split(start_coef)[0], start.split(start_sum)[0],
                        self.rows.arrays, self.split(coef)[0], self.split(coef_sum)[0])),
            self.n_labels,
        )  # fmt: skip
        return (
            np.concatenate([dense, n_dense + codes]),
            np.concatenate([coef[dense], values]),
            np.concatenate([coef_sum[dense], sums]),
        )

    def _positions(self, keys):
        """The position in this chain's weights of each key (ascending) of :meth:`delta`,
        -1 for a pair without a weight; the pairs are looked up once."""
        n_dense = self.n_dense
        split = np.searchsorted(keys, n_dense)
        slots = _rows.pair_slots(*read_only((self.rows.arrays, keys[split:] - n_dense)),
                                 self.n_labels)  # fmt: skip
        return np.concatenate([keys[:split], np.where(slots >= 0, n_dense + slots, -1)])

    def values_at(self, keys, *arrays):
        """The values of each of ``arrays`` (laid out by this chain) at ``keys``
        (ascending), 0 for a pair without a weight."""
        positions = self._positions(keys)
        held = positions >= 0
        out = []
        for array in arrays:
            values = np.zeros(keys.size)
            values[held] = array[positions[held]]
            out.append(values)
        return out

    def add_to(self, array, keys, values):
        """``array += (keys, values)`` for an array laid out as this chain's weights and
        a sparse vector in the keys of :meth:`delta` (ascending); pairs without a weight
        are dropped."""
        positions = self._positions(keys)
        held = positions >= 0
        array[positions[held]] += values[held]

    def with_change(self, coef, coef_sum, keys, values, sum_values):
        """``(chain, coef, coef_sum)``: new arrays with the weights at ``keys`` set
        (pairs given a weight as needed), rows compact; this chain and the arrays stay
        as they are."""
        n_dense = self.n_dense
        split = np.searchsorted(keys, n_dense)
        start, length, labels, emission, emission_sum = _rows.merged_pairs(
            *read_only((self.rows.arrays, self.split(coef)[0], self.split(coef_sum)[0],
                        keys[split:] - n_dense, values[split:], sum_values[split:])),
            self.n_labels,
        )  # fmt: skip
        rows = EmissionRows(start, length, length.copy(), labels, np.array([labels.size]))
        new_coef = np.concatenate([coef[:n_dense], emission])
        new_sum = np.concatenate([coef_sum[:n_dense], emission_sum])
        new_coef[keys[:split]], new_sum[keys[:split]] = values[:split], sum_values[:split]
        return self.with_rows(rows), new_coef, new_sum

    def grow(self, state, pool_size=None):
        """Give the training ``state`` (whose structure this is) a larger emission pool:
        rows compacted into ``pool_size`` slots (default: twice the pairs, at least
        what the longest row may need). The state's two arrays (its ``layout_arrays``,
        ``("coef", "coef_sum")`` for :class:`~skstruct.learners.AveragedWeights`) move
        with the rows."""
        nnz = self.rows.nnz
        if pool_size is None:
            pool_size = max(2 * nnz, nnz + 4 * self.n_labels, 1024)
        self.rows, slots = self.rows.compacted(pool_size)
        n_dense = self.n_dense
        for name in state.layout_arrays:
            old = getattr(state, name)
            new = np.zeros(n_dense + pool_size)
            new[:n_dense] = old[:n_dense]
            new[n_dense : n_dense + slots.size] = old[n_dense + slots]
            setattr(state, name, new)

    def weight_keys(self):
        """The key of every weight of this compact layout (a fitted model's), in order
        and ascending: the position of a dense weight, ``n_dense + feature * n_labels +
        label`` for an emission pair (the keys of :meth:`delta` and :meth:`values_at`)."""
        rows = self.rows
        features = np.repeat(np.arange(self.n_features, dtype=np.int64), rows.length)
        codes = features * self.n_labels + rows.labels[rows.live_slots()]
        return np.concatenate([np.arange(self.n_dense, dtype=np.int64), self.n_dense + codes])

    def scores(self, encoded, i, coef):
        """The part scores of sentence ``i`` under ``coef``: a :class:`ChainScores`
        (emission scores computed, the other parts views of ``coef``)."""
        lo, hi = encoded.offsets[i], encoded.offsets[i + 1]
        unary = np.empty((hi - lo, self.n_labels))
        emission, transition, start, stop, trigram = self.split(coef)
        _chain.unary_scores(encoded.indptr, encoded.indices, encoded.data, lo, hi,
                            self.rows.arrays, emission, unary)  # fmt: skip
        return ChainScores(unary, transition, start, stop, trigram)

    def path_score(self, scores, path):
        """The score of the label path ``path`` under the part ``scores`` (a float;
        ``-inf`` when it uses a forbidden or fixed-out part)."""
        n = path.shape[0]
        total = float(scores.unary[np.arange(n), path].sum())
        if self.order >= 1:
            total += scores.start[path[0]] + scores.stop[path[-1]]
            total += scores.transition[path[:-1], path[1:]].sum()
        if self.order == 2:
            total += scores.trigram[path[:-2], path[1:-1], path[2:]].sum()
        return float(total)

    def score(self, scores, output):
        """:meth:`path_score`, by the protocol's name (:class:`Structure`)."""
        return self.path_score(scores, output)

    @property
    def has_marginals(self):
        """Exact marginals by forward-backward: chains of order 0 and 1."""
        return self.order <= 1

    def marginals(self, scores):
        """``(log Z, mu)`` over all label paths (orders 0 and 1): ``mu`` a
        :class:`ChainScores` of token-label probabilities (``unary``), expected
        transition counts (``transition``), and the first and last labels'
        probabilities (``start``, ``stop``); at order 0 the parts that do not score
        (transitions, start, stop) have marginals 0."""
        if not self.has_marginals:
            super().marginals(scores)
        n, L = scores.unary.shape
        mu_unary, mu_pair = np.empty((n, L)), np.empty((L, L))
        if self.order == 0:
            zero = np.zeros(L)
            log_z = _chain_marginals.forward_backward(
                scores.unary, n, np.zeros((L, L)), zero, zero, mu_unary, mu_pair
            )
            return log_z, ChainScores(mu_unary, np.zeros((L, L)), zero, zero.copy(), None)
        log_z = _chain_marginals.forward_backward(
            scores.unary, n, scores.transition, scores.start, scores.stop, mu_unary, mu_pair
        )
        return log_z, ChainScores(mu_unary, mu_pair, mu_unary[0].copy(), mu_unary[-1].copy(), None)

    def n_choices(self, scores):
        """The labels a token can take."""
        return self.n_labels

    @property
    def has_expected_delta(self):
        """Expected feature vectors from the marginals of orders 0 and 1."""
        return self.order <= 1

    def expected_loss(self, mu, gold):
        """The Hamming loss against ``gold`` expected under the marginals ``mu``."""
        n = gold.shape[0]
        return float(n - mu.unary[np.arange(n), gold].sum())

    def expected_delta(self, encoded, i, gold, mu):
        """``phi(x_i, gold) - E_mu[phi(x_i, y)]`` as ``(keys, values)`` in the keys of
        :meth:`delta`, for the marginals ``mu`` of :meth:`marginals`: every (token
        feature, label) pair weighted by ``1[gold] - mu`` of its token and label, the
        label bigrams, first and last labels by their gold counts less their expected
        ones (orders 0 and 1)."""
        if not self.has_expected_delta:
            super().expected_delta(encoded, i, gold, mu)
        lo, hi = int(encoded.offsets[i]), int(encoded.offsets[i + 1])
        n, L = hi - lo, self.n_labels
        residual = -mu.unary[:n]
        residual[np.arange(n), gold] += 1.0
        first, last = int(encoded.indptr[lo]), int(encoded.indptr[hi])
        tokens = np.repeat(np.arange(n), np.diff(encoded.indptr[lo : hi + 1]))
        features = encoded.indices[first:last].astype(np.int64)
        values = encoded.data[first:last] if encoded.data.size else np.ones(last - first)
        keys = [(self.n_dense + features[:, None] * L + np.arange(L)).ravel()]
        parts = [(values[:, None] * residual[tokens]).ravel()]
        if self.order == 1:
            pairs = np.zeros((L, L))
            np.add.at(pairs, (gold[:-1], gold[1:]), 1.0)
            keys.append(np.arange(L * (L + 2), dtype=np.int64))
            parts += [(pairs - mu.transition).ravel(), residual[0], residual[-1]]
        return sparse_sum(np.concatenate(keys), np.concatenate(parts))

    def fix(self, scores, positions, labels):
        """``scores`` (a new :class:`ChainScores`) under which any path not labelling
        token ``positions[j]`` with ``labels[j]`` scores ``-inf``."""
        unary = scores.unary.copy()
        keep = unary[positions, labels]
        unary[positions] = -np.inf
        unary[positions, labels] = keep
        return scores._replace(unary=unary)

    def complete(self, scores, gold):
        """``gold`` (label ids) with its unknown labels (-1) filled in: the best path
        under ``scores`` that has the known labels (exact Viterbi, whatever decodes;
        a latent-variable perceptron's gold). ``gold`` itself when nothing is unknown."""
        unknown = gold < 0
        if not unknown.any():
            return gold
        known = np.flatnonzero(~unknown)
        fixed = self.fix(scores, known, gold[known])
        path = _chain.argmax_path(*fixed, self.order)
        if not self.path_score(fixed, path) > -np.inf:
            raise ValueError(
                "no label sequence has the known labels and keeps to "
                f"{self.constraints.description if self.constraints else 'the chain'}"
            )
        return path

    def augment(self, scores, gold, loss_weight=1.0):
        """``scores`` (a new :class:`ChainScores`) plus ``loss_weight`` times the Hamming
        loss against ``gold``: every label but the gold one of each token earns 1, so
        that a decoder's argmax is the loss-augmented one of a structured SVM (``max_y
        L(gold, y) + w . phi(y)``)."""
        unary = scores.unary + loss_weight
        unary[np.arange(gold.shape[0]), gold] -= loss_weight
        return scores._replace(unary=unary)

    def margin(self, scores, gold, mixed, a, b):
        """``w . (phi(gold) - phi(mixed))`` for ``mixed`` equal to ``gold`` outside ``[a, b)``.

        Only the parts meeting ``[a, b)`` are summed, as the SWVP kernel does, so both
        paths round alike.
        """
        n = gold.shape[0]
        args = (scores.transition, scores.start, scores.stop, scores.trigram, self.order)
        return _swvp.window_score(scores.unary, gold, n, a, b, *args) - _swvp.window_score(
            scores.unary, mixed, n, a, b, *args
        )

    def update(self, state, encoded, i, gold, pred, weight):
        """Apply ``weight * (phi(gold) - phi(pred))`` for sentence ``i`` to the training
        ``state`` (whose structure this is): to its weights, and ``n_seen`` times to its
        averaging sums. ``pred`` may be a prefix: the outputs are compared over
        ``len(pred)`` tokens, and the stop part counts only when ``pred`` covers the
        whole sentence. Pairs the update touches get a weight first.
        """
        lo = encoded.offsets[i]
        n = encoded.offsets[i + 1] - lo
        while not _chain.add_chain_delta(
            encoded.indptr, encoded.indices, encoded.data, lo, gold, pred, pred.shape[0],
            self.order, self.trigrams, pred.shape[0] == n, self.rows.arrays, state.coef,
            state.coef_sum,
            self.n_labels, weight, weight * state.n_seen, TRUE,
        ):  # fmt: skip
            self.grow(state)

    def delta(self, encoded, i, gold, pred, token_weights=None):
        """``phi(gold) - phi(pred)`` for sentence ``i`` as a sparse vector ``(keys,
        values)``: keys ascending and distinct, whatever the layout (a dense weight's
        position, ``n_dense + feature * n_labels + label`` for an emission pair, as
        :meth:`change_since` keys weights); a part met more than once summed, parts that
        cancel left out, token feature values honoured. ``values @ values`` is
        ``||phi(gold) - phi(pred)||^2``. ``pred`` may be a prefix, as for :meth:`update`.
        Nothing is given a weight: the cost is O(m log m) for the m entries.
        ``token_weights`` (one per compared token, or None: ones) multiply every part
        ending at their token (emissions, the bigram and trigram ending there, start,
        stop): a learner's ``class_weight`` of the gold labels.
        """
        lo = encoded.offsets[i]
        n = encoded.offsets[i + 1] - lo
        m = pred.shape[0]
        weights = np.ones(m) if token_weights is None else token_weights
        return _delta.chain_delta(
            encoded.indptr, encoded.indices, encoded.data, lo, gold, pred, m, self.order,
            m == n, self.n_labels, weights,
        )  # fmt: skip

    def update_by_tokens(self, state, encoded, i, gold, pred, weight, token_weights):
        """:meth:`update` with each part scaled by the weight of the token it ends at
        (``token_weights``, see :meth:`delta`)."""
        keys, values = self.delta(encoded, i, gold, pred, token_weights)
        self.add_at(state, keys, (weight * values, weight * state.n_seen * values))

    def add_at(self, state, keys, values):
        """Add to the training ``state`` (whose structure this is) at ``keys`` (as
        :meth:`delta` gives them): ``values[0]`` to its first array, ``values[1]`` to its
        second (its ``layout_arrays``). Pairs get a weight first; the pool grows as
        needed."""
        first, second = state.layout_arrays
        while not _delta.add_at_keys(
            self.rows.arrays, keys, self.n_dense, self.n_labels, getattr(state, first),
            getattr(state, second), values[0], values[1],
        ):  # fmt: skip
            self.grow(state)


class ChainScores(NamedTuple):
    """Part scores of one sentence: emissions ``unary`` (n, L) and the label bigram,
    start, stop and trigram weights (views of the weight vector; ``trigram`` None below
    order 2)."""

    unary: np.ndarray
    transition: np.ndarray
    start: np.ndarray
    stop: np.ndarray
    trigram: np.ndarray | None
