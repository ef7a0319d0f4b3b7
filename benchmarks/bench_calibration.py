"""Calibration of token marginals on held-out-style NER: CoNLL-2002 Spanish.

Issue 19's target: after temperature scaling on the dev set (testa), the expected
calibration error (15 bins, top label) of the token marginals on testb is <= 0.02.
For each model: ECE on testb before and after ``calibrate(testa)``, the fitted
temperature, token accuracy, and ``--plot PATH`` writes the reliability diagrams.

Run: ``python benchmarks/bench_calibration.py [--plot reliability.png]``
"""

import argparse
import time
import warnings

from _corpora import conll2002_es

from skstruct import LinearChainCRF, StructuredPerceptron, Viterbi
from skstruct.datasets import fetch_conll2002
from skstruct.features import crfsuite_tutorial_features
from skstruct.metrics import expected_calibration_error, span_f1_score
from skstruct.structures.constraints import ForbiddenGoldWarning

MODELS = {
    "perceptron": lambda: StructuredPerceptron(Viterbi(allowed="bio"), random_state=0),
    "crf": lambda: LinearChainCRF(allowed="bio", c1=0.1, c2=0.1, max_iter=100),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="+", choices=sorted(MODELS), default=sorted(MODELS))
    parser.add_argument("--plot", help="write the reliability diagrams to this file")
    args = parser.parse_args()
    X, y, X_test, y_test = conll2002_es()
    dev = fetch_conll2002("es", "testa")
    X_dev, y_dev = crfsuite_tutorial_features(dev.data), dev.target
    axes = None
    if args.plot:
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(1, len(args.models), figsize=(5 * len(args.models), 4.5))
        axes = [axes] if len(args.models) == 1 else list(axes)
    print(
        f"{'model':<12}{'span F1':>9}{'ECE before':>12}{'T':>9}{'ECE after':>11}{'calibrate s':>13}"
    )
    for j, name in enumerate(args.models):
        model = MODELS[name]()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ForbiddenGoldWarning)  # one I-LOC first in train
            model.fit(X, y)
        f1 = 100 * span_f1_score(y_test, model.predict(X_test))
        before = model.predict_marginals(X_test)
        start = time.perf_counter()
        model.calibrate(X_dev, y_dev)
        seconds = time.perf_counter() - start
        after = model.predict_marginals(X_test)
        ece_before = expected_calibration_error(y_test, before)
        ece_after = expected_calibration_error(y_test, after)
        print(f"{name:<12}{f1:9.2f}{ece_before:12.4f}{model.temperature_:9.3f}{ece_after:11.4f}"
              f"{seconds:13.2f}")  # fmt: skip
        if axes is not None:
            from skstruct.plot import plot_reliability

            plot_reliability(y_test, before, ax=axes[j], label="T = 1")
            plot_reliability(y_test, after, ax=axes[j], label=f"T = {model.temperature_:.2f}")
            axes[j].set_title(f"{name}, CoNLL-2002 es testb")
    if axes is not None:
        figure.tight_layout()
        figure.savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
