"""Open a path or pass through an already opened text stream."""

import contextlib
import os

__all__ = ["open_text"]


@contextlib.contextmanager
def open_text(path, encoding):
    """Yield ``(stream, name)`` for a path-like or a text stream.

    A path is opened for reading with ``encoding`` and universal newlines and
    closed on exit; a stream (anything with ``read``) is yielded as is and left
    open, named by its ``name`` attribute when it has one.
    """
    if hasattr(path, "read"):
        yield path, str(getattr(path, "name", "<stream>"))
        return
    name = os.fspath(path)
    with open(name, encoding=encoding) as stream:
        yield stream, str(name)
