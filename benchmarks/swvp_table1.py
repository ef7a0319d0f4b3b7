"""Reproduce Table 1 of Dror & Reichart (2016): SWVP against CSP on synthetic HMM data.

For each setup (footnote 6) and each of ``--datasets`` data sets (7000 / 2000 / 1000
items of 8 tokens, one random HMM per data set): CSP, and B-WM, B-WMR, A-WM, A-WMR
with beta in {0.5, 1, ..., 5} chosen on the development set by ``GridSearchCV``. The
splits are given explicitly as ``[(train, dev), (train, test)]`` — every fit is on the
training set, beta is chosen on split 0 (dev) only, and split 1 gives the test accuracy
of every beta, which the "Gener." column needs. (``PredefinedSplit`` cannot express
this: it trains each split on everything outside its fold.)

Reported per model: mean (std) test accuracy, #wins over CSP, and Gener. (the
dev-chosen beta is the best on test, or within 0.5 points of it), side by side with
the paper's numbers; once with unaveraged perceptrons (the paper's Algorithm 1 and 2)
and once with both averaged.

Features: :func:`skstruct.features.hmm_features`, the paper's less the observation-
dependent transition (x_i, y_i, y_{i-1}), which a linear chain has no part for.

Run: ``python benchmarks/swvp_table1.py [--datasets 10] [--n-jobs 2]``
"""

import argparse
import time

import numpy as np
from sklearn.model_selection import GridSearchCV

from skstruct import SWVP, StructuredPerceptron
from skstruct.datasets import make_hmm_sequences
from skstruct.features import hmm_features

VARIANTS = {
    "B-WM": ("wm", "balanced"),
    "B-WMR": ("wmr", "balanced"),
    "A-WM": ("wm", "aggressive"),
    "A-WMR": ("wmr", "aggressive"),
}
PAPER = {  # setup -> model -> (accuracy, std, wins, gener)
    1: {
        "B-WM": (75.47, 3.05, 9, 10),
        "B-WMR": (75.96, 2.42, 8, 10),
        "A-WM": (74.18, 2.16, 7, 10),
        "A-WMR": (75.17, 3.07, 7, 10),
        "CSP": (72.24, 3.45),
    },
    2: {
        "B-WM": (63.18, 1.32, 9, 10),
        "B-WMR": (63.02, 2.49, 9, 10),
        "A-WM": (61.65, 2.30, 9, 10),
        "A-WMR": (61.02, 1.93, 8, 10),
        "CSP": (57.89, 2.85),
    },
    3: {
        "B-WM": (28.48, 1.9, 5, 10),
        "B-WMR": (24.31, 5.2, 4, 10),
        "A-WM": (30.45, 1.0, 6, 10),
        "A-WMR": (25.8, 3.18, 2, 10),
        "CSP": (25.27, 8.55),
    },
}


def run_dataset(setup, seed, sizes, betas, average, max_iter, n_jobs):
    """Test accuracies of CSP and of each SWVP variant (beta chosen on dev) on one data set."""
    n_train, n_dev, n_test = sizes
    X, y = make_hmm_sequences(setup, n_train + n_dev + n_test, random_state=seed)
    X = hmm_features(X)
    train = np.arange(n_train)
    dev = np.arange(n_train, n_train + n_dev)
    test = np.arange(n_train + n_dev, n_train + n_dev + n_test)
    csp = StructuredPerceptron(average=average, max_iter=max_iter, random_state=seed)
    csp.fit([X[i] for i in train], [y[i] for i in train])
    out = {"CSP": (100 * csp.score([X[i] for i in test], [y[i] for i in test]), None)}
    for name, (gamma, mode) in VARIANTS.items():
        search = GridSearchCV(
            SWVP(
                gamma=gamma,
                mode=mode,
                enforce_conditions=False,
                average=average,
                max_iter=max_iter,
                random_state=seed,
            ),
            {"beta": betas},
            cv=[(train, dev), (train, test)],
            refit=False,
            n_jobs=n_jobs,
        ).fit(X, y)
        dev_scores = search.cv_results_["split0_test_score"]
        test_scores = 100 * search.cv_results_["split1_test_score"]
        chosen = int(np.argmax(dev_scores))
        gener = test_scores[chosen] >= test_scores.max() - 0.5
        out[name] = (test_scores[chosen], gener)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--setups", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--datasets", type=int, default=10)
    parser.add_argument("--sizes", type=int, nargs=3, default=[7000, 2000, 1000])
    parser.add_argument("--betas", type=float, nargs="+", default=[0.5 * k for k in range(1, 11)])
    parser.add_argument("--max-iter", type=int, default=10)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--averaging", choices=["both", "off", "on"], default="both")
    args = parser.parse_args(argv)

    settings = {"both": [False, True], "off": [False], "on": [True]}[args.averaging]
    start = time.perf_counter()
    for average in settings:
        print(
            f"\n== {'averaged' if average else 'unaveraged (the paper setting)'} "
            f"perceptrons; {args.datasets} data sets per setup, sizes {args.sizes} =="
        )
        for setup in args.setups:
            runs = [
                run_dataset(
                    setup,
                    100 * setup + d,
                    args.sizes,
                    args.betas,
                    average,
                    args.max_iter,
                    args.n_jobs,
                )
                for d in range(args.datasets)
            ]
            csp = np.array([r["CSP"][0] for r in runs])
            print(
                f"setup {setup}: model    acc (std)      wins  gener | paper acc (std) wins gener"
            )
            for name in [*VARIANTS, "CSP"]:
                acc = np.array([r[name][0] for r in runs])
                paper = PAPER[setup][name]
                if name == "CSP":
                    ours = f"{acc.mean():6.2f} ({acc.std():4.2f})     -      -"
                    theirs = f"{paper[0]:6.2f} ({paper[1]:4.2f})    -     -"
                else:
                    wins = int((acc > csp).sum())
                    gener = sum(bool(r[name][1]) for r in runs)
                    ours = (
                        f"{acc.mean():6.2f} ({acc.std():4.2f})  {wins:2d}/{len(runs)} "
                        f"{gener:2d}/{len(runs)}"
                    )
                    theirs = f"{paper[0]:6.2f} ({paper[1]:4.2f}) {paper[2]:2d}/10 {paper[3]:2d}/10"
                print(f"         {name:<6} {ours} | {theirs}", flush=True)
    print(f"\nwall time {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
