"""The EG structured SVM's solver: factored dual variables and exponentiated-gradient
steps on them (online, batch, adaptive), with the primal, dual and gap.

Collins et al. keep ``alpha_{i,y} ∝ exp(sum_{r in y} theta_{i,r})``: one potential per
part of each example instead of one variable per output. Everything the learner
needs from ``alpha`` is a marginal over parts: the expected features (for ``w``)
and the expected loss (for the dual objective).

:class:`StructuredDual` is written once, against the structure protocol
(:class:`~skstruct.structures.Structure`): ``theta`` has the shape of the structure's
part scores, ``marginals`` gives ``mu``, ``expected_loss`` and ``expected_delta`` the
dual's terms. Chains and first-order trees have fast paths of their own
(:data:`FAST_DUALS`), tested equal to it:

Chains: unary parts ``(t, label)`` carry their own potentials; every transition part
of a sentence has the features of its label pair wherever it sits and no loss, so
its EG updates are the same at every position and one ``(L, L)`` matrix per sentence
holds them exactly (likewise start and stop). Emission features are the (feature,
label) pairs of the chain's emission rows, fixed for the whole of training. Trees: one
potential per possible arc.
"""

from typing import NamedTuple

import numpy as np

from .._kernels import eg as _eg
from .._kernels import eg_hinge as _eg_hinge
from .._kernels import tree as _tree
from .._kernels.chain_marginals import forward_backward
from .._kernels.tree_marginals import inside_outside, matrix_tree
from ..structures import ArcFactoredTree, LinearChain
from ..utils.arrays import sparse_sum
from ..utils.parts import in_parts

#: An adaptive step is halved at most this many times before the example is skipped.
MAX_HALVINGS = 30
#: An adaptive rate that needed no halving grows by this factor for the next step.
GROWTH = 1.1
#: Most arc feature ids (about 130 MB) a tree dual keeps hashed for one EG step.
CACHED_ARC_IDS = 2**24


def gold_potential(n_choices):
    """Initial potential of gold parts: with all else zero, a token (a word) picks its
    gold label (head) out of ``n_choices`` with probability 0.999.

    The dual starts next to the gold outputs, where ``w = 0``. Starting further away
    (0.9 or 0.99) gives a first ``w`` that costs epochs to undo: on CoNLL-2000 the dual
    objective after 15 epochs was highest from 0.999 (0.9999 was no better).
    """
    return float(np.log(999.0 * max(n_choices - 1, 1)))


class Proposal(NamedTuple):
    """New potentials and marginals of one example, and its expected loss under them."""

    theta: tuple
    mu: tuple
    expected_loss: float


class _EachExample:
    """Duals that keep potentials per example: they step one example at a time (online
    EG), and a batch step is every example's step against the same ``w``."""

    online_steps = True

    def step_all(self, coef, step):
        """Every example's EG step against the same ``w = coef``; returns the new ``w``."""
        for i in range(self.expected_loss.size):
            self.accept(i, self.propose(i, self.gradient(i, coef), step))
        return self.coef()


