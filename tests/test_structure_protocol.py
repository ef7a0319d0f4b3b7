"""The structure protocol (skstruct.structures.Structure), checked on every structure.

Each structure of the library is run through what a learner may ask of it: ``loss``
against its twin, ``augment`` against brute force (every output's augmented score is
its score plus its loss), ``marginals`` against enumeration of the output space, and
``delta`` against the difference of two outputs' scores under fitted weights.
"""

import itertools

import numpy as np
import pytest
from scipy.special import logsumexp

from skstruct import ArcEager, ChuLiuEdmonds, Eisner, StructuredPerceptron, Viterbi
from skstruct._kernels import tree as _tree_kernels
from skstruct.compilation import _chain_data, _tree_data
from skstruct.structures import ArcFactoredTree, ChainScores, LinearChain, TreeScores
from skstruct.structures._base import Structure
from tests import naive

TOL = {"rtol": 1e-9, "atol": 1e-9}


# -- the structures, their random part scores and every output of one example -------------------


def _chain(order):
    return LinearChain(n_features=5, n_labels=3, order=order)


def _tree(projective, single_root, n_labels=0):
    return ArcFactoredTree(
        n_features=64, single_root=single_root, n_labels=n_labels, projective=projective
    )


STRUCTURES = {
    "chain0": lambda: _chain(0),
    "chain1": lambda: _chain(1),
    "chain2": lambda: _chain(2),
    "tree-projective": lambda: _tree(True, False),
    "tree-all": lambda: _tree(False, False),
    "tree-projective-single-root": lambda: _tree(True, True),
    "tree-all-single-root": lambda: _tree(False, True),
    "tree-labelled": lambda: _tree(True, False, n_labels=2),
    "tree-all-labelled-single-root": lambda: _tree(False, True, n_labels=2),
}
structures = pytest.mark.parametrize("name", list(STRUCTURES))
with_marginals = pytest.mark.parametrize(
    "name", [name for name, make in STRUCTURES.items() if make().has_marginals]
)


def _random_scores(structure, rng, n):
    if isinstance(structure, LinearChain):
        L = structure.n_labels
        trigram = rng.normal(size=(L, L, L)) if structure.order == 2 else None
        return ChainScores(rng.normal(size=(n, L)), rng.normal(size=(L, L)),
                           rng.normal(size=L), rng.normal(size=L), trigram)  # fmt: skip
    lab = rng.normal(size=(n + 1, n + 1, structure.n_labels)) if structure.n_labels else None
    return TreeScores(rng.normal(size=(n + 1, n + 1)), np.zeros((1, 1, 1)),
                      np.zeros((1, 1, 1)) if lab is None else lab, n)  # fmt: skip


def _example(name, seed, n=3):
    """A structure, a random generator and random part scores of an example of ``n``."""
    structure, rng = STRUCTURES[name](), np.random.default_rng(seed)
    return structure, rng, _random_scores(structure, rng, n)


def _every_output_and_a_gold(name, seed):
    """A structure, random part scores, every output of the example, one drawn as gold."""
    structure, rng, scores = _example(name, seed)
    outputs = _outputs(structure, _n_tokens(scores))
    return structure, scores, outputs, outputs[rng.integers(len(outputs))]


def _probabilities(structure, scores, outputs):
    """``p(y)`` of every output under ``scores``."""
    logits = np.array([structure.score(scores, y) for y in outputs])
    return np.exp(logits - logsumexp(logits))


def _n_tokens(scores):
    """The tokens (words) of the example that ``scores`` score."""
    return scores.unary.shape[0] if isinstance(scores, ChainScores) else scores.n


def _outputs(structure, n):
    """Every output of an example of ``n`` tokens or words, as output ids."""
    if isinstance(structure, LinearChain):
        return [np.array(p, dtype=np.int32) for p in itertools.product(range(3), repeat=n)]
    trees = naive.all_trees(n, structure.projective, structure.single_root)
    labellings = itertools.product(range(max(structure.n_labels, 1)), repeat=n)
    if not structure.n_labels:
        return [structure.encode(heads[1:]) for heads in trees]
    labellings = list(labellings)
    return [structure.encode(heads[1:], labels) for heads in trees for labels in labellings]


# -- the protocol ------------------------------------------------------------------------------


