"""Issue 38: ParameterMixing's set-up (the time before its first round) for a sequence
labeller on token dicts (the tutorial's, made before ``fit``) with a development set,
shards encoded on the workers (``encode_on="workers"``): Brown, 10,000 sentences to
train, 11,000 held out, beam 4, 2 shards on 2 loky workers, 1 round. ``parent``: the
development set encoded in the parent (the task's ``encodes_scoring_parts`` patched to
say no; what ``fit`` does since this folder's change); ``workers``: a part of it beside
each shard (as at 3051efc; since the change, with ``shards_cheaper_on_workers`` patched
to say yes).

Run: ``python setup_dev_dicts.py parent|workers``.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/

from _corpora import brown_pos
from _setup_time import print_setups

from skstruct import BeamSearch, ParameterMixing, StructuredPerceptron
from skstruct.tasks.labelling import SequenceLabelling


def main():
    if sys.argv[1] == "parent":
        SequenceLabelling.encodes_scoring_parts = lambda self, model: False
    else:  # encode_on="workers" sends the shards whatever this says
        SequenceLabelling.shards_cheaper_on_workers = lambda self, model: True
    X, y, X_dev, y_dev = brown_pos(n_train=20000)
    learner = StructuredPerceptron(BeamSearch(beam_size=4), update="max_violation", random_state=0)

    def mixing():
        return ParameterMixing(
            learner, n_shards=2, n_jobs=2, max_iter=1, encode_on="workers", random_state=0
        )

    mixing().fit(X[:300], y[:300], X_dev=X_dev[:50], y_dev=y_dev[:50])  # workers started
    X_train, y_train = X[:10000], y[:10000]
    X_held, y_held = X[10000:] + X_dev, y[10000:] + y_dev

    def describe(model, part):
        if part == "head":
            return f"dev {len(X_held)} sentences"
        return f"dev score {model.history_[0]['dev_score']:.5f}"

    print_setups(
        sys.argv[1], lambda: mixing().fit(X_train, y_train, X_dev=X_held, y_dev=y_held), describe
    )


if __name__ == "__main__":
    main()
