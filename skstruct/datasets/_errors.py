"""The error raised for malformed CoNLL, CoNLL-X and CoNLL-U files."""

__all__ = ["ConllFormatError"]


class ConllFormatError(ValueError):
    """A CoNLL-style file is malformed at a known place.

    The message names the file, and the line and sentence when they are known, so
    that the error can be fixed in an editor, e.g.
    ``"data/train.txt, line 17: expected 3 columns, got 2: 'foo NN'"``.

    Parameters
    ----------
    path : str
        The file (or the ``name`` of the stream) that was being read.
    line : int or None
        1-based number of the offending line, or ``None`` when the problem is
        not on one line (for instance an empty file).
    reason : str
        What is wrong, without the location.
    sentence : int or None, default=None
        0-based index of the offending sentence among the sentences of the file,
        when it is known.

    Attributes
    ----------
    path : str
        The file that was being read.
    line : int or None
        1-based line number.
    reason : str
        What is wrong.
    sentence : int or None
        0-based sentence index.

    Examples
    --------
    >>> err = ConllFormatError("train.txt", 17, "expected 3 columns, got 2: 'foo NN'")
    >>> str(err)
    "train.txt, line 17: expected 3 columns, got 2: 'foo NN'"
    >>> isinstance(err, ValueError), err.line
    (True, 17)
    """

    def __init__(self, path, line, reason, sentence=None):
        self.path = str(path)
        self.line = line
        self.reason = reason
        self.sentence = sentence
        where = self.path
        if line is not None:
            where += f", line {line}"
        if sentence is not None:
            where += f" (sentence index {sentence})"
        super().__init__(f"{where}: {reason}")

    def __reduce__(self):
        # The default reduction would call cls(message); rebuild from the parts
        # instead so that the error survives pickling (joblib workers).
        return (type(self), (self.path, self.line, self.reason, self.sentence))


def shorten(text, width=80):
    """Repr of one input line for an error message, cut to about ``width`` characters."""
    text = text.rstrip("\r\n")
    if len(text) > width:
        text = text[: width - 3] + "..."
    return repr(text)
