"""Constituency trees: the :class:`Tree` type (read from and written to Penn Treebank
brackets) and the reversible transforms a grammar is learnt on."""

from ._grammar import Grammar
from ._heads import COLLINS_HEAD_RULES, head_child
from ._transforms import ROOT, TreeTransform, normalize
from ._tree import Tree

__all__ = [
    "COLLINS_HEAD_RULES",
    "ROOT",
    "Grammar",
    "Tree",
    "TreeTransform",
    "head_child",
    "normalize",
]
