"""ArcFactoredTree: the output space of dependency parsing (heads, labels) and its weights."""

from typing import NamedTuple

import numpy as np

from .._kernels import delta as _delta
from .._kernels import eg as _eg
from .._kernels import tree as _tree
from .._kernels.tree_marginals import inside_outside, matrix_tree
from ..utils.arrays import sparse_sum
from ._base import Structure
from ._fixed import FixedLayout


class ArcFactoredTree(FixedLayout, Structure):
    """Dependency trees scored by hashed arc features, plus sibling features at order 2,
    grandparent features with ``grandparents`` and arc-label features for labelled
    parsing.

    The weights are one flat vector of ``n_features`` hashed feature weights (see
    :mod:`skstruct._kernels.tree`). A word's output is one integer: its head (0 the
    root) or, with ``n_labels`` relation labels, ``head * n_labels + label``.

    Parameters
    ----------
    n_features : int
    order : {1, 2}
        1: arc-factored (McDonald et al. 2005); 2: arcs plus adjacent siblings
        (McDonald & Pereira 2006).
    single_root : bool
        Exactly one word attached to the root.
    n_labels : int, default=0
        Relation labels (0: unlabelled). Labels are scored per arc, so the best
        labelled tree is the best tree under ``arc + max_label`` scores: still exact.
    projective : bool, default=True
        The outputs are the projective trees (Eisner's), or all trees (Chu-Liu-Edmonds'):
        what :meth:`marginals` sums over.
    grandparents : bool, default=False
        Order 2 only: grandparent parts ``(g, h, d)`` beside the siblings (Koo & Collins
        2010), each scored by hashed features of the three words.
    """

    #: Saved models of earlier versions had no ``projective``: their decoders are Eisner.
    projective = True
    #: Nor ``grandparents``: they had none.
    grandparents = False

    def __init__(self, n_features, order=1, single_root=True, n_labels=0, projective=True,
                 grandparents=False):  # fmt: skip
        self.n_features = n_features
        self.order = order
        self.single_root = single_root
        self.n_labels = n_labels
        self.projective = projective
        self.grandparents = grandparents

    @property
    def siblings(self):
        """What the decoding kernels take for second-order parts: True at order 2,
        None at order 1 (numba then compiles no sibling code)."""
        return True if self.order == 2 else None

    @property
    def grandparent_parts(self):
        """What the decoding kernels take for grandparent parts: True with them, None
        without (numba then compiles no grandparent code)."""
        return True if self.grandparents else None

    @property
    def label_count(self):
        """What the decoding kernels take for the relation labels: their number, or
        None for an unlabelled parser (numba then compiles no label code)."""
        return self.n_labels or None

    @property
    def n_weights(self):
        return self.n_features

    def encode(self, heads, labels=None):
        """Output ids (int32) from heads and label ids."""
        heads = np.asarray(heads, dtype=np.int64)
        if self.n_labels:
            heads = heads * self.n_labels + np.asarray(labels, dtype=np.int64)
        return heads.astype(np.int32)

    def split_outputs(self, outputs):
        """``(heads, label ids)`` (int64) of output ids; label ids are 0 when unlabelled."""
        outputs = np.asarray(outputs, dtype=np.int64)
        if not self.n_labels:
            return outputs, np.zeros_like(outputs)
        return outputs // self.n_labels, outputs % self.n_labels

    def scores(self, encoded, i, coef):
        """The part scores of sentence ``i``: a :class:`TreeScores` (no root penalty)."""
        start, n = encoded.offsets[i], int(encoded.offsets[i + 1] - encoded.offsets[i])
        attrs, (arc, sib, _, buffer, states, _) = encoded.attrs, _tree.scratch(n, self.siblings)
        _tree.arc_scores(attrs, start, n, coef, self.n_features, arc, buffer)
        if self.order == 2:
            _tree.sibling_scores(attrs, start, n, coef, self.n_features, sib)
        grand = np.zeros((1, 1, 1))
        if self.grandparents:
            # the parts of projective trees only (a third fewer, and all that decoding
            # reads); score() fills the others (NaN until then) for the head vectors that
            # have them
            grand = np.full((n + 1, n + 1, n + 1), np.nan)
            _tree.grandparent_scores(attrs, start, n, coef, self.n_features, grand, states, False)
        lab = np.zeros((1, 1, 1))
        if self.n_labels:
            lab = np.zeros((n + 1, n + 1, self.n_labels))
            _tree.label_score_tensor(
                attrs, start, n, coef, self.n_features, self.n_labels, lab, states
            )
        return TreeScores(arc, sib, lab, n, grand, (attrs, start, coef))

    def arc_matrix(self, scores):
        """What a first-order tree search maximises: ``(arc, labels)``, the arc scores
        plus each arc's best label score (with the single-root penalty when required)
        and that label's id per arc (the first best, as the kernels take it)."""
        arc, n = scores.arc.copy(), scores.n
        labels = np.zeros((n + 1, n + 1), dtype=np.int64)
        if self.n_labels:
            labels = scores.lab.argmax(axis=2)
            arc += scores.lab.max(axis=2)
        # the grandparent search keeps one root child itself (as in the kernels' decode)
        if self.single_root and not self.grandparents:
            bound = _tree.largest_sibling_score(scores.sib, n) if self.order == 2 else 0.0
            _tree.single_root_penalty(arc, n, bound)
        return arc, labels

    def labelled(self, heads, labels):
        """Output ids (int32 (n,)) of a head vector (slot 0 the root's) with the arcs'
        label ids from :meth:`arc_matrix`."""
        words = np.arange(1, heads.shape[0])
        return self.encode(heads[1:], labels[heads[1:], words])

    def margin(self, scores, gold, mixed, a=None, b=None):
        """``w . phi(gold) - w . phi(mixed)`` for output vectors ``gold`` and ``mixed``.

        ``mixed`` need not be a tree: every word's arc and label, and the sibling and
        grandparent parts read off the head vector, are scored as they are.
        """
        return self.score(scores, gold) - self.score(scores, mixed)

    def score(self, scores, outputs):
        """``w . phi(outputs)`` under the part ``scores`` (any output vector, tree or not)."""
        heads, labels = self._full(outputs)
        grand = np.zeros((1, 1, 1))
        if self.grandparents:
            grand = scores.grand
            if scores.source is not None:  # else every cell is given
                attrs, start, coef = scores.source
                states = np.empty(_tree.N_LABEL_TEMPLATES, dtype=np.uint64)
                _tree.fill_grandparent_parts(attrs, start, scores.n, coef, self.n_features,
                                             grand, heads, states)  # fmt: skip
        return _tree.head_vector_score(
            scores.arc, scores.sib, grand, scores.lab, heads, labels, scores.n, self.order,
            self.grandparent_parts, self.n_labels,
        )  # fmt: skip

    @property
    def has_marginals(self):
        """Exact marginals for first-order trees: inside-outside over projective trees,
        the matrix-tree theorem over all trees (labels sum out arc by arc)."""
        return self.order == 1

    def marginals(self, scores):
        """``(log Z, mu)`` over the trees (projective or all, single-rooted or not, as
        the structure says) and, when labelled, their labels: ``mu`` a
        :class:`TreeScores` of arc probabilities ``arc[h, d]`` and labelled-arc
        probabilities ``lab[h, d, label]`` (``sib`` zeros).

        A labelled tree scores ``sum arc[h, d] + lab[h, d, label]``, so the labels of an
        arc sum out into its potential (``logsumexp`` over them) and share its
        probability in proportion to ``exp(lab)``."""
        if not self.has_marginals:
            super().marginals(scores)
        n = scores.n
        theta = scores.arc[: n + 1, : n + 1].copy()
        if self.n_labels:
            lab = scores.lab[: n + 1, : n + 1]
            top = lab.max(axis=2, keepdims=True)
            top[~np.isfinite(top)] = 0.0
            with np.errstate(divide="ignore"):  # an arc whose labels all score -inf
                theta += np.log(np.exp(lab - top).sum(axis=2)) + top[:, :, 0]
        mu = np.zeros((n + 1, n + 1))
        kernel = inside_outside if self.projective else matrix_tree
        log_z = kernel(theta, n, self.single_root, mu)
        label_mu = np.zeros((1, 1, 1))
        if self.n_labels:
            share = np.exp(lab - top)
            share /= np.maximum(share.sum(axis=2, keepdims=True), np.finfo(float).tiny)
            label_mu = mu[:, :, None] * share
        return log_z, TreeScores(mu, np.zeros_like(scores.sib), label_mu, n)

    def n_choices(self, scores):
        """The heads a word can take (the root or another word), times its labels."""
        return scores.n * max(self.n_labels, 1)

    @property
    def has_expected_delta(self):
        """Expected feature vectors of first-order unlabelled trees."""
        return self.order == 1 and not self.n_labels

    def expected_loss(self, mu, gold):
        """The Hamming loss of word outputs against ``gold`` expected under ``mu``."""
        heads, labels = self.split_outputs(gold)
        words = np.arange(1, heads.shape[0] + 1)
        if self.n_labels:
            return float(words.size - mu.lab[heads, words, labels].sum())
        return float(words.size - mu.arc[heads, words].sum())

    def expected_delta(self, encoded, i, gold, mu):
        """``phi(x_i, gold) - E_mu[phi(x_i, y)]`` as ``(keys, values)``: every possible
        arc's features weighted by ``1[gold arc] - mu`` (first order, unlabelled)."""
        residual = self._residual(encoded, i, gold, mu)
        start, n = encoded.offsets[i], residual.shape[0] - 1
        width = _tree.arc_width(n, _tree.has_coarse(encoded.attrs))
        ids = np.empty((n + 1, n + 1, width), dtype=np.int64)
        counts = np.zeros((n + 1, n + 1), dtype=np.int64)
        _eg.arc_ids(encoded.attrs, start, n, self.n_features, ids, counts)
        # arcs share hashed features: summed in the order add_expected_delta adds them
        # (arc by arc, feature by feature), so both give the same sums bit for bit
        take = (np.arange(width) < counts[:, :, None]) & (residual != 0.0)[:, :, None]
        return sparse_sum(ids[take], np.broadcast_to(residual[:, :, None], ids.shape)[take])

    def add_expected_delta(self, array, encoded, i, gold, mu, scale):
        """``array += scale * expected_delta(...)``, scattered arc by arc (no sparse
        vector of the whole hashed space in between)."""
        self._scatter_arcs(array, encoded, i, self._residual(encoded, i, gold, mu), scale)

    def _residual(self, encoded, i, gold, mu):
        """``1[gold arc] - mu`` over the arcs ``(h, d)`` of sentence ``i``."""
        if not self.has_expected_delta:
            super().expected_delta(encoded, i, gold, mu)
        n = int(encoded.offsets[i + 1] - encoded.offsets[i])
        residual = -mu.arc[: n + 1, : n + 1]
        residual[self.split_outputs(gold)[0], np.arange(1, n + 1)] += 1.0
        return residual

    def _scatter_arcs(self, array, encoded, i, weights, scale):
        """``array[phi(h, d)] += scale * weights[h, d]`` for every possible arc of
        sentence ``i``."""
        start, n = encoded.offsets[i], int(encoded.offsets[i + 1] - encoded.offsets[i])
        width = _tree.arc_width(n, _tree.has_coarse(encoded.attrs))
        unused = np.zeros(1, dtype=np.int64)
        _eg.scatter_arcs(encoded.attrs, start, n, weights, array, self.n_features, float(scale),
                         np.empty(width, dtype=np.int64), False, unused, 0, unused,
                         np.zeros(1))  # fmt: skip

    def active_weights(self, encoded, outputs=None):
        """The hashed features of every possible arc of the sentences (the gold trees'
        arcs among them): all that a first-order unlabelled likelihood reads (None for
        other trees: all weights)."""
        if not self.has_expected_delta:
            return None
        # every arc counted once per feature: all positive, so no sum cancels to zero
        counts = np.zeros(self.n_features)
        for i in range(encoded.n_sentences):
            n = int(encoded.offsets[i + 1] - encoded.offsets[i])
            self._scatter_arcs(counts, encoded, i, np.ones((n + 1, n + 1)), 1.0)
        return np.flatnonzero(counts)

    def path_score(self, scores, outputs):
        """:meth:`score`, by the name chains give it."""
        return self.score(scores, outputs)

    def _full(self, outputs):
        """Head and label vectors with the root's slot 0 in front (the kernels' layout)."""
        heads, labels = self.split_outputs(outputs)
        return np.concatenate(([-1], heads)), np.concatenate(([0], labels))

    def augment(self, scores, gold, loss_weight=1.0):
        """``scores`` (a new :class:`TreeScores`) plus ``loss_weight`` times the Hamming
        loss of word outputs against ``gold`` (output ids): 1 for every arc (labelled:
        every arc and label) but each word's gold one, so that the best tree is the
        loss-augmented one."""
        n = scores.n
        heads, labels = self.split_outputs(gold)
        words = np.arange(1, n + 1)
        if not self.n_labels:
            arc = scores.arc + loss_weight
            arc[heads, words] -= loss_weight
            return scores._replace(arc=arc)
        lab = scores.lab + loss_weight
        lab[heads, words, labels] -= loss_weight
        return scores._replace(lab=lab)

    def delta(self, encoded, i, gold, pred):
        """``phi(x_i, gold) - phi(x_i, pred)`` as a sparse vector ``(keys, values)``
        over the hashed features (keys ascending and distinct, values nonzero; a
        feature hashed more than once summed), for output ids ``gold`` and ``pred``."""
        start, n = encoded.offsets[i], int(encoded.offsets[i + 1] - encoded.offsets[i])
        (gold_heads, gold_labels), (heads, labels) = self._full(gold), self._full(pred)
        return _delta.tree_delta(
            encoded.attrs, start, n, gold_heads, gold_labels, heads, labels, self.n_features,
            self.order, self.grandparent_parts, self.n_labels,
        )  # fmt: skip

    def add_delta(self, encoded, i, gold, pred, coef, scale):
        """``coef += scale * (phi(x_i, gold) - phi(x_i, pred))``, for any output vectors."""
        start, n = encoded.offsets[i], int(encoded.offsets[i + 1] - encoded.offsets[i])
        attrs = encoded.attrs
        width = _tree.arc_width(n, _tree.has_coarse(attrs)) + _tree.N_SIBLING_TEMPLATES + 1
        width += _tree.N_GRANDPARENT_TEMPLATES
        buffer = np.empty(width, np.int64)
        states = np.empty(_tree.N_LABEL_TEMPLATES, dtype=np.uint64)
        for outputs, sign in ((gold, 1.0), (pred, -1.0)):
            heads, labels = self._full(outputs)
            _tree.add_tree_features(
                attrs, start, n, heads, labels, coef, self.n_features, self.siblings,
                self.grandparent_parts, self.label_count, sign * scale, buffer, states,
            )  # fmt: skip


class TreeScores(NamedTuple):
    """Part scores of one sentence: ``arc[h, d]``, ``sib[h, s, d]`` (order 2),
    ``lab[h, d, label]`` (labelled), ``n`` words, ``grand[g, h, d]`` (with grandparents;
    None or a dummy without: NaN in the cells no projective tree has until a head vector
    with that part is scored), and ``source``, ``(attrs, start, coef)``: the sentence's
    rows and the weights the scores were made with, which score such a part (read before
    the weights change: an update comes after the scores of its sentence are used);
    None where ``grand`` has every cell."""

    arc: np.ndarray
    sib: np.ndarray
    lab: np.ndarray
    n: int
    grand: np.ndarray | None = None
    source: tuple | None = None
