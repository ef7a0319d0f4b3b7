"""Grammar: the symbols and rules of binarised trees (``TreeTransform``'s), with counts,
as arrays the CKY kernel takes, and trees read back from its backpointers."""

from collections import Counter

import numpy as np

from ._transforms import ROOT
from ._tree import Tree


class Grammar:
    """The rules of binarised trees: binary ``A -> B C``, unary ``A -> B`` (one layer
    above a span), the root's rules ``ROOT -> A``, and the tags (preterminal labels).

    Built by :meth:`count` from trees whose root is labelled ``ROOT`` (one child: a
    root rule; more: the root's own binary rules, its ``ROOT -> ROOT`` root rule
    meaning "the whole tree").

    Attributes
    ----------
    symbols : list of str
        Every label, tags included; ``index[label]`` its id.
    binary : ndarray (R, 3) int64
        ``A, B, C`` ids, sorted by ``B``; ``left_start`` (n_symbols + 1,) the rows of
        each left child.
    unary : ndarray (U, 2) int64
    binary_counts, unary_counts, root_counts : ndarray of float
        How often each rule (root rule per symbol) was seen.
    tags : set of str
    """

    def __init__(self, binary, unary, root, tags):
        labels = {x for rule in [*binary, *unary] for x in rule}
        labels |= set(root) | set(tags) | {ROOT}
        self.symbols = sorted(labels)
        self.index = {label: i for i, label in enumerate(self.symbols)}
        self.tags = set(tags)
        rows = sorted(binary.items(), key=lambda item: (self.index[item[0][1]], item[0]))
        self.binary = np.array([[self.index[x] for x in rule] for rule, _ in rows],
                               dtype=np.int64).reshape(-1, 3)  # fmt: skip
        self.binary_counts = np.array([count for _, count in rows], dtype=np.float64)
        self.left_start = np.searchsorted(self.binary[:, 1], np.arange(len(self.symbols) + 1))
        urows = sorted(unary.items())
        self.unary = np.array([[self.index[x] for x in rule] for rule, _ in urows],
                              dtype=np.int64).reshape(-1, 2)  # fmt: skip
        self.unary_counts = np.array([count for _, count in urows], dtype=np.float64)
        self.root_counts = np.zeros(len(self.symbols))
        for label, count in root.items():
            self.root_counts[self.index[label]] = count

    @classmethod
    def count(cls, trees):
        """The grammar of binarised ``trees`` (rooted at ``ROOT``), with counts."""
        binary, unary, root, tags = Counter(), Counter(), Counter(), set()
        for tree in trees:
            if tree.label() != ROOT:
                raise ValueError(f"a binarised tree is rooted at {ROOT!r}, not {tree.label()!r}")
            if len(tree) == 1:
                root[tree[0].label()] += 1
            else:
                root[ROOT] += 1
            for node in tree.subtrees():
                if node.is_preterminal():
                    tags.add(node.label())
                elif len(node) == 2:
                    binary[(node.label(), node[0].label(), node[1].label())] += 1
                elif node is not tree:
                    unary[(node.label(), node[0].label())] += 1
        return cls(binary, unary, root, tags)

    @property
    def n_symbols(self):
        return len(self.symbols)

    def log_probabilities(self):
        """``(binary, unary, root)`` log relative frequencies of each rule given its
        left-hand side (the root's rules: root rules and ``ROOT``'s binary rules
        together)."""
        totals = np.zeros(self.n_symbols)
        np.add.at(totals, self.binary[:, 0], self.binary_counts)
        np.add.at(totals, self.unary[:, 0], self.unary_counts)
        root_total = self.root_counts.sum() + (
            totals[self.index[ROOT]] - self.root_counts[self.index[ROOT]]
        )
        totals[self.index[ROOT]] = root_total
        with np.errstate(divide="ignore"):
            binary = np.log(self.binary_counts / totals[self.binary[:, 0]])
            unary = np.log(self.unary_counts / totals[self.unary[:, 0]])
            root = np.log(self.root_counts / root_total)
        # a whole tree built by ROOT's own binary rules: their probabilities say it all
        at = self.index[ROOT]
        root[at] = 0.0 if self.root_counts[at] else -np.inf
        return binary, unary, root

    def tree(self, words, tags, top, split, rule, urule):
        """The tree the backpointers of the CKY kernel hold, rooted at ``ROOT``."""
        n = len(words)

        def build(i, j, a, unary_allowed):
            if unary_allowed and urule[i, j, a] >= 0:
                below = self.unary[urule[i, j, a], 1]
                return Tree(self.symbols[a], [build(i, j, below, False)])
            if j - i == 1 and rule[i, j, a] < 0:
                return Tree(tags[i], [words[i]])
            r, k = rule[i, j, a], split[i, j, a]
            _, b, c = self.binary[r]
            return Tree(self.symbols[a], [build(i, k, b, True), build(k, j, c, True)])

        if self.symbols[top] == ROOT:
            return build(0, n, top, True)
        return Tree(ROOT, [build(0, n, top, True)])
