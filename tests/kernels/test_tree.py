"""Tree kernels against brute-force enumeration of trees and the Python twins in naive.py."""

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skstruct import Eisner
from skstruct._kernels import tree
from skstruct.engine._fused import Minibatch, fused_epoch
from skstruct.features import TokenAttributes
from skstruct.learners import AveragedWeights
from skstruct.structures import ArcFactoredTree
from skstruct.updates import StandardUpdate
from tests import naive


@functools.cache
def _trees(n, projective, single_root):
    """All trees of n words as an int array (n_trees, n + 1), and their sibling parts."""
    trees = list(naive.all_trees(n, projective, single_root))
    return np.array(trees), [naive.siblings(t) for t in trees]


def _brute_force(arc, sib=None, projective=False, single_root=False):
    """Best score over all trees (vectorised over the cached enumeration)."""
    n = arc.shape[0] - 1
    trees, parts = _trees(n, projective, single_root)
    scores = arc[trees[:, 1:], np.arange(1, n + 1)].sum(axis=1)
    if sib is not None:
        scores += np.array([sum(sib[p] for p in tree_parts) for tree_parts in parts])
    return scores.max()


def _potentials(seed, n):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n + 1, n + 1)), rng.normal(size=(n + 1, n + 1, n + 1))


sizes = st.integers(1, 6)
seeds = st.integers(0, 2**32 - 1)


@settings(max_examples=60)
@given(seeds, sizes, st.booleans())
def test_eisner_is_the_best_projective_tree(seed, n, single_root):
    arc, _ = _potentials(seed, n)
    scores = arc.copy()
    if single_root:
        tree.single_root_penalty(scores, n, 0.0)
    heads = tree.eisner(scores, n)
    assert naive.is_tree(heads) and naive.is_projective(heads)
    assert sum(h == 0 for h in heads[1:]) == 1 or not single_root
    best = _brute_force(arc, projective=True, single_root=single_root)
    assert naive.tree_score(heads, arc) == pytest.approx(best)


@settings(max_examples=60)
@given(seeds, sizes, st.booleans(), st.sampled_from([1.0, 100.0]))
def test_second_order_eisner_is_the_best_projective_tree(seed, n, single_root, scale):
    # scale 100: sibling parts outweigh the arcs, and the root penalty must cover them
    arc, sib = _potentials(seed, n)
    sib = scale * sib
    scores = arc.copy()
    if single_root:
        tree.single_root_penalty(scores, n, tree.largest_sibling_score(sib, n))
    heads = tree.eisner2(scores, sib, n)
    assert naive.is_tree(heads) and naive.is_projective(heads)
    assert sum(h == 0 for h in heads[1:]) == 1 or not single_root
    best = _brute_force(arc, sib, projective=True, single_root=single_root)
    assert naive.tree_score(heads, arc, sib) == pytest.approx(best)


@settings(max_examples=80)
@given(seeds, sizes, st.booleans(), st.sampled_from([1.0, 5.0]))
def test_eisner_with_grandparents_is_the_best_projective_tree(seed, n, single_root, scale):
    # the single root is kept by the search itself, with no penalty on the root arcs;
    # scale 5: sibling and grandparent parts outweigh the arcs
    arc, sib = _potentials(seed, n)
    grand = scale * np.random.default_rng(seed + 1).normal(size=(n + 1,) * 3)
    sib = scale * sib
    heads = tree.eisner_grand(arc, sib, grand, n, single_root)
    assert naive.is_tree(heads) and naive.is_projective(heads)
    assert sum(h == 0 for h in heads[1:]) == 1 or not single_root
    trees = _trees(n, True, single_root)[0]
    best = max(naive.tree_score(t, arc, sib, grand) for t in trees)
    assert naive.tree_score(heads, arc, sib, grand) == pytest.approx(best)


