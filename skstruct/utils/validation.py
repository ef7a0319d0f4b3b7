"""Checks for list-of-sequences input: every error names the problem and the example index."""

import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from itertools import chain, islice
from numbers import Integral, Number

import numpy as np
from sklearn.model_selection import KFold, check_cv

#: Sequences per chunk when ``predict`` or ``score`` reads a one-shot iterable.
CHUNK_SIZE = 4096


def as_list(X, name="X"):
    """``X`` as a list of examples (a list, tuple, array or pandas column of them), or a
    TypeError saying what was expected instead; nothing about the examples is checked.

    Examples
    --------
    >>> as_list((["a"], ["b"]))
    [['a'], ['b']]
    >>> as_list(None, "y")
    Traceback (most recent call last):
    ...
    TypeError: y must be a list of sequences, got NoneType.
    """
    if isinstance(X, list):
        return X
    if isinstance(X, tuple):
        return list(X)
    if isinstance(X, np.ndarray) and X.ndim >= 1:
        return list(X)
    if _is_pandas(X):
        return _pandas_column(X, name)
    if isinstance(X, Iterator):
        raise TypeError(
            f"{name} must be a list of sequences, got a {type(X).__name__} (an iterator, which "
            f"can be read only once). Materialise it first: {name} = list({name})."
        )
    raise TypeError(f"{name} must be a list of sequences, got {type(X).__name__}.")


def _is_pandas(X):
    # Duck-typed on the class's module: pandas is not a dependency, so it is not imported.
    return type(X).__module__.partition(".")[0] == "pandas" and hasattr(X, "ndim")


def _pandas_column(X, name):
    """The values of a Series, or of a one-column DataFrame, in a list (index dropped)."""
    if X.ndim == 1:
        return X.tolist()
    if X.ndim == 2 and X.shape[1] == 1:
        return X.iloc[:, 0].tolist()
    names = list(X.columns)
    columns = ", ".join(repr(c) for c in names[:5])
    more = ", ..." if len(names) > 5 else ""
    raise TypeError(
        f"{name} is a DataFrame with {X.shape[1]} columns ({columns}{more}); pass the one "
        f"column that holds a sequence per row, e.g. {name}=frame[{names[0]!r}] "
        f"(a Series of lists), or a one-column DataFrame."
    )


def check_sequences(X, *, name="X"):
    """Validate a list of non-empty sequences and return it as a list.

    Parameters
    ----------
    X : list of sequences
        Each sequence is a list, tuple or 1-D array of tokens (or labels). A tuple, a
        1-D array, a pandas Series or a one-column DataFrame of sequences is taken as
        the list of its items (a pandas index is ignored: order is what counts).
    name : str, default="X"
        Name of the argument, used in error messages.

    Returns
    -------
    X : list
        The same sequences, in a list.

    Raises
    ------
    TypeError
        If ``X`` is not a list of sequences (a generator, a string, a dict, ...), or
        one of its items is not a sequence.
    ValueError
        If ``X`` is empty or one of its sequences is empty.

    Examples
    --------
    >>> check_sequences([["a", "b"], ["c"]])
    [['a', 'b'], ['c']]
    >>> check_sequences([["a"], []])
    Traceback (most recent call last):
    ...
    ValueError: X[1] is an empty sequence; every sequence needs at least one token.
    """
    X = as_list(X, name)
    if not X:
        raise ValueError(f"{name} is empty: it needs at least one sequence.")
    for i, seq in enumerate(X):
        if isinstance(seq, (str, bytes, Mapping)) or not isinstance(seq, (list, tuple, np.ndarray)):
            raise TypeError(
                f"{name}[{i}] must be a sequence (list, tuple or 1-D array) of tokens, got "
                f"{type(seq).__name__}. {name} must be a list of sequences."
            )
        if len(seq) == 0:
            raise ValueError(
                f"{name}[{i}] is an empty sequence; every sequence needs at least one token."
            )
    return X


def is_lazy(X):
    """Whether ``X`` is a one-shot iterable of sequences: an iterator (a generator, a
    reader) or any iterable that is no collection. Lists, tuples, arrays, pandas objects,
    strings and dicts are collections.

    Examples
    --------
    >>> is_lazy(s for s in [["a"]]), is_lazy([["a"]]), is_lazy("a b")
    (True, False, False)
    """
    return isinstance(X, Iterable) and not isinstance(X, Collection)


def check_token_dict(token, i, pos):
    """Raise a ValueError naming sentence ``i`` and token ``pos`` unless ``token`` is a
    CoNLL-U token dict with a string ``form``; returns ``token``."""
    if not isinstance(token, Mapping) or not isinstance(token.get("form"), str):
        raise ValueError(
            f"Example {i}: token {pos} ({token!r}) is not a token dict with a 'form' "
            f"(CoNLL-U tokens, as load_conllu reads them)."
        )
    return token


