"""Issue 38: the parent process's CPU time during a 10-round mixing fit, loky against a
2-worker dask LocalCluster (Brown 20,000 sentences, raw words, beam 4, max-violation, 2
shards), beside the fit's per-round compute on the workers.

Run: ``python rounds_cpu.py loky|dask``.
"""

import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/

from _corpora import brown_pos
from _dask import local_dask

from skstruct import BeamSearch, ParameterMixing, StructuredPerceptron, TokenFeatures


def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run(X, y, name):
    learner = StructuredPerceptron(
        BeamSearch(beam_size=4), update="max_violation", random_state=0, features=TokenFeatures()
    )
    ParameterMixing(learner, n_shards=2, n_jobs=2, max_iter=1).fit(X[:200], y[:200])
    mixing = ParameterMixing(learner, n_shards=2, n_jobs=2, max_iter=10, random_state=0)
    used, start = cpu(), time.perf_counter()
    mixing.fit(X, y)
    wall, used = time.perf_counter() - start, cpu() - used
    later = mixing.history_[1:]
    compute = sum(r["compute_seconds"] for r in later) / len(later)
    setup = mixing.history_[0]["elapsed"] - mixing.history_[0]["seconds"]
    first = mixing.history_[0]["seconds"]
    print(f"{name}: fit {wall:.2f} s, set-up {setup:.2f} s, round 1 {first:.2f} s, parent "
          f"CPU {used:.2f} s ({100 * used / wall:.0f} % of a core), compute a round "
          f"{compute:.3f} s")  # fmt: skip


def main():
    X, y, _, _ = brown_pos(n_train=20000, tokens=True)
    if sys.argv[1] == "dask":
        with local_dask(2):
            run(X, y, "dask")
    else:
        run(X, y, "loky")


if __name__ == "__main__":
    main()
