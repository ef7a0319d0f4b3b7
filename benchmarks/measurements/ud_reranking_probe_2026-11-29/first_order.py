"""Probe (dev only): does n-best reranking with global tree features lift a first-order
SVM parser on UD English-EWT (gold annotation)?"""

import time

from skstruct import ArcFeatures, Eisner, NBestReranker, StructuredSVM
from skstruct.datasets import fetch_ud
from skstruct.features import DependencyTreeFeatures
from skstruct.metrics import attachment_scores

train, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data


def heads(data):
    return [[t["head"] for t in s] for s in data]


X, y, Xd, yd = train, heads(train), dev, heads(dev)
base = StructuredSVM(
    Eisner(projectivize=True),
    features=ArcFeatures(fields=("lemma", "feats")),
    C=0.03,
    max_iter=10,
    random_state=0,
)


def uas(pred):
    return 100 * attachment_scores(yd, pred, punct=None)["uas"]


t = time.perf_counter()
rr = NBestReranker(base, DependencyTreeFeatures(), n_best=10, cv=2, n_jobs=2, random_state=0)
lists = rr.jackknife(X, y)
print(f"jack-knife {time.perf_counter() - t:.1f} s", flush=True)
print(f"base dev UAS {uas(lists.base.predict(Xd)):.2f}", flush=True)
for field in ("xpos", "upos"):
    t = time.perf_counter()
    rr = NBestReranker(
        base, DependencyTreeFeatures(field=field), n_best=10, cv=2, n_jobs=2, random_state=0
    )
    rr.fit(X, y, lists=lists)
    print(
        f"reranker ({field}) fit {time.perf_counter() - t:.1f} s, "
        f"oracle {100 * rr.oracle_score_:.2f}, dev UAS {uas(rr.predict(Xd)):.2f}",
        flush=True,
    )
