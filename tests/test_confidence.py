"""Span confidences, temperature scaling and calibration metrics, against enumeration
and pure-Python twins."""

import itertools
import warnings

import numpy as np
import pytest

from skstruct import LinearChainCRF, StructuredPerceptron, Viterbi
from skstruct.metrics import expected_calibration_error, reliability_bins
from skstruct.metrics._span import _chunks
from skstruct.structures.constraints import ForbiddenGoldWarning
from tests import naive

BIO = ["B-LOC", "B-PER", "I-LOC", "I-PER", "O"]


def _model(allowed, seed=0, learner=None):
    rng = np.random.default_rng(seed)
    X, y = [], []
    for _ in range(40):
        n = int(rng.integers(1, 5))
        X.append([{f"w{int(rng.integers(6))}": 1.0, "b": float(rng.normal())} for _ in range(n)])
        labels, prev = [], "O"
        for _ in range(n):  # IOB2 gold
            label = str(rng.choice(BIO))
            if label.startswith("I-") and prev[2:] != label[2:]:
                label = "B-" + label[2:]
            labels.append(label)
            prev = label
        y.append(labels)
    if learner is None:
        learner = StructuredPerceptron(Viterbi(allowed=allowed), max_iter=2, random_state=seed)
    return learner.fit(X, y), X, y


def _distribution(model, x, temperature=1.0):
    """Every allowed label sequence of ``x`` with its probability, by enumeration."""
    structure = model.structure_
    s = structure.scores(model.encode([x]), 0, model.coef_)
    c = structure.constraints
    sequences, scores = [], []
    for seq in naive.all_paths(len(x), len(BIO)):
        if c is not None and c.violations(np.array(seq), np.array([0, len(x)]))[0].size:
            continue
        sequences.append(seq)
        scores.append(naive.chain_score(seq, s.unary, s.transition, s.start, s.stop))
    scores = np.array(scores) / temperature
    p = np.exp(scores - scores.max())
    return sequences, p / p.sum()


def _entities(seq):
    return {(s, last + 1, kind) for kind, _, s, last in _chunks([[BIO[k] for k in seq]], "y")}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_span_probability_of_bio_model_is_the_entitys_probability(seed):
    # with allowed="bio", the labels of an entity are unique: the twin sums the
    # probability of every sequence that has the entity, whatever its other labels
    model, X, _ = _model("bio", seed)
    spans = model.predict_spans(X)
    predicted = model.predict(X)
    checked = 0
    for x, found, labels in zip(X, spans, predicted):
        assert [(s, e, k) for s, e, k, _ in found] == sorted(
            (s, e, k) for s, e, k in _entities([BIO.index(lab) for lab in labels])
        )
        sequences, p = _distribution(model, x)
        for s, e, kind, confidence in found:
            expected = sum(q for seq, q in zip(sequences, p) if (s, e, kind) in _entities(seq))
            assert confidence == pytest.approx(expected, abs=1e-9)
            checked += 1
    assert checked > 5


def test_span_probability_unconstrained_is_that_of_its_labels_and_bounds():
    model, X, _ = _model(None, 3)
    model.temperature_ = 2.5  # as calibrate would set it
    for x, found, labels in zip(X, model.predict_spans(X), model.predict(X)):
        sequences, p = _distribution(model, x, temperature=2.5)
        ids = [BIO.index(lab) for lab in labels]
        for s, e, kind, confidence in found:
            # the same labels over the span, and the span an entity of the sequence
            expected = sum(
                q
                for seq, q in zip(sequences, p)
                if list(seq[s:e]) == ids[s:e] and (s, e, kind) in _entities(seq)
            )
            assert confidence == pytest.approx(expected, abs=1e-9)


def test_marginals_follow_the_temperature():
    model, X, _ = _model("bio", 4)
    model.temperature_ = 0.7
    for x, marginals in zip(X[:10], model.predict_marginals(X[:10])):
        sequences, p = _distribution(model, x, temperature=0.7)
        expected = np.zeros((len(x), len(BIO)))
        for seq, q in zip(sequences, p):
            expected[np.arange(len(x)), list(seq)] += q
        got = np.array([[m[label] for label in BIO] for m in marginals])
        np.testing.assert_allclose(got, expected, atol=1e-9)


