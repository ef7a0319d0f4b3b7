"""The likelihood written once against the structure protocol (learners/_likelihood.py):
equal to the chain CRF's fused kernels, and the gradient of its own objective on trees."""

import numpy as np
import pytest

from skstruct import ChuLiuEdmonds, Eisner, LinearChainCRF, StructuredPerceptron, Viterbi
from skstruct.compilation import _chain_data, _tree_data
from skstruct.solvers._likelihood import ChainLikelihood, StructuredLikelihood


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_chain_likelihood_equals_the_fused_kernels(weighted):
    X, _, y = _chain_data(12)
    model = LinearChainCRF(max_iter=5).fit(X, y)
    encoded, labels = model.encode(X, y)
    structure = model.structure_
    rng = np.random.default_rng(0)
    coef = model.coef_ + rng.normal(scale=0.1, size=model.coef_.shape)
    weights = rng.uniform(0.5, 2.0, size=encoded.n_sentences) if weighted else None
    fused = ChainLikelihood(structure, encoded, labels, 0.1, 1, weights=weights)(coef)
    generic = StructuredLikelihood(structure, encoded, labels, 0.1, weights=weights)(coef)
    assert generic[0] == pytest.approx(fused[0], rel=1e-12)
    np.testing.assert_allclose(generic[1], fused[1], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("decoder", [Eisner(), ChuLiuEdmonds()], ids=["projective", "all"])
def test_tree_likelihood_gradient_is_the_derivative_of_its_objective(decoder):
    X, labelled = _tree_data(10)
    heads = [[head for head, _ in sentence] for sentence in labelled]
    model = StructuredPerceptron(decoder, max_iter=2, random_state=0).fit(X, heads)
    encoded, outputs = model.encode(X, heads)
    objective = StructuredLikelihood(model.structure_, encoded, outputs, 0.01)
    rng = np.random.default_rng(1)
    coef = rng.normal(scale=0.3, size=model.coef_.shape)
    loss, grad = objective(coef)
    assert np.isfinite(loss) and loss > 0
    for _ in range(3):
        direction = np.zeros_like(coef)
        touched = rng.choice(np.flatnonzero(grad), size=50)
        direction[touched] = rng.normal(size=50)
        eps = 1e-5
        numeric = objective(coef + eps * direction)[0] - objective(coef - eps * direction)[0]
        assert numeric / (2 * eps) == pytest.approx(float(grad @ direction), rel=1e-5, abs=1e-7)


def test_structures_without_marginals_are_refused():
    X, _, y = _chain_data(4)
    model = StructuredPerceptron(Viterbi(order=2), max_iter=1).fit(X, y)
    encoded, labels = model.encode(X, y)
    with pytest.raises(ValueError, match="has_marginals is False"):
        StructuredLikelihood(model.structure_, encoded, labels, 0.1)
