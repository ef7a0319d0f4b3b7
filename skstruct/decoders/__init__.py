"""How to search an output space: decoder objects (estimator parameters) and functions."""

from ._base import Capabilities, Decoder
from ._transition_base import TransitionDecoder
from .arc_eager import ArcEager
from .candidates import BestCandidate
from .chain import BeamSearch, Greedy, Viterbi, viterbi
from .cky import CKY
from .transition import ArcStandard
from .tree import ChuLiuEdmonds, Eisner

#: Every decoder by its command-line name (the CLI's ``--decoder`` and the model
#: files' registry read this table).
DECODERS = {
    "viterbi": Viterbi,
    "beam": BeamSearch,
    "greedy": Greedy,
    "eisner": Eisner,
    "chu-liu-edmonds": ChuLiuEdmonds,
    "arc-standard": ArcStandard,
    "arc-eager": ArcEager,
    "cky": CKY,
}

__all__ = [
    "CKY",
    "DECODERS",
    "ArcEager",
    "ArcStandard",
    "BeamSearch",
    "BestCandidate",
    "Capabilities",
    "ChuLiuEdmonds",
    "Decoder",
    "Eisner",
    "Greedy",
    "TransitionDecoder",
    "Viterbi",
    "viterbi",
]