def test_calibrate_finds_the_most_likely_temperature_and_changes_no_prediction():
    model, X, y = _model("bio", 5)
    X_dev, y_dev = X[:20], y[:20]
    before = model.predict(X)
    model.calibrate(X_dev, y_dev)
    assert model.predict(X) == before

    def nll(t):
        model.temperature_ = t
        marginals = model.predict_marginals(X_dev)
        return -sum(
            np.log(m[label]) for ms, ls in zip(marginals, y_dev) for m, label in zip(ms, ls)
        )

    fitted = model.temperature_
    best = nll(fitted)
    for t in np.geomspace(fitted / 4, fitted * 4, 25):
        assert best <= nll(t) + 1e-6
    model.temperature_ = fitted
    # a new fit forgets it
    model.fit(X, y)
    assert not hasattr(model, "temperature_")


def test_calibrate_on_a_crf_and_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ForbiddenGoldWarning)
        model, X, y = _model("bio", 6, learner=LinearChainCRF(allowed="bio", max_iter=20))
    assert model.calibrate(X, y).temperature_ > 0
    with pytest.raises(ValueError, match="y_dev has no label seen in training"):
        model.calibrate(X[:1], [["B-ORG"] * len(X[0])])
    pos = StructuredPerceptron(random_state=0).fit([[{"w": "a"}]], [["NN"]])
    with pytest.raises(ValueError, match="predict_spans reads entities from chunk labels"):
        pos.predict_spans([[{"w": "a"}]])


def test_crf_allowed_constrains_prediction_and_marginals():
    model, X, _ = _model("bio", 7, learner=LinearChainCRF(allowed="bio", max_iter=20))
    assert repr(model.decoder_) == "Viterbi(allowed='bio')"
    first = np.array([m[0]["I-LOC"] + m[0]["I-PER"] for m in model.predict_marginals(X)])
    assert (first == 0).all()
    free, *_ = _model(None, 7, learner=LinearChainCRF(max_iter=20))
    assert (np.array([m[0]["I-LOC"] for m in free.predict_marginals(X)]) > 0).all()


def _ece_twin(y_true, marginals, n_bins):
    rows = []
    for seq_true, seq_m in zip(y_true, marginals):
        for label, m in zip(seq_true, seq_m):
            top = max(m, key=m.get)
            rows.append((m[top], top == label))
    total = 0.0
    for b in range(n_bins):
        lo, hi = b / n_bins, (b + 1) / n_bins
        inside = [(c, ok) for c, ok in rows if lo <= c < hi or (b == n_bins - 1 and c == 1.0)]
        if inside:
            gap = abs(np.mean([ok for _, ok in inside]) - np.mean([c for c, _ in inside]))
            total += len(inside) * gap
    return total / len(rows)


@pytest.mark.parametrize("n_bins", [1, 5, 15])
def test_ece_equals_a_twin(n_bins):
    rng = np.random.default_rng(n_bins)
    labels = ["A", "B", "C"]
    y, marginals = [], []
    for _ in range(30):
        n = int(rng.integers(1, 6))
        y.append([str(rng.choice(labels)) for _ in range(n)])
        probs = rng.dirichlet(np.ones(3), size=n)
        marginals.append([dict(zip(labels, row.tolist())) for row in probs])
    got = expected_calibration_error(y, marginals, n_bins=n_bins)
    assert got == pytest.approx(_ece_twin(y, marginals, n_bins), abs=1e-12)
    counts, _, _ = reliability_bins(y, marginals, n_bins=n_bins)
    assert counts.sum() == sum(map(len, y))
    with pytest.raises(ValueError, match="n_bins must be a positive integer"):
        expected_calibration_error(y, marginals, n_bins=0)


def test_perfectly_calibrated_marginals_have_no_error():
    y = [["A"] * 4 + ["B"] * 4]
    m = [[{"A": 0.5, "B": 0.5}] * 8]
    # top label "A" (first of the ties) at confidence 0.5, right half of the time
    assert expected_calibration_error(y, m) == pytest.approx(0.0)
    assert list(itertools.islice(reliability_bins(y, m, n_bins=2)[0], 2)) == [0, 8]