class StructuredDual(_EachExample):
    """Dual variables of any structure with marginals and expected feature vectors
    (``has_marginals``, ``has_expected_delta``): example ``i``'s potentials ``theta_i``
    are laid out as its part scores (``structure.scores``), and everything else comes
    from the protocol.

    The EG step's gradient ``loss_r + w . phi_r`` is ``structure.augment`` of the part
    scores; ``mu_i = structure.marginals(theta_i)``; ``w = sum_i C_i
    expected_delta(i, mu_i)``. Potentials start where every part slot picks its gold
    value with probability 0.999 (:func:`gold_potential` of the structure's
    ``n_choices``).
    """

    def __init__(self, structure, decoder, encoded, gold, C, sample_weight=None, n_threads=1):
        _check_capabilities(structure)
        if not structure.has_part_tables:
            raise ValueError(
                f"{type(structure).__name__} scores its parts as the search goes, without a "
                f"table of them to keep potentials in: its dual is CompactDual (batch EG)."
            )
        _set_up(self, structure, decoder, encoded, C, sample_weight, n_threads)
        self.gold = np.asarray(gold)
        self.bounds = structure.output_offsets(encoded)
        n_examples, zero = encoded.n_sentences, np.zeros(structure.n_weights)
        self.theta, self.mu = [None] * n_examples, [None] * n_examples
        self.expected_loss = np.empty(n_examples)
        for i in range(n_examples):
            scores = structure.scores(encoded, i, zero)
            augmented = structure.augment(scores, self._gold(i))
            start = _starting_potentials(gold_potential(structure.n_choices(scores)))
            self.theta[i] = _parts(start, scores, augmented)
            self.mu[i], self.expected_loss[i] = self._marginals(i, self.theta[i])

    def _gold(self, i):
        return self.gold[self.bounds[i] : self.bounds[i + 1]]

    def _marginals(self, i, theta):
        mu = self.structure.marginals(theta)[1]
        return mu, self.structure.expected_loss(mu, self._gold(i))

    def gradient(self, i, coef):
        """``loss_r + w . phi_r`` of every part of example ``i`` (copies: the scores
        may be views of ``coef`` or of scratch arrays)."""
        scores = self.structure.scores(self.encoded, i, coef)
        return _parts(np.array, self.structure.augment(scores, self._gold(i)))

    def propose(self, i, gradient, eta):
        """The EG step ``theta_r += eta * gradient_r`` for example ``i``."""
        theta = _parts(lambda t, g: t + eta * g, self.theta[i], gradient)
        return Proposal(theta, *self._marginals(i, theta))

    def accept(self, i, proposal):
        self.theta[i], self.mu[i] = proposal.theta, proposal.mu
        self.expected_loss[i] = proposal.expected_loss

    def _expected_delta(self, i, mu, scale):
        keys, values = self.structure.expected_delta(self.encoded, i, self._gold(i), mu)
        return keys, scale * values

    def apply(self, i, proposal, coef):
        """``w += C_i * (E_alpha[phi] - E_proposal[phi])`` for example ``i``; returns the
        change of ``||w||^2``, the squared norm of the touched weights before and a
        function that undoes the change."""
        new_keys, new = self._expected_delta(i, proposal.mu, self.Ci[i])
        old_keys, old = self._expected_delta(i, self.mu[i], -self.Ci[i])
        keys, change = sparse_sum(np.concatenate([new_keys, old_keys]), np.concatenate([new, old]))
        (before,) = self.structure.values_at(keys, coef)
        self.structure.add_to(coef, keys, change)
        (after,) = self.structure.values_at(keys, coef)
        norm_before = float(before @ before)

        def undo():
            self.structure.add_to(coef, keys, -change)

        return float(after @ after) - norm_before, norm_before, undo

    def coef(self):
        """``w = sum_i C_i (phi(x_i, y_i) - E_{alpha_i}[phi])``, computed afresh."""
        coef = np.zeros(self.structure.n_weights)
        for i in range(self.expected_loss.size):
            self.structure.add_expected_delta(coef, self.encoded, i, self._gold(i), self.mu[i],
                                              self.Ci[i])  # fmt: skip
        return coef

    def hinge(self, coef):
        """``max_y (loss(y) + w . phi(y)) - w . phi(y_i)`` of every example, by the
        decoder's loss-augmented argmax."""
        out = np.empty(self.expected_loss.size)
        structure = self.structure
        for i in range(out.size):
            gold = self._gold(i)
            scores = structure.scores(self.encoded, i, coef)
            augmented = structure.augment(scores, gold)
            best = self.decoder.decode(structure, augmented)
            out[i] = structure.score(augmented, best) - structure.score(scores, gold)
        return out

    def snapshot(self):
        return list(self.theta), list(self.mu), self.expected_loss.copy()

    def restore(self, snapshot):
        theta, mu, expected_loss = snapshot
        self.theta[:], self.mu[:] = theta, mu
        self.expected_loss[...] = expected_loss


def _starting_potentials(potential):
    """``(scores, augmented) -> -potential * loss`` of each part (its augmented less its
    plain score), ``-inf`` where the part can occur in no output (its score is)."""

    def start(scores, augmented):
        with np.errstate(invalid="ignore"):  # -inf less -inf
            return np.where(np.isfinite(scores), -potential * (augmented - scores), scores)

    return start


