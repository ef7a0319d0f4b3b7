"""Decoders for dependency trees: Eisner's algorithm (projective, first and second
order) and Chu-Liu-Edmonds (non-projective)."""

from numbers import Integral

import numpy as np

from .._kernels import kbest_tree as _kbest_tree
from .._kernels import tree as _tree
from .._kernels.threads import current_threads
from ..structures import ArcFactoredTree, OutputTrace
from ..tasks import DEPENDENCY_PARSING
from ..utils._sklearn_compat import Interval
from ..utils.parts import in_parts, longest_sentence
from ._base import Capabilities, Decoder


class _TreeDecoder(Decoder):
    projective = True

    def make_structure(self, n_features, n_labels=0):
        """The :class:`~skstruct.structures.ArcFactoredTree` this decoder searches
        (``n_labels`` relation labels, 0 for unlabelled parsing)."""
        self._validate_params()
        if self._grandparents and self._order != 2:
            raise ValueError(
                f"Eisner(grandparents=True) needs order=2 (got order={self._order}): the "
                "grandparent search scores siblings too."
            )
        return ArcFactoredTree(
            n_features, order=self._order, single_root=self.single_root, n_labels=n_labels or 0,
            projective=self.projective, grandparents=self._grandparents,
        )  # fmt: skip

    @property
    def _order(self):
        return getattr(self, "order", 1)

    @property
    def _grandparents(self):
        return getattr(self, "grandparents", False)

    @property
    def capabilities(self):
        return Capabilities(
            task=DEPENDENCY_PARSING,
            exact=True,
            marginals=self._order == 1,
            prefix_trace=False,
            restarts=False,
            mixed_assignments=True,
            relation_labels=True,
            sparse_delta=False,
            loss_augmented=True,
        )

    def decode(self, structure, scores):
        """The best tree's output ids (int32 (n,)) under the part ``scores``."""
        arc, labels = structure.arc_matrix(scores)
        heads = self.best_heads(arc, scores.sib, scores.n, scores.grand)
        return structure.labelled(heads, labels)

    def search(self, structure, scores, gold, restarts=False):
        """The best tree, with its score and the gold tree's: an exact search has no
        prefixes, so the trace is one step (an :class:`~skstruct.structures.OutputTrace`)."""
        path = self.decode(structure, scores)
        return OutputTrace.of(
            path, gold, structure.score(scores, path), structure.score(scores, gold)
        )

    def predict(self, structure, encoded, coef):
        offsets = encoded.offsets
        heads, labels = np.empty(offsets[-1], np.int64), np.zeros(offsets[-1], np.int64)
        # the arguments' types are those of the perceptron's epoch, which decodes through
        # the same kernel: after a fit, predicting compiles nothing
        args = (encoded.attrs, offsets, coef, structure.n_features, structure.siblings,
                structure.grandparent_parts, None if self.projective else True,
                structure.single_root, structure.label_count)  # fmt: skip

        def decode(sentences):
            work = _tree.scratch(longest_sentence(offsets), structure.siblings)
            _tree.decode_trees(*args[:2], sentences, *args[2:], work, heads, labels)

        in_parts(decode, offsets, current_threads(), power=3)
        return structure.encode(heads, labels)

    @property
    def max_words(self):
        """Longest sentence parsed: the dynamic-programming tables grow as n^2 (first
        order: 64 MB at 1,000 words) or n^3 (second order: 216 MB at 300 words; with
        grandparents, five tables: 325 MB at 200 words)."""
        if self._grandparents:
            return 200
        return 300 if self._order == 2 else 1000

    def check_lengths(self, encoded, name="X"):
        """Raise a ValueError naming the first sentence longer than :attr:`max_words`."""
        lengths = np.diff(encoded.offsets)
        too_long = np.flatnonzero(lengths > self.max_words)
        if too_long.size:
            i = int(too_long[0])
            raise ValueError(
                f"{name}[{i}] has {lengths[i]} words; {self!r} parses sentences of at most "
                f"{self.max_words} words (its tables grow with the length). Split it first."
            )


