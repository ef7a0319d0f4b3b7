"""``skstruct demo``: the main job on synthetic data, nothing to read or download."""

import time

from .. import TokenFeatures
from ..datasets import make_chain_data
from ..metrics import token_accuracy
from ._common import ALGORITHMS, UsageError, info, percent, verbosity
from ._train import check_params

#: The demo's data: make_chain_data's 5 labels over 200 words, as in the main job.
DEMO_DATA = {"n_labels": 5, "n_words": 200}


def run_demo(args):
    """Train each algorithm on synthetic HMM sequences and print its test accuracy."""
    if args.n_samples < 4:
        raise UsageError("--n-samples must be at least 4 (three quarters train, the rest test)")
    X, y = make_chain_data(args.n_samples, **DEMO_DATA, random_state=args.random_state)
    n_train = 3 * len(X) // 4
    info(
        args,
        f"Data: synthetic HMM sequences (make_chain_data, {DEMO_DATA['n_labels']} labels, "
        f"{DEMO_DATA['n_words']} words), "
        f"{n_train} to train on, {len(X) - n_train} to test",
    )
    names = list(ALGORITHMS) if args.algorithm == "all" else [args.algorithm]
    for name in names:
        model = ALGORITHMS[name](
            features=TokenFeatures(),
            max_iter=args.max_iter,
            random_state=args.random_state,
            verbose=verbosity(args),
        )
        check_params(model)
        start = time.perf_counter()
        model.fit(X[:n_train], y[:n_train])
        seconds = time.perf_counter() - start
        accuracy = token_accuracy(y[n_train:], model.predict(X[n_train:]))
        print(
            f"{name:<10} {type(model).__name__:<40} token accuracy {percent(accuracy)}  "
            f"(fit {seconds:.2f} s)"
        )
    return 0
