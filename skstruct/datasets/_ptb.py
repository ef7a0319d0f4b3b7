"""Reading and writing Penn Treebank bracketed trees (``.mrg`` files)."""

import io
import os

from ..trees import Tree

__all__ = ["load_ptb", "tagged_words", "write_ptb"]


def _blocks(text, name):
    """``(first line, text)`` of every top-level bracketed tree of ``text``."""
    depth, start, line, start_line = 0, None, 1, 1
    for i, char in enumerate(text):
        if char == "\n":
            line += 1
        elif char == "(":
            if depth == 0:
                start, start_line = i, line
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"{name}, line {line}: a ')' closes no open bracket.")
            if depth == 0:
                yield start_line, text[start : i + 1]
        elif depth == 0 and not char.isspace():
            raise ValueError(f"{name}, line {line}: {char!r} outside any tree.")
    if depth:
        raise ValueError(
            f"{name}: the tree starting on line {start_line} is not closed "
            f"({depth} bracket{'s' * (depth > 1)} open at the end)."
        )


def load_ptb(path):
    """The trees of a Penn Treebank bracketed file (one or more lines a tree; the
    outer brackets' empty label kept: ``( (S ...) )`` reads as a tree labelled ``""``).

    Parameters
    ----------
    path : str, path-like or text file object

    Returns
    -------
    list of Tree

    Raises
    ------
    ValueError
        Naming the line (and tree) of unbalanced brackets, an empty tree or text
        outside the trees.

    Examples
    --------
    >>> import io
    >>> trees = load_ptb(io.StringIO("( (S (NP (PRP It)) (VP (VBZ works)) (. .)) )\\n"))
    >>> trees[0].leaves()
    ['It', 'works', '.']
    """
    if isinstance(path, io.TextIOBase) or hasattr(path, "read"):
        text, name = path.read(), str(getattr(path, "name", "<stream>"))
    else:
        with open(path, encoding="utf-8") as handle:
            text, name = handle.read(), os.fspath(path)
    trees = []
    for line, block in _blocks(text, name):
        trees.append(Tree.fromstring(block, where=f"{name}, tree {len(trees)} (line {line})"))
    return trees


def write_ptb(path, trees):
    """Write ``trees`` to ``path``, one tree a line in Penn Treebank brackets (what
    :func:`load_ptb` and EVALB read).

    Parameters
    ----------
    path : str, path-like or text file object
    trees : iterable of Tree
    """
    lines = []
    for i, tree in enumerate(trees):
        if not isinstance(tree, Tree):
            raise TypeError(f"Example {i}: trees[{i}] is a {type(tree).__name__}, not a Tree.")
        lines.append(tree.to_string() + "\n")
    if hasattr(path, "write"):
        path.writelines(lines)
        return
    with open(path, "w", encoding="utf-8") as handle:
        handle.writelines(lines)


def tagged_words(tree):
    """A tree's words as token dicts ``{"form": word, "xpos": tag}``, empty elements
    (``-NONE-``) left out: what a parser reads.

    Examples
    --------
    >>> tagged_words(Tree.fromstring("(S (NP (-NONE- *)) (VP (VBD left)))"))
    [{'form': 'left', 'xpos': 'VBD'}]
    """
    return [{"form": word, "xpos": tag} for word, tag in tree.pos() if tag != "-NONE-"]
