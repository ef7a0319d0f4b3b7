"""Structure: the protocol every output space implements, and what the learners may ask.

An output space says what the *parts* of an output are (a label at a position and a
transition, an arc, a whole candidate ...) and how they are scored by a weight vector;
everything else (decoders, update rules, solvers, learners) is written against the
methods below, not against a particular structure.
"""

import numpy as np


class Structure:
    """The structure protocol (see :doc:`/architecture`, "How to add a structure").

    Every structure has:

    - ``n_weights``: the size of the weight vector it lays out;
    - ``output_offsets(encoded)``: where each example's outputs lie in the flat array of
      output ids (example ``i``: ``outputs[offsets[i]:offsets[i + 1]]``); the engine
      slices outputs by it, never by the inputs' tokens;
    - ``scores(encoded, i, coef)``: the potentials of example ``i``'s parts under the
      weights ``coef`` (a named tuple of arrays, one per kind of part);
    - ``score(scores, output)``: ``w . phi(x, output)``, the sum of the output's part
      potentials;
    - ``loss(encoded, i, gold, output)``: the task loss of ``output`` against example
      ``i``'s ``gold``; Hamming over output ids by default, the given losses where the
      examples carry them (candidate sets);
    - ``delta(encoded, i, gold, pred)``: ``phi(x_i, gold) - phi(x_i, pred)`` as a sparse
      vector ``(keys, values)``, and ``update(state, encoded, i, gold, pred, weight)``,
      which adds ``weight`` times it to a training state; ``add_to(array, keys,
      values)`` adds such a vector to an array laid out as the weights (keys without a
      weight in the layout dropped).

    Structures whose parts are scored before the search (not the transition systems,
    whose action scores depend on the search's state) also have
    ``augment(scores, gold, loss_weight=1.0)``: potentials under which every output
    scores ``score + loss_weight * loss(gold, output)``, so that a decoder's argmax is
    the loss-augmented one (other weights: batch EG's compact dual).

    Capabilities, declared by ``has_marginals``: ``marginals(scores)`` gives ``(log Z,
    mu)``, the log-partition function over the structure's outputs and the part
    marginals ``mu`` (the gradient of log Z with respect to the potentials: the same
    named tuple as ``scores``, each part's probability, or expected count for parts
    that occur several times in an output), and ``expected_loss(mu, gold)`` the loss
    expected under them; by ``has_expected_delta``: ``expected_delta(encoded, i, gold,
    mu)``, ``phi(x_i, gold) - E_mu[phi(x_i, y)]`` as a sparse vector in the keys of
    ``delta`` (what a CRF's gradient and an EG step add up); ``active_weights(encoded,
    outputs)`` the weights that a corpus's parts can touch (None, the default: all).
    """

    #: Whether :meth:`marginals` is exact for this structure's parameters.
    has_marginals = False
    #: Whether :meth:`expected_delta` is available.
    has_expected_delta = False
    #: Whether :meth:`scores` tabulates every part's potential (what EG's dual keeps a
    #: copy of per example); False where the search scores parts as it goes.
    has_part_tables = True
    #: Output constraints (a chain's allowed transitions), None where there are none.
    constraints = None

    def constrain(self, coef):
        """``coef`` with the parts the constraints forbid at ``-inf``: ``coef`` itself
        for a structure without constraints."""
        return coef

    def output_offsets(self, encoded):
        """Where each example's output ids lie in the flat outputs: here one output per
        token or word, so the offsets of the encoded examples' tokens."""
        return encoded.offsets

    def loss(self, encoded, i, gold, output):
        """The loss of ``output`` against ``gold`` (output ids of example ``i`` of
        ``encoded``): the number of positions where they differ (Hamming), as a float.

        Examples
        --------
        >>> Structure().loss(None, 0, np.array([0, 1, 2]), np.array([0, 2, 2]))
        1.0
        """
        gold, output = np.asarray(gold), np.asarray(output)
        if gold.shape != output.shape:
            raise ValueError(
                f"An output of shape {output.shape} cannot be compared with a gold output of "
                f"shape {gold.shape}."
            )
        return float(np.count_nonzero(gold != output))

    def n_choices(self, scores):
        """How many values one part slot of the example ``scores`` score can take (the
        labels of a token, the heads of a word, the candidates of a set): where EG's
        dual starts (nothing here: a structure with marginals says)."""
        raise NotImplementedError(
            f"{type(self).__name__} does not say how many choices parts have."
        )

    def marginals(self, scores):
        """``(log Z, mu)`` of the distribution ``p(y) ∝ exp(score(scores, y))`` over this
        structure's outputs (only where :attr:`has_marginals`)."""
        raise NotImplementedError(
            f"{type(self).__name__} with these parameters has no exact marginals "
            f"(has_marginals is False)."
        )

    def expected_delta(self, encoded, i, gold, mu):
        """``phi(x_i, gold) - E_mu[phi(x_i, y)]`` as ``(keys, values)`` (only where
        :attr:`has_expected_delta`)."""
        raise NotImplementedError(
            f"{type(self).__name__} with these parameters has no expected feature vectors "
            f"(has_expected_delta is False)."
        )

    def active_weights(self, encoded, outputs=None):
        """The ids (sorted int64) of the weights that some part of some example of
        ``encoded`` (or of its gold ``outputs``, output ids as ``output_offsets`` lays
        them out) has a feature in, or None for all of them (this default).

        Outside them a likelihood over ``encoded`` has a zero gradient at any weights,
        so a solver started at zero need not carry them: a structure whose weights are a
        large hashed space that each corpus touches a little of (trees, constituents)
        says which. A superset is allowed (it only costs room).
        """
        return None

    def add_expected_delta(self, array, encoded, i, gold, mu, scale):
        """``array += scale * expected_delta(encoded, i, gold, mu)`` (``array`` laid out
        as the weights); structures with a faster way than the sparse vector say so."""
        keys, values = self.expected_delta(encoded, i, gold, mu)
        self.add_to(array, keys, scale * values)
