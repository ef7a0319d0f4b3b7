"""The engine: decoders that decode, one loop with fused fast paths equal to it, the
public engine API, and capabilities checked before any data work."""

import numpy as np
import pytest
from sklearn.base import clone

from skstruct import (
    SWVP,
    ArcEager,
    ArcStandard,
    BeamSearch,
    ChuLiuEdmonds,
    Eisner,
    ExponentiatedGradientSSVM,
    Greedy,
    ParameterMixing,
    StructuredPerceptron,
    TokenFeatures,
    Viterbi,
)
from skstruct.datasets import make_chain_data
from skstruct.decoders import DECODERS, Decoder
from skstruct.engine._fused import chain_search_epoch, fused_epoch
from skstruct.learners import BaseStructuredLearner
from skstruct.trees import Tree
from tests.test_contract import _tree_data
from tests.test_updates import _PlainStandard


@pytest.fixture(scope="module")
def ptb(conllu_head):
    return conllu_head("ptb-sample", "train.conllu", 120)


#: Phrase-structure trees for the constituency decoders.
PHRASE_TREES = [
    "( (S (NP (DT the) (NN dog)) (VP (VBZ sees) (NP (DT a) (NN cat))) (. .)) )",
    "( (S (NP (PRP it)) (VP (VBZ barks)) (. .)) )",
    "( (S (NP (DT a) (JJ big) (NN cat)) (VP (VBZ sees) (NP (PRP it)))) )",
]


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_every_decoder_decodes_as_its_batch_predict(name):
    decoder = DECODERS[name]()
    assert isinstance(decoder, Decoder)
    capabilities = decoder.capabilities
    if capabilities.task.name == "heads":
        X, y = _tree_data()
    elif capabilities.task.name == "constituency":
        y = [Tree.fromstring(t) for t in PHRASE_TREES]
        X = [tree.pos() for tree in y]
    else:
        X, y = make_chain_data(30, n_labels=3, n_words=12, random_state=1)
        X = TokenFeatures().fit_transform(X)
    update = "standard" if capabilities.exact else "max_violation"
    model = StructuredPerceptron(decoder, update=update, max_iter=2, random_state=0).fit(X, y)
    encoded = model.encode(X)
    batch = model.decoder_.predict(model.structure_, encoded, model.coef_)
    bounds = model.structure_.output_offsets(encoded)
    for i in range(encoded.n_sentences):
        scores = model.structure_.scores(encoded, i, model.coef_)
        one = model.decoder_.decode(model.structure_, scores)
        np.testing.assert_array_equal(one, batch[bounds[i] : bounds[i + 1]])


@pytest.mark.data
@pytest.mark.parametrize(
    "decoder",
    [Eisner(), Eisner(order=2), Eisner(order=2, grandparents=True), ChuLiuEdmonds()],
    ids=repr,
)
def test_fused_tree_epoch_equals_the_generic_loop(ptb, decoder):
    X, y = ptb
    fused = StructuredPerceptron(decoder, max_iter=2, random_state=0).fit(X, y)
    assert fused_epoch(fused.structure_, fused.decoder_, fused.update_rule_) is not None
    generic = StructuredPerceptron(decoder, update=_PlainStandard(), max_iter=2, random_state=0)
    generic.fit(X, y)
    assert fused_epoch(generic.structure_, generic.decoder_, generic.update_rule_) is None
    np.testing.assert_allclose(generic.coef_, fused.coef_, atol=1e-9)
    for a, b in zip(generic.history_, fused.history_):
        assert (a["mistakes"], a["updates"], a["train_score"]) == (
            b["mistakes"],
            b["updates"],
            b["train_score"],
        )


