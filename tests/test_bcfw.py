"""The structured SVM by block-coordinate Frank-Wolfe: iterates = the paper's Algorithm 3
on explicit outputs, step for step; the gap closes on the n-slack QP optimum; the
loss-augmented argmax = brute force; sparse tree differences = dense ones; the estimator."""

import itertools

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, cross_val_score

from skstruct import (
    ArcStandard,
    BeamSearch,
    ChuLiuEdmonds,
    Eisner,
    ExponentiatedGradientSSVM,
    Greedy,
    StructuredPerceptron,
    StructuredSVM,
    TokenFeatures,
    Viterbi,
)
from skstruct import load as load_model
from skstruct import save as save_model
from skstruct._kernels.bcfw import aligned
from skstruct.datasets import make_chain_data
from skstruct.engine._fused import Minibatch
from skstruct.parsing import graph_parser
from skstruct.solvers._bcfw import BlockPool, FrankWolfeBlocks
from skstruct.structures import ArcFactoredTree, ChainScores, LinearChain
from skstruct.structures.tree import TreeScores
from tests import naive
from tests.kernels.test_tree import _encoded as _encode_trees
from tests.kernels.test_tree import _sentence
from tests.test_contract import _tree_data
from tests.test_eg import (
    N_FEATURES,
    N_LABELS,
    _chain_problem,
    _n_slack_optimum,
    _tree_problem,
)

KINDS = ["chain", "eisner", "eisner-1root", "matrix-tree"]
TREES = {"eisner": (True, False), "eisner-1root": (True, True), "matrix-tree": (False, False)}


def _problem(kind, seed, n_sentences=3):
    """``(blocks factory, examples, outputs)``: the solver's inputs, the twin's explicit
    examples and every output of each example in the twin's row order."""
    if kind == "chain":
        _, encoded, gold, examples = _chain_problem(seed, n_sentences=n_sentences)
        structure, decoder = LinearChain(N_FEATURES, N_LABELS), Viterbi()  # rows start empty
        lengths = np.diff(encoded.offsets)
        outputs = [[list(p) for p in naive.all_paths(int(n), N_LABELS)] for n in lengths]
    else:
        projective, single_root = TREES[kind]
        structure, decoder, encoded, gold, examples = _tree_problem(
            seed, projective, single_root, n_sentences=n_sentences
        )
        lengths = np.diff(encoded.offsets)
        outputs = [
            [t[1:] for t in naive.all_trees(int(n), projective, single_root)] for n in lengths
        ]

    def blocks(Ci):
        return FrankWolfeBlocks(structure, decoder, encoded, gold, Ci)

    return blocks, examples, outputs


def _recording(blocks):
    """Record every output the oracle of ``blocks`` returns."""
    found, oracle = [], blocks.oracle

    def recorded(i, coef, structure=None):
        gold, best, scores = oracle(i, coef, structure)
        found.append(best.tolist())
        return gold, best, scores

    blocks.oracle = recorded
    return found


def _dense_weights(blocks, coef):
    if isinstance(blocks.weights.structure, LinearChain):
        return naive.dense_chain_coef(blocks.weights.structure, coef)
    return coef


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("C", [0.5, 4.0])
def test_iterates_equal_the_papers_algorithm(kind, C):
    make, examples, outputs = _problem(kind, seed=7)
    blocks = make(np.full(len(examples), C))
    found = _recording(blocks)
    visits = [0, 1, 2, 2, 0, 1, 1, 0, 2, 0, 1, 2, 2, 1]
    steps, w = [], np.zeros(examples[0][0].shape[1])
    for i in visits:
        blocks.step(i)
        phi, loss, _, _ = examples[i]
        y = outputs[i].index(found[-1])
        # the oracle's output maximises loss + w . phi over every output (brute force)
        assert loss[y] + phi[y] @ w == pytest.approx(np.max(loss + phi @ w), abs=1e-9)
        steps.append((i, y))
        *_, (w, w_bar, _, dual) = naive.bcfw_table(examples, C, steps)
        np.testing.assert_allclose(_dense_weights(blocks, blocks.weights.coef), w, atol=1e-9)
        coef_bar, _ = blocks.averaged()
        np.testing.assert_allclose(_dense_weights(blocks, coef_bar), w_bar, atol=1e-9)
        structure, coef, best_dual = blocks.model(average=False)
        assert best_dual == pytest.approx(dual, abs=1e-9)
    # the blocks' shares of w sum to w, and w holds nothing else
    total = {}
    for i in range(len(examples)):
        keys, values = blocks.blocks.get(i)
        for key, value in zip(keys.tolist(), values.tolist()):
            total[key] = total.get(key, 0.0) + value
    keys = np.array(sorted(total), dtype=np.int64)
    (held,) = structure.values_at(keys, coef)
    np.testing.assert_allclose(held, [total[k] for k in keys.tolist()], atol=1e-9)
    assert np.abs(coef).sum() == pytest.approx(np.abs(held).sum(), abs=1e-9)


