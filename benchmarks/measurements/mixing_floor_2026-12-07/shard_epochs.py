"""Where a loky round's compute goes (issue 38): Brown's first 20,000 sentences, beam 4,
max-violation, raw tokens with ``TokenFeatures()``, as ``bench_mixing.py`` runs them.

Prints, in this one process, the epochs (seconds and updates) of
1. the serial fit (10 epochs; ``n_jobs=None``: numba's every thread, as the benchmark's
   serial fit);
2. the same with ``n_jobs=1``;
3. each shard's epochs inside ``ParameterMixing(n_shards=2, n_jobs=1)`` (the shards run
   one after the other in this process, each on one thread, as on a loky worker);
4. each half of the corpus (the same shards) fitted alone, ``n_jobs=None`` and ``n_jobs=1``.

Run from the project root:
``python benchmarks/measurements/mixing_floor_2026-12-07/shard_epochs.py``
"""

import sys
import time

sys.path.insert(0, "benchmarks")
from _corpora import brown_pos

from skstruct import BeamSearch, ParameterMixing, StructuredPerceptron, TokenFeatures


def learner(**params):
    return StructuredPerceptron(BeamSearch(beam_size=4), update="max_violation",
                                random_state=0, features=TokenFeatures(), **params)  # fmt: skip


def show(name, records):
    seconds = " ".join(f"{r['seconds']:.3f}" for r in records)
    updates = " ".join(str(r["updates"]) for r in records)
    total = sum(r["seconds"] for r in records)
    print(f"{name}: {total:.2f} s\n  seconds {seconds}\n  updates {updates}")


def main():
    X, y, _, _ = brown_pos(tokens=True, n_train=20000)
    learner(max_iter=1).fit(X[:300], y[:300])  # kernels loaded before any timing
    for n_jobs in (None, 1):
        show(f"serial, n_jobs={n_jobs}", learner(max_iter=10, n_jobs=n_jobs).fit(X, y).history_)
    epochs = []
    run_epoch = StructuredPerceptron.run_epoch

    def timed(self, state, data, order):
        start = time.perf_counter()
        stats = run_epoch(self, state, data, order)
        epochs.append({**stats, "seconds": time.perf_counter() - start})
        return stats

    StructuredPerceptron.run_epoch = timed
    mixing = ParameterMixing(learner(), n_shards=2, max_iter=10, n_jobs=1, random_state=0)
    mixing.fit(X, y)
    StructuredPerceptron.run_epoch = run_epoch
    for shard in range(2):
        show(f"mixing, shard {shard} (one thread)", epochs[shard::2])
    for shard, rows in enumerate(mixing.shards_):
        X_half, y_half = [X[i] for i in rows], [y[i] for i in rows]
        for n_jobs in (None, 1):
            alone = learner(max_iter=10, n_jobs=n_jobs).fit(X_half, y_half)
            show(f"shard {shard} alone, n_jobs={n_jobs}", alone.history_)
    print("numba threads:", __import__("numba").config.NUMBA_NUM_THREADS)


if __name__ == "__main__":
    main()