def check_sequences_and_labels(X, y, *, X_name="X", y_name="y"):
    """Validate ``X`` and its label sequences ``y``: same count, same length pairwise.

    A one-shot iterable ``X`` or ``y`` (see :func:`is_lazy`) is read into a list: a
    learner's ``fit`` visits the sequences many times.

    Parameters
    ----------
    X : list of sequences, or a one-shot iterable of sequences
    y : list of label sequences, or a one-shot iterable of them
    X_name, y_name : str, default="X", "y"
        Names used in error messages.

    Returns
    -------
    X, y : list
        Both as lists.

    Examples
    --------
    >>> check_sequences_and_labels([["a", "b"]], [["A"]])
    Traceback (most recent call last):
    ...
    ValueError: Example 0: X[0] has 2 tokens but y[0] has 1 labels.
    """
    X = check_sequences(list(X) if is_lazy(X) else X, name=X_name)
    y = check_sequences(list(y) if is_lazy(y) else y, name=y_name)
    if len(X) != len(y):
        raise _count_mismatch(X_name, y_name, len(X), len(y))
    for i, (seq, labels) in enumerate(zip(X, y)):
        if len(seq) != len(labels):
            raise ValueError(
                f"Example {i}: {X_name}[{i}] has {len(seq)} tokens but {y_name}[{i}] has "
                f"{len(labels)} labels."
            )
    return X, y


def _count_mismatch(X_name, y_name, n_X, n_y):
    return ValueError(
        f"{X_name} and {y_name} have different numbers of sequences: {n_X} and {n_y}."
    )


def sequence_chunks(X, y=None, *, X_name="X", y_name="y", size=None, task=None):
    """``(start, X_chunk, y_chunk)``: ``X`` (and ``y``) in checked lists, chunk by chunk.

    A one-shot iterable (see :func:`is_lazy`) is read ``size`` sequences at a time, so
    that the caller can encode and predict a chunk before reading the next; anything
    else comes whole, in one chunk. Each chunk is checked as
    :func:`check_sequences` (:func:`check_sequences_and_labels` with ``y``) checks a
    list, with errors naming examples by their index in the whole of ``X``.

    Parameters
    ----------
    X : list of sequences, or a one-shot iterable of sequences
    y : list of label sequences, a one-shot iterable of them, or None
    X_name, y_name : str, default="X", "y"
        Names used in error messages.
    size : int, default=None
        Sequences per chunk; None: :data:`CHUNK_SIZE`.
    task : task or None, default=None
        Whose ``check_inputs`` and ``check_examples`` check the chunks (a learner's
        :mod:`~skstruct.tasks` task: candidate sets are no sequences of tokens); None:
        :func:`check_sequences` and :func:`check_sequences_and_labels`.

    Yields
    ------
    start : int
        Index of the chunk's first sequence in ``X``.
    X_chunk : list
    y_chunk : list or None

    Examples
    --------
    >>> [(start, chunk) for start, chunk, _ in sequence_chunks(iter([["a"], ["b"], ["c"]]), size=2)]
    [(0, [['a'], ['b']]), (2, [['c']])]
    >>> list(sequence_chunks(iter([["a"], []]), size=1))
    Traceback (most recent call last):
    ...
    ValueError: X[1] is an empty sequence; every sequence needs at least one token.
    """
    check_X = check_sequences if task is None else task.check_inputs
    check_Xy = check_sequences_and_labels if task is None else task.check_examples
    if not is_lazy(X) and (y is None or not is_lazy(y)):
        if y is None:
            yield 0, check_X(X, name=X_name), None
        else:
            yield 0, *check_Xy(X, y, X_name=X_name, y_name=y_name)
        return
    size = CHUNK_SIZE if size is None else size
    # a whole side given as a list is checked as one, then read along the other side
    X_items = iter(X if is_lazy(X) else check_X(X, name=X_name))
    y_items = None if y is None else iter(y if is_lazy(y) else list(y))
    start = 0
    while True:
        X_chunk = list(islice(X_items, size))
        y_chunk = None if y is None else list(islice(y_items, size))
        if start and not X_chunk and not y_chunk:
            return
        if y_chunk is not None and len(X_chunk) != len(y_chunk):
            # one side ran out: count the rest of the other for the totals
            n_X = start + len(X_chunk) + sum(1 for _ in X_items)
            n_y = start + len(y_chunk) + sum(1 for _ in y_items)
            raise _count_mismatch(X_name, y_name, n_X, n_y)
        with examples_from(start, (X_name, y_name)):
            if y is None:
                X_chunk = check_X(X_chunk, name=X_name)
            else:
                X_chunk, y_chunk = check_Xy(X_chunk, y_chunk, X_name=X_name, y_name=y_name)
        yield start, X_chunk, y_chunk
        start += len(X_chunk)
        if len(X_chunk) < size:
            return


