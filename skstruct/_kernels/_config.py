"""Decorators shared by all kernels: the one place numba options live."""

import functools
import types

import numba

# cache=True keeps compiled code in __pycache__ so that only the first run of a
# fresh checkout pays for compilation; nogil lets joblib threads run kernels side by side.
# numba checks only the timestamp of the file that defines a cached function, not of the
# files it calls into: after editing a kernel called from another file, delete
# skstruct/_kernels/__pycache__ before measuring, or the callers run the old code.
njit = functools.partial(numba.njit, cache=True, nogil=True)
njit_parallel = functools.partial(numba.njit, cache=True, nogil=True, parallel=True)


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
