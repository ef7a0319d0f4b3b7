"""Feature extraction: raw tokens -> token dicts -> EncodedSequences (CSR + offsets);
sentences -> TokenAttributes for parsers."""

# Each module is imported when one of its names is first used (see skstruct/__init__):
# a chain model's process never imports the parsers' arc features and their kernels.
import lazy_loader as _lazy

__getattr__, _, _ = _lazy.attach(
    __name__,
    submod_attrs={
        "_attributes": ["TokenAttributes"],
        "_encoded": ["EncodedSequences", "concat_ranges"],
        "_encoder": ["TokenDictEncoder"],
        "arc": ["ArcFeatures"],
        "constituent_global": ["ConstituentTreeFeatures"],
        "hmm": ["hmm_features"],
        "span_global": ["EntityFeatures"],
        "token": ["TokenFeatures", "word_shape"],
        "tree_global": ["DependencyTreeFeatures"],
        "tutorial": ["crfsuite_tutorial_features"],
    },
)

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


def __dir__():
    return list(__all__)
