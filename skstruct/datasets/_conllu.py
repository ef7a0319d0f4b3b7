"""Reader for CoNLL-U and CoNLL-X dependency files, on top of the ``conllu`` package."""

import re

import conllu
from conllu.exceptions import ParseException
from conllu.parser import DEFAULT_FIELDS

from ._errors import ConllFormatError, shorten
from ._io import open_text

__all__ = ["load_conllu", "write_conllu"]

# The field separator conllu itself uses (conllu.parser.parse_line), so that our
# column count agrees with what it parses.
_FIELD_SEP = re.compile(r"\t| {2,}")
_GLOBAL_COLUMNS = "# global.columns ="


def load_conllu(path, labelled=False, encoding="utf-8"):
    """Load a CoNLL-U or CoNLL-X dependency treebank.

    Sentences are parsed by the ``conllu`` package; multiword-token ranges
    (``3-4``) and empty nodes (``5.1``) are dropped, so token ``i`` of a sentence
    has id ``i + 1`` and heads index the remaining tokens. Every sentence is
    checked: each token line has the expected number of columns (10, or those
    named by a CoNLL-U Plus ``# global.columns`` comment), ids run 1..n in order,
    and every head is an integer in ``[0, n]``.

    Parameters
    ----------
    path : str, path-like or text stream
        The file to read. An opened text stream (anything with ``read``, e.g.
        ``io.StringIO``) is read as is and not closed.
    labelled : bool, default=False
        If True, ``y`` holds ``(head, deprel)`` pairs instead of bare heads.
    encoding : str, default="utf-8"
        Encoding of the file (ignored for streams). A byte-order mark (U+FEFF) at
        the start of a file or stream is dropped, whatever the encoding.

    Returns
    -------
    X : list of list of dict
        One list per sentence, one plain ``dict`` per token with the fields as
        ``conllu`` parses them: ``id``, ``form``, ``lemma``, ``upos``, ``xpos``,
        ``feats``, ``head``, ``deprel``, ``deps``, ``misc``.
    y : list of list of int, or list of list of tuple (int, str)
        The head of each token (0 is the root), or ``(head, deprel)`` pairs when
        ``labelled`` is True.

    Raises
    ------
    FileNotFoundError
        When ``path`` does not exist.
    ConllFormatError
        When a token line has the wrong number of columns, ``conllu`` cannot
        parse it (a non-integer head, a bad id), ids are not 1..n in order, or a
        head is missing or out of range. The message names the file, the line
        and the 0-based sentence index. Also raised for a file with no sentence,
        and for bytes that are not valid ``encoding`` (naming the line).
        Blocks made only of comment lines are skipped.

    See Also
    --------
    load_conll : Read CoNLL-2000/2002/2003 column files.

    Notes
    -----
    CoNLL-X files have the same ten columns under other names; read by
    position, CPOSTAG lands in ``upos``, POSTAG in ``xpos``, PHEAD in ``deps``
    and PDEPREL in ``misc``. An unannotated field is ``None`` where ``conllu``
    has a parser for it (``xpos``, ``feats``, ``head``, ``deps``, ``misc``) and
    the string ``"_"`` elsewhere (``lemma``, ``upos``, ``deprel``).

    Each sentence is split off by this function and handed to
    :func:`conllu.parse_token_and_metadata` (what :func:`conllu.parse_incr`
    does per sentence), which lets errors name the exact line.

    Examples
    --------
    >>> import io
    >>> from skstruct.datasets import load_conllu
    >>> text = ("1\\tPierre\\t_\\tPROPN\\tNNP\\t_\\t2\\tnsubj\\t_\\t_\\n"
    ...         "2\\tsmiled\\t_\\tVERB\\tVBD\\t_\\t0\\troot\\t_\\t_\\n\\n")
    >>> X, y = load_conllu(io.StringIO(text))
    >>> [token["form"] for token in X[0]], y
    (['Pierre', 'smiled'], [[2, 0]])
    >>> load_conllu(io.StringIO(text), labelled=True)[1]
    [[(2, 'nsubj'), (0, 'root')]]
    """
    X, y = [], []
    with open_text(path, encoding) as (stream, name):
        fields = DEFAULT_FIELDS
        for comments, lines, linenos in sentence_blocks(stream):
            fields = columns_after(comments, fields)
            if not lines:  # a block of comments only, e.g. file-level metadata
                continue
            sentence = _ParsedSentence(name, len(X), lines, linenos, fields)
            tokens, heads = sentence.check()
            X.append(tokens)
            if labelled:
                y.append([(token["head"], token["deprel"]) for token in tokens])
            else:
                y.append(heads)
    if not X:
        raise ConllFormatError(name, None, "no sentence found (no token line)")
    return X, y


def columns_after(comments, fields):
    """The column names in force after a block's ``comments``: those of its CoNLL-U Plus
    ``# global.columns`` comment, else ``fields``, the names in force before it."""
    for comment in comments:
        if comment.startswith(_GLOBAL_COLUMNS):
            fields = tuple(c.lower() for c in comment.split("=", 1)[1].split())
    return fields


def split_fields(line):
    """The fields of a stripped token line, split as ``conllu`` splits them."""
    return _FIELD_SEP.split(line)


