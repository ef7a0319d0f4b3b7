"""Probe (dev only): n-best reranking of the SVM parser on UD English-EWT (gold
annotation), a two-fold jack-knife on 2 cores.

``--order 1``: 10-best lists, perceptron rerankers naming words by their XPOS or UPOS
(``first_order.log``). ``--order 2``: 20-best lists, perceptron and BCFW rerankers on
them and on the lists cut to 10-best (``second_order.log``).

Run from the project root with ``SKSTRUCT_DATA`` set:
``python benchmarks/measurements/ud_reranking_probe_2026-11-29/probe.py --order 2``
"""

import argparse
import sys
import time
from pathlib import Path

from skstruct import ArcFeatures, Eisner, NBestReranker, StructuredSVM
from skstruct.datasets import fetch_ud
from skstruct.features import DependencyTreeFeatures
from skstruct.metrics import attachment_scores
from skstruct.reranking import JackknifedLists

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/
from bench_reranking import LEARNERS  # its perceptron and BCFW rerankers


def heads(data):
    return [[token["head"] for token in sentence] for sentence in data]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--order", type=int, choices=[1, 2], default=2)
    args = parser.parse_args()
    train, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data
    X, y, X_dev, y_dev = train, heads(train), dev, heads(dev)
    base = StructuredSVM(
        Eisner(order=args.order, projectivize=True),
        features=ArcFeatures(fields=("lemma", "feats")),
        C=0.03,
        max_iter=10,
        random_state=0,
    )
    n_best = 10 if args.order == 1 else 20

    def uas(predicted):
        return 100 * attachment_scores(y_dev, predicted, punct=None)["uas"]

    def reranked(features, learner, k, lists):
        start = time.perf_counter()
        reranker = NBestReranker(base, features, learner, n_best=k, cv=2, random_state=0)
        reranker.fit(X, y, lists=lists)
        score = uas(reranker.predict(X_dev))
        return (f"fit {time.perf_counter() - start:.1f} s, oracle "
                f"{100 * reranker.oracle_score_:.2f}, dev UAS {score:.2f}")  # fmt: skip

    start = time.perf_counter()
    jackknife = NBestReranker(base, DependencyTreeFeatures(), n_best=n_best, cv=2, n_jobs=2,
                              random_state=0)  # fmt: skip
    lists = jackknife.jackknife(X, y)
    print(f"jack-knife {time.perf_counter() - start:.1f} s", flush=True)
    print(f"base dev UAS {uas(lists.base.predict(X_dev)):.2f}", flush=True)
    if args.order == 1:
        for field in ("xpos", "upos"):
            result = reranked(DependencyTreeFeatures(field=field), None, n_best, lists)
            print(f"reranker ({field}) {result}", flush=True)
        return
    for k in (20, 10):
        cut = JackknifedLists(lists.base, [c if isinstance(c, str) else c[:k] for c in lists.lists])
        for name in ("perceptron", "bcfw"):
            learner = LEARNERS[name]
            print(f"k={k} {name}: {reranked(DependencyTreeFeatures(), learner(), k, cut)}",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
