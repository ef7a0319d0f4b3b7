"""CKY (skstruct._kernels.cky) against enumeration of every tree of small grammars, the
treebank grammar (Grammar), and the PCFG baseline."""

import itertools

import numpy as np
import pytest
from scipy.special import logsumexp

from skstruct._kernels import cky
from skstruct.learners.pcfg import PCFG
from skstruct.trees import ROOT, Grammar, Tree, TreeTransform


def _all_trees(grammar, scores, tags, i, j, unary_allowed):
    """``[(score, tree)]`` of every tree over tags ``i..j-1`` per top symbol: a dict."""
    binary, unary, _ = scores
    out = {}
    if j - i == 1:
        out.setdefault(grammar.index[tags[i]], []).append((0.0, ("tag", i)))
    else:
        for k in range(i + 1, j):
            lefts = _all_trees(grammar, scores, tags, i, k, True)
            rights = _all_trees(grammar, scores, tags, k, j, True)
            for r, (a, b, c) in enumerate(grammar.binary.tolist()):
                for (sl, tl), (sr, tr) in itertools.product(lefts.get(b, []), rights.get(c, [])):
                    out.setdefault(a, []).append((sl + sr + binary[r], ("bin", a, tl, tr)))
    if unary_allowed:
        base = {a: list(v) for a, v in out.items()}
        for u, (a, b) in enumerate(grammar.unary.tolist()):
            for s, t in base.get(b, []):
                out.setdefault(a, []).append((s + unary[u], ("un", a, t)))
    return out


def _random_grammar(seed):
    rng = np.random.default_rng(seed)
    phrases, tags = ["S", "NP", "VP", "X"], ["a", "b"]
    symbols = phrases + tags
    binary = {(a, b, c): 1 for a in phrases for b in symbols for c in symbols if rng.random() < 0.3}
    unary = {(a, b): 1 for a in phrases for b in symbols if a != b and rng.random() < 0.2}
    root = dict.fromkeys([p for p in phrases if rng.random() < 0.7] or ["S"], 1)
    grammar = Grammar(binary, unary, root, tags)
    root_scores = np.where(grammar.root_counts > 0, rng.normal(size=grammar.n_symbols), -np.inf)
    scores = (
        rng.normal(size=len(grammar.binary)),
        rng.normal(size=len(grammar.unary)),
        root_scores,
    )
    return grammar, scores, rng


def _sentences(grammar, rng, lengths=(1, 2, 3, 4)):
    """``(n, tags, tag ids)`` of random sentences of each length."""
    for n in lengths:
        tags = [str(t) for t in rng.choice(["a", "b"], size=n)]
        yield n, tags, np.array([grammar.index[t] for t in tags], dtype=np.int64)


@pytest.mark.parametrize("seed", range(12))
def test_cky_finds_the_best_of_every_tree(seed):
    grammar, scores, rng = _random_grammar(seed)
    binary, unary, root = scores
    for n, tags, ids in _sentences(grammar, rng):
        best, top, split, rule, urule = cky.viterbi(
            ids, grammar.n_symbols, grammar.binary, binary, grammar.left_start, grammar.unary,
            unary, root,
        )  # fmt: skip
        every = _all_trees(grammar, scores, tags, 0, n, True)
        candidates = [s + root[a] for a, trees in every.items() for s, _ in trees
                      if root[a] > -np.inf]  # fmt: skip
        if not candidates:
            assert top == -1 and best == -np.inf
            continue
        assert best == pytest.approx(max(candidates), abs=1e-9)
        tree = grammar.tree([f"w{i}" for i in range(n)], tags, top, split, rule, urule)
        assert tree.label() == ROOT and [t for _, t in tree.pos()] == tags
        assert _score(grammar, scores, tree) == pytest.approx(best, abs=1e-9)


def _score(grammar, scores, tree):
    """The score of a binarised tree under the rule scores (its root rule included)."""
    binary, unary, root = scores
    rules_b = {tuple(r): k for k, r in enumerate(grammar.binary.tolist())}
    rules_u = {tuple(r): k for k, r in enumerate(grammar.unary.tolist())}
    ix = grammar.index

    def walk(node):
        if node.is_preterminal():
            return 0.0
        if len(node) == 2:
            key = (ix[node.label()], ix[node[0].label()], ix[node[1].label()])
            return binary[rules_b[key]] + walk(node[0]) + walk(node[1])
        return unary[rules_u[(ix[node.label()], ix[node[0].label()])]] + walk(node[0])

    top = tree[0] if len(tree) == 1 else tree
    return root[ix[top.label()]] + walk(top)


