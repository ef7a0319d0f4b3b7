"""A model of iterative parameter mixing's wall time at many workers, from costs measured
on this machine (issue 38, part 3).

The wall time of a mixing fit with ``S`` workers (one shard each) is modelled as

    T(S) = setup(S) + rounds(S) * (compute(S) + mix(S) + ship(S))

- ``setup(S)``: the time before the first round. Where the parent featurises and
  encodes the corpus (token dicts: ``encode_on="auto"`` keeps them there), the serial
  fit's time outside its epochs, whatever ``S``. Where the workers featurise their
  shards (``--input tokens``), measured part by part for each ``S`` in this process
  (``_setup_parts``): the slowest shard's encoding (the shards are encoded side by
  side, one a worker), plus what the parent does (fitting the feature transformer,
  merging the ``S`` vocabularies and label sets, renumbering, writing the shard files);
  plus the shipping of the raw shards out and their encodings back, the 2-worker fit's
  measured set-up less those parts, the same for every ``S`` (the bytes are the
  corpus's, however cut). Beyond the shard counts measured, the encoding shrinks as
  ``1 / S`` and the parent's part grows linearly, fitted on them;
- ``rounds(S)``: the rounds ``S``-shard mixing needs to reach the serial 10-epoch
  held-out accuracy less ``--tolerance``: measured here, since the models do not depend
  on how many workers run them (each ``S`` is fitted with its shards one after another,
  ``n_jobs=1``, and scored on the held-out sentences after every round); beyond the
  shard counts measured, extrapolated as ``S ** growth``, the growth fitted on them;
- ``compute(S)``: the slowest shard's epoch in a round, measured in those fits with no
  other shard running beside it;
- ``mix(S)``: the mixing in the parent, measured in those fits;
- ``ship(S)``: sending the mixed weights out and the shards' weights back, and the
  scheduling: measured on this machine's 2 workers (loky processes, or a 2-worker dask
  ``LocalCluster``, one fit of ``rounds(2)`` rounds as the round's wall time less its
  compute and mix) and grown linearly with ``S`` (the parent sends and receives one
  weight vector per worker, one after another). Printed beside it, a second model of
  the shipping, ``ship(S) = latency + S * task``: ``task`` the parent's CPU time a task
  costs it (dispatching, pickling, receiving), measured with the largest shard count
  on the 2 workers (the parent's CPU time over 3 rounds less their mixing, per task);
  ``latency`` the rest of the 2-worker shipping, the same for every ``S``.

The model is checked against the measured 2-worker wall times, and predicts the speed-up
``T_serial / T(S)`` at 4, 8, 16 and 64 workers on one machine (loky) and on a cluster
(dask), drawn into ``--figure`` (``docs/figures/mixing_speedup_model.png``). With
``--many-workers FILE`` (the JSON of ``mixing_many_workers.py``, the same corpus and
learner measured on a machine with a core per worker), the speed-ups measured there are
printed and drawn beside the predicted ones.

Run: ``python benchmarks/mixing_speedup_model.py [--n-train N] [--shards 2 4 8 16]
[--max-rounds 40] [--learner beam] [--input tokens]`` (Brown POS tagging; the learners
and inputs of ``bench_mixing.py``, by default exact first-order Viterbi on tutorial
dicts). ``--n-train`` None: all but the 1,000 held-out sentences. A Viterbi epoch's cost
grows faster than the data, likely as the emission rows fill (4,000, 8,000 and 16,000 sentences:
4.5, 12.5 and 37.8 s on 2 cores; all 56,340: 405 s on a lent 16-core machine), so that
measurement takes many hours; with ``--learner beam`` an epoch of all of Brown takes
about 3 s and the whole script about 10 minutes (30 rounds a shard count).
"""

import argparse
import importlib.util
import resource
import time
from pathlib import Path

import joblib
import numpy as np
from _corpora import brown_pos
from _dask import local_dask
from bench_mixing import LEARNERS, learner_for, mixing, warm_up

from skstruct.engine._loop import training_data
from skstruct.learners._shard_cache import remove_shards, write_shards

FIGURE = Path(__file__).resolve().parents[1] / "docs" / "figures" / "mixing_speedup_model.png"
PREDICTED = [2, 4, 8, 16, 64]


