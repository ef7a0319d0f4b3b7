"""The hot paths, timed warm, for side-by-side runs against a baseline install.

Six fits, each after a small warm-up fit of the same kind (so no timing includes
compilation): the averaged perceptron on CoNLL-2000 (tutorial features, 10 epochs),
beam search on Brown's first 10,000 sentences (``BeamSearch(4)``, max-violation, 5
epochs, ``batch_size=1``), Eisner on the PTB sample (10 epochs), the L-BFGS CRF on the
sklearn-crfsuite tutorial (CoNLL-2002 Spanish, c1=c2=0.1, 100 iterations), BCFW on
CoNLL-2000 and on the PTB sample (``StructuredSVM`` defaults; ``C=0.05`` for parsing).
Prints one line of JSON: seconds per workload and the score each reached (equal scores
show both installs computed the same thing).

Run the same script under two installs, alternating, e.g. with a worktree of the
baseline commit::

    python benchmarks/bench_hot_paths.py                       # this checkout
    PYTHONPATH=/tmp/base python benchmarks/bench_hot_paths.py  # the baseline's code

``--only NAME`` runs one workload (perceptron, beam, eisner, crf, bcfw-chunk,
bcfw-ptb, and the transition parsers arc-standard and arc-eager: ``ArcStandard(8)`` /
``ArcEager(8)``, max-violation, 5 epochs on the PTB sample); repeat it for several.
"""

import argparse
import json
import time

from skstruct import (
    ArcEager,
    ArcStandard,
    BeamSearch,
    Eisner,
    LinearChainCRF,
    StructuredPerceptron,
    StructuredSVM,
)
from skstruct.datasets import fetch_brown, fetch_conll2000, fetch_conll2002, fetch_ptb_sample
from skstruct.features import crfsuite_tutorial_features


def _timed(make, X, y, X_test, y_test, warm=50):
    make().fit(X[:warm], y[:warm]).predict(X_test[:2])
    start = time.perf_counter()
    model = make().fit(X, y)
    seconds = time.perf_counter() - start
    return round(seconds, 3), round(float(model.score(X_test, y_test)), 5)


def perceptron():
    train, test = fetch_conll2000("train"), fetch_conll2000("test")
    X, X_test = crfsuite_tutorial_features(train.data), crfsuite_tutorial_features(test.data)
    return _timed(lambda: StructuredPerceptron(max_iter=10, batch_size=1, random_state=0, n_jobs=1),
                  X, train.target, X_test, test.target)  # fmt: skip


def beam():
    X, y = fetch_brown(return_X_y=True)
    X = crfsuite_tutorial_features(X[:11_000])
    return _timed(
        lambda: StructuredPerceptron(BeamSearch(4), update="max_violation", max_iter=5,
                                     batch_size=1, random_state=0, n_jobs=1),
        X[:10_000], y[:10_000], X[10_000:], y[10_000:11_000],
    )  # fmt: skip


def _ptb():
    train, test = fetch_ptb_sample("train"), fetch_ptb_sample("test")
    heads = [[h for h, _ in s] if s and isinstance(s[0], tuple) else s for s in train.target]
    heads_test = [[h for h, _ in s] if s and isinstance(s[0], tuple) else s for s in test.target]
    return train.data, heads, test.data, heads_test


def eisner():
    return _timed(lambda: StructuredPerceptron(Eisner(), max_iter=10, batch_size=1, random_state=0,
                                               n_jobs=1),
                  *_ptb())  # fmt: skip


def crf():
    train, test = fetch_conll2002("es", "train"), fetch_conll2002("es", "testb")
    X, X_test = crfsuite_tutorial_features(train.data), crfsuite_tutorial_features(test.data)
    return _timed(lambda: LinearChainCRF(c1=0.1, c2=0.1, max_iter=100, n_jobs=1),
                  X, train.target, X_test, test.target)  # fmt: skip


def bcfw_chunk():
    train, test = fetch_conll2000("train"), fetch_conll2000("test")
    X, X_test = crfsuite_tutorial_features(train.data), crfsuite_tutorial_features(test.data)
    return _timed(lambda: StructuredSVM(random_state=0, n_jobs=1),
                  X, train.target, X_test, test.target)  # fmt: skip


def bcfw_ptb():
    return _timed(lambda: StructuredSVM(Eisner(), C=0.05, random_state=0, n_jobs=1), *_ptb())


def _transition(decoder):
    return _timed(lambda: StructuredPerceptron(decoder, update="max_violation", max_iter=5,
                                               batch_size=1, random_state=0, n_jobs=1),
                  *_ptb())  # fmt: skip


def arc_standard():
    return _transition(ArcStandard(8))


def arc_eager():
    return _transition(ArcEager(8))


WORKLOADS = {"perceptron": perceptron, "beam": beam, "eisner": eisner, "crf": crf,
             "bcfw-chunk": bcfw_chunk, "bcfw-ptb": bcfw_ptb, "arc-standard": arc_standard,
             "arc-eager": arc_eager}  # fmt: skip
#: The six of issue 34's target (the transition parsers' on request).
DEFAULT = ("perceptron", "beam", "eisner", "crf", "bcfw-chunk", "bcfw-ptb")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=list(WORKLOADS), action="append")
    args = parser.parse_args()
    results = {name: WORKLOADS[name]() for name in (args.only or DEFAULT)}
    print(json.dumps(results))


if __name__ == "__main__":
    main()
