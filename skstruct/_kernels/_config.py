"""Decorators shared by all kernels: the one place numba options live."""

import functools

import numba

# cache=True keeps compiled code in __pycache__ so that only the first run of a
# fresh checkout pays for compilation; nogil lets joblib threads run kernels side by side.
njit = functools.partial(numba.njit, cache=True, nogil=True)
njit_parallel = functools.partial(numba.njit, cache=True, nogil=True, parallel=True)
