"""Feature extraction: raw tokens -> token dicts -> EncodedSequences (CSR + offsets);
sentences -> TokenAttributes for parsers."""

# Each module is imported when one of its names is first used (see skstruct/__init__):
# a chain model's process never imports the parsers' arc features and their kernels.
import lazy_loader as _lazy

#: Public names, by the module that defines them.
_PUBLIC = {
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
}

__getattr__, _, _ = _lazy.attach(__name__, submod_attrs=_PUBLIC)

__all__ = sorted({*(name for names in _PUBLIC.values() for name in names)})


def __dir__():
    return list(__all__)
