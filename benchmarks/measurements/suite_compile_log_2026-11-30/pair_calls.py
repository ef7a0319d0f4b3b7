"""Warm time of mixing's pair calls on one round's scale (``with_change``,
``change_since`` and ``values_at`` of ``LinearChain``; 200,000 features x 40 labels,
about 400,000 pairs held, 50,000 changed, read-only weights as the weight cache keeps
them): the minimum of 30 calls after one warm-up call. Run it with the code to time on
``PYTHONPATH`` (a git worktree of the parent commit, then this one, alternating)."""

import time

import numpy as np

import skstruct
from skstruct.structures import EmissionRows, LinearChain

rng = np.random.default_rng(0)
F, L = 200_000, 40
chain = LinearChain(F, L, order=1, rows=EmissionRows.empty(F))
keys = np.unique(rng.integers(chain.n_dense, chain.n_dense + F * L, 400_000)).astype(np.int64)
zeros = np.zeros(chain.n_weights)
start, coef, csum = chain.with_change(zeros, zeros, keys, np.ones(keys.size), np.ones(keys.size))
coef.flags.writeable = csum.flags.writeable = False
new = np.unique(rng.integers(chain.n_dense, chain.n_dense + F * L, 50_000)).astype(np.int64)


def one_round():
    started = time.perf_counter()
    twos = np.full(new.size, 2.0)
    trained, t_coef, t_sum = start.with_change(coef, csum, new, twos, twos)
    trained.change_since(start, coef, csum, t_coef, t_sum)
    trained.values_at(new, t_coef, t_sum)
    return time.perf_counter() - started


one_round()
best = min(one_round() for _ in range(30))
print(f"{skstruct.__file__}: mixing pair calls, min of 30: {1000 * best:.2f} ms")
