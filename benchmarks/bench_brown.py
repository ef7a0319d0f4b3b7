"""Beam search where exact search hurts: Brown POS tagging with 472 tags.

First 10,000 sentences of Brown (``fetch_brown``) for training, the next 2,000
for test; sklearn-crfsuite tutorial-style word features (the tutorial's set without
POS columns). Side by side in one process, 10 epochs each:

- skstruct ``StructuredPerceptron(BeamSearch(beam_size=4), update="max_violation")``,
- skstruct ``StructuredPerceptron(Viterbi())`` (exact first order, O(n L^2)),
- ``sklearn_crfsuite.CRF(algorithm="ap", max_iterations=10)``.

Printed: fit seconds and seconds per epoch, predict seconds, test token accuracy,
and the ratios the issue sets targets for.

Run: ``python benchmarks/bench_brown.py``
The corpora come from the ``fetch_*`` functions of ``skstruct.datasets``: read from
``$SKSTRUCT_DATA`` or ``~/skstruct_data``, and downloaded there when missing.
"""

import argparse
import time

import sklearn_crfsuite
from _corpora import brown_pos

from skstruct import BeamSearch, StructuredPerceptron, Viterbi
from skstruct.metrics import token_accuracy


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n-train", type=int, default=10_000)
    parser.add_argument("--n-test", type=int, default=2_000)
    parser.add_argument("--max-iter", type=int, default=10)
    parser.add_argument("--skip-crfsuite", action="store_true")
    args = parser.parse_args()

    X_train, y_train, X_test, y_test = brown_pos(args.n_train, args.n_test)
    n_tags = len({t for seq in y_train for t in seq})
    print(
        f"Brown: {len(X_train)} training sentences ({sum(map(len, X_train))} tokens, "
        f"{n_tags} tags), {len(X_test)} test sentences ({sum(map(len, X_test))} tokens)"
    )
    # compile (or load) the kernels outside the timings
    StructuredPerceptron(BeamSearch(), update="max_violation", max_iter=1).fit(
        X_train[:5], y_train[:5]
    ).predict(X_test[:2])
    StructuredPerceptron(max_iter=1).fit(X_train[:5], y_train[:5]).predict(X_test[:2])

    learners = {
        "beam(4) max-violation": StructuredPerceptron(
            BeamSearch(beam_size=4),
            update="max_violation",
            max_iter=args.max_iter,
            random_state=0,
        ),
        "exact Viterbi": StructuredPerceptron(Viterbi(), max_iter=args.max_iter, random_state=0),
    }
    if not args.skip_crfsuite:
        learners["CRFsuite-AP"] = sklearn_crfsuite.CRF(algorithm="ap", max_iterations=args.max_iter)
    results = {}
    for name, model in learners.items():
        start = time.perf_counter()
        model.fit(X_train, y_train)
        fit = time.perf_counter() - start
        start = time.perf_counter()
        y_pred = list(model.predict(X_test))
        predict = time.perf_counter() - start
        accuracy = 100 * token_accuracy(y_test, y_pred)
        history = getattr(model, "history_", None)
        per_epoch = (sum(r["seconds"] for r in history) / len(history)) if history else None
        results[name] = (fit, per_epoch, predict, accuracy)
        epoch_text = f"{per_epoch:8.2f}" if per_epoch is not None else f"{'-':>8}"
        print(
            f"{name:<22} fit {fit:8.2f} s  per epoch {epoch_text} s  "
            f"predict {predict:7.2f} s  accuracy {accuracy:6.2f}",
            flush=True,
        )

    beam, exact = results["beam(4) max-violation"], results["exact Viterbi"]
    print(
        f"\nbeam(4) vs exact Viterbi: {exact[1] / beam[1]:.1f}x faster per epoch, "
        f"accuracy {beam[3] - exact[3]:+.2f} points"
    )
    if "CRFsuite-AP" in results:
        crf = results["CRFsuite-AP"]
        print(
            f"beam(4) vs CRFsuite-AP: {crf[0] / beam[0]:.1f}x faster to fit, "
            f"{crf[2] / beam[2]:.1f}x faster to predict, accuracy {beam[3] - crf[3]:+.2f} points"
        )


if __name__ == "__main__":
    main()
