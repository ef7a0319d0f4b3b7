#!/usr/bin/env bash
# For each commit given: a git worktree of it, a fresh NUMBA_CACHE_DIR, then fit.py
# (1) as checked out, (2) again, (3) after an edit of the helper _kernels/values.py
# (feature values tripled) with the cache kept, (4) with the edit and an empty cache.
# Where (3) prints (1)'s weights and not (4)'s, the fit ran the old helper.
# Usage (from the project root): benchmarks/measurements/kernel_cache_stamp_2026-12-07/run.sh COMMIT...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-$PWD/.venv/bin/python}
for commit in "$@"; do
    tree=$(mktemp -d)/tree
    git worktree add -q --detach "$tree" "$commit"
    export NUMBA_CACHE_DIR=$(mktemp -d)
    fit() { (cd "$tree" && PYTHONPATH="$tree" "$python" "$here/fit.py" 2>/dev/null | tail -1); }
    echo "== $(git log -1 --format='%h %s' "$commit" | cut -c1-80)"
    echo "1. as checked out, empty cache:   $(fit)"
    echo "2. again, cache kept:             $(fit)"
    sed -i 's/return data\[j\] if data.shape\[0\] else 1.0/return 3.0 * data[j] if data.shape[0] else 1.0/' \
        "$tree/skstruct/_kernels/values.py"
    echo "3. helper edited, cache kept:     $(fit)"
    rm -rf "$NUMBA_CACHE_DIR"
    echo "4. helper edited, empty cache:    $(fit)"
    git worktree remove --force "$tree"
    rm -rf "$NUMBA_CACHE_DIR"
done
