"""Issue 33's first fit with part of its kernel tree compiled in a second process (a
probe, not the library's behaviour).

The default ``StructuredPerceptron()`` compiles one kernel tree on its first fit,
``chain.perceptron_epoch``, in one process. numba compiles under a process-wide lock,
so threads cannot share the work, but another process can: it compiles a kernel into
the disk cache, and this one loads it from there when it needs it.

``python probe.py sigs`` fits 50 sentences on an empty cache and keeps the signatures
the epoch called its two largest parts with (``decode_sentences``, ``add_chain_delta``:
both ``njit`` kernels with a cache entry of their own). Then, on an empty
``NUMBA_CACHE_DIR`` each run:

* ``seq``: the first fit, as the benchmark times it;
* ``par``: a subprocess compiles ``decode_sentences`` while this process compiles
  ``add_chain_delta``, waits for the subprocess, then fits (the epoch's typing loads
  ``decode_sentences`` from the cache);
* ``par2``: the other way round.

The time runs from before the subprocess starts to the end of the fit. CoNLL-2000 with
the sklearn-crfsuite tutorial's dicts, as ``benchmarks/bench_first_run.py``.
"""

import gc
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/

import bench_first_run

from skstruct._kernels import chain

SIGS = Path(tempfile.gettempdir()) / "first_fit_second_process_sigs.pkl"


def keep_signatures():
    import skstruct

    X, y, _, _ = bench_first_run._data("perceptron")
    skstruct.StructuredPerceptron(random_state=0, max_iter=1).fit(X[:50], y[:50])
    kept = {name: getattr(chain, name).signatures[0]
            for name in ("decode_sentences", "add_chain_delta")}  # fmt: skip
    SIGS.write_bytes(pickle.dumps(kept))
    print({name: len(str(sig)) for name, sig in kept.items()}, "->", SIGS)


def first_fit(mode):
    sigs = pickle.loads(SIGS.read_bytes())
    model = bench_first_run._model("perceptron")
    X, y, _, _ = bench_first_run._data("perceptron")
    gc.collect()
    start = time.perf_counter()
    note = ""
    if mode != "seq":
        other, here = ("decode_sentences", "add_chain_delta")
        if mode == "par2":
            other, here = here, other
        code = (
            "import pickle; from skstruct._kernels import chain; "
            f"chain.{other}.compile(pickle.loads(open({str(SIGS)!r}, 'rb').read())[{other!r}])"
        )
        process = subprocess.Popen([sys.executable, "-c", code])
        getattr(chain, here).compile(sigs[here])
        compiled_here = time.perf_counter() - start
        process.wait()
        joined = time.perf_counter() - start
        note = f" (this process compiled {here} by {compiled_here:.2f} s, joined at {joined:.2f} s)"
    model.fit(X, y)
    print(f"{mode}: first fit {time.perf_counter() - start:.2f} s{note}")


if __name__ == "__main__":
    keep_signatures() if sys.argv[1] == "sigs" else first_fit(sys.argv[1])
