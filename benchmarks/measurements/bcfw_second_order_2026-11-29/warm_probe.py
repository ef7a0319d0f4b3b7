import time, sys
import numpy as np
from skstruct import StructuredSVM, Eisner, ArcFeatures
from skstruct.datasets import fetch_ud
from skstruct.solvers._bcfw import FrankWolfeBlocks
X = fetch_ud("en_ewt", "train").data[:3000]
dev = fetch_ud("en_ewt", "dev").data[:1000]
y = [[t["head"] for t in s] for s in X]
def model(order, grand):
    return StructuredSVM(Eisner(order=order, projectivize=True, grandparents=grand),
        features=ArcFeatures(fields=["lemma","feats"]), C=0.03, max_iter=3, tol=None, random_state=0)
orig = FrankWolfeBlocks._fused
for order, grand in ((2, False), (2, True)):
    model(order, grand).fit(X[:50], y[:50])
    FrankWolfeBlocks._fused = lambda self: None
    model(order, grand).fit(X[:50], y[:50])
    FrankWolfeBlocks._fused = orig
    res = {}
    for kind in ("generic", "fused", "generic", "fused"):
        FrankWolfeBlocks._fused = orig if kind == "fused" else (lambda self: None)
        t = time.perf_counter(); m = model(order, grand).fit(X, y); sec = time.perf_counter() - t
        pred = m.predict(dev)
        uas = np.mean([int(p) == t["head"] for s, ps in zip(dev, pred) for t, p in zip(s, ps)])
        print(order, grand, kind, f"{sec:.1f}s", f"uas {100*uas:.2f}", flush=True)
        res.setdefault(kind, []).append(m.coef_.copy())
    FrankWolfeBlocks._fused = orig
    print("same weights:", np.allclose(res["fused"][0], res["generic"][0], rtol=1e-7, atol=1e-9))