def _parts(function, first, *others):
    """``first`` (a named tuple of part arrays) with ``function`` applied to each of its
    array fields and the matching fields of ``others``; other fields (sizes, None, the
    type's ``constants``: data such as candidate losses) kept."""
    constants = getattr(type(first), "constants", ())
    fields = [
        function(a, *(other[k] for other in others))
        if isinstance(a, np.ndarray) and name not in constants
        else a
        for k, (name, a) in enumerate(zip(first._fields, first))
    ]
    return type(first)(*fields)


class CompactDual(StructuredDual):
    """Batch EG's dual of a structure whose parts are never tabulated (a parse's
    anchored rules): one loss weight per example and one weight-shaped vector for all.

    Batch EG steps every example against the same ``w``: after steps ``eta_1 ..
    eta_t`` against ``w_1 .. w_t``, ``theta_{i,r} = a_i l_{i,r} + V . phi_{i,r}`` with
    ``a_i = eta_1 + ... + eta_t - P_i`` (``P_i`` the starting potential, as
    :class:`StructuredDual`'s) and ``V = eta_1 w_1 + ... + eta_t w_t``, the same for
    every example. So ``alpha_i`` is the distribution of the scores ``V . phi``
    augmented by ``a_i`` times the loss (``structure.augment(scores, gold,
    loss_weight=a_i)``), and a step is one pass of marginals over the corpus (as a CRF's
    gradient). Online EG, whose ``V`` would differ per example, has no such form.

    Equal to :class:`StructuredDual`'s batch steps on structures with part tables
    (tested), from the protocol alone: ``scores``, ``augment`` with a ``loss_weight``,
    ``marginals``, ``expected_loss`` and ``add_expected_delta``.
    """

    #: Online steps need per-example potentials, which this dual does not keep.
    online_steps = False

    def __init__(self, structure, decoder, encoded, gold, C, sample_weight=None, n_threads=1):
        _check_capabilities(structure)
        _set_up(self, structure, decoder, encoded, C, sample_weight, n_threads)
        self.gold = np.asarray(gold)
        self.bounds = structure.output_offsets(encoded)
        n_examples, zero = encoded.n_sentences, np.zeros(structure.n_weights)
        self.loss_weight = np.array([
            -gold_potential(structure.n_choices(structure.scores(encoded, i, zero)))
            for i in range(n_examples)
        ])  # fmt: skip
        self.potential = zero
        self.expected_loss = np.empty(n_examples)
        self._coef = self._marginal_pass()

    def _marginal_pass(self):
        """``w`` of the current dual, each example's expected loss kept on the way."""
        structure, encoded = self.structure, self.encoded
        coef = np.zeros(structure.n_weights)
        for i in range(self.expected_loss.size):
            gold = self._gold(i)
            scores = structure.scores(encoded, i, self.potential)
            augmented = structure.augment(scores, gold, loss_weight=self.loss_weight[i])
            mu = structure.marginals(augmented)[1]
            structure.add_expected_delta(coef, encoded, i, gold, mu, self.Ci[i])
            self.expected_loss[i] = structure.expected_loss(mu, gold)
        return coef

    def step_all(self, coef, step):
        """The batch EG step ``theta_{i,r} += step * (l_{i,r} + coef . phi_{i,r})`` of
        every example; returns the new ``w``."""
        self.loss_weight = self.loss_weight + step
        self.potential = self.potential + step * coef
        self._coef = self._marginal_pass()
        return self._coef.copy()

    def coef(self):
        """``w = sum_i C_i (phi(x_i, y_i) - E_{alpha_i}[phi])``."""
        return self._coef.copy()

    def snapshot(self):
        return self.loss_weight, self.potential, self.expected_loss.copy(), self._coef

    def restore(self, snapshot):
        self.loss_weight, self.potential, expected_loss, self._coef = snapshot
        self.expected_loss[...] = expected_loss


def _check_capabilities(structure):
    for capability in ("has_marginals", "has_expected_delta"):
        if not getattr(structure, capability):
            raise ValueError(
                f"The EG structured SVM needs {capability} of the structure, which "
                f"{type(structure).__name__} with these parameters lacks."
            )


