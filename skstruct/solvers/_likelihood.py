"""The conditional log-likelihood of a CRF: written once for any structure with
marginals, with fused kernels for first-order chains.

``NLL(w) = sum_i s_i (log Z(x_i) - w . phi(x_i, y_i))`` and its gradient ``sum_i s_i
(E_{p(.|x_i)}[phi] - phi(x_i, y_i))`` (``s_i`` the sample weights) come from the
structure protocol alone: ``marginals`` gives ``log Z`` and the part marginals,
``expected_delta`` the gradient's sparse terms. A chain CRF trains through the fused
forward-backward kernels of :class:`ChainLikelihood` (registered in
:data:`FAST_LIKELIHOODS`), tested equal to this; a structure without such kernels (a
first-order tree: inside-outside or the matrix-tree theorem; candidate sets) trains
through this one.
"""

from itertools import pairwise

import numpy as np

from .._kernels import crf as _crf
from ..structures import LinearChain
from ..utils.parts import on_threads

#: Chunks the corpus is cut into for the likelihood's gradient: fixed, so that the
#: sums, and the model, are the same on any number of threads.
N_CHUNKS = 16
#: The same for :class:`StructuredLikelihood`, whose chunks each hold a gradient in the
#: structure's whole layout (32 MB each for hashed trees): two, where four made one
#: thread's fit of 500 PTB trees 20 % slower than one gradient did.
GENERIC_CHUNKS = 2


def chunk_starts(offsets, max_chunks):
    """Where runs of examples of about equal outputs start (``offsets``: each example's
    first output, and the total; at most ``max_chunks`` runs, one per example at most),
    then the number of examples: the likelihoods' fixed cuts of a corpus.

    Examples
    --------
    >>> chunk_starts(np.array([0, 5, 6, 7, 12]), 2).tolist()
    [0, 2, 4]
    """
    n_examples = offsets.size - 1
    n_chunks = max(1, min(max_chunks, n_examples))
    cuts = np.searchsorted(offsets, np.linspace(0, offsets[-1], n_chunks + 1)[1:-1])
    return np.concatenate([[0], cuts, [n_examples]]).astype(np.int64)


