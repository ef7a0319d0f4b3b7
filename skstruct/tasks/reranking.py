"""Reranking: each example a set of explicit candidates, the output the chosen one."""

from collections.abc import Mapping
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone

from ..features import EncodedSequences, TokenDictEncoder
from ..utils.arrays import concat_ranges
from ..utils.validation import is_lazy
from ._base import Task


class EncodedCandidates(NamedTuple):
    """The candidates of a list of examples, stacked (as
    :class:`~skstruct.features.EncodedSequences`: a row per candidate, example ``i``
    rows ``offsets[i]:offsets[i + 1]``), with each candidate's loss (``losses``, float64
    (n_candidates,); zeros when unknown)."""

    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray
    offsets: np.ndarray
    n_features: int
    losses: np.ndarray

    values = EncodedSequences.values
    n_sentences = EncodedSequences.n_sentences
    n_tokens = EncodedSequences.n_tokens

    def take(self, examples):
        """The examples ``examples`` (an index array), in that order."""
        examples = np.asarray(examples, dtype=np.int64)
        rows = concat_ranges(self.offsets[examples], self.offsets[examples + 1])
        return EncodedCandidates(*EncodedSequences.take(self, examples), self.losses[rows])


class Reranking(Task):
    """Choose one candidate of each example (reranking n-best lists).

    ``X``: a list of examples, each a non-empty list of candidates, every candidate a
    feature dict (after the learner's ``features`` transformer, if any; encoded as
    token dicts are, hashed with ``n_features``), or each example a 2-D array or scipy
    sparse matrix with a row per candidate (every example the same columns). ``y``:
    per example the index of the gold candidate, or a loss per candidate (the gold
    one: the first of least loss). Output ids are candidate indices, one per
    example; ``predict`` returns them; ``score`` is the share of examples whose chosen
    candidate has the least loss (top-1 accuracy).
    """

    name = "candidates"
    dev_name = "dev top-1"

    def check_examples(self, X, y, X_name="X", y_name="y"):
        """``X`` and ``y`` as lists, each example a non-empty candidate set and its
        ``y`` an index into it or a loss per candidate (errors name the example)."""
        X = _as_examples(X, X_name)
        y = list(y) if is_lazy(y) else y
        if isinstance(y, np.ndarray) and y.ndim == 1 and y.dtype != object:
            y = y.tolist()
        if not isinstance(y, (list, tuple)):
            raise TypeError(f"{y_name} must be a list (an index or losses per example).")
        if len(X) != len(y):
            raise ValueError(
                f"{X_name} and {y_name} have different numbers of examples: {len(X)} and {len(y)}."
            )
        for i, (candidates, gold) in enumerate(zip(X, y)):
            _check_gold(gold, _n_candidates(candidates), i, y_name)
        return X, list(y)

    def check_inputs(self, X, name="X"):
        """``X`` as a list of candidate sets (errors name the example)."""
        return _as_examples(X, name)

    def initialize(self, model, X, y, classes):
        """Fit the encoding on ``model`` (``features_``, ``encoder_``, ``structure_``);
        returns the encoded training candidates (with their losses) and the gold
        indices."""
        model.features_ = None if model.features is None else clone(model.features).fit(X)
        model.__dict__.pop("classes_", None)
        if _is_matrix(self._candidates(model, X)[0]):
            model.encoder_ = None
        else:
            model.encoder_ = TokenDictEncoder(model.n_features).fit([])
        encoded = self._encode(model, X, learn=True)
        model.structure_ = model.decoder_.make_structure(encoded.n_features, 0)
        return self._with_losses(encoded, y)

    def extend(self, model, X, y):
        """More training data: a dict vocabulary grows, the losses come along."""
        return self._with_losses(self._encode(model, X, learn=True), y)

    def encode_X(self, model, X, name="X"):
        return self._encode(model, _as_examples(X, name), learn=False)

    def encode_y(self, model, y, name="y", strict=True):
        """The gold indices (int32, one per example)."""
        return np.array([_gold_and_losses(gold, None)[0] for gold in y], dtype=np.int32)

    def encode(self, model, X, y, names=("X", "y")):
        """``X`` with the losses ``y`` gives, and the gold indices."""
        X, y = self.check_examples(X, y, *names)
        return self._with_losses(self._encode(model, X, learn=False), y)

    def predictions(self, model, ids):
        """The chosen candidates' indices (a flat list, one per example)."""
        return ids.tolist()

    def per_example(self, predictions, bounds):
        """One index per example (not a list of one)."""
        return [predictions[bounds[i]] for i in range(len(bounds) - 1)]

    def correct(self, structure, predicted, gold):
        """Whether the gold candidate was chosen (bool array)."""
        return predicted == gold

    def score(self, structure, encoded, predicted, gold):
        """``(examples whose chosen candidate has the least loss, examples)``: a tie
        with the gold candidate counts as right."""
        chosen = encoded.losses[encoded.offsets[:-1] + predicted]
        best = encoded.losses[encoded.offsets[:-1] + gold]
        return int(np.count_nonzero(chosen <= best)), int(predicted.size)

    def _candidates(self, model, X):
        return X if model.features_ is None else model.features_.transform(X)

    def _encode(self, model, X, learn):
        candidates = self._candidates(model, X)
        if model.encoder_ is None:
            return _encode_matrices(candidates, model.structure_ if not learn else None)
        if any(_is_matrix(example) for example in candidates):
            raise TypeError(
                "The model was fitted on candidate feature dicts: give every example as a "
                "list of dicts."
            )
        if learn:
            encoded = model.encoder_.partial_fit_transform(candidates)
        else:
            encoded = model.encoder_.transform(candidates)
        return EncodedCandidates(*encoded, np.zeros(encoded.n_tokens))

    def _with_losses(self, encoded, y):
        """``(encoded with y's losses, gold indices)``."""
        losses, gold = np.empty(encoded.n_tokens), np.empty(len(y), dtype=np.int32)
        for i, entry in enumerate(y):
            lo, hi = encoded.offsets[i], encoded.offsets[i + 1]
            gold[i], losses[lo:hi] = _gold_and_losses(entry, hi - lo)
        return encoded._replace(losses=losses), gold


