#!/usr/bin/env bash
# Alternating runs of bench_mixing.py (Brown 20k, beam 4, 10 rounds, raw tokens, loky and
# dask) with the parent commit (a git worktree at BEFORE, on PYTHONPATH, same venv) and
# this checkout with raw_shard.patch applied; one at a time, nothing else running. Usage
# from the project root, with SKSTRUCT_DATA set and the worktree's kernels compiled once:
#   BEFORE=/tmp/before sh benchmarks/measurements/mixing_raw_shards_2026-12-07/run.sh
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-$PWD/.venv/bin/python}
ARGS="--corpus brown --learner beam --n-train 20000 --rounds 10 --input tokens --engines loky dask"
for pair in 1 2 3; do
  for side in after before; do
    if [ "$side" = before ]; then root=$BEFORE; else root=$PWD; fi
    echo "== pair $pair, $side"
    (cd /tmp && PYTHONPATH=$root "$PY" "$root/benchmarks/bench_mixing.py" $ARGS 2>&1 \
      | grep -E "^(brown|serial|loky|dask|run )")
  done
done > "$HERE/run.log"
