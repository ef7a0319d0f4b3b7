"""Task: what every task shares, and the defaults of tasks whose outputs are one per
token or word."""

from typing import NamedTuple

import numpy as np

from ..utils.validation import check_sequences, check_sequences_and_labels


class Task:
    """What a learner predicts (see :mod:`skstruct.tasks`): a task checks and encodes
    ``X`` and ``y``, turns output ids back into what ``predict`` returns and scores
    predictions. The defaults here are those of one output per token (or word)."""

    def check_inputs(self, X, name="X"):
        """``X`` as a list, checked (errors name the example): here as
        :func:`~skstruct.utils.validation.check_sequences` checks it."""
        return check_sequences(X, name=name)

    def check_examples(self, X, y, X_name="X", y_name="y"):
        """``X`` and ``y`` as lists, checked (errors name the example): here as
        :func:`~skstruct.utils.validation.check_sequences_and_labels` checks them."""
        return check_sequences_and_labels(X, y, X_name=X_name, y_name=y_name)

    def encodes_shards(self, model):
        """Whether ``model``'s training data can be encoded a shard at a time, each
        shard on its own (``encode_shard`` and ``initialize_from_shards``, which a task
        that can defines): here not."""
        return False

    def encodes_scoring_parts(self, model):
        """Whether ``model``'s scoring input (a development set) can be encoded a part
        at a time, each part on its own (``encode_X_part`` and ``encode_X_from_parts``,
        which a task that can defines): here not."""
        return False

    def shards_cheaper_on_workers(self, model):
        """Whether shipping a shard's raw sequences and encoding them on its worker
        costs less than encoding them here and shipping them encoded (what
        ``ParameterMixing(encode_on="auto")`` asks): here not."""
        return False

    def encode(self, model, X, y, names=("X", "y")):
        """``(encoded X, gold output ids)`` in ``model``'s fitted encoding, for scoring
        (labels unseen in training get ids no prediction equals)."""
        encoded = self.encode_X(model, X, names[0])
        return encoded, self.encode_y(model, y, name=names[1], strict=False)

    def per_example(self, predictions, bounds):
        """What ``predict`` returns for each example, from the flat ``predictions``
        (:meth:`predictions`) and the examples' output offsets ``bounds``: here each
        example's slice, a list."""
        return [predictions[bounds[i] : bounds[i + 1]] for i in range(len(bounds) - 1)]

    def predicted(self, model, encoded, ids, bounds):
        """What ``predict`` returns for the examples of ``encoded``, from their output
        ids ``ids`` (flat, example ``i``'s ``ids[bounds[i]:bounds[i + 1]]``): here
        :meth:`per_example` of :meth:`predictions`."""
        return self.per_example(self.predictions(model, ids), bounds)

    def prediction(self, model, encoded, i, ids):
        """What ``predict`` returns for example ``i`` of ``encoded`` from its output ids
        ``ids`` (one of ``predict_nbest``'s candidates): here :meth:`predictions`."""
        return self.predictions(model, ids)

    def score(self, structure, encoded, predicted, gold):
        """``(correct, total)`` of the output ids ``predicted`` against ``gold`` on the
        examples of ``encoded``: here the outputs that are right (:meth:`correct`) and
        how many there are; the score is their ratio."""
        correct = self.correct(structure, predicted, gold)
        return int(np.count_nonzero(correct)), int(correct.size)


class ShardEncoding(NamedTuple):
    """A shard of training data encoded on its own, on the worker that trains it
    (a task's ``encode_shard``; its ``initialize_from_shards`` merges them)."""

    encoder: object  # fitted on the shard alone (TokenDictEncoder, ArcFeatures)
    encoded: object  # the shard in the ids of ``encoder``
    classes: object  # the shard's label names, sorted (None: a parser without relations)
    labels: object  # the gold outputs with label ids into ``classes`` (the task's form)
