#!/usr/bin/env bash
# One cold run of the suite in this checkout: an empty NUMBA_CACHE_DIR, wall time measured
# outside pytest (pytest's own "in N s" starts after any pytest_sessionstart hook that runs
# before its terminal reporter's, such as the warm-up conftest.py had), one line appended
# to run.log. Usage, from the project root with SKSTRUCT_DATA set, one run at a time:
#   benchmarks/measurements/suite_without_warmup_2026-12-07/cold_suite.sh LABEL [pytest args]
# e.g. LABEL=nowarm with args "tests skstruct notebooks": the README's test paths named on
# the command line, which 51ed317's conftest.py took as chosen tests and ran without its
# warm-up.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
label=$1; shift
cache=$(mktemp -d); export NUMBA_CACHE_DIR=$cache
start=$(date +%s.%N)
.venv/bin/python -m pytest -q -p no:cacheprovider "$@" > "/tmp/suite_$label.out" 2>&1 || true
end=$(date +%s.%N)
echo "$label wall $(python3 -c "print(round($end - $start, 2))") | $(tail -1 "/tmp/suite_$label.out")" \
    >> "$HERE/run.log"
rm -rf "$cache"
