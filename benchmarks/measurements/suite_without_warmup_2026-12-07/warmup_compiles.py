"""Which of the warm-up's compiles the suite's tests also compile: two logs of
``../suite_compile_log_2026-11-30/site/sitecustomize.py``, the suite's and one of
``skstruct warmup chains parsers crf svm`` on an empty cache.

Run: ``python warmup_compiles.py SUITE_LOG WARMUP_LOG`` (folders or .jsonl.gz files)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "suite_compile_log_2026-11-30"))
from analyse import records


def main(suite_log, warmup_log):
    in_suite = {(r["k"], r["a"]) for r in records(suite_log)}
    warmup = [r for r in records(warmup_log) if r["d"] == 1]  # called from Python
    unused = [r for r in warmup if (r["k"], r["a"]) not in in_suite]
    print(f"warm-up: {len(warmup)} compiles called from Python, "
          f"{sum(r['s'] for r in warmup):.1f} s")  # fmt: skip
    print(f"of them no test compiled: {len(unused)}, {sum(r['s'] for r in unused):.1f} s")
    for r in sorted(unused, key=lambda r: -r["s"]):
        print(f"{r['s']:6.1f}  {r['k']}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
