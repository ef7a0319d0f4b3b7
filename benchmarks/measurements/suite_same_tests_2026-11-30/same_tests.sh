#!/usr/bin/env bash
# The cold suite of HEAD restricted to the tests issue 33's baseline (ced5e15) had, beside
# the baseline's own cold suite. BASE: a checkout of ced5e15 with its .venv; HEAD: this
# checkout with its .venv. Run from HEAD's root with SKSTRUCT_DATA set; one run at a time.
set -euo pipefail
BASE=${BASE:?a checkout of ced5e15 with its .venv}
HERE=$(cd "$(dirname "$0")" && pwd)
collect() { (cd "$1" && .venv/bin/python -m pytest --collect-only -q -p no:cacheprovider \
    -o addopts="--doctest-modules --nbmake" 2>/dev/null | grep "::" | sort); }
collect "$BASE" > /tmp/ids_base.txt
collect . > /tmp/ids_head.txt
comm -12 /tmp/ids_base.txt /tmp/ids_head.txt > /tmp/keep_ids.txt
wc -l /tmp/ids_base.txt /tmp/ids_head.txt /tmp/keep_ids.txt
unset NUMBA_CACHE_DIR
case "${1:-head}" in
  head)  # HEAD, the baseline's tests only, an empty kernel cache
    rm -rf skstruct/_kernels/__pycache__
    KEEP_IDS=/tmp/keep_ids.txt PYTHONPATH="$HERE" \
      PYTEST_ADDOPTS="-p baseline_subset -p no:cacheprovider" .venv/bin/python -m pytest | tail -1 ;;
  base)  # the baseline's whole suite, an empty kernel cache
    (cd "$BASE" && rm -rf skstruct/_kernels/__pycache__ &&
      PYTEST_ADDOPTS="-p no:cacheprovider" .venv/bin/python -m pytest | tail -1) ;;
esac
