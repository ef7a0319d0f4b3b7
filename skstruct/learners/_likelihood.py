"""The conditional log-likelihood of any structure with marginals, written once.

``NLL(w) = sum_i s_i (log Z(x_i) - w . phi(x_i, y_i))`` and its gradient ``sum_i s_i
(E_{p(.|x_i)}[phi] - phi(x_i, y_i))`` (``s_i`` the sample weights) come from the
structure protocol alone: ``marginals`` gives ``log Z`` and the part marginals,
``expected_delta`` the gradient's sparse terms. A chain CRF trains through the fused
forward-backward kernels of :class:`~skstruct.learners.crf.ChainLikelihood`, tested equal
to this; a structure without such kernels (a first-order tree: inside-outside or the
matrix-tree theorem) trains through this one.
"""

import numpy as np


class StructuredLikelihood:
    """``NLL(w) + c2 ||w||^2`` and its gradient over an encoded corpus, for any
    structure with ``has_marginals`` and ``has_expected_delta`` (the call signature of
    :class:`~skstruct.learners.crf.ChainLikelihood`).

    Parameters
    ----------
    structure : Structure
    encoded : encoded corpus
    outputs : ndarray
        Gold output ids, example ``i`` at ``structure.output_offsets(encoded)[i:i + 2]``.
    c2 : float
        L2 penalty (CRFsuite's scaling: ``c2 ||w||^2``).
    weights : ndarray of shape (n_examples,) or None
        Sample weights (None: ones).
    """

    def __init__(self, structure, encoded, outputs, c2, weights=None):
        for capability in ("has_marginals", "has_expected_delta"):
            if not getattr(structure, capability):
                raise ValueError(
                    f"{type(structure).__name__} with these parameters cannot be trained "
                    f"by likelihood ({capability} is False)."
                )
        self.structure, self.encoded, self.outputs, self.c2 = structure, encoded, outputs, c2
        n = encoded.n_sentences
        self.weights = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
        self.bounds = structure.output_offsets(encoded)

    def __call__(self, coef):
        structure, encoded = self.structure, self.encoded
        loss, grad = 0.0, 2.0 * self.c2 * coef
        for i in range(encoded.n_sentences):
            gold = self.outputs[self.bounds[i] : self.bounds[i + 1]]
            scores = structure.scores(encoded, i, coef)
            log_z, mu = structure.marginals(scores)
            loss += self.weights[i] * (log_z - structure.score(scores, gold))
            keys, values = structure.expected_delta(encoded, i, gold, mu)
            structure.add_to(grad, keys, -self.weights[i] * values)
        return loss + self.c2 * float(coef @ coef), grad
