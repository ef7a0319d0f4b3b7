"""StructuredPerceptron behaviour: the algorithm, averaging, training options."""

import itertools

import numpy as np
import pytest

from skstruct import BeamSearch, StructuredPerceptron, TokenFeatures, Viterbi
from skstruct.datasets import make_chain_data
from skstruct.features import TokenDictEncoder
from tests import naive


def _token_dicts(rng, n_sentences, n_words, max_len=4):
    return [
        [{"w": f"w{rng.integers(n_words)}"} for _ in range(rng.integers(1, max_len + 1))]
        for _ in range(n_sentences)
    ]


def _as_sparse(encoded):
    """Sentences of (feature id, value) tokens, as naive.ChainModel takes them."""
    tokens = [
        list(zip(encoded.indices[a:b].tolist(), encoded.values[a:b].tolist()))
        for a, b in zip(encoded.indptr[:-1], encoded.indptr[1:])
    ]
    bounds = encoded.offsets.tolist()
    return [tokens[bounds[i] : bounds[i + 1]] for i in range(len(bounds) - 1)]


@pytest.mark.parametrize("seed", range(5))
def test_mistakes_stay_within_novikoff_bound(seed):
    """On data separable with margin delta, mistakes <= R^2 / delta^2 (Collins 2002, Thm 1)."""
    rng = np.random.default_rng(seed)
    n_labels = 3
    while True:  # draw until the gold outputs use every label, so the label spaces agree
        X, y, delta, radius = _separable_problem(rng, n_labels)
        if len({label for seq in y for label in seq}) == n_labels:
            break
    est = StructuredPerceptron(max_iter=200, average=False, random_state=seed).fit(X, y)
    mistakes = [record["mistakes"] for record in est.history_]
    assert sum(mistakes) <= radius**2 / delta**2
    assert mistakes[-1] == 0  # converged, as the bound promises
    assert est.score(X, y) == 1.0


def _separable_problem(rng, n_labels):
    """Token dicts labelled by a random weight vector u, with u's margin and radius R."""
    X = _token_dicts(rng, 6, 4)
    sentences = _as_sparse(TokenDictEncoder().fit_transform(X))
    model = naive.ChainModel(4, n_labels)
    u = {
        part: rng.normal()
        for part in itertools.chain(
            (("emission", f, k) for f in range(4) for k in range(n_labels)),
            (("transition", a, b) for a in range(n_labels) for b in range(n_labels)),
            (("start", k) for k in range(n_labels)),
            (("stop", k) for k in range(n_labels)),
        )
    }
    norm = np.sqrt(sum(v * v for v in u.values()))
    gold, delta, radius = [], np.inf, 0.0
    for sentence in sentences:
        outputs = list(naive.all_paths(len(sentence), n_labels))
        scores = [_dot(u, model.phi(sentence, out)) for out in outputs]
        best = outputs[int(np.argmax(scores))]
        gold.append(best)
        for out, score in zip(outputs, scores):
            if out != best:
                delta = min(delta, (max(scores) - score) / norm)
                diff = model.phi(sentence, best)
                for part, v in model.phi(sentence, out).items():
                    diff[part] = diff.get(part, 0.0) - v
                radius = max(radius, np.sqrt(sum(v * v for v in diff.values())))
    return X, [[f"L{k}" for k in out] for out in gold], delta, radius


def _dot(w, counts):
    return sum(w.get(part, 0.0) * v for part, v in counts.items())


@pytest.mark.parametrize("batch_size", [1, 4])
@pytest.mark.parametrize("average", [True, False])
@pytest.mark.parametrize("order", [0, 1])
def test_estimator_matches_python_twin(average, order, batch_size):
    rng = np.random.default_rng(1)
    X = _token_dicts(rng, 12, 5)
    y = [[f"L{rng.integers(3)}" for _ in seq] for seq in X]
    for seq in y[:3]:
        seq[0] = "L0"  # make sure all three labels occur
    y[3][0], y[4][0] = "L1", "L2"
    assert_equals_python_twin(X, y, order, average, batch_size)