def _run(blocks, n_epochs, n):
    for _ in range(n_epochs):
        blocks.epoch(np.arange(n))


def _blocks_of(model, X, y, C=1.0):
    """The solver's blocks for a StructuredSVM's problem on ``X``, ``y``."""
    encoded, gold = model._initialize(X, y, classes=None, rng=None)
    return FrankWolfeBlocks(model.structure_, model.decoder_, encoded, gold,
                            np.full(encoded.n_sentences, C))  # fmt: skip


def _kernel_and_python_blocks(model, X, y, pool, kernel):
    """Two fresh solvers of one problem whose block pools start at ``pool`` entries: the
    first runs ``kernel``'s epochs, the second the Python steps."""
    fused, generic = _blocks_of(clone(model), X, y), _blocks_of(clone(model), X, y)
    assert fused._fused() == kernel
    generic._fused = lambda: None
    for blocks in (fused, generic):
        blocks.blocks = BlockPool(len(X), size=pool)
    return fused, generic


@pytest.mark.parametrize("order", [0, 1, 2])
@pytest.mark.parametrize("pool, full", [(1, False), (1024, False), (1, True)])
@pytest.mark.parametrize("batch_size", [1, 7])
def test_fused_chain_epochs_equal_the_generic_steps(order, pool, full, batch_size, request):
    """The one-kernel epoch (exact Viterbi) = the generic epoch (``step`` per example
    for batches of one), pools growing midway (a tiny block pool and emission pool force
    every kind of growth, also in the middle of a batch: sparse emission rows, which
    4 labels would not get by default). ``full``: the rows 4 labels get by default, every
    pair's weight found by its row's start, never searched for (``sparse=None``)."""
    if not full:
        request.getfixturevalue("sparse_rows")
    X, y = make_chain_data(60, n_labels=4, n_words=15, random_state=order)
    model = StructuredSVM(Viterbi(order=order), features=TokenFeatures())
    fused, generic = _kernel_and_python_blocks(model, X, y, pool, "chain")
    assert fused.weights.structure.rows.is_full(4) == full
    rng = np.random.default_rng(order)
    for _ in range(3):
        visit = rng.permutation(len(X))
        stats = fused.epoch(visit, Minibatch(batch_size, 2))
        if batch_size == 1:
            gammas = [generic.step(i)[0] for i in visit]
            assert stats["mean_step"] == pytest.approx(np.mean(gammas), rel=1e-9)
        else:
            generic_stats = generic.epoch(visit, Minibatch(batch_size, 1))
            assert stats["mean_step"] == pytest.approx(generic_stats["mean_step"], rel=1e-9)
            assert stats["null_steps"] == generic_stats["null_steps"]
    for average in (True, False):
        (s1, c1, d1), (s2, c2, d2) = fused.model(average), generic.model(average)
        np.testing.assert_allclose(naive.dense_chain_coef(s1, c1), naive.dense_chain_coef(s2, c2),
                                   rtol=1e-9, atol=1e-12)  # fmt: skip
        assert d1 == pytest.approx(d2, rel=1e-9)
    np.testing.assert_allclose(fused.block_loss, generic.block_loss, rtol=1e-9, atol=1e-12)
    assert fused.n_steps == generic.n_steps == 3 * len(X)
    for i in range(len(X)):
        np.testing.assert_array_equal(fused.blocks.get(i)[0], generic.blocks.get(i)[0])
        np.testing.assert_allclose(fused.blocks.get(i)[1], generic.blocks.get(i)[1], rtol=1e-9,
                                   atol=1e-12)  # fmt: skip


FIRST_ORDER = [Eisner(), Eisner(single_root=False), ChuLiuEdmonds()]
SECOND_ORDER = [Eisner(order=2), Eisner(order=2, single_root=False),
                Eisner(order=2, grandparents=True),
                Eisner(order=2, single_root=False, grandparents=True)]  # fmt: skip


# second order: the small pool only (it grows midway; a pool with room is the first
# order's case), each kernel compiled serial (batches of 1) and threaded (of 7)
@pytest.mark.parametrize(
    "decoder, pool, batch_size",
    [(d, pool, b) for d in FIRST_ORDER for pool in (1, 1024) for b in (1, 7)]
    + [(d, 1, b) for d in SECOND_ORDER for b in (1, 7)],
    ids=str,
)
def test_fused_tree_epochs_equal_the_generic_steps(decoder, pool, batch_size):
    """The one-kernel epoch of unlabelled trees (first or second order, with grandparent
    parts or not) = the generic epoch (the decoder under ``ArcFactoredTree.augment``'s
    scores, ``delta``, ``take_step``), the block pool growing midway (also in the middle
    of a batch)."""
    X, y = _tree_data(n=50, seed=3)
    fused, generic = _kernel_and_python_blocks(StructuredSVM(decoder), X, y, pool, "tree")
    _assert_same_tree_epochs(fused, generic, len(X), batch_size)


