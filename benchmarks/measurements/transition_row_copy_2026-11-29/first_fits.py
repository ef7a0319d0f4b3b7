"""Issue 33 (compile less): the transition beam copies its states' rows in loops instead
of row assignments, before and after. ``python first_fits.py PYTHON_BEFORE PYTHON_AFTER
[rounds]``: for arc-eager and arc-standard (beam 8, max-violation, PTB sample, 3
epochs), a fresh process on an empty numba cache times the first fit (compiling
included), a second fit (warm) and ``predict`` of the test set, with a checksum of the
weights and trees; the two installs alternate."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/
from _alternate import TIMED_FITS, before_after

CHILD = (
    """
import gc, sys, time, zlib
import numpy as np
from skstruct import ArcEager, ArcStandard, StructuredPerceptron
from skstruct.datasets import fetch_ptb_sample
X, y = fetch_ptb_sample("train", return_X_y=True)
X_test = fetch_ptb_sample("test", return_X_y=True)[0]
decoder = {"arc-eager": ArcEager, "arc-standard": ArcStandard}[sys.argv[1]]
make = lambda: StructuredPerceptron(decoder(beam_size=8), update="max_violation",
                                    max_iter=3, random_state=0)
"""
    + TIMED_FITS
)


def main():
    before_after(CHILD, ("arc-eager", "arc-standard"))


if __name__ == "__main__":
    main()
