"""The hashing and stack helpers of the parsers as numba overloads (helpers) instead of
njit functions with explicit signatures, which compiled when their modules were imported.

Run from the project root: ``python benchmarks/measurements/import_compiles_2026-12-01/probe.py
PARENT_CHECKOUT [ROUNDS]``. Each round runs, for the parent checkout and for this one
(``PYTHONPATH``, alternating), three fresh processes on an empty ``NUMBA_CACHE_DIR``:

* ``import``: the modules a chain fit imports (``skstruct.engine._fused``);
* ``chain``: ``StructuredPerceptron()`` fitted on 50 CoNLL-2000 sentences (tutorial dicts);
* ``parser``: ``StructuredPerceptron(Eisner())`` fitted on 50 PTB-sample sentences.

Each prints its wall time and, from numba's compile events, the seconds compiling
(called from Python) and the compiles of ``_hash``, ``_hash_prefix``, ``_hash_finish``
and ``_push`` (at any depth): their number and seconds.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, sys, time
from numba.core import event
depth, events = [0], []
class Compiles(event.Listener):
    def on_start(self, ev):
        depth[0] += 1
        ev.data["t"], ev.data["d"] = time.perf_counter(), depth[0]
    def on_end(self, ev):
        depth[0] -= 1
        name = ev.data["dispatcher"].py_func.__qualname__
        events.append((name, time.perf_counter() - ev.data["t"], ev.data["d"]))
event.register("numba:compile", Compiles())
started = time.perf_counter()
what = sys.argv[1]
if what == "import":
    import skstruct.engine._fused
else:
    import skstruct
    if what == "chain":
        from skstruct.datasets import fetch_conll2000
        from skstruct.features import crfsuite_tutorial_features
        data = fetch_conll2000("train")
        X, y = crfsuite_tutorial_features(data.data[:50]), data.target[:50]
        model = skstruct.StructuredPerceptron()
    else:
        from skstruct.datasets import fetch_ptb_sample
        X, y = fetch_ptb_sample("train", return_X_y=True)
        X, y, model = X[:50], y[:50], skstruct.StructuredPerceptron(skstruct.Eisner())
    started = time.perf_counter()
    model.fit(X, y)
helpers = [e for e in events if e[0] in ("_hash", "_hash_prefix", "_hash_finish", "_push")]
print(json.dumps({"wall": time.perf_counter() - started,
                  "compiling": sum(s for _, s, d in events if d == 1),
                  "helper_compiles": len(helpers),
                  "helper_seconds": sum(s for _, s, _ in helpers)}))
"""


def run(checkout, what):
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPATH=str(checkout), NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-W", "ignore", "-c", CHILD, what], env=env,
                             capture_output=True, text=True, check=True, cwd="/tmp")  # fmt: skip
        return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parent, rounds = Path(sys.argv[1]).resolve(), int(sys.argv[2]) if len(sys.argv) > 2 else 3
    here = Path(__file__).resolve().parents[3]
    for r in range(rounds):
        for what in ("import", "chain", "parser"):
            for name, checkout in (("parent", parent), ("helpers", here)):
                res = run(checkout, what)
                print(f"round {r + 1} {what:<6} {name:<7} wall {res['wall']:6.2f} s, compiling "
                      f"{res['compiling']:6.2f} s, hash/push compiles {res['helper_compiles']} "
                      f"({res['helper_seconds']:.2f} s)", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
