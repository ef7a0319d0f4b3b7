"""Per-file and per-test differences between the cold and the warm run's durations
(``durations_cold.txt.gz``, ``durations_warm.txt.gz``: ``pytest --durations=0`` lines).

Run: ``python compare.py``
"""

import collections
import gzip
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
LINE = re.compile(r"^([0-9.]+)s (call|setup|teardown)\s+(\S+)")


def durations(name):
    found = {}
    with gzip.open(os.path.join(HERE, name), "rt") as lines:
        for line in lines:
            match = LINE.match(line)
            if match:
                found[match.group(3), match.group(2)] = float(match.group(1))
    return found


def main():
    cold, warm = durations("durations_cold.txt.gz"), durations("durations_warm.txt.gz")
    print(f"summed durations: cold {sum(cold.values()):.1f} s, warm {sum(warm.values()):.1f} s")
    by_file = collections.defaultdict(lambda: [0.0, 0.0])
    for (test, _), seconds in cold.items():
        by_file[test.split("::")[0]][0] += seconds
    for (test, _), seconds in warm.items():
        by_file[test.split("::")[0]][1] += seconds
    notebooks = [v for k, v in by_file.items() if k.endswith(".ipynb")]
    print(f"notebooks: cold {sum(v[0] for v in notebooks):.1f} s, "
          f"warm {sum(v[1] for v in notebooks):.1f} s")  # fmt: skip
    print("\nby file, 25 costliest cold (cold s, warm s)")
    for path, (c, w) in sorted(by_file.items(), key=lambda kv: -kv[1][0])[:25]:
        print(f"{c:7.1f} {w:7.1f}  {path}")
    print("\nby test, 25 largest cold minus warm (compiling, mostly)")
    keys = set(cold) | set(warm)
    for key in sorted(keys, key=lambda k: warm.get(k, 0) - cold.get(k, 0))[:25]:
        print(f"{cold.get(key, 0) - warm.get(key, 0):7.2f} {cold.get(key, 0):7.2f} "
              f"{warm.get(key, 0):7.2f}  {key[1]} {key[0]}")  # fmt: skip


if __name__ == "__main__":
    main()
