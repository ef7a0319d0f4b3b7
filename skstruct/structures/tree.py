"""ArcFactoredTree: the output space of dependency parsing (heads) and its weights."""

from typing import NamedTuple

import numpy as np

from .._kernels import tree as _tree


class ArcFactoredTree:
    """Dependency trees scored by hashed arc features, plus sibling features at order 2.

    The weights are one flat vector of ``n_features`` hashed feature weights (see
    :mod:`skstruct._kernels.tree`). Outputs are head ids, one per word, 0 the root.

    Parameters
    ----------
    n_features : int
    order : {1, 2}
        1: arc-factored (McDonald et al. 2005); 2: arcs plus adjacent siblings
        (McDonald & Pereira 2006), projective only.
    projective : bool
        Eisner's algorithm (projective trees) or Chu-Liu-Edmonds (any tree).
    single_root : bool
        Exactly one word attached to the root.
    """

    def __init__(self, n_features, order=1, projective=True, single_root=True):
        self.n_features = n_features
        self.order = order
        self.projective = projective
        self.single_root = single_root

    @property
    def n_weights(self):
        return self.n_features

    def _options(self):
        return self.n_features, self.order, self.projective, self.single_root

    def predict(self, encoded, coef, beam_size=None):
        """Head of every word (int32 (n_tokens,), aligned with the encoded tokens)."""
        heads = _tree.predict_batch(_attrs(encoded), encoded.offsets, coef, *self._options())
        return heads.astype(np.int32)

    def perceptron_epoch(self, encoded, heads, visit, weights):
        """One perceptron epoch over sentences ``visit`` (the fused kernel).

        Updates ``weights`` in place; returns ``(n_mistakes, n_heads_correct)``.
        """
        mistakes, correct, weights.n_seen = _tree.perceptron_epoch(
            _attrs(encoded),
            encoded.offsets,
            heads,
            np.asarray(visit, dtype=np.int64),
            weights.coef,
            weights.coef_sum,
            weights.n_seen,
            *self._options(),
        )
        return mistakes, correct

    # -- sentence by sentence (SWVP's loop) ---------------------------------------------

    def unary(self, encoded, i, coef):
        """The part scores of sentence ``i``: a :class:`TreeScores` (no root penalty)."""
        start, stop = encoded.offsets[i], encoded.offsets[i + 1]
        n = int(stop - start)
        attrs = _attrs(encoded)
        buffer = np.empty(_tree.N_ARC_TEMPLATES + _tree.N_SIBLING_TEMPLATES + n + 1, np.int64)
        arc = np.empty((n + 1, n + 1))
        _tree.arc_scores(attrs, start, n, coef, self.n_features, arc, buffer)
        sib = np.zeros((1, 1, 1))
        if self.order == 2:
            sib = np.zeros((n + 1, n + 1, n + 1))
            _tree.sibling_scores(attrs, start, n, coef, self.n_features, sib, buffer)
        return TreeScores(arc, sib, n)

    def argmax(self, scores, coef=None):
        """The best tree's heads (int32 (n,), one per word) under ``scores``."""
        arc, n = scores.arc.copy(), scores.n
        if self.single_root:
            _tree.single_root_penalty(arc, n)
        if self.order == 2:
            heads = _tree.eisner2(arc, scores.sib, n)
        elif self.projective:
            heads = _tree.eisner(arc, n)
        else:
            heads = _tree.chu_liu_edmonds(arc)
        return heads[1:].astype(np.int32)

    def margin(self, scores, coef, gold, mixed, a=None, b=None):
        """``w . phi(gold) - w . phi(mixed)`` for head vectors ``gold`` and ``mixed``.

        ``mixed`` need not be a tree: every word's arc, and the sibling parts read off
        the head vector, are scored as they are.
        """
        return self._score(scores, gold) - self._score(scores, mixed)

    def _score(self, scores, heads):
        full = np.concatenate(([-1], heads)).astype(np.int64)
        return _tree.head_vector_score(scores.arc, scores.sib, full, scores.n, self.order)

    def add_delta(self, encoded, i, gold, pred, coef, scale):
        """``coef += scale * (phi(x_i, gold) - phi(x_i, pred))``, for any head vectors."""
        start, stop = encoded.offsets[i], encoded.offsets[i + 1]
        n = int(stop - start)
        attrs = _attrs(encoded)
        buffer = np.empty(_tree.N_ARC_TEMPLATES + _tree.N_SIBLING_TEMPLATES + n + 1, np.int64)
        for heads, sign in ((gold, 1.0), (pred, -1.0)):
            full = np.concatenate(([-1], heads)).astype(np.int64)
            _tree.add_tree_features(
                attrs, start, n, full, coef, self.n_features, self.order, sign * scale, buffer
            )


class TreeScores(NamedTuple):
    """Part scores of one sentence: ``arc[h, d]``, ``sib[h, s, d]`` (order 2), ``n`` words."""

    arc: np.ndarray
    sib: np.ndarray
    n: int


def _attrs(encoded):
    """The (n_tokens, 3) attribute ids that ArcFeatures put in ``encoded.indices``."""
    return encoded.indices.reshape(-1, _tree.N_ATTRS)
