"""Plots of training runs and learnt weights, drawn with matplotlib (the ``plot`` extra).

matplotlib is imported when a function is called, never when :mod:`skstruct` or this
module is, and pyplot only when no ``ax`` is given (a new figure is then made with
``plt.subplots()``). Nothing here calls ``plt.show()`` or touches the backend. Every
function draws on ``ax`` when given and returns the Axes drawn on.

* :func:`plot_learning_curve`: scores and mistakes per epoch, from ``history_``.
* :func:`plot_objectives`: primal and dual objectives per epoch of an
  :class:`~skstruct.ExponentiatedGradientSSVM`.
* :func:`plot_score_vs_time`: score against cumulative training time, one line per
  estimator.
* :func:`plot_invalid_update_rate`: how often perceptron updates are invalid, against
  the beam size (Huang, Fayong & Guo 2012, Figure 5).
* :func:`plot_transition_weights`: heat map of a chain model's label-bigram weights.
* :func:`plot_reliability`: reliability diagram of token marginals (calibration).

Install matplotlib with ``pip install 'skstruct[plot]'``.
"""

from collections.abc import Mapping
from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .structures.chain import LinearChain

__all__ = [
    "plot_invalid_update_rate",
    "plot_learning_curve",
    "plot_objectives",
    "plot_reliability",
    "plot_score_vs_time",
    "plot_transition_weights",
]

_MISSING_MATPLOTLIB = "skstruct.plot needs matplotlib: pip install 'skstruct[plot]'"
#: Score keys of the learners' histories: absent ones are skipped, not refused.
_SCORE_KEYS = ("train_score", "dev_score")
#: Label sets up to this size get their transition weights written in the cells.
_MAX_ANNOTATED_LABELS = 12


# -- helpers ----------------------------------------------------------------------------


def _require_matplotlib():
    """Import matplotlib (not pyplot), or fail with how to install it."""
    try:
        import matplotlib
    except ImportError as exc:
        raise ImportError(_MISSING_MATPLOTLIB) from exc
    return matplotlib


def _axes(ax):
    """``ax``, or the Axes of a new pyplot figure."""
    _require_matplotlib()
    if ax is not None:
        return ax
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError(_MISSING_MATPLOTLIB) from exc
    return plt.subplots()[1]


def _history(obj, name="estimator"):
    """The per-epoch records of a fitted estimator, or ``obj`` itself when a list."""
    if isinstance(obj, (list, tuple)):
        history = list(obj)
        if not all(isinstance(record, Mapping) for record in history):
            raise TypeError(f"{name}: a history must be a list of dicts (one per epoch).")
    elif hasattr(obj, "fit"):
        check_is_fitted(obj)
        history = getattr(obj, "history_", None)
        if history is None:
            raise TypeError(f"{name}: {type(obj).__name__} keeps no history_ to plot.")
    else:
        raise TypeError(
            f"{name} must be a fitted skstruct estimator or its history_ (a list of dicts), "
            f"got {type(obj).__name__}."
        )
    if not history:
        raise ValueError(f"{name} has an empty history: no epoch was run, so nothing to plot.")
    return history


def _number(value, key):
    """A record's value as a float, None when missing; per-shard mistakes are summed."""
    if value is None:
        return None
    if key == "mistakes" and isinstance(value, (list, tuple, np.ndarray)):
        value = sum(value)  # ParameterMixing: mistakes per shard
    if isinstance(value, bool) or not isinstance(value, (Real, np.number)):
        raise ValueError(f"{key!r} holds {value!r}, not one number per epoch: cannot plot it.")
    return float(value)


def _numeric_keys(history):
    """Keys that hold a number (or per-shard mistakes) in some record, epoch aside."""
    keys = []
    for record in history:
        for key, value in record.items():
            if key == "epoch" or key in keys or value is None:
                continue
            try:
                _number(value, key)
            except ValueError:
                continue
            keys.append(key)
    return keys


def _series(history, key):
    """``(epochs, values)`` of ``key`` over the records where it is set."""
    epochs, values = [], []
    for i, record in enumerate(history):
        value = _number(record.get(key), key)
        if value is not None:
            epochs.append(record.get("epoch", i + 1))
            values.append(value)
    return np.asarray(epochs), np.asarray(values, dtype=float)


