"""Feature extraction: raw tokens -> token dicts -> EncodedSequences (CSR + offsets)."""

from ._encoded import EncodedSequences
from ._encoder import TokenDictEncoder
from .arc import ArcFeatures
from .hmm import hmm_features
from .token import TokenFeatures, word_shape
from .tutorial import crfsuite_tutorial_features

__all__ = [
    "ArcFeatures",
    "EncodedSequences",
    "TokenDictEncoder",
    "TokenFeatures",
    "crfsuite_tutorial_features",
    "hmm_features",
    "word_shape",
]