def test_the_ud_graph_parsers_kernel_epochs_equal_the_generic_steps(conllu_head):
    """The UD pipeline's graph parser (``graph_parser``: second order, grandparent parts,
    lemma and FEATS templates, non-projective training trees lifted) on 40 English-EWT
    sentences: the kernel epochs give the generic steps' weights and blocks."""
    X, y = conllu_head("ud-ewt", "en_ewt-ud-train.conllu", 40, max_words=30)
    model = graph_parser(("lemma", "feats"), order=2, grandparents=True)
    fused, generic = _kernel_and_python_blocks(model, X, y, 1024, "tree")
    _assert_same_tree_epochs(fused, generic, len(X), batch_size=1)


def _assert_same_tree_epochs(fused, generic, n, batch_size):
    """Three epochs of each solver in the same random orders (the kernel's minibatches
    on two threads, the generic ones on one): the same steps, weights and blocks."""
    rng = np.random.default_rng(batch_size)
    for _ in range(3):
        visit = rng.permutation(n)
        stats = fused.epoch(visit, Minibatch(batch_size, 2))
        generic_stats = generic.epoch(visit, Minibatch(batch_size, 1))
        assert stats["mean_step"] == pytest.approx(generic_stats["mean_step"], rel=1e-9)
        assert stats["null_steps"] == generic_stats["null_steps"]
    np.testing.assert_allclose(fused.weights.coef, generic.weights.coef, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fused.weights.coef_sum, generic.weights.coef_sum, rtol=1e-9,
                               atol=1e-9)  # fmt: skip
    np.testing.assert_allclose(fused.block_loss, generic.block_loss, rtol=1e-9, atol=1e-12)
    assert fused.n_steps == generic.n_steps == 3 * n
    assert fused.loss == pytest.approx(generic.loss, rel=1e-9)
    for i in range(n):
        np.testing.assert_array_equal(fused.blocks.get(i)[0], generic.blocks.get(i)[0])
        np.testing.assert_allclose(fused.blocks.get(i)[1], generic.blocks.get(i)[1], rtol=1e-9,
                                   atol=1e-12)  # fmt: skip


def test_structures_without_a_kernel_take_the_python_steps():
    """Labelled trees, a decoder whose single root is not its structure's, and
    beam-searched chains have no kernel epoch."""
    X, y = _tree_data(n=10)
    for decoder in (Eisner(order=2), Eisner()):
        targets = [[(h, "dep") for h in heads] for heads in y]
        blocks = _blocks_of(StructuredSVM(decoder), X, targets)
        assert blocks._fused() is None
    blocks = _blocks_of(StructuredSVM(Eisner(order=2, grandparents=True)), X, y)
    assert blocks._fused() == "tree"
    blocks.decoder = Eisner(order=2, grandparents=True, single_root=False)
    assert blocks._fused() is None
    Xc, yc = make_chain_data(10, random_state=0)
    assert (
        _blocks_of(StructuredSVM(BeamSearch(), features=TokenFeatures()), Xc, yc)._fused() is None
    )


@pytest.mark.parametrize("kind", KINDS)
def test_a_minibatch_searches_against_the_weights_it_starts_from(kind):
    """A minibatch epoch = every oracle of a batch against the weights before it, then
    the steps in turn (each line search against the weights the steps before left):
    the twin below, written with ``oracle`` and ``take_step`` alone."""
    make, _, _ = _problem(kind, seed=5, n_sentences=5)
    batched, twin = make(np.full(5, 2.0)), make(np.full(5, 2.0))
    visit = np.array([3, 0, 4, 1, 2, 2, 0, 4, 3, 1])
    batched.epoch(visit, Minibatch(3, 2))
    for lo in range(0, visit.size, 3):
        coef = twin.weights.coef.copy()
        found = [twin.oracle(i, coef)[:2] for i in visit[lo : lo + 3]]
        for i, (gold, best) in zip(visit[lo : lo + 3], found):
            twin.take_step(i, gold, best)
    np.testing.assert_allclose(_dense_weights(batched, batched.weights.coef),
                               _dense_weights(twin, twin.weights.coef), atol=1e-12)  # fmt: skip
    np.testing.assert_allclose(batched.block_loss, twin.block_loss, atol=1e-12)
    assert batched.model()[2] == pytest.approx(twin.model()[2], abs=1e-12)


