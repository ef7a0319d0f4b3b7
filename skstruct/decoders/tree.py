"""Decoders for dependency trees: Eisner's algorithm (projective, first and second
order) and Chu-Liu-Edmonds (non-projective)."""

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator

from ..structures.tree import ArcFactoredTree
from ..utils._sklearn_compat import Interval


class _TreeDecoder(BaseEstimator):
    #: What the learner predicts with this decoder: a head per word.
    output = "heads"
    projective = True

    def make_structure(self, n_features, n_labels=0):
        """The :class:`~skstruct.structures.ArcFactoredTree` this decoder searches
        (``n_labels`` relation labels, 0 for unlabelled parsing)."""
        self._validate_params()
        return ArcFactoredTree(
            n_features,
            order=getattr(self, "order", 1),
            projective=self.projective,
            single_root=self.single_root,
            n_labels=n_labels or 0,
        )

    def search_width(self, structure):
        """``None``: exact search."""
        return None

    @property
    def max_words(self):
        """Longest sentence parsed: the dynamic-programming tables grow as n^2 (first
        order: 64 MB at 1,000 words) or n^3 (second order: 216 MB at 300 words)."""
        return 300 if getattr(self, "order", 1) == 2 else 1000

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

    Notes
    -----
    Ties go to the first split point in increasing order. The single-root constraint
    subtracts from every root arc more than two trees' scores can differ by, which
    keeps the best single-rooted tree on top.

    References
    ----------
    J. Eisner (1996). Three new probabilistic models for dependency parsing. COLING.
    R. McDonald and F. Pereira (2006). Online learning of approximate dependency
    parsing algorithms. EACL.

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
    }

    def __init__(self, order=1, single_root=True, projectivize=False):
        self.order = order
        self.single_root = single_root
        self.projectivize = projectivize


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
