"""The UD pipeline's two grandparent graph parsers (``graph_parser``: the structured
SVM; ``graph_perceptron``: the averaged perceptron; order 2, grandparents, lemma and
FEATS fields) on the first 3,000 sentences of English-EWT train, 3 passes: the cold
first fit on 50 sentences (numba compiling into ``NUMBA_CACHE_DIR``; give a fresh one),
then the timed fit and a digest of its weights, which must not change.

Run from a checkout (or with ``PYTHONPATH`` naming another): ``python graph_fit.py
{svm,perceptron}``."""

import hashlib
import sys
import time

import skstruct
from skstruct.datasets import fetch_ud
from skstruct.parsing import graph_parser, graph_perceptron

learner = sys.argv[1]
train = fetch_ud("en_ewt", "train").data[:3000]
heads = [[t["head"] for t in s] for s in train]


def parser(passes):
    if learner == "svm":
        return graph_parser(("lemma", "feats"), order=2, grandparents=True, max_iter=passes,
                            random_state=0)  # fmt: skip
    return graph_perceptron(("lemma", "feats"), max_iter=passes, random_state=0)


start = time.perf_counter()
parser(1).fit(train[:50], heads[:50])
cold = time.perf_counter() - start
start = time.perf_counter()
fitted = parser(3).fit(train, heads)
seconds = time.perf_counter() - start
digest = hashlib.sha1(fitted.coef_.tobytes()).hexdigest()[:12]
print(f"{learner} {skstruct.__file__}: cold 50-sentence fit {cold:.2f} s, 3,000-sentence "
      f"fit {seconds:.2f} s, weights {digest}", flush=True)  # fmt: skip
