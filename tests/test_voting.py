"""VotingParser (reparsing) and ReversedParser, against brute-force twins."""

import itertools

import numpy as np
import pytest
from sklearn.base import BaseEstimator, clone

from skstruct import (
    ArcEager,
    ArcStandard,
    ChuLiuEdmonds,
    Eisner,
    ReversedParser,
    StructuredPerceptron,
    VotingParser,
    load,
    save,
)
from skstruct.voting import _mirror

# ------------------------------------------------------------------ twins


def _is_tree(heads):
    """Every word reaches the root (0) without a cycle."""
    for d in range(1, len(heads) + 1):
        seen, h = set(), d
        while h != 0:
            if h in seen:
                return False
            seen.add(h)
            h = heads[h - 1]
    return True


def _is_projective(heads):
    arcs = [(min(h, d), max(h, d)) for d, h in enumerate(heads, start=1)]
    return not any(a < c < b < e for a, b in arcs for c, e in arcs)


def _trees(n, projective):
    """Every single-rooted tree of ``n`` words (projective ones only if asked)."""
    for heads in itertools.product(range(n + 1), repeat=n):
        if any(h == d for d, h in enumerate(heads, start=1)) or heads.count(0) != 1:
            continue
        if _is_tree(heads) and (not projective or _is_projective(heads)):
            yield list(heads)


def _votes(votes, trees, heads):
    return sum(v * sum(a == b for a, b in zip(t, heads)) for v, t in zip(votes, trees))


@pytest.mark.parametrize("decoder", [Eisner(), ChuLiuEdmonds()], ids=["eisner", "cle"])
@pytest.mark.parametrize("seed", range(30))
def test_reparsing_finds_the_tree_with_the_most_votes(decoder, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 6))
    projective = isinstance(decoder, Eisner)
    candidates = list(_trees(n, projective=False))
    trees = [candidates[i] for i in rng.integers(len(candidates), size=int(rng.integers(1, 5)))]
    votes = rng.uniform(0.5, 2.0, size=len(trees))
    best = VotingParser.reparse(decoder, votes, trees)
    assert best in list(_trees(n, projective))  # well formed, whatever the voters gave
    assert _votes(votes, trees, best) == pytest.approx(
        max(_votes(votes, trees, t) for t in _trees(n, projective))
    )


def test_a_majority_wins_and_ties_go_to_the_first_parser():
    a, b = [2, 0, 2, 3], [0, 1, 2, 3]
    votes = np.ones(3)
    assert VotingParser.reparse(Eisner(), votes, [a, b, b]) == b
    assert VotingParser.reparse(Eisner(), votes, [b, a, a]) == a
    tied = np.array([1.0 + 1e-6, 1.0])
    assert VotingParser.reparse(Eisner(), tied, [a, b]) == a
    assert VotingParser.reparse(Eisner(), tied, [b, a]) == b


@pytest.mark.parametrize("decoder", [Eisner(), ChuLiuEdmonds()], ids=["eisner", "cle"])
@pytest.mark.parametrize("seed", range(20))
def test_the_order_of_parsers_voting_1_after_the_first_changes_no_tree(decoder, seed):
    # UDPipeline lists its slowest parsers first for the threads' sake: that must not
    # change a vote (predict's weights: the first's plus its tie-break, the others' 1)
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    candidates = list(_trees(n, projective=False))
    trees = [candidates[i] for i in rng.integers(len(candidates), size=6)]
    votes = np.array([2.0 + 2e-6, 1.0, 1.0, 1.0, 1.0, 1.0])
    best = VotingParser.reparse(decoder, votes, trees)
    for _ in range(5):
        others = [trees[1 + i] for i in rng.permutation(5)]
        assert VotingParser.reparse(decoder, votes, [trees[0], *others]) == best


def test_non_projective_votes_get_a_projective_tree_from_eisner_and_theirs_from_cle():
    crossing = [3, 4, 0, 3]  # 3 -> 1 crosses 4 -> 2
    assert not _is_projective(crossing)
    assert VotingParser.reparse(ChuLiuEdmonds(), np.ones(1), [crossing]) == crossing
    assert _is_projective(VotingParser.reparse(Eisner(), np.ones(1), [crossing]))


# ------------------------------------------------------------------ ReversedParser


def test_mirroring_twice_is_the_identity():
    rng = np.random.default_rng(0)
    for n in range(1, 8):
        heads = rng.integers(0, n + 1, size=n).tolist()
        assert _mirror(_mirror(heads, n), n) == heads
    assert _mirror([2, 0, 2], 3) == [2, 0, 2]
    assert _mirror([0, 1, 2], 3) == [2, 3, 0]


class _LeftHeads(BaseEstimator):
    """Each word's head is the word before it, in the order the parser reads."""

    def fit(self, X, y):
        self.seen_ = (X, y)
        return self

    def predict(self, X):
        return [list(range(len(s))) for s in X]


def test_the_reversed_parser_reads_right_to_left_and_answers_left_to_right():
    X = [["a", "b", "c"], ["d"]]
    y = [[0, 1, 2], [0]]
    parser = ReversedParser(_LeftHeads()).fit(X, y)
    seen_X, seen_y = parser.parser_.seen_
    assert seen_X == [["c", "b", "a"], ["d"]]
    assert seen_y == [[2, 3, 0], [0]]
    # "each word's head is the one before it" read backwards: the one after it
    assert parser.predict(X) == [[2, 3, 0], [0]]


