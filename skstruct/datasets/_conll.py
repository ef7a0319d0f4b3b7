"""Reader for CoNLL-2000/2002/2003 column files (one token a line)."""

from numbers import Integral

from ._errors import ConllFormatError, shorten
from ._io import open_text

__all__ = ["load_conll"]

DOCSTART = "-DOCSTART-"


def load_conll(path, columns=None, label_column=-1, sep=None, encoding="utf-8"):
    """Load a CoNLL column file (CoNLL-2000 chunking, CoNLL-2002/2003 NER).

    The file holds one token a line, its fields separated by whitespace (or by
    ``sep``), and a blank line between sentences. ``-DOCSTART-`` lines (document
    boundaries in CoNLL-2003 and the Dutch CoNLL-2002 data) end the current
    sentence and are skipped, as are repeated blank lines. The last sentence
    need not be followed by a blank line.

    Parameters
    ----------
    path : str, path-like or text stream
        The file to read. An opened text stream (anything with ``read``, e.g.
        ``io.StringIO``) is read as is and not closed.
    columns : sequence of str, default=None
        Names of the columns, e.g. ``("word", "pos", "chunk")``. When given,
        every token line must have exactly ``len(columns)`` fields; when
        ``None``, every token line must have as many fields as the first one.
    label_column : int, str or None, default=-1
        The column holding the label: an index (negative counts from the end)
        or, when ``columns`` is given, a column name. ``None`` means the file
        has no labels: every field goes to ``X`` and ``y`` is ``None``.
    sep : str, default=None
        Field separator. ``None`` splits on runs of whitespace; with any other
        separator an empty field is an error.
    encoding : str, default="utf-8"
        Encoding of the file (ignored for streams). A byte-order mark (U+FEFF) at
        the start of a file or stream is dropped, whatever the encoding.

    Returns
    -------
    X : list of list of tuple of str
        One list per sentence, one tuple per token with the fields other than
        the label, in file order. Tokens are tuples even when one field is left.
    y : list of list of str or None
        The label of each token, or ``None`` when ``label_column`` is ``None``.

    Raises
    ------
    FileNotFoundError
        When ``path`` does not exist.
    ConllFormatError
        When a line has the wrong number of fields or an empty field, when the
        first token line has too few fields for ``label_column``, or when bytes are
        not valid ``encoding`` (the message names the file and the line), or when
        the file holds no sentence. A subclass of ValueError.
    ValueError
        When ``columns``, ``label_column`` or ``sep`` are invalid.

    See Also
    --------
    load_conllu : Read CoNLL-U and CoNLL-X dependency files.
    fetch_conll2000, fetch_conll2002 : Load (or download) the shared-task data.

    Notes
    -----
    Reading is a single pass with ``str.split``: the 211,727 tokens of the
    CoNLL-2000 training set load in about a fifth of a second.

    Examples
    --------
    >>> import io
    >>> from skstruct.datasets import load_conll
    >>> text = "He PRP B-NP\\nreckons VBZ B-VP\\n\\nIt PRP B-NP\\n"
    >>> X, y = load_conll(io.StringIO(text), columns=("word", "pos", "chunk"))
    >>> X
    [[('He', 'PRP'), ('reckons', 'VBZ')], [('It', 'PRP')]]
    >>> y
    [['B-NP', 'B-VP'], ['B-NP']]
    >>> X, y = load_conll(io.StringIO(text), columns=("word", "pos", "chunk"),
    ...                   label_column="pos")
    >>> X[0], y[0]
    ([('He', 'B-NP'), ('reckons', 'B-VP')], ['PRP', 'VBZ'])
    """
    columns = _check_columns(columns)
    if sep is not None and (not isinstance(sep, str) or sep == ""):
        raise ValueError(f"sep must be None or a non-empty string, got {sep!r}.")
    n_fields = None if columns is None else len(columns)
    label = None
    if n_fields is not None:
        label = _label_index(label_column, columns, n_fields)
    elif isinstance(label_column, str):
        raise ValueError(
            f"label_column={label_column!r} is a column name, which needs `columns`; "
            "pass columns=(...) or an integer index."
        )
    elif label_column is not None and not _is_int(label_column):
        raise ValueError(f"label_column must be an int, a str or None, got {label_column!r}.")

    with open_text(path, encoding) as (lines, name):
        X, y = _read(lines, name, sep, n_fields, label, label_column)
    if not X:
        raise ConllFormatError(name, None, "no sentence found (only blank and -DOCSTART- lines)")
    return X, (None if label_column is None else y)


