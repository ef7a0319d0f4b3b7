"""Decorators shared by all kernels: the one place numba options live."""

import functools
import types
import warnings

import numba
import numpy as np
from numba.core.caching import FunctionCache


class NoKernelCacheWarning(UserWarning):
    """No writable place for numba's disk cache: kernels compile in memory, every process."""


def _probe():  # pragma: no cover - never called: its file locates the cache
    pass


def disk_cache_available():
    """Whether numba can keep this package's compiled kernels on disk.

    numba looks for a writable ``__pycache__`` beside the sources, then a per-user
    cache directory (``~/.cache/numba`` or ``NUMBA_CACHE_DIR``), and raises at
    decoration time when none is writable ("no locator available"): a read-only
    install run by a user without a writable home. This asks the same question
    without raising.
    """
    try:
        FunctionCache(_probe)
    except RuntimeError:
        return False
    return True


def kernel_cache_dir():
    """The directory numba keeps skstruct's compiled kernels in, or None when there is
    none (they are compiled in memory).

    ``skstruct/_kernels/__pycache__`` when the package directory is writable, else a
    directory under numba's per-user cache; ``NUMBA_CACHE_DIR`` overrides both.

    Returns
    -------
    str or None

    Examples
    --------
    >>> import skstruct
    >>> skstruct.kernel_cache_dir() is None or isinstance(skstruct.kernel_cache_dir(), str)
    True
    """
    try:
        return FunctionCache(_probe)._cache_path
    except RuntimeError:
        return None


#: Compiled kernels are kept on disk where numba can write (see disk_cache_available).
CACHE = disk_cache_available()
if not CACHE:
    warnings.warn(
        "skstruct found no writable location for numba's cache (the package directory "
        "is read-only and there is no writable home directory), so its kernels are "
        "compiled in memory and compiled again in every new process. Set the environment "
        "variable NUMBA_CACHE_DIR to a writable directory to keep them.",
        NoKernelCacheWarning,
        stacklevel=2,
    )

# cache=True keeps compiled code in __pycache__ so that only the first run of a
# fresh checkout pays for compilation; nogil lets joblib threads run kernels side by side.
# numba checks only the timestamp of the file that defines a cached function, not of the
# files it calls into: after editing a kernel called from another file, delete
# skstruct/_kernels/__pycache__ before measuring, or the callers run the old code.
njit = functools.partial(numba.njit, cache=CACHE, nogil=True)
njit_parallel = functools.partial(numba.njit, cache=CACHE, nogil=True, parallel=True)

# Flags and counts one kernel passes to another as numpy scalars, never as Python
# constants: numba types a constant argument as a literal (``Literal[bool](True)``) and
# compiles the callee once more for it, beside the copy that calls from Python get.
TRUE, FALSE = np.bool_(True), np.bool_(False)
ZERO, ONE = np.int64(0), np.int64(1)


def serial_twin(kernel):
    """The one-thread twin of an ``njit_parallel`` kernel (``prange`` runs as ``range``),
    for batches too small to be worth waking the thread pool.

    numba's disk cache files a compiled function under its qualified name and line,
    not its options: the same function jitted twice would share one cache entry, and
    whichever compiled first would serve both (a "parallel" kernel that runs on one
    thread). So the twin is a copy of the function under a name of its own. Under
    ``NUMBA_DISABLE_JIT=1`` the kernel is the plain function and is returned as is.
    """
    func = getattr(kernel, "py_func", None)
    if func is None:
        return kernel
    name = f"{func.__name__}_serial"
    code = func.__code__.replace(co_name=name, co_qualname=name)
    twin = types.FunctionType(code, func.__globals__, name, func.__defaults__, func.__closure__)
    twin.__module__, twin.__doc__ = func.__module__, func.__doc__
    return njit(twin)
