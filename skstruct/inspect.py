"""What a chain model learnt, readably: its strongest weights and why it labelled a token.

What eli5's ``explain_weights`` and ``explain_prediction`` gave sklearn-crfsuite users,
for every skstruct sequence labeller (a fitted model with a chain decoder, or a
:class:`~skstruct.ParameterMixing` of one):

* :func:`top_state_features`: the largest (or most negative) feature-label weights.
* :func:`top_transitions`: the largest (or most negative) label-bigram weights.
* :func:`explain_prediction`: the parts that decided one token's label, each with its
  contribution to the label's score.
* :func:`plot_weights`: any of these tables as a bar chart (matplotlib).

Tables are pandas DataFrames when pandas is installed, else lists of tuples with the
same columns in the same order (``columns`` of each function's docstring).
"""

from numbers import Integral

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .structures import LinearChain

__all__ = ["explain_prediction", "plot_weights", "top_state_features", "top_transitions"]


def _chain_model(model):
    """The fitted chain learner behind ``model`` (a ParameterMixing's own learner)."""
    model = getattr(model, "estimator_", model)
    check_is_fitted(model, "coef_")
    if not isinstance(model.structure_, LinearChain):
        raise ValueError(
            f"{type(model).__name__} predicts trees; skstruct.inspect explains sequence "
            f"labellers (chain decoders: Viterbi, BeamSearch, Greedy)."
        )
    return model


def _table(rows, columns):
    try:
        import pandas as pd
    except ImportError:
        return rows
    return pd.DataFrame(rows, columns=columns)


def _check_n(n):
    if not (isinstance(n, Integral) and n >= 1):
        raise ValueError(f"n must be a positive integer, got {n!r}.")


def _feature_names(model):
    """Names of the feature columns (``key:value``, or ``#id`` for hashed features)."""
    if model.encoder_.n_features is not None:
        return [f"#{f}" for f in range(model.structure_.n_features)]
    return model.attributes_


def _top(rows, n, negative):
    """The ``n`` rows of largest weight (the last column), or of smallest."""
    order = sorted(range(len(rows)), key=lambda j: rows[j][-1], reverse=not negative)
    return [rows[j] for j in order[:n]]


def top_state_features(model, n=20, *, label=None, negative=False):
    """The ``n`` largest feature-label (state) weights, or with ``negative`` the smallest.

    Parameters
    ----------
    model : fitted sequence labeller
    n : int, default=20
    label : str or None, default=None
        Only the weights of this label.
    negative : bool, default=False
        The most negative weights instead (what argues against a label).

    Returns
    -------
    DataFrame or list of tuple
        Columns ``feature``, ``label``, ``weight``; largest first (smallest first with
        ``negative``).

    Examples
    --------
    >>> from skstruct import StructuredPerceptron
    >>> from skstruct.inspect import top_state_features
    >>> X = [[{"word": "Ana"}, {"word": "vive"}], [{"word": "vive"}]]
    >>> model = StructuredPerceptron(random_state=0).fit(X, [["PER", "O"], ["O"]])
    >>> top_state_features(model, n=2).values.tolist()
    [['word:Ana', 'PER', 0.95], ['word:vive', 'O', 0.85]]
    """
    model = _chain_model(model)
    _check_n(n)
    structure = model.structure_
    classes = model.classes_.tolist()
    if label is not None and label not in classes:
        raise ValueError(f"label {label!r} is not one of classes_ {classes!r}.")
    names = _feature_names(model)
    matrix = structure.emission_matrix(model.coef_).tocoo()
    rows = [
        (names[f], classes[k], float(w))
        for f, k, w in zip(matrix.row.tolist(), matrix.col.tolist(), matrix.data.tolist())
        if w != 0.0 and (label is None or classes[k] == label)
    ]
    return _table(_top(rows, n, negative), ["feature", "label", "weight"])


def top_transitions(model, n=20, *, negative=False):
    """The ``n`` largest label-bigram (transition) weights, or the smallest.

    Parameters
    ----------
    model : fitted sequence labeller (a chain of order 1 or 2)
    n : int, default=20
    negative : bool, default=False

    Returns
    -------
    DataFrame or list of tuple
        Columns ``from``, ``to``, ``weight``.

    Examples
    --------
    >>> from skstruct import StructuredPerceptron
    >>> from skstruct.inspect import top_transitions
    >>> X = [[{"word": "Ana"}, {"word": "vive"}], [{"word": "vive"}]]
    >>> model = StructuredPerceptron(random_state=0).fit(X, [["PER", "O"], ["O"]])
    >>> top_transitions(model, n=1).values.tolist()
    [['PER', 'O', 0.95]]
    """
    model = _chain_model(model)
    _check_n(n)
    if model.structure_.order == 0:
        raise ValueError("A chain of order 0 has no transitions.")
    transition = model.structure_.split(model.coef_)[1]
    classes = model.classes_.tolist()
    rows = [
        (classes[a], classes[b], float(transition[a, b])) for a, b in zip(*np.nonzero(transition))
    ]
    return _table(_top(rows, n, negative), ["from", "to", "weight"])


