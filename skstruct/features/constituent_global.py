"""ConstituentTreeFeatures: global features of a whole phrase-structure tree, for
reranking (a subset of Charniak & Johnson's 2005 feature set).

A CKY parser scores a tree rule by rule, each rule seeing its own span; a reranker reads
the whole tree, so it can count what no such dynamic program holds: rules with their
grandparents, lexical heads and their dependents, how heavy a constituent is and how
far it ends from the sentence's end, how right-branching the tree is, and whether
co-ordinated phrases are alike.
"""

from collections import Counter
from itertools import pairwise

from sklearn.base import BaseEstimator

from ..trees import Tree, head_child

__all__ = ["ConstituentTreeFeatures"]

#: Tags read as punctuation: those EVALB's COLLINS.prm deletes, brackets and the
#: currency and number signs.
_PUNCTUATION = frozenset({",", ":", "``", "''", ".", "-LRB-", "-RRB-", "#", "$"})


def _length_bin(length):
    """Charniak & Johnson's length bins: 1, 2, 3, 4, 5-6, 7-10, 11+ ."""
    if length <= 4:
        return str(length)
    return "5-6" if length <= 6 else "7-10" if length <= 10 else "11+"


class _Node:
    """A constituent as the features read it: label, span, children, head word."""

    __slots__ = ("children", "end", "head", "label", "start")

    def __init__(self, label, start, end, children, head):
        self.label, self.start, self.end = label, start, end
        self.children, self.head = children, head


