"""Dependency parsing: a head (and optionally a relation label) per word."""

from itertools import chain

import numpy as np
from sklearn.base import clone

from ..features import ArcFeatures
from ..utils.validation import flat_labels
from ._base import Task
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
        features = ArcFeatures() if model.features is None else clone(model.features)
        if not isinstance(features, ArcFeatures):
            raise ValueError(
                f"{type(model.decoder_).__name__} parses, so features must be an ArcFeatures "
                f"(or None for the default), not {features!r}."
            )
        if model.n_features is not None:
            features.set_params(n_features=model.n_features)
        model.features_ = None
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

    def extend(self, model, X, y):
        """More training data: the hashed weight space is fixed, so nothing grows."""
        return self.encode_X(model, X), self.training_outputs(model, *split_trees(y))

    def training_outputs(self, model, heads, deprels):
        """Gold output ids to learn from: trees (checked first), as the decoder can take
        them (one root word, projective, or lifted)."""
        check_heads(heads)
        lifted = check_training_trees(heads, model.decoder_)
        flat_heads = np.fromiter(chain.from_iterable(lifted), dtype=np.int32)
        return self._outputs(model, flat_heads, deprels, name="y", strict=True)

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
        encoded = model.encoder_.transform(X)
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