def test_eisner_with_grandparents_reads_the_grandparent_parts():
    # arcs and siblings say 1 <- 2 <- 3 (a chain from the root at 3); one grandparent
    # part is worth more than the whole chain: root -> 1 -> 2 ... then wins
    n = 3
    arc = np.zeros((n + 1, n + 1))
    arc[0, 3], arc[3, 2], arc[2, 1] = 1.0, 1.0, 1.0
    sib, grand = np.zeros((n + 1,) * 3), np.zeros((n + 1,) * 3)
    assert tree.eisner_grand(arc, sib, grand, n, True).tolist() == [-1, 2, 3, 0]
    grand[0, 1, 2] = 10.0
    heads = tree.eisner_grand(arc, sib, grand, n, True)
    assert heads[1] == 0 and heads[2] == 1


@settings(max_examples=60)
@given(seeds, st.integers(1, 5), st.booleans())
def test_chu_liu_edmonds_is_the_best_tree(seed, n, single_root):
    arc, _ = _potentials(seed, n)
    scores = arc.copy()
    scores[:, 0] = -np.inf
    np.fill_diagonal(scores, -np.inf)
    if single_root:
        tree.single_root_penalty(scores, n, 0.0)
    heads = tree.chu_liu_edmonds(scores)
    assert naive.is_tree(heads)
    best = _brute_force(arc, single_root=single_root)
    assert naive.tree_score(heads, arc) == pytest.approx(best)


def test_chu_liu_edmonds_finds_non_projective_trees():
    # 1 <- 3 and 2 <- 4 cross; every other arc is much worse
    arc = np.full((5, 5), -10.0)
    for h, d in [(0, 3), (3, 1), (4, 2), (3, 4)]:
        arc[h, d] = 5.0
    assert tree.chu_liu_edmonds(arc).tolist() == [-1, 3, 4, 0, 3]
    assert not naive.is_projective([-1, 3, 4, 0, 3])


def test_nested_cycles_are_contracted_and_expanded():
    # greedy heads make the cycle 1 <-> 2; after contraction, 3 <-> (1,2) is another
    arc = np.full((4, 4), -np.inf)
    arc[2, 1], arc[1, 2] = 10.0, 10.0
    arc[3, 1], arc[1, 3] = 9.0, 9.0
    arc[0, 1], arc[0, 2], arc[0, 3] = 1.0, 0.5, 0.2
    heads = tree.chu_liu_edmonds(arc)
    assert naive.is_tree(heads)
    assert naive.tree_score(heads, arc) == pytest.approx(_brute_force(arc))


def _sentence(seed, n, vocab=7, coarse=False, extra=0):
    rng = np.random.default_rng(seed)
    # int32, as the parsers' encoder gives them: another dtype compiles every kernel again
    size = (n, tree.N_ATTRS + coarse + extra)
    return rng.integers(3, 3 + vocab, size=size, dtype=np.int32)


def _buffer(attrs):
    n = len(attrs)
    width = tree.arc_width(n, tree.has_coarse(attrs)) + tree.N_SIBLING_TEMPLATES + 1
    return np.empty(width + tree.N_GRANDPARENT_TEMPLATES, dtype=np.int64)


@settings(max_examples=40)
@given(seeds, st.integers(1, 12), st.integers(1, 1000), st.integers(0, 2 + tree.MAX_EXTRA))
def test_feature_ids_match_the_python_twin(seed, n, n_features, columns):
    # columns: 0 fine only, 1 with the coarse POS, 2.. with extra fields too
    attrs = _sentence(seed, n, coarse=columns > 0, extra=max(columns - 1, 0))
    buffer = _buffer(attrs)
    rng = np.random.default_rng(seed)
    d = int(rng.integers(1, n + 1))
    h = int(rng.choice([v for v in range(n + 1) if v != d]))
    k = tree.arc_feature_ids(attrs, 0, n, h, d, n_features, buffer)
    assert buffer[:k].tolist() == naive.arc_features(attrs.tolist(), h, d, n_features)
    for s in [h, *range(min(h, d) + 1, max(h, d))]:
        k = tree.sibling_feature_ids(attrs, 0, n, h, s, d, n_features, buffer)
        assert buffer[:k].tolist() == naive.sibling_features(attrs.tolist(), h, s, d, n_features)
    if h > 0:
        for g in (v for v in range(n + 1) if v != h):
            states = np.empty(5, dtype=np.uint64)
            k = tree.grandparent_feature_ids(attrs, 0, n, g, h, d, n_features, buffer, states)
            twin = naive.grandparent_features(attrs.tolist(), g, h, d, n_features)
            assert buffer[:k].tolist() == twin


