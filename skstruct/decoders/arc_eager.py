"""Arc-eager transition parsing with beam search."""

from numbers import Integral

from ..utils._sklearn_compat import Interval
from ._transition_base import TransitionDecoder


class ArcEager(TransitionDecoder):
    """Arc-eager transition parsing with beam search (Nivre 2003, 2008; Zhang & Nivre 2011).

    Sentences are parsed left to right by SHIFT / LEFT-ARC / RIGHT-ARC / REDUCE actions:
    unlike arc-standard, a right dependent is attached as soon as it is read (before its
    own dependents), so decisions are made between the stack top and the next word.
    Actions are scored from hashed features of the parser state (Zhang & Nivre 2011's
    arc-eager set, unlabelled: words and POS of the stack top and the next three words,
    the stack top's head and children, the next word's leftmost child, distance,
    valency). Every sentence of ``n`` words takes exactly ``2 n`` actions (a word left
    without a head when the input is read takes the one below it on the stack), so the
    learner's ``update`` can be any violation-fixing rule of Huang, Fayong & Guo
    (2012) applied to action prefixes; the gold actions come from the static oracle.

    Parameters
    ----------
    beam_size : int, default=8
        Parser states kept per step; ``1`` is greedy parsing.
    projectivize : bool, default=False
        Train on non-projective gold trees by lifting their crossing arcs (see
        :class:`Eisner`); otherwise they are refused (no action sequence builds them).

    Notes
    -----
    Unlabelled parsing; the root gets exactly one word. On the PTB sample (beam 8,
    max-violation, 10 epochs) it parses as well as :class:`ArcStandard`.

    References
    ----------
    J. Nivre (2008). Algorithms for deterministic incremental dependency parsing.
    Computational Linguistics 34(4). Y. Zhang and J. Nivre (2011). Transition-based
    dependency parsing with rich non-local features. ACL.

    Examples
    --------
    >>> from skstruct import ArcEager, StructuredPerceptron
    >>> X = [[{"form": "Dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]] * 3
    >>> parser = StructuredPerceptron(ArcEager(beam_size=4), update="max_violation")
    >>> parser.fit(X, [[2, 0]] * 3).predict(X[:1])
    [[2, 0]]
    """

    kernel = "arc_eager"
    _parameter_constraints: dict = {
        "beam_size": [Interval(Integral, 1, None, closed="left")],
        "projectivize": ["boolean"],
    }

    def __init__(self, beam_size=8, projectivize=False):
        self.beam_size = beam_size
        self.projectivize = projectivize
