"""ConditionalRandomField: the CRF on any structure with marginals. On first-order
trees its log-likelihood, gradient and head probabilities equal sums over every tree
(projective and not); on chains it trains to LinearChainCRF's weights."""

import numpy as np
import pytest
from scipy.special import logsumexp
from sklearn.base import clone

from skstruct import (
    BeamSearch,
    ChuLiuEdmonds,
    ConditionalRandomField,
    Eisner,
    LinearChainCRF,
    StructuredPerceptron,
    TokenFeatures,
    Viterbi,
)
from skstruct.compilation import _chain_data, _tree_data
from skstruct.datasets import make_chain_data
from skstruct.solvers import _likelihood
from skstruct.solvers._likelihood import StructuredLikelihood
from skstruct.structures import ArcFactoredTree
from tests import naive

DECODERS = [Eisner(), Eisner(single_root=False), ChuLiuEdmonds(), ChuLiuEdmonds(single_root=False)]
IDS = ["projective", "projective-roots", "all", "all-roots"]


def _short_trees(n_sentences, max_words=5):
    """Sentences of at most ``max_words`` words from the toy treebank, heads only."""
    X, labelled = _tree_data(60)
    pairs = [(x, [h for h, _ in t]) for x, t in zip(X, labelled) if len(x) <= max_words]
    assert len(pairs) >= n_sentences
    return [x for x, _ in pairs[:n_sentences]], [h for _, h in pairs[:n_sentences]]


def _every_tree(structure, n):
    trees = naive.all_trees(n, structure.projective, structure.single_root)
    return [structure.encode(heads[1:]) for heads in trees]