@pytest.mark.parametrize("decoder", [Viterbi(), Viterbi(order=2), Eisner(), ChuLiuEdmonds()],
                         ids=repr)  # fmt: skip
def test_minibatches_give_the_same_fit_on_any_number_of_threads(decoder):
    """``n_jobs`` never changes the fit; ``batch_size`` does (a batch searches against
    stale weights), and a batch of one is the online solver."""
    parses = isinstance(decoder, (Eisner, ChuLiuEdmonds))
    X, y = _tree_data() if parses else make_chain_data(80, n_labels=5, random_state=1)
    features = {} if parses else {"features": TokenFeatures()}
    model = StructuredSVM(decoder, **features, max_iter=3, tol=0.0, random_state=0)

    def fit(**params):
        return clone(model).set_params(**params).fit(X, y)

    one, two = fit(batch_size=6, n_jobs=1), fit(batch_size=6, n_jobs=2)
    np.testing.assert_array_equal(one.coef_, two.coef_)
    strip = ("seconds", "gap_seconds")
    assert [{k: v for k, v in r.items() if k not in strip} for r in one.history_] == [
        {k: v for k, v in r.items() if k not in strip} for r in two.history_
    ]
    online = fit(batch_size=1, n_jobs=2)
    assert not np.array_equal(online.coef_, one.coef_)
    np.testing.assert_array_equal(online.coef_, fit(n_jobs=1).coef_)


def test_a_minibatch_epoch_never_lowers_the_dual():
    """Stale oracles still give valid Frank-Wolfe directions: the line search against
    the current weights keeps every step an ascent step."""
    X, y = make_chain_data(120, n_labels=5, random_state=2)
    blocks = _blocks_of(StructuredSVM(features=TokenFeatures()), X, y, C=5.0)
    rng, values = np.random.default_rng(0), []
    for _ in range(6):
        blocks.epoch(rng.permutation(len(X)), Minibatch(40, 2))
        values.append(blocks.model(average=False)[2])
    assert values[0] > 0 and np.all(np.diff(values) >= -1e-9)


@pytest.mark.parametrize("kind", KINDS)
def test_gap_closes_on_the_n_slack_optimum(kind):
    """Frank-Wolfe closes the gap at the rate O(1/k): 1,000 passes over 3 examples
    bring both iterates within 0.3% of the starting primal ``P(0) = C sum_i n_i`` of the
    optimum (the dual much closer)."""
    C = 2.0
    make, examples, _ = _problem(kind, seed=11)
    blocks = make(np.full(len(examples), C))
    gaps = []
    for epochs in (10, 90, 900):
        _run(blocks, epochs, len(examples))
        gaps.append(blocks.objectives(*blocks.model(average=True))["gap"])
    optimum, w_star = _n_slack_optimum(examples, C)
    start = C * sum(len(loss) and loss.max() for _, loss, _, _ in examples)  # P(0)
    assert min(gaps) >= -1e-9 and gaps[0] > gaps[1] > gaps[2]  # weak duality, closing
    for average in (True, False):
        structure, coef, dual = blocks.model(average)
        result = blocks.objectives(structure, coef, dual)
        assert result["gap"] < 3e-3 * start
        assert optimum - 1e-9 <= result["primal"] <= optimum + result["gap"] + 1e-9
        assert optimum - 1e-4 * start <= result["dual"] <= optimum + 1e-7
        dense = naive.dense_chain_coef(structure, coef) if kind == "chain" else coef
        # strongly convex primal: P(w) - P* >= 1/2 ||w - w*||^2
        assert 0.5 * np.sum((dense - w_star) ** 2) <= result["gap"] + 1e-5


def test_sample_weights_solve_the_weighted_problem():
    """``C_i = C w_i``: weight 2 has the optimum of the example given twice."""
    C = 1.0
    make, examples, _ = _problem("chain", seed=3)
    blocks = make(C * np.array([2.0, 1.0, 1.0]))
    _run(blocks, 1000, len(examples))
    last = blocks.objectives(*blocks.model(average=True))
    optimum, _ = _n_slack_optimum([*examples, examples[0]], C)
    assert optimum - 1e-9 <= last["primal"] <= optimum + last["gap"] + 1e-9
    assert last["gap"] < 3e-3 * C * 4 * sum(loss.max() for _, loss, _, _ in examples)
    assert optimum - 1e-2 * optimum <= last["dual"] <= optimum + 1e-7
    unweighted, _ = _n_slack_optimum(examples, C)  # what the check tells apart
    assert abs(unweighted - optimum) > 10 * last["gap"]


