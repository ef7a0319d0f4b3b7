"""The CRF (``ConditionalRandomField``, L-BFGS) on the hashed structures: first-order
dependency trees (``Eisner()``, the PTB sample) and constituency trees (``CKY()``, the
treebank sample's sentences of at most 20 words).

Prints one line per run: fit seconds (after a small fit that compiles the kernels),
iterations, the final objective, the weights the corpus touches and the process's peak
resident memory. Run it once per tree of the library to compare (e.g. with
``PYTHONPATH`` set to another checkout), in separate processes, alternating.

Run: ``python benchmarks/bench_crf_structures.py --structure tree|cky [--n 500]
[--iterations 30] [--n-jobs 2]``; the corpora come from ``fetch_ptb_sample`` and ``fetch_treebank``.
"""

import argparse
import resource
import time

import numpy as np

import skstruct
from skstruct import CKY, ConditionalRandomField, Eisner
from skstruct.datasets import fetch_ptb_sample, fetch_treebank


def _data(structure, n):
    if structure == "tree":
        X, y = fetch_ptb_sample("train", return_X_y=True)
        return Eisner(), X[:n], y[:n]
    X, y = fetch_treebank("train", return_X_y=True)
    short = [i for i, sentence in enumerate(X) if len(sentence) <= 20][:n]
    return CKY(), [X[i] for i in short], [y[i] for i in short]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--structure", choices=["tree", "cky"], default="tree")
    parser.add_argument("--n", type=int, default=500, help="training sentences")
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--n-jobs", type=int, default=None, help="the CRF's n_jobs")
    args = parser.parse_args()
    decoder, X, y = _data(args.structure, args.n)
    ConditionalRandomField(decoder, max_iter=2).fit(X[:10], y[:10])  # compiled before timing
    start = time.perf_counter()
    model = ConditionalRandomField(decoder, max_iter=args.iterations, n_jobs=args.n_jobs)
    model.fit(X, y)
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"skstruct {skstruct.__version__} ({skstruct.__file__}) {args.structure} "
        f"n={len(X)} n_jobs={args.n_jobs}: fit {seconds:.2f} s, {model.n_iter_} iterations, "
        f"objective "
        f"{model.history_[-1]['loss']:.6f}, nonzero weights {np.count_nonzero(model.coef_)} "
        f"of {model.coef_.size}, peak RSS {peak_mb:.0f} MB",
        flush=True,
    )


if __name__ == "__main__":
    main()
