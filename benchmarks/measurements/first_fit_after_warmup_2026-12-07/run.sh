#!/usr/bin/env bash
# A fresh cache, `skstruct warmup chains`, then three processes of two fits (the last one
# profiled). From the project root, SKSTRUCT_DATA set; writes run.log here.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-$PWD/.venv/bin/python}
export NUMBA_CACHE_DIR=$(mktemp -d)
cd /tmp
{
  /usr/bin/time -f "skstruct warmup chains: %e s" "$PY" -m skstruct.cli warmup -q chains
  "$PY" "$HERE/two_fits.py"
  "$PY" "$HERE/two_fits.py"
  "$PY" "$HERE/two_fits.py" --profile
} > "$HERE/run.log" 2>&1
rm -rf "$NUMBA_CACHE_DIR"
