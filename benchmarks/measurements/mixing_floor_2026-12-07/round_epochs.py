"""Two epochs a round (issue 38): the shards' epochs of ``ParameterMixing(n_shards=2,
epochs_per_round=2, max_iter=5, n_jobs=1)`` on Brown's first 20,000 sentences (beam 4,
raw tokens), in this process, one after another. A round starts from the mixed weights,
whose rows (``EmissionRows``) are compact: every row the round's first epoch adds a pair
to moves to the pool's end. The second epoch starts from the rows the first left, with
room. Prints each epoch's seconds, updates and the rows' pool: slots, slots used, pairs.

Run from the project root:
``python benchmarks/measurements/mixing_floor_2026-12-07/round_epochs.py``
"""

import time

# the corpus and the learner of shard_epochs.py, beside this script (on sys.path as its folder)
from shard_epochs import brown_pos, learner

from skstruct import ParameterMixing, StructuredPerceptron


def main():
    X, y, _, _ = brown_pos(tokens=True, n_train=20000)
    learner(max_iter=1).fit(X[:300], y[:300])  # kernels loaded before any timing
    epochs = []
    run_epoch = StructuredPerceptron.run_epoch

    def timed(self, state, data, order):
        start = time.perf_counter()
        stats = run_epoch(self, state, data, order)
        rows = state.structure.rows
        epochs.append((time.perf_counter() - start, stats["updates"], rows.pool_size,
                       int(rows.used[0]), rows.nnz))  # fmt: skip
        return stats

    StructuredPerceptron.run_epoch = timed
    mixing = ParameterMixing(learner(), n_shards=2, max_iter=5, epochs_per_round=2, n_jobs=1,
                             random_state=0)  # fmt: skip
    mixing.fit(X, y)
    for i, (seconds, updates, pool, used, pairs) in enumerate(epochs):
        print(f"round {i // 4 + 1} shard {(i // 2) % 2} epoch {i % 2 + 1}: {seconds:.3f} s, "
              f"updates {updates}, pool {pool}, used {used}, pairs {pairs}")  # fmt: skip


if __name__ == "__main__":
    main()
