"""Probe (dev only): n-best reranking of the second-order SVM parser on UD English-EWT
(gold annotation), cv=2, 20-best lists; perceptron and BCFW rerankers, 10 and 20 best."""

import pickle
import time

from skstruct import (
    ArcFeatures,
    BestCandidate,
    Eisner,
    NBestReranker,
    StructuredPerceptron,
    StructuredSVM,
)
from skstruct.datasets import fetch_ud
from skstruct.features import DependencyTreeFeatures
from skstruct.metrics import attachment_scores
from skstruct.reranking import JackknifedLists

train, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data


def heads(data):
    return [[t["head"] for t in s] for s in data]


X, y, Xd, yd = train, heads(train), dev, heads(dev)
base = StructuredSVM(
    Eisner(order=2, projectivize=True),
    features=ArcFeatures(fields=("lemma", "feats")),
    C=0.03,
    max_iter=10,
    random_state=0,
)


def uas(pred):
    return 100 * attachment_scores(yd, pred, punct=None)["uas"]


t = time.perf_counter()
rr = NBestReranker(base, DependencyTreeFeatures(), n_best=20, cv=2, n_jobs=2, random_state=0)
lists = rr.jackknife(X, y)
print(f"jack-knife {time.perf_counter() - t:.1f} s", flush=True)
pickle.dump(lists, open("ewt_lists2.pkl", "wb"))
print(f"base dev UAS {uas(lists.base.predict(Xd)):.2f}", flush=True)
learners = {
    "perceptron": lambda: StructuredPerceptron(BestCandidate(), random_state=0),
    "bcfw": lambda: StructuredSVM(BestCandidate(), max_iter=20, random_state=0),
}
for k in (20, 10):
    cut = JackknifedLists(lists.base, [c if isinstance(c, str) else c[:k] for c in lists.lists])
    for name, make in learners.items():
        t = time.perf_counter()
        rr = NBestReranker(base, DependencyTreeFeatures(), make(), n_best=k, cv=2, random_state=0)
        rr.fit(X, y, lists=cut)
        print(
            f"k={k} {name}: fit {time.perf_counter() - t:.1f} s, "
            f"oracle {100 * rr.oracle_score_:.2f}, dev UAS {uas(rr.predict(Xd)):.2f}",
            flush=True,
        )