class ChainDual(_EachExample):
    """Dual variables of a first-order :class:`~skstruct.structures.LinearChain`.

    ``phi`` has an emission coordinate for each (feature, label) pair of the chain's
    emission rows and for no other (the learner passes every pair), so
    ``w`` is the chain's weight vector ``[transition | start | stop | emission pool]``
    (pool slots no pair holds stay zero).
    """

    def __init__(self, structure, decoder, encoded, gold, C, sample_weight=None, n_threads=1):
        _set_up(self, structure, decoder, encoded, C, sample_weight, n_threads)
        self.gold = np.asarray(gold, dtype=np.int64)
        L, n_sentences = structure.n_labels, encoded.n_sentences
        self.theta_unary = np.zeros((encoded.n_tokens, L))
        self.theta_unary[np.arange(encoded.n_tokens), self.gold] = gold_potential(L)
        self.theta_pair = np.zeros((n_sentences, L, L))
        self.theta_start = np.zeros((n_sentences, L))
        self.theta_stop = np.zeros((n_sentences, L))
        self.mu_unary = np.empty_like(self.theta_unary)
        self.mu_pair = np.empty_like(self.theta_pair)
        self.expected_loss = np.empty(n_sentences)
        for i in range(n_sentences):
            lo, hi = self._bounds(i)
            self.expected_loss[i] = self._marginals(
                i, self._theta(i), self.mu_unary[lo:hi], self.mu_pair[i]
            )
        self._stamp = np.zeros(structure.n_features, dtype=np.int64)
        self._mark = 0
        # a step records the rows of its sentence's features: at most their summed lengths
        size = int(np.max(_row_slots_per_sentence(structure.rows, encoded), initial=0))
        self._slots = np.empty(size, dtype=np.int64)
        self._saved = np.empty(size)

    def _bounds(self, i):
        return int(self.encoded.offsets[i]), int(self.encoded.offsets[i + 1])

    def _theta(self, i):
        lo, hi = self._bounds(i)
        return self.theta_unary[lo:hi], self.theta_pair[i], self.theta_start[i], self.theta_stop[i]

    def _marginals(self, i, theta, mu_unary, mu_pair):
        """Fill ``mu_*`` from ``theta``; return the expected Hamming loss."""
        unary, pair, start, stop = theta
        n = unary.shape[0]
        forward_backward(unary, n, pair, start, stop, mu_unary, mu_pair)
        lo, hi = self._bounds(i)
        return n - float(mu_unary[np.arange(n), self.gold[lo:hi]].sum())

    def gradient(self, i, coef):
        """``loss_r + w . phi_r`` of every part of example ``i``: unary, pair, start, stop
        (the dual objective's gradient in ``theta``'s coordinates)."""
        lo, hi = self._bounds(i)
        _, transition, start, stop, _ = self.structure.split(coef)
        unary = self.structure.scores(self.encoded, i, coef).unary
        unary += 1.0  # Hamming loss of every label ...
        unary[np.arange(hi - lo), self.gold[lo:hi]] -= 1.0  # ... but the gold one
        return unary, transition.copy(), start.copy(), stop.copy()

    def propose(self, i, gradient, eta):
        """The EG step ``theta_r += eta * gradient_r`` for example ``i``."""
        theta = tuple(old + eta * g for old, g in zip(self._theta(i), gradient))
        unary, pair, first, last = theta
        _eg.normalize_rows(unary)
        pair -= pair.max()  # every output has n - 1 transitions: a shift changes nothing
        first -= first.max()
        last -= last.max()
        mu = (np.empty_like(unary), np.empty_like(pair))
        return Proposal(theta, mu, self._marginals(i, theta, *mu))

    def accept(self, i, proposal):
        lo, hi = self._bounds(i)
        for target, value in zip(self._theta(i), proposal.theta):
            target[...] = value
        self.mu_unary[lo:hi], self.mu_pair[i] = proposal.mu
        self.expected_loss[i] = proposal.expected_loss

    def apply(self, i, proposal, coef):
        """``w += C_i * (E_alpha[phi] - E_proposal[phi])`` for example ``i``; returns the
        change of ``||w||^2``, the squared norm of the touched weights before (the
        scale of its rounding error) and a function that undoes the change."""
        lo, hi = self._bounds(i)
        emission, transition, start, stop, _ = self.structure.split(coef)
        d_unary = proposal.mu[0] - self.mu_unary[lo:hi]
        self._mark += 1
        k = _eg.scatter_emissions(
            self.encoded.indptr, self.encoded.indices, self.encoded.data, lo, hi, d_unary,
            self.structure.rows.arrays, emission, -self.Ci[i], True, self._stamp, self._mark,
            self._slots, self._saved,
        )  # fmt: skip
        slots, saved = self._slots[:k].copy(), self._saved[:k].copy()
        dense = coef[: self.structure.n_dense]  # transition, start, stop: at the front
        saved_dense = dense.copy()
        transition -= self.Ci[i] * (proposal.mu[1] - self.mu_pair[i])
        start -= self.Ci[i] * d_unary[0]
        stop -= self.Ci[i] * d_unary[-1]
        before = _eg.squared_norm(saved) + _eg.squared_norm(saved_dense)
        change = _eg.squared_norm_at(emission, slots, k) + _eg.squared_norm(dense) - before

        def undo():
            emission[slots] = saved
            dense[...] = saved_dense

        return change, before, undo

    def coef(self):
        """``w = sum_i C_i (phi(x_i, y_i) - E_{alpha_i}[phi])``, computed afresh."""
        coef = np.zeros(self.structure.n_weights)
        emission, transition, start, stop, _ = self.structure.split(coef)
        offsets, n_tokens = self.encoded.offsets, self.encoded.n_tokens
        residual = -self.mu_unary
        residual[np.arange(n_tokens), self.gold] += 1.0
        firsts, lasts = offsets[:-1], offsets[1:] - 1
        if not self.weighted:  # C for every example: the sums as they always were
            scale, token_C, pair = self.C, self.C, self.C * self.mu_pair.sum(axis=0)
            ends = (self.C * residual[firsts].sum(axis=0), self.C * residual[lasts].sum(axis=0))
            across = -self.C
        else:
            token_C = np.repeat(self.Ci, np.diff(offsets))  # each token's example's C
            residual *= token_C[:, None]
            scale, pair = 1.0, np.tensordot(self.Ci, self.mu_pair, axes=1)
            ends = (residual[firsts].sum(axis=0), residual[lasts].sum(axis=0))
            across, token_C = -token_C[firsts[1:]], token_C[1:]
        _eg.scatter_emissions(
            self.encoded.indptr, self.encoded.indices, self.encoded.data, 0, n_tokens, residual,
            self.structure.rows.arrays, emission, scale, False, self._stamp, 0, self._slots,
            self._saved,
        )  # fmt: skip
        # the gold bigrams of consecutive tokens, less those across two sentences
        np.add.at(transition, (self.gold[:-1], self.gold[1:]), token_C)
        np.add.at(transition, (self.gold[lasts[:-1]], self.gold[firsts[1:]]), across)
        transition -= pair
        start += ends[0]
        stop += ends[1]
        return coef

    def hinge(self, coef):
        """``max_y (loss(y) + w . phi(y)) - w . phi(y_i)`` of every example (one
        sentence a thread; the same numbers whatever the thread count)."""
        out = np.empty(self.encoded.n_sentences)
        arrays = (self.encoded.indptr, self.encoded.indices, self.encoded.data,
                  self.encoded.offsets, self.structure.rows.arrays, coef,
                  self.structure.n_labels, self.gold)  # fmt: skip
        in_parts(lambda part: _eg_hinge.chain_hinges(*arrays, part, out), self.encoded.offsets,
                 self.n_threads)  # fmt: skip
        return out

    def snapshot(self):
        return tuple(a.copy() for a in self._state())

    def restore(self, snapshot):
        for target, value in zip(self._state(), snapshot):
            target[...] = value

    def _state(self):
        return (
            self.theta_unary, self.theta_pair, self.theta_start, self.theta_stop,
            self.mu_unary, self.mu_pair, self.expected_loss,
        )  # fmt: skip


