"""McDonald, Hall & Mann (2010) Figures 4 and 6 on CoNLL-2002 Spanish NER, and Figure 5
on dependency parsing (``--corpus ptb``).

Figure 4 analog: test span F1 (testb) against training wall-clock (the epochs' or
mixing rounds' time, without the one-off feature encoding) for the serial
perceptron on all data, the serial perceptron on one random shard, one-shot mixing
and iterative mixing (10 shards), each regular and averaged. A point per epoch: the
k-th point is a fit with k epochs (k rounds) — the runs are deterministic, so the
first k epochs of every fit are the same. Mixing runs use 2
threads (the kernels release the GIL). Saved as a PNG.

Figure 6 analog: training mistakes per epoch of iterative mixing, uniform against
error-weighted mixing, with 10 and 100 shards.

Figure 5 analog (``--corpus ptb``): the same four curves for a first-order
graph-based parser (``Eisner()``) on the PTB sample, test UAS without punctuation.

Run: ``python benchmarks/mixing_figures.py [--corpus ptb]``
The corpora come from the ``fetch_*`` functions of ``skstruct.datasets``: read from
``$SKSTRUCT_DATA`` or ``~/skstruct_data``, and downloaded there when missing.
"""

import argparse

import joblib
import numpy as np
from _corpora import conll2002_es

from skstruct import Eisner, ParameterMixing, StructuredPerceptron
from skstruct.datasets import fetch_ptb_sample
from skstruct.metrics import PTB_PUNCTUATION_TAGS, attachment_scores, span_f1_score


def curve(make, X, y, X_test, y_test, epochs, score):
    """[(seconds, score)] for fits of 1..epochs epochs.

    Seconds are the training time proper, the sum of the fit's per-epoch (per-round)
    times from ``history_``: the one-off feature encoding is the same for every run
    and timing whole fits separately made the curves jitter by more than an epoch.
    """
    points = []
    for k in range(1, epochs + 1):
        model = make(k).fit(X, y)
        seconds = sum(record["seconds"] for record in model.history_)
        points.append((seconds, 100 * score(y_test, model.predict(X_test))))
    return points


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--n-shards", type=int, default=10)
    parser.add_argument("--out", default=None)
    parser.add_argument("--corpus", choices=["conll2002-es", "ptb"], default="conll2002-es")
    args = parser.parse_args()
    if args.corpus == "ptb":
        figure, decoder, metric_name = 5, Eisner(), "UAS (PTB sample, no punctuation)"
        X, y = fetch_ptb_sample("train", return_X_y=True)
        X_test, y_test = fetch_ptb_sample("test", return_X_y=True)

        def score(gold, predicted):
            return attachment_scores(gold, predicted, X=X_test, punct=PTB_PUNCTUATION_TAGS)["uas"]
    else:
        figure, decoder, metric_name = 4, None, "span F1 (CoNLL-2002 es, testb)"
        X, y, X_test, y_test = conll2002_es()
        score = span_f1_score
    args.out = args.out or f"mixing_figure{figure}.png"
    shard = np.random.RandomState(0).permutation(len(X))[: len(X) // args.n_shards]
    X_shard, y_shard = [X[i] for i in shard], [y[i] for i in shard]

    curves = {}
    with joblib.parallel_config(backend="threading"):
        for average in (False, True):
            kind = "averaged" if average else "regular"

            def learner(k, average=average):
                return StructuredPerceptron(
                    decoder=decoder, average=average, max_iter=k, random_state=0
                )

            def mixing(k, iterative, average=average):
                inner = learner(1 if iterative else k)
                return ParameterMixing(
                    inner,
                    n_shards=args.n_shards,
                    iterative=iterative,
                    mix_over="all",  # the paper's mixture of whole vectors
                    max_iter=k,
                    n_jobs=2,
                    random_state=0,
                )

            curves[f"serial, all data ({kind})"] = curve(
                learner, X, y, X_test, y_test, args.epochs, score
            )
            curves[f"serial, one shard ({kind})"] = curve(
                learner, X_shard, y_shard, X_test, y_test, args.epochs, score
            )
            curves[f"one-shot mixing ({kind})"] = curve(
                lambda k: mixing(k, False), X, y, X_test, y_test, args.epochs, score
            )
            curves[f"iterative mixing ({kind})"] = curve(
                lambda k: mixing(k, True), X, y, X_test, y_test, args.epochs, score
            )
    print(f"Figure {figure} analog: test {metric_name} after each epoch ({args.n_shards} shards)")
    for name, points in curves.items():
        print(
            f"  {name:<32} final {points[-1][1]:6.2f} in {points[-1][0]:6.2f} s   "
            + " ".join(f"{f1:.1f}" for _, f1 in points)
        )
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot")
    else:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for name, points in curves.items():
            seconds, f1 = zip(*points)
            ax.plot(
                seconds,
                f1,
                marker="o",
                markersize=3,
                linestyle="--" if "averaged" in name else "-",
                label=name,
            )
        ax.set_xlabel("training wall-clock, feature encoding excluded (s)")
        ax.set_ylabel(f"test {metric_name}")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(args.out, dpi=120)
        print(f"plot saved to {args.out}")

    if args.corpus == "ptb":
        return
    print("\nFigure 6 analog: training mistakes per epoch, iterative mixing")
    with joblib.parallel_config(backend="threading"):
        for n_shards in (10, 100):
            for mixing_kind in ("uniform", "error"):
                model = ParameterMixing(
                    StructuredPerceptron(average=False, random_state=0),
                    n_shards=n_shards,
                    mixing=mixing_kind,
                    mix_over="all",
                    max_iter=args.epochs,
                    n_jobs=2,
                    random_state=0,
                )
                model.fit(X, y)
                mistakes = [sum(r["mistakes"]) for r in model.history_]
                print(f"  {n_shards:>3} shards, {mixing_kind:<7} " + " ".join(map(str, mistakes)))


if __name__ == "__main__":
    main()