@pytest.mark.parametrize("decoder", DECODERS, ids=IDS)
def test_tree_likelihood_and_gradient_equal_enumeration(decoder):
    X, y = _short_trees(6)
    if decoder.single_root:  # the gold trees must be in the output space
        keep = [i for i, heads in enumerate(y) if heads.count(0) == 1]
        X, y = [X[i] for i in keep], [y[i] for i in keep]
    model = ConditionalRandomField(decoder, c2=0.1, max_iter=3).fit(X, y)
    structure, (encoded, outputs) = model.structure_, model.encode(X, y)
    coef = model.coef_ + np.random.default_rng(0).normal(scale=0.2, size=model.coef_.shape)
    loss, grad = StructuredLikelihood(structure, encoded, outputs, 0.1)(coef)
    want_loss, want_grad = 0.1 * float(coef @ coef), 0.2 * coef
    offsets = structure.output_offsets(encoded)
    for i in range(encoded.n_sentences):
        gold = outputs[offsets[i] : offsets[i + 1]]
        scores = structure.scores(encoded, i, coef)
        trees = _every_tree(structure, scores.n)
        logits = np.array([structure.score(scores, t) for t in trees])
        want_loss += logsumexp(logits) - structure.score(scores, gold)
        for p, tree in zip(np.exp(logits - logsumexp(logits)), trees):
            keys, values = structure.delta(encoded, i, gold, tree)
            np.add.at(want_grad, keys, -p * values)
    assert loss == pytest.approx(want_loss, rel=1e-10)
    np.testing.assert_allclose(grad, want_grad, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("decoder", DECODERS, ids=IDS)
def test_head_probabilities_equal_enumeration(decoder):
    X, y = _short_trees(8)
    model = ConditionalRandomField(decoder, c2=0.1, max_iter=5).fit(X, y)
    structure, encoded = model.structure_, model.encode(X)
    for i, found in enumerate(model.predict_head_proba(X)):
        scores = structure.scores(encoded, i, model.coef_)
        n, trees = scores.n, _every_tree(structure, scores.n)
        logits = np.array([structure.score(scores, t) for t in trees])
        want = np.zeros((n, n + 1))
        for p, tree in zip(np.exp(logits - logsumexp(logits)), trees):
            want[np.arange(n), tree] += p
        np.testing.assert_allclose(found, want, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(found.sum(axis=1), 1.0)


@pytest.mark.parametrize("decoder", [Eisner(), ChuLiuEdmonds(single_root=False)],
                         ids=["projective", "all-roots"])  # fmt: skip
def test_active_weights_are_the_features_of_every_arc(decoder):
    X, y = _short_trees(6)
    model = ConditionalRandomField(decoder, c2=0.1, max_iter=2).fit(X, y)
    structure, (encoded, outputs) = model.structure_, model.encode(X, y)
    want = set()
    for i in range(encoded.n_sentences):
        start, end = encoded.offsets[i], encoded.offsets[i + 1]
        attrs, n = encoded.attrs[start:end].tolist(), int(end - start)
        for h in range(n + 1):
            for d in range(1, n + 1):
                if h != d:
                    want.update(naive.arc_features(attrs, h, d, structure.n_features))
    active = structure.active_weights(encoded, outputs)
    assert active.tolist() == sorted(want)
    # outside them the likelihood's gradient is zero, whatever the weights
    coef = np.random.default_rng(1).normal(size=structure.n_weights)
    _, grad = StructuredLikelihood(structure, encoded, outputs, 0.0)(coef)
    assert np.isin(np.flatnonzero(grad), active).all()
    assert ArcFactoredTree(64, order=2).active_weights(encoded) is None
    assert ArcFactoredTree(64, n_labels=3).active_weights(encoded) is None


@pytest.mark.parametrize("c1", [0.0, 0.02], ids=["lbfgs", "owlqn"])
def test_training_on_the_active_weights_alone_changes_nothing(monkeypatch, lbfgs_sizes, c1):
    X, labelled = _tree_data(40, seed=3)
    y = [[h for h, _ in t] for t in labelled]
    model = ConditionalRandomField(Eisner(), n_features=2**16, c1=c1, c2=0.01, max_iter=15)
    restricted = clone(model).fit(X, y)
    assert restricted.n_evaluations_ > 15
    monkeypatch.setattr(ArcFactoredTree, "active_weights", lambda self, encoded, outputs: None)
    whole = clone(model).fit(X, y)
    # L-BFGS really ran on the touched weights alone, the first time
    assert lbfgs_sizes[0] < lbfgs_sizes[1] == whole.structure_.n_weights == 2**16
    assert restricted.coef_.shape == whole.coef_.shape == (restricted.structure_.n_weights,)
    assert restricted.n_iter_ == whole.n_iter_
    # the same iterates, but for the order of the vector sums' terms
    for mine, theirs in zip(restricted.history_, whole.history_):
        assert mine["loss"] == pytest.approx(theirs["loss"], rel=1e-9)
    np.testing.assert_allclose(restricted.coef_, whole.coef_, rtol=1e-7, atol=1e-10)


def test_threads_sum_the_likelihood_to_the_same_model():
    X, labelled = _tree_data(30, seed=5)
    y = [[h for h, _ in t] for t in labelled]
    one = ConditionalRandomField(Eisner(), n_features=2**16, max_iter=10, n_jobs=1).fit(X, y)
    two = ConditionalRandomField(Eisner(), n_features=2**16, max_iter=10, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.coef_, two.coef_)
    assert [h["loss"] for h in one.history_] == [h["loss"] for h in two.history_]
    # the runs' sums are the whole corpus's, example by example
    structure, (encoded, outputs) = one.structure_, one.encode(X, y)
    objective = StructuredLikelihood(structure, encoded, outputs, 0.5, n_threads=2)
    assert len(objective.chunks) == 2
    loss, grad = objective(one.coef_)
    want_grad, want_loss = 2 * 0.5 * one.coef_, 0.5 * float(one.coef_ @ one.coef_)
    want_loss += objective._add_chunk(np.arange(encoded.n_sentences), one.coef_, want_grad)
    assert loss == pytest.approx(want_loss, rel=1e-12)
    np.testing.assert_allclose(grad, want_grad, rtol=1e-10, atol=1e-12)


def test_the_tree_crf_learns_and_predicts_trees():
    X, labelled = _tree_data(120, seed=3)
    y = [[h for h, _ in t] for t in labelled]
    model = ConditionalRandomField(Eisner(), c2=0.01, max_iter=40).fit(X[:90], y[:90])
    assert model.score(X[:90], y[:90]) == 1.0
    # seen with 100 iterations: 0.545 held out, the averaged perceptron 0.50 and EG 0.576 (a
    # small toy grammar)
    perceptron = StructuredPerceptron(Eisner(), random_state=0).fit(X[:90], y[:90])
    assert model.score(X[90:], y[90:]) >= perceptron.score(X[90:], y[90:]) - 0.02
    predicted = model.predict(X[90:])
    assert [len(p) for p in predicted] == [len(x) for x in X[90:]]
    # the most probable head of each word is close to the best tree's
    proba = model.predict_head_proba(X[90:])
    agree = np.mean([np.mean(np.argmax(p, axis=1) == t) for p, t in zip(proba, predicted)])
    assert agree > 0.9


def test_on_chains_it_trains_linear_chain_crfs_weights():
    X, y = make_chain_data(80, random_state=2)
    crf = ConditionalRandomField(features=TokenFeatures(), c2=0.1, max_iter=30).fit(X, y)
    chain = LinearChainCRF(features=TokenFeatures(), c2=0.1, max_iter=30).fit(X, y)
    np.testing.assert_array_equal(crf.coef_, chain.coef_)
    assert crf.predict(X[:5]) == chain.predict(X[:5])


def test_on_chains_the_generic_likelihood_trains_to_the_fused_one(monkeypatch):
    X, _, y = _chain_data(30)
    fast = ConditionalRandomField(Viterbi(), c2=0.1, max_iter=15).fit(X, y)
    monkeypatch.setattr(_likelihood, "FAST_LIKELIHOODS", {})
    generic = ConditionalRandomField(Viterbi(), c2=0.1, max_iter=15).fit(X, y)
    assert [h["loss"] for h in generic.history_] == pytest.approx(
        [h["loss"] for h in fast.history_], rel=1e-8
    )
    np.testing.assert_allclose(generic.coef_, fast.coef_, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize(
    "decoder, match",
    [
        (BeamSearch(4), "exact marginals"),
        (Eisner(order=2), "exact marginals"),
        (Viterbi(order=2), "exact marginals"),
    ],
)
def test_structures_without_marginals_are_refused(decoder, match):
    X, _, y = _chain_data(4)
    with pytest.raises(ValueError, match=match):
        ConditionalRandomField(decoder).fit(X, y)


def test_relation_labels_and_chain_head_probabilities_are_refused():
    X, labelled = _tree_data(10)
    with pytest.raises(ValueError, match="unlabelled trees"):
        ConditionalRandomField(Eisner()).fit(X, labelled)
    X, _, y = _chain_data(4)
    model = ConditionalRandomField(max_iter=2).fit(X, y)
    with pytest.raises(ValueError, match="needs a parser"):
        model.predict_head_proba(X)
