"""First CKY fits on an empty numba cache: ``NUMBA_CACHE_DIR=<fresh> python cold.py LABEL``."""

import sys
import time

from skstruct import CKY, ConditionalRandomField, StructuredPerceptron
from skstruct.trees import Tree

trees = [Tree.fromstring("( (S (NP (DT the) (NN dog)) (VP (VBZ barks))) )"),
         Tree.fromstring("( (S (NP (NN it)) (VP (VBZ works))) )")]  # fmt: skip
X = [tree.pos() for tree in trees]
start = time.perf_counter()
StructuredPerceptron(CKY(), random_state=0).fit(X, trees).predict(X)
perceptron = time.perf_counter() - start
start = time.perf_counter()
ConditionalRandomField(CKY(), max_iter=3).fit(X, trees)
crf = time.perf_counter() - start
print(sys.argv[1], f"perceptron fit+predict {perceptron:.1f} s, CRF fit {crf:.1f} s")
