"""skstruct's averaged perceptron against sklearn-crfsuite's, on CoNLL-2000 chunking.

Both learners get the very same token dicts (the sklearn-crfsuite tutorial features)
in one process: ``sklearn_crfsuite.CRF(algorithm="ap", max_iterations=10)`` and
``StructuredPerceptron(max_iter=10, average=True)``. Printed for each: span F1 on the
test set, whole-``fit`` seconds (from token dicts, encoding included), ``predict``
seconds, peak resident-memory growth (measured in a fresh interpreter per learner);
then the skstruct/CRFsuite ratios. numba compilation (or loading it from the on-disk
cache) is timed on its own, before.

Run: ``python benchmarks/bench_chain.py [--repeat 3]``
The corpora come from the ``fetch_*`` functions of ``skstruct.datasets``: read from
``$SKSTRUCT_DATA`` or ``~/skstruct_data``, and downloaded there when missing.
"""

import argparse
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import sklearn_crfsuite

import skstruct
from skstruct import StructuredPerceptron
from skstruct.datasets import fetch_conll2000
from skstruct.features import TokenDictEncoder, crfsuite_tutorial_features
from skstruct.metrics import span_f1_score

_PAGE = 4096


def _rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * _PAGE


class PeakRSS:
    """Peak resident-set growth over a block, sampled every millisecond by a thread."""

    def __enter__(self):
        self.base = self.peak = _rss_bytes()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, _rss_bytes())
            time.sleep(0.001)

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, _rss_bytes())
        self.growth_mb = (self.peak - self.base) / 2**20


def run(make_model, X_train, y_train, X_test, y_test):
    model = make_model()
    start = time.perf_counter()
    model.fit(X_train, y_train)
    fit_seconds = time.perf_counter() - start
    start = time.perf_counter()
    y_pred = list(model.predict(X_test))
    predict_seconds = time.perf_counter() - start
    return {
        "f1": 100 * span_f1_score(y_test, y_pred),
        "fit": fit_seconds,
        "predict": predict_seconds,
    }


def peak_memory_mb(name):
    """Peak RSS growth of one learner's fit + predict, measured in a fresh interpreter so
    that neither learner reuses memory the other (or an earlier run) freed."""
    out = subprocess.run(
        [sys.executable, __file__, "--memory-of", name],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(out.strip().splitlines()[-1])


def _learners(max_iter):
    return {
        "CRFsuite-AP": lambda: sklearn_crfsuite.CRF(algorithm="ap", max_iterations=max_iter),
        "skstruct": lambda: StructuredPerceptron(max_iter=max_iter, random_state=0),
    }


def _data():
    train = fetch_conll2000("train")
    test = fetch_conll2000("test")
    return (
        train,
        test,
        crfsuite_tutorial_features(train.data),
        crfsuite_tutorial_features(test.data),
    )


def _memory_child(name, max_iter):
    train, _, X_train, X_test = _data()
    make = _learners(max_iter)[name]
    if name == "skstruct":  # JIT compilation is a one-off, not the learner's footprint
        make().set_params(max_iter=1).fit(X_train[:20], train.target[:20]).predict(X_test[:5])
    with PeakRSS() as memory:
        make().fit(X_train, train.target).predict(X_test)
    print(memory.growth_mb)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per learner (median kept)")
    parser.add_argument("--max-iter", type=int, default=10)
    parser.add_argument("--memory-of", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_of:
        return _memory_child(args.memory_of, args.max_iter)

    start = time.perf_counter()
    train, test, X_train, X_test = _data()
    print(
        f"data: {train.filename} ({sum(map(len, X_train))} tokens), "
        f"{test.filename} ({sum(map(len, X_test))} tokens)"
    )
    print(
        f"corpus read and token dicts built in {time.perf_counter() - start:.2f} s "
        "(shared, not timed below)"
    )

    cache = Path(skstruct.__file__).parent / "_kernels" / "__pycache__"
    cached = any(cache.glob("*.nbi"))
    start = time.perf_counter()
    StructuredPerceptron(max_iter=1).fit(X_train[:20], train.target[:20]).predict(X_test[:5])
    print(
        f"numba compilation: {time.perf_counter() - start:.2f} s "
        f"({'loaded from the on-disk cache' if cached else 'compiled, now cached'})"
    )

    start = time.perf_counter()
    TokenDictEncoder().fit_transform(X_train)
    print(f"skstruct feature encoding (fit_transform, train): {time.perf_counter() - start:.2f} s")
    encoder = TokenDictEncoder().fit(X_train)
    start = time.perf_counter()
    encoder.transform(X_test)
    print(f"skstruct feature encoding (transform, test): {time.perf_counter() - start:.2f} s")

    learners = _learners(args.max_iter)
    runs = {name: [] for name in learners}
    for _ in range(args.repeat):
        for name, make in learners.items():
            runs[name].append(run(make, X_train, train.target, X_test, test.target))
    summary = {
        name: {key: statistics.median(r[key] for r in results) for key in results[0]}
        for name, results in runs.items()
    }
    for name in learners:
        summary[name]["memory"] = peak_memory_mb(name)
    print(f"\nmedian of {args.repeat} runs, {args.max_iter} epochs")
    print(f"{'learner':<12} {'span F1':>8} {'fit s':>8} {'predict s':>10} {'peak MB':>8}")
    for name, s in summary.items():
        print(f"{name:<12} {s['f1']:8.2f} {s['fit']:8.2f} {s['predict']:10.3f} {s['memory']:8.1f}")
    ours, peer = summary["skstruct"], summary["CRFsuite-AP"]
    print(
        f"\nratios skstruct/CRFsuite: fit {ours['fit'] / peer['fit']:.2f}, "
        f"predict {ours['predict'] / peer['predict']:.2f}, "
        f"peak memory {ours['memory'] / max(peer['memory'], 1e-9):.2f}; "
        f"span F1 difference {ours['f1'] - peer['f1']:+.2f}"
    )


if __name__ == "__main__":
    main()