def _total(history, key):
    """Sum of ``key`` over the records (missing and None count as 0)."""
    return sum(_number(record.get(key), key) or 0.0 for record in history)


def _check_keys(history, keys, optional=()):
    """Refuse keys that no record has (those in ``optional`` are allowed to be absent)."""
    present = {key for record in history for key in record}
    for key in keys:
        if key not in present and key not in optional:
            raise ValueError(
                f"Unknown history key {key!r}: the history has {_numeric_keys(history)!r}."
            )


def _integer_epochs(ax):
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def _fitted_model(estimator):
    """The fitted learner holding ``coef_``, ``structure_`` and ``classes_``."""
    if isinstance(estimator, (list, tuple)) or not hasattr(estimator, "fit"):
        raise TypeError(
            f"plot_transition_weights needs a fitted estimator, got {type(estimator).__name__}."
        )
    check_is_fitted(estimator)
    if not hasattr(estimator, "structure_") and hasattr(estimator, "estimator_"):
        estimator = estimator.estimator_  # ParameterMixing: the learner holds the model
    check_is_fitted(estimator, ["coef_", "structure_"])
    return estimator


# -- learning curves ----------------------------------------------------------------------


def _plot_series(history, keys, ax):
    """One line per key that has values; returns the lines."""
    lines = []
    for key in keys:
        epochs, values = _series(history, key)
        if values.size:
            lines += ax.plot(epochs, values, marker="o", label=key)
    return lines


def plot_learning_curve(estimator, *, scores=_SCORE_KEYS, mistakes=True, ax=None):
    """Plot scores and mistakes per epoch from a learner's ``history_``.

    Works for every skstruct learner. Scores that a history lacks or holds as None
    (``dev_score`` without a development set, ``train_score`` of
    :class:`~skstruct.ExponentiatedGradientSSVM` and
    :class:`~skstruct.ParameterMixing`) are skipped; epochs where a score is None are
    left out of its line.

    Parameters
    ----------
    estimator : fitted estimator or list of dict
        A fitted :class:`~skstruct.StructuredPerceptron`, :class:`~skstruct.SWVP`,
        :class:`~skstruct.ExponentiatedGradientSSVM` or
        :class:`~skstruct.ParameterMixing`, or its ``history_``.
    scores : str or sequence of str, default=("train_score", "dev_score")
        History keys to draw against the left y-axis, one line each (labelled by the
        key). Any numeric key can be given, e.g. ``("primal", "dual", "gap")`` or
        ``"mean_rate"`` for EG, ``"mean_violation"`` for the perceptron. A key that no
        record has, other than ``"train_score"`` and ``"dev_score"``, raises a
        ValueError naming the keys there are.
    mistakes : bool, default=True
        Also draw ``mistakes`` per epoch (summed over shards for
        :class:`~skstruct.ParameterMixing`), when the history has them: on a twin
        y-axis on the right when scores are drawn (``ax.figure.axes`` holds it, last
        when the figure was made for this plot), else on ``ax``.
    ax : matplotlib Axes, default=None
        Where to draw; ``None`` makes a new figure.

    Returns
    -------
    ax : matplotlib Axes
        The Axes with the scores (the twin holds the mistakes), with a legend of all
        lines.

    Raises
    ------
    sklearn.exceptions.NotFittedError
        When ``estimator`` is not fitted.
    ValueError
        When the history is empty, a score key is unknown, or nothing can be drawn.

    See Also
    --------
    plot_objectives : EG's primal and dual objectives per epoch.
    plot_score_vs_time : scores against training time, for several estimators.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skstruct import StructuredPerceptron, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> from skstruct.plot import plot_learning_curve
    >>> X, y = make_chain_data(60, random_state=0)
    >>> model = StructuredPerceptron(features=TokenFeatures(), max_iter=3, random_state=0)
    >>> model = model.fit(X[:40], y[:40], X_dev=X[40:], y_dev=y[40:])
    >>> ax = plot_learning_curve(model, ax=Figure().subplots())
    >>> [line.get_label() for line in ax.get_lines()]
    ['train_score', 'dev_score']
    >>> ax.get_lines()[1].get_ydata().tolist() == [r["dev_score"] for r in model.history_]
    True
    >>> [text.get_text() for text in ax.get_legend().get_texts()]
    ['train_score', 'dev_score', 'mistakes']
    """
    history = _history(estimator)
    scores = (scores,) if isinstance(scores, str) else tuple(scores)
    _check_keys(history, scores, optional=_SCORE_KEYS)
    ax = _axes(ax)
    lines = _plot_series(history, scores, ax)
    epochs, counts = _series(history, "mistakes") if mistakes else ((), np.empty(0))
    if not lines and not len(counts):
        raise ValueError(
            f"Nothing to plot: the history has no values for {list(scores)!r}"
            f"{' or mistakes' if mistakes else ''} (it has {_numeric_keys(history)!r}; "
            f"dev_score needs X_dev/y_dev or validation_fraction when fitting)."
        )
    if len(counts):
        on = ax
        if lines:
            on = ax.twinx()
            # the scores and their legend above the twin's line, on the twin's background
            ax.set_zorder(on.get_zorder() + 1)
            on.patch.set_facecolor(ax.patch.get_facecolor())
            on.patch.set_visible(ax.patch.get_visible())
            ax.patch.set_visible(False)
        lines += on.plot(
            epochs, counts, marker="s", linestyle="--", color=f"C{len(lines)}", label="mistakes"
        )
        on.set_ylabel("mistakes")
    if lines[0].get_label() != "mistakes":
        ax.set_ylabel("score" if set(scores) <= set(_SCORE_KEYS) else ", ".join(scores))
    ax.set_xlabel("epoch")
    _integer_epochs(ax)
    ax.legend(lines, [line.get_label() for line in lines], loc="best")
    return ax


