"""numba's top-level compiles of a process, for the first-fit measurements: each
kernel a Python call compiled, with the seconds it took (the kernels it compiled
inside it included)."""

import time

from numba.core import event

#: (kernel name, seconds) of each top-level compile, in order.
compiled = []
_depth = [0]


class _TopLevelCompiles(event.Listener):
    def on_start(self, ev):
        _depth[0] += 1
        ev.data.setdefault("started", time.perf_counter())

    def on_end(self, ev):
        _depth[0] -= 1
        if _depth[0] == 0:
            seconds = time.perf_counter() - ev.data["started"]
            compiled.append((ev.data["dispatcher"].py_func.__name__, seconds))


def start():
    """Record the compiles from now on (after the imports: kernels with explicit
    signatures compile when their module is imported)."""
    event.register("numba:compile", _TopLevelCompiles())


def summary():
    """``compiling S s (the three longest)``."""
    top = ", ".join(f"{name} {s:.2f}" for name, s in sorted(compiled, key=lambda c: -c[1])[:3])
    return f"compiling {sum(s for _, s in compiled):.2f} s ({top})"


def tiny_chains():
    """``(X, y)``: 32 tiny tagged sentences as token dicts; a first fit's compile time
    does not depend on the data."""
    sentences = ["a b c", "b c a d", "c a", "d d a b"]
    tags = [["A", "B", "C"], ["B", "C", "A", "D"], ["C", "A"], ["D", "D", "A", "B"]]
    X = [[{"w": w, "s": w[-1:]} for w in s.split()] for s in sentences] * 8
    return X, tags * 8
