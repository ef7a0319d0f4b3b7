"""Minibatch training (Zhao & Huang 2013): a batch is decoded against the weights it
starts from, on ``n_jobs`` threads, then its updates are applied in order. The result
depends on ``batch_size`` and never on ``n_jobs``; every fused minibatch kernel gives
what the generic loop gives at the same ``batch_size``."""

import numba
import numpy as np
import pytest

from skstruct import (
    SWVP,
    ArcEager,
    ArcStandard,
    BeamSearch,
    ChuLiuEdmonds,
    Eisner,
    Greedy,
    StructuredPerceptron,
    TokenFeatures,
    Viterbi,
)
from skstruct.datasets import make_chain_data
from skstruct.engine._fused import fused_epoch
from tests.test_engine import _unfused
from tests.test_swvp import _ranges_to_sets
from tests.test_updates import _PlainStandard


def _strip(history):
    return [{k: v for k, v in record.items() if k != "seconds"} for record in history]


def _assert_same_fit(a, b):
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert _strip(a.history_) == _strip(b.history_)


@pytest.fixture(scope="module")
def chains():
    # 60 labels: the emission pool fills up inside batches, so growing is exercised
    # (13 to 18 times in each fit of test_n_jobs_never_changes_a_chain_fit, measured)
    return make_chain_data(100, n_labels=60, n_words=200, random_state=3)


@pytest.fixture(scope="module")
def ptb(conllu_head):
    return conllu_head("ptb-sample", "train.conllu", 100)


@pytest.mark.parametrize(
    ("decoder", "update"),
    [
        (BeamSearch(beam_size=3), "max_violation"),
        (BeamSearch(beam_size=2, order=2), "hybrid"),
        (Greedy(), "early"),
        (Viterbi(), "latest"),
        (BeamSearch(beam_size=4), "standard"),
    ],
    ids=repr,
)
def test_fused_search_minibatches_equal_the_generic_loop(chains, decoder, update):
    X, y = chains
    params = dict(features=TokenFeatures(), max_iter=2, random_state=0, batch_size=7)
    fused = StructuredPerceptron(decoder, update=update, **params).fit(X, y)
    assert fused_epoch(fused.structure_, fused.decoder_, fused.update_rule_) is not None
    generic = StructuredPerceptron(decoder, update=_unfused(fused.update_rule_), **params)
    _assert_same_fit(fused, generic.fit(X, y))
    assert sum(r["updates"] for r in fused.history_) > 0


@pytest.mark.parametrize("order", [0, 1, 2])
def test_fused_viterbi_minibatches_equal_the_generic_loop(order):
    X, y = make_chain_data(60, n_labels=4, n_words=15, random_state=order)
    rng = np.random.default_rng(0)
    # real-valued features: no score ties, where the generic loop's exact beam and the
    # Viterbi kernel may break ties differently
    X = [[{"w": w, "x": float(rng.normal())} for w in seq] for seq in X]
    params = dict(max_iter=3, random_state=0, batch_size=5)
    fused = StructuredPerceptron(Viterbi(order=order), **params).fit(X, y)
    generic = StructuredPerceptron(Viterbi(order=order), update=_PlainStandard(), **params)
    generic.fit(X, y)
    np.testing.assert_allclose(generic.coef_, fused.coef_, atol=1e-12)
    assert [r["mistakes"] for r in generic.history_] == [r["mistakes"] for r in fused.history_]


@pytest.mark.parametrize(
    ("substructures", "gamma", "mode"),
    [
        ("single", "wm", "aggressive"),
        ("spans", "wmr", "balanced"),
        ("errors", "uniform", "balanced"),
    ],
)
def test_fused_swvp_minibatches_equal_the_python_loop(chains, substructures, gamma, mode):
    X, y = chains
    X = TokenFeatures().fit_transform(X)
    params = dict(gamma=gamma, mode=mode, max_iter=2, random_state=1, batch_size=6)
    fused = SWVP(substructures=substructures, **params).fit(X, y)
    loop = SWVP(substructures=_ranges_to_sets(substructures), **params).fit(X, y)
    np.testing.assert_allclose(loop.coef_, fused.coef_, atol=1e-12)
    assert _strip(loop.history_) == _strip(fused.history_)


