"""The UD pipeline's graph parser alone, with and without grandparent parts (issue 36):
``graph_parser()`` (a structured SVM, C=0.03, second-order Eisner over ArcFeatures with
the lemma and FEATS fields, 10 passes) trained on UD English-EWT train with its gold
annotation, scored by UAS on dev (every word).

Run from the project root with ``SKSTRUCT_DATA`` set:
``python benchmarks/measurements/ud_grandparents_2026-11-29/probe.py [--grandparents]``.
"""

import argparse
import time

from skstruct.datasets import fetch_ud
from skstruct.metrics import attachment_scores
from skstruct.parsing import graph_parser


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grandparents", action="store_true")
    args = parser.parse_args()
    train, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data
    heads = [[token["head"] for token in sentence] for sentence in train]
    gold = [[token["head"] for token in sentence] for sentence in dev]
    model = graph_parser(grandparents=args.grandparents, random_state=0)
    start = time.perf_counter()
    model.fit(train, heads)
    fitted = time.perf_counter() - start
    start = time.perf_counter()
    predicted = model.predict(dev)
    parsed = time.perf_counter() - start
    uas = 100 * attachment_scores(gold, predicted)["uas"]
    print(f"grandparents={args.grandparents}: fit {fitted:.1f} s, dev parsed in {parsed:.1f} s, "
          f"dev UAS {uas:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
