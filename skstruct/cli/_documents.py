"""Reading and writing the files the commands work on, kept whole.

A document is the text of a file as lines, parsed by the library's readers
(:func:`~skstruct.datasets.load_conll`, :func:`~skstruct.datasets.load_conllu`, so
that a malformed file gets the same error as in Python) and mapped back to the line
of every token, so that ``predict`` can write the input back with only the predicted
fields changed: comments, multiword-token ranges, empty nodes, ``-DOCSTART-`` lines,
blank lines and the column separator stay as they were.
"""

import io
import re
import sys

from ..datasets import load_conll, load_conllu
from ..datasets.text import DOCSTART, columns_after, read_text, sentence_blocks, split_fields
from ._common import ENCODING_ADVICE, CommandError

__all__ = ["ColumnDocument", "TreebankDocument", "detect_format", "read_text_of", "write_lines"]

FORMAT_NAMES = {"conll": "CoNLL columns", "conllu": "CoNLL-U/CoNLL-X"}
_CONLLU_ID = re.compile(r"\d+(-\d+|\.\d+)?")
_REGULAR_ID = re.compile(r"\d+")
_CONLLU_COLUMNS = ("id", "form", "lemma", "upos", "xpos", "feats", "head", "deprel", "deps", "misc")


def read_text_of(path, encoding):
    """The text of ``path`` (no byte-order mark); bad bytes name ``--encoding``."""
    return read_text(path, encoding, advice=ENCODING_ADVICE)


def detect_format(path, text):
    """``"conllu"`` for a ``.conllu`` file, or one whose first token line has ten
    tab-separated fields and a CoNLL-U ID (``1``, ``3-4``, ``5.1``) or that declares
    ``# global.columns``; else ``"conll"``.

    Lines starting with ``#`` are passed over when looking for the first token line:
    they are comments in CoNLL-U, and a ``#`` token line of a column file (the WSJ's
    pound sign) is followed by other token lines that decide.

    Examples
    --------
    >>> detect_format("x.txt", "# sent_id = 1\\n1\\tHi\\t_\\t_\\t_\\t_\\t0\\troot\\t_\\t_\\n")
    'conllu'
    >>> detect_format("x.txt", "-DOCSTART- -X- O O\\n\\nEU NNP B-NP B-ORG\\n")
    'conll'
    """
    if str(path).endswith(".conllu"):
        return "conllu"
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("# global.columns"):
            return "conllu"
        if not stripped or stripped.startswith("#"):
            continue
        fields = stripped.split("\t")
        return "conllu" if len(fields) == 10 and _CONLLU_ID.fullmatch(fields[0]) else "conll"
    return "conll"


def _lines(text):
    """The lines of ``text`` as the readers iterate over them (split at ``\\n`` only)."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def _named(text, path):
    """``text`` as a stream named ``path``, so that the readers' errors name the file."""
    stream = io.StringIO(text)
    stream.name = str(path)
    return stream


class ColumnDocument:
    """A CoNLL column file (CoNLL-2000 chunking, CoNLL-2002/2003 NER) kept whole.

    Parameters
    ----------
    path : str or path-like
        The file, for messages.
    text : str
        Its text.
    label_column : int or None, default=None
        Passed to :func:`~skstruct.datasets.load_conll`: ``tokens`` then lack that
        column and ``labels`` hold it; with None every column is in ``tokens``.

    Attributes
    ----------
    lines : list of str
        The file's lines, without line ends.
    tokens : list of list of tuple of str
    labels : list of list of str or None
    token_lines : list of list of int
        Per sentence, the 0-based index in ``lines`` of each token.
    sep : str
        The separator to add a column with: a tab when the first token line has one,
        else a space.

    Examples
    --------
    >>> doc = ColumnDocument("x.txt", "-DOCSTART- O\\n\\nEU\\tB-ORG\\nrejects\\tO\\n")
    >>> doc.tokens, doc.token_lines
    ([[('EU', 'B-ORG'), ('rejects', 'O')]], [[2, 3]])
    >>> doc.with_labels([["B-ORG", "O"]])
    ['-DOCSTART- O', '', 'EU\\tB-ORG\\tB-ORG', 'rejects\\tO\\tO']
    """

    def __init__(self, path, text, label_column=None):
        self.path = str(path)
        self.lines = _lines(text)
        self.tokens, self.labels = load_conll(_named(text, path), label_column=label_column)
        # Sentences end where load_conll ends them: a blank or -DOCSTART- line.
        self.token_lines, current = [], []
        for index, line in enumerate(self.lines):
            fields = line.split()
            if fields and fields[0] != DOCSTART:
                current.append(index)
            elif current:
                self.token_lines.append(current)
                current = []
        if current:
            self.token_lines.append(current)
        first = self.lines[self.token_lines[0][0]]
        self.sep = "\t" if "\t" in first.strip() else " "

    def with_labels(self, predicted):
        """The lines with the label ``predicted`` for each token appended."""
        lines = list(self.lines)
        for indices, labels in zip(self.token_lines, predicted):
            for index, label in zip(indices, labels):
                lines[index] = lines[index].rstrip() + self.sep + str(label)
        return lines


