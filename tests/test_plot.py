"""skstruct.plot: the artists hold the history and weight values, errors are clear."""

import subprocess
import sys
import textwrap

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure
from sklearn.exceptions import NotFittedError

from skstruct import (
    SWVP,
    ArcStandard,
    BeamSearch,
    Eisner,
    ExponentiatedGradientSSVM,
    Greedy,
    ParameterMixing,
    StructuredPerceptron,
    TokenFeatures,
    Viterbi,
)
from skstruct.datasets import make_chain_data
from skstruct.plot import (
    plot_invalid_update_rate,
    plot_learning_curve,
    plot_objectives,
    plot_score_vs_time,
    plot_transition_weights,
)

N_TRAIN, EPOCHS = 60, 3


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def data():
    X, y = make_chain_data(90, n_labels=4, random_state=0)
    return X[:N_TRAIN], y[:N_TRAIN], X[N_TRAIN:], y[N_TRAIN:]


def _perceptron(decoder=None, **params):
    params = {"features": TokenFeatures(), "max_iter": EPOCHS, "random_state": 0, **params}
    return StructuredPerceptron(decoder, **params)


@pytest.fixture(scope="module")
def perceptron(data):
    X, y, X_dev, y_dev = data
    return _perceptron(BeamSearch(beam_size=2)).fit(X, y, X_dev=X_dev, y_dev=y_dev)


@pytest.fixture(scope="module")
def eg(data):
    X, y, X_dev, y_dev = data
    model = ExponentiatedGradientSSVM(
        features=TokenFeatures(), C=0.1, max_iter=EPOCHS, tol=None, random_state=0
    )
    return model.fit(X, y, X_dev=X_dev, y_dev=y_dev)


@pytest.fixture(scope="module")
def mixing(data):
    X, y, _, _ = data
    return ParameterMixing(_perceptron(), n_shards=2, max_iter=EPOCHS, random_state=0).fit(X, y)


@pytest.fixture(scope="module")
def by_beam(data):
    """Standard updates under beam search (invalid ones happen) plus one max-violation run."""
    X, y, _, _ = data
    decoders = {1: Greedy(), 2: BeamSearch(beam_size=2), 8: BeamSearch(beam_size=8)}
    return {beam: _perceptron(decoder).fit(X, y) for beam, decoder in decoders.items()}


def _column(history, key):
    return [record[key] for record in history]


def _twin(ax):
    others = [other for other in ax.figure.axes if other is not ax]
    assert len(others) == 1
    return others[0]


# -- learning curves ----------------------------------------------------------------------


def test_learning_curve_draws_history_values(perceptron):
    history = perceptron.history_
    ax = plot_learning_curve(perceptron)
    train, dev = ax.get_lines()
    assert (train.get_label(), dev.get_label()) == ("train_score", "dev_score")
    assert train.get_xdata().tolist() == [1, 2, 3]
    assert train.get_ydata().tolist() == _column(history, "train_score")
    assert dev.get_ydata().tolist() == _column(history, "dev_score")
    (mistakes,) = _twin(ax).get_lines()
    assert mistakes.get_xdata().tolist() == [1, 2, 3]
    assert mistakes.get_ydata().tolist() == _column(history, "mistakes")
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    assert legend == ["train_score", "dev_score", "mistakes"]
    assert ax.get_xlabel() == "epoch"


def test_learning_curve_draws_on_the_given_axes(perceptron):
    fig = Figure()
    ax = fig.subplots()
    before = plt.get_fignums()
    assert plot_learning_curve(perceptron, mistakes=False, ax=ax) is ax
    assert len(ax.get_lines()) == 2 and len(fig.axes) == 1
    assert plt.get_fignums() == before  # no pyplot figure made


def test_learning_curve_without_ax_makes_one_new_figure(perceptron):
    before = len(plt.get_fignums())
    ax = plot_learning_curve(perceptron)
    assert len(plt.get_fignums()) == before + 1
    assert ax.figure.number == plt.get_fignums()[-1]