@structures
def test_every_structure_implements_the_protocol(name):
    structure = STRUCTURES[name]()
    assert isinstance(structure, Structure)
    methods = ("scores", "score", "loss", "augment", "delta", "update", "marginals",
               "output_offsets")  # fmt: skip
    for method in methods:
        assert callable(getattr(structure, method)), method
    assert isinstance(structure.has_marginals, bool)


@structures
@pytest.mark.parametrize("seed", range(3))
def test_loss_is_hamming_over_output_ids(name, seed):
    structure, rng = STRUCTURES[name](), np.random.default_rng(seed)
    outputs = _outputs(structure, 3)
    gold = outputs[rng.integers(len(outputs))]
    for output in outputs:
        twin = sum(int(a != b) for a, b in zip(gold.tolist(), output.tolist()))
        assert structure.loss(None, 0, gold, output) == twin


def test_loss_refuses_outputs_of_another_length():
    with pytest.raises(ValueError, match="cannot be compared"):
        _chain(1).loss(None, 0, np.zeros(3, np.int32), np.zeros(4, np.int32))


@structures
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("loss_weight", [None, -2.5, 0.0, 0.4])
def test_augment_adds_the_loss_to_every_outputs_score(name, seed, loss_weight):
    structure, scores, outputs, gold = _every_output_and_a_gold(name, seed)
    if loss_weight is None:  # the default: the loss itself
        augmented, loss_weight = structure.augment(scores, gold), 1.0
    else:  # batch EG's compact dual
        augmented = structure.augment(scores, gold, loss_weight=loss_weight)
    for output in outputs:
        loss = structure.loss(None, 0, gold, output)
        expected = structure.score(scores, output) + loss_weight * loss
        assert structure.score(augmented, output) == pytest.approx(expected, abs=1e-9)


def _enumerated(structure, scores, n):
    """(log Z, marginals as the structure lays them out) by summing over every output."""
    outputs = _outputs(structure, n)
    logits = np.array([structure.score(scores, y) for y in outputs])
    log_z = logsumexp(logits)
    p = np.exp(logits - log_z)
    if isinstance(structure, LinearChain):
        L = structure.n_labels
        unary, pair = np.zeros((n, L)), np.zeros((L, L))
        start, stop = np.zeros(L), np.zeros(L)
        for weight, y in zip(p, outputs):
            unary[np.arange(n), y] += weight
            if structure.order == 1:
                np.add.at(pair, (y[:-1], y[1:]), weight)
                start[y[0]] += weight
                stop[y[-1]] += weight
        return log_z, {"unary": unary, "transition": pair, "start": start, "stop": stop}
    arc = np.zeros((n + 1, n + 1))
    lab = np.zeros((n + 1, n + 1, max(structure.n_labels, 1)))
    for weight, y in zip(p, outputs):
        heads, labels = structure.split_outputs(y)
        words = np.arange(1, n + 1)
        arc[heads, words] += weight
        lab[heads, words, labels] += weight
    found = {"arc": arc}
    if structure.n_labels:
        found["lab"] = lab
    return log_z, found


@with_marginals
@pytest.mark.parametrize("seed", range(3))
def test_marginals_equal_enumeration(name, seed):
    structure, _, scores = _example(name, seed)
    log_z, mu = structure.marginals(scores)
    want_log_z, want = _enumerated(structure, scores, _n_tokens(scores))
    assert log_z == pytest.approx(want_log_z, rel=1e-9, abs=1e-9)
    assert type(mu) is type(scores)
    for field, expected in want.items():
        np.testing.assert_allclose(getattr(mu, field)[: expected.shape[0]], expected, **TOL)


def test_structures_without_marginals_say_so():
    for structure in (_chain(2), ArcFactoredTree(64, order=2)):
        assert not structure.has_marginals
        with pytest.raises(NotImplementedError, match=type(structure).__name__):
            structure.marginals(_random_scores(structure, np.random.default_rng(0), 3))
    transitions = ArcEager().make_structure(64, 0)
    assert isinstance(transitions, Structure) and not transitions.has_marginals


def test_tree_decoders_make_structures_of_their_output_space():
    assert Eisner().make_structure(64).projective
    assert not ChuLiuEdmonds().make_structure(64).projective


# -- delta against the scores of fitted weights ------------------------------------------------


def _fitted(decoder, data):
    X, y = data
    model = StructuredPerceptron(decoder, max_iter=2, random_state=0).fit(X, y)
    return model, model.structure_, model.coef_