class TreeDual(_EachExample):
    """Dual variables of a first-order, unlabelled
    :class:`~skstruct.structures.ArcFactoredTree`: one potential per possible arc."""

    def __init__(self, structure, decoder, encoded, gold, C, sample_weight=None, n_threads=1):
        _set_up(self, structure, decoder, encoded, C, sample_weight, n_threads)
        self.gold = np.asarray(gold, dtype=np.int64)
        self.attrs = encoded.attrs
        lengths = np.diff(encoded.offsets)
        self._blocks = np.zeros(lengths.size + 1, dtype=np.int64)
        np.cumsum((lengths + 1) ** 2, out=self._blocks[1:])
        self.theta = np.zeros(self._blocks[-1])
        self.mu = np.empty_like(self.theta)
        self.expected_loss = np.empty(lengths.size)
        self._marginal_kernel = inside_outside if decoder.projective else matrix_tree
        for i in range(lengths.size):
            n, gold = self._gold(i)
            theta = self._square(self.theta, i)
            theta[:, 0] = -np.inf
            np.fill_diagonal(theta, -np.inf)
            theta[gold, np.arange(1, n + 1)] = gold_potential(n)
            self.expected_loss[i] = self._marginals(i, theta, self._square(self.mu, i))
        longest = int(np.max(lengths, initial=1))
        self._buffer = _tree.scratch(longest, None)[3]
        self._scores = np.empty((longest + 1, longest + 1))
        self._stamp = np.zeros(structure.n_features, dtype=np.int64)
        self._mark = 0
        coarse = _tree.has_coarse(encoded.attrs)
        per_arc = _tree.arc_width(longest, coarse)  # features of the longest arc
        size = min((longest + 1) ** 2 * per_arc, structure.n_features)  # distinct ids
        self._ids = np.empty(size, dtype=np.int64)
        self._saved = np.empty(size)
        # an EG step hashes its sentence's arcs once; sentences too long for a cache of
        # CACHED_ARC_IDS ids are hashed again on every attempt instead
        cached = [m for m in range(longest + 1)
                  if (m + 1) ** 2 * _tree.arc_width(m, coarse) <= CACHED_ARC_IDS]  # fmt: skip
        self._cache_words = max(cached, default=0)
        N = self._cache_words + 1
        self._arc_ids = np.empty((N, N, _tree.arc_width(N, coarse)), dtype=np.int64)
        self._arc_counts = np.zeros((N, N), dtype=np.int64)
        self._ids_of = -1

    def _square(self, flat, i):
        N = int(self.encoded.offsets[i + 1] - self.encoded.offsets[i]) + 1
        return flat[self._blocks[i] : self._blocks[i + 1]].reshape(N, N)

    def _gold(self, i):
        lo, hi = int(self.encoded.offsets[i]), int(self.encoded.offsets[i + 1])
        return hi - lo, self.gold[lo:hi]

    def _marginals(self, i, theta, mu):
        n, gold = self._gold(i)
        self._marginal_kernel(theta, n, self.structure.single_root, mu)
        return n - float(mu[gold, np.arange(1, n + 1)].sum())

    def _arc_scores(self, i, coef):
        n, _ = self._gold(i)
        out = self._scores[: n + 1, : n + 1]
        start = self.encoded.offsets[i]
        _tree.arc_scores(self.attrs, start, n, coef, self.structure.n_features, out, self._buffer)
        return out

    def _loss(self, i):
        n, gold = self._gold(i)
        loss = np.ones((n + 1, n + 1))
        loss[gold, np.arange(1, n + 1)] = 0.0
        return loss

    def gradient(self, i, coef):
        """``loss_(h,d) + w . phi(h, d)`` of every arc of example ``i``; hashes the arcs'
        feature ids once for :meth:`apply` to reuse."""
        n, _ = self._gold(i)
        if n > self._cache_words:
            self._ids_of = -1
            return (self._arc_scores(i, coef) + self._loss(i),)
        _eg.arc_ids(self.attrs, self.encoded.offsets[i], n, self.structure.n_features,
                    self._arc_ids, self._arc_counts)  # fmt: skip
        self._ids_of = i
        scores = np.empty((n + 1, n + 1))
        _eg.arc_scores_at(coef, n, self._arc_ids, self._arc_counts, scores)
        return (scores + self._loss(i),)

    def propose(self, i, gradient, eta):
        """The EG step ``theta_(h,d) += eta * gradient_(h,d)``."""
        theta = self._square(self.theta, i) + eta * gradient[0]
        _eg.normalize_rows(theta.T)  # every word has one head: a column shift changes nothing
        mu = np.empty_like(theta)
        return Proposal((theta,), (mu,), self._marginals(i, theta, mu))

    def accept(self, i, proposal):
        self._square(self.theta, i)[...] = proposal.theta[0]
        self._square(self.mu, i)[...] = proposal.mu[0]
        self.expected_loss[i] = proposal.expected_loss

    def apply(self, i, proposal, coef):
        """As :meth:`ChainDual.apply`; reuses the ids hashed by :meth:`gradient`."""
        n, _ = self._gold(i)
        d_mu = proposal.mu[0] - self._square(self.mu, i)
        self._mark += 1
        if self._ids_of == i:
            k = _eg.scatter_arc_ids(coef, n, self._arc_ids, self._arc_counts, d_mu,
                                    -self.Ci[i], self._stamp, self._mark, self._ids,
                                    self._saved)  # fmt: skip
        else:
            k = _eg.scatter_arcs(
                self.attrs, self.encoded.offsets[i], n, d_mu, coef, self.structure.n_features,
                -self.Ci[i], self._buffer, True, self._stamp, self._mark, self._ids,
                self._saved,
            )  # fmt: skip
        ids, saved = self._ids[:k].copy(), self._saved[:k].copy()

        def undo():
            coef[ids] = saved

        before = _eg.squared_norm(saved)
        return _eg.squared_norm_at(coef, ids, k) - before, before, undo

    def coef(self):
        """As :meth:`ChainDual.coef`."""
        coef = np.zeros(self.structure.n_weights)
        for i in range(self.expected_loss.size):
            n, gold = self._gold(i)
            residual = -self._square(self.mu, i)
            residual[gold, np.arange(1, n + 1)] += 1.0
            _eg.scatter_arcs(
                self.attrs, self.encoded.offsets[i], n, residual, coef,
                self.structure.n_features, self.Ci[i], self._buffer, False, self._stamp, 0,
                self._ids, self._saved,
            )  # fmt: skip
        return coef

    def hinge(self, coef):
        """As :meth:`ChainDual.hinge`, by loss-augmented Eisner or Chu-Liu-Edmonds."""
        out = np.empty(self.expected_loss.size)
        arrays = (self.attrs, self.encoded.offsets, coef, self.structure.n_features, self.gold,
                  self.decoder.projective, self.structure.single_root)  # fmt: skip
        in_parts(lambda part: _eg_hinge.tree_hinges(*arrays, part, out), self.encoded.offsets,
                 self.n_threads, power=3)  # fmt: skip
        return out

    def snapshot(self):
        return self.theta.copy(), self.mu.copy(), self.expected_loss.copy()

    def restore(self, snapshot):
        for target, value in zip((self.theta, self.mu, self.expected_loss), snapshot):
            target[...] = value