def plot_objectives(estimator, *, ax=None):
    """Plot the primal and dual objectives per epoch (pass) of a structured SVM.

    The primal ``P(w)`` falls and the dual ``D(alpha)`` rises towards the optimum of
    the structured SVM, the gap between them bounding how far ``w`` is from it (as in
    Collins' "Convergence on a parse reranking task" slide).

    Parameters
    ----------
    estimator : fitted StructuredSVM or ExponentiatedGradientSSVM, or list of dict
        The model, or its ``history_`` (with ``primal`` and ``dual``; passes where
        they are None, as with ``tol=None``, are left out).
    ax : matplotlib Axes, default=None
        Where to draw; ``None`` makes a new figure.

    Returns
    -------
    ax : matplotlib Axes
        With the lines ``primal`` and ``dual``.

    Raises
    ------
    sklearn.exceptions.NotFittedError
        When ``estimator`` is not fitted.
    ValueError
        When the history is empty or has no objectives (not an EG history).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skstruct import ExponentiatedGradientSSVM, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> from skstruct.plot import plot_objectives
    >>> X, y = make_chain_data(40, random_state=0)
    >>> model = ExponentiatedGradientSSVM(features=TokenFeatures(), max_iter=3, random_state=0)
    >>> ax = plot_objectives(model.fit(X, y), ax=Figure().subplots())
    >>> primal, dual = ax.get_lines()
    >>> bool((primal.get_ydata() >= dual.get_ydata()).all())
    True
    """
    history = _history(estimator)
    present = {key for record in history for key in record}
    if not {"primal", "dual"} <= present:
        raise ValueError(
            "plot_objectives needs the primal and dual objectives of an "
            f"StructuredSVM history; this one has {_numeric_keys(history)!r}."
        )
    ax = _axes(ax)
    _plot_series(history, ("primal", "dual"), ax)
    ax.set_xlabel("epoch")
    ax.set_ylabel("objective")
    _integer_epochs(ax)
    ax.legend(loc="best")
    return ax


# -- comparisons --------------------------------------------------------------------------


def _named(estimators, what):
    if not isinstance(estimators, Mapping):
        raise TypeError(f"{what} must be a dict, got {type(estimators).__name__}.")
    if not estimators:
        raise ValueError(f"{what} is empty: nothing to plot.")
    return estimators


