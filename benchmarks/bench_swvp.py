"""Cost of an SWVP epoch against a CSP epoch on CoNLL-2000 chunking (target: <= 3x).

Same token dicts (the sklearn-crfsuite tutorial features) for Collins' perceptron and
for SWVP with the paper's single-difference mixed assignments under each gamma and
mode; 10 epochs each, one process. Printed: mean epoch seconds (from ``history_``),
the ratio to CSP, and test span F1.

Run: ``python benchmarks/bench_swvp.py``
The corpora come from the ``fetch_*`` functions of ``skstruct.datasets``: read from
``$SKSTRUCT_DATA`` or ``~/skstruct_data``, and downloaded there when missing.
"""

import argparse

from skstruct import SWVP, StructuredPerceptron
from skstruct.datasets import fetch_conll2000
from skstruct.features import crfsuite_tutorial_features
from skstruct.metrics import span_f1_score


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-iter", type=int, default=10)
    args = parser.parse_args()
    train = fetch_conll2000("train")
    test = fetch_conll2000("test")
    X_train = crfsuite_tutorial_features(train.data)
    X_test = crfsuite_tutorial_features(test.data)
    SWVP(max_iter=1).fit(X_train[:20], train.target[:20])  # compile outside the timings
    StructuredPerceptron(max_iter=1).fit(X_train[:20], train.target[:20])

    learners = {"CSP": StructuredPerceptron(max_iter=args.max_iter, random_state=0)}
    for gamma in ("wm", "wmr"):
        for mode in ("aggressive", "balanced"):
            learners[f"SWVP single {gamma} {mode}"] = SWVP(
                gamma=gamma, mode=mode, beta=1.0, max_iter=args.max_iter, random_state=0
            )
    baseline = None
    print(f"{'learner':<28}{'s/epoch':>9}{'x CSP':>7}{'span F1':>9}")
    for name, model in learners.items():
        model.fit(X_train, train.target)
        epoch = sum(r["seconds"] for r in model.history_) / len(model.history_)
        baseline = baseline or epoch
        f1 = 100 * span_f1_score(test.target, model.predict(X_test))
        print(f"{name:<28}{epoch:9.3f}{epoch / baseline:7.2f}{f1:9.2f}", flush=True)


if __name__ == "__main__":
    main()