def _set_up(dual, structure, decoder, encoded, C, sample_weight, n_threads):
    """What every dual keeps: its problem, each example's ``C_i``, their sum and the
    threads of its hinge pass."""
    dual.structure, dual.decoder, dual.encoded, dual.C = structure, decoder, encoded, C
    dual.n_threads = n_threads
    dual.Ci = example_C(C, sample_weight, encoded.n_sentences)
    dual.weighted = sample_weight is not None
    dual.total_C = total_C(C, dual.Ci, dual.weighted)


def example_C(C, sample_weight, n_examples):
    """Each example's ``C``: ``C`` times its sample weight (``C`` for all without)."""
    if sample_weight is None:
        return np.full(n_examples, float(C))
    return C * np.asarray(sample_weight, dtype=np.float64)


def total_C(C, Ci, weighted):
    """``sum_i C_i``, summed as ``eg.weighted_sum`` sums (``C * n`` without sample
    weights): the scale of the online step's rounding-noise floor."""
    ones = np.ones(Ci.size)
    return float(Ci @ ones) if weighted else C * float(ones.sum())


def _row_slots_per_sentence(rows, encoded):
    """Per sentence, the summed row lengths of its tokens' features (each occurrence
    counted): the most pool slots a step on it can record."""
    per_entry = np.zeros(encoded.indices.size + 1, dtype=np.int64)
    np.cumsum(rows.length[encoded.indices], out=per_entry[1:])
    bounds = per_entry[encoded.indptr[encoded.offsets]]
    return np.diff(bounds)


