"""Training on partially labelled sequences: CoNLL-2000 chunking with labels hidden.

Issue 19's target: with 30 % of the training tokens' labels hidden at random (None in
``y``), span F1 on the test set within 1.5 of full supervision. Each model is the
averaged perceptron (Viterbi, 10 epochs, tutorial features); with hidden labels its gold
is the best path that has the known labels (the latent-variable perceptron). Printed:
span F1, fit seconds.

Run: ``python benchmarks/bench_partial.py [--hidden 0.3 0.5]``
"""

import argparse
import time

import numpy as np

from skstruct import StructuredPerceptron
from skstruct.datasets import fetch_conll2000
from skstruct.features import crfsuite_tutorial_features
from skstruct.metrics import span_f1_score


def hide(y, fraction, seed=0):
    rng = np.random.default_rng(seed)
    return [[None if rng.random() < fraction else label for label in seq] for seq in y]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hidden", type=float, nargs="+", default=[0.3])
    args = parser.parse_args()
    train, test = fetch_conll2000("train"), fetch_conll2000("test")
    X, X_test = crfsuite_tutorial_features(train.data), crfsuite_tutorial_features(test.data)
    print(f"{'labels hidden':<15}{'span F1':>9}{'fit s':>8}")
    for fraction in [0.0, *args.hidden]:
        y = hide(train.target, fraction) if fraction else train.target
        model = StructuredPerceptron(random_state=0)
        start = time.perf_counter()
        model.fit(X, y)
        seconds = time.perf_counter() - start
        f1 = 100 * span_f1_score(test.target, model.predict(X_test))
        print(f"{fraction:<15.0%}{f1:9.2f}{seconds:8.2f}")


if __name__ == "__main__":
    main()