def plot_score_vs_time(estimators, *, score="dev_score", ax=None):
    """Plot a score against cumulative training time, one line per estimator.

    Point ``k`` of a line is the score after epoch ``k`` against the sum of the
    ``seconds`` of epochs ``1..k`` (training time only: scoring the development set
    is not counted; for :class:`~skstruct.ParameterMixing`, the wall clock of the
    mixing rounds).

    Parameters
    ----------
    estimators : dict
        Line label -> fitted estimator (or its ``history_``). Lines are drawn in the
        dict's order.
    score : str, default="dev_score"
        The history key on the y-axis.
    ax : matplotlib Axes, default=None
        Where to draw; ``None`` makes a new figure.

    Returns
    -------
    ax : matplotlib Axes
        One line with markers per estimator, labelled by its key, and a legend.

    Raises
    ------
    sklearn.exceptions.NotFittedError
        When an estimator is not fitted.
    ValueError
        When ``estimators`` is empty, or a history is empty, lacks ``seconds`` or has
        no value of ``score`` (the message names the estimator and the keys it has).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skstruct import BeamSearch, StructuredPerceptron, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> from skstruct.plot import plot_score_vs_time
    >>> X, y = make_chain_data(60, random_state=0)
    >>> runs = {
    ...     "exact": StructuredPerceptron(features=TokenFeatures(), max_iter=3),
    ...     "beam 2": StructuredPerceptron(BeamSearch(beam_size=2), update="max_violation",
    ...                                    features=TokenFeatures(), max_iter=3),
    ... }
    >>> for model in runs.values():
    ...     model = model.fit(X[:40], y[:40], X_dev=X[40:], y_dev=y[40:])
    >>> ax = plot_score_vs_time(runs, ax=Figure().subplots())
    >>> [line.get_label() for line in ax.get_lines()]
    ['exact', 'beam 2']
    """
    _named(estimators, "estimators")
    histories = {}
    for name, estimator in estimators.items():
        history = _history(estimator, name=f"estimators[{name!r}]")
        if any(record.get("seconds") is None for record in history):
            raise ValueError(f"estimators[{name!r}]: its history has no seconds per epoch.")
        _, values = _series(history, score)
        if not values.size:
            raise ValueError(
                f"estimators[{name!r}]: its history has no values of {score!r} (it has "
                f"{_numeric_keys(history)!r}; dev_score needs X_dev/y_dev or "
                f"validation_fraction when fitting)."
            )
        histories[name] = history
    ax = _axes(ax)
    for name, history in histories.items():
        elapsed = np.cumsum([float(record["seconds"]) for record in history])
        scored = [i for i, record in enumerate(history) if record.get(score) is not None]
        values = [_number(history[i][score], score) for i in scored]
        ax.plot(elapsed[scored], values, marker="o", label=str(name))
    ax.set_xlabel("training time (s)")
    ax.set_ylabel(score)
    ax.legend(loc="best")
    return ax


