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

from _setup_time import brown_dev_setups

from skstruct.tasks.labelling import SequenceLabelling


def main():
    if sys.argv[1] == "parent":
        SequenceLabelling.encodes_scoring_parts = lambda self, model: False
    else:  # encode_on="workers" sends the shards whatever this says
        SequenceLabelling.shards_cheaper_on_workers = lambda self, model: True
    brown_dev_setups(sys.argv[1], tokens=False, max_iter=1, encode_on="workers")


if __name__ == "__main__":
    main()
