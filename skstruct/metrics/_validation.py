"""Input validation shared by every metric in :mod:`skstruct.metrics`.

All metrics take ``y_true`` and ``y_pred`` as lists of label sequences, one
sequence per sentence. :func:`_check_sequences` is the single place where that
contract is enforced, so every metric fails the same way on the same mistake.
"""

from collections.abc import Iterator, Mapping, Set

import numpy as np

_EXAMPLE = "[['B-NP', 'I-NP', 'O'], ['B-VP']]"


def _short_repr(value, limit=60):
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_collection(obj):
    """True for sized, ordered, re-iterable containers that are not strings."""
    if isinstance(obj, np.ndarray):
        return True
    if isinstance(obj, (str, bytes, Mapping, Set, Iterator)):
        return False
    return hasattr(obj, "__len__") and hasattr(obj, "__iter__")


def _as_sequences(y, name):
    """Return ``y`` as a list of label lists, or raise a descriptive error."""
    if isinstance(y, (str, bytes)):
        raise TypeError(
            f"{name} must be a list of label sequences such as {_EXAMPLE}, "
            f"got a string: {_short_repr(y)}."
        )
    if isinstance(y, Iterator):  # generators, map/zip objects, file handles...
        raise TypeError(
            f"{name} is a {type(y).__name__}, which can be read only once; "
            f"materialise it first, e.g. {name} = list({name})."
        )
    if isinstance(y, np.ndarray):
        if y.ndim == 0:
            raise TypeError(f"{name} must be a list of label sequences, got a 0-d array.")
        if y.ndim == 1 and y.dtype != object:
            raise TypeError(
                f"{name} must be a list of label sequences such as {_EXAMPLE}, got a flat "
                f"1-D array of labels; wrap a single sequence in a list: [{name}]."
            )
    elif not _is_collection(y):
        raise TypeError(
            f"{name} must be a list of label sequences such as {_EXAMPLE}, got {type(y).__name__}."
        )
    sequences = []
    for i, seq in enumerate(y):
        if isinstance(seq, np.ndarray):
            if seq.ndim != 1:
                raise ValueError(
                    f"{name}[{i}] must be a 1-D sequence of labels, got an array of "
                    f"shape {seq.shape}."
                )
            sequences.append(seq.tolist())
        elif _is_collection(seq):
            sequences.append(list(seq))
        else:
            raise TypeError(
                f"{name} must be a list of label sequences such as {_EXAMPLE}, but "
                f"{name}[{i}] is a single label {_short_repr(seq)} "
                f"({type(seq).__name__}). A flat list of labels is one sequence: "
                f"wrap it in a list, [{name}]."
            )
    if not sequences:
        raise ValueError(f"{name} contains no sequences; at least one is needed.")
    return sequences


def _check_sequences(y_true, y_pred):
    """Validate a pair of label-sequence collections.

    Parameters
    ----------
    y_true, y_pred : list of sequences of labels
        Lists, tuples or 1-D object arrays whose items are lists, tuples or
        1-D arrays of labels. Generators are refused because metrics that need
        two passes would silently see an empty second pass.

    Returns
    -------
    y_true, y_pred : list of list
        The same labels as plain Python lists (numpy scalars become Python
        scalars through ``ndarray.tolist``).

    Raises
    ------
    TypeError
        If either argument is a string, an iterator, a flat list of labels or
        not a collection at all.
    ValueError
        If either argument is empty, if they hold different numbers of
        sequences, or if two paired sequences differ in length.
    """
    y_true = _as_sequences(y_true, "y_true")
    y_pred = _as_sequences(y_pred, "y_pred")
    if len(y_true) != len(y_pred):
        raise ValueError(
            f"y_true and y_pred must hold the same number of sequences, got "
            f"{len(y_true)} in y_true and {len(y_pred)} in y_pred."
        )
    for i, (seq_true, seq_pred) in enumerate(zip(y_true, y_pred, strict=True)):
        if len(seq_true) != len(seq_pred):
            raise ValueError(
                f"Sequence {i} has {len(seq_true)} labels in y_true but "
                f"{len(seq_pred)} in y_pred; paired sequences must have equal length."
            )
    return y_true, y_pred
