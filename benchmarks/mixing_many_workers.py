"""Iterative parameter mixing measured at many workers (issue 38, part 3): the rounds to the
serial accuracy and their wall time, for a machine with the cores to run one shard each.

Brown POS tagging with a learner and input of ``bench_mixing.py`` (``--learner``,
``--input``), all but the last 1,000 sentences for training by default:

1. the serial learner (``n_jobs=1``) for ``--serial-epochs`` epochs: the time it spends
   before its first epoch (``setup``), its epochs and its held-out accuracy (after 10
   epochs, the mixing fits' target less a tolerance; with fewer, its 10-epoch wall
   clock can only be extrapolated, ``setup + 10 * epoch``, and its accuracy is not the
   target's);
2. for each ``--workers S``: ``ParameterMixing(n_shards=S, n_jobs=S)`` on loky processes
   (started and given the kernels by a warm-up fit first), scored on the held-out
   sentences after every round; per round its wall clock, the slowest shard's epoch, the
   mixing, the tasks sent again and the held-out accuracy; the rounds a fit runs are as
   many as fit the ``--budget`` (seconds for the whole script), at most ``--max-rounds``;
3. after the first ``S``, ``--dask-rounds`` rounds of the same on an ``S``-worker dask
   ``LocalCluster`` (one thread each), for the per-round costs of a cluster (the models
   are the same on every backend, so their rounds to an accuracy are the loky fit's).

Everything goes to ``--out`` as JSON (``mixing_many_workers.json``) as it is measured;
``mixing_speedup_model.py --many-workers FILE`` prints the speed-ups at the target
accuracy and draws them beside the model's prediction.

Run (a machine of 16 cores; 3 minutes): ``python benchmarks/mixing_many_workers.py
--learner beam --input tokens --workers 16 8 4 --serial-epochs 10 --max-rounds 30
--budget 205 --out DIR``.
"""

import argparse
import importlib.util
import json
import os
import platform
import time
from pathlib import Path

import numpy as np
from _corpora import brown_pos
from _dask import local_dask
from bench_mixing import LEARNERS, learner_for, mixing, warm_up


def _rounds(history):
    """Per round: wall clock, slowest shard, mixing, held-out accuracy (%) and the time
    spent scoring it (``elapsed`` counts the scoring, ``seconds`` does not)."""
    rows, previous = [], None
    for record in history:
        scoring = None if previous is None else record["elapsed"] - previous - record["seconds"]
        rows.append({
            "seconds": record["seconds"],
            "compute": record["compute_seconds"],
            "mix": record["mix_seconds"],
            "resent": record["resent"],
            "accuracy": None if record["dev_score"] is None else 100 * record["dev_score"],
            "elapsed": record["elapsed"],
            "scoring": scoring,
        })  # fmt: skip
        previous = record["elapsed"]
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n-train", type=int, default=56_340)
    parser.add_argument("--workers", type=int, nargs="+", default=[16, 8])
    parser.add_argument("--learner", choices=sorted(LEARNERS), default="viterbi")
    parser.add_argument("--input", choices=["dicts", "tokens"], default="dicts")
    parser.add_argument("--mix-over", choices=["auto", "changed", "all"], default="auto")
    parser.add_argument("--serial-epochs", type=int, default=1)
    parser.add_argument("--max-rounds", type=int, default=25)
    parser.add_argument("--dask-rounds", type=int, default=3)
    parser.add_argument("--budget", type=float, default=420.0)
    parser.add_argument("--out", type=Path, default=Path("."))
    args = parser.parse_args()
    began = time.perf_counter()
    args.out.mkdir(parents=True, exist_ok=True)
    result = {
        "machine": {"cores": os.cpu_count(), "processor": platform.processor(),
                    "python": platform.python_version()},
        "args": {k: str(v) for k, v in vars(args).items()},
    }  # fmt: skip

    def save():
        (args.out / "mixing_many_workers.json").write_text(json.dumps(result, indent=1))

    args.n_features, args.encode_on = None, "auto"  # bench_mixing's: no hashing
    X, y, X_dev, y_dev = brown_pos(n_train=args.n_train, tokens=args.input == "tokens")
    result["sentences"] = {"train": len(X), "held_out": len(X_dev)}
    warm_up(args, X, y, X_dev)
    start = time.perf_counter()
    serial = learner_for(args).set_params(max_iter=args.serial_epochs, n_jobs=1)
    serial.fit(X, y)
    wall = time.perf_counter() - start
    epochs = [r["seconds"] for r in serial.history_]
    result["serial"] = {"epochs": epochs, "setup": wall - sum(epochs), "wall": wall,
                        "accuracy": 100 * serial.score(X_dev, y_dev)}  # fmt: skip
    save()
    print("serial", result["serial"], flush=True)
    epoch = float(np.mean(epochs))

    result["loky"], result["dask"] = {}, {}
    for n_shards in args.workers:
        mixing(args, 1, n_shards).fit(X[:2000], y[:2000])  # workers started, kernels loaded
        left = args.budget - (time.perf_counter() - began)
        # a round: the slowest shard (about twice its share of an epoch) and shipping
        guess = 2 * epoch / n_shards + 1.0
        rounds = int(min(args.max_rounds, (left - 20) // guess))
        if rounds < 2:
            print(f"{n_shards} workers: no time left", flush=True)
            break
        start = time.perf_counter()
        model = mixing(args, rounds, n_shards).fit(X, y, X_dev=X_dev, y_dev=y_dev)
        result["loky"][n_shards] = {"wall": time.perf_counter() - start,
                                    "rounds": _rounds(model.history_)}  # fmt: skip
        save()
        print(n_shards, "loky", json.dumps(result["loky"][n_shards]), flush=True)
        if n_shards == args.workers[0]:
            _dask(args, n_shards, X, y, result, guess, began)
            save()
    result["script_seconds"] = time.perf_counter() - began
    save()


def _dask(args, n_shards, X, y, result, guess, began):
    """``--dask-rounds`` rounds on an ``n_shards``-worker ``LocalCluster``, time allowing."""
    if importlib.util.find_spec("distributed") is None:
        return
    left = args.budget - (time.perf_counter() - began)
    if not args.dask_rounds or left < 20 + args.dask_rounds * guess:
        return
    with local_dask(n_shards):
        mixing(args, 1, n_shards).fit(X[:2000], y[:2000])
        start = time.perf_counter()
        model = mixing(args, args.dask_rounds, n_shards).fit(X, y)
        result["dask"][n_shards] = {"wall": time.perf_counter() - start,
                                    "rounds": _rounds(model.history_)}  # fmt: skip
    print(n_shards, "dask", json.dumps(result["dask"][n_shards]), flush=True)


if __name__ == "__main__":
    main()