class Eisner(_TreeDecoder):
    """Exact projective dependency parsing by dynamic programming (Eisner 1996).

    Pass it as the ``decoder`` of a learner to parse: ``X`` is then a list of
    sentences of token dicts (``form``, ``xpos``/``upos``) and ``y`` a list of head
    lists (0 is the root); features come from :class:`~skstruct.ArcFeatures`.

    Parameters
    ----------
    order : {1, 2}, default=1
        ``1``: arc-factored (McDonald, Crammer & Pereira 2005), O(n^3). ``2``: arcs
        plus adjacent siblings (McDonald & Pereira 2006, sec. 3.2), still O(n^3).
    single_root : bool, default=True
        Exactly one word hangs from the root (as in CoNLL-U). Training trees with
        several root words are then refused.
    projectivize : bool, default=False
        How to train on non-projective gold trees, which no projective parse can
        reproduce: ``False`` refuses them with an error naming the sentence;
        ``True`` lifts each non-projective arc to the head's head, shortest first,
        until the tree is projective (Nivre & Nilsson 2005, without encoding the lifts
        in labels). Scoring always uses the gold trees as given.
    grandparents : bool, default=False
        With ``order=2``: grandparent parts too, the head of an arc's head with the
        arc's two words (Koo & Collins 2010's Model 1 without grand-siblings), by a
        search over spans that carry their head's head, O(n^4) time and O(n^3) memory
        (sentences of up to 200 words).

    Notes
    -----
    Ties go to the first split point in increasing order. The single-root constraint
    subtracts from every root arc more than two trees' scores can differ by, which
    keeps the best single-rooted tree on top; with grandparents the search itself
    gives the root one child. The grandparent search keeps no back-pointers: it
    reruns the maximisations of the best tree's items, as many as its words.

    References
    ----------
    J. Eisner (1996). Three new probabilistic models for dependency parsing. COLING.
    R. McDonald and F. Pereira (2006). Online learning of approximate dependency
    parsing algorithms. EACL.
    T. Koo and M. Collins (2010). Efficient third-order dependency parsers. ACL.

    Examples
    --------
    >>> from skstruct import Eisner, StructuredPerceptron
    >>> X = [[{"form": "Dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]] * 3
    >>> y = [[2, 0]] * 3
    >>> StructuredPerceptron(decoder=Eisner(), max_iter=2).fit(X, y).predict(X[:1])
    [[2, 0]]
    """

    _parameter_constraints: dict = {
        "order": [Interval(Integral, 1, 2, closed="both")],
        "single_root": ["boolean"],
        "projectivize": ["boolean"],
        "grandparents": ["boolean"],
    }

    def __init__(self, order=1, single_root=True, projectivize=False, grandparents=False):
        self.order = order
        self.single_root = single_root
        self.projectivize = projectivize
        self.grandparents = grandparents

    def best_heads(self, arc, sib, n, grand=None):
        """The best projective head vector (slot 0 the root's) under arc scores ``arc``
        (and sibling scores ``sib`` at second order, grandparent scores ``grand`` with
        grandparents)."""
        if self.grandparents:
            return _tree.eisner_grand(arc, sib, grand, n, self.single_root)
        return _tree.eisner2(arc, sib, n) if self.order == 2 else _tree.eisner(arc, n)

    def nbest(self, structure, scores, k):
        """The ``k`` best projective trees under the part ``scores``, best first, as
        ``[(output ids int32 (n,), score), ...]``: fewer when the sentence has fewer
        trees (Huang & Chiang's k-best lists over Eisner's chart, first or second
        order). A labelled parser gives each tree's arcs their best labels, so the
        list holds ``k`` different head vectors."""
        if self.grandparents:
            raise ValueError(
                "Eisner(grandparents=True) has no k-best lists; rerank the lists of "
                "Eisner(order=2) instead."
            )
        arc, labels = structure.arc_matrix(scores)
        # with a single root the penalised scores put every single-rooted tree first
        if self.order == 2:
            all_heads, _ = _kbest_tree.kbest_eisner2(arc, scores.sib, scores.n, k)
        else:
            all_heads, _ = _kbest_tree.kbest_eisner(arc, scores.n, k)
        best = []
        for heads in all_heads:
            if structure.single_root and np.count_nonzero(heads[1:] == 0) != 1:
                break
            path = structure.labelled(heads, labels)
            best.append((path, float(structure.score(scores, path))))
        return best


class ChuLiuEdmonds(_TreeDecoder):
    """Exact non-projective dependency parsing: the maximum spanning arborescence
    (Chu & Liu 1965; Edmonds 1967; McDonald et al. 2005b), first order.

    Parameters
    ----------
    single_root : bool, default=True
        Exactly one word hangs from the root (see :class:`Eisner`).

    Notes
    -----
    Cycles are contracted one at a time, O(n^3) per sentence in the worst case.

    References
    ----------
    R. McDonald, F. Pereira, K. Ribarov and J. Hajic (2005). Non-projective dependency
    parsing using spanning tree algorithms. HLT-EMNLP.

    Examples
    --------
    >>> from skstruct import ChuLiuEdmonds, StructuredPerceptron
    >>> StructuredPerceptron(decoder=ChuLiuEdmonds())
    StructuredPerceptron(decoder=ChuLiuEdmonds())
    """

    projective = False
    projectivize = False
    _parameter_constraints: dict = {"single_root": ["boolean"]}

    def __init__(self, single_root=True):
        self.single_root = single_root

    def best_heads(self, arc, sib, n, grand=None):
        """The best head vector (slot 0 the root's) under arc scores ``arc``."""
        return _tree.chu_liu_edmonds(arc)
