"""The raw shards of the mixing measurements: Brown's first sentences as raw words,
split in two at random, with the learner copy that encodes them on a worker."""

import numpy as np
from _corpora import brown_pos

from skstruct import BeamSearch, StructuredPerceptron, TokenFeatures
from skstruct.learners.mixing import _RawShard


def brown_raw_shards(n_train=20000, n_shards=2):
    """``(template, shards)``: the beam-4 max-violation perceptron's shard encoder
    (``TokenFeatures()``) and ``n_shards`` ``_RawShard`` of Brown's first ``n_train``
    sentences, as ``ParameterMixing(encode_on="workers")`` ships them."""
    X, y, _, _ = brown_pos(n_train=n_train, tokens=True)
    learner = StructuredPerceptron(
        BeamSearch(beam_size=4), update="max_violation", random_state=0, features=TokenFeatures()
    )
    shards = np.array_split(np.random.RandomState(0).permutation(len(X)), n_shards)
    return learner.shard_encoder(X), [_RawShard(X, y, shard) for shard in shards]
