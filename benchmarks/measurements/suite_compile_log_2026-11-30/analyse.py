"""Tables from a compile log of ``site/sitecustomize.py`` (default: this folder's
``suite_compiles.jsonl.gz``, one cold run of the whole suite).

Run: ``python analyse.py [LOG_DIR_OR_FILE]``
"""

import collections
import glob
import gzip
import json
import os
import sys


def records(where):
    if os.path.isdir(where):
        for path in glob.glob(os.path.join(where, "*.jsonl")):
            pid = int(os.path.basename(path).split(".")[0])
            with open(path) as log:
                yield from ({**json.loads(line), "pid": pid} for line in log)
    else:
        with gzip.open(where, "rt") as log:
            yield from (json.loads(line) for line in log)


def main(where):
    recs = list(records(where))
    top = [r for r in recs if r["d"] == 1]  # called from Python: holds its nested compiles
    print(f"compiles called from Python: {len(top)}, {sum(r['s'] for r in top):.1f} s in all")
    print("\nby process (seconds, xdist worker, command line)")
    by_process, names = collections.Counter(), {}
    for r in top:
        by_process[r["pid"]] += r["s"]
        names[r["pid"]] = f"{r['w'] or '-'} {r['argv'][:70]}"
    for pid, seconds in by_process.most_common(10):
        print(f"{seconds:7.1f}  {names[pid]}")
    print("\nby kernel called from Python (seconds, signatures)")
    seconds, signatures = collections.Counter(), collections.defaultdict(set)
    for r in recs:
        signatures[r["k"]].add(r["a"])
    for r in top:
        seconds[r["k"]] += r["s"]
    for kernel, s in seconds.most_common(20):
        print(f"{s:7.1f}  {len(signatures[kernel]):2d}  {kernel}")
    print("\nread-only array signatures (seconds called from Python, compiles, tests)")
    read_only = collections.defaultdict(list)
    for r in recs:
        if "True, aligned" in r["a"]:
            read_only[r["k"]].append(r)
    for kernel, rs in sorted(read_only.items(), key=lambda kv: -len(kv[1])):
        s = sum(r["s"] for r in rs if r["d"] == 1)
        tests = sorted({r["t"].split(" ")[0].split("::")[-1][:50] for r in rs})
        print(f"{s:7.1f}  {len(rs):2d}  {kernel}  {tests}")
    print("\none signature compiled more than once in one process (helpers)")
    same = collections.defaultdict(list)
    for r in recs:
        if not r["k"].startswith("numba."):
            same[r["pid"], r["k"], r["a"]].append(r)
    again = {key: rs for key, rs in same.items() if len(rs) > 1}
    total = sum(r["s"] for rs in again.values() for r in rs[1:])
    print(f"{len(again)} signatures; the compiles after the first: {total:.1f} s (nested included)")
    for (_, kernel, _), rs in sorted(again.items(), key=lambda kv: -sum(r["s"] for r in kv[1]))[:8]:
        print(f"{sum(r['s'] for r in rs[1:]):7.1f}  x{len(rs)}  {kernel}")


if __name__ == "__main__":
    main(
        sys.argv[1]
        if len(sys.argv) > 1
        else os.path.join(os.path.dirname(__file__), "suite_compiles.jsonl.gz")
    )
