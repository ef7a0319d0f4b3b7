"""The constituency table's parser, before and after reusing the search charts:
``StructuredPerceptron(CKY(), random_state=0)`` (10 epochs) on all 3,396 training trees
of the treebank sample, then ``predict`` on the 245 test sentences and EVALB, each
install in a fresh process (kernels compiled or loaded by a 20-tree fit first, not timed).

Run: ``python full_fit.py PYTHON ...`` (one run per interpreter, in that order)
"""

import subprocess
import sys

CHILD = """
import resource, time
from skstruct import CKY, StructuredPerceptron
from skstruct.datasets import fetch_treebank
from skstruct.metrics import evalb
X, y = fetch_treebank("train", return_X_y=True)
X_test, y_test = fetch_treebank("test", return_X_y=True)
StructuredPerceptron(CKY(), max_iter=1, random_state=0).fit(X[:20], y[:20]).predict(X[:2])
start = time.perf_counter()
parser = StructuredPerceptron(CKY(), random_state=0).fit(X, y)
fit = time.perf_counter() - start
start = time.perf_counter()
predicted = parser.predict(X_test)
parse = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
longest = max(len(sentence) for sentence in X + X_test)
print(f"fit {fit:.1f} s, parse {parse:.1f} s, test F1 {evalb(y_test, predicted).f1:.2f}, "
      f"|coef| {abs(parser.coef_).sum():.6f}, peak RSS {peak:,.0f} MiB "
      f"({parser.grammar_.n_symbols} symbols, longest sentence {longest} words)")
"""


def main():
    for python in sys.argv[1:]:
        out = subprocess.run([python, "-c", CHILD], capture_output=True, text=True, check=True)
        print(python, out.stdout.strip(), flush=True)


if __name__ == "__main__":
    main()