@pytest.mark.parametrize("order", [0, 1, 2])
def test_chain_delta_is_the_difference_of_the_outputs_scores(order):
    X, _, y = _chain_data(8)
    model, structure, coef = _fitted(Viterbi(order=order), (X, y))
    encoded = model.encode(X)
    position = {int(key): at for at, key in enumerate(structure.weight_keys())}
    rng = np.random.default_rng(order)
    for i in range(4):
        scores = structure.scores(encoded, i, coef)
        n = scores.unary.shape[0]
        gold, pred = (rng.integers(structure.n_labels, size=n).astype(np.int32) for _ in "ab")
        keys, values = structure.delta(encoded, i, gold, pred)
        # a pair the weights have no slot for weighs 0
        weights = [coef[position[key]] if key in position else 0.0 for key in keys.tolist()]
        w_delta = float(np.dot(weights, values))
        expected = structure.score(scores, gold) - structure.score(scores, pred)
        assert w_delta == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    ("labelled", "decoder"),
    [(False, Eisner()), (True, Eisner()), (False, Eisner(order=2, grandparents=True))],
    ids=["unlabelled", "labelled", "grandparents"],
)
def test_tree_delta_is_the_difference_of_the_outputs_scores(labelled, decoder):
    X, y = _tree_data(8)
    if not labelled:
        y = [[head for head, _ in sentence] for sentence in y]
    model, structure, coef = _fitted(decoder, (X, y))
    encoded = model.encode(X)
    rng = np.random.default_rng(1)
    for i in range(4):
        scores = structure.scores(encoded, i, coef)
        n, labels, words = scores.n, max(structure.n_labels, 1), np.arange(1, scores.n + 1)
        # any head but itself and any label per word: delta and score take output
        # vectors, trees or not
        heads = [rng.integers(0, n, size=n) for _ in "ab"]
        gold, pred = (structure.encode(h + (h >= words), rng.integers(labels, size=n))
                      for h in heads)  # fmt: skip
        keys, values = structure.delta(encoded, i, gold, pred)
        expected = structure.score(scores, gold) - structure.score(scores, pred)
        assert float(coef[keys] @ values) == pytest.approx(expected, abs=1e-9)


def test_grandparent_parts_no_projective_tree_has_are_scored_when_a_head_vector_has_them():
    X, y = _tree_data(8)
    model, structure, coef = _fitted(Eisner(order=2, grandparents=True), (X, y))
    encoded = model.encode(X)
    rng, filled = np.random.default_rng(2), 0
    for i in range(4):
        scores = structure.scores(encoded, i, coef)
        n, words = scores.n, np.arange(1, scores.n + 1)
        start = encoded.offsets[i]
        every = np.full((n + 1,) * 3, np.nan)
        states = np.empty(_tree_kernels.N_LABEL_TEMPLATES, dtype=np.uint64)
        _tree_kernels.grandparent_scores(encoded.attrs, start, n, coef, structure.n_features,
                                         every, states, True)  # fmt: skip
        g, h, d = np.meshgrid(*[np.arange(n + 1)] * 3, indexing="ij")
        inside = (np.minimum(h, d) <= g) & (g <= np.maximum(h, d))
        made = (h > 0) & (d > 0) & (h != d) & (g != h)
        # the parts of projective trees as the whole tensor has them, the others not yet
        np.testing.assert_array_equal(scores.grand[made & ~inside], every[made & ~inside])
        assert np.isnan(scores.grand[made & inside]).all()
        for _ in range(10):  # any head vector scores as under the whole tensor
            heads = rng.integers(0, n, size=n)
            labels = rng.integers(max(structure.n_labels, 1), size=n)
            outputs = structure.encode(heads + (heads >= words), labels)
            whole = scores._replace(grand=every, source=None)
            assert structure.score(scores, outputs) == structure.score(whole, outputs)
        filled += int((~np.isnan(scores.grand[made & inside])).sum())
    assert filled > 0  # the random head vectors had such parts


def test_chains_and_trees_have_one_output_per_token_or_word():
    X, _, y = _chain_data(4)
    chain_model = StructuredPerceptron(max_iter=1).fit(X, y)
    trees, heads = _tree_data(4)
    tree_model = StructuredPerceptron(Eisner(), max_iter=1).fit(trees, heads)
    for model, X_ in ((chain_model, X), (tree_model, trees)):
        encoded = model.encode(X_)
        offsets = model.structure_.output_offsets(encoded)
        np.testing.assert_array_equal(offsets, encoded.offsets)
        assert offsets[-1] == sum(len(x) for x in X_)


