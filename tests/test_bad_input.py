"""Bad input to the learner: a clear exception naming the problem and the example."""

import numpy as np
import pytest

from skstruct import StructuredPerceptron, TokenFeatures
from skstruct.metrics import token_accuracy
from skstruct.utils import validation

X = [[{"w": "a"}, {"w": "b"}], [{"w": "c"}]]
y = [["A", "B"], ["A"]]


@pytest.fixture(scope="module")
def fitted():
    return StructuredPerceptron(max_iter=2, random_state=0).fit(X, y)


@pytest.mark.parametrize(
    ("X_bad", "y_bad", "error", "match"),
    [
        (X, y[:1], ValueError, r"different numbers of sequences: 2 and 1"),
        (X, [["A"], ["A"]], ValueError, r"Example 0: X\[0\] has 2 tokens but y\[0\] has 1"),
        ([], [], ValueError, r"X is empty"),
        ([X[0], []], [y[0], []], ValueError, r"X\[1\] is an empty sequence"),
        ("a b", y, TypeError, r"X must be a list of sequences, got str"),
        ({"w": "a"}, y, TypeError, r"X must be a list of sequences, got dict"),
        ({tuple(map(str, s)) for s in X}, y, TypeError, r"X must be a list of sequences, got set"),
        ([{"w": "a"}, {"w": "b"}], y, TypeError, r"X\[0\] must be a sequence .* got dict"),
        (X, [["A", "B"], [1]], TypeError, r"Example 1: y mixes label types"),
        ([X[0], [{"w": np.nan}]], y, ValueError, r"Example 1: token 0 .*non-finite.*'w'"),
        ([X[0], [{"w": np.inf}]], y, ValueError, r"Example 1: token 0 .*non-finite"),
        ([X[0], ["c"]], y, TypeError, r"Example 1: token 0 is a str.*TokenFeatures"),
        ([X[0], [("c", "NN")]], y, TypeError, r"Example 1: token 0 is a tuple.*TokenFeatures"),
        ([X[0], [{"w": {"x": [1]}}]], y, TypeError, r"Example 1: token 0 lists 1 .* 'w:x'"),
    ],
)
def test_fit_rejects_bad_input_clearly(X_bad, y_bad, error, match):
    with pytest.raises(error, match=match):
        StructuredPerceptron(max_iter=1).fit(X_bad, y_bad)


def test_score_counts_labels_unseen_in_training_as_errors(fitted):
    # as skstruct evaluate and skstruct.metrics do (issue 14): no model predicts them
    gold = [["A", "B"], ["C"]]
    predicted = fitted.predict(X)
    assert predicted[1] != ["C"]
    assert fitted.score(X, gold) == token_accuracy(gold, predicted) < 1.0


def test_predict_rejects_bad_input_clearly(fitted):
    with pytest.raises(TypeError, match=r"X must be a list of sequences, got str"):
        fitted.predict("a b")
    with pytest.raises(ValueError, match=r"X\[0\] is an empty sequence"):
        fitted.predict([[]])
    with pytest.raises(ValueError, match=r"Example 0: token 1 .*non-finite"):
        fitted.predict([[{"w": "a"}, {"w": float("nan")}]])


def test_fit_reads_one_shot_iterables_into_lists(fitted):
    est = StructuredPerceptron(max_iter=2, random_state=0)
    est.fit((s for s in X), iter(y), X_dev=iter(X), y_dev=(labels for labels in y))
    assert np.array_equal(est.coef_, fitted.coef_)
    assert est.predict(X) == fitted.predict(X)


