"""Seconds of compiling spent on a signature another process had already compiled, from a
compile log of ``../suite_compile_log_2026-11-30/site/sitecustomize.py``.

Run: ``python across_workers.py LOG_DIR_OR_FILE``
"""

import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "suite_compile_log_2026-11-30"))
from analyse import records


def main(where):
    compiles = collections.defaultdict(list)
    for r in records(where):
        if r["d"] == 1:  # called from Python: holds its nested compiles
            compiles[r["k"], r["a"]].append((r["pid"], r["w"], r["s"]))
    rows = []
    for (kernel, _), runs in compiles.items():
        if len({pid for pid, _, _ in runs}) > 1:
            seconds = [s for _, _, s in runs]
            where = [(w, round(s, 1)) for _, w, s in runs]
            rows.append((sum(seconds) - max(seconds), kernel, where))
    print(f"compiled again in another process: {sum(r[0] for r in rows):.1f} s")
    for extra, kernel, runs in sorted(rows, reverse=True):
        print(f"{extra:6.1f}  {kernel}  {runs}")


if __name__ == "__main__":
    main(sys.argv[1])