# ------------------------------------------------------------------ on real sentences


def _beam(system):
    return StructuredPerceptron(
        system(beam_size=4, projectivize=True), update="max_violation", max_iter=2,
        random_state=0,
    )  # fmt: skip


def _voting(**params):
    parsers = [
        ("graph", StructuredPerceptron(Eisner(projectivize=True), max_iter=2, random_state=0)),
        ("eager", _beam(ArcEager)),
        ("eager_rtl", ReversedParser(_beam(ArcEager))),
        ("standard", _beam(ArcStandard)),
    ]
    return VotingParser(parsers, **params)


@pytest.fixture(scope="module")
def ewt_heads(conllu_head):
    # the vote, not accuracy, is tested: 300 sentences of up to 30 words keep it short
    X, y = conllu_head("ud-ewt", "en_ewt-ud-train.conllu", 300, max_words=30)
    X_dev, y_dev = conllu_head("ud-ewt", "en_ewt-ud-dev.conllu", 60)
    return X, [list(map(int, hs)) for hs in y], X_dev, [list(map(int, hs)) for hs in y_dev]


@pytest.mark.data
def test_voting_parses_ewt_with_every_parser_and_n_jobs_changes_nothing(ewt_heads, tmp_path):
    X, y, X_dev, y_dev = ewt_heads
    voting = _voting().fit(X, y)
    predicted = voting.predict(X_dev)
    for sentence, heads in zip(X_dev, predicted):
        assert isinstance(heads, list) and len(heads) == len(sentence)
        assert heads.count(0) == 1 and _is_tree(heads) and _is_projective(heads)
    # every sentence's tree has the most votes of the four parsers' trees
    trees = [p.predict(X_dev) for p in voting.parsers_]
    for i, heads in enumerate(predicted):
        mine = _votes(np.ones(4), [t[i] for t in trees], heads)
        assert all(mine >= _votes(np.ones(4), [t[i] for t in trees], t[i]) for t in trees)
    assert list(voting.named_parsers_) == ["graph", "eager", "eager_rtl", "standard"]
    assert voting.score(X_dev, y_dev) == pytest.approx(
        np.mean([a == b for hs, gs in zip(predicted, y_dev) for a, b in zip(hs, gs)])
    )
    assert _voting(n_jobs=2).fit(X, y).predict(X_dev) == predicted
    save(voting, tmp_path / "voting.skstruct")
    assert load(tmp_path / "voting.skstruct").predict(X_dev) == predicted


def test_nested_parameters_as_in_a_voting_classifier():
    voting = _voting(weights=[2, 1, 1, 1])
    params = voting.get_params()
    assert params["eager__max_iter"] == 2 and params["graph"] is voting.parsers[0][1]
    voting.set_params(eager__max_iter=5, weights=[1, 1, 1, 1])
    assert voting.parsers[1][1].max_iter == 5 and voting.weights == [1, 1, 1, 1]
    other = StructuredPerceptron(ArcEager())
    assert voting.set_params(standard=other).parsers[3] == ("standard", other)
    copy = clone(voting)
    assert copy.parsers[1][1].max_iter == 5 and copy.parsers[1][1] is not voting.parsers[1][1]
    with pytest.raises(ValueError, match="no parser named 'nope'"):
        voting.set_params(nope__max_iter=1)


# ------------------------------------------------------------------ bad input

X2 = [[{"form": "Dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]] * 3


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"parsers": []}, "non-empty list of \\(name, parser\\) tuples"),
        ({"parsers": [StructuredPerceptron(Eisner())]}, "non-empty list"),
        ({"parsers": [("a", StructuredPerceptron()), ("a", StructuredPerceptron())]}, "distinct"),
        ({"parsers": [("weights", StructuredPerceptron(Eisner()))]}, "clash"),
        ({"weights": [1, 1]}, "weights has shape \\(2,\\), but there are 4 parsers"),
        ({"weights": [1, 1, 0, 1]}, "positive"),
        ({"decoder": Eisner(order=2)}, "first order"),
    ],
)
def test_bad_settings_are_named(params, message):
    voting = _voting().set_params(**{k: v for k, v in params.items() if k != "parsers"})
    if "parsers" in params:
        voting = VotingParser(params["parsers"])
    with pytest.raises(ValueError, match=message):
        voting.fit(X2, [[2, 0]] * 3)


@pytest.mark.parametrize(
    ("y", "message"),
    [
        ([[2, 0]] * 2, "X has 3 sentences but y has 2"),
        ([[2, 0], [2], [2, 0]], "Example 1: 2 words but 1 heads"),
        ([[2, 0], [2, 0], [(2, "nsubj"), (0, "root")]], "Example 2: y\\[2\\]\\[0\\] is"),
        ([[2, 0], [3, 0], [2, 0]], "Example 1: y\\[1\\]\\[0\\] = 3 is not a word"),
    ],
)
@pytest.mark.parametrize("estimator", ["voting", "reversed"])
def test_bad_heads_name_the_example(y, message, estimator):
    parser = _voting() if estimator == "voting" else ReversedParser(_beam(ArcEager))
    with pytest.raises(ValueError, match=message):
        parser.fit(X2, y)


def test_predict_before_fit_says_so():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        _voting().predict(X2)
    with pytest.raises(NotFittedError):
        ReversedParser(_beam(ArcEager)).predict(X2)
