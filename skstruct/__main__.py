"""The main job: ``python -m skstruct``.

Trains an averaged structured perceptron on CoNLL-2000 chunking when the corpus is
found (``--data-home``, ``$SKSTRUCT_DATA`` or ``~/skstruct_data``; ``--download``
fetches it), else on synthetic HMM data, says which, and prints test scores. A
download that was asked for and failed is an error (exit status 1), not a fallback.
"""

import argparse
import sys
import time

from . import StructuredPerceptron, TokenFeatures
from .datasets import fetch_conll2000, make_chain_data
from .features import crfsuite_tutorial_features
from .metrics import span_f1_score, token_accuracy


def _conll2000(data_home, download):
    """``(train, test)`` Bunches, or raise OSError saying why not."""
    train = fetch_conll2000("train", data_home=data_home, download_if_missing=download)
    test = fetch_conll2000("test", data_home=data_home, download_if_missing=download)
    return train, test


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m skstruct", description=__doc__.split("\n")[0])
    parser.add_argument("--data-home", default=None, help="folder holding conll2000/")
    parser.add_argument("--download", action="store_true", help="download CoNLL-2000 if missing")
    parser.add_argument("--max-iter", type=int, default=10, help="epochs (default 10)")
    parser.add_argument("--random-state", type=int, default=0)
    args = parser.parse_args(argv)

    try:
        found = _conll2000(args.data_home, args.download)
    except OSError as exc:
        if args.download:  # asked for the real data: falling back would hide the failure
            print(f"{parser.prog}: error: --download failed: {exc}", file=sys.stderr)
            return 1
        # The reader's own hint (download_if_missing=True) is --download here.
        why = str(exc).partition(", and download_if_missing=False")[0]
        found = None
    if found is not None:
        train, test = found
        print(f"Data: CoNLL-2000 chunking from {train.filename} and {test.filename}")
        X_train = crfsuite_tutorial_features(train.data)
        X_test = crfsuite_tutorial_features(test.data)
        y_train, y_test = train.target, test.target
        model = StructuredPerceptron(max_iter=args.max_iter, random_state=args.random_state)
    else:
        print(f"Data: synthetic HMM sequences (make_chain_data); CoNLL-2000 not used: {why}.")
        print("      Set SKSTRUCT_DATA to a folder with conll2000/, or pass --download.")
        X, y = make_chain_data(2000, n_labels=5, n_words=200, random_state=args.random_state)
        X_train, y_train, X_test, y_test = X[:1500], y[:1500], X[1500:], y[1500:]
        model = StructuredPerceptron(
            features=TokenFeatures(), max_iter=args.max_iter, random_state=args.random_state
        )
    n_tokens = sum(map(len, X_train))
    print(f"Train: {len(X_train)} sequences, {n_tokens} tokens; test: {len(X_test)} sequences")
    start = time.perf_counter()
    model.fit(X_train, y_train)
    fit_seconds = time.perf_counter() - start
    start = time.perf_counter()
    y_pred = model.predict(X_test)
    predict_seconds = time.perf_counter() - start
    print(
        f"Model: {model!r} ({len(model.classes_)} labels, {model.structure_.n_features} features)"
    )
    print(
        f"Fit: {fit_seconds:.2f} s (numba compilation included on a first run); "
        f"predict: {predict_seconds:.2f} s"
    )
    print(f"Test token accuracy: {100 * token_accuracy(y_test, y_pred):.2f}")
    if found is not None:  # synthetic labels are not chunk tags
        print(f"Test span F1 (conlleval): {100 * span_f1_score(y_test, y_pred):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