def test_dual_never_decreases():
    make, examples, _ = _problem("chain", seed=3)
    blocks = make(np.full(len(examples), 10.0))
    values = []
    for i in itertools.islice(itertools.cycle(range(len(examples))), 40):
        blocks.step(i)
        values.append(blocks.model(average=False)[2])
    assert np.all(np.diff(values) >= -1e-9)


# -- loss-augmented argmax against brute force -----------------------------------------


def _hamming(a, b):
    return sum(x != y for x, y in zip(a, b))


@pytest.mark.parametrize("order", [1, 2])
@pytest.mark.parametrize("seed", range(6))
def test_chain_loss_augmented_argmax_is_the_brute_force_one(order, seed):
    rng = np.random.default_rng(seed)
    L, n = 3, int(rng.integers(1, 5))
    structure = LinearChain(4, L, order=order)
    scores = ChainScores(
        rng.normal(size=(n, L)), rng.normal(size=(L, L)), rng.normal(size=L),
        rng.normal(size=L), rng.normal(size=(L, L, L)) if order == 2 else np.zeros((1, 1, 1)),
    )  # fmt: skip
    gold = rng.integers(0, L, size=n).astype(np.int32)
    augmented = structure.augment(scores, gold)
    best = Viterbi(order=order).decode(structure, augmented)
    brute = max(
        structure.path_score(scores, np.array(p)) + _hamming(p, gold)
        for p in itertools.product(range(L), repeat=n)
    )
    assert structure.path_score(augmented, best) == pytest.approx(brute)
    for path in itertools.product(range(L), repeat=n):  # augment adds exactly the loss
        p = np.array(path)
        assert structure.path_score(augmented, p) == pytest.approx(
            structure.path_score(scores, p) + _hamming(path, gold)
        )


TREE_DECODERS = [
    (Eisner(order=1, single_root=False), True, False),
    (Eisner(order=1, single_root=True), True, True),
    (Eisner(order=2, single_root=False), True, False),
    (Eisner(order=2), True, True),
    (Eisner(order=2, single_root=False, grandparents=True), True, False),
    (Eisner(order=2, grandparents=True), True, True),
    (ChuLiuEdmonds(single_root=False), False, False),
    (ChuLiuEdmonds(single_root=True), False, True),
]


@pytest.mark.parametrize("decoder, projective, single_root", TREE_DECODERS)
@pytest.mark.parametrize("n_labels", [0, 2])
@pytest.mark.parametrize("seed", range(4))
def test_tree_loss_augmented_argmax_is_the_brute_force_one(
    decoder, projective, single_root, n_labels, seed
):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 5))
    order = decoder.get_params().get("order", 1)
    grandparents = decoder.get_params().get("grandparents", False)
    structure = ArcFactoredTree(64, order=order, single_root=single_root, n_labels=n_labels,
                                grandparents=grandparents)  # fmt: skip
    arc = rng.normal(size=(n + 1, n + 1))
    sib = rng.normal(size=(n + 1, n + 1, n + 1)) if order == 2 else np.empty((1, 1, 1))
    lab = rng.normal(size=(n + 1, n + 1, n_labels)) if n_labels else np.zeros((1, 1, 1))
    grand = rng.normal(size=(n + 1,) * 3) if grandparents else None
    scores = TreeScores(arc, sib, lab, n, grand)
    trees = [t[1:] for t in naive.all_trees(n, projective, single_root)]
    labellings = list(itertools.product(range(max(n_labels, 1)), repeat=n))
    outputs = [structure.encode(t, lab_) for t in trees for lab_ in labellings]
    gold = outputs[int(rng.integers(len(outputs)))]
    augmented = structure.augment(scores, gold)
    best = decoder.decode(structure, augmented)
    brute = max(structure.path_score(scores, o) + _hamming(o, gold) for o in outputs)
    assert structure.path_score(augmented, best) == pytest.approx(brute)
    assert any(np.array_equal(best, o) for o in outputs)  # a tree (and labels)
    for o in outputs[:20]:
        assert structure.path_score(augmented, o) == pytest.approx(
            structure.path_score(scores, o) + _hamming(o, gold)
        )


# -- sparse feature differences of trees --------------------------------------------------