def test_grammar_counts_the_rules_of_binarised_trees():
    trees = [Tree.fromstring("( (S (NP (DT the) (NN dog)) (VP (VBZ barks))) )")] * 2
    grammar = Grammar.count(TreeTransform(vertical=1).fit_transform(trees))
    rules = {tuple(grammar.symbols[x] for x in r): c
             for r, c in zip(grammar.binary.tolist(), grammar.binary_counts)}  # fmt: skip
    assert rules == {("S", "NP", "VP"): 2, ("NP", "DT", "NN"): 2}
    unaries = {tuple(grammar.symbols[x] for x in r) for r in grammar.unary.tolist()}
    assert unaries == {("VP", "VBZ")}
    binary, unary, root = grammar.log_probabilities()
    assert np.allclose(binary, 0.0) and np.allclose(unary, 0.0)
    assert root[grammar.index["S"]] == 0.0 and grammar.tags == {"DT", "NN", "VBZ"}


def test_the_pcfg_parses_what_it_was_trained_on():
    trees = [
        Tree.fromstring("( (S (NP (DT the) (NN dog)) (VP (VBZ barks))) )"),
        Tree.fromstring("( (S (NP (PRP it)) (VP (VBZ sees) (NP (DT the) (NN cat)))) )"),
    ]
    X = [[{"form": w, "xpos": t} for w, t in tree.pos()] for tree in trees]
    model = PCFG().fit(X, trees)
    assert model.predict(X) == trees and model.n_unparsed_ == 0
    assert model.score(X, trees) == 1.0
    with pytest.raises(ValueError, match="Example 0: tag 'JJ' was never seen"):
        model.predict([[{"form": "big", "xpos": "JJ"}]])
    with pytest.raises(ValueError, match="Example 0: the words of X\\[0\\]"):
        PCFG().fit(X, trees[::-1])
    # the discriminative parsers' input: (word, tag) pairs and bracketed strings too
    pairs = [tree.pos() for tree in trees]
    assert PCFG().fit(pairs, [str(t) for t in trees]).predict(pairs) == trees


@pytest.mark.parametrize(
    "call, error, match",
    [  # found by fuzzing: len() and iteration errors of Python before any check
        (lambda: PCFG().fit(None, []), TypeError, "X must be a list of sentences, got NoneType"),
        (lambda: PCFG().fit([1.5], ["( (NN x) )"]), TypeError, r"Example 0: X\[0\] must be a"),
        (lambda: PCFG().fit([], []), ValueError, "X is empty"),
        (lambda: PCFG().fit([[("x", "NN")]], 3), TypeError, "y must be a list of trees"),
        (lambda: PCFG().fit([[("x", "NN")]], ["( (NN x)"]), ValueError, r"y\[0\] is no tree"),
        (lambda: _fitted().predict([True]), TypeError, r"Example 0: X\[0\] must be a list"),
        (lambda: _fitted().predict([[]]), ValueError, r"Example 0: X\[0\] is an empty sentence"),
    ],
)
def test_bad_input_is_named(call, error, match):
    with pytest.raises(error, match=match):
        call()


def _fitted():
    return PCFG().fit([[("x", "NN")]], ["( (S (NN x)) )"])


def _rule_counts(grammar, tags, weighted_trees):
    """Expected counts of every binary, unary and root rule under ``weighted_trees``
    (``(weight, top symbol, tree)`` as :func:`_all_trees` builds trees)."""
    rules_b = {tuple(r): k for k, r in enumerate(grammar.binary.tolist())}
    rules_u = {tuple(r): k for k, r in enumerate(grammar.unary.tolist())}
    counts_b, counts_u = np.zeros(len(rules_b)), np.zeros(len(rules_u))
    counts_r = np.zeros(grammar.n_symbols)

    def top(node):
        return grammar.index[tags[node[1]]] if node[0] == "tag" else node[1]

    def count(node, weight):
        if node[0] == "bin":
            _, a, left, right = node
            counts_b[rules_b[(a, top(left), top(right))]] += weight
            count(left, weight)
            count(right, weight)
        elif node[0] == "un":
            _, a, below = node
            counts_u[rules_u[(a, top(below))]] += weight
            count(below, weight)

    for weight, a, tree in weighted_trees:
        counts_r[a] += weight
        count(tree, weight)
    return counts_b, counts_u, counts_r


