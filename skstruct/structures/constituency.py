"""AnchoredRules: the output space of constituency parsing (binarised trees over a
grammar's rules, anchored in the sentence) and its hashed features."""

from typing import NamedTuple

import numpy as np

from .._kernels import anchored_cky as _cky
from ..trees import ROOT, Tree
from ..utils.arrays import sparse_sum
from ._base import Structure
from ._cky_charts import charts_for, new_charts
from ._fixed import FixedLayout

#: The first output id of a sentence no tree of the pruned space spans (parsed flat).
UNPARSED = -2


class AnchoredRules(FixedLayout, Structure):
    """Binarised trees scored by anchored rules: the slides' "local representation"
    (Collins), with the surface features of Hall, Durrett & Klein (2014).

    A part is a rule with its anchors: a binary rule ``A -> B C`` over words ``i..j-1``
    split at ``k``, a unary rule ``A' -> A`` over a span, and the symbol under the root.
    ``phi(x, y)`` sums the parts' hashed features (see
    :mod:`skstruct._kernels.anchored_cky`): the span's surface features conjoined with
    the node's label, and the rule alone and with the words and tags at its split and
    edges. An output is the tree laid out as int32 of ``6n - 5`` ids (a unary rule per
    word, then ``(i, k, j, rule, unary)`` per binary node in preorder).

    The loss is the labelled-span Hamming loss of the binarised trees: the nodes (a
    label over a span, built by a binary rule or by a unary rule) in one tree and not
    in the other. Both trees have ``n - 1`` binary nodes, so it is twice the binary
    nodes the output has wrong, plus its wrong unary nodes, plus the gold unary nodes
    it misses: it decomposes over the output's parts (and a constant).

    Parameters
    ----------
    n_features : int
        Hashed feature ids (the weight vector's size).
    grammar : skstruct.trees.Grammar
        The rules outputs may use.
    transform : skstruct.trees.TreeTransform
        What the grammar's trees were binarised by (undone on output).
    """

    #: Exact marginals: inside-outside over the anchored rules of the pruned space.
    has_marginals = True
    has_expected_delta = True
    #: The parts are scored as the search goes, never tabulated (a sentence has
    #: hundreds of thousands of anchored rules): no dual potentials per part (EG).
    has_part_tables = False

    def __init__(self, n_features, grammar, transform):
        self.n_features = n_features
        self.grammar = grammar
        self.transform = transform

    @property
    def n_weights(self):
        return self.n_features

    @property
    def root_ok(self):
        """Symbols that may stand under the root (bool (n_symbols,))."""
        return self.grammar.root_counts > 0

    def n_choices(self, scores):
        """The symbols a span may be labelled with (where EG's dual starts)."""
        return scores.allowed.shape[2]

    def output_offsets(self, encoded):
        """``6n - 5`` output ids per sentence of ``n`` words."""
        lengths = np.diff(encoded.offsets)
        return np.concatenate([[0], np.cumsum(6 * lengths - 5)]).astype(np.int64)

    def scores(self, encoded, i, coef):
        """What the search of sentence ``i`` needs: a :class:`ParseScores` (the weights
        are read as the search goes, part by part)."""
        atoms, n = encoded.sentence(i), int(encoded.offsets[i + 1] - encoded.offsets[i])
        cells = encoded.cells[encoded.cell_offsets[i] : encoded.cell_offsets[i + 1]]
        allowed = _cky.allowed_mask(n, self.grammar.n_symbols, cells)
        none = np.zeros((1, 1, 1))
        charts = charts_for(encoded, self.grammar.n_symbols, n)
        return ParseScores(atoms, allowed, coef, none, none, False, 0.0, 1.0, charts)

    def best(self, scores, out):
        """The best output under ``scores`` written into ``out``; its score (``-inf``:
        no tree in the pruned space)."""
        g, weight = self.grammar, scores.loss_weight
        loss_inner, loss_top = scores.loss_inner, scores.loss_top
        if scores.augmented and weight != 1.0:
            loss_inner, loss_top = weight * loss_inner, weight * loss_top
        args = (scores.atoms, scores.allowed, g.binary, g.left_start, g.unary, self.root_ok,
                scores.coef, self.n_features, loss_inner, loss_top, np.bool_(scores.augmented),
                out)  # fmt: skip
        charts = scores.charts
        if charts is None:
            charts = new_charts(scores.atoms.shape[0], scores.allowed.shape[2])
        found = _cky.best_tree(*args, charts)
        return found + weight * scores.loss_constant if scores.augmented else found

    def keys(self, atoms, output):
        """The feature ids of ``output``'s parts, one per occurrence."""
        g = self.grammar
        return _cky.output_keys(atoms, np.asarray(output, dtype=np.int32), g.binary, g.unary,
                                self.n_features)  # fmt: skip

    def score(self, scores, output):
        """``w . phi(x, output)``, plus the output's loss when ``scores`` are augmented."""
        total = float(scores.coef[self.keys(scores.atoms, output)].sum())
        if scores.augmented:
            inner, top = self.nodes(output)
            loss = scores.loss_constant
            loss += sum(scores.loss_inner[node] for node in inner)
            loss += sum(scores.loss_top[node] for node in top)
            total += scores.loss_weight * loss
        return total

    path_score = score

    def marginals(self, scores):
        """``(log Z, mu)`` over the trees of the pruned space: ``mu`` a
        :class:`ParseMarginals` (the inside charts the expected features are read from)."""
        log_z, inner, outer = _cky.inside(*self._search_arrays(scores))
        log_z = float(log_z + scores.loss_weight * scores.loss_constant * scores.augmented)
        return log_z, ParseMarginals(scores, log_z, inner, outer, np.full(1, np.nan))

    def _search_arrays(self, scores):
        """The arguments :func:`~skstruct._kernels.anchored_cky.inside` and the outside
        pass take from ``scores``: the sentence, the grammar, the weights, the loss."""
        g = self.grammar
        return (scores.atoms, scores.allowed, g.binary, g.left_start, g.unary, self.root_ok,
                scores.coef, self.n_features, scores.loss_inner, scores.loss_top,
                float(scores.loss_weight), np.bool_(scores.augmented))  # fmt: skip

    def _outside(self, mu, array, scale):
        """``array += scale * E_mu[phi]`` by an outside pass over ``mu``'s charts; keeps
        the expected loss in ``mu`` where its scores are augmented."""
        scores = mu.scores
        # the charts hold log Z without the loss's constant
        log_z = mu.log_z - scores.loss_weight * scores.loss_constant * scores.augmented
        expected = _cky.add_expected_features(*self._search_arrays(scores), log_z, mu.inner,
                                              mu.outer, array, float(scale))  # fmt: skip
        if scores.augmented:
            mu.expected_loss[0] = expected + scores.loss_constant

    def add_expected_delta(self, array, encoded, i, gold, mu, scale):
        """``array += scale * (phi(gold) - E_mu[phi])`` (an outside pass over ``mu``'s
        charts)."""
        np.add.at(array, self.keys(mu.scores.atoms, gold), scale)
        self._outside(mu, array, -float(scale))

    def active_weights(self, encoded, outputs=None):
        """The features of every part of every tree of each sentence's pruned space,
        and of the gold trees ``outputs`` (which may lie outside it): all that a
        likelihood over them reads."""
        g, seen = self.grammar, np.zeros(self.n_features, dtype=bool)
        zeros = np.zeros(self.n_features)
        bounds = self.output_offsets(encoded)
        for i in range(encoded.n_sentences):
            scores = self.scores(encoded, i, zeros)
            _, inner, outer = _cky.inside(*self._search_arrays(scores))
            _cky.mark_active_features(scores.atoms, scores.allowed, g.binary, g.left_start,
                                      g.unary, self.root_ok, self.n_features, inner, outer,
                                      seen)  # fmt: skip
            if outputs is not None:
                seen[self.keys(scores.atoms, outputs[bounds[i] : bounds[i + 1]])] = True
        return np.flatnonzero(seen)

    def expected_loss(self, mu, gold):
        """The loss against ``gold`` expected under ``mu``: kept by the outside pass of
        :meth:`add_expected_delta` where ``mu`` is of scores augmented against ``gold``,
        else by an outside pass of its own."""
        if not mu.scores.augmented:
            # the loss arrays against gold, weighted 0: the charts' distribution
            unweighted = self.augment(mu.scores, gold, loss_weight=0.0)
            mu = mu._replace(scores=unweighted, expected_loss=np.full(1, np.nan))
        if np.isnan(mu.expected_loss[0]):
            self._outside(mu, np.zeros(1), 0.0)
        return float(mu.expected_loss[0])

    def expected_delta(self, encoded, i, gold, mu):
        """``phi(gold) - E_mu[phi]`` as ``(keys, values)``."""
        dense = np.zeros(self.n_features)
        self.add_expected_delta(dense, encoded, i, gold, mu, 1.0)
        keys = np.flatnonzero(dense)
        return keys, dense[keys]

    def margin(self, scores, gold, mixed, a=None, b=None):
        """``w . phi(gold) - w . phi(mixed)``."""
        return self.score(scores, gold) - self.score(scores, mixed)

    def nodes(self, output):
        """``(inner, top)``: the labelled spans ``(i, j, A)`` of ``output``'s binary
        nodes, and those of its unary rules' parents."""
        output = np.asarray(output)
        n = (output.shape[0] + 5) // 6
        binary, unary = self.grammar.binary, self.grammar.unary
        inner, top = [], []
        for i in range(n):
            if output[i] >= 0:
                top.append((i, i + 1, int(unary[output[i], 0])))
        for node in range(n - 1):
            i, _, j, r, u = (int(x) for x in output[n + 5 * node : n + 5 * node + 5])
            inner.append((i, j, int(binary[r, 0])))
            if u >= 0:
                top.append((i, j, int(unary[u, 0])))
        return inner, top

    def loss(self, encoded, i, gold, output):
        """Labelled spans in one of the two binarised trees and not in the other."""
        gold_inner, gold_top = (set(nodes) for nodes in self.nodes(gold))
        inner, top = (set(nodes) for nodes in self.nodes(output))
        return float(len(gold_inner ^ inner) + len(gold_top ^ top))

    def augment(self, scores, gold, loss_weight=1.0):
        """Scores under which every tree scores ``score + loss_weight * loss(gold,
        tree)``."""
        n, n_symbols = scores.atoms.shape[0], scores.allowed.shape[2]
        loss_inner = np.full((n + 1, n + 1, n_symbols), 2.0)
        loss_top = np.ones((n + 1, n + 1, n_symbols))
        gold_inner, gold_top = self.nodes(gold)
        for node in gold_inner:
            loss_inner[node] = 0.0
        for node in gold_top:
            loss_top[node] = -1.0
        return scores._replace(loss_inner=loss_inner, loss_top=loss_top, augmented=True,
                               loss_constant=float(len(gold_top)),
                               loss_weight=float(loss_weight))  # fmt: skip

    def delta(self, encoded, i, gold, pred):
        """``phi(gold) - phi(pred)`` as ``(keys, values)``, keys ascending."""
        atoms = encoded.sentence(i)
        plus, minus = self.keys(atoms, gold), self.keys(atoms, pred)
        values = np.concatenate([np.ones(plus.size), -np.ones(minus.size)])
        return sparse_sum(np.concatenate([plus, minus]), values)

    def add_delta(self, encoded, i, gold, pred, coef, scale):
        """``coef += scale * (phi(gold) - phi(pred))``."""
        atoms = encoded.sentence(i)
        np.add.at(coef, self.keys(atoms, gold), scale)
        np.add.at(coef, self.keys(atoms, pred), -scale)

    # -- trees and outputs --------------------------------------------------------------

    def encode_tree(self, tree, n):
        """The output of a binarised tree (rooted at ``ROOT``, over ``n`` words) whose
        rules are all the grammar's (int32 ``6n - 5``)."""
        index, g = self.grammar.index, self.grammar
        binary = {tuple(rule): r for r, rule in enumerate(g.binary.tolist())}
        unary = {tuple(rule): u for u, rule in enumerate(g.unary.tolist())}
        out = np.full(6 * n - 5, -1, dtype=np.int32)
        nodes = []

        def walk(node, i, above):
            if node.is_preterminal():
                out[i] = above
                return i + 1
            if len(node) == 1:
                return walk(node[0], i, unary[index[node.label()], index[node[0].label()]])
            slot = len(nodes)
            nodes.append(None)
            k = walk(node[0], i, -1)
            j = walk(node[1], k, -1)
            rule = binary[index[node.label()], index[node[0].label()], index[node[1].label()]]
            nodes[slot] = (i, k, j, rule, above)
            return j

        try:
            walk(tree[0] if len(tree) == 1 else tree, 0, -1)
        except KeyError as exc:
            raise ValueError(f"the tree uses a symbol or rule the grammar lacks: {exc}") from None
        if nodes:
            out[n:] = np.asarray(nodes, dtype=np.int32).ravel()
        return out

    def cells(self, output):
        """The flat cell ids (as pruning keeps them) of ``output``'s labelled spans."""
        inner, top = self.nodes(output)
        n = (len(output) + 5) // 6
        width = self.grammar.n_symbols
        return np.array([(i * (n + 1) + j) * width + a for i, j, a in inner + top], dtype=np.int64)

    def tree(self, output, words, tags):
        """The tree of ``output`` over ``words`` and ``tags``, binarisation undone (a
        flat ``S`` over the tags where ``output`` marks an unparsed sentence)."""
        output = np.asarray(output)
        if output[0] == UNPARSED:
            return Tree("", [Tree("S", [Tree(t, [w]) for w, t in zip(words, tags)])])
        g, n = self.grammar, len(words)
        symbols = g.symbols
        by_span = {(int(x[0]), int(x[2])): x for x in output[n:].reshape(-1, 5)}

        def build(i, j, unary_allowed=True):
            if j - i == 1:
                node = Tree(tags[i], [words[i]])
                u = output[i]
            else:
                _, k, _, r, u = by_span[i, j]
                node = Tree(symbols[g.binary[r, 0]], [build(i, k), build(k, j)])
            if u >= 0:
                node = Tree(symbols[g.unary[u, 0]], [node])
            return node

        top = build(0, n)
        binarised = top if top.label() == ROOT else Tree(ROOT, [top])
        return self.transform.inverse_transform([binarised])[0]


