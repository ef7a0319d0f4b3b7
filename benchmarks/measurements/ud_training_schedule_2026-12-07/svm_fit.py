"""The grandparent structured SVM of the UD pipeline (``graph_parser``: order 2,
grandparents, lemma and FEATS fields) on the first 3,000 sentences of English-EWT train,
3 passes: its cold first fit on 50 sentences (the numba cache is ``NUMBA_CACHE_DIR``,
fresh), then the timed fit and a digest of its weights, which must not change.

Run from a checkout (or with ``PYTHONPATH`` naming another): ``python svm_fit.py
[--cold-only]`` (``--cold-only``: the first fit alone)."""

import hashlib
import sys
import time

import skstruct
from skstruct.datasets import fetch_ud
from skstruct.parsing import graph_parser

train = fetch_ud("en_ewt", "train").data[:3000]
heads = [[t["head"] for t in s] for s in train]


def parser(passes):
    return graph_parser(("lemma", "feats"), order=2, grandparents=True, max_iter=passes,
                        random_state=0)  # fmt: skip


start = time.perf_counter()
parser(1).fit(train[:50], heads[:50])
cold = time.perf_counter() - start
if "--cold-only" in sys.argv[1:]:
    print(f"{skstruct.__file__}: cold 50-sentence fit {cold:.2f} s", flush=True)
    sys.exit()
start = time.perf_counter()
fitted = parser(3).fit(train, heads)
seconds = time.perf_counter() - start
digest = hashlib.sha1(fitted.coef_.tobytes()).hexdigest()[:12]
print(f"{skstruct.__file__}: cold 50-sentence fit {cold:.2f} s, 3,000-sentence fit "
      f"{seconds:.2f} s, weights {digest}", flush=True)  # fmt: skip
