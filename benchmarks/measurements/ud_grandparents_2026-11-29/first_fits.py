"""Issue 33's rule for kernel changes (cold compile time), for the grandparent parts of
issue 36: the tree kernels took a ``grandparents`` argument beside ``siblings``.
``python first_fits.py PYTHON_BEFORE PYTHON_AFTER [rounds]``: for the first-order
perceptron parser and the second-order structured SVM parser (PTB sample, 5 epochs /
passes), a fresh process on an empty numba cache times the first fit (compiling
included), a second fit (warm) and ``predict`` of the test set, with a checksum of the
weights and trees; the two installs alternate."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/
from _alternate import TIMED_FITS, before_after

CHILD = (
    """
import sys
from skstruct import Eisner, StructuredPerceptron, StructuredSVM
from skstruct.datasets import fetch_ptb_sample
X, y = fetch_ptb_sample("train", return_X_y=True)
X_test = fetch_ptb_sample("test", return_X_y=True)[0]
if sys.argv[1] == "perceptron-1":
    make = lambda: StructuredPerceptron(Eisner(), max_iter=5, random_state=0)
else:
    make = lambda: StructuredSVM(Eisner(order=2), C=0.1, max_iter=5, tol=None,
                                 random_state=0)
"""
    + TIMED_FITS
)


def main():
    before_after(CHILD, ("perceptron-1", "svm-2"))


if __name__ == "__main__":
    main()