class ParseScores(NamedTuple):
    """What a search of one sentence reads: its atoms (n, 3), the labelled spans pruning
    allowed (bool (n + 1, n + 1, n_symbols)), the weights, and under
    :meth:`AnchoredRules.augment` the loss of each binary node's label
    (``loss_inner``) and unary node's (``loss_top``) with the loss's constant, and the
    weight every tree's loss is added with; ``charts``, where given, the charts the
    best-tree search reuses (:func:`~._cky_charts.charts_for`), else it makes its own
    for the sentence."""

    atoms: np.ndarray
    allowed: np.ndarray
    coef: np.ndarray
    loss_inner: np.ndarray
    loss_top: np.ndarray
    augmented: bool
    loss_constant: float
    loss_weight: float = 1.0
    charts: tuple = None


class ParseMarginals(NamedTuple):
    """What :meth:`AnchoredRules.marginals` gives: the scores it summed over, ``log Z``
    and the inside charts (``inner``, ``outer``: (n + 1, n + 1, n_symbols)); scores
    augmented against a gold tree also get the loss expected under them."""

    scores: ParseScores
    log_z: float
    inner: np.ndarray
    outer: np.ndarray
    #: The expected loss (one slot, NaN until an outside pass of augmented scores).
    expected_loss: np.ndarray
