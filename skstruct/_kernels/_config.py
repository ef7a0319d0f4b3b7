"""Decorators shared by all kernels: the one place numba options live."""

import functools
import types
import warnings

import numba
import numba.extending
import numpy as np
from numba.core.caching import FunctionCache

from ._cache_stamp import drop_stale_kernels, sources_digest


class NoKernelCacheWarning(UserWarning):
    """No writable place for numba's disk cache: kernels compile in memory, every process."""


def _probe():  # pragma: no cover - never called: its file locates the cache
    pass


def kernel_cache_dir():
    """The directory numba keeps skstruct's compiled kernels in, or None when there is
    none (they are compiled in memory).

    ``skstruct/_kernels/__pycache__`` when the package directory is writable, else a
    directory under numba's per-user cache; ``NUMBA_CACHE_DIR`` overrides both. numba
    raises at decoration time when none is writable ("no locator available": a
    read-only install run by a user without a writable home); this asks the same
    question without raising.

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


def _disk_cache():
    """Whether compiled kernels go to disk: where numba can write, once the kernels
    compiled there from other sources are gone (``_cache_stamp``). Warns where not."""
    where = kernel_cache_dir()  # one probe of numba's locators
    if where is None:
        warnings.warn(
            "skstruct found no writable location for numba's cache (the package "
            "directory is read-only and there is no writable home directory), so its "
            "kernels are compiled in memory and compiled again in every new process. Set "
            "the environment variable NUMBA_CACHE_DIR to a writable directory to keep them.",
            NoKernelCacheWarning,
            stacklevel=3,
        )
        return False
    try:
        drop_stale_kernels(where, sources_digest())
    except OSError as exc:
        warnings.warn(
            f"skstruct could not clear the kernels compiled from other sources out of "
            f"numba's cache ({where}: {exc}), so its kernels are compiled in memory. Delete "
            "that directory, or set the environment variable NUMBA_CACHE_DIR to another "
            "writable one, to keep them.",
            NoKernelCacheWarning,
            stacklevel=3,
        )
        return False
    return True


#: Compiled kernels are kept on disk where numba can write, and only those compiled from
#: the kernels' sources as they are now.
CACHE = _disk_cache()

# cache=True keeps compiled code in __pycache__ so that only the first run of a
# fresh checkout pays for compilation; nogil lets joblib threads run kernels side by side.
# numba checks only the timestamp of the file that defines a cached function, not of the
# files it calls into: _disk_cache deletes them all when any kernel source changed.
njit = functools.partial(numba.njit, cache=CACHE, nogil=True, no_cfunc_wrapper=True)
njit_parallel = functools.partial(
    numba.njit, cache=CACHE, nogil=True, parallel=True, no_cfunc_wrapper=True
)

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


def by_threads(threads, serial, parallel):
    """The kernel to call for ``threads``: ``serial`` (a one-thread twin) when
    ``threads`` is None, else ``parallel``. Kernels call what it returns, with explicit
    arguments::

        decisions = by_threads(threads, viterbi_decisions_serial, viterbi_decisions)
        decisions(indptr, indices, ...)

    Inside a kernel the choice is made while numba types the caller (an overload on
    the type of ``threads``), so the caller compiles only the kernel it calls. An ``if
    threads is None:`` branch does that only for None: numba prunes a branch on an
    argument's type where the argument is None (or a literal), not where it is an
    integer, so a threaded minibatch epoch compiled every serial twin beside its
    parallel kernels (beam search's: 5.4 of its 23.1 s). ``serial`` and ``parallel``
    are ``njit`` kernels (dispatchers), not helpers.
    """
    return serial if threads is None else parallel


if not numba.config.DISABLE_JIT:

    @numba.extending.overload(by_threads)
    def _by_threads(threads, serial, parallel):
        if isinstance(threads, (numba.types.NoneType, numba.types.Omitted)):
            return lambda threads, serial, parallel: serial
        return lambda threads, serial, parallel: parallel


def helper(func):
    """A kernel that only other kernels call, compiled into its callers alone.

    numba gives every ``njit`` function it compiles an entry point for Python calls
    (and one for C), builds and optimises it, and links it into every kernel that calls
    the function; for the many small helpers that only kernels call, that was about a
    sixth of a cold fit's compile time (the CoNLL-2000 perceptron: 6.0 -> 5.0 s). A
    helper is instead an overload of itself (``numba.extending.overload``, as numba's
    own ``np.*`` functions are), compiled inside each caller's compilation and kept in
    the caller's cache entry. Called from Python, it raises a ``TypeError`` naming the
    kernel to call instead (numba's helpers without an entry point would crash the
    interpreter); its source stays reachable as ``.py_func``, so a test can compile
    it on its own (``njit(f.py_func)``). Under ``NUMBA_DISABLE_JIT=1`` it is the plain
    function, as every kernel is.
    """
    if numba.config.DISABLE_JIT:
        return func

    @functools.wraps(func)
    def called_from_python(*args, **kwargs):
        raise TypeError(
            f"{func.__module__}.{func.__qualname__} is a helper of skstruct's kernels and "
            "runs only inside them; call the kernel that uses it (or compile its source, "
            f"njit({func.__name__}.py_func), in a test)."
        )

    called_from_python.py_func = func

    def implementation(*args, **kwargs):  # every argument type: numba types the body
        return func

    numba.extending.overload(
        called_from_python,
        jit_options={"no_cpython_wrapper": True, "no_cfunc_wrapper": True},
        strict=False,
    )(implementation)
    return called_from_python
