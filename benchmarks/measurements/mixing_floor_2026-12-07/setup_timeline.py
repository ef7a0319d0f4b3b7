"""A loky mixing fit's set-up, step by step (issue 38): Brown's first 20,000 sentences,
beam 4, raw tokens, 2 shards on 2 loky workers (started and warmed by a small fit
first). Prints, on one clock: when ``ParameterMixing._encode`` starts and ends, when
each worker's encoding task starts and ends (the task's own time, from a file the
workers append to), when the parent merges the shards' vocabularies
(``init_state_from_shards``), and how long writing the shards' files takes; then the
set-up ``history_`` reports. Twice.

Also, in this process: unpickling one raw shard (10,000 sentences) with the garbage
collector on and off, in a fresh process each (``--unpickle``).

Run from the project root:
``python benchmarks/measurements/mixing_floor_2026-12-07/setup_timeline.py``
"""

import os
import pickle
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, "benchmarks")
from _corpora import brown_pos

import skstruct.learners.mixing as mixing_module
from skstruct import BeamSearch, ParameterMixing, StructuredPerceptron, TokenFeatures

TRACE = os.path.join(tempfile.gettempdir(), "setup_timeline_trace.txt")
_encode_shard = mixing_module._encode_shard


def traced_encode_shard(template, shard):
    """``_encode_shard``, its start and end appended to TRACE (loky ships this function
    from ``__main__`` by value)."""
    started = time.time()
    out = _encode_shard(template, shard)
    with open(TRACE, "a") as trace:
        trace.write(f"worker {os.getpid()}: encoding {started:.3f} to {time.time():.3f}\n")
    return out


def learner():
    return StructuredPerceptron(BeamSearch(beam_size=4), update="max_violation",
                                random_state=0, features=TokenFeatures())  # fmt: skip


def timed(owner, name, label):
    original = getattr(owner, name)

    def wrapper(*args, **kwargs):
        started = time.time()
        out = original(*args, **kwargs)
        print(f"  {label} {started:.3f} to {time.time():.3f} ({time.time() - started:.3f} s)")
        return out

    setattr(owner, name, wrapper)


def timeline():
    X, y, _, _ = brown_pos(tokens=True, n_train=20000)
    warm = ParameterMixing(learner(), n_shards=2, max_iter=1, n_jobs=2, random_state=0)
    warm.fit(X[:200], y[:200])
    mixing_module._encode_shard = traced_encode_shard
    timed(ParameterMixing, "_encode", "ParameterMixing._encode")
    timed(StructuredPerceptron, "init_state_from_shards", "init_state_from_shards")
    timed(mixing_module, "_shard_files", "_shard_files")
    for run in range(2):
        open(TRACE, "w").close()
        model = ParameterMixing(learner(), n_shards=2, max_iter=2, n_jobs=2, random_state=0)
        started = time.time()
        print(f"run {run + 1}: fit starts {started:.3f}")
        model.fit(X, y)
        with open(TRACE) as trace:
            print("".join(f"  {line}" for line in sorted(trace)), end="")
        first = model.history_[0]
        print(f"  set-up (history_): {first['elapsed'] - first['seconds']:.3f} s")


def unpickle(gc_on):
    import gc

    with open(sys.argv[2], "rb") as f:
        payload = f.read()
    template, small = pickle.loads(payload)
    template.encode_shard(small.X[:200], small.y[:200])  # as a warmed worker
    del small
    if not gc_on:
        gc.disable()
    started = time.perf_counter()
    pickle.loads(payload)
    print(f"  unpickling a raw shard, gc {'on' if gc_on else 'off'}: "
          f"{time.perf_counter() - started:.3f} s")  # fmt: skip


def unpickling():
    X, y, _, _ = brown_pos(tokens=True, n_train=20000)
    template = learner().shard_encoder(X)
    with tempfile.NamedTemporaryFile(suffix=".pkl", delete=False) as f:
        pickle.dump((template, mixing_module._RawShard(X, y, range(10000))), f, protocol=5)
    for _ in range(3):
        for mode in ("on", "off"):
            subprocess.run([sys.executable, __file__, f"--unpickle-{mode}", f.name], check=True)
    os.unlink(f.name)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--unpickle-on"]:
        unpickle(True)
    elif sys.argv[1:2] == ["--unpickle-off"]:
        unpickle(False)
    else:
        timeline()
        unpickling()