def test_learning_curve_accepts_a_history_and_skips_missing_scores(data):
    X, y, _, _ = data
    model = SWVP(features=TokenFeatures(), max_iter=2, random_state=0).fit(X, y)
    history = [dict(record) for record in model.history_]
    ax = plot_learning_curve(history)  # dev_score is None throughout: skipped
    (train,) = ax.get_lines()
    assert train.get_label() == "train_score"
    assert train.get_ydata().tolist() == _column(history, "train_score")
    assert _twin(ax).get_lines()[0].get_ydata().tolist() == _column(history, "mistakes")


def test_learning_curve_leaves_out_epochs_without_a_value(perceptron):
    history = [dict(record) for record in perceptron.history_]
    history[1]["dev_score"] = None
    ax = plot_learning_curve(history, scores="dev_score", mistakes=False)
    (dev,) = ax.get_lines()
    assert dev.get_xdata().tolist() == [1, 3]
    assert dev.get_ydata().tolist() == [history[0]["dev_score"], history[2]["dev_score"]]


def test_learning_curve_of_eg_has_no_mistakes_and_any_numeric_key(eg):
    ax = plot_learning_curve(eg)
    (dev,) = ax.get_lines()  # no train_score, no mistakes: no twin axis
    assert dev.get_ydata().tolist() == _column(eg.history_, "dev_score")
    assert len(ax.figure.axes) == 1
    ax = plot_learning_curve(eg, scores=("primal", "dual", "gap"), ax=Figure().subplots())
    for line, key in zip(ax.get_lines(), ("primal", "dual", "gap"), strict=True):
        assert line.get_label() == key
        assert line.get_ydata().tolist() == _column(eg.history_, key)


def test_learning_curve_of_mixing_sums_mistakes_over_shards(mixing):
    ax = plot_learning_curve(mixing)  # no scores: the mistakes go on ax itself
    (line,) = ax.get_lines()
    assert line.get_label() == "mistakes"
    assert line.get_ydata().tolist() == [sum(r["mistakes"]) for r in mixing.history_]
    assert len(ax.figure.axes) == 1


def test_objectives_are_the_eg_primal_and_dual(eg):
    ax = plot_objectives(eg)
    primal, dual = ax.get_lines()
    assert primal.get_label() == "primal" and dual.get_label() == "dual"
    assert primal.get_xdata().tolist() == [1, 2, 3]
    assert primal.get_ydata().tolist() == _column(eg.history_, "primal")
    assert dual.get_ydata().tolist() == _column(eg.history_, "dual")


def test_learning_curve_errors(perceptron, eg, data):
    with pytest.raises(NotFittedError):
        plot_learning_curve(StructuredPerceptron())
    with pytest.raises(ValueError, match="empty history"):
        plot_learning_curve([])
    with pytest.raises(ValueError, match=r"'nope'.*'mistakes'.*'train_score'"):
        plot_learning_curve(perceptron, scores=("train_score", "nope"))
    with pytest.raises(ValueError, match="not one number per epoch"):
        plot_learning_curve([{"epoch": 1, "mixing_weights": [0.5, 0.5]}], scores="mixing_weights")
    X, y, _, _ = data
    no_dev = ExponentiatedGradientSSVM(features=TokenFeatures(), max_iter=1).fit(X, y)
    with pytest.raises(ValueError, match=r"Nothing to plot.*'primal'"):
        plot_learning_curve(no_dev)
    with pytest.raises(ValueError, match=r"primal and dual.*'train_score'"):
        plot_objectives(perceptron)
    with pytest.raises(NotFittedError):
        plot_objectives(ExponentiatedGradientSSVM())
    with pytest.raises(TypeError, match="fitted skstruct estimator or its history_"):
        plot_learning_curve("history")


# -- score against time -------------------------------------------------------------------


def test_score_vs_time_uses_cumulative_seconds(perceptron, eg):
    ax = plot_score_vs_time({"beam 2": perceptron, "EG": eg.history_})
    for line, model, name in zip(ax.get_lines(), (perceptron, eg), ("beam 2", "EG"), strict=True):
        seconds = _column(model.history_, "seconds")
        expected = [sum(seconds[: k + 1]) for k in range(len(seconds))]
        assert line.get_label() == name
        np.testing.assert_allclose(line.get_xdata(), expected, rtol=1e-12)
        assert line.get_ydata().tolist() == _column(model.history_, "dev_score")
        assert line.get_marker() == "o"
    assert [text.get_text() for text in ax.get_legend().get_texts()] == ["beam 2", "EG"]