def explain_prediction(model, x, position, *, label=None):
    """Why ``model`` gives token ``position`` of sequence ``x`` its label: every part of
    the label's score there, with its contribution.

    The parts are the token's features (contribution: the feature's value times its
    weight for the label), the transition from the previous token's predicted label,
    the transition to the next token's predicted label (each counted whole; a
    second-order chain's trigrams are left out), and the start or stop weight at the
    ends. Their sum is what the label adds to the sequence's score around this token.

    Parameters
    ----------
    model : fitted sequence labeller
    x : sequence
        One input sequence (as an element of ``X``).
    position : int
        The token to explain.
    label : str or None, default=None
        The label to explain; the predicted one by default (explaining another shows
        what it lacked).

    Returns
    -------
    DataFrame or list of tuple
        Columns ``part``, ``value``, ``weight``, ``contribution``, by decreasing
        absolute contribution; parts of weight zero left out.

    Examples
    --------
    >>> from skstruct import StructuredPerceptron
    >>> from skstruct.inspect import explain_prediction
    >>> X = [[{"word": "Ana"}, {"word": "vive"}], [{"word": "vive"}]]
    >>> model = StructuredPerceptron(random_state=0).fit(X, [["PER", "O"], ["O"]])
    >>> explain_prediction(model, X[0], 0)["part"].tolist()
    ['word:Ana', 'transition PER -> O', 'start PER']
    """
    model = _chain_model(model)
    n = len(x)
    if not (isinstance(position, Integral) and 0 <= position < n):
        raise ValueError(f"position must be a token of x (0 to {n - 1}), got {position!r}.")
    classes = model.classes_.tolist()
    predicted = model.predict([x])[0]
    label = predicted[position] if label is None else label
    if label not in classes:
        raise ValueError(f"label {label!r} is not one of classes_ {classes!r}.")
    k = classes.index(label)
    structure = model.structure_
    encoded = model.encode([x])
    lo, hi = encoded.indptr[position], encoded.indptr[position + 1]
    features = encoded.indices[lo:hi].astype(np.int64)
    values = encoded.values[lo:hi]
    keys = structure.n_dense + features * structure.n_labels + k
    order = np.argsort(keys)
    (weights,) = structure.values_at(keys[order], model.coef_)
    names = _feature_names(model)
    rows = [
        (names[f], float(v), float(w), float(v * w))
        for f, v, w in zip(features[order].tolist(), values[order].tolist(), weights.tolist())
    ]
    if structure.order >= 1:
        _, transition, start, stop, _ = structure.split(model.coef_)
        if position == 0:
            rows.append((f"start {label}", 1.0, float(start[k]), float(start[k])))
        else:
            prev = classes.index(predicted[position - 1])
            weight = float(transition[prev, k])
            rows.append((f"transition {classes[prev]} -> {label}", 1.0, weight, weight))
        if position == n - 1:
            rows.append((f"stop {label}", 1.0, float(stop[k]), float(stop[k])))
        else:
            after = classes.index(predicted[position + 1])
            weight = float(transition[k, after])
            rows.append((f"transition {label} -> {classes[after]}", 1.0, weight, weight))
    rows = [row for row in rows if row[2] != 0.0]
    rows.sort(key=lambda row: -abs(row[3]))
    return _table(rows, ["part", "value", "weight", "contribution"])


def plot_weights(table, *, ax=None, n=None):
    """A bar chart of a table of this module: weights (or contributions) by name.

    Parameters
    ----------
    table : DataFrame or list of tuple
        What :func:`top_state_features`, :func:`top_transitions` or
        :func:`explain_prediction` returned.
    ax : matplotlib Axes, default=None
        Where to draw; ``None`` makes a new figure.
    n : int or None, default=None
        Only the first ``n`` rows.

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skstruct import StructuredPerceptron
    >>> from skstruct.inspect import plot_weights, top_state_features
    >>> X = [[{"word": "Ana"}, {"word": "vive"}], [{"word": "vive"}]]
    >>> model = StructuredPerceptron(random_state=0).fit(X, [["PER", "O"], ["O"]])
    >>> ax = plot_weights(top_state_features(model), ax=Figure().subplots())
    >>> [label.get_text() for label in ax.get_yticklabels()]
    ['word:Ana -> PER', 'word:vive -> O', 'word:vive -> PER', 'word:Ana -> O']
    """
    from .plot import _axes

    rows = table.values.tolist() if hasattr(table, "values") else list(table)
    rows = rows[:n] if n is not None else rows
    if not rows:
        raise ValueError("The table is empty: nothing to plot.")
    width = len(rows[0])
    if width == 4:  # explain_prediction: part, value, weight, contribution
        names, heights, what = [r[0] for r in rows], [r[3] for r in rows], "contribution"
    else:  # top_state_features: feature, label; top_transitions: from, to
        names, heights, what = [f"{r[0]} -> {r[1]}" for r in rows], [r[2] for r in rows], "weight"
    ax = _axes(ax)
    positions = np.arange(len(rows))[::-1]  # the first row on top
    colours = ["tab:blue" if h >= 0 else "tab:red" for h in heights]
    ax.barh(positions, heights, color=colours)
    ax.set_yticks(positions, labels=names)
    ax.axvline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel(what)
    return ax