class TreebankDocument:
    """A CoNLL-U or CoNLL-X file kept whole, its regular tokens parsed by
    :func:`~skstruct.datasets.load_conllu`.

    Parameters
    ----------
    path : str or path-like
        The file, for messages.
    text : str
        Its text.
    unparsed : bool, default=False
        Accept an empty HEAD (``_``), as in a file to parse: it is read as 0.

    Attributes
    ----------
    lines : list of str
        The file's lines, without line ends.
    X : list of list of dict
        The regular tokens (no ranges, no empty nodes), as ``load_conllu`` returns them.
    trees : list of list of tuple (int, str)
        Their ``(head, deprel)`` pairs.
    token_lines : list of list of int
        Per sentence, the 0-based index in ``lines`` of each regular token.

    Examples
    --------
    >>> text = ("# text = Dogs bark\\n1-2\\tDogsbark\\t_\\t_\\t_\\t_\\t_\\t_\\t_\\t_\\n"
    ...         "1\\tDogs\\tdog\\tNOUN\\tNNS\\t_\\t2\\tnsubj\\t2:nsubj\\t_\\n"
    ...         "2\\tbark\\tbark\\tVERB\\tVBP\\t_\\t0\\troot\\t0:root\\t_\\n")
    >>> doc = TreebankDocument("x.conllu", text)
    >>> doc.token_lines, doc.column("upos")
    ([[2, 3]], [['NOUN', 'VERB']])
    >>> doc.set_trees([[1, 0]])
    >>> doc.lines[2].split("\\t")[6:]
    ['1', '_', '_', '_']
    """

    def __init__(self, path, text, unparsed=False):
        self.path = str(path)
        self.lines = _lines(text)
        if unparsed:
            text = "".join(_fill_head(line) + "\n" for line in self.lines)
        self.X, self.trees = load_conllu(_named(text, path), labelled=True)
        # Blocks and columns as load_conllu saw them; it has checked every token line.
        self.token_lines, self._columns = [], []
        columns = _CONLLU_COLUMNS
        for comments, lines, linenos in sentence_blocks(io.StringIO(text)):
            columns = columns_after(comments, columns)
            if not lines:
                continue
            ids = (split_fields(line)[0] for line in lines)
            regular = [n - 1 for id_, n in zip(ids, linenos) if _REGULAR_ID.fullmatch(id_)]
            self.token_lines.append(regular)
            self._columns.append(columns)

    def has(self, name):
        """Whether every sentence has column ``name`` (CoNLL-U Plus may leave it out)."""
        return all(name in columns for columns in self._columns)

    def column(self, name):
        """Per sentence, the text of column ``name`` of each regular token."""
        self._check(name)
        return [
            [self._fields(index)[columns.index(name)] for index in indices]
            for indices, columns in zip(self.token_lines, self._columns)
        ]

    def tokens(self, names):
        """Per sentence, a tuple of the texts of columns ``names`` for each token."""
        values = [self.column(name) for name in names]
        return [list(zip(*sentence)) for sentence in zip(*values)]

    def first_empty(self, name):
        """The 1-based line of the first regular token whose ``name`` is ``_``, or None."""
        for indices, values in zip(self.token_lines, self.column(name)):
            for index, value in zip(indices, values):
                if value == "_":
                    return index + 1
        return None

    def set_column(self, name, values):
        """Write ``values`` (per sentence, per token) into column ``name`` of the lines."""
        self._check(name)
        for indices, columns, sentence in zip(self.token_lines, self._columns, values):
            for index, value in zip(indices, sentence):
                self._set(index, {columns.index(name): str(value)})

    def set_trees(self, trees):
        """Write predicted heads (and relations) into the lines.

        ``trees`` holds, per sentence, a head or a ``(head, deprel)`` pair per word;
        DEPREL becomes ``_`` with bare heads (the old label would not fit the new head)
        and DEPS becomes ``_`` (the enhanced graph of the old heads would contradict them).
        """
        for indices, columns, tree in zip(self.token_lines, self._columns, trees):
            for index, item in zip(indices, tree):
                head, deprel = item if isinstance(item, tuple | list) else (item, "_")
                fields = {columns.index("head"): str(int(head)), columns.index("deprel"): deprel}
                if "deps" in columns:
                    fields[columns.index("deps")] = "_"
                self._set(index, fields)

    def _check(self, name):
        if not self.has(name):
            raise CommandError(f"{self.path} has no {name.upper()} column (# global.columns)")

    def _fields(self, index):
        return split_fields(self.lines[index].strip())

    def _set(self, index, changes):
        # Tabs between the fields, as CoNLL-U has them (conllu also accepts runs of spaces).
        fields = self._fields(index)
        for position, value in changes.items():
            fields[position] = value
        self.lines[index] = "\t".join(fields)


def _fill_head(line):
    """``line`` with an empty HEAD as 0: load_conllu wants integers, predict overwrites it."""
    fields = line.split("\t")
    if len(fields) == 10 and fields[6] == "_" and fields[0].isdigit():
        fields[6] = "0"
        return "\t".join(fields)
    return line


def write_lines(path, lines, encoding):
    """Write ``lines`` (without line ends) to ``path``, or to standard output when None."""
    text = "".join(line + "\n" for line in lines)
    if path is None:
        sys.stdout.write(text)
        return
    with open(path, "w", encoding=encoding) as stream:
        stream.write(text)


def format_mismatch(path, found, expected):
    """The error for a file of another format than the model reads."""
    return CommandError(
        f"{path} looks like {FORMAT_NAMES[found]}, but the model reads {FORMAT_NAMES[expected]} "
        f"files (--format {expected} to read it as such)"
    )