def assert_equals_python_twin(X, y, order, average, batch_size):
    """Fit the perceptron on ``X``, ``y`` (labels ``"L0"``-``"L2"``, None unknown) for 3
    epochs in order and check its weights and mistakes against ``naive.perceptron``."""
    est = StructuredPerceptron(
        Viterbi(order=order), max_iter=3, average=average, shuffle=False, batch_size=batch_size
    ).fit(X, y)
    encoded = est.encoder_.transform(X)
    model = naive.ChainModel(encoded.n_features, 3, first_order=order == 1)
    labels = [[None if label is None else int(label[1]) for label in seq] for seq in y]
    orders = [range(len(X))] * 3
    w, mean, mistakes = naive.perceptron(model, _as_sparse(encoded), labels, orders, batch_size)
    np.testing.assert_allclose(
        naive.dense_chain_coef(est.structure_, est.coef_),
        model.to_flat(mean if average else w),
        atol=1e-12,
    )
    assert [r["mistakes"] for r in est.history_] == mistakes


def test_numeric_feature_values_are_honoured():
    # Separable only through the magnitude of "x": values read as 1 could not do it.
    X = [[{"x": v}] for v in (3.0, 2.0, -2.0, -3.0, 1.0, -1.0)]
    y = [["POS"], ["POS"], ["NEG"], ["NEG"], ["POS"], ["NEG"]]
    est = StructuredPerceptron(Viterbi(order=0), max_iter=20, random_state=0).fit(X, y)
    assert est.score(X, y) == 1.0
    assert est.predict([[{"x": 0.5}], [{"x": -0.5}]]) == [["POS"], ["NEG"]]


@pytest.fixture(scope="module")
def data():
    X, y = make_chain_data(80, n_labels=4, n_words=25, random_state=1)
    return TokenFeatures().fit_transform(X), y


def test_partial_fit_epochs_equal_fit(data):
    X, y = data
    fitted = StructuredPerceptron(max_iter=3, random_state=5).fit(X, y)
    online = StructuredPerceptron(random_state=5)
    for _ in range(3):
        online.partial_fit(X, y)
    np.testing.assert_array_equal(online.coef_, fitted.coef_)
    assert online.n_iter_ == 3 and len(online.history_) == 3


def test_warm_start_continues_training(data):
    X, y = data
    fitted = StructuredPerceptron(max_iter=3, random_state=5).fit(X, y)
    warm = StructuredPerceptron(max_iter=2, random_state=5, warm_start=True).fit(X, y)
    warm.set_params(max_iter=1).fit(X, y)
    np.testing.assert_array_equal(warm.coef_, fitted.coef_)


def test_partial_fit_grows_the_vocabulary_and_checks_labels(data):
    X, y = data
    est = StructuredPerceptron(random_state=0).partial_fit(
        X[:10], y[:10], classes=["L0", "L1", "L2", "L3"]
    )
    n_before = est.structure_.n_features
    est.partial_fit(X[10:], y[10:])
    assert est.structure_.n_features > n_before
    assert est.coef_.size == est.structure_.n_weights
    with pytest.raises(ValueError, match=r"Example 0: label 'L9' .* not seen in training"):
        est.partial_fit([X[0]], [["L9"] * len(X[0])])
    with pytest.raises(ValueError, match="differs from classes_"):
        est.partial_fit(X, y, classes=["L0", "L1"])


def test_early_stopping_keeps_the_best_epoch(data):
    X, y = data
    est = StructuredPerceptron(max_iter=30, n_iter_no_change=2, random_state=0)
    est.fit(X[:60], y[:60], X_dev=X[60:], y_dev=y[60:])
    dev_scores = [record["dev_score"] for record in est.history_]
    assert est.n_iter_ == len(dev_scores) <= 30
    best = int(np.argmax(dev_scores))
    assert est.best_iteration_ == best + 1
    assert est.score(X[60:], y[60:]) == pytest.approx(dev_scores[best])
    if est.n_iter_ < 30:
        assert all(score <= dev_scores[best] for score in dev_scores[best + 1 :])
        assert len(dev_scores) - 1 - best == 2


def test_validation_fraction_scores_a_held_out_set(data):
    X, y = data
    est = StructuredPerceptron(max_iter=2, validation_fraction=0.25, random_state=0).fit(X, y)
    assert all(0.0 <= record["dev_score"] <= 1.0 for record in est.history_)
    with pytest.raises(ValueError, match="n_iter_no_change needs a development set"):
        StructuredPerceptron(n_iter_no_change=2).fit(X, y)


