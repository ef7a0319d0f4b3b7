"""``_config.helper``: kernels that only kernels call, compiled without entry points."""

import numba
import numpy as np
import pytest
from numba.core import lowering

from skstruct._kernels import rows
from skstruct._kernels._config import helper, njit


@helper
def _twice(x):
    return 2 * x


@njit
def _twice_plus_one(x):
    return _twice(x) + 1


def _python_entry_points(compile_):
    """How many Python entry points (CPython wrappers) numba builds while ``compile_`` runs."""
    built = []
    original = lowering.Lower.create_cpython_wrapper

    def counted(self, *args, **kwargs):
        built.append(self.fndesc.qualname)
        return original(self, *args, **kwargs)

    lowering.Lower.create_cpython_wrapper = counted
    try:
        compile_()
    finally:
        lowering.Lower.create_cpython_wrapper = original
    return built


def test_a_helper_runs_inside_a_kernel_and_its_source_compiles_as_a_twin():
    assert _twice_plus_one(np.int64(3)) == 7
    assert njit(_twice.py_func)(np.int64(3)) == 6


def test_a_helper_is_compiled_without_a_python_entry_point():
    # the point of a helper: only the kernel that Python calls gets an entry point; an
    # njit callee gets one too (the control). Not cached, so that both compile here.
    @helper
    def inner(x):
        return x - 1.0

    @numba.njit
    def outer(x):
        return inner(x) * 2.0

    @numba.njit
    def plain_inner(x):
        return x - 1.0

    @numba.njit
    def plain_outer(x):
        return plain_inner(x) * 2.0

    built = _python_entry_points(lambda: outer(2.5))
    assert [name.rsplit(".", 1)[-1] for name in built] == ["outer"]
    built = _python_entry_points(lambda: plain_outer(2.5))
    assert sorted(name.rsplit(".", 1)[-1] for name in built) == ["plain_inner", "plain_outer"]
    assert outer(2.5) == plain_outer(2.5) == 3.0


def test_a_helper_called_from_python_raises_naming_it():
    # numba's function without an entry point would crash the interpreter: a clear error
    keys = np.zeros(4, dtype=np.int64)
    with pytest.raises(TypeError, match=r"skstruct\._kernels\.rows\.lower_bound is a helper"):
        rows.lower_bound((keys,), 0, 0)
    with pytest.raises(TypeError, match="_twice is a helper"):
        _twice(3)