@pytest.mark.parametrize(
    "learner",
    [
        StructuredPerceptron(shuffle=False, max_iter=3),
        SWVP(shuffle=False, max_iter=3, gamma="wmr"),
        StructuredPerceptron(ArcEager(beam_size=2), update="max_violation", max_iter=2),
    ],
    ids=["perceptron", "swvp", "arc-eager"],
)
def test_the_engine_api_drives_epochs_as_fit_does(learner):
    if isinstance(learner.decoder, ArcEager):
        X, y = _tree_data()
        learner.set_params(shuffle=False)
    else:
        X, y = make_chain_data(40, n_labels=3, n_words=12, random_state=0)
        X = TokenFeatures().fit_transform(X)
    fitted = learner.fit(X, y)
    reference, history = fitted.coef_.copy(), fitted.history_
    engine = clone(learner)
    state, data = engine.init_state(X, y)
    order = np.arange(len(X))
    for record in history:
        stats = engine.run_epoch(state, data, order)
        assert stats["mistakes"] == record["mistakes"]
    np.testing.assert_array_equal(engine.set_state(state, n_iter=len(history)).coef_, reference)
    assert engine.predict(X) == fitted.predict(X)
    assert engine.score_encoded(engine.encode(X, y)) == fitted.score(X, y)


def test_parameter_mixing_uses_the_public_engine_api_only():
    constraint = ParameterMixing._parameter_constraints["estimator"][0]
    assert all(not name.startswith("_") for name in constraint.methods)
    assert all(hasattr(BaseStructuredLearner, name) for name in constraint.methods)


@pytest.mark.parametrize(
    ("model", "message"),
    [
        (SWVP(decoder=ArcStandard()), "SWVP mixes .* ArcStandard builds action sequences"),
        (StructuredPerceptron(Eisner(), update="early"), "searches trees exactly"),
        (StructuredPerceptron(ArcEager(), update="laso"), "ArcEager cannot restart"),
        (ExponentiatedGradientSSVM(Viterbi(order=2)), "exact marginals"),
    ],
)
def test_capabilities_are_checked_before_any_data_work(model, message):
    # X and y are not even sequences: the decoder is refused before they are looked at
    with pytest.raises(ValueError, match=message):
        model.fit(object(), object())
    with pytest.raises(ValueError, match=message):
        model.check_decoder()


def _unfused(rule):
    """The same rule under a subclass of its type: no fused epoch, the generic loop."""
    return type(f"Plain{type(rule).__name__}", (type(rule),), {})()


_SEARCH_DECODERS = [BeamSearch(beam_size=3), BeamSearch(beam_size=2, order=2), Greedy(), Viterbi()]


@pytest.mark.parametrize(
    ("decoder", "update"),
    [
        (decoder, update)
        for decoder in _SEARCH_DECODERS
        for update in ["standard", "early", "hybrid", "max_violation", "latest"]
        # Viterbi + standard has its own kernel: test_updates.py::test_generic_loop_matches...
        if not (isinstance(decoder, Viterbi) and update == "standard")
    ],
    ids=repr,
)
def test_fused_chain_search_epoch_equals_the_generic_loop(decoder, update):
    X, y = make_chain_data(120, n_labels=5, n_words=40, random_state=3)
    params = dict(features=TokenFeatures(), max_iter=3, random_state=0)
    fused = StructuredPerceptron(decoder, update=update, **params).fit(X, y)
    rule = fused.update_rule_
    assert fused_epoch(fused.structure_, fused.decoder_, rule) is chain_search_epoch
    generic = StructuredPerceptron(decoder, update=_unfused(rule), **params).fit(X, y)
    assert fused_epoch(generic.structure_, generic.decoder_, generic.update_rule_) is None
    np.testing.assert_array_equal(generic.structure_.rows.labels, fused.structure_.rows.labels)
    np.testing.assert_array_equal(generic.coef_, fused.coef_)
    strip = lambda h: [{k: v for k, v in r.items() if k != "seconds"} for r in h]  # noqa: E731
    assert strip(generic.history_) == strip(fused.history_)
    assert sum(r["updates"] for r in fused.history_) > 0
