"""Issue 38: ParameterMixing's set-up (the time before its first round) with a large
development set, Brown, raw words (``TokenFeatures()``), beam 4, 2 shards on 2 loky
workers; 10,000 sentences to train, the other 11,000 held out.

Run: ``python setup_dev.py LABEL`` (the label starts each line).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/

from _corpora import brown_pos
from _setup_time import print_setups

from skstruct import BeamSearch, ParameterMixing, StructuredPerceptron, TokenFeatures


def main():
    X, y, X_dev, y_dev = brown_pos(n_train=20000, tokens=True)
    learner = StructuredPerceptron(
        BeamSearch(beam_size=4), update="max_violation", random_state=0, features=TokenFeatures()
    )
    learner.set_params(max_iter=1).fit(X[:200], y[:200])
    learner.set_params(max_iter=10)

    def mixing():
        return ParameterMixing(learner, n_shards=2, n_jobs=2, max_iter=2, random_state=0)

    mixing().fit(X[:300], y[:300], X_dev=X_dev[:50], y_dev=y_dev[:50])  # workers started
    X_train, y_train = X[:10000], y[:10000]
    X_held, y_held = X[10000:] + X_dev, y[10000:] + y_dev

    def describe(model, part):
        if part == "head":
            return f"dev {len(X_held)} sentences"
        return f"dev scores {[round(r['dev_score'], 5) for r in model.history_]}"

    print_setups(
        sys.argv[1], lambda: mixing().fit(X_train, y_train, X_dev=X_held, y_dev=y_held), describe
    )


if __name__ == "__main__":
    main()
