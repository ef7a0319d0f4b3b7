"""The kernels the cold suite compiled more than once (compiles.tsv, from
compile_log.py): each specialisation's seconds, the test that compiled it, and the
argument types where it differs from the first.

Run: ``python variants.py``.
"""

import collections
from pathlib import Path


def main():
    rows = collections.defaultdict(list)
    for line in (Path(__file__).parent / "compiles.tsv").read_text().splitlines():
        worker, seconds, name, args, test = line.split("\t")
        rows[name].append((float(seconds), args, f"{worker} {test}"))
    total = sum(s for lst in rows.values() for s, _, _ in lst)
    print(f"{sum(map(len, rows.values()))} outermost compiles, {total:.1f} s")
    for name, lst in sorted(rows.items(), key=lambda kv: -sum(x[0] for x in kv[1])):
        if len(lst) < 2:
            continue
        print(f"== {name}: {len(lst)} specialisations, {sum(x[0] for x in lst):.1f} s")
        base = lst[0][1].split(", ")
        for seconds, args, test in lst:
            split = args.split(", ")
            diffs = [f"{i}:{a}" for i, a in enumerate(split) if i >= len(base) or a != base[i]]
            print(f"  {seconds:.2f} s {test[:90]} {' '.join(diffs)[:120]}")


if __name__ == "__main__":
    main()