@pytest.mark.parametrize(("order", "grandparents"), [(1, False), (2, False), (2, True)])
@pytest.mark.parametrize("n_labels", [0, 3])
@pytest.mark.parametrize("seed", range(5))
def test_tree_delta_equals_the_dense_difference(order, grandparents, n_labels, seed):
    rng = np.random.default_rng(seed)
    sentences = [_sentence(seed * 3 + k, int(rng.integers(1, 7)), vocab=4) for k in range(3)]
    encoded = _encode_trees(sentences)
    structure = ArcFactoredTree(257, order=order, single_root=False, n_labels=n_labels,
                                grandparents=grandparents)  # fmt: skip
    for i, attrs in enumerate(sentences):
        n = len(attrs)
        heads = [rng.integers(0, n + 1, size=n) for _ in range(2)]  # any head vectors
        labels = [rng.integers(0, max(n_labels, 1), size=n) for _ in range(2)]
        gold, pred = (structure.encode(h, lab) for h, lab in zip(heads, labels))
        dense = np.zeros(structure.n_features)
        structure.add_delta(encoded, i, gold, pred, dense, 1.0)
        keys, values = structure.delta(encoded, i, gold, pred)
        assert np.all(np.diff(keys) > 0) and np.all(values != 0)
        expected = np.flatnonzero(dense)
        np.testing.assert_array_equal(keys, expected)
        np.testing.assert_allclose(values, dense[expected])
        assert structure.delta(encoded, i, gold, gold)[0].size == 0


def test_aligned_merges_two_sparse_vectors():
    rng = np.random.default_rng(0)
    for _ in range(50):
        a = np.unique(rng.integers(0, 30, size=int(rng.integers(0, 10))))
        b = np.unique(rng.integers(0, 30, size=int(rng.integers(0, 10))))
        va, vb = rng.normal(size=a.size), rng.normal(size=b.size)
        keys, x, y = aligned(a, va, b, vb)
        np.testing.assert_array_equal(keys, np.union1d(a, b))
        dense_a, dense_b = np.zeros(30), np.zeros(30)
        dense_a[a], dense_b[b] = va, vb
        np.testing.assert_array_equal(x, dense_a[keys])
        np.testing.assert_array_equal(y, dense_b[keys])


# -- the estimator ---------------------------------------------------------------------


_CHAIN = make_chain_data(120, n_labels=3, n_words=20, random_state=1)
_TREE_DATA = _tree_data(n=100, seed=1)


def test_chain_estimator_learns_and_records_the_objectives():
    X, y = _CHAIN
    model = StructuredSVM(features=TokenFeatures(), max_iter=20, tol=0.0, gap_every=1,
                          random_state=0)  # fmt: skip
    model.fit(X[:90], y[:90], X_dev=X[90:], y_dev=y[90:])
    history = model.history_
    assert len(history) == model.n_iter_ == 20
    for record in history:
        assert record["primal"] >= record["dual"] - 1e-9
        assert record["gap"] == pytest.approx(record["primal"] - record["dual"])
        assert 0.0 <= record["mean_step"] <= 1.0
    duals = [r["dual"] for r in history]
    assert np.all(np.diff(duals) >= -1e-9)  # the best dual known never falls
    assert history[-1]["gap"] < 0.25 * history[0]["gap"]
    assert history[-1]["dev_score"] == model.score(X[90:], y[90:])
    perceptron = StructuredPerceptron(features=TokenFeatures(), random_state=0)
    baseline = perceptron.fit(X[:90], y[:90]).score(X[90:], y[90:])
    assert model.score(X[90:], y[90:]) > baseline - 0.05
    # the weights grow with what the oracle returned: no pair of every feature x label
    structure = model.structure_
    assert structure.rows.nnz < structure.n_features * structure.n_labels
    # the model is the weighted average: P(w_bar) is what history_ reports last
    assert model.coef_.size == structure.n_weights


def test_tol_stops_at_a_small_gap_and_none_runs_every_pass():
    X, y = _CHAIN
    loose = StructuredSVM(features=TokenFeatures(), tol=0.2, gap_every=1, random_state=0)
    loose.fit(X, y)
    assert loose.n_iter_ < 30
    assert loose.history_[-1]["gap"] <= 0.2 * loose.history_[-1]["primal"]
    assert all(r["gap"] > 0.2 * r["primal"] for r in loose.history_[:-1])
    every = StructuredSVM(features=TokenFeatures(), max_iter=4, tol=None, random_state=0)
    history = every.fit(X, y).history_
    assert len(history) == 4 and all(r["gap"] is None for r in history[:-1])
    assert history[-1]["gap"] is not None  # the model's gap, once


def test_the_gap_is_computed_every_gap_every_passes_and_after_the_last():
    X, y = _CHAIN
    params = {"features": TokenFeatures(), "max_iter": 7, "tol": 0.0, "random_state": 0}
    sparse = StructuredSVM(gap_every=3, **params).fit(X, y)
    every = StructuredSVM(gap_every=1, **params).fit(X, y)
    assert [r["gap"] is not None for r in sparse.history_] == [False, False, True] * 2 + [True]
    for r, s in zip(every.history_, sparse.history_):  # the same passes: only gaps added
        assert r["mean_step"] == s["mean_step"]
        assert s["gap"] is None or s["gap"] == r["gap"]
    np.testing.assert_array_equal(sparse.coef_, every.coef_)
    # tol is checked where a gap is: the first multiple of gap_every past the threshold
    first = next(r["epoch"] for r in every.history_ if r["gap"] <= 0.3 * r["primal"])
    stopped = StructuredSVM(features=TokenFeatures(), tol=0.3, gap_every=2, random_state=0)
    assert stopped.fit(X, y).n_iter_ == first + first % 2


