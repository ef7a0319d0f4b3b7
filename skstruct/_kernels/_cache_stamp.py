"""Compiled kernels that match their sources: a stamp of every kernel source beside them.

numba files each compiled kernel under the timestamp and size of the file that defines
it, and reloads it while that file is unchanged, even if a helper it calls from another
file has changed since: the caller then runs the helper's old code, compiled in. Editing
``_kernels/values.py`` (a helper of the chain kernels) and fitting again with the cache
kept gave the weights of the code before the edit
(``benchmarks/measurements/kernel_cache_stamp_2026-12-07/``); a helper whose arguments
changed can crash the interpreter. A git checkout meets this whenever a pull or a branch
switch changes a helper and not its callers.

So the cache directory holds a stamp, a digest of every kernel source of the package
(``*.py`` of ``_kernels``, names and contents). Where it is missing or names other
sources, the compiled kernels there are deleted before any is loaded, and the stamp is
written anew: a changed source costs one compile of each kernel used, never a stale one.
"""

import hashlib
import os
import tempfile
from pathlib import Path

#: The stamp's file name in the cache directory.
STAMP = "skstruct-kernel-sources.sha1"
#: The kernels' sources: this folder.
KERNELS = Path(__file__).resolve().parent
#: numba's files of compiled kernels: an index per function and its data.
COMPILED = ("*.nbi", "*.nbc")


def sources_digest(folder=KERNELS):
    """The SHA-1 of every ``*.py`` in ``folder`` (default: the kernels'), by name and
    content, in name order.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "kernel.py"), "w") as f:
    ...     _ = f.write("x = 1")
    >>> before = sources_digest(folder)
    >>> with open(os.path.join(folder, "kernel.py"), "w") as f:
    ...     _ = f.write("x = 2")
    >>> sources_digest(folder) == before
    False
    >>> import shutil; shutil.rmtree(folder)
    """
    digest = hashlib.sha1()
    for path in sorted(Path(folder).glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def drop_stale_kernels(cache_dir, digest):
    """Delete the compiled kernels in ``cache_dir`` unless its stamp says they were
    compiled from the sources whose digest is ``digest``; then stamp it with ``digest``.

    Returns whether anything was deleted. Processes that start together may both delete
    (a kernel one of them has just compiled is then compiled again, never loaded
    stale); numba reads a deleted entry as a missing one. Raises ``OSError`` where the
    directory cannot be cleared or stamped.
    """
    stamp = Path(cache_dir, STAMP)
    try:
        if stamp.read_text().strip() == digest:
            return False
    except FileNotFoundError:
        pass
    deleted = False
    for pattern in COMPILED:
        for path in Path(cache_dir).glob(pattern):
            try:
                path.unlink()
                deleted = True
            except FileNotFoundError:  # another process deleted it first
                pass
    Path(cache_dir).mkdir(parents=True, exist_ok=True)
    # written whole or not at all: a process that starts now reads the old stamp or the new
    handle, partial = tempfile.mkstemp(dir=cache_dir, prefix=f".{STAMP}.")
    try:
        with os.fdopen(handle, "w") as out:
            out.write(digest + "\n")
        os.replace(partial, stamp)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    return deleted