def _as_examples(X, name):
    X = list(X) if is_lazy(X) else X
    if not isinstance(X, (list, tuple)):
        raise TypeError(f"{name} must be a list of candidate sets, got {type(X).__name__}.")
    if not X:
        raise ValueError(f"{name} is empty: it needs at least one candidate set.")
    for i, example in enumerate(X):
        if _is_matrix(example):
            if example.ndim != 2:
                raise ValueError(
                    f"Example {i}: {name}[{i}] must be a 2-D array or sparse matrix with a "
                    f"row per candidate, got {example.ndim} dimensions."
                )
        elif not isinstance(example, (list, tuple)) or not all(
            isinstance(c, Mapping) for c in example
        ):
            raise TypeError(
                f"Example {i}: {name}[{i}] must be a list of candidates (feature dicts) or "
                f"a 2-D array / sparse matrix with a row per candidate, got "
                f"{type(example).__name__}."
            )
        if _n_candidates(example) == 0:
            raise ValueError(f"Example {i}: {name}[{i}] has no candidate.")
    return list(X)


def _is_matrix(example):
    return sp.issparse(example) or isinstance(example, np.ndarray)


def _n_candidates(example):
    return example.shape[0] if _is_matrix(example) else len(example)


def _check_gold(gold, k, i, name):
    if isinstance(gold, (Integral, np.integer)) and not isinstance(gold, bool):
        if not 0 <= gold < k:
            raise ValueError(
                f"Example {i}: {name}[{i}] = {gold} is no candidate index (it has {k} candidates)."
            )
        return
    if isinstance(gold, (str, bytes, Mapping)) or not hasattr(gold, "__len__"):
        raise TypeError(
            f"Example {i}: {name}[{i}] must be the gold candidate's index or a loss per "
            f"candidate, got {type(gold).__name__}."
        )
    if len(gold) != k:
        raise ValueError(f"Example {i}: {name}[{i}] has {len(gold)} losses for {k} candidates.")
    if not all(isinstance(v, (Real, np.floating, np.integer)) for v in gold) or not np.all(
        np.isfinite(np.asarray(gold, dtype=float))
    ):
        raise ValueError(f"Example {i}: {name}[{i}] must hold finite numbers (losses).")


def _gold_and_losses(entry, k):
    """``(gold index, losses)`` of one example's ``y`` entry (``k`` candidates; None:
    only the index is wanted)."""
    if isinstance(entry, (Integral, np.integer)):
        if k is None:
            return int(entry), None
        losses = np.ones(k)
        losses[int(entry)] = 0.0
        return int(entry), losses
    losses = np.asarray(entry, dtype=np.float64)
    return int(np.argmin(losses)), losses


def _encode_matrices(examples, structure):
    """Candidates given as arrays or sparse matrices, stacked into one CSR matrix
    (``structure``: the fitted one, whose width every example must have)."""
    if not all(_is_matrix(example) for example in examples):
        raise TypeError(
            "Give every example as a 2-D array or sparse matrix (the model was fitted on "
            "them), or every one as a list of dicts."
        )
    widths = {example.shape[1] for example in examples}
    n_features = structure.n_features if structure is not None else max(widths)
    for i, example in enumerate(examples):
        if example.shape[1] != n_features:
            raise ValueError(
                f"Example {i}: X[{i}] has {example.shape[1]} columns, where the candidates "
                f"have {n_features}."
            )
    stacked = sp.vstack([sp.csr_matrix(example) for example in examples], format="csr")
    stacked.sort_indices()
    sizes = [example.shape[0] for example in examples]
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    data = EncodedSequences.compact_values(stacked.data.astype(np.float64))
    return EncodedCandidates(stacked.indptr.astype(np.int64), stacked.indices.astype(np.int32),
                             data, offsets, int(n_features), np.zeros(offsets[-1]))  # fmt: skip


RERANKING = Reranking()
