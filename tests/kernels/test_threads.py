"""``_config.by_threads``: a kernel picks its serial twin or its parallel kernel by the
type of ``threads``, and compiles only the one it calls."""

import numba
import numpy as np
import pytest

from skstruct._kernels._config import by_threads, njit, njit_parallel


def _kernels():
    # fresh dispatchers (no disk cache) per test: their compiled signatures are this
    # test's alone
    @numba.njit
    def serial(x, n):
        return x + 1.0

    @numba.njit(parallel=True)
    def parallel(x, n):
        total = 0.0
        for _ in numba.prange(n):
            total += x
        return total / n + 1.0

    @numba.njit
    def caller(x, threads):
        add = by_threads(threads, serial, parallel)
        total = 0.0
        for _ in range(3):
            total += add(x, 4)
        return total

    return serial, parallel, caller


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="compiled signatures need the JIT")
def test_a_threaded_caller_compiles_only_the_parallel_kernel():
    serial, parallel, caller = _kernels()
    assert caller(1.5, np.int64(2)) == pytest.approx(7.5)
    assert serial.signatures == [] and len(parallel.signatures) == 1
    assert caller(1.5, None) == pytest.approx(7.5)
    assert len(serial.signatures) == 1 and len(parallel.signatures) == 1


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="compiled signatures need the JIT")
def test_a_one_thread_caller_compiles_only_the_serial_twin():
    serial, parallel, caller = _kernels()
    assert caller(1.5, None) == pytest.approx(7.5)
    assert len(serial.signatures) == 1 and parallel.signatures == []


def test_called_from_python_it_returns_the_kernel_for_the_threads():
    assert by_threads(None, njit, njit_parallel) is njit
    assert by_threads(4, njit, njit_parallel) is njit_parallel


def test_kernels_never_call_a_serial_twin_directly():
    # a kernel that calls `kernel_serial(...)` in one branch and `kernel(...)` in the other
    # compiles both wherever `threads` is an integer; a twin goes through by_threads (or
    # is picked in Python, as the engine picks swvp_decisions_serial)
    import re
    from pathlib import Path

    import skstruct._kernels

    calls = []
    for path in sorted(Path(skstruct._kernels.__file__).parent.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#")[0]
            if re.search(r"\b\w+_serial\(", code):
                calls.append(f"{path.name}:{number}: {line.strip()}")
    assert calls == []
