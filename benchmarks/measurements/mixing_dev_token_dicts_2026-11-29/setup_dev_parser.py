"""Issue 38: ParameterMixing's set-up (the time before its first round) for a parser
with a development set: UD English-EWT, the first 6,000 training sentences, the dev
and test files (4,079 sentences) held out, ``Eisner(projectivize=True)``, 2 shards on
2 loky workers, ``encode_on="workers"``, 1 round.

Run: ``python setup_dev_parser.py LABEL`` (the label starts each line).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/

from _setup_time import print_setups

from skstruct import Eisner, ParameterMixing, StructuredPerceptron
from skstruct.datasets import load_conllu


def main():
    folder = Path(os.environ["SKSTRUCT_DATA"]) / "ud-ewt"
    X, y = load_conllu(folder / "en_ewt-ud-train.conllu")
    X_held, y_held = [], []
    for split in ("dev", "test"):
        Xs, ys = load_conllu(folder / f"en_ewt-ud-{split}.conllu")
        X_held += Xs
        y_held += ys
    learner = StructuredPerceptron(Eisner(projectivize=True), random_state=0)

    def mixing():
        return ParameterMixing(
            learner, n_shards=2, n_jobs=2, max_iter=1, encode_on="workers", random_state=0
        )

    mixing().fit(X[:300], y[:300], X_dev=X_held[:50], y_dev=y_held[:50])  # workers started

    def describe(model, part):
        if part == "head":
            return f"dev {len(X_held)} sentences"
        return f"dev UAS {model.history_[0]['dev_score']:.5f}"

    print_setups(
        sys.argv[1], lambda: mixing().fit(X[:6000], y[:6000], X_dev=X_held, y_dev=y_held), describe
    )


if __name__ == "__main__":
    main()
