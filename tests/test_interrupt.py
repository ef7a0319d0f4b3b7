"""Ctrl-C during fit: the first stops after the epoch in progress with a usable model
(and a warning); a second one raises at once and leaves the learner unfitted."""

import os
import signal
import threading
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from skstruct import (
    SWVP,
    BeamSearch,
    Eisner,
    ExponentiatedGradientSSVM,
    ParameterMixing,
    StructuredPerceptron,
    StructuredSVM,
    TokenFeatures,
)
from skstruct.datasets import make_chain_data
from skstruct.learners import _svm as eg_module
from skstruct.learners import mixing as mixing_module
from skstruct.solvers import _bcfw as bcfw_module
from skstruct.utils.interrupt import InterruptedFitWarning, deferred_interrupt
from tests.test_contract import _tree_data

X, y = make_chain_data(60, n_labels=3, n_words=20, random_state=0)


@pytest.fixture(autouse=True)
def ctrl_c_raises():
    """Python's own SIGINT handler, whatever the test runner was started with (CI runs
    in the background, where SIGINT is ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


TREES = _tree_data(n=40, seed=2)


def _ctrl_c(times=1):
    for _ in range(times):
        os.kill(os.getpid(), signal.SIGINT)


def _interrupting(method, at_call, times):
    """Wrap ``method`` to press Ctrl-C ``times`` times during its ``at_call``-th call."""
    calls = []

    def wrapper(*args, **kwargs):
        calls.append(None)
        if len(calls) == at_call:
            _ctrl_c(times)
        return method(*args, **kwargs)

    return wrapper


LEARNERS = [
    (StructuredPerceptron(features=TokenFeatures(), max_iter=5, random_state=0), (X, y)),
    (StructuredPerceptron(BeamSearch(beam_size=2), update="max_violation",
                          features=TokenFeatures(), max_iter=5, random_state=0), (X, y)),
    (SWVP(features=TokenFeatures(), max_iter=5, random_state=0), (X, y)),
    (StructuredPerceptron(decoder=Eisner(), max_iter=5, random_state=0), TREES),
]  # fmt: skip


@pytest.mark.parametrize("learner, data", LEARNERS, ids=lambda v: type(v).__name__)
def test_first_ctrl_c_keeps_the_last_completed_epoch(learner, data, monkeypatch):
    model = clone(learner)
    monkeypatch.setattr(model, "run_epoch", _interrupting(model.run_epoch, 2, 1))
    with pytest.warns(InterruptedFitWarning, match="after 2 completed epoch"):
        model.fit(*data)
    assert model.n_iter_ == 2 and len(model.history_) == 2
    two_epochs = clone(learner).set_params(max_iter=2).fit(*data)
    np.testing.assert_array_equal(model.coef_, two_epochs.coef_)
    assert model.predict(data[0][:3]) == two_epochs.predict(data[0][:3])
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


@pytest.mark.parametrize("learner, data", LEARNERS, ids=lambda v: type(v).__name__)
def test_second_ctrl_c_raises_and_leaves_the_learner_unfitted(learner, data, monkeypatch):
    model = clone(learner)
    monkeypatch.setattr(model, "run_epoch", _interrupting(model.run_epoch, 2, 2))
    with pytest.raises(KeyboardInterrupt):
        model.fit(*data)
    with pytest.raises(NotFittedError):
        check_is_fitted(model)
    assert not [name for name in vars(model) if name.endswith("_")]
    assert "_weights" not in vars(model)
    assert model.fit(*data).n_iter_ == 5  # and it can be fitted again


#: The structured SVM's solvers: the estimator, and where its epochs run (to interrupt).
SVM_SOLVERS = {
    "eg": (ExponentiatedGradientSSVM, eg_module, "online_epoch"),
    "bcfw": (StructuredSVM, bcfw_module.FrankWolfeBlocks, "epoch"),
}


@pytest.mark.parametrize("solver", SVM_SOLVERS)
@pytest.mark.parametrize("decoder, data", [(None, (X, y)), (Eisner(), TREES)])
def test_svm_stops_after_the_epoch_in_progress(solver, decoder, data, monkeypatch):
    cls, owner, name = SVM_SOLVERS[solver]
    features = None if decoder else TokenFeatures()
    learner = cls(decoder=decoder, features=features, max_iter=5, tol=None, random_state=0)
    monkeypatch.setattr(owner, name, _interrupting(getattr(owner, name), 3, 1))
    with pytest.warns(InterruptedFitWarning, match="after 3 completed epoch"):
        model = clone(learner).fit(*data)
    monkeypatch.undo()
    three = clone(learner).set_params(max_iter=3).fit(*data)
    np.testing.assert_array_equal(model.coef_, three.coef_)
    assert [r["dual"] for r in model.history_] == [r["dual"] for r in three.history_]


def test_eg_second_ctrl_c_leaves_it_unfitted(monkeypatch):
    monkeypatch.setattr(eg_module, "online_epoch", _interrupting(eg_module.online_epoch, 1, 2))
    model = ExponentiatedGradientSSVM(features=TokenFeatures(), max_iter=3)
    with pytest.raises(KeyboardInterrupt):
        model.fit(X, y)
    with pytest.raises(NotFittedError):
        check_is_fitted(model)


def _mixing(max_iter):
    learner = StructuredPerceptron(features=TokenFeatures(), random_state=0)
    return ParameterMixing(learner, n_shards=3, max_iter=max_iter, n_jobs=1, random_state=0)


def test_mixing_keeps_the_last_completed_round(monkeypatch):
    run = mixing_module._Round.run
    calls = []

    def interrupted_third(self, parallel):
        calls.append(None)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return run(self, parallel)

    monkeypatch.setattr(mixing_module._Round, "run", interrupted_third)
    with pytest.warns(InterruptedFitWarning, match="after 2 completed epoch"):
        model = _mixing(5).fit(X, y)
    monkeypatch.undo()
    assert model.n_iter_ == 2 and model.estimator_.n_iter_ == 2
    np.testing.assert_array_equal(model.estimator_.coef_, _mixing(2).fit(X, y).estimator_.coef_)


def test_mixing_interrupted_in_its_first_round_is_unfitted(monkeypatch):
    def interrupted(self, parallel):
        raise KeyboardInterrupt

    monkeypatch.setattr(mixing_module._Round, "run", interrupted)
    model = _mixing(3)
    with pytest.raises(KeyboardInterrupt):
        model.fit(X, y)
    with pytest.raises(NotFittedError):
        check_is_fitted(model)
    assert not [name for name in vars(model) if name.endswith("_")]


def test_deferral_is_main_thread_only():
    seen = {}

    def in_thread():
        with deferred_interrupt() as request:
            seen["handler"] = signal.getsignal(signal.SIGINT)
            seen["requested"] = request.requested

    thread = threading.Thread(target=in_thread)
    thread.start()
    thread.join()
    assert seen == {"handler": signal.default_int_handler, "requested": False}
    with deferred_interrupt() as request:
        _ctrl_c()
        assert request.requested
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_ignored_ctrl_c_stays_ignored(monkeypatch):
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    model = StructuredPerceptron(features=TokenFeatures(), max_iter=3, random_state=0)
    monkeypatch.setattr(model, "run_epoch", _interrupting(model.run_epoch, 1, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.fit(X, y)
    assert model.n_iter_ == 3
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
