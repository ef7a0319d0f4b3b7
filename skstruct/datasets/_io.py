"""Open a path or pass through an already opened text stream, without a byte-order mark."""

import codecs
import contextlib
import itertools
import os

from ._errors import ConllFormatError

__all__ = ["BOM", "open_text", "read_text"]

#: U+FEFF, the byte-order mark a Windows editor may put at the start of a UTF-8 file.
BOM = "\ufeff"
#: How the Python readers tell a user to pass an encoding; ``{}`` is the suggestion.
PYTHON_ENCODING_ADVICE = "pass the file's encoding, e.g. encoding={!r}"


@contextlib.contextmanager
def open_text(path, encoding, advice=PYTHON_ENCODING_ADVICE):
    """Yield ``(lines, name)`` for a path-like or a text stream.

    A path is opened for reading with ``encoding`` and universal newlines and
    closed on exit; a stream (anything with ``read``) is read as is and left
    open, named by its ``name`` attribute when it has one. ``lines`` iterates over
    the lines, the first one without a leading byte-order mark (U+FEFF): decoding
    UTF-8 keeps the mark as a character, which would otherwise become part of the
    first word or comment. Bytes that are not valid ``encoding`` raise a
    :class:`ConllFormatError` naming the line (for a path) and ending with
    ``advice`` filled in with an encoding to try.

    Examples
    --------
    >>> import io
    >>> with open_text(io.StringIO("\\ufeffHe PRP\\n"), "utf-8") as (lines, name):
    ...     list(lines), name
    (['He PRP\\n'], '<stream>')
    """
    if hasattr(path, "read"):
        name = str(getattr(path, "name", "<stream>"))
        try:
            yield _without_bom(path), name
        except UnicodeDecodeError as exc:
            raise _decode_error(name, None, exc, advice) from exc
        return
    name = os.fspath(path)
    with open(name, encoding=encoding) as stream:
        try:
            yield _without_bom(stream), str(name)
        except UnicodeDecodeError as exc:
            line = _line_of_bad_bytes(name, encoding)
            raise _decode_error(str(name), line, exc, advice) from exc


def read_text(path, encoding, advice=PYTHON_ENCODING_ADVICE):
    """The whole text of a path or stream as :func:`open_text` reads it.

    Examples
    --------
    >>> import io
    >>> read_text(io.StringIO("\\ufeff# sent_id = 1\\n"), "utf-8")
    '# sent_id = 1\\n'
    """
    with open_text(path, encoding, advice) as (lines, _name):
        return "".join(lines)


def _without_bom(stream):
    # Only the first line is looked at; the rest is chained on in C, so that reading
    # costs no Python call per line.
    first = next(iter(stream), "")
    if first.startswith(BOM):
        first = first[1:]
    return itertools.chain((first,), stream)


def _decode_error(name, line, exc, advice):
    return ConllFormatError(
        name,
        line,
        f"{exc.object[exc.start : exc.end]!r} is not valid {exc.encoding} "
        f"({exc.reason}); {advice.format(_suggestion(exc.encoding))}",
    )


def _suggestion(encoding):
    """An encoding worth trying when ``encoding`` fails: UTF-8, else Latin-1 (which
    decodes any byte, so that the file can at least be read and looked at)."""
    try:
        failed = codecs.lookup(encoding).name
    except LookupError:
        failed = encoding
    return "latin-1" if failed.startswith("utf") else "utf-8"


def _line_of_bad_bytes(path, encoding):
    """1-based line (universal newlines) of the first byte ``encoding`` cannot decode."""
    with open(path, "rb") as raw:
        data = raw.read()
    try:
        data.decode(encoding)
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode(encoding, errors="replace")
        return before.count("\n") + before.count("\r") - before.count("\r\n") + 1
    return None
