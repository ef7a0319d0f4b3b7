"""The Structured Weighted Violations Perceptron (Dror & Reichart 2016)."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from skstruct import SWVP, StructuredPerceptron, TokenFeatures, Viterbi
from skstruct._kernels import swvp as kernels
from skstruct.datasets import make_chain_data, make_hmm_sequences
from skstruct.features import TokenDictEncoder
from tests import naive
from tests.test_perceptron import _as_sparse, _token_dicts


@pytest.fixture(scope="module")
def data():
    X, y = make_chain_data(120, n_labels=4, n_words=20, random_state=2)
    return TokenFeatures().fit_transform(X), y


@pytest.mark.parametrize("average", [True, False])
@pytest.mark.parametrize("order", [1, 2])
@pytest.mark.parametrize("gamma", ["wm", "wmr", "uniform"])
def test_full_substructure_is_collins_perceptron_bit_for_bit(data, average, order, gamma):
    X, y = data
    csp = StructuredPerceptron(Viterbi(order=order), average=average, max_iter=4, random_state=7)
    swvp = SWVP(
        Viterbi(order=order),
        substructures="full",
        gamma=gamma,
        average=average,
        max_iter=4,
        random_state=7,
    )
    np.testing.assert_array_equal(swvp.fit(X, y).coef_, csp.fit(X, y).coef_)


def _ranges_to_sets(kind):
    """The built-in JJ_x written as a callable, which takes the Python loop."""

    def sets(gold, pred):
        wrong = np.flatnonzero(gold != pred)
        if kind == "single":
            return [[k] for k in range(len(gold))]
        if kind == "errors":
            return [[k] for k in wrong]
        runs = np.split(wrong, np.flatnonzero(np.diff(wrong) > 1) + 1)
        return [run.tolist() for run in runs]

    return sets


@pytest.mark.parametrize("substructures", ["single", "errors", "spans"])
@pytest.mark.parametrize("gamma", ["wm", "wmr", "uniform"])
@pytest.mark.parametrize(
    ("mode", "enforce"),
    [("aggressive", True), ("aggressive", False), ("balanced", True), ("balanced", False)],
)
def test_fused_kernel_matches_python_loop(data, substructures, gamma, mode, enforce):
    X, y = data
    params = dict(
        gamma=gamma, mode=mode, beta=1.5, enforce_conditions=enforce, max_iter=3, random_state=1
    )
    fused = SWVP(substructures=substructures, **params).fit(X, y)
    loop = SWVP(substructures=_ranges_to_sets(substructures), **params).fit(X, y)
    np.testing.assert_allclose(loop.coef_, fused.coef_, atol=1e-12)
    strip = lambda h: [{k: v for k, v in r.items() if k != "seconds"} for r in h]  # noqa: E731
    assert strip(loop.history_) == strip(fused.history_)


def test_callable_gamma_matches_builtin_uniform(data):
    X, y = data
    builtin = SWVP(gamma="uniform", mode="balanced", max_iter=3, random_state=0).fit(X, y)
    custom = SWVP(
        gamma=lambda margins: np.ones_like(margins), mode="balanced", max_iter=3, random_state=0
    ).fit(X, y)
    np.testing.assert_allclose(custom.coef_, builtin.coef_, atol=1e-12)


_quarters = st.integers(-12, 12).map(lambda k: k / 4)


@given(
    arrays(np.float64, st.integers(1, 8), elements=_quarters),
    st.data(),
    st.sampled_from([kernels.GAMMA_WM, kernels.GAMMA_WMR, kernels.GAMMA_UNIFORM]),
    st.sampled_from([0.5, 1.0, 2.0, 5.0]),
    st.booleans(),
)
def test_selected_gamma_meets_the_selection_conditions(margins, data, kind, beta, aggressive):
    n = margins.shape[0]
    differs = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    used = np.zeros(n, dtype=bool)
    ranked = np.zeros(n, dtype=bool)
    gamma = np.zeros(n)
    counts = np.zeros(kernels.N_COUNTS + 1, dtype=np.int64)
    case = kernels.choose_terms(
        margins, differs, n, kind, beta, aggressive, True, used, ranked, gamma, counts
    )
    if not (differs & (margins <= 0)).any():
        assert case == 1  # nothing violates: back off to the CSP update
        return
    assert case == 0
    assert gamma.sum() == pytest.approx(1.0)  # condition (1)
    assert (gamma >= 0).all() and not gamma[~(used & differs)].any()
    assert gamma @ margins <= 1e-12  # condition (2): w . sum gamma dphi <= 0
    if aggressive:
        assert not gamma[margins > 0].any()


@pytest.mark.parametrize("seed", range(4))
def test_updates_stay_within_the_mixed_assignment_bound(seed):
    """Theorem 1: at most (R^JJ / delta^JJ)^2 updates, JJ = single positions."""
    rng = np.random.default_rng(seed)
    n_labels = 3
    while True:
        X = _token_dicts(rng, 6, 4)
        sentences = _as_sparse(TokenDictEncoder().fit_transform(X))
        model = naive.ChainModel(4, n_labels)
        u = {part: rng.normal() for part in _all_parts(4, n_labels)}
        gold = [
            max(naive.all_paths(len(s), n_labels), key=lambda z: _dot(u, model.phi(s, z)))
            for s in sentences
        ]
        if len({k for g in gold for k in g}) == n_labels:
            break
    norm = np.sqrt(sum(v * v for v in u.values()))
    delta, radius = np.inf, 0.0
    for s, g in zip(sentences, gold):
        for pos, label in itertools.product(range(len(s)), range(n_labels)):
            if label == g[pos]:
                continue
            mixed = list(g)
            mixed[pos] = label
            diff = model.phi(s, g)
            for part, v in model.phi(s, mixed).items():
                diff[part] = diff.get(part, 0.0) - v
            delta = min(delta, _dot(u, diff) / norm)
            radius = max(radius, np.sqrt(sum(v * v for v in diff.values())))
    assert delta > 0  # u separates every single-position mixed assignment
    y = [[f"L{k}" for k in g] for g in gold]
    est = SWVP(
        substructures="single",
        mode="aggressive",
        enforce_conditions=False,
        average=False,
        max_iter=200,
        random_state=seed,
    ).fit(X, y)
    assert sum(r["updates"] for r in est.history_) <= (radius / delta) ** 2


def _all_parts(n_features, n_labels):
    return itertools.chain(
        (("emission", f, k) for f in range(n_features) for k in range(n_labels)),
        (("transition", a, b) for a in range(n_labels) for b in range(n_labels)),
        (("start", k) for k in range(n_labels)),
        (("stop", k) for k in range(n_labels)),
    )


def _dot(w, counts):
    return sum(w.get(part, 0.0) * v for part, v in counts.items())


def test_all_substructures_on_short_sequences_and_a_clear_error_on_long_ones():
    X, y = make_chain_data(40, n_labels=3, n_words=10, length=(3, 6), random_state=0)
    est = SWVP(substructures="all", features=TokenFeatures(), max_iter=2, random_state=0)
    assert est.fit(X, y).score(X, y) > 0.5
    X_long, y_long = make_chain_data(3, length=20, random_state=0)
    with pytest.raises(ValueError, match=r"Example \d+: substructures='all' makes 2\*\*20"):
        SWVP(substructures="all", features=TokenFeatures(), average=False, random_state=0).fit(
            X_long, y_long
        )


def test_bad_gamma_callable_is_named(data):
    X, y = data
    with pytest.raises(ValueError, match="gamma returned"):
        SWVP(gamma=lambda m: -np.ones_like(m), max_iter=1).fit(X, y)


def test_history_counts_the_cases(data):
    X, y = data
    est = SWVP(mode="balanced", enforce_conditions=False, max_iter=3, random_state=0).fit(X, y)
    keys = {"updates", "terms", "csp_backoffs", "dropped_terms", "condition2_failures", "stuck"}
    assert keys <= set(est.history_[0])
    assert all(r["csp_backoffs"] == r["dropped_terms"] == 0 for r in est.history_)
    enforced = SWVP(mode="balanced", max_iter=3, random_state=0).fit(X, y)
    assert all(r["condition2_failures"] == 0 for r in enforced.history_)


@pytest.mark.parametrize(
    ("setup", "n_obs", "n_states", "n_next", "n_emit"),
    [(1, 5, 3, 3, 5), (2, 5, 3, 3, 5), (3, 20, 7, 3, 5)],
)
def test_hmm_setups_follow_the_papers_footnote(setup, n_obs, n_states, n_next, n_emit):
    X, y = make_hmm_sequences(setup, 3000, random_state=4)
    assert {len(s) for s in X} == {8}
    states = {label for seq in y for label in seq}
    observations = {x for seq in X for x in seq}
    assert len(states) == n_states and len(observations) <= n_obs
    successors = {s: set() for s in states}
    emitted = {s: set() for s in states}
    for xs, ys in zip(X, y):
        for a, b in itertools.pairwise(ys):
            successors[a].add(b)
        for x, s in zip(xs, ys):
            emitted[s].add(x)
    # rows are permutations of vectors with n_next / n_emit non-zero entries
    assert max(len(v) for v in successors.values()) <= n_next
    assert max(len(v) for v in emitted.values()) <= n_emit
    assert make_hmm_sequences(setup, 5, random_state=4) == (X[:5], y[:5])
    with pytest.raises(ValueError, match="setup must be one of"):
        make_hmm_sequences(4, 5)


def test_beam_decoder_takes_the_python_loop(data):
    from skstruct import BeamSearch

    X, y = data
    wide = SWVP(BeamSearch(beam_size=4), max_iter=3, random_state=0).fit(X, y)
    exact = SWVP(max_iter=3, random_state=0).fit(X, y)
    # a beam as wide as the label set is exact for a first-order chain; only the
    # tie-breaking of the two searches may differ
    assert wide.score(X, y) == pytest.approx(exact.score(X, y), abs=0.02)
    narrow = SWVP(BeamSearch(beam_size=1), max_iter=3, random_state=0).fit(X, y)
    assert narrow.score(X, y) > 0.5
