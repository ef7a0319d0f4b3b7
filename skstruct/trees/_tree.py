"""Tree: a constituency tree (a label and its children, the leaves words), read from and
written to Penn Treebank brackets."""

import re

#: Characters that may not appear in a label or a word of a bracketed tree.
_SPECIAL = re.compile(r"[()\s]")
_TOKEN = re.compile(r"\(|\)|[^\s()]+")


class Tree(list):
    """A constituency tree: a label and a list of children, each a ``Tree`` or a word
    (a ``str`` leaf), as :class:`nltk.Tree` has them (a subset of its API, without the
    dependency). A preterminal is a tree whose one child is a word: its label is the
    word's part-of-speech tag.

    Parameters
    ----------
    label : str
    children : iterable of Tree or str, default=()

    Examples
    --------
    >>> t = Tree.fromstring("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))")
    >>> t.label(), t.leaves(), t.pos()[0]
    ('S', ['the', 'dog', 'barks'], ('the', 'DT'))
    >>> print(t)
    (S (NP (DT the) (NN dog)) (VP (VBZ barks)))
    >>> [(label, i, j) for label, i, j in t.spans()]
    [('S', 0, 3), ('NP', 0, 2), ('VP', 2, 3)]
    """

    def __init__(self, label, children=()):
        super().__init__(children)
        self._label = label

    def label(self):
        """The node's label."""
        return self._label

    def set_label(self, label):
        self._label = label

    def is_preterminal(self):
        """Whether the one child is a word (the label is its tag)."""
        return len(self) == 1 and isinstance(self[0], str)

    def leaves(self):
        """The words, left to right."""
        out = []
        for child in self:
            if isinstance(child, Tree):
                out.extend(child.leaves())
            else:
                out.append(child)
        return out

    def pos(self):
        """``(word, tag)`` of every word, left to right (the preterminals' labels)."""
        out = []
        for child in self:
            if isinstance(child, Tree):
                if child.is_preterminal():
                    out.append((child[0], child.label()))
                else:
                    out.extend(child.pos())
            else:
                out.append((child, self._label))
        return out

    def subtrees(self):
        """Every node, preorder (this one first)."""
        yield self
        for child in self:
            if isinstance(child, Tree):
                yield from child.subtrees()

    def height(self):
        """1 for a word's parent with word children only, one more a level."""
        return 1 + max((c.height() for c in self if isinstance(c, Tree)), default=0)

    def spans(self, preterminals=False):
        """``(label, start, end)`` of every constituent, preorder, over word positions
        (``end`` excluded); preterminals only with ``preterminals``."""
        out = []
        self._spans(0, out, preterminals)
        return out

    def _spans(self, start, out, preterminals):
        if self.is_preterminal() and not preterminals:
            return start + 1
        at = len(out)
        out.append(None)
        end = start
        for child in self:
            end = child._spans(end, out, preterminals) if isinstance(child, Tree) else end + 1
        out[at] = (self._label, start, end)
        return end

    def copy(self, deep=True):
        """A copy; ``deep``: of every subtree too."""
        if not deep:
            return Tree(self._label, self)
        return Tree(self._label, [c.copy() if isinstance(c, Tree) else c for c in self])

    def __eq__(self, other):
        if not isinstance(other, Tree):
            return NotImplemented
        return self._label == other._label and list.__eq__(self, other)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # mutable, like a list

    def __repr__(self):
        return f"Tree({self._label!r}, {list.__repr__(self)})"

    def __str__(self):
        return self.to_string()

    def to_string(self):
        """The tree in one line of Penn Treebank brackets."""
        parts = []
        for child in self:
            parts.append(child.to_string() if isinstance(child, Tree) else child)
        return f"({self._label} {' '.join(parts)})" if parts else f"({self._label})"

    @classmethod
    def fromstring(cls, text, *, where="tree"):
        """The tree of one bracketed string; a ValueError names what is wrong
        (``where`` says which tree) for unbalanced brackets, empty trees, or text
        after the tree.

        The Penn Treebank's unlabelled outer brackets, ``( (S ...) )``, give a tree
        labelled ``""``.

        Examples
        --------
        >>> Tree.fromstring("( (S (NN hi)) )").label()
        ''
        >>> Tree.fromstring("(S (NN hi)")
        Traceback (most recent call last):
        ...
        ValueError: tree: unbalanced brackets: 1 bracket left open at the end.
        """
        tokens = _TOKEN.findall(text)
        if not tokens:
            raise ValueError(f"{where}: empty: no bracketed tree.")
        tree, end = _parse(tokens, 0, where)
        if end != len(tokens):
            raise ValueError(
                f"{where}: text after the tree: {' '.join(tokens[end : end + 5])!r} "
                f"(unbalanced brackets, or two trees where one was expected)."
            )
        return tree


def _parse(tokens, i, where):
    """The tree starting at ``tokens[i]`` (an opening bracket) and where it ends."""
    if tokens[i] != "(":
        raise ValueError(f"{where}: expected '(' at the start, got {tokens[i]!r}.")
    stack = [Tree("")]
    i += 1
    if i < len(tokens) and tokens[i] not in "()":
        stack[0].set_label(tokens[i])
        i += 1
    while i < len(tokens):
        token = tokens[i]
        if token == "(":
            child = Tree("")
            if i + 1 < len(tokens) and tokens[i + 1] not in "()":
                child.set_label(tokens[i + 1])
                i += 1
            stack[-1].append(child)
            stack.append(child)
        elif token == ")":
            done = stack.pop()
            if not len(done):
                raise ValueError(
                    f"{where}: empty constituent ({done.label()}): a node needs children or a word."
                )
            if not stack:
                return done, i + 1
        else:
            stack[-1].append(token)
        i += 1
    raise ValueError(
        f"{where}: unbalanced brackets: {len(stack)} bracket{'s' * (len(stack) > 1)} left "
        f"open at the end."
    )


def check_label(label, what="label"):
    """Refuse a label or word that brackets could not hold."""
    if not isinstance(label, str) or not label or _SPECIAL.search(label):
        raise ValueError(f"{what} {label!r} cannot be written in brackets.")
    return label
