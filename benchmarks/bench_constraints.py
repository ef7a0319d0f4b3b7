"""Constrained decoding on held-out-style NER: CoNLL-2002 Spanish, tutorial features.

Issue 19's target: ``allowed="bio"`` leaves no invalid transition in the predictions on
testb, with span F1 not below the unconstrained model's. For each decoder, the averaged
perceptron (10 epochs) is trained without and with ``allowed="bio"``; printed: span F1
on testb, the predicted sequences that break BIO (and the gold ones, for scale), fit and
predict seconds, and ``predict_nbest(k=5)`` seconds.

Run: ``python benchmarks/bench_constraints.py``
"""

import time
import warnings

import numpy as np
from _corpora import conll2002_es

from skstruct import BeamSearch, StructuredPerceptron, Viterbi
from skstruct.metrics import span_f1_score
from skstruct.structures.constraints import ChainConstraints, ForbiddenGoldWarning


def broken(sequences, labels):
    """How many of ``sequences`` break BIO (IOB2)."""
    c = ChainConstraints.from_allowed("bio", labels)
    index = {label: i for i, label in enumerate(labels)}
    ids = np.array([index[label] for seq in sequences for label in seq])
    return c.violations(ids, np.cumsum([0] + [len(seq) for seq in sequences]))[0].size


def main():
    X, y, X_test, y_test = conll2002_es()
    labels = sorted({label for seq in y for label in seq})
    print(f"gold testb sequences that break BIO: {broken(y_test, labels)} of {len(y_test)}")
    print(
        f"{'decoder':<42}{'span F1':>9}{'broken':>8}{'fit s':>8}{'predict s':>10}{'5-best s':>10}"
    )
    for make, update in [
        (Viterbi, "standard"),
        (lambda **kw: BeamSearch(4, **kw), "max_violation"),
    ]:
        for allowed in (None, "bio"):
            model = StructuredPerceptron(make(allowed=allowed), update=update, random_state=0)
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ForbiddenGoldWarning)  # one I-LOC first
                model.fit(X, y)
            fit = time.perf_counter() - start
            start = time.perf_counter()
            predicted = model.predict(X_test)
            predict = time.perf_counter() - start
            start = time.perf_counter()
            model.predict_nbest(X_test, k=5)
            nbest = time.perf_counter() - start
            f1 = 100 * span_f1_score(y_test, predicted)
            print(f"{model.decoder!r:<42}{f1:9.2f}{broken(predicted, labels):8d}{fit:8.2f}"
                  f"{predict:10.3f}{nbest:10.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
