"""Feature extraction: raw tokens -> token dicts -> EncodedSequences (CSR + offsets);
sentences -> TokenAttributes for parsers."""

from ._attributes import TokenAttributes
from ._encoded import EncodedSequences, concat_ranges
from ._encoder import TokenDictEncoder
from .arc import ArcFeatures
from .constituent_global import ConstituentTreeFeatures
from .hmm import hmm_features
from .span_global import EntityFeatures
from .token import TokenFeatures, word_shape
from .tree_global import DependencyTreeFeatures
from .tutorial import crfsuite_tutorial_features

__all__ = [
    "ArcFeatures",
    "ConstituentTreeFeatures",
    "DependencyTreeFeatures",
    "EncodedSequences",
    "EntityFeatures",
    "TokenAttributes",
    "TokenDictEncoder",
    "TokenFeatures",
    "concat_ranges",
    "crfsuite_tutorial_features",
    "hmm_features",
    "word_shape",
]