def test_coarse_templates_add_to_the_fine_ones():
    # the fine ids come first and unchanged, so a model without coarse POS is the same
    attrs = _sentence(5, 9, coarse=True)
    fine, both = _buffer(attrs[:, : tree.N_ATTRS]), _buffer(attrs)
    h, d = 2, 7
    k = tree.arc_feature_ids(attrs[:, : tree.N_ATTRS].copy(), 0, 9, h, d, 1 << 20, fine)
    m = tree.arc_feature_ids(attrs, 0, 9, h, d, 1 << 20, both)
    # and one per word in between, and the counts of words between like head, dependent
    assert m == k + 2 * tree.N_COARSE_TEMPLATES + (d - h - 1) + 2
    assert both[:k].tolist() == fine[:k].tolist()
    assert k <= tree.arc_width(9, False) and m <= tree.arc_width(9, True)
    assert set(fine[:k].tolist()) < set(both[:m].tolist())


def test_extra_fields_add_their_templates_after_the_coarse_ones():
    attrs = _sentence(6, 9, coarse=True, extra=tree.MAX_EXTRA)
    h, d = 7, 2
    coarse = _buffer(attrs)
    k = tree.arc_feature_ids(attrs[:, : tree.COARSE + 1].copy(), 0, 9, h, d, 1 << 20, coarse)
    for extra in range(1, tree.MAX_EXTRA + 1):
        buffer = _buffer(attrs)
        cut = attrs[:, : tree.COARSE + 1 + extra].copy()
        m = tree.arc_feature_ids(cut, 0, 9, h, d, 1 << 20, buffer)
        assert m == k + 2 * 6 * extra <= tree.arc_width(9, True)
        assert buffer[:k].tolist() == coarse[:k].tolist()


@settings(max_examples=30)
@given(seeds, st.integers(1, 10), st.sampled_from([997, 1 << 10]))
def test_sibling_scores_sum_the_weights_of_each_parts_features(seed, n, n_features):
    # the kernel scores the sibling-and-dependent templates once per pair of words: each
    # cell must still be the sum over the part's own feature ids, and only parts filled
    attrs = _sentence(seed, n, coarse=seed % 2 == 0)
    coef = np.random.default_rng(seed).normal(size=n_features)
    buffer = _buffer(attrs)
    out = np.full((n + 1,) * 3, np.nan)
    tree.sibling_scores(attrs, 0, n, coef, n_features, out)
    parts = 0
    for h in range(n + 1):
        for d in (v for v in range(1, n + 1) if v != h):
            for s in [h, *range(min(h, d) + 1, max(h, d))]:
                k = tree.sibling_feature_ids(attrs, 0, n, h, s, d, n_features, buffer)
                assert out[h, s, d] == pytest.approx(coef[buffer[:k]].sum(), abs=1e-12)
                parts += 1
    assert np.count_nonzero(~np.isnan(out)) == parts


@settings(max_examples=30)
@given(seeds, st.integers(1, 14), st.integers(1, 4))
def test_local_ids_number_the_values_in_order_of_first_appearance(seed, n, vocab):
    attrs = _sentence(seed, n, vocab)
    ids = np.empty(n + 1, dtype=np.int64)
    k = tree.local_ids(attrs, 0, n, tree.POS, ids)
    values = [tree.ROOT, *attrs[:, tree.POS].tolist()]  # the root's first, at 0
    first = list(dict.fromkeys(values))
    assert k == len(first)
    assert ids.tolist() == [first.index(v) for v in values]


def _in_kernel_order(coef, pairs, singles):
    """A cell as the score kernels sum it: the pair templates' weights (each template's
    two ids added together), then the other ids one by one."""
    total = 0.0
    for a, b in pairs:
        total += coef[a] + coef[b]
    for i in singles:
        total += coef[i]
    return total