def _setup_parts(args, X, y, n_shards):
    """``(encode, parent)`` seconds of the set-up of an ``n_shards`` fit whose workers
    encode their shards, measured in this process: the slowest shard's
    ``encode_shard`` and the parent's work (``shard_encoder``, which fits the feature
    transformer, ``init_state_from_shards``, which merges the vocabularies and label sets
    and renumbers the shards, and writing the shard files); None where the learner
    encodes in the parent."""
    learner = learner_for(args)
    start = time.perf_counter()
    template = learner.shard_encoder(X, only_if_cheaper=True)
    parent = time.perf_counter() - start
    if template is None:
        return None
    shards = np.array_split(np.random.RandomState(0).permutation(len(X)), n_shards)
    encodings, encode = [], 0.0
    for shard in shards:
        start = time.perf_counter()
        encodings.append(template.encode_shard([X[i] for i in shard], [y[i] for i in shard]))
        encode = max(encode, time.perf_counter() - start)
    start = time.perf_counter()
    _, data = learner.init_state_from_shards(encodings)
    folder, _ = write_shards([training_data(encoded, labels, None) for encoded, labels in data])
    parent += time.perf_counter() - start
    remove_shards(folder)
    return encode, parent


def _parent_cpu_per_task(args, X, y, n_shards):
    """The parent's CPU seconds a shard task costs it in a round (dispatching, pickling,
    receiving), measured with ``n_shards`` shards on 2 workers of the active backend:
    the difference of a 5-round and a 2-round fit's CPU time in this process, less their
    mixing, per task of the 3 rounds."""
    used = {}
    for rounds in (2, 5):
        model = mixing(args, rounds, n_shards, 2)
        start = _cpu()
        model.fit(X, y)
        used[rounds] = _cpu() - start - sum(r["mix_seconds"] for r in model.history_)
    return max(used[5] - used[2], 0.0) / (3 * n_shards)


