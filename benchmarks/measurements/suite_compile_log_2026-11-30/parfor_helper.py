"""How often numba compiles one skstruct helper (an overload of itself, see
``skstruct/_kernels/_config.py``) used by two serial kernels and one ``prange`` kernel:
the names of the functions compiled, in order, after each kernel's first call."""

import numba
import numpy as np
from numba.core import event

from skstruct._kernels._config import helper

compiled = []


class _Compiles(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__name__)


@helper
def doubled(a, i):
    return a[i] * 2.0


@numba.njit
def serial_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += doubled(a, i)
    return s


@numba.njit
def serial_sum_plus_one(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += doubled(a, i) + 1.0
    return s


@numba.njit(parallel=True)
def parallel_sum(a):
    s = 0.0
    for i in numba.prange(a.shape[0]):
        s += doubled(a, i)
    return s


if __name__ == "__main__":
    event.register("numba:compile", _Compiles())
    a = np.ones(5)
    for kernel in (serial_sum, serial_sum_plus_one, parallel_sum):
        kernel(a)
        print(f"after {kernel.py_func.__name__}: {compiled}")
