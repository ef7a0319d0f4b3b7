"""A parser's featurisation, ``ArcFeatures.transform``, on UD English-EWT train (204,585
words), with the UPOS as coarse POS and the lemma and FEATS as fields (the UD
pipeline's graph parsers' features): the best of 5 transforms after a fit.

Run: ``python arc_transform.py LABEL`` with the skstruct to time on the path.
"""

import os
import sys
import time
from pathlib import Path

import skstruct
from skstruct import ArcFeatures
from skstruct.datasets import load_conllu


def main():
    X, _ = load_conllu(Path(os.environ["SKSTRUCT_DATA"]) / "ud-ewt" / "en_ewt-ud-train.conllu")
    features = ArcFeatures(fields=["lemma", "feats"]).fit(X)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        features.transform(X)
        times.append(time.perf_counter() - start)
    print(f"{sys.argv[1]} ({Path(skstruct.__file__).parents[1]}): transform best "
          f"{min(times):.3f} s, median {sorted(times)[2]:.3f} s", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
