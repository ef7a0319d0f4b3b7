"""Head children of constituents by Collins' (1999) head rules.

Written here because the rules are a small published table (Collins' thesis, appendix
A, as Bikel's and Stanford's parsers have them) and no maintained Python package
exposes them without a Java parser behind.
"""

from ._transforms import _base_label

#: Per phrase label: the search direction ("left": from the first child on, "right":
#: from the last) and the labels to look for, in priority order; each label is looked
#: for across all children before the next is tried. No match: the first child in
#: that direction.
COLLINS_HEAD_RULES = {
    "ADJP": ("left", ("NNS", "QP", "NN", "$", "ADVP", "JJ", "VBN", "VBG", "ADJP", "JJR", "NP",
                      "JJS", "DT", "FW", "RBR", "RBS", "SBAR", "RB")),
    "ADVP": ("right", ("RB", "RBR", "RBS", "FW", "ADVP", "TO", "CD", "JJR", "JJ", "IN", "NP",
                       "JJS", "NN")),
    "CONJP": ("right", ("CC", "RB", "IN")),
    "FRAG": ("right", ()),
    "INTJ": ("left", ()),
    "LST": ("right", ("LS", ":")),
    "NAC": ("left", ("NN", "NNS", "NNP", "NNPS", "NP", "NAC", "EX", "$", "CD", "QP", "PRP",
                     "VBG", "JJ", "JJS", "JJR", "ADJP", "FW")),
    "PP": ("right", ("IN", "TO", "VBG", "VBN", "RP", "FW")),
    "PRN": ("left", ()),
    "PRT": ("right", ("RP",)),
    "QP": ("left", ("$", "IN", "NNS", "NN", "JJ", "RB", "DT", "CD", "NCD", "QP", "JJR", "JJS")),
    "RRC": ("right", ("VP", "NP", "ADVP", "ADJP", "PP")),
    "S": ("left", ("TO", "IN", "VP", "S", "SBAR", "ADJP", "UCP", "NP")),
    "SBAR": ("left", ("WHNP", "WHPP", "WHADVP", "WHADJP", "IN", "DT", "S", "SQ", "SINV", "SBAR",
                      "FRAG")),
    "SBARQ": ("left", ("SQ", "S", "SINV", "SBARQ", "FRAG")),
    "SINV": ("left", ("VBZ", "VBD", "VBP", "VB", "MD", "VP", "S", "SINV", "ADJP", "NP")),
    "SQ": ("left", ("VBZ", "VBD", "VBP", "VB", "MD", "VP", "SQ")),
    "UCP": ("right", ()),
    "VP": ("left", ("TO", "VBD", "VBN", "MD", "VBZ", "VB", "VBG", "VBP", "VP", "ADJP", "NN",
                    "NNS", "NP")),
    "WHADJP": ("left", ("CC", "WRB", "JJ", "ADJP")),
    "WHADVP": ("right", ("CC", "WRB")),
    "WHNP": ("left", ("WDT", "WP", "WP$", "WHADJP", "WHPP", "WHNP")),
    "WHPP": ("right", ("IN", "TO", "FW")),
}  # fmt: skip

#: Collins' special rule for noun phrases: (direction, labels) tried in turn, each
#: looking for any of its labels (not one label at a time).
_NP_RULES = (
    ("right", frozenset({"NN", "NNP", "NNPS", "NNS", "NX", "POS", "JJR"})),
    ("left", frozenset({"NP"})),
    ("right", frozenset({"$", "ADJP", "PRN"})),
    ("right", frozenset({"CD"})),
    ("right", frozenset({"JJ", "JJS", "RB", "QP"})),
)


def head_child(label, children):
    """The index of the head child of a constituent labelled ``label`` whose children
    are labelled ``children`` (phrase labels, or tags of words), by Collins' rules;
    function tags (``NP-SBJ``) are ignored.

    Parameters
    ----------
    label : str
    children : sequence of str

    Returns
    -------
    int

    Examples
    --------
    >>> head_child("VP", ["VBD", "NP", "PP"]), head_child("NP", ["DT", "JJ", "NN", "PP"])
    (0, 2)
    >>> head_child("PP", ["IN", "NP"]), head_child("NP", ["NP", "POS"])
    (0, 1)
    """
    if not children:
        raise ValueError(f"A constituent {label!r} without children has no head.")
    base = [_base_label(c) for c in children]
    label = _base_label(label)
    if label in ("NP", "NX", "NML"):
        if base[-1] == "POS":
            return len(base) - 1
        for direction, wanted in _NP_RULES:
            for i in _order(len(base), direction):
                if base[i] in wanted:
                    return i
        return len(base) - 1
    direction, priorities = COLLINS_HEAD_RULES.get(label, ("left", ()))
    for wanted in priorities:
        for i in _order(len(base), direction):
            if base[i] == wanted:
                return i
    return 0 if direction == "left" else len(base) - 1


def _order(n, direction):
    return range(n) if direction == "left" else range(n - 1, -1, -1)