@pytest.mark.data
@pytest.mark.parametrize(
    "decoder", [Eisner(), Eisner(order=2, grandparents=True), ChuLiuEdmonds()], ids=repr
)
def test_fused_tree_minibatches_equal_the_generic_loop(ptb, decoder):
    X, y = ptb
    params = dict(max_iter=2, random_state=0, batch_size=8)
    fused = StructuredPerceptron(decoder, **params).fit(X, y)
    generic = StructuredPerceptron(decoder, update=_PlainStandard(), **params).fit(X, y)
    np.testing.assert_allclose(generic.coef_, fused.coef_, atol=1e-9)
    assert [r["mistakes"] for r in generic.history_] == [r["mistakes"] for r in fused.history_]


_CHAIN_LEARNERS = [
    StructuredPerceptron(BeamSearch(beam_size=4), update="max_violation"),
    StructuredPerceptron(Viterbi()),
    StructuredPerceptron(Viterbi(order=2), update="early"),
    SWVP(substructures="spans"),
    StructuredPerceptron(BeamSearch(beam_size=2), update="laso"),  # the generic loop
]


@pytest.mark.parametrize("learner", _CHAIN_LEARNERS, ids=repr)
def test_n_jobs_never_changes_a_chain_fit(chains, learner):
    X, y = chains
    learner.set_params(features=TokenFeatures(), max_iter=2, random_state=0, batch_size=9)
    one = learner.__sklearn_clone__().set_params(n_jobs=1).fit(X, y)
    two = learner.__sklearn_clone__().set_params(n_jobs=2).fit(X, y)
    _assert_same_fit(one, two)
    assert one.predict(X) == two.predict(X)


@pytest.mark.data
@pytest.mark.parametrize(
    "learner",
    [
        StructuredPerceptron(Eisner()),
        StructuredPerceptron(Eisner(order=2)),
        StructuredPerceptron(ChuLiuEdmonds()),
        StructuredPerceptron(ArcStandard(beam_size=4), update="max_violation"),
        StructuredPerceptron(ArcEager(beam_size=4), update="early"),
        SWVP(Eisner(), substructures="single"),
    ],
    ids=repr,
)
def test_n_jobs_never_changes_a_parser_fit(ptb, learner):
    X, y = ptb
    learner.set_params(max_iter=2, random_state=0, batch_size=8)
    one = learner.__sklearn_clone__().set_params(n_jobs=1).fit(X, y)
    two = learner.__sklearn_clone__().set_params(n_jobs=2).fit(X, y)
    _assert_same_fit(one, two)
    assert one.predict(X) == two.predict(X)


@pytest.mark.data
@pytest.mark.parametrize(
    "learner",
    [
        StructuredPerceptron(BeamSearch(beam_size=4), update="max_violation"),
        StructuredPerceptron(Viterbi()),
        SWVP(substructures="spans"),
        StructuredPerceptron(Eisner()),
    ],
    ids=repr,
)
def test_more_parts_than_threads_never_change_a_fit(chains, ptb, learner, monkeypatch):
    # a batch is split in a part per thread the learner asks for (balance.py); with more
    # parts than the pool has threads, a thread decodes several: nothing may change
    import contextlib

    from skstruct._kernels.threads import numba_threads
    from skstruct.engine import _loop as _base

    @contextlib.contextmanager
    def seven_parts(n_threads):
        with numba_threads(n_threads):
            yield 7

    X, y = ptb if isinstance(learner.decoder, Eisner) else chains
    params = dict(max_iter=2, random_state=0, batch_size=9)
    if not isinstance(learner.decoder, Eisner):
        params["features"] = TokenFeatures()
    learner.set_params(**params)
    one = learner.__sklearn_clone__().set_params(n_jobs=1).fit(X, y)
    monkeypatch.setattr(_base, "numba_threads", seven_parts)
    seven = learner.__sklearn_clone__().set_params(n_jobs=2).fit(X, y)
    _assert_same_fit(one, seven)


