"""Reranking over explicit candidate sets: the structure (CandidateSets) against sums
over every candidate, its decoder's batch path against its one-example path, every
learner on separable data, and the estimator contract (scorers, GridSearchCV, save and
load, bad input)."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import logsumexp
from sklearn.model_selection import GridSearchCV

from skstruct import (
    AROW,
    SWVP,
    BestCandidate,
    ConditionalRandomField,
    ExponentiatedGradientSSVM,
    ParameterMixing,
    PassiveAggressive,
    StructuredPerceptron,
    StructuredSVM,
    load,
    save,
)
from skstruct.datasets import make_candidate_data
from skstruct.metrics import (
    mean_candidate_loss,
    mean_candidate_loss_scorer,
    top1_accuracy,
    top1_scorer,
)
from skstruct.structures import CandidateSets, Structure
from skstruct.tasks.reranking import EncodedCandidates

# -- the structure against every candidate ---------------------------------------------------


def _encoded(seed, n_examples=4, n_features=8):
    """Random candidate sets (some rows empty, some repeated) with random losses."""
    rng = np.random.default_rng(seed)
    rows, offsets = [], [0]
    for _ in range(n_examples):
        k = int(rng.integers(1, 6))
        for _ in range(k):
            row = np.zeros(n_features)
            active = rng.choice(n_features, size=int(rng.integers(0, 4)), replace=False)
            row[active] = rng.choice([1.0, 0.5, -2.0], size=active.size)
            rows.append(row)
        if k > 1 and rng.random() < 0.5:
            rows[-1] = rows[-2].copy()  # a tie
        offsets.append(len(rows))
    matrix = sp.csr_matrix(np.array(rows))
    losses = rng.uniform(0, 3, size=len(rows)).round(1)
    encoded = EncodedCandidates(matrix.indptr.astype(np.int64), matrix.indices.astype(np.int32),
                                matrix.data.astype(np.float64), np.array(offsets, np.int64),
                                n_features, losses)  # fmt: skip
    return CandidateSets(n_features), encoded, np.array(rows), rng.normal(size=n_features)


def _examples(seed):
    """Per example: ``(i, its rows, its losses, the gold (least loss), every output)``."""
    structure, encoded, rows, coef = _encoded(seed)
    for i in range(encoded.n_sentences):
        lo, hi = encoded.offsets[i], encoded.offsets[i + 1]
        losses = encoded.losses[lo:hi]
        outputs = [np.array([c], dtype=np.int32) for c in range(hi - lo)]
        yield structure, encoded, coef, i, rows[lo:hi], losses, outputs[np.argmin(losses)], outputs


SEEDS = pytest.mark.parametrize("seed", range(4))


@SEEDS
def test_scores_loss_and_augment_equal_their_twins(seed):
    for structure, encoded, coef, i, rows, losses, gold, outputs in _examples(seed):
        scores = structure.scores(encoded, i, coef)
        augmented = structure.augment(scores, gold)
        for c, output in enumerate(outputs):
            assert structure.score(scores, output) == pytest.approx(rows[c] @ coef, abs=1e-12)
            loss = structure.loss(encoded, i, gold, output)
            assert loss == pytest.approx(losses[c] - losses.min(), abs=1e-12)
            assert structure.score(augmented, output) == pytest.approx(
                rows[c] @ coef + loss, abs=1e-12
            )
            weighted = structure.augment(scores, gold, loss_weight=-1.5)  # batch EG's
            assert structure.score(weighted, output) == pytest.approx(
                rows[c] @ coef - 1.5 * loss, abs=1e-12
            )


@SEEDS
def test_marginals_expected_loss_and_features_equal_enumeration(seed):
    for structure, encoded, coef, i, rows, losses, gold, _ in _examples(seed):
        scores = structure.scores(encoded, i, coef)
        log_z, mu = structure.marginals(scores)
        logits = rows @ coef
        p = np.exp(logits - logsumexp(logits))
        assert log_z == pytest.approx(logsumexp(logits), rel=1e-12)
        np.testing.assert_allclose(mu.values, p, rtol=1e-12)
        assert structure.expected_loss(mu, gold) == pytest.approx(
            p @ (losses - losses.min()), abs=1e-12
        )
        want = rows[int(gold[0])] - p @ rows
        keys, values = structure.expected_delta(encoded, i, gold, mu)
        got = np.zeros_like(want)
        got[keys] = values
        np.testing.assert_allclose(got, want, atol=1e-12)
        added = np.zeros_like(want)
        Structure.add_expected_delta(structure, added, encoded, i, gold, mu, 2.0)
        np.testing.assert_allclose(added, 2.0 * want, atol=1e-12)


@SEEDS
def test_delta_is_the_difference_of_the_candidates_scores(seed):
    for structure, encoded, coef, i, rows, _, gold, outputs in _examples(seed):
        scores = structure.scores(encoded, i, coef)
        for output in outputs:
            keys, values = structure.delta(encoded, i, gold, output)
            assert np.all(np.diff(keys) > 0) and np.all(values != 0)
            assert float(coef[keys] @ values) == pytest.approx(
                structure.score(scores, gold) - structure.score(scores, output), abs=1e-12
            )
            updated = np.zeros_like(coef)
            structure.add_delta(encoded, i, gold, output, updated, 3.0)
            np.testing.assert_allclose(updated, 3.0 * (rows[int(gold[0])] - rows[output[0]]))


@SEEDS
def test_decode_picks_the_first_best_and_predict_equals_it(seed):
    decoder = BestCandidate()
    structure, encoded, _, coef = _encoded(seed, n_examples=20)
    batch = decoder.predict(structure, encoded, coef)
    for i in range(encoded.n_sentences):
        scores = structure.scores(encoded, i, coef)
        (best,) = decoder.decode(structure, scores)
        assert best == batch[i]
        assert best == int(np.flatnonzero(scores.values == scores.values.max())[0])
    np.testing.assert_array_equal(structure.output_offsets(encoded), np.arange(21))


# -- every learner ---------------------------------------------------------------------------

LEARNERS = {
    "perceptron": lambda: StructuredPerceptron(BestCandidate(), max_iter=30, random_state=0),
    "passive-aggressive": lambda: PassiveAggressive(BestCandidate(), max_iter=30, random_state=0),
    "arow": lambda: AROW(BestCandidate(), max_iter=30, random_state=0),
    "crf": lambda: ConditionalRandomField(BestCandidate(), c2=1e-4, max_iter=300),
    "bcfw": lambda: StructuredSVM(BestCandidate(), C=10.0, max_iter=100, random_state=0),
    "eg": lambda: ExponentiatedGradientSSVM(BestCandidate(), C=10.0, max_iter=100, random_state=0),
    "mixing": lambda: ParameterMixing(
        StructuredPerceptron(BestCandidate(), random_state=0),
        n_shards=2,
        max_iter=30,
        random_state=0,
    ),
}
SEPARABLE = make_candidate_data(60, n_candidates=(2, 8), margin=0.5, random_state=0)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", list(LEARNERS))
def test_every_learner_reaches_the_best_candidate_of_separable_data(name):
    X, y = SEPARABLE
    model = LEARNERS[name]().fit(X, y)
    predicted = model.predict(X)
    assert all(isinstance(c, int) for c in predicted)
    assert top1_accuracy(y, predicted) == 1.0
    assert model.score(X, y) == 1.0
    assert mean_candidate_loss(y, predicted) == 0.0


def test_swvp_refuses_candidates():
    X, y = SEPARABLE
    with pytest.raises(ValueError, match="whole candidates"):
        SWVP(BestCandidate()).fit(X, y)


def test_held_out_candidates_are_ranked_by_what_was_learnt():
    X, y = make_candidate_data(300, margin=0.2, random_state=1)
    model = StructuredPerceptron(BestCandidate(), random_state=0).fit(X[:200], y[:200])
    chance = np.mean([1.0 / len(c) for c in X[200:]])
    assert model.score(X[200:], y[200:]) > chance + 0.4
    assert model.score(X[200:], y[200:]) == top1_accuracy(y[200:], model.predict(X[200:]))


def test_an_index_is_the_same_as_zero_one_losses():
    X, y = SEPARABLE
    index = [int(np.argmin(losses)) for losses in y]
    zero_one = [np.where(np.arange(len(losses)) == g, 0.0, 1.0) for losses, g in zip(y, index)]
    a = StructuredSVM(BestCandidate(), random_state=0, max_iter=5).fit(X, index)
    b = StructuredSVM(BestCandidate(), random_state=0, max_iter=5).fit(X, zero_one)
    np.testing.assert_array_equal(a.coef_, b.coef_)


def test_matrices_of_candidates_learn_what_dicts_do():
    X, y = SEPARABLE
    columns = sorted({f for candidates in X for c in candidates for f in c})
    at = {f: j for j, f in enumerate(columns)}
    matrices = []
    for candidates in X:
        m = np.zeros((len(candidates), len(columns)))
        for r, c in enumerate(candidates):
            for f, v in c.items():
                m[r, at[f]] = v
        matrices.append(sp.csr_matrix(m) if len(matrices) % 2 else m)
    dicts = StructuredPerceptron(BestCandidate(), random_state=0).fit(X, y)
    dense = StructuredPerceptron(BestCandidate(), random_state=0).fit(matrices, y)
    assert dense.predict(matrices) == dicts.predict(X)
    assert dense.coef_.shape == (len(columns),)
    with pytest.raises(ValueError, match="Example 0: X\\[0\\] has 3 columns"):
        dense.predict([np.zeros((2, 3))])
    with pytest.raises(TypeError, match="list of dicts"):
        dicts.predict(matrices[:1])


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_n_jobs_changes_nothing(n_jobs):
    X, y = SEPARABLE
    one = StructuredPerceptron(BestCandidate(), random_state=0, n_jobs=1).fit(X, y)
    other = StructuredPerceptron(BestCandidate(), random_state=0, n_jobs=n_jobs).fit(X, y)
    np.testing.assert_array_equal(one.coef_, other.coef_)


def test_grid_search_with_the_reranking_scorers():
    X, y = make_candidate_data(90, noise=0.3, random_state=2)
    search = GridSearchCV(
        StructuredSVM(BestCandidate(), max_iter=5, random_state=0),
        {"C": [0.01, 1.0]},
        scoring={"top1": top1_scorer, "loss": mean_candidate_loss_scorer},
        refit="loss",
        cv=3,
    ).fit(X, y)
    assert np.all(np.isfinite(search.cv_results_["mean_test_top1"]))
    assert np.all(search.cv_results_["mean_test_loss"] <= 0.0)  # negated losses
    assert search.best_estimator_.predict(X[:3]) == search.predict(X[:3])


@pytest.mark.parametrize("make", [LEARNERS["perceptron"], LEARNERS["crf"], LEARNERS["eg"]])
def test_save_and_load_give_the_same_choices(make, tmp_path):
    X, y = SEPARABLE
    model = make().fit(X[:20], y[:20])
    save(model, tmp_path / "reranker.skstruct")
    loaded = load(tmp_path / "reranker.skstruct")
    assert loaded.predict(X) == model.predict(X)
    assert loaded.score(X, y) == model.score(X, y)


@pytest.mark.parametrize(
    "X, y, error, match",
    [
        ([[{"a": 1.0}]], [1], ValueError, r"Example 0: y\[0\] = 1 is no candidate index"),
        (
            [[{"a": 1.0}], [{"b": 1.0}]],
            [0, [0.0, 1.0]],
            ValueError,
            r"Example 1: y\[1\] has 2 losses for 1 candidates",
        ),
        ([[{"a": 1.0}], []], [0, 0], ValueError, r"Example 1: X\[1\] has no candidate"),
        ([[{"a": 1.0}, "b"]], [0], TypeError, r"Example 0: X\[0\] must be a list of candidates"),
        ([[{"a": 1.0}, {"b": 1.0}]], [[0.0, np.nan]], ValueError, "finite numbers"),
        ([[{"a": 1.0}, {"b": 1.0}]], ["x"], TypeError, r"y\[0\] must be the gold candidate"),
        ([[{"a": 1.0}]], [0, 0], ValueError, "different numbers of examples"),
        ([np.zeros(3)], [0], ValueError, "2-D array"),
    ],
)
def test_bad_input_is_refused_naming_the_example(X, y, error, match):
    with pytest.raises(error, match=match):
        StructuredPerceptron(BestCandidate()).fit(X, y)


def test_eg_duality_gap_closes_on_candidates():
    """The slides' "Convergence on a parse reranking task": primal and dual meet."""
    X, y = make_candidate_data(40, noise=0.5, random_state=3)
    model = ExponentiatedGradientSSVM(BestCandidate(), C=1.0, max_iter=200, tol=None,
                                      random_state=0).fit(X, y)  # fmt: skip
    history = model.history_
    duals = np.array([h["dual"] for h in history])
    assert np.all(np.diff(duals) >= -1e-9)
    assert all(h["gap"] >= -1e-9 for h in history)
    assert history[-1]["gap"] < 5e-3 * history[-1]["primal"]  # seen: 1.7e-3
    assert history[-1]["gap"] < 0.01 * history[0]["gap"]


def test_metrics_of_chosen_candidates():
    assert top1_accuracy([0, [0.5, 0.0, 0.0]], [0, 2]) == 1.0
    assert mean_candidate_loss([1, [0.5, 0.0, 0.25]], [0, 2]) == pytest.approx(0.625)
    with pytest.raises(ValueError, match="Example 0: y_pred\\[0\\] = 3"):
        top1_accuracy([[0.0, 1.0]], [3])


def test_chain_only_methods_refuse_candidates_clearly():
    X, y = SEPARABLE
    model = StructuredPerceptron(BestCandidate(), max_iter=1, random_state=0).fit(X[:5], y[:5])
    for call in (lambda: model.predict_marginals(X[:2]), lambda: model.calibrate(X[:2], y[:2]),
                 lambda: model.state_features_):  # fmt: skip
        with pytest.raises(AttributeError, match="only defined for sequence labelling"):
            call()
    with pytest.raises(ValueError, match="BestCandidate has no n-best search"):
        model.predict_nbest(X[:2])