@settings(max_examples=30)
@given(seeds, st.integers(1, 10), st.booleans(), st.integers(2, 4))
def test_grandparent_and_sibling_scores_are_their_parts_sums_in_order(seed, n, coarse, vocab):
    # few tags, so that the kernels' tables of template weights serve most cells: every
    # cell must be exactly the sum, in the kernel's order, of its part's own feature ids
    attrs = _sentence(seed, n, vocab, coarse=coarse)
    coef = np.random.default_rng(seed).normal(size=997)
    buffer, states = _buffer(attrs), np.empty(5, dtype=np.uint64)
    grand = np.full((n + 1,) * 3, np.nan)
    tree.grandparent_scores(attrs, 0, n, coef, 997, grand, states, True)
    sib = np.full((n + 1,) * 3, np.nan)
    tree.sibling_scores(attrs, 0, n, coef, 997, sib)
    triples = 4 if coarse else 3  # the templates over all three words come first
    for g, h, d in np.argwhere(~np.isnan(grand)):
        k = tree.grandparent_feature_ids(attrs, 0, n, g, h, d, 997, buffer, states)
        ids = buffer[:k].tolist()
        pairs = zip(ids[2 * triples :: 2], ids[2 * triples + 1 :: 2])
        assert grand[g, h, d] == _in_kernel_order(coef, pairs, ids[: 2 * triples])
    for h, s, d in np.argwhere(~np.isnan(sib)):
        k = tree.sibling_feature_ids(attrs, 0, n, h, s, d, 997, buffer)
        ids = buffer[:k].tolist()  # templates 31-36 alone, then 31-36 with the direction
        pair = _in_kernel_order(coef, [], [x for t in range(1, 5) for x in ids[t::6]])
        triple = _in_kernel_order(coef, [], [ids[0], ids[6], ids[5], ids[11]])
        assert sib[h, s, d] == triple + pair


@pytest.mark.parametrize("coarse", [False, True])
@pytest.mark.parametrize("order", [1, 2])
def test_score_matrices_match_the_python_twin(order, coarse):
    attrs = _sentence(3, 6, coarse=coarse)
    coef = np.random.default_rng(0).normal(size=997)
    arc, sib = naive.tree_potentials(attrs.tolist(), coef, 997, order)
    n = len(attrs)
    buffer = _buffer(attrs)
    out = np.empty((n + 1, n + 1))
    tree.arc_scores(attrs, 0, n, coef, 997, out, buffer)
    np.testing.assert_allclose(out, arc)
    if order == 2:
        out3 = np.zeros((n + 1, n + 1, n + 1))
        tree.sibling_scores(attrs, 0, n, coef, 997, out3)
        np.testing.assert_allclose(out3, sib)
        twin = naive.grandparent_potentials(attrs.tolist(), coef, 997)
        grand = np.zeros((n + 1, n + 1, n + 1))
        states = np.empty(5, dtype=np.uint64)
        tree.grandparent_scores(attrs, 0, n, coef, 997, grand, states, True)
        np.testing.assert_allclose(grand, twin)
        # the search's: only the parts of projective trees, the rest left as it was
        projective = np.full((n + 1,) * 3, np.nan)
        tree.grandparent_scores(attrs, 0, n, coef, 997, projective, states, False)
        g, h, d = np.indices(projective.shape)
        outside = (h > 0) & (d > 0) & (h != d) & ((g < np.minimum(h, d)) | (g > np.maximum(h, d)))
        np.testing.assert_allclose(projective[outside], twin[outside])
        assert np.isnan(projective[~outside]).all()


def _encoded(sentences):
    attrs = np.concatenate(sentences).astype(np.int32)
    offsets = np.zeros(len(sentences) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in sentences], out=offsets[1:])
    return TokenAttributes(attrs, offsets, 101)


