"""Sequence labelling: a label per token, features from token dicts."""

import copy
import warnings
from collections.abc import Mapping
from numbers import Integral

import numpy as np
from sklearn.base import clone

from ..features import ArcFeatures, EncodedSequences, TokenDictEncoder, TokenFeatures
from ..structures.constraints import ForbiddenGoldWarning
from ..utils.arrays import concat_ranges
from ..utils.validation import flat_labels, locate
from ._base import ShardEncoding, Task


class SequenceLabelling(Task):
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
        self.fit_features(model, X)
        if classes is None:
            model.classes_ = self._label_names(model, y)
            if not model.classes_.size:
                raise ValueError("y holds no label, only None: nothing to learn from.")
        else:
            model.classes_ = np.unique(np.asarray(flat_labels([list(classes)], name="classes")))
        model.encoder_ = TokenDictEncoder(model.n_features).fit([])
        encoded = self._encode(model, X, learn=True)
        model.structure_ = model.decoder_.make_structure(
            encoded.n_features, model.classes_.size, labels=model.classes_.tolist()
        )
        labels = self.encode_y(model, y)
        return self.keep_allowed(model.structure_, encoded, labels, y)

    def fit_features(self, model, X):
        """Fit ``model``'s feature transformer on the whole of ``X`` (``features_``)."""
        if isinstance(model.features, ArcFeatures):
            raise ValueError(
                f"features=ArcFeatures() builds parser features, but the decoder "
                f"{model.decoder_!r} labels sequences: use Eisner() or ChuLiuEdmonds()."
            )
        model.features_ = None if model.features is None else clone(model.features).fit(X)

    def encodes_shards(self, model):
        """Whether :meth:`encode_shard` can encode ``model``'s training data: not under
        a decoder's ``allowed=``, whose check of the gold labels names examples of the
        whole corpus (:meth:`keep_allowed`)."""
        return getattr(model.decoder_, "allowed", None) is None

    def shards_cheaper_on_workers(self, model):
        """Whether shipping a shard's raw sequences costs less than encoding it here:
        when the learner featurises raw input (its ``features`` set, as
        ``TokenFeatures()``). Token dicts made before ``fit`` cost more to ship than to
        encode (on Brown, 0.7 s to pickle 10,000 sentences of tutorial dicts, against
        1.0 s to encode all 20,000)."""
        return getattr(model, "features", None) is not None

    def encode_shard(self, model, X, y):
        """Encode a shard of the training data on its own, as on a worker that never
        sees the rest: the features of ``X`` in a vocabulary of their own, the labels of
        ``y`` as ids into the shard's own sorted label names.

        ``model`` has its decoder and feature transformer fitted on the whole corpus
        (:meth:`fit_features`); it is not changed. :meth:`initialize_from_shards`
        merges the shards' encodings in the parent.

        Returns
        -------
        ShardEncoding
        """
        encoder, encoded = self.encode_X_part(model, X)
        model = copy.copy(model)
        model.classes_ = self._label_names(model, y)
        return ShardEncoding(encoder, encoded, model.classes_, self.encode_y(model, y))

    def encodes_scoring_parts(self, model):
        """Whether :meth:`encode_X_part` can encode ``model``'s scoring input: where
        its training shards can be (:meth:`encodes_shards`)."""
        return self.encodes_shards(model)

    def encode_X_part(self, model, X):
        """``(encoder, encoded X)``: the features of ``X``, a part of the training or
        scoring input, in a vocabulary of their own, as on a worker that never sees
        the rest (``model`` as for :meth:`encode_shard`; not changed)."""
        model = copy.copy(model)
        model.encoder_ = TokenDictEncoder(model.n_features).fit([])
        return model.encoder_, self._encode(model, X, learn=True)

    def encode_X_from_parts(self, model, parts):
        """The scoring input whose parts :meth:`encode_X_part` encoded (``parts``, in
        order) in ``model``'s fitted encoding: what :meth:`encode_X` gives for the
        whole, row for row (features the vocabulary lacks dropped), without a pass over
        the data."""
        n_features = model.encoder_.n_features_
        return EncodedSequences.concatenate([
            encoded.with_columns(model.encoder_.columns_of(encoder), n_features)
            for encoder, encoded in parts
        ])  # fmt: skip

    def _label_names(self, model, y):
        """The sorted names of the labels in ``y`` (None, an unknown label of a learner
        that trains on partial labels, is no name); empty when there are none."""
        partial = getattr(model, "learns_partial_labels", False)
        known = [label for label in flat_labels(y, allow_none=partial) if label is not None]
        return np.unique(np.asarray(known)) if known else np.zeros(0)

    def initialize_from_shards(self, model, shards):
        """:meth:`initialize` from the shards' own encodings (``shards``, the
        :class:`ShardEncoding` of each shard, in order) rather than from the data: the
        first shard's vocabulary takes in the others' (``TokenDictEncoder.merge``, no
        pass over the data), the label names are the union of the shards'. Returns each
        shard's ``(encoded X, label ids)`` in the merged encoding.

        With one shard the encoding is :meth:`initialize`'s, bit for bit; with more,
        the same features and labels, only some feature columns numbered otherwise.
        """
        named = [shard.classes for shard in shards if shard.classes.size]
        if not named:
            raise ValueError("y holds no label, only None: nothing to learn from.")
        model.classes_ = np.unique(np.concatenate(named))
        model.encoder_ = shards[0].encoder
        columns = [None] * len(shards)  # None: the shard's columns are the merged ones
        if model.n_features is None:  # hashed shards share one column space already
            columns[1:] = [model.encoder_.merge(shard.encoder) for shard in shards[1:]]
        n_features = model.encoder_.n_features_
        model.structure_ = model.decoder_.make_structure(
            n_features, model.classes_.size, labels=model.classes_.tolist()
        )
        data = []
        for shard, shard_columns in zip(shards, columns):
            encoded = shard.encoded
            if shard_columns is not None:
                encoded = encoded.with_columns(shard_columns, n_features)
            label_ids = np.searchsorted(model.classes_, shard.classes)
            known = shard.labels >= 0
            labels = np.full(shard.labels.size, -1, dtype=np.int32)
            labels[known] = label_ids[shard.labels[known]]
            data.append((encoded, labels))
        return data

    def keep_allowed(self, structure, encoded, labels, y, name="y"):
        """``(encoded, labels)`` without the sequences whose gold labels the structure's
        constraints forbid (a decoder's ``allowed=``), with a warning naming how many and
        the first: a search kept to allowed outputs can never reach such a gold output,
        and its score, ``-inf``, would make every violation infinite."""
        constraints = structure.constraints
        if constraints is None:
            return encoded, labels
        offsets = encoded.offsets
        sentences, positions = constraints.violations(labels, offsets)
        if not sentences.size:
            return encoded, labels
        if sentences.size == encoded.n_sentences:
            raise ValueError(
                f"every training sequence breaks {constraints.description}: check the "
                f"labels (IOB1 data, where I-X may begin an entity, needs converting to "
                f"IOB2 for 'bio')."
            )
        i, t = int(sentences[0]), int(positions[0])
        seq, ids = list(y[i]), labels[offsets[i] : offsets[i + 1]]
        if t > 0 and not constraints.transition[ids[t - 1], ids[t]]:
            where = f"{seq[t - 1]!r} -> {seq[t]!r} at positions {t - 1}-{t}"
        elif t == 0 and not constraints.start[ids[0]]:
            where = f"{seq[0]!r} first"
        else:
            where = f"{seq[t]!r} last (position {t})"
        warnings.warn(
            f"{sentences.size} of {encoded.n_sentences} training sequences break "
            f"{constraints.description} and are left out of training; the first is example "
            f"{i}, whose {name}[{i}] has {where}. (IOB1 data, where I-X may begin an "
            f"entity, needs converting to IOB2 for 'bio'.)",
            ForbiddenGoldWarning,
            stacklevel=2,
        )
        keep = np.setdiff1d(np.arange(encoded.n_sentences), sentences)
        tokens = concat_ranges(offsets[keep], offsets[keep + 1])
        return encoded.take(keep), labels[tokens]

    def extend(self, model, X, y):
        """Encode more training data: the vocabulary grows (and the weights with it), the
        labels stay."""
        labels = self.encode_y(model, y)
        encoded = self._encode(model, X, learn=True)
        return self.keep_allowed(model.structure_, encoded, labels, y)

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
        scores count them as errors (scoring data). None, an unknown label, gets id -1
        for a learner that trains on partial labels (``learns_partial_labels``)."""
        partial = strict and getattr(model, "learns_partial_labels", False)
        labels = flat_labels(y, name=name, allow_none=partial)
        index = {label: i for i, label in enumerate(model.classes_.tolist())}
        if partial:
            index[None] = -1
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

    def encode_fixed(self, model, entry, n_tokens, i):
        """``(positions int64, label ids int32)`` of one sequence's entry of ``fixed=``
        (None, a dict ``{position: label}`` or a list with a label or None per token),
        or None when it fixes nothing; errors name example ``i``."""
        if entry is None:
            return None
        if isinstance(entry, Mapping):
            items = list(entry.items())
        elif isinstance(entry, (list, tuple, np.ndarray)):
            if len(entry) != n_tokens:
                raise ValueError(
                    f"Example {i}: fixed[{i}] has {len(entry)} entries for {n_tokens} tokens "
                    f"(a label or None per token; or pass a dict {{position: label}})."
                )
            items = [(t, label) for t, label in enumerate(entry) if label is not None]
        else:
            raise ValueError(
                f"Example {i}: fixed[{i}] must be None, a dict {{position: label}} or a list "
                f"of labels and None, got {type(entry).__name__}."
            )
        if not items:
            return None
        index = {label: j for j, label in enumerate(model.classes_.tolist())}
        positions = np.empty(len(items), dtype=np.int64)
        ids = np.empty(len(items), dtype=np.int32)
        for j, (t, label) in enumerate(items):
            if not (isinstance(t, Integral) and 0 <= t < n_tokens):
                raise ValueError(
                    f"Example {i}: fixed[{i}] names position {t!r}; the sequence has "
                    f"positions 0 to {n_tokens - 1}."
                )
            if label not in index:
                raise ValueError(
                    f"Example {i}: fixed[{i}] gives label {label!r} at position {t}, which "
                    f"is not one of classes_ {model.classes_.tolist()!r}."
                )
            positions[j], ids[j] = t, index[label]
        return positions, ids

    def predictions(self, model, ids):
        """The labels of output ids (a flat list)."""
        return model.classes_[ids].tolist()

    def correct(self, structure, predicted, gold):
        """Which tokens are right (bool array)."""
        return predicted == gold


SEQUENCE_LABELLING = SequenceLabelling()
