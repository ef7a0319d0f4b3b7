"""CKY over a binary grammar with one layer of unary rules above every span (what
``skstruct.trees.TreeTransform`` makes of a treebank: unary chains collapsed into one
rule), and a root rule over the whole sentence.

A sentence is its words' tag symbols ``tags`` (n,). ``binary`` (R, 3) holds rules
``A -> B C`` as symbol ids, sorted by ``B``, with ``left_start`` (n_symbols + 1,) the
rows of each left child; ``unary`` (U, 2) rules ``A -> B``; ``root`` (n_symbols,) the
score of ``ROOT -> A`` (``-inf`` where there is no such rule). Scores are additive
(log-probabilities for a PCFG, ``w . phi`` for a discriminative model).

Charts: ``inner[i, j, A]`` the best score of ``A`` over words ``i..j-1`` built by a
binary rule (or ``A`` the tag of a one-word span), ``outer[i, j, A]`` the best with an
optional unary rule on top; backpointers say which rule and split.
"""

import numpy as np

from ._config import njit

NEG = -np.inf


@njit
def viterbi(tags, n_symbols, binary, binary_score, left_start, unary, unary_score, root):
    """The best tree's score and its backpointers: ``(score, top, split, rule, urule)``
    with ``top`` the symbol under ROOT (-1: no tree), ``split[i, j, A]`` and
    ``rule[i, j, A]`` the binary rule building ``inner[i, j, A]`` (-1 for a tag),
    ``urule[i, j, A]`` the unary rule giving ``outer[i, j, A]`` (-1: none, ``inner``)."""
    n = tags.shape[0]
    inner = np.full((n + 1, n + 1, n_symbols), NEG)
    outer = np.full((n + 1, n + 1, n_symbols), NEG)
    split = np.full((n + 1, n + 1, n_symbols), -1, dtype=np.int32)
    rule = np.full((n + 1, n + 1, n_symbols), -1, dtype=np.int32)
    urule = np.full((n + 1, n + 1, n_symbols), -1, dtype=np.int32)
    for i in range(n):
        inner[i, i + 1, tags[i]] = 0.0
        _unaries(inner, outer, urule, i, i + 1, unary, unary_score)
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length
            for k in range(i + 1, j):
                for b in range(n_symbols):
                    left = outer[i, k, b]
                    if left == NEG:
                        continue
                    for r in range(left_start[b], left_start[b + 1]):
                        right = outer[k, j, binary[r, 2]]
                        if right == NEG:
                            continue
                        a = binary[r, 0]
                        total = left + right + binary_score[r]
                        if total > inner[i, j, a]:  # strict: the first found wins ties
                            inner[i, j, a] = total
                            split[i, j, a] = k
                            rule[i, j, a] = r
            _unaries(inner, outer, urule, i, j, unary, unary_score)
    best, top = NEG, -1
    for a in range(n_symbols):
        total = outer[0, n, a] + root[a]
        if total > best:
            best, top = total, a
    return best, top, split, rule, urule


@njit
def _unaries(inner, outer, urule, i, j, unary, unary_score):
    """``outer[i, j]``: ``inner[i, j]``, or better by one unary rule over it."""
    for a in range(inner.shape[2]):
        outer[i, j, a] = inner[i, j, a]
    for u in range(unary.shape[0]):
        below = inner[i, j, unary[u, 1]]
        if below == NEG:
            continue
        total = below + unary_score[u]
        if total > outer[i, j, unary[u, 0]]:
            outer[i, j, unary[u, 0]] = total
            urule[i, j, unary[u, 0]] = u
