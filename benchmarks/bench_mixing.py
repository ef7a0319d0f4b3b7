"""Iterative parameter mixing against the serial averaged perceptron: time to the same score.

Issue 17's targets: on 2 cores, Brown 20,000 sentences, beam 4, 10 rounds of 2-shard
mixing on loky and on a 2-worker dask ``LocalCluster`` in <= 0.6x the serial 10-epoch
wall clock, within 0.3 of its accuracy (``--corpus brown --learner beam --n-train 20000
--rounds 10``); CoNLL-2002 Spanish, 2 shards, 10 rounds, F1 within 1.0 of serial;
16 workers on Brown full >= 6x faster. Measured side by side in one process:

1. the serial ``StructuredPerceptron(max_iter=10)``: ``fit`` wall clock and test score;
2. ``ParameterMixing(..., n_shards=N, iterative=True)``: the fewest rounds ``k`` whose
   model scores within 0.3 of (1) (each ``k`` a fit of its own; the models do not
   depend on the backend, which the tests check), or ``--rounds k``;
3. that fit of ``k`` rounds timed on N loky processes (started by a warm-up fit, as the
   kernels are compiled before any timing), N threads (the kernels release the GIL),
   an N-worker dask ``LocalCluster`` (as dask sets its workers up, and with glibc's
   malloc defaults: ``dask-glibc``, see ``benchmarks/_dask.py``) and, when installed, a
   local N-CPU ray instance (ray's joblib backend); per-round seconds and tasks resent
   (``--engines`` picks).

Also printed: the serial fit split into feature encoding and epochs, and the best ratio
any number of rounds could give with free, perfectly parallel rounds (``k`` rounds of
half an epoch against ``max_iter`` epochs, plus the same encoding).

Corpora: ``conll2002-es`` (Spanish NER, tutorial features, span F1 on testb) and
``brown`` (POS tagging with 283 tags, exact first-order Viterbi, token accuracy; an epoch
costs ~50x more per token, so the rounds are compute-bound).

Per round (after the first, which also sets the workers up) the wall clock is split into
the slowest shard's compute on its worker, the mixing in this process, and the rest
(shipping and scheduling): ``ParameterMixing.history_``'s ``compute_seconds`` and
``mix_seconds``.

``--input tokens`` gives the learner raw tokens and ``features=TokenFeatures()``, so that
every fit featurises (issue 38: "featurisation included"); ``--encode-on`` is
``ParameterMixing``'s ``encode_on`` (the workers or the parent featurise and encode), and
``--n-features`` hashes the features. The table's ``set-up`` column is the time before
the first epoch or round.

Run: ``python benchmarks/bench_mixing.py [--corpus brown] [--learner beam] [--n-train N]
[--input tokens] [--encode-on workers]``
The corpora come from the ``fetch_*`` functions of ``skstruct.datasets``: read from
``$SKSTRUCT_DATA`` or ``~/skstruct_data``, and downloaded there when missing.
"""

import argparse
import time

import joblib
from _corpora import brown_pos, conll2002_es
from _dask import local_dask

from skstruct import BeamSearch, ParameterMixing, StructuredPerceptron, TokenFeatures
from skstruct.metrics import span_f1_score, token_accuracy

CORPORA = {
    "conll2002-es": (conll2002_es, span_f1_score, "span F1"),
    "brown": (brown_pos, token_accuracy, "accuracy"),
}


def timed_fit(model, X, y):
    start = time.perf_counter()
    model.fit(X, y)
    return time.perf_counter() - start


#: ``--learner``: the serial learner, and the one each shard runs.
LEARNERS = {
    "viterbi": lambda: StructuredPerceptron(random_state=0),
    "beam": lambda: StructuredPerceptron(
        BeamSearch(beam_size=4), update="max_violation", random_state=0
    ),
}


def learner_for(args):
    """``--learner`` with ``TokenFeatures()`` for ``--input tokens``."""
    learner = LEARNERS[args.learner]()
    if args.input == "tokens":
        learner.set_params(features=TokenFeatures(), n_features=args.n_features)
    return learner


def mixing(args, n_rounds, n_shards=None, n_jobs=None):
    """``n_rounds`` of iterative mixing over ``n_shards`` shards (``--n-shards``) on
    ``n_jobs`` workers (one a shard), with ``learner_for(args)``."""
    n_shards = n_shards or args.n_shards
    return ParameterMixing(
        learner_for(args), n_shards=n_shards, max_iter=n_rounds, n_jobs=n_jobs or n_shards,
        encode_on=args.encode_on, mix_over=args.mix_over, random_state=0,
    )  # fmt: skip


