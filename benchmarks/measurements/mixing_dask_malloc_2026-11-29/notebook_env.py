"""The constituency notebook (small scale, as the test suite runs it) executed by
nbclient in a kernel started with and without ``MALLOC_TRIM_THRESHOLD_=65536``,
alternating; the kernel inherits this process's environment, as a notebook run by a
pytest-xdist worker does.

Run: ``python notebook_env.py [rounds]`` (from anywhere; kernels compiled or cached first)
"""

import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[3] / "notebooks" / "hall_constituency.ipynb"


def run():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    start = time.perf_counter()
    resources = {"metadata": {"path": str(NOTEBOOK.parent)}}
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources=resources).execute()
    return time.perf_counter() - start


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    run()  # kernels compiled or loaded into the cache
    for _ in range(rounds):
        for trim in ("65536", None):
            os.environ.pop("MALLOC_TRIM_THRESHOLD_", None)
            if trim:
                os.environ["MALLOC_TRIM_THRESHOLD_"] = trim
            seconds = run()
            print(f"MALLOC_TRIM_THRESHOLD_={trim or 'unset':<6} {NOTEBOOK.name} {seconds:.1f} s")


if __name__ == "__main__":
    main()
