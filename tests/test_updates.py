"""Violation-fixing updates (Huang, Fayong & Guo 2012): rules, validity, convergence."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import GridSearchCV

from skstruct import BeamSearch, Greedy, StructuredPerceptron, TokenFeatures, Viterbi
from skstruct.datasets import make_chain_data
from skstruct.structures import ChainScores, LinearChain
from skstruct.updates import UPDATE_RULES, StandardUpdate

VALID_RULES = ["early", "hybrid", "max_violation", "latest", "laso"]

# -- the paper's Figure 1 -----------------------------------------------------------------
# x = "fruit flies fly .", y = N N V .; Y(x) = {N} x {N, V} x {N, V} x {.};
# phi(x, y) = (#N->N(y), #V->.(y)); greedy search. Labels N=0, V=1, .=2, so ties go to N.
N, V, DOT = 0, 1, 2
GOLD = np.array([N, N, V, DOT], dtype=np.int32)
ALLOWED = [{N}, {N, V}, {N, V}, {DOT}]


def _phi(labels):
    pairs = list(itertools.pairwise(int(label) for label in labels))
    return np.array([pairs.count((N, N)), pairs.count((V, DOT))], dtype=float)


def _figure1_trace(w, rule):
    """Greedy search under w = (w_NN, w_V.) on the figure's search space, as a trace."""
    structure = LinearChain(0, 3, order=1)
    coef = np.zeros(structure.n_weights)
    _, transition, _, _, _ = structure.split(coef)
    transition[N, N], transition[V, DOT] = w
    unary = np.array([[0.0 if k in allowed else -1e9 for k in range(3)] for allowed in ALLOWED])
    scores = ChainScores(unary, *structure.split(coef)[1:])
    return Greedy().search(structure, scores, GOLD, restarts=rule.restarts)


def _train_figure1(rule, n_iter):
    """The perceptron on Figure 1's single example; returns [(w . delta phi, new w)]."""
    w = np.zeros(2)
    rows = []
    for _ in range(n_iter):
        trace = _figure1_trace(w, rule)
        violations = rule.violations(trace)
        if not violations:
            break
        delta = sum(v.weight * (_phi(v.gold) - _phi(v.pred)) for v in violations)
        rows.append((float(w @ delta), *(w := w + delta)))
    return rows


def test_figure1_standard_update_cycles_with_invalid_updates():
    rows = _train_figure1(StandardUpdate(), 8)
    # The figure's table: w . delta phi and the new w, iterations 1-4 ...
    assert rows[:4] == [(0.0, -1.0, 1.0), (0.0, 0.0, 2.0), (2.0, -1.0, 3.0), (2.0, 0.0, 4.0)]
    # ... and on: the update never stops, and from iteration 3 every update is invalid
    assert len(rows) == 8 and all(dot > 0 for dot, *_ in rows[2:])
    # although u = (1, 2) separates the data under exact search
    assert all(
        np.array([1, 2]) @ (_phi(GOLD) - _phi(z)) > 0
        for z in ([N, a, b, DOT] for a in (N, V) for b in (N, V))
        if [N, z[1], z[2], DOT] != GOLD.tolist()
    )


@pytest.mark.parametrize("rule", VALID_RULES)
def test_figure1_valid_rules_only_make_violations(rule):
    # With phi = (#N->N, #V->.) the example is not greedily separable: the prefix
    # triples (NN, NV) and (NNV, NNN) need u_NN > 0 and u_NN < 0. So no update method
    # can converge on it; what the theory promises is that these rules never make an
    # invalid update, unlike the standard one above.
    rows = _train_figure1(UPDATE_RULES[rule](), 12)
    assert rows and all(dot <= 0 for dot, *_ in rows)


def _figure1_corpus():
    X = [[{"w": "fruit"}, {"w": "flies"}, {"w": "fly"}, {"w": "."}]]
    return X, [["N", "N", "V", "."]]


@pytest.mark.parametrize("rule", ["early", "max_violation"])
def test_figure1_with_word_features_valid_rules_converge(rule):
    # Give the tagger word features and the example becomes greedily separable:
    # early and max-violation updates then converge (Theorem 2), every update valid.
    X, y = _figure1_corpus()
    est = StructuredPerceptron(Greedy(), update=rule, max_iter=20, average=False, shuffle=False)
    est.fit(X, y)
    updates = [record["updates"] for record in est.history_]
    assert updates[-1] == 0 and sum(updates) > 0
    assert all(record["invalid_updates"] == 0 for record in est.history_)
    assert est.predict(X) == y


# -- every update a violation, on random chains -------------------------------------------


