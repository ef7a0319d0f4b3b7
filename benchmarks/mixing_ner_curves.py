"""Why iterative parameter mixing trails the serial perceptron on NER (issue 38, part 2):
dev F1 after every epoch of the serial averaged perceptron, and after every round of
2-shard iterative mixing, side by side, on CoNLL-2002 Spanish (tutorial features; dev
testa, test testb).

A mixing round visits every training sentence once, as an epoch does, but each shard
sees half of them and the round averages the two shards' updates: the weights move
about half as far per round as per serial epoch. If that is why mixing trails after 10
rounds, it should catch up with more rounds. Variants: ``mixing="error"`` (shards
weighted by their mistakes, McDonald et al.'s alternative), unshuffled shards
(``shuffle=False``: the corpus split in order) and two epochs a round
(``epochs_per_round=2``: each shard trains twice as long between mixes; 10 such rounds
cost the training of 20 rounds of one epoch), all mixing whole weight vectors as the
paper does (``mix_over="all"``), and the default, each weight mixed over the shards
that changed it (``mix_over="changed"``): under the paper's mixture a feature seen in one
shard moves half as far as that shard moved it, every round.

Run: ``python benchmarks/mixing_ner_curves.py [--rounds 10 20 30]`` (threads: the models
do not depend on the backend). Prints the dev token accuracy per epoch or round (the
longest runs'), and the test span F1 of the serial model after as many epochs, and of
each variant after each number of rounds.
"""

import argparse

import joblib

from skstruct import ParameterMixing, StructuredPerceptron
from skstruct.datasets import fetch_conll2002
from skstruct.features import crfsuite_tutorial_features
from skstruct.metrics import span_f1_score

VARIANTS = {
    "uniform, shuffled": {"mix_over": "all"},
    "error, shuffled": {"mixing": "error", "mix_over": "all"},
    "uniform, in order": {"shuffle": False, "mix_over": "all"},
    "uniform, 2 epochs a round": {"epochs_per_round": 2, "mix_over": "all"},
    "each weight over the shards that changed it": {"mix_over": "changed"},
}


def _split(name):
    data = fetch_conll2002("es", name)
    return crfsuite_tutorial_features(data.data), data.target


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, nargs="+", default=[10, 20, 30])
    args = parser.parse_args()
    (X, y), (X_dev, y_dev), (X_test, y_test) = (_split(s) for s in ("train", "testa", "testb"))

    def test_f1(model):
        return 100 * span_f1_score(y_test, model.predict(X_test))

    curves, finals = {}, {}
    for epochs in sorted(args.rounds):
        serial = StructuredPerceptron(max_iter=epochs, random_state=0)
        serial.fit(X, y, X_dev=X_dev, y_dev=y_dev)
        curves["serial"] = [100 * r["dev_score"] for r in serial.history_]
        finals[("serial", epochs)] = test_f1(serial)
    with joblib.parallel_config(backend="threading"):
        for name, params in VARIANTS.items():
            for rounds in sorted(args.rounds):
                model = ParameterMixing(
                    StructuredPerceptron(random_state=0), n_shards=2, max_iter=rounds,
                    n_jobs=2, random_state=0, **params,
                )  # fmt: skip
                model.fit(X, y, X_dev=X_dev, y_dev=y_dev)
                curves[name] = [100 * r["dev_score"] for r in model.history_]
                finals[(name, rounds)] = test_f1(model)
    print(
        f"dev token accuracy (testa) per epoch (serial) or round (2-shard mixing), "
        f"{len(X)} sentences"
    )
    names = list(curves)
    print(f"{'':>5}" + "".join(f"{n:>20}" for n in names))
    for t in range(max(args.rounds)):
        row = "".join(
            f"{curves[n][t]:>20.2f}" if t < len(curves[n]) else f"{'':>20}" for n in names
        )
        print(f"{t + 1:>5}{row}")
    print("test span F1 (testb):")
    for (name, rounds), f1 in finals.items():
        print(f"  {name:<20} after {rounds:>2}: {f1:.2f}")


if __name__ == "__main__":
    main()
