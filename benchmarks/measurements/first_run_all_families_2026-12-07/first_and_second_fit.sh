#!/usr/bin/env bash
# A fresh cache filled by `skstruct warmup chains`, then first_and_second_fit.py three
# times each way, alternating. Run from the project root.
set -euo pipefail
here=$(dirname "$0")
export NUMBA_CACHE_DIR=$(mktemp -d)
.venv/bin/python -m skstruct.cli warmup -q chains > /dev/null
for _ in 1 2 3; do
  for mode in gc nogc; do
    .venv/bin/python "$here/first_and_second_fit.py" "$mode"
  done
done
rm -rf "$NUMBA_CACHE_DIR"