# -- expected losses and feature vectors against enumeration ------------------------------------


@with_marginals
@pytest.mark.parametrize("seed", range(2))
def test_expected_loss_equals_enumeration(name, seed):
    structure, scores, outputs, gold = _every_output_and_a_gold(name, seed)
    p = _probabilities(structure, scores, outputs)
    expected = sum(weight * structure.loss(None, 0, gold, y) for weight, y in zip(p, outputs))
    _, mu = structure.marginals(scores)
    assert structure.expected_loss(mu, gold) == pytest.approx(expected, abs=1e-9)


def _expected_by_enumeration(structure, encoded, i, scores, gold, outputs):
    """``sum_y p(y) (phi(gold) - phi(y))`` as a dict key -> value."""
    p = _probabilities(structure, scores, outputs)
    total = {}
    for weight, y in zip(p, outputs):
        for key, value in zip(*structure.delta(encoded, i, gold, y)):
            total[int(key)] = total.get(int(key), 0.0) + weight * value
    return total


def _assert_sparse_equal(keys, values, expected):
    got = dict(zip(keys.tolist(), values.tolist()))
    for key in set(got) | set(expected):
        assert got.get(key, 0.0) == pytest.approx(expected.get(key, 0.0), abs=1e-9), key
    assert np.all(np.diff(keys) > 0) and np.all(values != 0)


@pytest.mark.parametrize("order", [0, 1])
def test_chain_expected_delta_equals_enumeration(order):
    X, _, y = _chain_data(16)
    model, structure, coef = _fitted(Viterbi(order=order), (X, y))
    encoded, outputs = model.encode(X, y)
    assert structure.has_expected_delta
    checked = 0
    for i in range(encoded.n_sentences):
        lo, hi = encoded.offsets[i], encoded.offsets[i + 1]
        if hi - lo > 5 or checked == 3:
            continue
        checked += 1
        scores = structure.scores(encoded, i, coef)
        gold = outputs[lo:hi]
        mu = structure.marginals(scores)[1]
        paths = [np.array(p, dtype=np.int32)
                 for p in itertools.product(range(structure.n_labels), repeat=hi - lo)]  # fmt: skip
        expected = _expected_by_enumeration(structure, encoded, i, scores, gold, paths)
        _assert_sparse_equal(*structure.expected_delta(encoded, i, gold, mu), expected)
    assert checked == 3


@pytest.mark.parametrize("decoder", [Eisner(), ChuLiuEdmonds()], ids=["projective", "all"])
def test_tree_expected_delta_equals_enumeration(decoder):
    X, labelled = _tree_data(12)
    heads = [[head for head, _ in sentence] for sentence in labelled]
    model, structure, coef = _fitted(decoder, (X, heads))
    encoded, outputs = model.encode(X, heads)
    assert structure.has_expected_delta
    checked = 0
    for i in range(encoded.n_sentences):
        lo, hi = encoded.offsets[i], encoded.offsets[i + 1]
        if hi - lo > 5:
            continue
        scores = structure.scores(encoded, i, coef)
        trees = _outputs(structure, scores.n)
        expected = _expected_by_enumeration(structure, encoded, i, scores, outputs[lo:hi], trees)
        mu = structure.marginals(scores)[1]
        keys, values = structure.expected_delta(encoded, i, outputs[lo:hi], mu)
        _assert_sparse_equal(keys, values, expected)
        # the sparse vector is what add_expected_delta adds, summed alike (bit for bit)
        dense = np.zeros(structure.n_weights)
        structure.add_expected_delta(dense, encoded, i, outputs[lo:hi], mu, 1.0)
        assert np.array_equal(keys, np.flatnonzero(dense))
        assert np.array_equal(values, dense[keys])
        checked += 1
    assert checked >= 3


def test_labelled_trees_and_second_order_chains_have_no_expected_delta():
    for structure in (_chain(2), _tree(True, False, n_labels=2)):
        assert not structure.has_expected_delta
        with pytest.raises(NotImplementedError, match="expected feature vectors"):
            structure.expected_delta(None, 0, None, None)
