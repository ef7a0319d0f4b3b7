"""Scale on one machine: the full Brown corpus, fit from raw tokens (issue 16).

Brown (``fetch_brown``): the first 51,606 sentences (90%) for training, the last
5,734 for test; 472 tags. Each configuration runs in a fresh interpreter, so that
its peak resident memory (``ru_maxrss``) is its own; kernels are compiled (or loaded
from numba's cache) before the timings. Printed per configuration: fit seconds
(features included: from raw tokens to a fitted model), predict seconds (raw test
tokens to tags), test token accuracy, peak RSS, and the ratios to the first one.

Configurations (``--configs``, default ``dicts tokens``), each ``NAME[:b=BATCH][:j=JOBS]``:

- ``dicts``: sklearn-crfsuite tutorial token dicts built in Python, then
  ``StructuredPerceptron(BeamSearch(beam_size=4), update="max_violation")``:
  the path issue 16 measured at 147 s;
- ``tokens``: the same learner with ``features=TokenFeatures()`` on the raw tokens;
- ``parser``: a first-order parser (``Eisner()``, standard update) on the PTB sample
  (its train and test files), UAS in the accuracy column;
- ``b=`` sets ``batch_size``, ``j=`` sets ``n_jobs`` (default: the learner's defaults).

``--baseline PATH`` also runs ``dicts`` with the skstruct found at ``PATH`` (a
checkout of an earlier commit, put first on ``PYTHONPATH``), side by side.

Run: ``python benchmarks/bench_scale.py [--baseline /path/to/old/checkout]``
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

N_TRAIN = 51_606


def _options(config):
    """``(name, {"batch_size": .., "n_jobs": ..})`` of ``NAME[:b=BATCH][:j=JOBS]``."""
    name, *options = config.split(":")
    keys = {"b": "batch_size", "j": "n_jobs"}
    params = {}  # the learner's defaults (a baseline checkout may not know the parameters)
    for option in options:
        key, value = option.split("=")
        params[keys[key]] = int(value)
    return name, params


def _child(config, max_iter):
    """Fit and predict one configuration; print a JSON line of its measurements."""
    from skstruct import BeamSearch, Eisner, StructuredPerceptron, TokenFeatures
    from skstruct.datasets import fetch_brown, fetch_ptb_sample
    from skstruct.features import crfsuite_tutorial_features
    from skstruct.metrics import token_accuracy

    name, params = _options(config)
    if name == "parser":
        X_train, y_train = fetch_ptb_sample("train", return_X_y=True)
        X_test, y_test = fetch_ptb_sample("test", return_X_y=True)
    else:
        X, y = fetch_brown(return_X_y=True)
        X_train, y_train, X_test, y_test = X[:N_TRAIN], y[:N_TRAIN], X[N_TRAIN:], y[N_TRAIN:]
        del X, y
    features = TokenFeatures() if name == "tokens" else None
    prepare = crfsuite_tutorial_features if name == "dicts" else list

    def learner(n_iter):
        if name == "parser":
            return StructuredPerceptron(Eisner(), max_iter=n_iter, random_state=0, **params)
        return StructuredPerceptron(BeamSearch(beam_size=4), update="max_violation",
                                    features=features, max_iter=n_iter, random_state=0,
                                    **params)  # fmt: skip

    # compile (or load) the kernels, the parallel predict one too (64 sentences and more)
    learner(1).fit(prepare(X_train[:20]), y_train[:20]).predict(prepare(X_test[:100]))
    start = time.perf_counter()
    model = learner(max_iter).fit(prepare(X_train), y_train)
    fit = time.perf_counter() - start
    start = time.perf_counter()
    predicted = model.predict(prepare(X_test))
    predict = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB
    print(json.dumps({
        "fit": fit, "predict": predict, "accuracy": 100 * token_accuracy(y_test, predicted),
        "peak_rss_mb": rss, "epoch": sum(r["seconds"] for r in model.history_) / max_iter,
        "n_weights": int(model.coef_.size),
    }))  # fmt: skip


def _run(config, max_iter, pythonpath=None):
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [pythonpath, env.get("PYTHONPATH")]))
    out = subprocess.run(
        [sys.executable, __file__, "--child", config, "--max-iter", str(max_iter)],
        env=env, capture_output=True, text=True, check=True, cwd=Path(__file__).parent,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--configs", nargs="+", default=["dicts", "tokens"])
    parser.add_argument("--baseline", help="checkout of an earlier skstruct to run 'dicts' with")
    parser.add_argument("--max-iter", type=int, default=10)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.max_iter)
        return
    runs = []
    if args.baseline:
        runs.append(("dicts (baseline)", _run("dicts", args.max_iter, args.baseline)))
    for config in args.configs:
        runs.append((config, _run(config, args.max_iter)))
    print(f"Brown: {N_TRAIN} training sentences, 472 tags, beam 4 + max-violation; PTB sample: "
          f"Eisner, standard update; {args.max_iter} epochs")  # fmt: skip
    first = runs[0][1]
    print(f"{'path':<22} {'fit s':>8} {'s/epoch':>8} {'predict s':>9} {'accuracy':>8} "
          f"{'peak RSS MB':>11} {'fit ratio':>9}")  # fmt: skip
    for name, r in runs:
        ratio = r["fit"] / first["fit"]
        print(f"{name:<22} {r['fit']:8.1f} {r['epoch']:8.2f} {r['predict']:9.2f} "
              f"{r['accuracy']:8.2f} {r['peak_rss_mb']:11.0f} {ratio:9.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
