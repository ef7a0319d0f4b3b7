"""Dev probe (issue 36): the grandparent graph voter's C. ``python c_probe.py C PASSES``
trains it on English-EWT train (gold annotation), prints its dev UAS and keeps its dev
heads in ``grand_C{C}_{PASSES}.pkl``."""

import pickle
import sys
import time

from skstruct import ArcFeatures, Eisner, StructuredSVM
from skstruct.datasets import fetch_ud


def main(C, passes):
    X, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data
    parser = StructuredSVM(Eisner(order=2, projectivize=True, grandparents=True), C=C,
                           max_iter=passes, tol=None, random_state=0,
                           features=ArcFeatures(fields=["lemma", "feats"]))  # fmt: skip
    start = time.perf_counter()
    parser.fit(X, [[token["head"] for token in s] for s in X])
    seconds = time.perf_counter() - start
    pred = [list(map(int, hs)) for hs in parser.predict(dev)]
    right = sum(p == token["head"] for s, ps in zip(dev, pred) for token, p in zip(s, ps))
    uas = 100 * right / sum(map(len, dev))
    print(f"C={C} passes={passes}: fit {seconds:.1f} s, dev UAS {uas:.2f}", flush=True)
    with open(f"grand_C{C}_{passes}.pkl", "wb") as file:
        pickle.dump(pred, file)


if __name__ == "__main__":
    main(float(sys.argv[1]), int(sys.argv[2]))