class StructuredLikelihood:
    """``NLL(w) + c2 ||w||^2`` and its gradient over an encoded corpus, for any
    structure with ``has_marginals`` and ``has_expected_delta`` (the call signature of
    :class:`ChainLikelihood`).

    Parameters
    ----------
    structure : Structure
    encoded : encoded corpus
    outputs : ndarray
        Gold output ids, example ``i`` at ``structure.output_offsets(encoded)[i:i + 2]``.
    c2 : float
        L2 penalty (CRFsuite's scaling: ``c2 ||w||^2``).
    n_threads : int, default=1
        Threads the examples' terms are summed on: the corpus is cut into
        :data:`GENERIC_CHUNKS` runs, each summed on its own and the runs added in
        order, so the sums are the same on any number of threads.
    weights : ndarray of shape (n_examples,) or None
        Sample weights (None: ones).
    active : ndarray of int or None
        The weights the corpus touches (``structure.active_weights(encoded, outputs)``):
        then the objective is a function of those weights alone (less ``fixed``), in
        that order, the others held at zero (their gradient is zero everywhere), and
        :meth:`full` puts such a vector back in the structure's layout. None: all
        weights.

    Notes
    -----
    A hashed space has millions of weights (2^22 for trees and constituents), of which
    a corpus may touch a fraction (4 % for 500 short treebank trees under CKY, 23 % for
    100 PTB trees): L-BFGS's vector algebra over the whole space took 90 % of a tree
    CRF's fit on 90 short sentences, and each of its correction vectors takes 8 MB per
    million weights. Optimising the touched weights alone gives the same iterates (the
    others' steps are all zero) in less time and room.
    """

    def __init__(self, structure, encoded, outputs, c2, n_threads=1, fixed=None, empirical=None,
                 weights=None, active=None):  # fmt: skip
        for capability in ("has_marginals", "has_expected_delta"):
            if not getattr(structure, capability):
                raise ValueError(
                    f"{type(structure).__name__} with these parameters cannot be trained "
                    f"by likelihood ({capability} is False)."
                )
        self.structure, self.encoded, self.outputs, self.c2 = structure, encoded, outputs, c2
        self.fixed = fixed
        n = encoded.n_sentences
        self.weights = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
        self.bounds = structure.output_offsets(encoded)
        self.n_threads = max(1, int(n_threads))
        # examples cut into runs of about equal outputs, each summed into a gradient of
        # its own and the runs added in order
        starts = chunk_starts(self.bounds, GENERIC_CHUNKS)
        self.chunks = [np.arange(a, b) for a, b in pairwise(starts.tolist())]
        self.active = active
        if active is not None:
            self.free = active if fixed is None else active[~fixed[active]]
            # the full-layout weights and gradients, reused: only ``active`` is ever
            # written, so resetting it clears them
            self._coef = np.zeros(structure.n_weights)
            self._grads = np.zeros((len(self.chunks), structure.n_weights))
            self._few_active = 4 * active.size < structure.n_weights

    @property
    def n_variables(self):
        """The length of the vectors the objective takes."""
        return self.structure.n_weights if self.active is None else self.free.size

    def full(self, x):
        """``x`` (of :attr:`n_variables`) in the structure's weight layout."""
        if self.active is None:
            return x
        coef = np.zeros(self.structure.n_weights)
        coef[self.free] = x
        return coef

    def __call__(self, x):
        if self.active is None:
            coef, grads = x, np.zeros((len(self.chunks), x.size))
        else:
            coef, grads = self._coef, self._grads
            coef[self.free] = x
            if self._few_active:
                grads[:, self.active] = 0.0
            else:  # a memset is faster than scattered writes to most of the layout
                grads.fill(0.0)
        losses = np.zeros(len(self.chunks))

        def sum_chunks(chunk_ids):
            for c in chunk_ids:
                losses[c] = self._add_chunk(self.chunks[c], coef, grads[c])

        ids = np.arange(len(self.chunks))
        on_threads(sum_chunks, np.array_split(ids, min(self.n_threads, ids.size)))
        loss = float(losses.sum()) + self.c2 * float(x @ x)
        if self.active is not None:
            if self._few_active:  # the same sums: the touched columns gathered first
                touched = grads[:, self.free].sum(axis=0)
            else:
                touched = grads.sum(axis=0)[self.free]
            return loss, touched + 2.0 * self.c2 * x
        grad = grads.sum(axis=0) + 2.0 * self.c2 * x
        if self.fixed is not None:
            grad[self.fixed] = 0.0
        return loss, grad

    def _add_chunk(self, examples, coef, grad):
        """Add the gradient terms of ``examples`` to ``grad``; returns their loss."""
        structure, encoded, loss = self.structure, self.encoded, 0.0
        for i in examples:
            gold = self.outputs[self.bounds[i] : self.bounds[i + 1]]
            scores = structure.scores(encoded, i, coef)
            log_z, mu = structure.marginals(scores)
            loss += self.weights[i] * (log_z - structure.score(scores, gold))
            structure.add_expected_delta(grad, encoded, i, gold, mu, -self.weights[i])
        return loss


def gold_counts(structure, encoded, labels, weights=None):
    """``Phi = sum_i w_i phi(x_i, y_i)`` in ``structure``'s weight layout (``w_i`` the
    sample weights, 1 without)."""
    counts = np.zeros(structure.n_weights)
    weights = np.ones(encoded.n_sentences) if weights is None else weights
    _crf.empirical_counts(encoded.indptr, encoded.indices, encoded.data, encoded.offsets,
                          labels, structure.rows.arrays, structure.n_labels, weights,
                          counts)  # fmt: skip
    return counts