#: Duals with kernels of their own for a structure, tested equal to
#: :class:`StructuredDual` (which any other structure with marginals gets).
FAST_DUALS = {LinearChain: ChainDual, ArcFactoredTree: TreeDual}


def dual_for(structure):
    """The dual class EG uses for ``structure``: its fast path, the generic one, or
    for a structure without part tables the compact one (batch EG only)."""
    if not structure.has_part_tables:
        return CompactDual
    return FAST_DUALS.get(type(structure), StructuredDual)


def online_step(dual, i, coef, rate, adaptive, ceiling=np.inf):
    """One EG step on example ``i``, updating ``coef`` in place.

    Returns the rate for this example's next step (adaptive: grown after a step taken
    at once, halved as often as the step was; the old one when every halving was
    rejected and the example left alone) and the number of halvings.
    """
    step, gradient = rate, dual.gradient(i, coef)
    for halvings in range(MAX_HALVINGS + 1):
        proposal = dual.propose(i, gradient, step)
        change, scale, undo = dual.apply(i, proposal, coef)
        gain = dual.Ci[i] * (proposal.expected_loss - dual.expected_loss[i]) - 0.5 * change
        # at a block's optimum the gain is rounding noise: rejecting it would shrink
        # the rate to nothing for the rest of training
        noise = 1e-12 * (scale + dual.total_C + 1.0)
        if not adaptive or gain >= -noise:
            dual.accept(i, proposal)
            return _next_rate(step, halvings, adaptive, ceiling), halvings
        undo()
        step /= 2.0
    return rate, MAX_HALVINGS + 1


