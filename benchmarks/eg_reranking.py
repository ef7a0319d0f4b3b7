"""Reranking explicit candidate sets with every learner, and EG's convergence on it.

The setting of Collins' slides ("Convergence on a Parse Reranking Task"): each example
a set of candidates with losses, the EG structured SVM a distribution over each set's
candidates. Synthetic data here (``make_candidate_data``: a hidden weight vector scores
the candidates, Gaussian noise makes the losses disagree with any linear model), split
into train, dev and test. C (and the CRF's c2) are chosen on dev, the test set is
scored once. Prints each learner's test top-1 accuracy and mean loss, and EG's primal,
dual and relative gap by epoch; saves ``docs/figures/eg_convergence_reranking.png``
(primal and dual against epochs, and test top-1).

Run: ``python benchmarks/eg_reranking.py [--epochs 60]``
"""

import argparse
import time
from pathlib import Path

from skstruct import (
    AROW,
    BestCandidate,
    ConditionalRandomField,
    ExponentiatedGradientSSVM,
    PassiveAggressive,
    StructuredPerceptron,
    StructuredSVM,
)
from skstruct.datasets import make_candidate_data
from skstruct.metrics import mean_candidate_loss, top1_accuracy

FIGURES = Path(__file__).resolve().parents[1] / "docs" / "figures"


def data():
    X, y = make_candidate_data(3000, n_candidates=(5, 30), n_features=400, n_active=8,
                               noise=1.0, random_state=0)  # fmt: skip
    return (X[:2000], y[:2000]), (X[2000:2500], y[2000:2500]), (X[2500:], y[2500:])


def choose(make, grid, train, dev):
    """The setting of ``grid`` with the best dev top-1, and that score."""
    scored = [(make(value).fit(*train).score(*dev), value) for value in grid]
    return max(scored)[1], scored


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=60)
    args = parser.parse_args()
    train, dev, test = data()
    decoder = BestCandidate()
    learners = {
        "perceptron": (lambda _: StructuredPerceptron(decoder, random_state=0), [None]),
        "passive-aggressive": (
            lambda c: PassiveAggressive(decoder, c=c, max_iter=10, random_state=0),
            [0.01, 0.1, 1.0],
        ),
        "arow": (lambda g: AROW(decoder, gamma=g, max_iter=10, random_state=0), [0.1, 1.0, 10.0]),
        "crf (max-ent)": (lambda c2: ConditionalRandomField(decoder, c2=c2), [0.01, 0.1, 1.0]),
        "bcfw": (lambda c: StructuredSVM(decoder, C=c, random_state=0), [0.01, 0.1, 1.0]),
        "eg": (
            lambda c: ExponentiatedGradientSSVM(decoder, C=c, random_state=0),
            [0.01, 0.1, 1.0],
        ),
    }
    chance = sum(1.0 / len(c) for c in test[0]) / len(test[0])
    oracle_first = top1_accuracy(test[1], [0] * len(test[0]))
    print(f"test: {len(test[0])} sets, chance top-1 {chance:.3f}, "
          f"first candidate {oracle_first:.3f}")  # fmt: skip
    print(f"{'learner':20s} {'setting':>8s} {'dev top-1':>10s} {'test top-1':>10s} "
          f"{'test loss':>10s} {'fit s':>7s}")  # fmt: skip
    chosen = {}
    for name, (make, grid) in learners.items():
        value, scored = choose(make, grid, train, dev)
        start = time.perf_counter()
        model = make(value).fit(*train)
        seconds = time.perf_counter() - start
        predicted = model.predict(test[0])
        chosen[name] = value
        dev_score = dict((v, s) for s, v in scored)[value]
        top1, loss = top1_accuracy(test[1], predicted), mean_candidate_loss(test[1], predicted)
        print(f"{name:20s} {value!s:>8s} {dev_score:10.3f} {top1:10.3f} {loss:10.3f} "
              f"{seconds:7.2f}")  # fmt: skip
    eg = ExponentiatedGradientSSVM(decoder, C=chosen["eg"], max_iter=args.epochs, tol=None,
                                   random_state=0)  # fmt: skip
    eg.fit(*train, X_dev=test[0], y_dev=test[1])
    print(f"\nEG, C={chosen['eg']}: epoch, primal, dual, gap / primal, test top-1")
    for record in eg.history_:
        print(f"{record['epoch']:4d} {record['primal']:12.4f} {record['dual']:12.4f} "
              f"{record['gap'] / record['primal']:10.2e} {record['dev_score']:.3f}")  # fmt: skip
    plot(eg.history_, f"EG on synthetic reranking, C={chosen['eg']}",
         FIGURES / "eg_convergence_reranking.png")  # fmt: skip


def plot(history, title, path, score_label="test top-1 (%)"):
    """EG's primal and dual per epoch (left) and the held-out score of w (right), saved
    to ``path``; ``bench_reranking.py`` draws its figure with it too."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = [r["epoch"] for r in history]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    left.plot(epochs, [r["primal"] for r in history], label="primal")
    left.plot(epochs, [r["dual"] for r in history], label="dual")
    left.set_xlabel("epochs (online EG)")
    left.set_ylabel("objective")
    left.set_title(title)
    left.legend()
    right.plot(epochs, [100 * r["dev_score"] for r in history], color="C2")
    right.set_xlabel("epochs")
    right.set_ylabel(score_label)
    right.set_title("accuracy of w")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    print(f"saved {path}")


if __name__ == "__main__":
    main()
