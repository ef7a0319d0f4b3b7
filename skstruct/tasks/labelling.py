"""Sequence labelling: a label per token, features from token dicts."""

import numpy as np
from sklearn.base import clone

from ..features import ArcFeatures, TokenDictEncoder, TokenFeatures
from ..utils.validation import flat_labels, locate


class SequenceLabelling:
    """A label per token (POS tagging, chunking, NER): ``y`` holds label lists.

    ``X`` is encoded by a :class:`~skstruct.features.TokenDictEncoder` (after the
    learner's ``features`` transformer, if any) into an
    :class:`~skstruct.features.EncodedSequences`; outputs are label ids into the
    learner's ``classes_``. With ``features=TokenFeatures(...)`` the encoder gets the
    features per distinct token (:meth:`~skstruct.TokenFeatures.encode`), not a dict
    per token.
    """

    name = "labels"
    dev_name = "dev accuracy"

    def initialize(self, model, X, y, classes):
        """Fit the encoding of ``X`` and ``y`` on ``model`` (``features_``, ``classes_``,
        ``encoder_``, ``structure_``); returns the encoded training data."""
        if isinstance(model.features, ArcFeatures):
            raise ValueError(
                f"features=ArcFeatures() builds parser features, but the decoder "
                f"{model.decoder_!r} labels sequences: use Eisner() or ChuLiuEdmonds()."
            )
        model.features_ = None if model.features is None else clone(model.features).fit(X)
        if classes is None:
            model.classes_ = np.unique(np.asarray(flat_labels(y)))
        else:
            model.classes_ = np.unique(np.asarray(flat_labels([list(classes)], name="classes")))
        model.encoder_ = TokenDictEncoder(model.n_features).fit([])
        encoded = self._encode(model, X, learn=True)
        model.structure_ = model.decoder_.make_structure(encoded.n_features, model.classes_.size)
        return encoded, self.encode_y(model, y)

    def extend(self, model, X, y):
        """Encode more training data: the vocabulary grows (and the weights with it), the
        labels stay."""
        labels = self.encode_y(model, y)
        return self._encode(model, X, learn=True), labels

    def token_dicts(self, model, X):
        return X if model.features_ is None else model.features_.transform(X)

    def encode_X(self, model, X, name="X"):
        return self._encode(model, X, learn=False)

    def _encode(self, model, X, learn):
        """``X`` through the fitted encoder; ``learn``: its vocabulary grows first."""
        if isinstance(model.features_, TokenFeatures):
            # features per distinct token: the dicts of a large corpus cost seconds and GBs
            return model.features_.encode(X, model.encoder_, learn=learn)
        dicts = self.token_dicts(model, X)
        if learn:
            return model.encoder_.partial_fit_transform(dicts)
        return model.encoder_.transform(dicts)

    def encode_y(self, model, y, name="y", strict=True):
        """Label ids (int32, all tokens). Unseen labels raise, naming the example, when
        ``strict`` (training data); else they get id -1, which no prediction equals, so
        scores count them as errors (scoring data)."""
        labels = flat_labels(y, name=name)
        index = {label: i for i, label in enumerate(model.classes_.tolist())}
        if not strict:
            get = index.get
            return np.fromiter((get(lab, -1) for lab in labels), dtype=np.int32, count=len(labels))
        try:
            return np.fromiter(map(index.__getitem__, labels), dtype=np.int32, count=len(labels))
        except (KeyError, TypeError):
            j = next(j for j, lab in enumerate(labels) if lab not in index)
            i, pos = locate(y, j)
            raise ValueError(
                f"Example {i}: label {labels[j]!r} at position {pos} of {name}[{i}] was not "
                f"seen in training (classes_: {model.classes_.tolist()!r})."
            ) from None

    def predictions(self, model, ids):
        """The labels of output ids (a flat list)."""
        return model.classes_[ids].tolist()

    def correct(self, structure, predicted, gold):
        """Which tokens are right (bool array)."""
        return predicted == gold


SEQUENCE_LABELLING = SequenceLabelling()
