"""The signatures each named kernel was compiled for (called from Python) in a compile
log of ``../suite_compile_log_2026-11-30/site/sitecustomize.py``: per compile, its
seconds, the xdist worker, the test, and only the arguments whose types differ between
the compiles.

Run: ``python signatures.py LOG.jsonl.gz KERNEL...`` (a kernel by the end of its name,
e.g. ``tree_learn.perceptron_epoch``)
"""

import gzip
import json
import sys


def arguments(signature):
    """The top-level argument types of a signature's text ``(a, b[c, d], ...)``."""
    depth, current, out = 0, "", []
    for ch in signature.strip("()"):
        depth += (ch in "([") - (ch in ")]")
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    return [*out, current.strip()]


def main(log, kernels):
    with gzip.open(log, "rt") as lines:
        top = [r for r in map(json.loads, lines) if r["d"] == 1]
    for kernel in kernels:
        compiles = [r for r in top if r["k"].endswith(kernel)]
        print(f"== {kernel}: {len(compiles)} compiles, {sum(r['s'] for r in compiles):.1f} s")
        args = [arguments(r["a"]) for r in compiles]
        n = max(map(len, args), default=0)
        varying = [i for i in range(n) if len({a[i] if i < len(a) else None for a in args}) > 1]
        for r, a in zip(compiles, args):
            print(f"  {r['s']:5.1f} s {r['w']} {r['t'].split(' ')[0].split('::')[-1][:60]}")
            for i in varying:
                print(f"      argument {i}: {a[i][:100] if i < len(a) else None}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
