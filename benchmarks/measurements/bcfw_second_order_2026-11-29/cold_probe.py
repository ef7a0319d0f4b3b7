import time, sys
t0 = time.perf_counter()
from skstruct import StructuredSVM, Eisner, ArcFeatures
from skstruct.datasets import fetch_ud
from skstruct.solvers._bcfw import FrankWolfeBlocks
if sys.argv[1] == "generic":
    FrankWolfeBlocks._fused = lambda self: None
X = fetch_ud("en_ewt", "dev").data[:300]
y = [[t["head"] for t in s] for s in X]
grand = sys.argv[2] == "grand"
t = time.perf_counter()
m = StructuredSVM(Eisner(order=2, projectivize=True, grandparents=grand), features=ArcFeatures(fields=["lemma","feats"]), C=0.03, max_iter=3, tol=None, random_state=0).fit(X, y)
t1 = time.perf_counter(); m.predict(X[:50]); t2 = time.perf_counter()
print(sys.argv[1:], f"first fit {t1-t:.1f}s predict {t2-t1:.1f}s")