def test_batch_size_changes_the_fit_and_one_is_the_online_perceptron(chains):
    X, y = chains
    params = dict(features=TokenFeatures(), max_iter=2, random_state=0)
    online = StructuredPerceptron(BeamSearch(), update="max_violation", **params)
    batched = online.__sklearn_clone__().set_params(batch_size=16).fit(X, y)
    one = online.__sklearn_clone__().set_params(batch_size=1).fit(X, y)
    assert not np.array_equal(batched.coef_, one.coef_)
    # a batch larger than the data set: every sentence decoded with the epoch's weights
    whole = online.__sklearn_clone__().set_params(batch_size=10_000).fit(X, y)
    first_epoch = whole.history_[0]
    assert first_epoch["mistakes"] == len(X)  # zero weights: every sentence is wrong


def test_n_jobs_leaves_numba_threads_as_they_were(chains):
    X, y = chains
    before = numba.get_num_threads()
    model = StructuredPerceptron(BeamSearch(), update="max_violation", features=TokenFeatures(),
                                 max_iter=1, batch_size=8, n_jobs=1)  # fmt: skip
    model.fit(X, y).predict(X)
    assert numba.get_num_threads() == before
    with pytest.raises(ValueError, match="batch_size"):
        model.set_params(batch_size=0).fit(X, y)


def test_kernel_threads_follow_n_jobs_and_default_to_all(monkeypatch):
    import joblib

    from skstruct.engine import _model

    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 6)
    assert _model.kernel_threads(None) == 6  # every core, in training and prediction
    assert _model.kernel_threads(1) == 1
    assert _model.kernel_threads(3) == 3
    with joblib.parallel_config(n_jobs=2):
        assert _model.kernel_threads(None) == 2  # a context that sets n_jobs wins


def test_predictions_do_not_depend_on_n_jobs(chains):
    X, y = chains
    model = StructuredPerceptron(features=TokenFeatures(), max_iter=2, random_state=0).fit(X, y)
    default = model.predict(X)
    assert model.set_params(n_jobs=1).predict(X) == default
    assert model.set_params(n_jobs=2).predict(X) == default


def test_serial_twins_have_cache_entries_of_their_own():
    # numba files cached code by qualified name and line: a twin jitted from the same
    # function would load the parallel kernel's entry (or give it its own), and the
    # "parallel" kernel would run on one thread
    from skstruct._kernels import beam, chain, swvp

    pairs = [
        (chain.viterbi_decisions, chain.viterbi_decisions_serial),
        (beam.search_decisions, beam.search_decisions_serial),
        (chain.batch_pair_slots, chain.batch_pair_slots_serial),
        (chain.add_batch_emission_deltas, chain.add_batch_emission_deltas_serial),
        (swvp.swvp_decisions, swvp.swvp_decisions_serial),
    ]
    for parallel, serial in pairs:
        assert parallel.targetoptions.get("parallel") and not serial.targetoptions.get("parallel")
        assert parallel._cache._cache_file._index_name != serial._cache._cache_file._index_name


def test_auto_batch_size_grows_with_the_data_and_ignores_threads():
    from skstruct.engine._fused import Minibatch

    sizes = [Minibatch.of("auto", n, threads).size for n in (1, 3199, 3200, 8936, 51_606, 10**6)
             for threads in (1, 16)]  # fmt: skip
    assert sizes == [1, 1, 1, 1, 2, 2, 5, 5, 32, 32, 32, 32]
    assert Minibatch.of(7, 10, 2) == Minibatch(7, 2)
