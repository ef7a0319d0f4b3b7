#!/usr/bin/env bash
# graph_fit.py for both learners, alternating between a second venv with the baseline
# installed (BASE_VENV: `python -m venv` + `pip install -e '<worktree of d1fb14f>[dev]'`)
# and this checkout's .venv, a fresh NUMBA_CACHE_DIR for each run; run from /tmp so that
# each interpreter imports its own install. Usage: BASE_VENV=/tmp/venv_base graph_fit_venvs.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
project=$(cd "$here/../../.." && pwd)
cd /tmp
for rep in 1 2; do
  for learner in perceptron svm; do
    for venv in "$BASE_VENV" "$project/.venv"; do
      export NUMBA_CACHE_DIR=$(mktemp -d)
      "$venv/bin/python" "$here/graph_fit.py" "$learner" 2>&1 | tail -1
      rm -rf "$NUMBA_CACHE_DIR"
    done
  done
done