@contextmanager
def examples_from(start, names=("X", "y")):
    """Work on a chunk of the data whose first example has index ``start``: a
    TypeError or ValueError raised inside, which names the chunk's example ``i``
    (``"Example i: ..."``, ``"X[i] ..."``), names example ``start + i`` instead.

    Examples
    --------
    >>> with examples_from(4096):
    ...     raise ValueError("Example 3: X[3] has 2 tokens but y[3] has 1 labels.")
    Traceback (most recent call last):
    ...
    ValueError: Example 4099: X[4099] has 2 tokens but y[4099] has 1 labels.
    """
    try:
        yield
    except (TypeError, ValueError) as exc:
        if start and exc.args and isinstance(exc.args[0], str):
            exc.args = (_shift_example(exc.args[0], start, names), *exc.args[1:])
        raise


def _shift_example(message, start, names):
    """``message`` with its example index ``i`` (the one it starts with) made
    ``start + i``; other numbers, such as token positions, stay."""
    named = "|".join(map(re.escape, names))
    found = re.match(rf"(?:Example |(?:{named})\[)(\d+)", message)
    if found is None:
        return message
    index = found[1]
    return re.sub(
        rf"(Example |\b(?:{named})\[){index}(?!\d)",
        lambda m: f"{m[1]}{int(index) + start}",
        message,
    )


def flat_labels(y, *, name="y", allow_none=False):
    """All labels of ``y`` in one list, checked to be hashable and of one kind.

    Labels must be all strings or all numbers: mixing them is refused, because
    numpy would silently turn the numbers into strings. A NaN label is refused too.
    With ``allow_none``, None (an unknown label: partial labelling) may stand anywhere.

    Examples
    --------
    >>> flat_labels([["B-NP", "I-NP"], ["O"]])
    ['B-NP', 'I-NP', 'O']
    """
    labels = list(chain.from_iterable(y))
    types = set(map(type, labels))
    if allow_none:
        types.discard(type(None))
    kinds = {_label_kind(t) for t in types}
    if None in kinds:
        bad = next(
            j for j, lab in enumerate(labels)
            if _label_kind(type(lab)) is None and not (allow_none and lab is None)
        )  # fmt: skip
        i, pos = locate(y, bad)
        unknown = (
            " (None marks an unknown label only for the learners that train on partially "
            "labelled sequences: StructuredPerceptron, SWVP, PassiveAggressive, AROW)"
            if labels[bad] is None
            else ""
        )
        raise TypeError(
            f"Example {i}: label {labels[bad]!r} at position {pos} of {name}[{i}] has type "
            f"{type(labels[bad]).__name__}; labels must be strings or numbers{unknown}."
        )
    if len(kinds) > 1:
        first_kind = _label_kind(type(next(lab for lab in labels if lab is not None)))
        first = next(lab for lab in labels if lab is not None)
        bad = next(
            j for j, lab in enumerate(labels)
            if lab is not None and _label_kind(type(lab)) != first_kind
        )  # fmt: skip
        i, pos = locate(y, bad)
        raise TypeError(
            f"Example {i}: {name} mixes label types: {labels[bad]!r} at position {pos} of "
            f"{name}[{i}] is a {type(labels[bad]).__name__} while {first!r} is a "
            f"{type(first).__name__}. Use one type for all labels."
        )
    # NaN equals no label, not even itself: it could never be learnt, predicted or scored.
    if kinds == {"number"} and any(lab != lab for lab in set(labels) if lab is not None):
        bad = next(j for j, lab in enumerate(labels) if lab is not None and lab != lab)
        i, pos = locate(y, bad)
        raise ValueError(
            f"Example {i}: label {labels[bad]!r} at position {pos} of {name}[{i}] is NaN, "
            f"which equals no label (not even itself); use another value."
        )
    return labels


def _label_kind(t):
    if issubclass(t, str):
        return "str"
    if issubclass(t, (bool, np.bool_)):
        return None
    if issubclass(t, (Number, np.number)):
        return "number"
    return None


def locate(sequences, flat_index):
    """(sequence index, position) of item ``flat_index`` of the concatenated sequences."""
    lengths = np.fromiter(map(len, sequences), dtype=np.int64, count=len(sequences))
    ends = np.cumsum(lengths)
    i = int(np.searchsorted(ends, flat_index, side="right"))
    return i, int(flat_index - (ends[i] - lengths[i]))


def sentence_folds(cv, n, random_state, what):
    """The ``(train, test)`` index pairs of ``cv`` over ``n`` sentences: an int is
    ``KFold`` over shuffled sentences seeded by ``random_state``; ``what`` names the
    procedure in the error for an int out of range (jack-knife, cross-fitting)."""
    if isinstance(cv, Integral):
        if not 2 <= cv <= n:
            raise ValueError(f"cv={cv}: {what} needs 2 <= cv <= the number of sentences ({n}).")
        cv = KFold(cv, shuffle=True, random_state=random_state)
    return list(check_cv(cv).split(np.zeros((n, 1))))