def _read(lines, name, sep, n_fields, label, label_column):
    """The single pass over ``lines``; ``n_fields``/``label`` may be set by the first token."""
    X, y = [], []
    tokens, labels = [], []
    # Equal tokens share one tuple and equal labels one str: a corpus has far fewer
    # types than tokens (Brown: ~56,000 words, 1.16M tokens), and a tuple per token
    # plus its strs cost ~170 MB there. Both are immutable, so sharing is invisible.
    shared_tokens, shared_labels = {}, {}
    for lineno, line in enumerate(lines, 1):
        if sep is None:
            fields = line.split()
        else:
            stripped = line.rstrip("\r\n")
            fields = stripped.split(sep) if stripped.strip() else []
        if not fields or fields[0] == DOCSTART:
            if tokens:
                X.append(tokens)
                y.append(labels)
                tokens, labels = [], []
            continue
        if n_fields is None:
            n_fields = len(fields)
            label = _label_index(label_column, None, n_fields, name, lineno, line)
        if len(fields) != n_fields:
            raise ConllFormatError(
                name,
                lineno,
                f"expected {n_fields} columns, got {len(fields)}: {shorten(line)}",
            )
        if sep is not None and "" in fields:
            raise ConllFormatError(name, lineno, f"empty field {fields.index('')}: {shorten(line)}")
        if label is not None:
            value = fields.pop(label)
            labels.append(shared_labels.setdefault(value, value))
        token = tuple(fields)
        tokens.append(shared_tokens.setdefault(token, token))
    if tokens:
        X.append(tokens)
        y.append(labels)
    return X, y


def _is_int(value):
    return isinstance(value, Integral) and not isinstance(value, bool)


def _check_columns(columns):
    if columns is None:
        return None
    if isinstance(columns, str) or not all(isinstance(c, str) for c in columns):
        raise ValueError(
            f"columns must be a sequence of column names such as ('word', 'pos', 'chunk'), "
            f"got {columns!r}."
        )
    columns = tuple(columns)
    if not columns:
        raise ValueError("columns must name at least one column.")
    if len(set(columns)) != len(columns):
        raise ValueError(f"columns has duplicate names: {columns!r}.")
    return columns


def _label_index(label_column, columns, n_fields, name=None, lineno=None, line=None):
    """Non-negative index of the label column, or None; checks it against ``n_fields``.

    With ``name``, ``n_fields`` was read from ``line``, the first token line (number
    ``lineno``) of that file, and a mismatch is a ConllFormatError naming it (still a
    ValueError)."""
    if label_column is None:
        return None
    if isinstance(label_column, str):
        if label_column not in columns:
            raise ValueError(f"label_column={label_column!r} is not one of columns={columns!r}.")
        index = columns.index(label_column)
    elif _is_int(label_column):
        if not -n_fields <= label_column < n_fields:
            if name is not None:
                raise ConllFormatError(
                    name,
                    lineno,
                    f"label_column={label_column} is out of range for {n_fields} columns (the "
                    f"fields of the first token line): {shorten(line)}",
                )
            raise ValueError(f"label_column={label_column} is out of range for {n_fields} columns.")
        index = int(label_column) % n_fields
    else:
        raise ValueError(f"label_column must be an int, a str or None, got {label_column!r}.")
    if n_fields < 2:
        if name is not None:
            raise ConllFormatError(
                name,
                lineno,
                f"the first token line has one field, but a label column needs at least one "
                f"other column (use label_column=None to read unlabelled tokens): {shorten(line)}",
            )
        raise ValueError(
            "a label column needs at least one other column, but there is only one; use "
            "label_column=None to read unlabelled tokens."
        )
    return index