class ChainLikelihood:
    """The CRF objective over an encoded corpus: ``NLL(w) + c2 ||w||^2`` (CRFsuite's
    scaling of the L2 term) and its gradient, as :func:`~skstruct.solvers.minimize_lbfgs`
    (or ``scipy.optimize.minimize`` with ``jac=True``) takes them.

    ``NLL(w) = sum_i w_i log Z(x_i) - w . Phi`` (``w_i`` the sentences' sample weights,
    ``weights``; 1 without): the gold counts ``Phi`` are counted once,
    here; each call runs forward-backward over the sentences, cut into
    :data:`N_CHUNKS` runs of about equal tokens, each run summed on a thread of its own
    and the runs added in order (``empirical``: ``Phi`` when the caller has it). The
    weights ``fixed`` (a bool mask, or None) get a zero
    gradient: started at zero, L-BFGS and OWL-QN never move them, so they act as weights
    the model does not have.
    """

    def __init__(self, structure, encoded, labels, c2, n_threads, fixed=None, empirical=None,
                 weights=None):  # fmt: skip
        self.structure, self.encoded = structure, encoded
        self.c2, self.n_threads, self.fixed = c2, n_threads, fixed
        # the sentences' sample weights (ones: every sum as unweighted)
        self.weights = np.ones(encoded.n_sentences) if weights is None else weights
        self.chunk_start = chunk_starts(encoded.offsets, N_CHUNKS)
        if empirical is None:
            empirical = gold_counts(structure, encoded, labels, self.weights)
        self.empirical = empirical
        n_chunks = self.chunk_start.size - 1
        self.log_z = np.empty(n_chunks)
        self.grads = np.empty((n_chunks, structure.n_weights))

    @property
    def n_variables(self):
        """The length of the vectors the objective takes: every weight of the chain."""
        return self.structure.n_weights

    def full(self, x):
        """``x`` in the structure's weight layout: ``x`` itself."""
        return x

    @staticmethod
    def handles(structure):
        """Whether the fused kernels compute this chain's likelihood: first order."""
        return structure.order == 1

    def __call__(self, coef):
        e = self.encoded
        arrays = (e.indptr, e.indices, e.data, e.offsets, self.structure.rows.arrays, coef,
                  self.structure.n_labels, self.chunk_start)  # fmt: skip

        def expectations(chunks):
            _crf.chunk_expectations(*arrays, chunks, self.weights, self.log_z, self.grads)

        chunks = np.arange(self.chunk_start.size - 1, dtype=np.int64)
        on_threads(expectations, np.array_split(chunks, min(self.n_threads, chunks.size)))
        loss = self.log_z.sum() - coef @ self.empirical + self.c2 * (coef @ coef)
        grad = self.grads.sum(axis=0)
        grad -= self.empirical
        grad += 2.0 * self.c2 * coef
        if self.fixed is not None:
            grad[self.fixed] = 0.0  # weights CRFsuite's model lacks stay at zero
        return loss, grad


#: Likelihoods with kernels of their own for a structure, tested equal to
#: :class:`StructuredLikelihood` (which any other structure with marginals gets).
FAST_LIKELIHOODS = {LinearChain: ChainLikelihood}


def likelihood(structure, encoded, outputs, *args, **kwargs):
    """The CRF objective for ``structure`` (arguments as :class:`StructuredLikelihood`
    takes them, but ``active``: the structure's :meth:`active_weights` where it names
    some): its fast path where one is registered, else the generic one."""
    fast = FAST_LIKELIHOODS.get(type(structure))
    if fast is not None and fast.handles(structure):
        return fast(structure, encoded, outputs, *args, **kwargs)
    active = structure.active_weights(encoded, outputs)
    return StructuredLikelihood(structure, encoded, outputs, *args, active=active, **kwargs)
