"""The first fit of an arc-eager beam parser on an empty numba cache: its wall time and
the numba compile time of its top-level kernels (issue 36: the coarse-POS and field
templates of arc-eager). ``KIND``: ``plain`` (forms and POS tags) or ``coarse`` (a UPOS
beside the XPOS, and a lemma field). Run it with ``NUMBA_CACHE_DIR`` an empty directory.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/: _compiles
import _compiles

from skstruct import ArcEager, ArcFeatures, StructuredPerceptron

_compiles.start()

words = "a b c d".split()
tags = dict(zip(words, ["DT", "NN", "VBZ", "IN"]))
upos = dict(zip(words, ["DET", "NOUN", "VERB", "ADP"]))
sentences = [["a", "b", "c"], ["b", "c", "d", "b"], ["c", "b"], ["a", "b", "c", "d"]] * 8
heads = [[2, 3, 0], [2, 0, 2, 3], [0, 1], [2, 3, 0, 3]] * 8
kind = sys.argv[1]
X = [[{"form": w, "xpos": tags[w], **({"upos": upos[w], "lemma": w} if kind == "coarse" else {})}
      for w in s] for s in sentences]  # fmt: skip
features = ArcFeatures(fields=("lemma",) if kind == "coarse" else ())
model = StructuredPerceptron(ArcEager(beam_size=4), features=features, max_iter=2,
                             update="max_violation", random_state=0)  # fmt: skip
start = time.perf_counter()
model.fit(X, heads)
fit = time.perf_counter() - start
print(f"{kind}: fit {fit:.2f} s, {_compiles.summary()}")