def _cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _later(history, key):
    """The mean of ``key`` over the rounds after the first (which sets the workers up)."""
    rounds = history[1:] or history
    return sum(r[key] for r in rounds) / len(rounds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n-train", type=int, default=None)
    parser.add_argument("--shards", type=int, nargs="+", default=[2, 4, 8, 16])
    parser.add_argument("--max-rounds", type=int, default=40)
    parser.add_argument("--tolerance", type=float, default=0.3)
    parser.add_argument("--learner", choices=sorted(LEARNERS), default="viterbi")
    parser.add_argument("--input", choices=["dicts", "tokens"], default="dicts")
    parser.add_argument(
        "--many-workers", type=Path,
        help="JSON of mixing_many_workers.py (the same corpus and learner, measured on a "
        "machine with a core per worker): its measured speed-ups go beside the predicted",
    )  # fmt: skip
    parser.add_argument("--mix-over", choices=["auto", "changed", "all"], default="auto")
    parser.add_argument("--figure", type=Path, default=FIGURE)
    args = parser.parse_args()
    args.n_features, args.encode_on = None, "auto"  # bench_mixing's: no hashing
    n_train = args.n_train or 56_340
    X, y, X_dev, y_dev = brown_pos(n_train=n_train, tokens=args.input == "tokens")
    warm_up(args, X, y, X_dev)

    start = time.perf_counter()
    serial = learner_for(args).set_params(max_iter=10).fit(X, y)
    serial_wall = time.perf_counter() - start
    epoch = sum(r["seconds"] for r in serial.history_) / 10
    setup = serial_wall - 10 * epoch
    accuracy = 100 * serial.score(X_dev, y_dev)
    target = accuracy - args.tolerance
    print(f"brown: {len(X)} training sentences, {len(X_dev)} held out; serial 10 epochs "
          f"{serial_wall:.2f} s (setup {setup:.2f} s, epoch {epoch:.3f} s), held-out "
          f"accuracy {accuracy:.2f}; target {target:.2f}", flush=True)  # fmt: skip

    measured = {}
    for n_shards in args.shards:
        with joblib.parallel_config(backend="threading"):
            model = mixing(args, args.max_rounds, n_shards, 1).fit(X, y, X_dev=X_dev, y_dev=y_dev)
        curve = [100 * r["dev_score"] for r in model.history_]
        reached = next((t + 1 for t, score in enumerate(curve) if score >= target), None)
        measured[n_shards] = {
            "rounds": reached,
            "compute": _later(model.history_, "compute_seconds"),
            "mix": _later(model.history_, "mix_seconds"),
            "curve": curve,
        }
        print(f"{n_shards:>3} shards: rounds to {target:.2f}: {reached}; compute "
              f"{measured[n_shards]['compute']:.3f} s, mix {measured[n_shards]['mix']:.3f} s "
              f"a round; accuracy by round: "
              + " ".join(f"{s:.2f}" for s in curve), flush=True)  # fmt: skip

    parts = {n_shards: _setup_parts(args, X, y, n_shards) for n_shards in args.shards}
    if parts[2] is not None:
        print("set-up parts (encoding: the slowest shard; parent: feature transformer, "
              "merge, renumbering, shard files): "
              + ", ".join(f"{n} shards {e:.3f} + {p:.3f} s"
                          for n, (e, p) in parts.items()))  # fmt: skip

    two = measured[2]
    rounds_two = two["rounds"] or args.max_rounds
    engines = {"loky": {}}
    if importlib.util.find_spec("distributed") is not None:
        engines["dask"] = {}
    for engine in engines:
        mixing(args, 1, 2, 2).fit(X[:200], y[:200])  # workers started, kernels loaded
        if engine == "dask":
            with local_dask(2):
                mixing(args, 1, 2, 2).fit(X[:200], y[:200])
                start = time.perf_counter()
                model = mixing(args, rounds_two, 2, 2).fit(X, y)
                wall = time.perf_counter() - start
        else:
            start = time.perf_counter()
            model = mixing(args, rounds_two, 2, 2).fit(X, y)
            wall = time.perf_counter() - start
        per_round = _later(model.history_, "seconds")
        ship = (
            per_round
            - _later(model.history_, "compute_seconds")
            - _later(model.history_, "mix_seconds")
        )
        first = model.history_[0]["seconds"] - per_round  # the workers set up
        setup_two = model.history_[0]["elapsed"] - model.history_[0]["seconds"]
        if engine == "dask":
            with local_dask(2):
                task = _parent_cpu_per_task(args, X, y, max(args.shards))
        else:
            task = _parent_cpu_per_task(args, X, y, max(args.shards))
        # the set-up beyond its measured parts: the raw shards out, the encodings back
        setup_ship = None if parts[2] is None else max(setup_two - sum(parts[2]), 0.0)
        engines[engine] = {"wall": wall, "ship": max(ship, 0.0), "first": max(first, 0.0),
                           "setup": setup_two, "setup_ship": setup_ship, "task": task,
                           "latency": max(ship - 2 * task, 0.0)}  # fmt: skip

    # beyond the measured shards: rounds grow as S ** growth (fitted in log-log space on
    # the measured shard counts), compute shrinks as 1 / S, mixing grows as S
    reached = {s: m["rounds"] for s, m in measured.items() if m["rounds"]}
    growth = None
    if len(reached) >= 2:
        logs = np.log2(np.array(sorted(reached.items()), dtype=float))
        growth = float(np.polyfit(logs[:, 0], logs[:, 1], 1)[0])
        print(f"rounds grow as S ** {growth:.2f} over {sorted(reached)} shards")

    def setup_at(n_shards, engine):
        """The set-up of an ``n_shards`` fit (see the module's docstring)."""
        if parts[2] is None:
            return setup
        if n_shards in parts:
            encode, parent = parts[n_shards]
        else:
            last = max(parts)
            encode = parts[last][0] * last / n_shards
            counts = sorted(parts)
            slope, intercept = np.polyfit(counts, [parts[c][1] for c in counts], 1)
            parent = intercept + slope * n_shards
        return encode + parent + engines[engine]["setup_ship"]

    def predict(n_shards, engine, rounds=None, shipping="linear"):
        """(rounds, wall clock) at ``n_shards`` workers; ``rounds`` given: that many;
        ``shipping``: ``"linear"`` or ``"tasks"`` (latency + S * task, see the docstring)."""
        cost = measured.get(n_shards)
        if cost is None:
            last = max(measured)
            rounds = measured[last]["rounds"]
            if rounds is not None and growth is not None:
                rounds = int(np.ceil(rounds * (n_shards / last) ** growth))
            cost = dict(rounds=rounds, compute=measured[last]["compute"] * last / n_shards,
                        mix=measured[last]["mix"] * n_shards / last)  # fmt: skip
        rounds = rounds or cost["rounds"]
        if rounds is None:
            return None, None
        e = engines[engine]
        if shipping == "linear":
            ship = e["ship"] * n_shards / 2
        else:
            ship = e["latency"] + n_shards * e["task"]
        wall = (
            setup_at(n_shards, engine)
            + e["first"] * n_shards / 2
            + rounds * (cost["compute"] + cost["mix"] + ship)
        )
        return rounds, wall

    print(f"\nmodel check, 2 workers, {rounds_two} rounds: "
          + ", ".join(f"{engine} measured {e['wall']:.2f} s, predicted "
                      f"{predict(2, engine, rounds_two)[1]:.2f} s (ship {e['ship']:.3f} s a round)"
                      for engine, e in engines.items()))  # fmt: skip
    for engine, e in engines.items():
        print(f"{engine} set-up: {e['setup']:.2f} s in the 2-worker fit; predicted at "
              + ", ".join(f"{n}: {setup_at(n, engine):.2f} s" for n in PREDICTED))  # fmt: skip
    figure = {}
    for shipping in ("linear", "tasks"):
        if shipping == "linear":
            print("shipping grown linearly with the workers:")
        else:
            print("shipping as latency + workers * the parent's task cost: "
                  + ", ".join(f"{engine} {e['latency']:.3f} + S * {e['task']:.4f} s"
                              for engine, e in engines.items()))  # fmt: skip
        print(f"{'workers':>8}{'rounds':>8}"
              + "".join(f"{e + ' s':>12}{e + ' x':>8}" for e in engines))  # fmt: skip
        for n_shards in PREDICTED:
            cells = ""
            rounds = None
            for engine in engines:
                rounds, wall = predict(n_shards, engine, shipping=shipping)
                if wall is None:
                    cells += f"{'-':>12}{'-':>8}"
                    continue
                cells += f"{wall:12.2f}{serial_wall / wall:8.2f}"
                label = engine if shipping == "linear" else f"{engine}, latency + tasks"
                figure.setdefault(label, []).append((n_shards, serial_wall / wall))
            print(f"{n_shards:>8}{rounds if rounds else '>' + str(args.max_rounds):>8}{cells}")
    measured_elsewhere = (
        _many_workers(args.many_workers, args.tolerance) if args.many_workers else {}
    )
    _draw(figure, serial_wall, measured_elsewhere, args, len(X))


def _many_workers(path, tolerance):
    """The speed-ups ``mixing_many_workers.py`` measured (``{S: speed-up}``, loky), printed
    beside the per-round costs they rest on: the serial 10-epoch wall clock there (its
    set-up and ten times its mean epoch), and the time each fit took to reach that
    machine's serial accuracy less ``tolerance`` (its rounds' wall clock and set-up, not
    the held-out scoring)."""
    import json

    found = json.loads(path.read_text())
    # files of before mix_over existed mixed whole vectors
    mix_over = found["args"].get("mix_over", "all")
    serial = found["serial"]
    serial_wall = serial["setup"] + 10 * float(np.mean(serial["epochs"]))
    target = serial["accuracy"] - tolerance
    print(f"\nmeasured on {found['machine']['cores']} cores ({path.name}, mix_over="
          f"{mix_over!r}): serial 10 "
          f"epochs {serial_wall:.2f} s, accuracy {serial['accuracy']:.2f}, target "
          f"{target:.2f}")  # fmt: skip
    speedups = {}
    for engine in ("loky", "dask"):
        for workers, fit in sorted(found.get(engine, {}).items(), key=lambda i: int(i[0])):
            rows = fit["rounds"]
            later = rows[1:] or rows
            costs = {
                k: float(np.mean([r[k] for r in later])) for k in ("seconds", "compute", "mix")
            }
            line = (f"{engine} x{workers}: a round {costs['seconds']:.3f} s (compute "
                    f"{costs['compute']:.3f}, mix {costs['mix']:.3f}, other "
                    f"{costs['seconds'] - costs['compute'] - costs['mix']:.3f})")  # fmt: skip
            curve = [r["accuracy"] for r in rows]
            reached = next((t for t, a in enumerate(curve) if a is not None and a >= target), None)
            if reached is not None:
                scoring = sum(r["scoring"] or 0.0 for r in rows[: reached + 1])
                wall = rows[reached]["elapsed"] - scoring
                speedups[int(workers)] = serial_wall / wall
                line += (f"; {reached + 1} rounds to {target:.2f} in {wall:.2f} s: "
                         f"{serial_wall / wall:.2f}x the serial")  # fmt: skip
            elif curve and curve[-1] is not None:
                line += f"; {len(rows)} rounds reached {curve[-1]:.2f}, not {target:.2f}"
            print(line)
    return {"speedups": speedups, "mix_over": mix_over, "cores": found["machine"]["cores"]}


def _draw(figure, serial_wall, measured_elsewhere, args, n_train):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.5))
    for engine, points in figure.items():
        if points:
            ax.plot(*zip(*points), marker="o", label=f"{engine} (predicted)")
    if measured_elsewhere and measured_elsewhere["speedups"]:
        ax.plot(*zip(*sorted(measured_elsewhere["speedups"].items())), marker="s",
                linestyle="none", color="black",
                label=f"loky (measured, {measured_elsewhere['cores']} cores, "
                      f"mix_over={measured_elsewhere['mix_over']!r})")  # fmt: skip
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("workers (one shard each)")
    ax.set_ylabel("speed-up over serial")
    ax.set_title(f"Iterative mixing, mix_over={args.mix_over!r}\nBrown {n_train:,} "
                 f"sentences, {args.learner}, serial 10 epochs {serial_wall:.0f} s",
                 fontsize=9)  # fmt: skip
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.figure, dpi=100)
    print(f"saved {args.figure}")


if __name__ == "__main__":
    main()
