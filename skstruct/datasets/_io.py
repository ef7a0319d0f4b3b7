"""Open a path or pass through an already opened text stream."""

import contextlib
import os

from ._errors import ConllFormatError

__all__ = ["open_text"]


@contextlib.contextmanager
def open_text(path, encoding):
    """Yield ``(stream, name)`` for a path-like or a text stream.

    A path is opened for reading with ``encoding`` and universal newlines and
    closed on exit; a stream (anything with ``read``) is yielded as is and left
    open, named by its ``name`` attribute when it has one. Bytes that are not valid
    ``encoding`` raise a :class:`ConllFormatError` naming the line (for a path).
    """
    if hasattr(path, "read"):
        name = str(getattr(path, "name", "<stream>"))
        try:
            yield path, name
        except UnicodeDecodeError as exc:
            raise _decode_error(name, None, exc) from exc
        return
    name = os.fspath(path)
    with open(name, encoding=encoding) as stream:
        try:
            yield stream, str(name)
        except UnicodeDecodeError as exc:
            raise _decode_error(str(name), _line_of_bad_bytes(name, encoding), exc) from exc


def _decode_error(name, line, exc):
    return ConllFormatError(
        name,
        line,
        f"{exc.object[exc.start : exc.end]!r} is not valid {exc.encoding} "
        f"({exc.reason}); pass the file's encoding, e.g. encoding='latin-1'",
    )


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