def test_predict_and_score_read_iterators_in_chunks(fitted, monkeypatch):
    monkeypatch.setattr(validation, "CHUNK_SIZE", 2)
    many_X, many_y = X * 3, y * 3  # 6 sentences: chunks of 2, 2 and 2
    assert fitted.predict(iter(many_X)) == fitted.predict(many_X)
    assert fitted.predict(s for s in X[:1]) == fitted.predict(X[:1])
    for X_in, y_in in [
        (iter(many_X), iter(many_y)),
        (iter(many_X), many_y),
        (many_X, iter(many_y)),
    ]:
        assert fitted.score(X_in, y_in) == fitted.score(many_X, many_y)
    with pytest.raises(ValueError, match=r"^X is empty"):
        fitted.predict(iter([]))

    class Reader:  # an iterable that is no collection, such as a corpus reader
        def __iter__(self):
            return iter(many_X)

    assert fitted.predict(Reader()) == fitted.predict(many_X)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda m, Xs: m.predict(iter([*Xs, []])), ValueError, r"^X\[6\] is an empty sequence"),
        (
            lambda m, Xs: m.predict(iter([*Xs, [{"w": "a"}, {"w": np.nan}]])),
            ValueError,
            r"^Example 6: token 1 has a non-finite",
        ),
        (lambda m, Xs: m.predict(iter([*Xs, "ab"])), TypeError, r"^X\[6\] must be a sequence"),
        (
            lambda m, Xs: m.score(iter(Xs), [*y * 3, ["A"]]),
            ValueError,
            r"^X and y have different numbers of sequences: 6 and 7\.$",
        ),
        (
            lambda m, Xs: m.score(iter([*Xs, *Xs]), iter(y * 3)),
            ValueError,
            r"^X and y have different numbers of sequences: 12 and 6\.$",
        ),
        (
            lambda m, Xs: m.score(iter(Xs), iter([*y * 2, ["A"], ["B"]])),
            ValueError,
            r"^Example 4: X\[4\] has 2 tokens but y\[4\] has 1 labels\.$",
        ),
    ],
)
def test_errors_in_later_chunks_name_the_index_in_X(fitted, monkeypatch, call, error, match):
    monkeypatch.setattr(validation, "CHUNK_SIZE", 2)
    with pytest.raises(error, match=match):
        call(fitted, X * 3)


def test_unseen_features_at_predict_are_ignored(fitted):
    known = fitted.predict([[{"w": "a"}, {"w": "b"}]])
    with_unseen = fitted.predict([[{"w": "a", "new": 1.0}, {"w": "b", "zzz": "q"}]])
    assert with_unseen == known == [["A", "B"]]


def test_dev_set_needs_both_parts():
    with pytest.raises(ValueError, match="Pass both X_dev and y_dev"):
        StructuredPerceptron().fit(X, y, X_dev=X)
    with pytest.raises(ValueError, match=r"Example 0: X_dev\[0\] has 2 tokens but y_dev\[0\]"):
        StructuredPerceptron().fit(X, y, X_dev=X, y_dev=[["A"], ["A"]])


def test_numpy_object_arrays_are_accepted():
    X_array = np.empty(2, dtype=object)
    X_array[:] = X
    est = StructuredPerceptron(max_iter=1, random_state=0).fit(X_array, y)
    assert est.predict(X_array) == est.predict(X)


def test_raw_tokens_need_features_but_work_with_them():
    words = [["the", "dog"], ["a", "cat"]]
    with pytest.raises(TypeError, match="Pass features=TokenFeatures"):
        StructuredPerceptron().fit(words, y[:1] * 2)
    est = StructuredPerceptron(features=TokenFeatures(), random_state=0).fit(
        words, [["D", "N"]] * 2
    )
    assert est.predict([["the", "cat"]]) == [["D", "N"]]


def test_long_sentence_is_handled():
    long = [[{"w": f"w{i % 7}"} for i in range(10_000)]]
    labels = [["A" if i % 7 < 3 else "B" for i in range(10_000)]]
    est = StructuredPerceptron(max_iter=10, random_state=0).fit(long, labels)
    assert len(est.predict(long)[0]) == 10_000
    assert est.score(long, labels) > 0.9
