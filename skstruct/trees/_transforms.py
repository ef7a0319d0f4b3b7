"""The transforms a grammar is learnt on: Penn Treebank trees stripped of what no
parser predicts (empty elements, function tags), then unary chains collapsed and the
trees binarised with horizontal and vertical markovisation; and the way back.

``TreeTransform.inverse_transform(TreeTransform.transform(t))`` is ``normalize(t)``
exactly, for every tree (tested on the whole treebank sample): only what
:func:`normalize` strips is lost.
"""

from numbers import Integral

from sklearn.base import BaseEstimator, TransformerMixin

from ..utils._sklearn_compat import Interval
from ._tree import Tree

#: The Penn Treebank's empty elements (traces, null complementisers ...).
EMPTY = "-NONE-"
#: Characters of the labels the transforms write; phrase labels must not hold them.
_RESERVED = "@^+"
ROOT = "ROOT"


def normalize(tree):
    """``tree`` without empty elements (``-NONE-`` words, and phrases left with no word)
    and without function tags and indices on phrase labels (``NP-SBJ-1`` is ``NP``,
    ``NP=2`` is ``NP``; a label that starts with ``-`` is kept). None when nothing is
    left.

    Examples
    --------
    >>> t = Tree.fromstring("(S (NP-SBJ (-NONE- *)) (VP (VBD left)))")
    >>> print(normalize(t))
    (S (VP (VBD left)))
    """
    if tree.is_preterminal():
        return None if tree.label() == EMPTY else tree.copy()
    children = [c if isinstance(c, str) else normalize(c) for c in tree]
    children = [c for c in children if c is not None]
    if not children:
        return None
    return Tree(_base_label(tree.label()), children)


def _base_label(label):
    if label.startswith("-"):
        return label
    for i, char in enumerate(label):
        if char in "-=":
            return label[:i]
    return label


class TreeTransform(TransformerMixin, BaseEstimator):
    """Normalise, collapse unary chains and binarise trees (and undo it on output).

    ``transform``: :func:`normalize`; the root (the Penn Treebank's empty outer label)
    relabelled ``ROOT``; below it, every chain of phrases each the only child of the
    one above collapsed into one node labelled ``A+B`` (preterminals stay: a phrase
    over a single word keeps its unary rule to the tag); phrases annotated with their
    ``vertical - 1`` nearest ancestors (``NP^S``: parent annotation at ``vertical=2``);
    and phrases of more than two children right-factored into binary nodes labelled
    ``@A|B_C``, remembering the ``horizontal`` siblings generated last (``None``: all
    of them). ``inverse_transform`` undoes all but :func:`normalize`.

    Parameters
    ----------
    horizontal : int or None, default=1
        Horizontal markovisation: siblings an intermediate label remembers.
    vertical : int, default=2
        Vertical markovisation: 1 plain labels, 2 parent annotation, 3 grandparent.
    collapse_unary : bool, default=True
        Collapse unary chains of phrases into one node.

    Examples
    --------
    >>> t = Tree.fromstring("( (S (NP-SBJ (DT the) (NN dog)) (VP (VBZ barks)) (. .)) )")
    >>> binary = TreeTransform(horizontal=1, vertical=1).fit_transform([t])[0]
    >>> print(binary)
    (ROOT (S (NP (DT the) (NN dog)) (@S|NP (VP (VBZ barks)) (. .))))
    >>> print(TreeTransform().inverse_transform([binary])[0])
    ( (S (NP (DT the) (NN dog)) (VP (VBZ barks)) (. .)))
    """

    _parameter_constraints: dict = {
        "horizontal": [Interval(Integral, 0, None, closed="left"), None],
        "vertical": [Interval(Integral, 1, None, closed="left")],
        "collapse_unary": ["boolean"],
    }

    def __init__(self, horizontal=1, vertical=2, collapse_unary=True):
        self.horizontal = horizontal
        self.vertical = vertical
        self.collapse_unary = collapse_unary

    def fit(self, trees, y=None):
        """Check the parameters (nothing is learnt); returns self."""
        self._validate_params()
        return self

    def transform(self, trees):
        """The binarised trees (a list); a ValueError names a tree that cannot be."""
        self._validate_params()
        out = []
        for i, tree in enumerate(trees):
            if not isinstance(tree, Tree):
                raise TypeError(f"Example {i}: trees[{i}] is a {type(tree).__name__}, not a Tree.")
            normal = normalize(tree)
            if normal is None:
                raise ValueError(f"Example {i}: trees[{i}] has no word but empty elements.")
            _check_labels(normal, i)
            root = normal if normal.label() == "" else Tree("", [normal])
            if root.is_preterminal():
                raise ValueError(f"Example {i}: trees[{i}] is a single tagged word, no tree.")
            children = [self._binary(c, [ROOT]) if isinstance(c, Tree) else c for c in root]
            out.append(Tree(ROOT, self._factor(ROOT, children)))
        return out

    def inverse_transform(self, trees):
        """Trees as :func:`normalize` leaves them (the root's label empty, as the Penn
        Treebank has it) from binarised ones."""
        return [Tree("", [_undo(c) for c in _splice(tree)]) for tree in trees]

    def _binary(self, node, ancestors):
        if node.is_preterminal():
            return node.copy()
        label = node.label()
        children = list(node)
        if self.collapse_unary:
            while (
                len(children) == 1
                and isinstance(children[0], Tree)
                and not (children[0].is_preterminal())
            ):
                label = f"{label}+{children[0].label()}"
                children = list(children[0])
        base = label.split("+")[-1]  # what the children see as their parent
        annotated = label + "".join(f"^{a}" for a in ancestors[: self.vertical - 1])
        below = [base, *ancestors]
        kids = [self._binary(c, below) if isinstance(c, Tree) else c for c in children]
        return Tree(annotated, self._factor(annotated, kids))

    def _factor(self, label, kids):
        """Right-factored children: at most two, intermediate nodes labelled ``@...``."""
        if len(kids) <= 2:
            return kids
        done = []
        rest = kids
        node_children = []
        chain = node_children
        while len(rest) > 2:
            done.append(_plain(rest[0]))
            context = done if self.horizontal is None else done[len(done) - self.horizontal :]
            intermediate = Tree(f"@{label}|{'_'.join(context)}", [])
            chain.extend([rest[0], intermediate])
            chain = intermediate
            rest = rest[1:]
        chain.extend(rest)
        return node_children


def _plain(child):
    """A child's label as an intermediate label remembers it (no annotation)."""
    if isinstance(child, str):
        return child
    return child.label().split("^")[0]


def _check_labels(tree, i):
    for node in tree.subtrees():
        if node.is_preterminal():
            continue
        label = node.label()
        if any(char in label for char in _RESERVED):
            raise ValueError(
                f"Example {i}: trees[{i}] has a phrase labelled {label!r}; the transforms "
                f"write {_RESERVED!r} into labels and could not undo it."
            )


def _splice(node):
    """``node``'s children with intermediate (``@``) nodes replaced by their own."""
    out = []
    for child in node:
        if isinstance(child, Tree) and child.label().startswith("@"):
            out.extend(_splice(child))
        else:
            out.append(child)
    return out


def _undo(node):
    if not isinstance(node, Tree) or node.is_preterminal():
        return node.copy() if isinstance(node, Tree) else node
    labels = node.label().split("^")[0].split("+")
    children = [_undo(c) for c in _splice(node)]
    for label in reversed(labels):
        children = [Tree(label, children)]
    return children[0]
