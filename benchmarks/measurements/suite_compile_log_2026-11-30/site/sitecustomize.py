"""Logs every numba compile of every Python process started with this folder on
``PYTHONPATH`` and ``COMPILE_LOG_DIR`` set: the pytest-xdist workers, the suite's
warm-up processes, notebook kernels, ray workers.

One JSON line per compile, in ``$COMPILE_LOG_DIR/<pid>.jsonl``: the kernel, its
argument types, the seconds, the nesting depth (1: called from Python), the test
running (``PYTEST_CURRENT_TEST``), the xdist worker and the process's command line.
The listener is registered once numba's dispatcher module has been imported, so
processes that never import numba pay nothing.
"""

import importlib.abc
import importlib.util
import json
import os
import sys
import time

_DIR = os.environ.get("COMPILE_LOG_DIR")


def _register():
    from numba.core import event

    depth = [0]
    path = os.path.join(_DIR, f"{os.getpid()}.jsonl")
    argv = " ".join(sys.argv)[:200]

    class Compiles(event.Listener):
        def on_start(self, ev):
            depth[0] += 1
            ev.data["started"], ev.data["depth"] = time.perf_counter(), depth[0]

        def on_end(self, ev):
            depth[0] -= 1
            func = ev.data["dispatcher"].py_func
            record = {
                "k": f"{func.__module__}.{func.__qualname__}",
                "a": str(ev.data.get("args")),
                "s": time.perf_counter() - ev.data["started"],
                "d": ev.data["depth"],
                "t": os.environ.get("PYTEST_CURRENT_TEST", ""),
                "w": os.environ.get("PYTEST_XDIST_WORKER", ""),
                "argv": argv,
            }
            with open(path, "a") as log:
                log.write(json.dumps(record) + "\n")

    event.register("numba:compile", Compiles())


class _AfterDispatcher(importlib.abc.MetaPathFinder):
    """Registers the listener right after ``numba.core.dispatcher`` is executed."""

    def find_spec(self, name, path, target=None):
        if name != "numba.core.dispatcher":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            _register()

        spec.loader.exec_module = exec_module
        return spec


if _DIR:
    sys.meta_path.insert(0, _AfterDispatcher())
