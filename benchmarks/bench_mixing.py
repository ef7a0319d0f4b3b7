"""Iterative parameter mixing against the serial averaged perceptron (CoNLL-2002 Spanish NER).

Same token dicts (the sklearn-crfsuite tutorial features) for: the serial
``StructuredPerceptron(max_iter=10)``; ``ParameterMixing(..., iterative=True)`` with 2
loky worker processes, with 2 threads (numba kernels release the GIL), and on a
2-worker dask ``LocalCluster``. Printed: wall
clock of ``fit``, mean seconds per mixing round, span F1 on testb, and the ratios to
the serial run.

Run: ``SKSTRUCT_DATA=../shared/data python benchmarks/bench_mixing.py [--n-shards 2]``
"""

import argparse
import time

import joblib
from _corpora import conll2002_es

from skstruct import ParameterMixing, StructuredPerceptron
from skstruct.metrics import span_f1_score


def timed_fit(model, X, y, X_test, y_test):
    start = time.perf_counter()
    model.fit(X, y)
    seconds = time.perf_counter() - start
    return seconds, 100 * span_f1_score(y_test, model.predict(X_test))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n-shards", type=int, default=2)
    parser.add_argument("--max-iter", type=int, default=10)
    args = parser.parse_args()
    X, y, X_test, y_test = conll2002_es()

    serial = StructuredPerceptron(max_iter=args.max_iter, random_state=0)
    runs = {"serial": timed_fit(serial, X, y, X_test, y_test)}

    def mixing():
        return ParameterMixing(
            StructuredPerceptron(random_state=0),
            n_shards=args.n_shards,
            max_iter=args.max_iter,
            n_jobs=2,
            random_state=0,
        )

    loky = mixing()
    runs["mixing, loky x2"] = (*timed_fit(loky, X, y, X_test, y_test), loky)
    with joblib.parallel_config(backend="threading"):  # the kernels release the GIL
        threads = mixing()
        runs["mixing, threads x2"] = (*timed_fit(threads, X, y, X_test, y_test), threads)
    try:
        import distributed
    except ImportError:
        distributed = None
    if distributed is not None:
        with (
            distributed.LocalCluster(
                n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
            ) as cluster,
            distributed.Client(cluster),
            joblib.parallel_config(backend="dask"),
        ):
            dask_model = mixing()
            runs["mixing, dask x2"] = (*timed_fit(dask_model, X, y, X_test, y_test), dask_model)

    base_seconds, base_f1 = runs["serial"][:2]
    print(
        f"CoNLL-2002 es: {len(X)} training sentences, {len(X_test)} test (testb); "
        f"{args.n_shards} shards, {args.max_iter} epochs"
    )
    print(f"{'run':<20}{'fit s':>8}{'s/round':>9}{'span F1':>9}{'time ratio':>12}{'F1 diff':>9}")
    for name, (seconds, f1, *model) in runs.items():
        per_round = (
            sum(r["seconds"] for r in model[0].history_) / len(model[0].history_)
            if model
            else float("nan")
        )
        print(
            f"{name:<18}{seconds:8.2f}{per_round:9.3f}{f1:9.2f}{seconds / base_seconds:12.2f}"
            f"{f1 - base_f1:+9.2f}"
        )


if __name__ == "__main__":
    main()