def _next_rate(step, halvings, adaptive, ceiling):
    return min(step * GROWTH, ceiling) if adaptive and halvings == 0 else step


def online_epoch(dual, coef, order, rates, adaptive, ceiling):
    """Online EG over the examples in ``order`` (all, in turn, when None); each
    example's rate in ``rates`` is updated in place."""
    order = range(rates.size) if order is None else order
    used, rejected, skipped = [], 0, 0
    for i in order:
        rates[i], halvings = online_step(dual, i, coef, rates[i], adaptive, ceiling)
        rejected += halvings
        if halvings > MAX_HALVINGS:
            skipped += 1
        else:
            used.append(rates[i])
    return {"mean_rate": float(np.mean(used)) if used else None,
            "rejected": rejected, "skipped": skipped}  # fmt: skip


def batch_step(dual, coef, rate, adaptive, ceiling=np.inf):
    """One batch EG iteration: every example steps against the same ``w``; returns
    the new ``w``, the rate for the next iteration (as in :func:`online_step`) and
    counts."""
    before, step = dual_objective(dual, coef), rate
    snapshot = dual.snapshot() if adaptive else None
    for halvings in range(MAX_HALVINGS + 1):
        new_coef = dual.step_all(coef, step)
        if not adaptive or dual_objective(dual, new_coef) >= before:
            counts = {"mean_rate": step, "rejected": halvings, "skipped": 0}
            return new_coef, _next_rate(step, halvings, adaptive, ceiling), counts
        dual.restore(snapshot)
        step /= 2.0
    counts = {"mean_rate": None, "rejected": halvings + 1, "skipped": dual.expected_loss.size}
    return coef, rate, counts


def weighted_sum(dual, values):
    """``sum_i C_i values_i`` (``C * sum(values)`` without sample weights, as ever)."""
    if dual.weighted:
        return float(dual.Ci @ values)
    return dual.C * float(values.sum())


def dual_objective(dual, coef):
    return weighted_sum(dual, dual.expected_loss) - 0.5 * float(coef @ coef)


def objectives(dual, coef):
    """Primal, dual and gap at ``w = coef`` (which must be the dual's ``w``)."""
    hinge = dual.hinge(coef)
    primal = 0.5 * float(coef @ coef) + weighted_sum(dual, hinge)
    value = dual_objective(dual, coef)
    return {"primal": primal, "dual": value, "gap": primal - value}