@pytest.mark.parametrize("tree", [False, True])
def test_gap_every_none_never_measures_the_gap_and_learns_the_same_weights(tree, monkeypatch):
    if tree:  # second order: the python steps and hinges, as the UD pipeline's parser
        X, y = _tree_data(30)
        decoder = Eisner(order=2)
    else:
        (X, y), decoder = _CHAIN, Viterbi()
    features = {} if tree else {"features": TokenFeatures()}  # trees: ArcFeatures
    params = {**features, "max_iter": 3, "tol": None, "random_state": 0}
    measured = StructuredSVM(decoder, **params).fit(X, y)
    assert measured.history_[-1]["gap"] is not None  # tol=None: after the last pass

    def no_gap(*args, **kwargs):
        raise AssertionError("gap_every=None computed the duality gap")

    monkeypatch.setattr(FrankWolfeBlocks, "objectives", no_gap)
    never = StructuredSVM(decoder, gap_every=None, **params).fit(X, y)
    assert [r["gap"] for r in never.history_] == [None] * 3
    np.testing.assert_array_equal(never.coef_, measured.coef_)
    assert never.predict(X) == measured.predict(X)


def test_gap_every_none_with_a_tol_to_stop_on_is_refused():
    X, y = _CHAIN
    model = StructuredSVM(features=TokenFeatures(), gap_every=None, tol=1e-3)
    with pytest.raises(ValueError, match="gap_every=None never computes"):
        model.fit(X, y)


def test_last_iterate_and_average_differ_and_both_learn():
    X, y = _CHAIN
    params = {"features": TokenFeatures(), "max_iter": 5, "random_state": 0}
    averaged = StructuredSVM(**params).fit(X[:90], y[:90])
    last = StructuredSVM(average=False, **params).fit(X[:90], y[:90])
    assert not np.array_equal(averaged.coef_, last.coef_)
    assert min(averaged.score(X[90:], y[90:]), last.score(X[90:], y[90:])) > 0.8


@pytest.mark.parametrize(
    "decoder",
    [Viterbi(order=2), BeamSearch(beam_size=2), BeamSearch(beam_size=3, order=2), Greedy()],
)
def test_every_chain_decoder_is_an_oracle(decoder):
    X, y = _CHAIN
    model = StructuredSVM(decoder, features=TokenFeatures(), max_iter=5, gap_every=1,
                          random_state=0)  # fmt: skip
    assert model.fit(X[:90], y[:90]).score(X[90:], y[90:]) > 0.8
    for record in model.history_:
        assert record["gap"] is not None


@pytest.mark.parametrize(
    "decoder",
    [Eisner(), Eisner(single_root=False), Eisner(order=2), ChuLiuEdmonds()],
)
def test_parsers_learn_the_toy_grammar(decoder):
    X, y = _TREE_DATA
    model = StructuredSVM(decoder=decoder, C=1.0, max_iter=5, gap_every=1, random_state=0)
    assert model.fit(X[:60], y[:60]).score(X[60:], y[60:]) > 0.9
    history = model.history_
    assert all(r["primal"] >= r["dual"] - 1e-9 for r in history)


def test_labelled_trees_learn_relations():
    X, y = _TREE_DATA
    relations = {"DT": "det", "JJ": "amod", "NN": "noun", "VB": "root", "IN": "case"}
    y_labelled = [
        [(head, relations[token["xpos"]]) for token, head in zip(sentence, heads)]
        for sentence, heads in zip(X, y)
    ]
    model = StructuredSVM(decoder=ChuLiuEdmonds(), C=1.0, max_iter=5, random_state=0)
    predicted = model.fit(X[:60], y_labelled[:60]).predict(X[60:])
    pairs = [(p, g) for ps, gs in zip(predicted, y_labelled[60:]) for p, g in zip(ps, gs)]
    assert sum(tuple(p) == tuple(g) for p, g in pairs) / len(pairs) > 0.9


