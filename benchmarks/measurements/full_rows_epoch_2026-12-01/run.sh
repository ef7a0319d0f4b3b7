#!/bin/sh
# Alternating runs of the parent (a git worktree at $BASE) and this tree ($NEW), each
# process with skstruct first on PYTHONPATH. SKSTRUCT_DATA must be set.
#   cold: cold_fit.py, a fresh NUMBA_CACHE_DIR per process, five pairs
#   compile tree: one first fit of all of CoNLL-2000 (cold_fit.py all) per version under the compile
#     logger of ../suite_compile_log_2026-11-30 (kernel, nesting depth, seconds)
#   warm: warm_fit.py, three rounds, with ced5e15 (issue 33's baseline) at $CED
# FAMILY=svm (exported): the default structured SVM instead of the perceptron
# PY_BASE, PY_NEW, PY_CED: a Python per version (each version installed in a venv of its
# own; leave BASE, NEW, CED empty then); each defaults to PY
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-python}
py() { case $1 in ced) echo "${PY_CED:-$PY}";; base) echo "${PY_BASE:-$PY}";; *) echo "${PY_NEW:-$PY}";; esac; }
WORK=$(mktemp -d)
for i in 1 2 3 4 5; do
  for v in base new; do
    if [ $v = base ]; then PP=$BASE; else PP=$NEW; fi
    echo "cold $v $(cd "$WORK" && NUMBA_CACHE_DIR=$WORK/c$i$v PYTHONPATH=$PP $(py $v) "$HERE/cold_fit.py")"
  done
done
for v in base new; do
  if [ $v = base ]; then PP=$BASE; else PP=$NEW; fi
  mkdir -p "$WORK/log$v"
  (cd "$WORK" && NUMBA_CACHE_DIR=$WORK/t$v COMPILE_LOG_DIR=$WORK/log$v \
    PYTHONPATH=$PP:$HERE/../suite_compile_log_2026-11-30/site $(py $v) "$HERE/cold_fit.py" all)
  echo "compile tree, $v (first fit above; depth kernel seconds):"
  cat "$WORK"/log$v/*.jsonl | $PY -c "
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print('  ', r['d'], r['k'].replace('skstruct._kernels.', ''), round(r['s'], 2))
"
done
for i in 1 2 3; do
  for v in ced base new; do
    case $v in ced) PP=$CED;; base) PP=$BASE;; new) PP=$NEW;; esac
    (cd "$WORK" && NUMBA_CACHE_DIR=$WORK/w$v PYTHONPATH=$PP $(py $v) "$HERE/warm_fit.py" > /dev/null 2>&1)
    echo "warm $v $(cd "$WORK" && NUMBA_CACHE_DIR=$WORK/w$v PYTHONPATH=$PP $(py $v) "$HERE/warm_fit.py" 2>&1 | tail -1)"
  done
done
rm -rf "$WORK"