@pytest.mark.parametrize(
    ("order", "coarse", "grandparents"),
    [(1, False, False), (2, False, False), (1, True, False), (2, False, True), (2, True, True)],
)
def test_perceptron_epoch_matches_the_python_twin(order, coarse, grandparents):
    rng = np.random.default_rng(order)
    sentences = [_sentence(i, int(rng.integers(1, 7)), 4, coarse) for i in range(25)]
    gold = []
    for s in sentences:  # random projective single-rooted trees as gold
        trees, _ = _trees(len(s), True, True)
        gold.append(trees[rng.integers(len(trees))][1:].tolist())
    visit = rng.permutation(len(sentences))
    structure = ArcFactoredTree(101, order=order, single_root=True, grandparents=grandparents)
    weights = AveragedWeights(structure)
    heads = np.concatenate(gold).astype(np.int64)
    decoder, rule = Eisner(order=order, grandparents=grandparents), StandardUpdate()
    epoch = fused_epoch(structure, decoder, rule)
    epoch(structure, decoder, rule, _encoded(sentences), heads, visit, weights, Minibatch(1, 1))

    def decode(arc, sib, grand=None):
        n = arc.shape[0] - 1
        if grandparents:  # the single root kept by the search, as the kernel does
            return tree.eisner_grand(arc, sib, grand, n, True)
        arc = arc.copy()
        tree.single_root_penalty(arc, n, tree.largest_sibling_score(sib, n) if order == 2 else 0.0)
        return tree.eisner2(arc, sib, n) if order == 2 else tree.eisner(arc, n)

    coef, coef_sum = naive.tree_perceptron(
        [s.tolist() for s in sentences], gold, visit, 101, decode, order, grandparents
    )
    np.testing.assert_array_equal(weights.coef, coef)
    np.testing.assert_array_equal(weights.coef_sum, coef_sum)
    assert weights.n_seen == len(sentences)
    assert np.abs(coef).sum() > 0  # the epoch did update


@settings(max_examples=30)
@given(seeds, st.integers(1, 8), st.integers(0, 5), st.integers(1, 1000))
def test_label_feature_ids_match_the_python_twin(seed, n, label, n_features):
    attrs = _sentence(seed, n)
    rng = np.random.default_rng(seed)
    d = int(rng.integers(1, n + 1))
    h = int(rng.choice([v for v in range(n + 1) if v != d]))
    out = np.empty(tree.N_LABEL_TEMPLATES, dtype=np.int64)
    states = np.empty(tree.N_LABEL_TEMPLATES, dtype=np.uint64)
    k = tree.label_feature_ids(attrs, 0, n, h, d, label, n_features, states, out)
    assert out[:k].tolist() == naive.label_features(attrs.tolist(), h, d, label, n_features)


@pytest.mark.parametrize("order", [1, 2])
@pytest.mark.parametrize("seed", range(8))
def test_labelled_decoding_is_the_best_labelled_tree(order, seed):
    # brute force over every projective single-rooted tree and every labelling of it
    import itertools

    n, n_labels = int(np.random.default_rng(seed).integers(1, 4)), 3
    attrs = _sentence(seed, n)
    coef = np.random.default_rng(seed).normal(size=211)
    structure = ArcFactoredTree(211, order=order, n_labels=n_labels)
    encoded = _encoded([attrs])
    scores = structure.scores(encoded, 0, coef)
    best = -np.inf
    trees, _ = _trees(n, True, True)
    for heads in trees:
        for labels in itertools.product(range(n_labels), repeat=n):
            outputs = structure.encode(heads[1:], labels)
            best = max(best, structure.score(scores, outputs))
    decoder = Eisner(order=order)
    predicted = decoder.decode(structure, scores)
    assert structure.score(scores, predicted) == pytest.approx(best)
    # the batch kernel agrees with the sentence-by-sentence path
    np.testing.assert_array_equal(decoder.predict(structure, encoded, coef), predicted)
    # and the label scores are those of the twin's features
    heads, labels = structure.split_outputs(predicted)
    for d in range(1, n + 1):
        ids = naive.label_features(attrs.tolist(), int(heads[d - 1]), d, int(labels[d - 1]), 211)
        assert scores.lab[heads[d - 1], d, labels[d - 1]] == pytest.approx(coef[ids].sum())