def test_history_records_every_epoch(data):
    X, y = data
    est = StructuredPerceptron(max_iter=4, random_state=0).fit(X, y)
    assert [r["epoch"] for r in est.history_] == [1, 2, 3, 4]
    for record in est.history_:
        assert record["updates"] == record["mistakes"] <= len(X)
        assert 0.0 <= record["train_score"] <= 1.0 and record["seconds"] >= 0.0
        assert record["dev_score"] is None
    assert est.history_[-1]["mistakes"] < est.history_[0]["mistakes"]


def test_hashed_features_learn_as_well(data):
    X, y = data
    exact = StructuredPerceptron(random_state=0).fit(X, y)
    hashed = StructuredPerceptron(n_features=2**12, random_state=0).fit(X, y)
    assert hashed.structure_.n_features == 2**12
    assert hashed.structure_.emission_matrix(hashed.coef_).shape == (2**12, len(hashed.classes_))
    assert hashed.score(X, y) >= exact.score(X, y) - 0.02


def test_verbose_shows_progress(data, capsys):
    X, y = data
    StructuredPerceptron(max_iter=2, verbose=1, random_state=0).fit(X, y)
    assert "StructuredPerceptron" in capsys.readouterr().err


def test_labels_keep_their_type():
    X = [[{"w": "a"}, {"w": "b"}], [{"w": "b"}]]
    est = StructuredPerceptron(random_state=0).fit(X, [[1, 2], [2]])
    assert est.predict(X) == [[1, 2], [2]]
    assert all(type(label) is int for label in est.predict(X)[0])


def test_drop_in_for_sklearn_crfsuite(data):
    sklearn_crfsuite = pytest.importorskip("sklearn_crfsuite")
    X, y = data
    crf = sklearn_crfsuite.CRF(algorithm="ap", max_iterations=5).fit(X, y)
    ours = StructuredPerceptron(max_iter=5, random_state=0).fit(X, y)
    theirs, mine = crf.predict(X), ours.predict(X)
    # Same nesting (sequences of label strings); CRFsuite wraps them in an object array.
    assert type(mine[0]) is type(theirs[0]) is list and type(mine[0][0]) is type(theirs[0][0])
    assert [len(s) for s in mine] == [len(s) for s in theirs]
    assert abs(ours.score(X, y) - crf.score(X, y)) < 0.1


def test_python_crfsuite_shorthand_tokens_train_the_same_model():
    shorthand = [[["w=a", "bias"], {"w": "b", "ctx": {"prev": "a"}}], [["w=b"]]]
    flat = [[{"w=a": 1.0, "bias": 1.0}, {"w": "b", "ctx:prev": "a"}], [{"w=b": 1.0}]]
    y = [["A", "B"], ["B"]]
    one = StructuredPerceptron(random_state=0).fit(shorthand, y)
    two = StructuredPerceptron(random_state=0).fit(flat, y)
    np.testing.assert_array_equal(one.coef_, two.coef_)
    assert one.predict(shorthand) == two.predict(flat) == y


@pytest.mark.parametrize(
    "decoder", [BeamSearch(beam_size=4), Viterbi(order=0)], ids=["beam", "order0"]
)
def test_weights_grow_with_updates_not_features_times_labels(decoder):
    # Brown's 472 tags over a vocabulary of thousands of features: a dense emission matrix
    # would take n_features x n_labels floats (tens of MB); the rows take what updates touch.
    import tracemalloc

    X, y = make_chain_data(2000, n_labels=472, n_words=20000, length=(5, 15), random_state=0)
    model = StructuredPerceptron(decoder, update="max_violation", features=TokenFeatures(),
                                 max_iter=2, random_state=0)  # fmt: skip
    model.fit(X[:5], y[:5])  # compile outside the measurement
    tracemalloc.start()
    model.fit(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    structure, state = model.structure_, model._weights
    F, L = structure.n_features, structure.n_labels
    assert L > 450 and F > 20000
    dense_bytes = 8 * F * L
    assert peak < dense_bytes / 2  # one dense array alone would exceed it
    # every weight array holds the dense part (labels^2) plus pairs an update touched
    n_emission = state.coef.size - structure.n_dense
    assert state.coef.shape == state.coef_sum.shape
    assert n_emission <= max(2 * state.structure.rows.nnz + 4 * L, 1024) < F * L / 20
    assert model.coef_.shape == (structure.n_dense + structure.rows.nnz,)
    emission = structure.emission_matrix(model.coef_)
    assert emission.shape == (F, L) and emission.nnz == structure.rows.nnz