def test_score_vs_time_other_score_and_ax(perceptron):
    ax = Figure().subplots()
    assert plot_score_vs_time({"p": perceptron}, score="train_score", ax=ax) is ax
    (line,) = ax.get_lines()
    assert line.get_ydata().tolist() == _column(perceptron.history_, "train_score")
    assert ax.get_ylabel() == "train_score"


def test_score_vs_time_errors(perceptron, mixing):
    with pytest.raises(ValueError, match=r"estimators\['mix'\].*dev_score"):
        plot_score_vs_time({"ok": perceptron, "mix": mixing})
    with pytest.raises(ValueError, match=r"estimators\['p'\].*'nope'"):
        plot_score_vs_time({"p": perceptron}, score="nope")
    with pytest.raises(NotFittedError):
        plot_score_vs_time({"p": StructuredPerceptron()})
    with pytest.raises(ValueError, match="empty"):
        plot_score_vs_time({})
    with pytest.raises(ValueError, match="empty history"):
        plot_score_vs_time({"p": []})
    with pytest.raises(TypeError, match="dict"):
        plot_score_vs_time([perceptron])


# -- invalid updates against beam size ----------------------------------------------------


def test_invalid_update_rate_values(by_beam):
    ax = plot_invalid_update_rate({8: by_beam[8], 1: by_beam[1], 2: by_beam[2]})
    rate, standard = ax.get_lines()
    assert rate.get_xdata().tolist() == [1, 2, 8]
    expected_rate = [
        sum(_column(by_beam[b].history_, "invalid_updates"))
        / sum(_column(by_beam[b].history_, "updates"))
        for b in (1, 2, 8)
    ]
    expected_standard = [
        sum(_column(by_beam[b].history_, "invalid_standard")) / (N_TRAIN * EPOCHS)
        for b in (1, 2, 8)
    ]
    assert expected_rate[0] > 0  # the data makes greedy search's updates invalid at times
    np.testing.assert_allclose(rate.get_ydata(), expected_rate, rtol=1e-12)
    np.testing.assert_allclose(standard.get_ydata(), expected_standard, rtol=1e-12)
    assert standard.get_xdata().tolist() == [1, 2, 8]
    assert ax.get_xscale() == "log"
    assert [label.get_text() for label in ax.get_xticklabels()] == ["1", "2", "8"]


def test_invalid_update_rate_of_violation_fixing_and_histories(data, by_beam):
    X, y, _, _ = data
    fixed = _perceptron(Greedy(), update="max_violation").fit(X, y)
    ax = plot_invalid_update_rate({1: fixed}, ax=Figure().subplots())
    rate, standard = ax.get_lines()
    assert rate.get_ydata().tolist() == [0.0]
    invalid = sum(_column(fixed.history_, "invalid_standard"))
    assert standard.get_ydata().tolist() == [invalid / (N_TRAIN * EPOCHS)]
    # histories alone draw the same lines: they count the sequences visited
    ax = plot_invalid_update_rate({b: m.history_ for b, m in by_beam.items()})
    rate, standard = ax.get_lines()
    assert rate.get_xdata().tolist() == [1, 2, 8]
    # a history without sequence counts (an older one): the standard-update line is left out
    bare = [{k: v for k, v in r.items() if k != "sequences"} for r in by_beam[1].history_]
    assert len(plot_invalid_update_rate({1: bare}).get_lines()) == 1