def sentence_blocks(stream):
    """Yield ``(comments, token_lines, line_numbers)`` per blank-line separated block.

    Blocks are split as ``conllu.parse_sentences`` splits them (a line that is
    empty after stripping ends a block); comment lines are those that start
    with ``#`` after stripping, as in ``conllu.parse_token_and_metadata``.
    """
    comments, lines, linenos = [], [], []
    for lineno, line in enumerate(stream, 1):
        stripped = line.strip()
        if not stripped:
            if comments or lines:
                yield comments, lines, linenos
                comments, lines, linenos = [], [], []
        elif stripped.startswith("#"):
            comments.append(stripped)
        else:
            lines.append(stripped)
            linenos.append(lineno)
    if comments or lines:
        yield comments, lines, linenos


class _ParsedSentence:
    """One block of token lines (at least one), parsed by conllu and validated.

    ``index`` is the 0-based index of the sentence in the returned ``X``.
    """

    def __init__(self, name, index, lines, linenos, fields):
        self.name = name
        self.index = index
        self.lines = lines
        self.linenos = linenos
        self.fields = fields

    def error(self, position, reason):
        """ConllFormatError at token line ``position`` of the block (None: its first line)."""
        if position is None:
            return ConllFormatError(self.name, self.linenos[0], reason, sentence=self.index)
        return ConllFormatError(
            self.name,
            self.linenos[position],
            f"{reason}: {shorten(self.lines[position])}",
            sentence=self.index,
        )

    def check(self):
        """Return ``(tokens, heads)`` of the regular tokens, or raise ConllFormatError."""
        n_fields = len(self.fields)
        for position, line in enumerate(self.lines):
            # Counting tabs is enough unless the line uses conllu's double-space separator.
            got = line.count("\t") + 1 if "  " not in line else len(_FIELD_SEP.split(line))
            if got != n_fields:
                raise self.error(position, f"expected {n_fields} columns, got {got}")
        parsed = self._parse()

        # Keep (position, token) of regular tokens: ids of ranges and empty
        # nodes are tuples such as (3, '-', 4) and (5, '.', 1).
        regular = [(p, t) for p, t in enumerate(parsed) if not isinstance(t["id"], tuple)]
        n_tokens = len(regular)
        if n_tokens == 0:
            raise self.error(None, "sentence has no regular token (only ranges or empty nodes)")
        tokens, heads = [], []
        for expected, (position, token) in enumerate(regular, 1):
            if token["id"] != expected:
                raise self.error(position, f"expected id {expected}, got {token['id']!r}")
            head = token.get("head")
            if not isinstance(head, int):
                raise self.error(position, f"head is not an integer ({head!r})")
            if not 0 <= head <= n_tokens:
                raise self.error(position, f"head {head} is out of range [0, {n_tokens}]")
            tokens.append(dict(token))
            heads.append(head)
        return tokens, heads

    def _parse(self):
        try:
            return conllu.parse_token_and_metadata("\n".join(self.lines), fields=self.fields)
        except ParseException as exc:
            # Re-parse line by line only on failure, to find the culprit.
            for position, line in enumerate(self.lines):
                try:
                    conllu.parse_token_and_metadata(line, fields=self.fields)
                except ParseException as line_exc:
                    raise self.error(position, f"conllu cannot parse it ({line_exc})") from exc
            raise self.error(None, f"conllu cannot parse the sentence ({exc})") from exc


def write_conllu(path, X, y, encoding="utf-8"):
    """Write sentences with their (predicted) trees as CoNLL-U (CoNLL-X has the same ten
    columns), through the ``conllu`` package.

    Parameters
    ----------
    path : str, path-like or text stream
        Where to write; a stream (anything with ``write``) is written to and left open.
    X : list of list of dict
        The sentences, as :func:`load_conllu` returns them; every field is written back
        as it is, except HEAD and DEPREL. Missing fields are written as ``_``.
    y : list of list of int, or of (int, str)
        Per word, the head (0 the root), or a ``(head, deprel)`` pair. With bare heads
        DEPREL is written as ``_`` (an old relation label would not match the new head).
    encoding : str, default="utf-8"

    Raises
    ------
    ValueError
        When ``X`` and ``y`` disagree in the number of sentences or of words (naming
        the sentence).

    Examples
    --------
    >>> import io
    >>> from skstruct.datasets import load_conllu, write_conllu
    >>> out = io.StringIO()
    >>> write_conllu(out, [[{"form": "Dogs", "xpos": "NNS"}, {"form": "bark"}]],
    ...              [[(2, "nsubj"), (0, "root")]])
    >>> for line in out.getvalue().splitlines():
    ...     print(line.split(chr(9)))  # tab-separated
    ['1', 'Dogs', '_', '_', 'NNS', '_', '2', 'nsubj', '_', '_']
    ['2', 'bark', '_', '_', '_', '_', '0', 'root', '_', '_']
    ['']
    """
    if len(X) != len(y):
        raise ValueError(f"X has {len(X)} sentences but y has {len(y)}.")
    blocks = []
    for i, (sentence, tree) in enumerate(zip(X, y)):
        if len(sentence) != len(tree):
            raise ValueError(f"X[{i}] has {len(sentence)} words but y[{i}] has {len(tree)}.")
        tokens = []
        for j, (token, item) in enumerate(zip(sentence, tree)):
            head, deprel = (item[0], item[1]) if isinstance(item, tuple | list) else (item, "_")
            fields = {name: token.get(name) for name in DEFAULT_FIELDS}
            fields["id"] = j + 1
            fields["head"], fields["deprel"] = int(head), deprel
            tokens.append(conllu.models.Token(fields))
        blocks.append(conllu.models.TokenList(tokens).serialize())
    text = "".join(blocks)
    if hasattr(path, "write"):
        path.write(text)
        return
    with open(path, "w", encoding=encoding) as stream:
        stream.write(text)