@settings(max_examples=25)
@given(
    st.sampled_from(VALID_RULES),
    st.sampled_from(
        [Greedy(), BeamSearch(beam_size=2), BeamSearch(beam_size=2, order=2), Viterbi(order=2)]
    ),
    st.integers(0, 10_000),
)
def test_valid_rules_never_update_on_a_non_violation(rule, decoder, seed):
    X, y = make_chain_data(15, n_labels=3, n_words=6, length=(2, 6), random_state=seed)
    est = StructuredPerceptron(
        decoder, update=rule, features=TokenFeatures(window=0), max_iter=3, random_state=seed
    ).fit(X, y)
    assert all(record["invalid_updates"] == 0 for record in est.history_)
    assert all(
        record["mean_violation"] is None or record["mean_violation"] >= 0 for record in est.history_
    )


def test_standard_update_under_greedy_search_makes_invalid_updates():
    X, y = make_chain_data(200, n_labels=6, n_words=30, random_state=0)
    est = StructuredPerceptron(
        Greedy(), features=TokenFeatures(window=0), max_iter=5, random_state=0
    ).fit(X, y)
    invalid = sum(record["invalid_updates"] for record in est.history_)
    assert invalid > 0
    assert invalid == sum(record["invalid_standard"] for record in est.history_)


# -- one loop for all: the generic loop equals the fused kernel -----------------------------


class _PlainStandard(StandardUpdate):
    """The standard rule under another type (a subclass), which has no fused epoch
    registered and so sends training down the generic loop."""


@pytest.mark.parametrize("order", [0, 1, 2])
def test_generic_loop_matches_fused_kernel(order):
    X, y = make_chain_data(40, n_labels=3, n_words=15, random_state=order)
    rng = np.random.default_rng(0)
    # real-valued features, so that score ties (where the exact searches may break
    # ties differently) do not occur after the first update
    X = [[{"w": w, "x": float(rng.normal())} for w in seq] for seq in X]
    fused = StructuredPerceptron(Viterbi(order=order), max_iter=3, random_state=0).fit(X, y)
    generic = StructuredPerceptron(
        Viterbi(order=order), update=_PlainStandard(), max_iter=3, random_state=0
    ).fit(X, y)
    np.testing.assert_allclose(generic.coef_, fused.coef_, atol=1e-12)
    assert [r["mistakes"] for r in generic.history_] == [r["mistakes"] for r in fused.history_]


# -- the estimator surface --------------------------------------------------------------------


def test_grid_search_over_beam_size_and_update():
    X, y = make_chain_data(60, n_labels=4, n_words=20, random_state=1)
    search = GridSearchCV(
        StructuredPerceptron(BeamSearch(), features=TokenFeatures(), max_iter=2, random_state=0),
        {"decoder__beam_size": [1, 2, 4, 8], "update": ["early", "max_violation"]},
        cv=3,
    ).fit(X, y)
    assert len(search.cv_results_["params"]) == 8
    assert search.best_estimator_.score(X, y) > 0.7


@pytest.mark.parametrize("rule", ["standard", *VALID_RULES])
def test_beam_training_learns(rule):
    X, y = make_chain_data(150, n_labels=4, n_words=25, random_state=3)
    est = StructuredPerceptron(
        BeamSearch(beam_size=2, order=2),
        update=rule,
        features=TokenFeatures(),
        max_iter=5,
        random_state=0,
    )
    est.fit(X[:100], y[:100])
    assert est.score(X[100:], y[100:]) > 0.7  # exact Viterbi reaches 0.82 on this split
    assert {"invalid_updates", "invalid_standard", "mean_violation"} <= set(est.history_[0])


def test_wide_beam_predicts_like_viterbi():
    X, y = make_chain_data(80, n_labels=3, n_words=20, random_state=4)
    viterbi = StructuredPerceptron(features=TokenFeatures(), random_state=0).fit(X, y)
    beam = StructuredPerceptron(BeamSearch(beam_size=3), features=TokenFeatures(), random_state=0)
    beam.fit(X[:2], y[:2])  # any fitted state; then share the weights
    beam.coef_, beam.structure_, beam.encoder_ = viterbi.coef_, viterbi.structure_, viterbi.encoder_
    beam.classes_, beam.features_ = viterbi.classes_, viterbi.features_
    assert beam.score(X, y) == pytest.approx(viterbi.score(X, y))


def test_rule_objects_and_bad_names():
    from sklearn.utils._param_validation import InvalidParameterError

    X, y = make_chain_data(20, random_state=0)
    StructuredPerceptron(
        Greedy(), update=UPDATE_RULES["latest"](), features=TokenFeatures(), max_iter=1
    ).fit(X, y)
    with pytest.raises(InvalidParameterError):
        StructuredPerceptron(update="maxviolation").fit(X, y)
    with pytest.raises(InvalidParameterError):
        StructuredPerceptron(BeamSearch(beam_size=0)).fit(X, y)