def test_eg_solver_is_the_eg_estimator():
    X, y = _CHAIN
    params = {"features": TokenFeatures(), "max_iter": 3, "tol": None, "random_state": 0}
    eg = ExponentiatedGradientSSVM(**params).fit(X, y)
    ssvm = StructuredSVM(solver="eg", **params).fit(X, y)
    np.testing.assert_array_equal(ssvm.coef_, eg.coef_)
    for ours, theirs in zip(ssvm.history_, eg.history_, strict=True):
        assert (ours["primal"], ours["dual"]) == (theirs["primal"], theirs["dual"])


@pytest.mark.parametrize(
    "decoder, solver, match",
    [
        (ArcStandard(beam_size=2), "bcfw", "loss-augmented argmax"),
        (Viterbi(order=2), "eg", "exact marginals"),
        (BeamSearch(beam_size=2), "eg", "exact marginals"),
    ],
)
def test_decoders_a_solver_cannot_use_are_refused(decoder, solver, match):
    X, y = _TREE_DATA if isinstance(decoder, ArcStandard) else _CHAIN
    model = StructuredSVM(decoder, solver=solver, max_iter=1)
    if not isinstance(decoder, ArcStandard):
        model.set_params(features=TokenFeatures())
    with pytest.raises(ValueError, match=match):
        model.fit(X, y)


def test_sample_weight_zero_is_the_example_left_out():
    X, y = _CHAIN
    params = {"features": TokenFeatures(), "max_iter": 3, "random_state": 0, "shuffle": False}
    weights = np.ones(len(X))
    weights[::3] = 0.0
    kept = [i for i in range(len(X)) if weights[i] > 0]
    weighted = StructuredSVM(**params).fit(X, y, sample_weight=weights)
    subset = StructuredSVM(**params).fit([X[i] for i in kept], [y[i] for i in kept])
    np.testing.assert_array_equal(weighted.coef_, subset.coef_)
    heavier = StructuredSVM(**params).fit(X, y, sample_weight=np.where(weights > 0, 3.0, 1.0))
    assert not np.array_equal(heavier.coef_, StructuredSVM(**params).fit(X, y).coef_)


def test_grid_search_and_cross_validation():
    X, y = _CHAIN
    model = StructuredSVM(features=TokenFeatures(), max_iter=3, random_state=0)
    grid = {"C": [0.1, 1.0], "solver": ["bcfw", "eg"], "average": [True, False]}
    search = GridSearchCV(model, grid, cv=3).fit(X, y)
    assert len(search.cv_results_["params"]) == 8
    scores = cross_val_score(clone(model), X, y, cv=3)
    assert scores.shape == (3,) and np.all(scores > 0.5)


def test_save_and_load_round_trip(tmp_path):
    X, y = _CHAIN
    model = StructuredSVM(features=TokenFeatures(), max_iter=3, random_state=0).fit(X, y)
    save_model(model, tmp_path / "svm.skstruct")
    loaded = load_model(tmp_path / "svm.skstruct")
    assert isinstance(loaded, StructuredSVM) and loaded.get_params()["solver"] == "bcfw"
    assert loaded.predict(X) == model.predict(X)


@pytest.mark.parametrize("kind", KINDS)
def test_kernel_hinges_equal_the_python_pass(kind):
    make, examples, _ = _problem(kind, seed=4)
    blocks = make(np.full(len(examples), 1.0))
    _run(blocks, 3, len(examples))
    structure, coef, _ = blocks.model(average=True)
    fast = blocks.kernel_hinges(structure, coef)
    assert fast is not None
    np.testing.assert_allclose(fast, blocks.python_hinges(structure, coef), rtol=1e-12, atol=1e-12)
    assert np.all(fast >= 0) and fast.max() > 0


def test_a_block_larger_than_the_pool_makes_it_grow_enough():
    """A first block far beyond the pool's initial size (a 300-token sentence of
    distinct features) is given room in one growth, fused and generic alike."""
    rng = np.random.default_rng(0)
    X = [[{f"f{rng.integers(10**6)}": 1.0 for _ in range(4)} for _ in range(n)]
         for n in (300, 5, 7, 9)]  # fmt: skip
    y = [[str(label) for label in rng.integers(0, 4, size=len(x))] for x in X]
    model = StructuredSVM()
    fused, generic = (_blocks_of(clone(model), X, y) for _ in range(2))
    fused.epoch(np.arange(len(X)))
    for i in range(len(X)):
        generic.step(i)
    assert fused.blocks.length[0] > 1024 and fused.blocks.keys.size >= fused.blocks.used[0]
    for blocks in (fused, generic):
        s = blocks.blocks.start
        assert all(s[i] + blocks.blocks.length[i] <= blocks.blocks.used[0] for i in range(len(X)))
    np.testing.assert_array_equal(fused.blocks.get(0)[0], generic.blocks.get(0)[0])
    np.testing.assert_allclose(fused.block_loss, generic.block_loss, rtol=1e-9)