def warm_up(args, X, y, X_test):
    """Compile (or load) ``learner_for(args)``'s kernels before any timing."""
    learner_for(args).set_params(max_iter=1).fit(X[:200], y[:200]).predict(X_test[:2])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="conll2002-es")
    parser.add_argument("--n-shards", type=int, default=2)
    parser.add_argument("--max-iter", type=int, default=10)
    parser.add_argument("--max-rounds", type=int, default=20)
    parser.add_argument("--tolerance", type=float, default=0.3)
    parser.add_argument("--learner", choices=sorted(LEARNERS), default="viterbi")
    parser.add_argument("--n-train", type=int, help="training sentences (brown only)")
    parser.add_argument(
        "--rounds", type=int, help="time this many rounds instead of the fewest within --tolerance"
    )
    parser.add_argument(
        "--engines",
        nargs="+",
        default=["loky", "threads", "dask", "dask-glibc", "ray"],
        choices=["loky", "threads", "dask", "dask-glibc", "ray"],
        help="dask-glibc: dask without its nannies' MALLOC_TRIM_THRESHOLD_ (glibc's "
        "malloc defaults in the workers, as loky's have)",
    )
    parser.add_argument(
        "--input", choices=["dicts", "tokens"], default="dicts",
        help="tutorial token dicts made before fit, or raw tokens that fit featurises "
        "(TokenFeatures())",
    )  # fmt: skip
    parser.add_argument(
        "--encode-on", choices=["auto", "workers", "parent"], default="auto",
        help="ParameterMixing's encode_on",
    )  # fmt: skip
    parser.add_argument(
        "--n-features", type=int, help="hash features into this many columns (--input tokens)"
    )
    parser.add_argument(
        "--mix-over", choices=["auto", "changed", "all"], default="auto",
        help="ParameterMixing's mix_over",
    )  # fmt: skip
    args = parser.parse_args()
    load, metric, metric_name = CORPORA[args.corpus]
    sizes = {"n_train": args.n_train} if args.n_train else {}
    X, y, X_test, y_test = load(tokens=args.input == "tokens", **sizes)

    def score(model):
        return 100 * metric(y_test, model.predict(X_test))

    serial = learner_for(args).set_params(max_iter=args.max_iter)
    serial_seconds = timed_fit(serial, X, y)
    serial_score = score(serial)
    epochs = sum(record["seconds"] for record in serial.history_)
    encoding = serial_seconds - epochs
    print(
        f"{args.corpus}: {len(X)} training sequences, {len(X_test)} test; serial "
        f"{args.max_iter} epochs: fit {serial_seconds:.2f} s (encoding and set-up "
        f"{encoding:.2f} s, epochs {epochs:.2f} s), {metric_name} {serial_score:.2f}"
    )

    # the rounds needed (threads: the fastest way to the same models)
    target = serial_score - args.tolerance
    trace = []
    with joblib.parallel_config(backend="threading"):
        for n_rounds in range(1, (args.rounds or args.max_rounds) + 1):
            if args.rounds and n_rounds < args.rounds:
                continue  # a fixed number of rounds: only that one
            trace.append(score(mixing(args, n_rounds).fit(X, y)))
            if trace[-1] >= target:
                break
    print(f"mixing {metric_name} by rounds: " + ", ".join(f"{s:.2f}" for s in trace))
    if trace[-1] < target:
        print(f"no run of <= {args.max_rounds} rounds reached {target:.2f}")
    n_rounds = args.rounds or len(trace)
    bound = (encoding + n_rounds * epochs / args.max_iter / args.n_shards) / serial_seconds
    print(
        f"rounds to within {args.tolerance} of serial: {n_rounds}; best possible time "
        f"ratio with free, perfectly parallel rounds: {bound:.2f}"
    )

    def warm_and_time(name):
        """Warm the engine's workers up (they load the kernels), then time a fit."""
        mixing(args, 1).fit(X[:200], y[:200])
        runs[name] = mixing(args, n_rounds)
        runs[name].seconds = timed_fit(runs[name], X, y)

    runs = {}
    workers = args.n_shards  # a worker (process, thread) per shard
    if "loky" in args.engines:
        warm_and_time(f"loky x{workers}")
    if "threads" in args.engines:
        with joblib.parallel_config(backend="threading"):
            warm_and_time(f"threads x{workers}")
    try:
        import distributed
    except ImportError:
        distributed = None
    for engine in ("dask", "dask-glibc"):
        if distributed is not None and engine in args.engines:
            with local_dask(workers, glibc_malloc=engine == "dask-glibc"):
                warm_and_time(f"{engine} x{workers}")
    try:
        import ray
        from ray.util.joblib import register_ray
    except ImportError:
        ray = None
    if ray is not None and "ray" in args.engines:
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        register_ray()
        with joblib.parallel_config(backend="ray"):
            warm_and_time(f"ray x{workers}")
        ray.shutdown()

    print(
        f"{'run':<14}{'rounds':>7}{'fit s':>8}{'set-up':>8}{'s/round':>9}{'compute':>9}"
        f"{'mix':>7}{'other':>7}{'resent':>8}{metric_name:>10}{'time ratio':>12}{'diff':>7}"
    )
    print(
        f"{'serial':<14}{args.max_iter:>7}{serial_seconds:8.2f}{encoding:8.2f}"
        f"{epochs / args.max_iter:9.3f}{'':>23}{'':>8}{serial_score:10.2f}{1:12.2f}{0:+7.2f}"
    )
    for name, model in runs.items():
        history = model.history_
        later = history[1:] or history  # the first round also sets the workers up

        def mean(key, rounds=later):
            return sum(r[key] for r in rounds) / len(rounds)

        per_round, compute, mix = mean("seconds"), mean("compute_seconds"), mean("mix_seconds")
        resent = sum(r["resent"] for r in history)
        model_score = score(model)
        setup = history[0]["elapsed"] - history[0]["seconds"]
        print(
            f"{name:<14}{n_rounds:>7}{model.seconds:8.2f}{setup:8.2f}{per_round:9.3f}{compute:9.3f}"
            f"{mix:7.3f}{per_round - compute - mix:7.3f}{resent:>8}{model_score:10.2f}"
            f"{model.seconds / serial_seconds:12.2f}{model_score - serial_score:+7.2f}"
        )
    print(
        "set-up = the fit before its first epoch or round (featurising and encoding "
        "included); per round, rounds after the first: compute = the slowest shard's epochs "
        "on its worker, mix = mixing in the parent, other = shipping and scheduling"
    )


if __name__ == "__main__":
    main()
