"""skstruct.inspect: tables of weights and explanations, checked against the model's
own scores and its sklearn-crfsuite attributes."""

import builtins

import numpy as np
import pytest
from matplotlib.figure import Figure

from skstruct import Eisner, ParameterMixing, StructuredPerceptron, Viterbi
from skstruct.datasets import make_chain_data
from skstruct.inspect import explain_prediction, plot_weights, top_state_features, top_transitions


@pytest.fixture(scope="module")
def model_and_data():
    rng = np.random.default_rng(0)
    X = [
        [{"w": f"w{rng.integers(8)}", "x": float(rng.normal())} for _ in range(5)]
        for _ in range(40)
    ]
    y = [[["A", "B", "C"][rng.integers(3)] for _ in seq] for seq in X]
    return StructuredPerceptron(random_state=0, max_iter=3).fit(X, y), X


def test_top_state_features_are_the_largest_weights(model_and_data):
    model, _ = model_and_data
    every = sorted(model.state_features_.items(), key=lambda item: -item[1])
    table = top_state_features(model, n=7)
    assert [tuple(r) for r in table.values.tolist()] == [(f, lab, w) for (f, lab), w in every[:7]]
    low = top_state_features(model, n=3, negative=True).values.tolist()
    assert [r[2] for r in low] == sorted(w for w in model.state_features_.values())[:3]
    only_b = top_state_features(model, n=100, label="B")
    assert set(only_b["label"]) == {"B"}
    assert len(only_b) == sum(lab == "B" for _, lab in model.state_features_)


def test_top_transitions_are_the_largest_weights(model_and_data):
    model, _ = model_and_data
    every = sorted(model.transition_features_.items(), key=lambda item: -item[1])
    table = top_transitions(model, n=4)
    assert [tuple(r) for r in table.values.tolist()] == [(a, b, w) for (a, b), w in every[:4]]


def test_explanation_adds_up_to_the_labels_score(model_and_data):
    model, X = model_and_data
    structure = model.structure_
    classes = model.classes_.tolist()
    for x in X[:5]:
        predicted = model.predict([x])[0]
        scores = structure.scores(model.encode([x]), 0, model.coef_)
        for t in range(len(x)):
            for label in (None, "A"):
                table = explain_prediction(model, x, t, label=label)
                k = classes.index(predicted[t] if label is None else label)
                emission = table[~table["part"].str.contains(" ")]["contribution"].sum()
                assert emission == pytest.approx(scores.unary[t, k])
                expected = {}
                if t:
                    expected[f"transition {predicted[t - 1]} -> {classes[k]}"] = \
                        scores.transition[classes.index(predicted[t - 1]), k]  # fmt: skip
                else:
                    expected[f"start {classes[k]}"] = scores.start[k]
                if t < len(x) - 1:
                    expected[f"transition {classes[k]} -> {predicted[t + 1]}"] = \
                        scores.transition[k, classes.index(predicted[t + 1])]  # fmt: skip
                else:
                    expected[f"stop {classes[k]}"] = scores.stop[k]
                got = dict(zip(table["part"], table["contribution"]))
                for part, value in expected.items():
                    assert got.get(part, 0.0) == pytest.approx(value)
                contributions = table["contribution"].abs().tolist()
                assert contributions == sorted(contributions, reverse=True)


def test_tables_are_lists_without_pandas(model_and_data, monkeypatch):
    model, X = model_and_data
    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("no pandas")
        return real_import(name, *args, **kwargs)

    frame = top_state_features(model, n=3)
    monkeypatch.setattr(builtins, "__import__", no_pandas)
    rows = top_state_features(model, n=3)
    assert rows == [tuple(r) for r in frame.values.tolist()]
    assert isinstance(explain_prediction(model, X[0], 0), list)
    ax = plot_weights(rows, ax=Figure().subplots())
    assert len(ax.patches) == 3


def test_plots_draw_every_table(model_and_data):
    model, X = model_and_data
    for table in (top_state_features(model, n=5), top_transitions(model, n=4),
                  explain_prediction(model, X[0], 2)):  # fmt: skip
        ax = plot_weights(table, ax=Figure().subplots())
        heights = [p.get_width() for p in ax.patches]
        assert heights == table.iloc[:, -1].tolist()
    with pytest.raises(ValueError, match="empty"):
        plot_weights([], ax=Figure().subplots())


def test_hashed_features_are_named_by_column_and_mixing_is_explained():
    X, y = make_chain_data(30, random_state=0)
    X = [[{"w": str(tok)} for tok in seq] for seq in X]
    hashed = StructuredPerceptron(n_features=64, random_state=0).fit(X, y)
    assert top_state_features(hashed, n=3)["feature"].str.startswith("#").all()
    mixed = ParameterMixing(StructuredPerceptron(random_state=0), n_shards=2, max_iter=2).fit(X, y)
    assert len(explain_prediction(mixed, X[0], 0)) > 0


def test_bad_requests_are_refused(model_and_data):
    model, X = model_and_data
    with pytest.raises(ValueError, match="label 'Z' is not one of classes_"):
        top_state_features(model, label="Z")
    with pytest.raises(ValueError, match="label 'Z' is not one of classes_"):
        explain_prediction(model, X[0], 0, label="Z")
    with pytest.raises(ValueError, match="position must be a token of x"):
        explain_prediction(model, X[0], 5)
    with pytest.raises(ValueError, match="n must be a positive integer"):
        top_transitions(model, n=0)
    order0 = StructuredPerceptron(Viterbi(order=0)).fit(X[:5], [["A"] * 5] * 5)
    with pytest.raises(ValueError, match="order 0 has no transitions"):
        top_transitions(order0)
    parser = StructuredPerceptron(Eisner()).fit(
        [[{"form": "a", "upos": "X"}, {"form": "b", "upos": "Y"}]], [[0, 1]]
    )
    with pytest.raises(ValueError, match="predicts trees"):
        top_state_features(parser)