@pytest.mark.parametrize("seed", range(10))
def test_inside_outside_equals_sums_over_every_tree(seed):
    grammar, scores, rng = _random_grammar(seed)
    binary, unary, root = scores
    for n, tags, ids in _sentences(grammar, rng):
        log_z, *counts = cky.inside_outside(
            ids, grammar.n_symbols, grammar.binary, binary, grammar.left_start, grammar.unary,
            unary, root,
        )  # fmt: skip
        every = _all_trees(grammar, scores, tags, 0, n, True)
        trees = [(s + root[a], a, t) for a, ts in every.items() for s, t in ts if root[a] > -np.inf]
        if not trees:
            assert log_z == -np.inf and not counts[0].any()
            continue
        logits = np.array([s for s, _, _ in trees])
        assert log_z == pytest.approx(logsumexp(logits), abs=1e-9)
        p = np.exp(logits - logsumexp(logits))
        want = _rule_counts(grammar, tags, [(w, a, t) for w, (_, a, t) in zip(p, trees)])
        for got, expected in zip(counts, want):
            np.testing.assert_allclose(got, expected, atol=1e-9)


def _span(tree):
    """``(i, j)``: the words a tree of ``_all_trees`` spans."""
    if tree[0] == "tag":
        return tree[1], tree[1] + 1
    if tree[0] == "un":
        return _span(tree[2])
    return _span(tree[2])[0], _span(tree[3])[1]


def _nodes(tree):
    """Every ``(i, j, symbol)`` labelled span of a tree of ``_all_trees`` but its tags."""
    if tree[0] == "tag":
        return set()
    return {(*_span(tree), tree[1])}.union(*(_nodes(below) for below in tree[2:]))


@pytest.mark.parametrize("seed", range(10))
def test_span_max_marginals_equal_maxima_over_every_tree(seed):
    grammar, scores, rng = _random_grammar(seed)
    binary, unary, root = scores
    for n, tags, ids in _sentences(grammar, rng):
        post = cky.span_posteriors(
            ids, grammar.n_symbols, grammar.binary, binary, grammar.left_start, grammar.unary,
            unary, root, True,
        )  # fmt: skip
        every = _all_trees(grammar, scores, tags, 0, n, True)
        trees = [(s + root[a], t) for a, ts in every.items() for s, t in ts if root[a] > -np.inf]
        expected = np.zeros_like(post)
        if trees:
            best = max(score for score, _ in trees)
            for score, tree in trees:
                nodes = _nodes(tree) | {(i, i + 1, grammar.index[tags[i]]) for i in range(n)}
                for i, j, a in nodes:
                    expected[i, j, a] = max(expected[i, j, a], np.exp(score - best))
        np.testing.assert_allclose(post, expected, atol=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_pruned_cells_are_the_spans_posteriors_keep(seed):
    # pruned_cells (the pruning pass) against span_posteriors' maxima, in charts made for
    # longer sentences and reused, long to short and short to long
    grammar, scores, rng = _random_grammar(seed)
    binary, unary, root = scores
    charts = cky.pruning_charts(7, grammar.n_symbols)
    for chart in charts:
        chart[:] = rng.integers(-3, 3, chart.size)  # garbage from an earlier sentence
    for _, _, ids in _sentences(grammar, rng, lengths=(7, 1, 3, 6, 2, 7, 4)):
        args = (ids, grammar.n_symbols, grammar.binary, binary, grammar.left_start,
                grammar.unary, unary, root)  # fmt: skip
        post = cky.span_posteriors(*args, True)
        for threshold in (1e-5, 0.05, 0.5, 1.0):
            kept = cky.pruned_cells(*args, threshold, *charts)
            np.testing.assert_array_equal(kept, np.flatnonzero(post.ravel() >= threshold))
            assert kept.dtype == np.int64


def test_a_saved_pcfg_parses_as_it_did(tmp_path):
    from skstruct import load, save

    trees = [
        Tree.fromstring("( (S (NP (DT the) (NN dog)) (VP (VBZ barks))) )"),
        Tree.fromstring("( (S (NP (PRP it)) (VP (VBZ sees) (NP (DT the) (NN cat)))) )"),
    ]
    X = [[{"form": w, "xpos": t} for w, t in tree.pos()] for tree in trees]
    model = PCFG(horizontal=2).fit(X, trees)
    save(model, tmp_path / "pcfg.skstruct")
    loaded = load(tmp_path / "pcfg.skstruct")
    assert loaded.get_params() == model.get_params()
    assert loaded.predict(X) == model.predict(X) == trees