class ConstituentTreeFeatures(BaseEstimator):
    """Global features of a constituency tree: what :class:`~skstruct.NBestReranker`
    reads of each candidate tree a ``CKY`` parser lists.

    The feature classes are a subset of Charniak & Johnson's (2005), each a count of
    one configuration of the tree:

    - ``rule``: a constituent's label with its children's labels, alone, with its
      parent's label (``rule^``) and with its head word's tag (``hrule``);
    - ``dep``: a head-to-head dependency: the constituent's label, its head tag, a
      non-head child's label and head tag and its side; ``depw`` the same with the
      head word (lowercased) in place of its tag;
    - ``ngram``: two neighbouring children with their parent's label;
    - ``heavy``: a constituent's label with its length, its distance to the sentence's
      end (binned) and whether punctuation follows it;
    - ``edge``: a label with its length and the tags just outside and at its edges;
      ``edgew`` with its first and last words;
    - ``word``: a word (lowercased) with the labels of its constituent and of that
      one's parent;
    - ``rbranch``: the nodes on the tree's rightmost branch, and off it (binned);
    - ``copar``: co-ordination parallelism: the labels of the phrases beside a
      ``CC`` and whether they match in label, length and children's labels;
    - ``size``: the number of constituents per word (binned), which moves
      precision against recall.

    Heads are found by Collins' head rules (:func:`~skstruct.trees.head_child`).

    Parameters
    ----------
    words : bool, default=True
        Also the lexical classes (``depw``, ``edgew``, ``word``).

    Examples
    --------
    >>> from skstruct.trees import Tree
    >>> tree = Tree.fromstring("( (S (NP (DT the) (NN dog)) (VP (VBZ barks))) )")
    >>> features = ConstituentTreeFeatures()(tree.pos(), tree)
    >>> features["rule=S>NP VP"], features["dep=S|VBZ|NP|NN|L"], features["word=dog|NP|S"]
    (1.0, 1.0, 1.0)
    """

    _parameter_constraints: dict = {"words": ["boolean"]}

    def __init__(self, words=True):
        self.words = words

    def __call__(self, sentence, tree):
        """The features of ``tree`` over ``sentence``: a dict of counts.

        Parameters
        ----------
        sentence : list
            The sentence's tokens (the tree's own words and tags are read).
        tree : Tree
            A tree of the sentence, as a ``CKY`` parser predicts it (an empty root
            label over the top constituent).

        Returns
        -------
        dict of str to float
        """
        if not isinstance(tree, Tree):
            raise TypeError(f"ConstituentTreeFeatures reads Trees, got {type(tree).__name__}.")
        words, tags = [], []
        top = self._build(tree, words, tags)
        if len(words) != len(sentence):
            raise ValueError(
                f"A tree of {len(words)} words over a sentence of {len(sentence)} words."
            )
        lower = [w.lower() for w in words]
        counts = Counter()
        n_nodes = self._walk(top, "-", tags, lower, counts)
        n = len(words)
        counts[f"size={min(int(4 * n_nodes / n), 8)}"] += 1
        on, off = self._right_branch(top, tags)
        counts[f"rbranch={_length_bin(on)}"] += 1
        counts[f"rbranch_off={_length_bin(off)}"] += 1
        return {key: float(value) for key, value in counts.items()}

    def _build(self, node, words, tags):
        """The :class:`_Node` of ``node`` (its words and tags appended)."""
        if len(node) == 1 and isinstance(node[0], str):
            words.append(node[0])
            tags.append(node.label())
            i = len(words) - 1
            return _Node(node.label(), i, i + 1, None, i)
        start = len(words)
        children = [self._build(child, words, tags) for child in node]
        label = node.label() or "TOP"
        if label == "TOP" and len(children) == 1:
            return children[0]
        head = children[head_child(label, [c.label for c in children])].head
        return _Node(label, start, len(words), children, head)

    def _walk(self, node, parent, tags, lower, counts):
        """Count the features of ``node`` and the constituents under it; returns how
        many constituents that is."""
        if node.children is None:
            return 0
        label, kids = node.label, node.children
        n = len(tags)
        labels = " ".join(c.label for c in kids)
        head_tag = tags[node.head]
        counts[f"rule={label}>{labels}"] += 1
        counts[f"rule^={parent}|{label}>{labels}"] += 1
        counts[f"hrule={label}>{labels}|{head_tag}"] += 1
        length = _length_bin(node.end - node.start)
        before = tags[node.start - 1] if node.start > 0 else "<s>"
        after = tags[node.end] if node.end < n else "</s>"
        punct = "P" if after in _PUNCTUATION else "-"
        counts[f"heavy={label}|{length}|{_length_bin(n - node.end)}|{punct}"] += 1
        counts[f"edge={label}|{length}|{before}|{tags[node.start]}"] += 1
        counts[f"edge={label}|{length}|{tags[node.end - 1]}|{after}|R"] += 1
        if self.words:
            counts[f"edgew={label}|{lower[node.start]}"] += 1
            counts[f"edgew={label}|{lower[node.end - 1]}|R"] += 1
        for a, b in pairwise(kids):
            counts[f"ngram={label}|{a.label}|{b.label}"] += 1
        side = "L"
        for child in kids:
            if child.head == node.head:
                side = "R"
                continue
            counts[f"dep={label}|{head_tag}|{child.label}|{tags[child.head]}|{side}"] += 1
            if self.words:
                counts[f"depw={label}|{lower[node.head]}|{child.label}|{tags[child.head]}"] += 1
        for c in range(1, len(kids) - 1):
            if kids[c].label == "CC":
                self._parallel(label, kids[c - 1], kids[c + 1], counts)
        n_nodes = 1
        for child in kids:
            if child.children is None:
                if self.words:
                    counts[f"word={lower[child.start]}|{label}|{parent}"] += 1
            else:
                n_nodes += self._walk(child, label, tags, lower, counts)
        return n_nodes

    @staticmethod
    def _parallel(label, left, right, counts):
        """Co-ordination parallelism of the conjuncts ``left`` and ``right``."""
        same = left.label == right.label
        counts[f"copar={label}|{left.label}|{right.label}"] += 1
        longer = max(left.end - left.start, right.end - right.start)
        shorter = min(left.end - left.start, right.end - right.start)
        counts[f"copar_len={same}|{_length_bin(longer - shorter)}"] += 1
        if same and left.children is not None and right.children is not None:
            alike = [c.label for c in left.children] == [c.label for c in right.children]
            counts[f"copar_kids={label}|{alike}"] += 1

    @staticmethod
    def _right_branch(top, tags):
        """Nodes on the path from the top to the last word that is no punctuation, and
        the nodes off it."""
        last = max((i for i, t in enumerate(tags) if t not in _PUNCTUATION), default=len(tags) - 1)
        on = total = 0
        stack = [(top, True)]
        while stack:
            node, on_path = stack.pop()
            if node.children is None:
                continue
            total += 1
            on += on_path
            for child in node.children:
                stack.append((child, on_path and child.start <= last < child.end))
        return on, total - on
