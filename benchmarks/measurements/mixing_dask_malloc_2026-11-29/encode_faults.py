"""Issue 38: why a dask worker encodes a shard slower than a loky worker.

The encoding tasks of ``ParameterMixing(encode_on="workers")`` alone (Brown 20,000
sentences, raw words, ``TokenFeatures()``, 2 shards), three times on each engine: the
task's wall clock, its thread's CPU time and its minor page faults on the worker.
Engines: ``loky``; ``dask`` (a ``LocalCluster``, its workers started with the
``MALLOC_TRIM_THRESHOLD_=65536`` that dask's nannies set); ``dask-glibc`` (the same without
it: glibc's defaults, as loky's workers have).

Run: ``python encode_faults.py loky dask dask-glibc``
"""

import contextlib
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/

from _dask import local_dask
from _shards import brown_raw_shards
from joblib import Parallel, delayed


def encode(template, shard):
    faults = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    wall, cpu = time.perf_counter(), time.thread_time()
    template.encode_shard(shard.X, shard.y)
    return (
        time.perf_counter() - wall,
        time.thread_time() - cpu,
        resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - faults,
    )


def main():
    template, raw = brown_raw_shards()
    for engine in sys.argv[1:]:
        if engine == "loky":
            context = contextlib.nullcontext()
        else:
            context = local_dask(2, glibc_malloc=engine == "dask-glibc")
        with context:
            for run in range(4):
                with Parallel(n_jobs=2, max_nbytes=None) as parallel:
                    tasks = parallel(delayed(encode)(template, shard) for shard in raw)
                if run:  # the first run starts loky's workers
                    print(f"{engine:<11}", " | ".join(
                        f"wall {w:.2f} s, CPU {c:.2f} s, {f:,} page faults" for w, c, f in tasks
                    ), flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
