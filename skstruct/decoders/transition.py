"""Arc-standard transition parsing with beam search."""

from numbers import Integral

from ..utils._sklearn_compat import Interval
from ._transition_base import TransitionDecoder


class ArcStandard(TransitionDecoder):
    """Arc-standard transition parsing with beam search (Nivre 2004; Zhang & Clark 2008).

    Sentences are parsed left to right by SHIFT / LEFT-ARC / RIGHT-ARC actions scored
    from hashed features of the parser state (Zhang & Nivre 2011 style: words and POS
    of the stack and buffer tops, their leftmost and rightmost children, distance,
    valency). The search is inexact, so the learner's ``update`` can be any
    violation-fixing rule of Huang, Fayong & Guo (2012) — ``"early"``,
    ``"max_violation"``, ``"latest"``, ``"hybrid"`` — applied to action prefixes; the
    gold actions come from the static oracle. ``beam_size=1`` is greedy parsing.

    Parameters
    ----------
    beam_size : int, default=8
    projectivize : bool, default=False
        Train on non-projective gold trees by lifting their crossing arcs (see
        :class:`Eisner`); otherwise they are refused (no action sequence builds them).

    Notes
    -----
    Unlabelled parsing; the root gets exactly one word.

    References
    ----------
    J. Nivre (2004). Incrementality in deterministic dependency parsing. Workshop on
    Incremental Parsing. Y. Zhang and J. Nivre (2011). Transition-based dependency
    parsing with rich non-local features. ACL. L. Huang, S. Fayong and Y. Guo (2012).
    Structured perceptron with inexact search. NAACL.

    Examples
    --------
    >>> from skstruct import ArcStandard, StructuredPerceptron
    >>> X = [[{"form": "Dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]] * 3
    >>> parser = StructuredPerceptron(ArcStandard(beam_size=4), update="max_violation")
    >>> parser.fit(X, [[2, 0]] * 3).predict(X[:1])
    [[2, 0]]
    """

    kernel = "transition"
    _parameter_constraints: dict = {
        "beam_size": [Interval(Integral, 1, None, closed="left")],
        "projectivize": ["boolean"],
    }

    def __init__(self, beam_size=8, projectivize=False):
        self.beam_size = beam_size
        self.projectivize = projectivize
