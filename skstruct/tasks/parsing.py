"""Dependency parsing: a head (and optionally a relation label) per word."""

from itertools import chain

import numpy as np
from sklearn.base import clone

from ..features import ArcFeatures
from ..utils.validation import flat_labels
from ._base import ShardEncoding, Task
from .trees import check_heads, check_training_trees, split_trees


class DependencyParsing(Task):
    """A head per word (0 the root), or ``(head, deprel)`` pairs for labelled parsing.

    ``X`` (token dicts with a form and a POS) is encoded by
    :class:`~skstruct.ArcFeatures` into :class:`~skstruct.features.TokenAttributes`;
    outputs are the structure's output ids (heads, or ``head * n_labels + label``);
    scores count heads only (UAS).
    """

    name = "heads"
    dev_name = "dev UAS"

    def initialize(self, model, X, y, classes):
        """Fit the encoding on ``model`` (``encoder_``, ``classes_`` for relation labels,
        ``structure_``); returns the encoded training data."""
        features = self._features(model)
        model.features_ = None  # a parser keeps its fitted ArcFeatures as encoder_
        heads, deprels = split_trees(y)
        if deprels is not None:
            model.check_decoder(relation_labels=True)
            model.classes_ = np.unique(np.asarray(flat_labels(deprels, name="deprels")))
        else:
            model.__dict__.pop("classes_", None)
        model.encoder_ = features
        encoded = model.encoder_.fit_transform(X)
        model.decoder_.check_lengths(encoded)
        model.structure_ = model.decoder_.make_structure(
            encoded.n_features, 0 if deprels is None else model.classes_.size
        )
        return encoded, self.training_outputs(model, heads, deprels)

    def _features(self, model):
        """A new, unfitted copy of ``model``'s ``ArcFeatures`` (with its ``n_features``)."""
        features = ArcFeatures() if model.features is None else clone(model.features)
        if not isinstance(features, ArcFeatures):
            raise ValueError(
                f"{type(model.decoder_).__name__} parses, so features must be an ArcFeatures "
                f"(or None for the default), not {features!r}."
            )
        if model.n_features is not None:
            features.set_params(n_features=model.n_features)
        return features

    def encodes_shards(self, model):
        """Whether :meth:`encode_shard` can encode ``model``'s training data: always (the
        weights are hashed; only the attribute vocabularies and relation labels need
        merging)."""
        return True

    def shards_cheaper_on_workers(self, model):
        """Never: a parser's input is token dicts, which cost as much to ship as to
        encode (PTB sample, 2 shards on loky: a set-up of 0.38-0.47 s encoding here,
        0.42-0.47 s on the workers)."""
        return False

    def fit_features(self, model, X):
        """Nothing is fitted on the whole corpus: each shard fits its own
        ``ArcFeatures`` (:meth:`encode_shard`); only the ``features`` are checked."""
        self._features(model)
        model.features_ = None

    def encode_shard(self, model, X, y):
        """Encode a shard of the training data on its own, as on a worker that never
        sees the rest: ``ArcFeatures`` fitted on the shard alone, the trees checked (and
        lifted for the decoder) and, with relation labels, their ids into the shard's
        own sorted label names. :meth:`initialize_from_shards` merges the shards in the
        parent. ``model`` is not changed.

        Returns
        -------
        ShardEncoding
            With ``labels`` the pair (heads of every word, int32; relation label ids into
            ``classes``, or None without relations).
        """
        features = self._features(model)
        encoded = features.fit_transform(X)
        model.decoder_.check_lengths(encoded)
        heads, deprels = split_trees(y)
        flat_heads = self._training_heads(model, heads)
        if deprels is None:
            return ShardEncoding(features, encoded, None, (flat_heads, None))
        names = np.asarray(flat_labels(deprels, name="deprels"))
        classes, label_ids = np.unique(names, return_inverse=True)
        return ShardEncoding(features, encoded, classes, (flat_heads, label_ids))

    def initialize_from_shards(self, model, shards):
        """:meth:`initialize` from the shards' own encodings (``shards``, the
        :class:`~skstruct.tasks._base.ShardEncoding` of each, in order): the first
        shard's ``ArcFeatures`` takes in the others' vocabularies
        (:meth:`ArcFeatures.merge <skstruct.ArcFeatures.merge>`) and their word ids are
        renumbered into it; the relation labels are the union of the shards'. Returns
        each shard's ``(encoded X, gold output ids)``.

        With one shard the encoding is :meth:`initialize`'s, bit for bit; with more, the
        same attributes, only numbered in another order (so some hashed features collide
        otherwise).
        """
        labelled = [shard.classes is not None for shard in shards]
        if any(labelled) and not all(labelled):
            raise ValueError(
                "y mixes bare heads and (head, deprel) pairs across shards; give every "
                "word the same form."
            )
        model.encoder_ = features = shards[0].encoder
        maps = [None] + [features.merge(shard.encoder) for shard in shards[1:]]
        if all(labelled):
            model.check_decoder(relation_labels=True)
            model.classes_ = np.unique(np.concatenate([shard.classes for shard in shards]))
        else:
            model.__dict__.pop("classes_", None)
        encodings = [
            shard.encoded if ids is None else shard.encoded.with_ids(ids)
            for shard, ids in zip(shards, maps)
        ]
        model.structure_ = model.decoder_.make_structure(
            features.n_features, model.classes_.size if all(labelled) else 0
        )
        data = []
        for shard, encoded in zip(shards, encodings):
            heads, label_ids = shard.labels
            if label_ids is None:
                outputs = model.structure_.encode(heads)
            else:
                merged = np.searchsorted(model.classes_, shard.classes)[label_ids]
                outputs = model.structure_.encode(heads, merged)
            data.append((encoded, outputs))
        return data

    def extend(self, model, X, y):
        """More training data: the hashed weight space is fixed, so nothing grows."""
        return self.encode_X(model, X), self.training_outputs(model, *split_trees(y))

    def training_outputs(self, model, heads, deprels):
        """Gold output ids to learn from: trees (checked first), as the decoder can take
        them (one root word, projective, or lifted)."""
        flat_heads = self._training_heads(model, heads)
        return self._outputs(model, flat_heads, deprels, name="y", strict=True)

    def _training_heads(self, model, heads):
        """Every word's head (flat int32) after checking the trees and lifting them as
        the decoder needs."""
        check_heads(heads)
        lifted = check_training_trees(heads, model.decoder_)
        return np.fromiter(chain.from_iterable(lifted), dtype=np.int32)

    def _outputs(self, model, flat_heads, deprels, name, strict):
        """Output ids of checked heads (flat) and their labels (unseen labels raise when
        ``strict``, else count as label 0: attachment scores only read the heads)."""
        structure = model.structure_
        if not structure.n_labels:
            return structure.encode(flat_heads)
        if deprels is None:
            if strict:
                raise ValueError(f"The parser was trained with labels: {name} needs them too.")
            return structure.encode(flat_heads, np.zeros_like(flat_heads))
        index = {label: k for k, label in enumerate(model.classes_.tolist())}
        labels = []
        for i, sentence in enumerate(deprels):
            for j, label in enumerate(sentence):
                if label not in index and strict:
                    raise ValueError(
                        f"{name}[{i}][{j}]: relation {label!r} was not seen in training."
                    )
                labels.append(index.get(label, 0))
        return structure.encode(flat_heads, labels)

    def encode_X(self, model, X, name="X"):
        encoded = model.encoder_.transform_named(X, name)
        model.decoder_.check_lengths(encoded, name)
        return encoded

    def encode_y(self, model, y, name="y", strict=True):
        """Every word's output id, each sentence checked to be a tree (labels unseen in
        training count as label 0: scores read the heads only)."""
        heads, deprels = split_trees(y, name=name)
        return self._outputs(model, check_heads(heads, name=name), deprels, name, strict=False)

    def predictions(self, model, ids):
        """Per word: the head, or ``(head, deprel)`` for a labelled parser (a flat list)."""
        heads, labels = model.structure_.split_outputs(ids)
        if not model.structure_.n_labels:
            return heads.tolist()
        return list(zip(heads.tolist(), model.classes_[labels].tolist()))

    def correct(self, structure, predicted, gold):
        """Which words have the right head (bool array; labels are not looked at)."""
        return structure.split_outputs(predicted)[0] == structure.split_outputs(gold)[0]


DEPENDENCY_PARSING = DependencyParsing()
