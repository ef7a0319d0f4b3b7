"""Issue 38: the encoding phase of ``ParameterMixing(encode_on="workers")`` alone, loky
against a dask ``LocalCluster``: each task's time on its worker, the wall clock, the
parent's CPU time, and the sizes shipped (Brown 20,000 sentences, raw words, 2 shards).

Run: ``python encode_phase.py loky|dask|dask-one-worker|dask-notrim`` (``dask-notrim``:
the workers without the ``MALLOC_TRIM_THRESHOLD_`` dask's nannies set).
"""

import pickle
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/

from _dask import local_dask
from _shards import brown_raw_shards
from joblib import Parallel, delayed


def timed_encode(template, shard):
    start = time.perf_counter()
    encoding = template.encode_shard(shard.X, shard.y)
    return encoding, time.perf_counter() - start


def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def phase(parallel, template, raw):
    used, start = cpu(), time.perf_counter()
    out = parallel(delayed(timed_encode)(template, shard) for shard in raw)
    wall, used = time.perf_counter() - start, cpu() - used
    sizes = [len(pickle.dumps(encoding, protocol=5)) / 2**20 for encoding, _ in out]
    print(f"  parent CPU {used:.2f} s")
    print(f"  wall {wall:.2f} s; on the workers {[round(s, 2) for _, s in out]} s; results "
          f"{[round(s, 1) for s in sizes]} MB")  # fmt: skip


def main():
    template, raw = brown_raw_shards()
    start = time.perf_counter()
    blobs = [pickle.dumps(shard, protocol=5) for shard in raw]
    print(f"raw shard pickles: {[round(len(b) / 2**20, 1) for b in blobs]} MB in "
          f"{time.perf_counter() - start:.2f} s; template "
          f"{len(pickle.dumps(template)) / 2**20:.2f} MB")  # fmt: skip
    if sys.argv[1].startswith("dask"):
        import dask

        if sys.argv[1] == "dask-notrim":
            key = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"
            dask.config.set({key: 128 * 2**20})
        n_workers = 1 if sys.argv[1] == "dask-one-worker" else 2
        with local_dask(n_workers):
            for _ in range(3):
                with Parallel(n_jobs=2, max_nbytes=None) as parallel:
                    phase(parallel, template, raw)
    else:
        for _ in range(3):
            with Parallel(n_jobs=2, max_nbytes=None) as parallel:
                phase(parallel, template, raw)


if __name__ == "__main__":
    main()
