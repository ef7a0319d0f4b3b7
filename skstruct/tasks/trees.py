"""Gold trees for the parsers: checks that name the sentence, and projectivisation."""

from numbers import Integral

import numpy as np


def split_trees(y, name="y"):
    """``(heads, deprels)``: per sentence the head lists, and the relation label lists or
    None when ``y`` holds bare heads. Pairs and bare heads must not be mixed."""
    labelled = None
    heads, deprels = [], []
    for i, tree in enumerate(y):
        sentence_heads, sentence_deprels = [], []
        for j, item in enumerate(tree):
            pair = isinstance(item, tuple | list)
            if labelled is None:
                labelled = pair
            if pair != labelled:
                raise ValueError(
                    f"{name}[{i}][{j}] = {item!r}: y mixes bare heads and (head, deprel) "
                    f"pairs; give every word the same form."
                )
            if pair:
                if len(item) != 2:
                    raise ValueError(f"{name}[{i}][{j}] = {item!r} is not a (head, deprel) pair.")
                sentence_heads.append(item[0])
                sentence_deprels.append(item[1])
            else:
                sentence_heads.append(item)
        heads.append(sentence_heads)
        deprels.append(sentence_deprels)
    return heads, (deprels if labelled else None)


def check_heads(y, name="y"):
    """Every word's head as one int32 array, after checking each sentence is a tree.

    ``y[i]`` lists the head of each word of sentence ``i`` (``0`` the root, ``k`` the
    ``k``-th word). Raises a ValueError naming the sentence and word for a head that is
    not an integer, out of range, the word itself, or part of a cycle.
    """
    flat = []
    for i, heads in enumerate(y):
        n = len(heads)
        for j, head in enumerate(heads):
            if isinstance(head, bool) or not isinstance(head, Integral | np.integer):
                raise ValueError(
                    f"{name}[{i}][{j}] = {head!r} is not a head: a parser's y holds one "
                    f"integer head per word (0 the root, k the k-th word)."
                )
            if not 0 <= head <= n:
                raise ValueError(
                    f"{name}[{i}][{j}]: head {head} is out of range for a sentence of {n} "
                    f"words (heads are 0..{n})."
                )
            if head == j + 1:
                raise ValueError(f"{name}[{i}][{j}]: word {j + 1} is its own head.")
        cycle = _cycle([-1, *heads])
        if cycle:
            raise ValueError(
                f"{name}[{i}] is not a tree: words {cycle} form a cycle (heads "
                f"{[int(heads[w - 1]) for w in cycle]})."
            )
        flat.extend(heads)
    return np.asarray(flat, dtype=np.int32)


def _cycle(heads):
    """The words of a cycle in ``heads`` (``heads[0]`` unused), or []."""
    state = [0] * len(heads)  # 0 new, 1 on the current path, 2 reaches the root
    for start in range(1, len(heads)):
        path, v = [], start
        while v != 0 and state[v] == 0:
            state[v] = 1
            path.append(v)
            v = heads[v]
        if v != 0 and state[v] == 1:
            return sorted(path[path.index(v) :])
        for w in path:
            state[w] = 2
    return []


def check_training_trees(y, decoder, name="y"):
    """``y`` as the decoder can learn from it: one root word if it requires one, and
    projective trees for a projective decoder (or lifted, with ``projectivize``)."""
    out = []
    for i, heads in enumerate(y):
        heads = [int(h) for h in heads]
        roots = [j for j, h in enumerate(heads) if h == 0]
        if decoder.single_root and len(roots) != 1:
            raise ValueError(
                f"{name}[{i}] has {len(roots)} words attached to the root (positions "
                f"{roots}); {type(decoder).__name__}(single_root=True) needs exactly one. "
                f"Use single_root=False to allow several."
            )
        if decoder.projective and not is_projective(heads):
            if not decoder.projectivize:
                decoder_name = type(decoder).__name__
                raise ValueError(
                    f"{name}[{i}] is not projective, so {decoder_name} can never predict it. "
                    f"Use {decoder_name}(projectivize=True) to lift its crossing arcs, or "
                    f"ChuLiuEdmonds() for non-projective parsing."
                )
            heads = projectivize(heads)
        out.append(heads)
    return out


def _dominates(heads, h, w):
    """Whether word ``h`` is an ancestor of (or is) ``w``; 1-based, ``heads`` 0-based list."""
    for _ in range(len(heads) + 1):  # bounded: never loops on a cycle
        if w == h:
            return True
        if w == 0:
            return False
        w = heads[w - 1]
    return False


def _nonprojective_arcs(heads):
    """Arcs ``(head, dependent)`` with a word in between that the head does not dominate."""
    arcs = []
    for d, h in enumerate(heads, start=1):
        lo, hi = min(h, d), max(h, d)
        if any(not _dominates(heads, h, w) for w in range(lo + 1, hi)):
            arcs.append((h, d))
    return arcs


def is_projective(heads):
    """Whether a tree (one head per word, 1-based, 0 the root) has no crossing arcs.

    Examples
    --------
    >>> is_projective([2, 0, 2]), is_projective([3, 4, 0, 3])
    (True, False)
    """
    return not _nonprojective_arcs(heads)


def projectivize(heads):
    """Lift non-projective arcs, shortest first, to the head's head until none is left.

    Examples
    --------
    >>> projectivize([3, 4, 0, 3])  # word 2's arc from 4 crosses 3 -> 1
    [3, 3, 0, 3]
    """
    heads = list(heads)
    while True:
        arcs = _nonprojective_arcs(heads)
        if not arcs:
            return heads
        h, d = min(arcs, key=lambda arc: (abs(arc[0] - arc[1]), arc[1]))
        heads[d - 1] = heads[h - 1]
