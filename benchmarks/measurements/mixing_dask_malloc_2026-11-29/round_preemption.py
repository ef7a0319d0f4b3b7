"""Issue 38: where a dask round's extra time goes, once the workers are started alike.

A 4-round ``ParameterMixing`` fit (Brown 20,000 sentences, raw words, beam 4,
max-violation, 2 shards) on loky and on a 2-worker dask ``LocalCluster`` started without
the nannies' ``MALLOC_TRIM_THRESHOLD_`` (``local_dask(2, glibc_malloc=True)``). The
learner notes, on its worker, each epoch's wall clock, its thread's CPU time, and how
often the thread was preempted (involuntary context switches); rounds after the first.

Run: ``python round_preemption.py``
"""

import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/

import joblib
from _corpora import brown_pos
from _dask import local_dask

from skstruct import BeamSearch, ParameterMixing, StructuredPerceptron, TokenFeatures

LOG = os.path.join(tempfile.gettempdir(), "round_preemption.txt")


class TimedPerceptron(StructuredPerceptron):
    """Notes each epoch's times in ``LOG`` (defined here, so it travels by value)."""

    def run_epoch(self, state, data, order):
        usage, wall, cpu = resource.getrusage(resource.RUSAGE_THREAD), time.perf_counter(), 0
        cpu = time.thread_time()
        stats = super().run_epoch(state, data, order)
        after = resource.getrusage(resource.RUSAGE_THREAD)
        with open(LOG, "a") as log:
            log.write(f"{time.perf_counter() - wall:.3f} {time.thread_time() - cpu:.3f} "
                      f"{after.ru_nivcsw - usage.ru_nivcsw}\n")  # fmt: skip
        return stats


def fit(X, y, rounds):
    learner = TimedPerceptron(BeamSearch(beam_size=4), update="max_violation", random_state=0,
                              features=TokenFeatures())  # fmt: skip
    return ParameterMixing(learner, n_shards=2, max_iter=rounds, n_jobs=2, random_state=0).fit(X, y)


def main():
    X, y, _, _ = brown_pos(n_train=20000, tokens=True)
    for engine in ("loky", "dask-glibc"):
        context = joblib.parallel_config() if engine == "loky" else local_dask(2, True)
        with context:
            fit(X[:300], y[:300], 1)  # starts the workers
            if os.path.exists(LOG):
                os.remove(LOG)
            fit(X, y, 4)
        epochs = [line.split() for line in open(LOG).read().splitlines()][2:]  # rounds 2-4
        for wall, cpu, preempted in epochs:
            print(f"{engine:<11} epoch wall {wall} s, CPU {cpu} s, preempted {preempted} times")


if __name__ == "__main__":
    main()
