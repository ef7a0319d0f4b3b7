"""ArcFactoredTree: the output space of dependency parsing (heads) and its weights."""

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


def _attrs(encoded):
    """The (n_tokens, 3) attribute ids that ArcFeatures put in ``encoded.indices``."""
    return encoded.indices.reshape(-1, _tree.N_ATTRS)
