"""Issue 33: a pytest plugin that logs numba's outermost compile events (seconds, kernel,
argument types, the test running) per pytest-xdist worker, to /tmp/cplug/log_<worker>.tsv.

Run the suite cold with it: ``rm -rf skstruct/_kernels/__pycache__``, then
``PYTHONPATH=<this folder> python -m pytest -p no:cacheprovider -p compile_log``.
"""

import os
import time

from numba.core import event

_current = {"test": "?"}
_stack = []
_out = None


class _L(event.Listener):
    def on_start(self, ev):
        _stack.append(time.perf_counter())

    def on_end(self, ev):
        t0 = _stack.pop()
        if _stack:  # nested compile: count only outermost
            return
        d = ev.data or {}
        disp = d.get("dispatcher")
        name = getattr(getattr(disp, "py_func", None), "__qualname__", "?")
        mod = getattr(getattr(disp, "py_func", None), "__module__", "?")
        _out.write(
            f"{time.perf_counter() - t0:.3f}\t{mod}.{name}\t{d.get('args')}\t{_current['test']}\n"
        )
        _out.flush()


def pytest_configure(config):
    global _out
    wid = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _out = open(f"/tmp/cplug/log_{wid}.tsv", "w")
    event.register("numba:compile", _L())


def pytest_runtest_setup(item):
    _current["test"] = item.nodeid