def plot_invalid_update_rate(estimators_by_beam, *, ax=None):
    """Plot how often perceptron updates are invalid, against the beam size.

    An update on a pair ``(y, z)`` is *invalid* when ``z`` scores below the gold
    ``y`` (no violation): the standard (full) update makes such updates under
    inexact search, which voids the perceptron's convergence guarantee (Huang,
    Fayong & Guo 2012, whose Figure 5 this is an analog of). Two lines, summed over
    all epochs of each estimator's ``history_``:

    * ``invalid updates``: ``sum(invalid_updates) / sum(updates)``, the fraction of
      the updates made that were invalid (NaN without updates). For perceptrons
      trained with ``update="standard"`` this is the paper's Figure 5 ("percentages
      of invalid updates for standard update"); violation-fixing rules
      (``"early"``, ``"max_violation"``, ...) make no invalid updates.
    * ``invalid standard updates``: ``sum(invalid_standard)`` over the number of
      training sequences visited, the fraction of sequences on which the standard
      update would have been invalid, whatever rule was used. Drawn only when every
      value is a fitted estimator (a bare history does not tell how many sequences
      were visited).

    Parameters
    ----------
    estimators_by_beam : dict
        Beam size (int >= 1, the x value) -> fitted
        :class:`~skstruct.StructuredPerceptron` (or its ``history_``), typically
        with a :class:`~skstruct.BeamSearch`, :class:`~skstruct.Greedy` (beam 1) or
        :class:`~skstruct.ArcStandard` decoder.
    ax : matplotlib Axes, default=None
        Where to draw; ``None`` makes a new figure.

    Returns
    -------
    ax : matplotlib Axes
        The lines against the beam sizes (sorted) on a log2 x-axis.

    Raises
    ------
    sklearn.exceptions.NotFittedError
        When an estimator is not fitted.
    ValueError
        When the dict is empty, a key is not a positive int, or a history lacks
        ``updates`` and ``invalid_updates`` (only the perceptron records them).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skstruct import BeamSearch, Greedy, StructuredPerceptron, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> from skstruct.plot import plot_invalid_update_rate
    >>> X, y = make_chain_data(40, random_state=0)
    >>> decoders = {1: Greedy(), 2: BeamSearch(beam_size=2), 4: BeamSearch(beam_size=4)}
    >>> by_beam = {
    ...     k: StructuredPerceptron(d, features=TokenFeatures(), max_iter=2, random_state=0)
    ...     .fit(X, y)
    ...     for k, d in decoders.items()
    ... }
    >>> ax = plot_invalid_update_rate(by_beam, ax=Figure().subplots())
    >>> rate = ax.get_lines()[0]
    >>> rate.get_xdata().tolist()
    [1, 2, 4]
    >>> history = by_beam[1].history_
    >>> expected = sum(r["invalid_updates"] for r in history) / sum(r["updates"] for r in history)
    >>> bool(rate.get_ydata()[0] == expected)
    True
    """
    _named(estimators_by_beam, "estimators_by_beam")
    for beam in estimators_by_beam:
        if isinstance(beam, bool) or not isinstance(beam, Integral) or beam < 1:
            raise ValueError(f"estimators_by_beam: keys are beam sizes >= 1, got {beam!r}.")
    beams = sorted(estimators_by_beam)
    rates, standard = [], []
    for beam in beams:
        estimator = estimators_by_beam[beam]
        history = _history(estimator, name=f"estimators_by_beam[{beam}]")
        present = {key for record in history for key in record}
        if not {"updates", "invalid_updates"} <= present:
            raise ValueError(
                f"estimators_by_beam[{beam}]: the history has no updates and invalid_updates "
                f"(a StructuredPerceptron records them); it has {_numeric_keys(history)!r}."
            )
        updates, invalid = (_total(history, key) for key in ("updates", "invalid_updates"))
        rates.append(invalid / updates if updates else np.nan)
        if {"sequences", "invalid_standard"} <= present:
            standard.append(_total(history, "invalid_standard") / _total(history, "sequences"))
        else:
            standard.append(None)
    ax = _axes(ax)
    ax.plot(beams, rates, marker="o", label="invalid updates / updates")
    if all(value is not None for value in standard):
        ax.plot(
            beams,
            standard,
            marker="s",
            linestyle="--",
            label="invalid standard updates / sequences",
        )
    ax.set_xscale("log", base=2)
    ax.set_xticks(beams, labels=[str(beam) for beam in beams])
    ax.minorticks_off()
    ax.set_xlabel("beam size")
    ax.set_ylabel("fraction invalid")
    ax.legend(loc="best")
    return ax


# -- weights ------------------------------------------------------------------------------