def test_invalid_update_rate_without_updates_is_nan():
    X = [[{"form": "Dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]] * 3
    parser = StructuredPerceptron(ArcStandard(beam_size=2), max_iter=2).fit(X, [[2, 0]] * 3)
    assert sum(_column(parser.history_, "updates")) == 0
    rate, standard = plot_invalid_update_rate({2: parser}).get_lines()
    assert np.isnan(rate.get_ydata()[0])
    assert standard.get_ydata().tolist() == [0.0]


def test_invalid_update_rate_errors(by_beam, eg, mixing):
    with pytest.raises(ValueError, match=r"estimators_by_beam\[4\].*invalid_updates"):
        plot_invalid_update_rate({1: by_beam[1], 4: eg})
    with pytest.raises(ValueError, match="invalid_updates"):
        plot_invalid_update_rate({4: mixing})
    with pytest.raises(ValueError, match="beam sizes >= 1"):
        plot_invalid_update_rate({0: by_beam[1]})
    with pytest.raises(ValueError, match="beam sizes >= 1"):
        plot_invalid_update_rate({"greedy": by_beam[1]})
    with pytest.raises(NotFittedError):
        plot_invalid_update_rate({2: StructuredPerceptron(BeamSearch(beam_size=2))})
    with pytest.raises(ValueError, match="empty"):
        plot_invalid_update_rate({})


# -- transition weights -------------------------------------------------------------------


def _labels(ticklabels):
    return [label.get_text() for label in ticklabels]


def test_transition_heat_map_is_the_transition_block(perceptron):
    ax = plot_transition_weights(perceptron)
    (image,) = ax.images
    transition = perceptron.structure_.split(perceptron.coef_)[1]
    assert transition.shape == (4, 4) and np.abs(transition).max() > 0
    np.testing.assert_array_equal(image.get_array(), transition)
    classes = perceptron.classes_.tolist()
    assert _labels(ax.get_xticklabels()) == classes
    assert _labels(ax.get_yticklabels()) == classes
    assert len(ax.figure.axes) == 2  # the colour bar
    low, high = image.get_clim()
    assert low == -high == -np.abs(transition).max()  # centred on zero
    texts = [float(text.get_text()) for text in ax.texts]
    np.testing.assert_allclose(texts, transition.ravel(), rtol=1e-2)


def test_transition_heat_map_options_and_second_order(data):
    X, y, _, _ = data
    model = _perceptron(Viterbi(order=2), max_iter=1).fit(X, y)
    ax = Figure().subplots()
    out = plot_transition_weights(model, ax=ax, annotate=False, colorbar=False, cmap="viridis")
    assert out is ax and len(ax.texts) == 0 and len(ax.figure.axes) == 1
    assert ax.images[0].get_cmap().name == "viridis"
    np.testing.assert_array_equal(ax.images[0].get_array(), model.structure_.split(model.coef_)[1])


def test_transition_heat_map_of_mixing_uses_the_mixed_weights(mixing):
    ax = plot_transition_weights(mixing, ax=Figure().subplots())
    learner = mixing.estimator_
    np.testing.assert_array_equal(
        ax.images[0].get_array(), learner.structure_.split(mixing.coef_)[1]
    )
    assert _labels(ax.get_xticklabels()) == mixing.classes_.tolist()


def test_transition_heat_map_errors(data, perceptron):
    X, y, _, _ = data
    order0 = _perceptron(Viterbi(order=0), max_iter=1).fit(X, y)
    with pytest.raises(ValueError, match="zeroth-order"):
        plot_transition_weights(order0)
    trees = [[{"form": "Dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]] * 3
    parser = StructuredPerceptron(Eisner(), max_iter=1).fit(trees, [[2, 0]] * 3)
    with pytest.raises(ValueError, match="no label transitions"):
        plot_transition_weights(parser)
    with pytest.raises(NotFittedError):
        plot_transition_weights(StructuredPerceptron())
    with pytest.raises(NotFittedError):
        plot_transition_weights(ParameterMixing(StructuredPerceptron()))
    with pytest.raises(TypeError, match="fitted estimator"):
        plot_transition_weights(perceptron.history_)


# -- matplotlib stays optional ------------------------------------------------------------


def test_importing_skstruct_plot_imports_no_matplotlib():
    code = textwrap.dedent(
        """
        import sys
        import skstruct, skstruct.plot
        assert "matplotlib" not in sys.modules, "import skstruct.plot imported matplotlib"
        from matplotlib.figure import Figure
        from skstruct.plot import plot_learning_curve
        history = [{"epoch": 1, "train_score": 0.5, "mistakes": 3, "seconds": 0.1}]
        plot_learning_curve(history, ax=Figure().subplots())
        assert "matplotlib.pyplot" not in sys.modules, "pyplot imported although ax was given"
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_missing_matplotlib_says_how_to_install(monkeypatch, perceptron):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"pip install 'skstruct\[plot\]'"):
        plot_learning_curve(perceptron)
    with pytest.raises(ImportError, match=r"skstruct\.plot needs matplotlib"):
        plot_transition_weights(perceptron)