def plot_transition_weights(estimator, *, ax=None, cmap="RdBu_r", annotate=None, colorbar=True):
    """Heat map of the learnt label-bigram (transition) weights of a chain model.

    Cell ``(i, j)`` is the weight of label ``classes_[i]`` followed by label
    ``classes_[j]``. For a second-order chain these are its bigram weights; its
    trigram weights are not shown. The colours are centred on zero.

    Parameters
    ----------
    estimator : fitted estimator
        A sequence labeller with a first- or second-order chain
        (:class:`~skstruct.Viterbi`, :class:`~skstruct.BeamSearch` or
        :class:`~skstruct.Greedy` decoder), or a :class:`~skstruct.ParameterMixing` of
        one.
    ax : matplotlib Axes, default=None
        Where to draw; ``None`` makes a new figure.
    cmap : str or Colormap, default="RdBu_r"
        The colour map (a diverging one suits weights of either sign).
    annotate : bool or None, default=None
        Write each weight in its cell; ``None``: when there are at most 12 labels.
    colorbar : bool, default=True
        Add a colour bar next to ``ax``.

    Returns
    -------
    ax : matplotlib Axes
        With the image (``ax.images[0]``), previous labels on the y-axis and next
        labels on the x-axis.

    Raises
    ------
    sklearn.exceptions.NotFittedError
        When ``estimator`` is not fitted.
    ValueError
        For a parser or a zeroth-order chain, which have no label transitions.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skstruct import StructuredPerceptron, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> from skstruct.plot import plot_transition_weights
    >>> X, y = make_chain_data(40, random_state=0)
    >>> model = StructuredPerceptron(features=TokenFeatures(), max_iter=2).fit(X, y)
    >>> ax = plot_transition_weights(model, ax=Figure().subplots())
    >>> [label.get_text() for label in ax.get_xticklabels()]
    ['L0', 'L1', 'L2']
    >>> bool((ax.images[0].get_array() == model.structure_.split(model.coef_)[1]).all())
    True
    """
    model = _fitted_model(estimator)
    structure = model.structure_
    if not isinstance(structure, LinearChain):
        raise ValueError(
            f"{type(model).__name__} with decoder {model.decoder_!r} predicts trees "
            f"({type(structure).__name__}): it has no label transitions to plot. "
            "plot_transition_weights needs a first- or second-order chain model."
        )
    if structure.order == 0:
        raise ValueError(
            f"{type(model).__name__} with decoder {model.decoder_!r} is a zeroth-order "
            "chain: it labels tokens independently and has no transition weights to plot."
        )
    weights = np.array(structure.split(np.asarray(model.coef_))[1])
    labels = [str(label) for label in model.classes_]
    ax = _axes(ax)
    limit = float(np.abs(weights).max()) or 1.0
    image = ax.imshow(weights, cmap=cmap, vmin=-limit, vmax=limit)
    ticks = np.arange(len(labels))
    ax.set_xticks(ticks, labels=labels, rotation=90 if len(labels) > 8 else 0)
    ax.set_yticks(ticks, labels=labels)
    ax.set_xlabel("next label")
    ax.set_ylabel("previous label")
    if annotate is None:
        annotate = len(labels) <= _MAX_ANNOTATED_LABELS
    if annotate:
        for (i, j), value in np.ndenumerate(weights):
            ax.text(
                j,
                i,
                f"{value:.3g}",
                ha="center",
                va="center",
                color="white" if abs(value) > limit / 2 else "black",
            )
    if colorbar:
        ax.figure.colorbar(image, ax=ax, label="weight")
    return ax


def plot_reliability(y_true, marginals, *, n_bins=15, ax=None, label=None):
    """Reliability diagram of token marginals: accuracy against confidence per bin.

    Each point is a confidence bin (:func:`skstruct.metrics.reliability_bins`): the
    mean probability of the tokens' most probable label, and how often that label was
    right. A calibrated model lies on the diagonal, drawn dashed. Call it twice on one
    ``ax`` to compare, e.g. before and after ``calibrate``.

    Parameters
    ----------
    y_true : list of label sequences
    marginals : list of list of dict
        As ``predict_marginals`` returns them.
    n_bins : int, default=15
    ax : matplotlib Axes, default=None
        Where to draw; ``None`` makes a new figure.
    label : str, default=None
        Legend entry; the expected calibration error is appended to it.

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skstruct.plot import plot_reliability
    >>> y = [["A", "B"]]
    >>> marginals = [[{"A": 0.9, "B": 0.1}, {"A": 0.6, "B": 0.4}]]
    >>> ax = plot_reliability(y, marginals, ax=Figure().subplots(), label="model")
    >>> ax.get_legend_handles_labels()[1]
    ['model (ECE 0.350)']
    """
    from .metrics import expected_calibration_error, reliability_bins

    counts, confidence, accuracy = reliability_bins(y_true, marginals, n_bins=n_bins)
    ece = expected_calibration_error(y_true, marginals, n_bins=n_bins)
    ax = _axes(ax)
    full = counts > 0
    if not ax.lines:  # the diagonal once, however many models are drawn
        ax.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1)
    name = f"ECE {ece:.3f}" if label is None else f"{label} (ECE {ece:.3f})"
    ax.plot(confidence[full], accuracy[full], marker="o", label=name)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("confidence (probability of the top label)")
    ax.set_ylabel("accuracy")
    ax.legend(loc="upper left")
    return ax
