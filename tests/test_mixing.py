"""ParameterMixing (McDonald, Hall & Mann 2010) on joblib's backends, dask included."""

import itertools
import os
import time
import warnings
from pathlib import Path

import joblib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV

from skstruct import SWVP, ParameterMixing, StructuredPerceptron, TokenFeatures, Viterbi
from skstruct.datasets import make_chain_data
from skstruct.engine._weights import AveragedWeights
from skstruct.learners import _shard_cache, mixing
from skstruct.learners._shard_cache import ShardRef, WeightsRef, forget
from skstruct.learners._shard_cache import weights as cache_weights
from skstruct.learners.mixing import (
    SlowerThanSerialWarning,
    _Missing,
    _Round,
    _shard_epochs,
    _ShardResult,
)
from skstruct.structures import ArcFactoredTree, EmissionRows, LinearChain


@pytest.fixture(scope="module")
def data():
    X, y = make_chain_data(240, n_labels=4, n_words=25, random_state=5)
    return TokenFeatures().fit_transform(X), y


@pytest.mark.parametrize("average", [True, False])
@pytest.mark.parametrize(
    "learner",
    [StructuredPerceptron(random_state=4), SWVP(gamma="wmr", mode="balanced", random_state=4)],
    ids=["CSP", "SWVP"],
)
def test_one_shard_is_the_serial_learner_bit_for_bit(data, learner, average):
    X, y = data
    learner = learner.set_params(average=average, max_iter=4)
    serial = learner.fit(X, y).coef_.copy()
    mixed = ParameterMixing(learner, n_shards=1, max_iter=4).fit(X, y)
    np.testing.assert_array_equal(mixed.coef_, serial)


# -- McDonald et al., Theorem 2 ---------------------------------------------------------------
# Binary labels, block features f(x, y) in R^6: a token's three features, conjoined with
# its label. The paper breaks ties towards label 1; ours go to the lowest label index,
# so the paper's label 1 is "a" and its label 0 is "b".
_T1 = [([1, 1, 0], "b"), ([0, 0, 1], "a")]
_T2 = [([0, 1, 1], "b"), ([1, 0, 0], "a")]


def _corpus(instances):
    X = [[{f"f{k}": 1.0 for k, v in enumerate(features) if v}] for features, _ in instances]
    return X, [[label] for _, label in instances]


@pytest.mark.parametrize("mu", [[1, 0], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0, 1]])
def test_theorem2_one_shot_mixing_does_not_separate(mu):
    X, y = _corpus(_T1 + _T2)
    learner = StructuredPerceptron(Viterbi(order=0), average=False, shuffle=False, max_iter=10)
    one_shot = ParameterMixing(
        learner, n_shards=2, iterative=False, mixing=mu, mix_over="all", shuffle=False
    )
    one_shot.fit(X, y)
    assert one_shot.shards_[0].tolist() == [0, 1]  # the paper's T1 and T2
    assert one_shot.score(X, y) < 1.0
    if mu == [1, 0]:  # each shard converged to the paper's w1 (first block, then second)
        structure = one_shot.estimator_.structure_
        emission = structure.emission_matrix(one_shot.coef_).toarray()
        names = one_shot.estimator_.encoder_.get_feature_names_out().tolist()
        w = {name: emission[i] for i, name in enumerate(names)}  # columns: a (1), b (0)
        assert [w["f0"][1], w["f1"][1], w["f2"][1]] == [1, 1, 0]
        assert [w["f0"][0], w["f1"][0], w["f2"][0]] == [-1, -1, 0]


@pytest.mark.parametrize("mix_over", ["all", "changed"])
def test_theorem2_iterative_mixing_separates(mix_over):
    # proved for the paper's mixture ("all"); mixing each weight over the shards that
    # changed it separates this example too
    X, y = _corpus(_T1 + _T2)
    learner = StructuredPerceptron(Viterbi(order=0), average=False, shuffle=False)
    iterative = ParameterMixing(
        learner, n_shards=2, iterative=True, max_iter=20, mix_over=mix_over, shuffle=False
    )
    assert iterative.fit(X, y).score(X, y) == 1.0


# -- engines -----------------------------------------------------------------------------------


def _mixed(data, max_iter=3, **params):
    X, y = data
    learner = StructuredPerceptron(update="max_violation", random_state=1)
    mixer = ParameterMixing(learner, n_shards=4, max_iter=max_iter, random_state=2, **params)
    return mixer.fit(X, y)


def test_sequence_labelling_mixes_each_weight_over_the_shards_that_changed_it(data):
    auto = _mixed(data)
    assert auto.mix_over_ == "changed"
    np.testing.assert_array_equal(_mixed(data, mix_over="changed").coef_, auto.coef_)
    paper = _mixed(data, mix_over="all")
    assert paper.mix_over_ == "all" and not np.array_equal(paper.coef_, auto.coef_)


def test_results_do_not_depend_on_n_jobs_or_backend(data):
    reference = _mixed(data).coef_
    np.testing.assert_array_equal(_mixed(data, n_jobs=2).coef_, reference)
    with joblib.parallel_config(backend="threading"):
        np.testing.assert_array_equal(_mixed(data, n_jobs=2).coef_, reference)


def test_rounds_after_the_first_ship_changes_only(data, monkeypatch):
    # a chain's mixes add pairs every round; the changes are keyed by pair, so workers
    # catch up from them in their own layouts and no task carries the full weights
    sent_full = []
    real = mixing._shard_cache.WeightsRef

    def recording(fit_id, version, initial=None, full=None, changes=()):
        sent_full.append((version, full is not None))
        return real(fit_id, version, initial, full, changes)

    reference = _mixed(data, max_iter=6).coef_
    monkeypatch.setattr(mixing._shard_cache, "WeightsRef", recording)
    with joblib.parallel_config(backend="threading"):  # one cache: nothing is resent
        mixed = _mixed(data, max_iter=6, n_jobs=2)
    np.testing.assert_array_equal(mixed.coef_, reference)
    assert sum(r["resent"] for r in mixed.history_) == 0
    assert len(sent_full) == 6 * 4 and not any(full for _, full in sent_full)
    assert all(r["changed"] > 0 for r in mixed.history_)
    # loky: a shard meeting a worker that lacks it is resent with the full weights
    np.testing.assert_array_equal(_mixed(data, max_iter=6, n_jobs=2).coef_, reference)


def test_threads_do_not_share_a_shards_weights():
    # The fused epoch kernel releases the GIL, so shards really run side by side on
    # threads; each must train on its own weights.
    X, y = make_chain_data(2000, n_labels=5, n_words=60, length=(10, 30), random_state=9)
    X = TokenFeatures().fit_transform(X)
    mixing = ParameterMixing(
        StructuredPerceptron(random_state=0), n_shards=8, max_iter=4, random_state=0
    )
    reference = mixing.fit(X, y).coef_
    with joblib.parallel_config(backend="threading", n_jobs=2):
        for _ in range(3):
            np.testing.assert_array_equal(
                clone(mixing).set_params(n_jobs=2).fit(X, y).coef_, reference
            )


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def test_dask_backend_gives_the_same_weights(data, dask_client):
    reference = _mixed(data).coef_
    with joblib.parallel_config(backend="dask"):
        np.testing.assert_array_equal(_mixed(data, n_jobs=-1).coef_, reference)


def test_shards_on_dask_workers_train_on_one_thread_unless_asked(dask_client):
    # joblib's dask backend is active inside its tasks, and its effective_n_jobs is
    # every thread of the cluster whatever n_jobs says
    from skstruct.learners.mixing import _one_thread_unless_asked

    def threads_in_task():
        raw = joblib.effective_n_jobs(None)
        with _one_thread_unless_asked():
            return raw, joblib.effective_n_jobs(None), joblib.effective_n_jobs(3)

    with joblib.parallel_config(backend="dask"):
        answers = joblib.Parallel(n_jobs=2)(joblib.delayed(threads_in_task)() for _ in range(2))
    assert all(raw == 2 for raw, _, _ in answers)  # the cluster's 2 threads: the trap
    assert all(answer[1:] == (1, 3) for answer in answers)


def test_what_dask_nannies_leave_in_the_environment_is_put_back(monkeypatch):
    # a LocalCluster's nannies copy their workers' settings into os.environ, where the
    # processes a pytest worker starts later (notebook kernels, loky workers) would
    # inherit a MALLOC_TRIM_THRESHOLD_ that slows them; tests/conftest.py puts it back
    # after every test
    dask = pytest.importorskip("dask")
    pytest.importorskip("distributed")  # its settings join dask's config on import
    from tests.conftest import _ENVIRON_AT_START, _undo_dask_environ

    leaked = dask.config.get("distributed.nanny.pre-spawn-environ")
    monkeypatch.setattr(os, "environ", dict(os.environ))  # the real one stays as it is
    os.environ.update({name: str(value) for name, value in leaked.items()})
    os.environ["PYTHONHASHSEED"] = "6640"
    _undo_dask_environ()
    for name in [*leaked, "PYTHONHASHSEED"]:
        assert os.environ.get(name) == _ENVIRON_AT_START.get(name), name


def test_ray_backend_gives_the_same_weights(data):
    ray = pytest.importorskip("ray")
    from ray.util.joblib import register_ray

    reference = _mixed(data).coef_
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        register_ray()
        with joblib.parallel_config(backend="ray"):
            np.testing.assert_array_equal(_mixed(data, n_jobs=2).coef_, reference)
    finally:
        ray.shutdown()


class _RecordsOrders(StructuredPerceptron):
    """Notes whether each epoch's visiting order came writable."""

    def run_epoch(self, state, data, order):
        self.writable_orders_.append(order.flags.writeable)
        return super().run_epoch(state, data, order)


def test_read_only_visiting_orders_reach_the_epochs_writable(data):
    # ray hands a task read-only arrays, and numba compiled a whole epoch kernel again
    # for a read-only visiting order (search_update_epoch, about 6 s on a cold worker)
    from skstruct.engine import training_data
    from skstruct.learners import _shard_cache, mixing

    X, y = data
    learner = _RecordsOrders(update="max_violation", random_state=0)
    learner.writable_orders_ = []
    state, (encoded, labels) = learner.init_state(X[:20], y[:20])
    visit = np.arange(20)
    visit.flags.writeable = False
    fit_id = "read-only-visits"
    shard = _shard_cache.ShardRef(fit_id, 0, training_data(encoded, labels, None))
    full = (state.structure, state.coef, state.coef_sum, state.n_seen)
    try:
        result = mixing._shard_epochs(learner, shard, [visit, visit],
                                      _shard_cache.WeightsRef(fit_id, 0, full=full))  # fmt: skip
    finally:
        _shard_cache.forget(fit_id)
    assert isinstance(result, mixing._ShardResult)
    assert learner.writable_orders_ == [True, True]


class _KillOnce(StructuredPerceptron):
    """A learner whose first epoch on a dask worker kills that worker's process."""

    def run_epoch(self, state, data, order):
        flag = os.environ.get("SKSTRUCT_TEST_KILL_FLAG", "")
        if flag and _in_dask_worker() and _claim(flag):
            os._exit(1)  # the worker dies in the middle of the mixing round
        return super().run_epoch(state, data, order)


def _in_dask_worker():
    try:
        from distributed import get_worker

        get_worker()
    except (ImportError, ValueError):
        return False
    return True


def _set_env(key, value):
    os.environ[key] = value


def _claim(flag):
    try:
        os.rename(flag, flag + ".taken")  # atomic: exactly one task wins
    except OSError:
        return False
    return True


def test_training_survives_a_worker_killed_mid_epoch(data, dask_client, tmp_path):
    X, y = data
    flag = tmp_path / "kill"
    dask_client.run(_set_env, "SKSTRUCT_TEST_KILL_FLAG", str(flag))
    learner = _KillOnce(update="max_violation", random_state=1)
    reference = ParameterMixing(learner, n_shards=4, max_iter=3, random_state=2).fit(X, y)
    flag.touch()
    before = set(dask_client.scheduler_info()["workers"])
    with joblib.parallel_config(backend="dask"):
        survived = ParameterMixing(learner, n_shards=4, max_iter=3, random_state=2, n_jobs=-1)
        survived.fit(X, y)
    assert Path(str(flag) + ".taken").exists()  # a worker really was killed ...
    dask_client.wait_for_workers(2, timeout=60)
    assert set(dask_client.scheduler_info()["workers"]) != before  # ... and replaced
    np.testing.assert_array_equal(survived.coef_, reference.coef_)


class _KillAlways(StructuredPerceptron):
    """A learner that kills every dask worker it runs on."""

    def run_epoch(self, state, data, order):
        if _in_dask_worker():
            os._exit(1)
        return super().run_epoch(state, data, order)


def test_losing_every_worker_is_one_clear_error(data):
    dask = pytest.importorskip("dask")
    distributed = pytest.importorskip("distributed")
    X, y = data
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster),
        joblib.parallel_config(backend="dask"),
    ):
        # every worker dies, so the round can only end by the timeout (joblib's dask
        # backend waits for the lost task otherwise; see ParameterMixing's timeout): 3 s,
        # where the error came after 10 s of waiting with timeout=10
        mixing = ParameterMixing(_KillAlways(), n_shards=2, max_iter=2, n_jobs=-1, timeout=3)
        with pytest.raises(RuntimeError, match=r"mixing round 1 of 2 failed, so no model"):
            mixing.fit(X, y)
    assert not hasattr(mixing, "estimator_")


# -- the estimator surface ---------------------------------------------------------------------


def test_error_mixing_and_history(data):
    mixed = _mixed(data, mixing="error")
    for record in mixed.history_:
        mistakes, mu = np.array(record["mistakes"]), np.array(record["mixing_weights"])
        assert mu.sum() == pytest.approx(1.0)
        if mistakes.sum():
            np.testing.assert_allclose(mu, mistakes / mistakes.sum())
        assert record["seconds"] > 0
        # the split of the round: compute on the workers, mixing here, the rest shipping
        assert 0 < record["compute_seconds"] <= record["seconds"]
        assert 0 <= record["mix_seconds"] <= record["seconds"]


def test_dev_scores_and_grid_search_over_shards(data):
    X, y = data
    mixed = ParameterMixing(
        StructuredPerceptron(random_state=0), n_shards=3, max_iter=2, random_state=0
    ).fit(X[:200], y[:200], X_dev=X[200:], y_dev=y[200:])
    assert all(0 < r["dev_score"] <= 1 for r in mixed.history_)
    search = GridSearchCV(
        ParameterMixing(StructuredPerceptron(random_state=0), max_iter=2, random_state=0),
        {"n_shards": [1, 2, 4]},
        cv=3,
    )
    assert len(search.fit(X, y).cv_results_["params"]) == 3


def test_default_shards_are_one_per_worker(data):
    X, y = data
    mixing = ParameterMixing(StructuredPerceptron(random_state=0), max_iter=1, random_state=0)
    with pytest.warns(SlowerThanSerialWarning, match="one worker"):
        assert len(mixing.fit(X, y).shards_) == 1  # n_jobs=None: one worker
    assert len(mixing.set_params(n_jobs=2).fit(X, y).shards_) == 2
    with joblib.parallel_config(backend="threading", n_jobs=3):
        assert len(mixing.set_params(n_jobs=None).fit(X, y).shards_) == 3
    assert len(mixing.set_params(n_jobs=4).fit(X[:3], y[:3]).shards_) == 3  # one a sequence


def test_dask_default_shards_are_the_clusters_workers(data, dask_client):
    X, y = data
    with joblib.parallel_config(backend="dask"):
        mixing = ParameterMixing(StructuredPerceptron(random_state=0), max_iter=1)
        assert len(mixing.fit(X, y).shards_) == 2  # the fixture's 2 one-thread workers


def test_setups_slower_than_serial_warn(data, monkeypatch):
    X, y = data
    learner = StructuredPerceptron(random_state=0)

    def reasons(max_iter=1, **params):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ParameterMixing(learner, max_iter=max_iter, random_state=0, **params).fit(X, y)
        return " ".join(str(w.message) for w in caught if w.category is SlowerThanSerialWarning)

    assert reasons(n_jobs=2) == ""
    assert "n_shards=4 is more than the 2 workers" in reasons(n_shards=4, n_jobs=2)
    assert "one worker (n_jobs=1)" in reasons(n_shards=2, n_jobs=1)
    with joblib.parallel_config(backend="threading"):
        # threads are a local backend too: the same check, without starting loky processes
        assert f"{joblib.cpu_count() + 1} workers share" in reasons(n_jobs=joblib.cpu_count() + 1)
        # measured after the second round: a mix slower than the shards' epochs warns
        real_mix = mixing._mix

        def slow_mix(*args):
            time.sleep(0.25)
            return real_mix(*args)

        monkeypatch.setattr(mixing, "_mix", slow_mix)
        assert "shipping and mixing against" in reasons(max_iter=2, n_jobs=2)
        monkeypatch.setattr(mixing, "_mix", real_mix)
        # shards whose epochs take long: the rounds pay, no warning
        real_epoch = StructuredPerceptron.run_epoch

        def slow_epoch(self, *args):
            time.sleep(0.25)
            return real_epoch(self, *args)

        monkeypatch.setattr(StructuredPerceptron, "run_epoch", slow_epoch)
        assert reasons(max_iter=2, n_jobs=2) == ""


def test_early_stopping_keeps_the_best_round(data):
    X, y = data
    params = dict(n_shards=2, max_iter=30, random_state=0)
    mixing = ParameterMixing(StructuredPerceptron(random_state=0), n_iter_no_change=2, **params)
    mixing.fit(X[:200], y[:200], X_dev=X[200:], y_dev=y[200:])
    scores = [r["dev_score"] for r in mixing.history_]
    best = mixing.best_iteration_
    assert len(scores) < 30 and len(scores) == best + 2
    assert scores[best - 1] == max(scores) and max(scores[best:]) <= scores[best - 1]
    assert mixing.score(X[200:], y[200:]) == scores[best - 1]  # the best round's weights
    elapsed = [r["elapsed"] for r in mixing.history_]
    assert all(b > a > 0 for a, b in itertools.pairwise(elapsed))
    # the best round's weights are those of a fit that stops there
    shorter = ParameterMixing(StructuredPerceptron(random_state=0), **{**params, "max_iter": best})
    np.testing.assert_array_equal(shorter.fit(X[:200], y[:200]).coef_, mixing.coef_)
    held_out = mixing.set_params(validation_fraction=0.2).fit(X, y)
    assert held_out.history_[0]["dev_score"] is not None
    with pytest.raises(ValueError, match="n_iter_no_change needs a development set"):
        mixing.set_params(validation_fraction=None).fit(X, y)


def test_bad_mixing_and_shards_are_refused(data):
    X, y = data
    with pytest.raises(ValueError, match="mixing must be"):
        ParameterMixing(StructuredPerceptron(), n_shards=2, mixing=[1, 2, 3]).fit(X, y)
    with pytest.raises(ValueError, match="n_shards=500 is more than the 240 sequences"):
        ParameterMixing(StructuredPerceptron(), n_shards=500).fit(X, y)


def test_shard_task_leaves_the_shared_learner_untouched(data):
    # Threads receive one and the same learner object; a task that set its weights on
    # it would race with the others (seen on CoNLL-2002 before this was fixed).
    X, y = data
    learner = clone(StructuredPerceptron(random_state=0))
    state, data = learner.init_state(X, y)
    worker = learner.worker_copy()
    before = dict(vars(worker))
    shard = ShardRef("untouched", 0, data)
    _shard_epochs(worker, shard, [np.arange(len(X))], WeightsRef("untouched", 0, state.structure))
    assert vars(worker).keys() == before.keys()
    assert all(vars(worker)[k] is v for k, v in before.items())
    forget("untouched")


# -- what workers keep between rounds ----------------------------------------------------------


def _encoded_shard(data, n=60):
    X, y = data
    learner = clone(StructuredPerceptron(random_state=0))
    state, data = learner.init_state(X[:n], y[:n])
    return learner.worker_copy(), data, state.structure


def test_a_worker_without_the_data_says_so_and_gets_it_sent(data):
    worker, shard, n = _encoded_shard(data)  # n: the structure of round 0's weights
    visits = [np.arange(60)]
    try:
        # a worker that never saw the shard, or the weights of round 2, says what it lacks
        answer = _shard_epochs(worker, ShardRef("new", 0), visits, WeightsRef("new", 0, n))
        assert (answer.shard, answer.weights) == (True, False)
        first = _shard_epochs(worker, ShardRef("new", 0, shard), visits, WeightsRef("new", 0, n))
        answer = _shard_epochs(worker, ShardRef("new", 0), visits, WeightsRef("new", 2, n))
        assert (answer.shard, answer.weights) == (False, True)
        # the shard is now kept: the same call without it gives the same result
        again = _shard_epochs(worker, ShardRef("new", 0), visits, WeightsRef("new", 0, n))
        for name in ("keys", "coef", "coef_sum", "n_seen"):
            np.testing.assert_array_equal(getattr(first, name), getattr(again, name))
        assert first.keys.size > n.n_dense  # emission pairs changed, keyed past the dense part
    finally:
        forget("new")


def _round_zero(data):
    """A worker copy, a shard of 60 sentences, its structure and round 0's state."""
    worker, shard, structure = _encoded_shard(data)
    state = (structure, np.zeros(structure.n_weights), np.zeros(structure.n_weights), 0)
    return worker, shard, structure, state


def _forgetting(fit_id):
    """A ``parallel`` that runs the tasks here, then forgets what this process kept of
    ``fit_id``: each call meets a worker that kept nothing from the last."""

    def parallel(tasks):
        results = [function(*args, **kwargs) for function, args, kwargs in tasks]
        forget(fit_id)
        return results

    return parallel


@pytest.mark.filterwarnings("ignore:`sklearn.utils.parallel.delayed` should be used")
def test_a_task_sent_again_carries_its_shard_and_the_full_weights(data):
    # A worker lacking the shard and the weights a task refers to says so, and the task
    # sent again (with both) may land on a worker that kept nothing at all.
    worker, shard, structure, state = _round_zero(data)
    visits = [[np.arange(60)]]
    parallel = _forgetting("again")
    try:
        round_ = _Round("again", 1, worker, [shard], visits, state, (), structure)
        results = round_.run(parallel)
        assert round_.resent == 1
        assert isinstance(results[0], _ShardResult) and results[0].n_seen == 60
        forget("again")
        reference = _Round("again", 0, worker, [shard], visits, state, (), structure)
        reference = reference.run(parallel)[0]
        for name in ("keys", "coef", "coef_sum"):
            np.testing.assert_array_equal(getattr(reference, name), getattr(results[0], name))
    finally:
        forget("again")


@pytest.mark.filterwarnings("ignore:`sklearn.utils.parallel.delayed` should be used")
def test_a_task_is_sent_again_with_what_its_worker_lacked_then_with_everything(data):
    worker, shard, structure, state = _round_zero(data)
    sent = []  # per dispatch: (shard sent, full weights sent) of each task

    def parallel(tasks):
        tasks = list(tasks)
        sent.append([(a[1].data is not None, a[3].full is not None) for _, a, _ in tasks])
        if len(sent) == 1:  # the worker has the weights but not the shard
            return [_Missing(shard=True, weights=False)]
        if len(sent) == 2:  # the task sent again lands on a worker that lacks the weights
            return [_Missing(shard=False, weights=True)]
        results = [function(*args, **kwargs) for function, args, kwargs in tasks]
        forget("lacked")
        return results

    try:
        round_ = _Round("lacked", 1, worker, [shard], [[np.arange(60)]], state, (), structure)
        results = round_.run(parallel)
        assert sent == [[(False, False)], [(True, False)], [(True, True)]]
        assert round_.resent == 2 and isinstance(results[0], _ShardResult)
    finally:
        forget("lacked")


def test_a_worker_without_the_shard_reads_it_from_its_file(data):
    worker, shard, n = _encoded_shard(data)
    visits = [np.arange(60)]
    folder, paths = _shard_cache.write_shards([shard])
    try:
        sent = _shard_epochs(worker, ShardRef("sent", 0, shard), visits, WeightsRef("sent", 0, n))
        read = _shard_epochs(
            worker, ShardRef("read", 0, None, paths[0]), visits, WeightsRef("read", 0, n)
        )
        assert isinstance(read, _ShardResult)
        for name in ("keys", "coef", "coef_sum", "n_seen"):
            np.testing.assert_array_equal(getattr(read, name), getattr(sent, name))
    finally:
        _shard_cache.remove_shards(folder)
        forget("sent")
        forget("read")
    assert not os.path.exists(folder)
    # a file this worker cannot read (another machine, or the fit is over): "missing"
    try:
        answer = _shard_epochs(
            worker, ShardRef("gone", 0, None, paths[0]), visits, WeightsRef("gone", 0, n)
        )
        assert isinstance(answer, _Missing) and (answer.shard, answer.weights) == (True, False)
    finally:
        forget("gone")


@pytest.mark.filterwarnings("ignore:`sklearn.utils.parallel.delayed` should be used")
def test_a_task_whose_worker_lacks_the_shard_is_not_sent_again_when_a_file_holds_it(data):
    worker, shard, structure, state = _round_zero(data)
    visits = [[np.arange(60)]]
    folder, paths = _shard_cache.write_shards([shard])
    parallel = _forgetting("file")
    try:  # a worker that kept the weights of round 1, not the shard
        cache_weights(WeightsRef("file", 1, full=state))
        round_ = _Round("file", 1, worker, [shard], visits, state, (), structure, paths)
        results = round_.run(parallel)
        assert round_.resent == 0 and results[0].n_seen == 60
        # without the file, the same round sends the task again (twice here: this
        # worker keeps nothing from one call to the next)
        cache_weights(WeightsRef("file", 1, full=state))
        round_ = _Round("file", 1, worker, [shard], visits, state, (), structure)
        again = round_.run(parallel)
        assert round_.resent == 2
        for name in ("keys", "coef", "coef_sum"):
            np.testing.assert_array_equal(getattr(again[0], name), getattr(results[0], name))
    finally:
        forget("file")
        _shard_cache.remove_shards(folder)


@pytest.mark.filterwarnings("ignore:`sklearn.utils.parallel.delayed` should be used")
def test_the_first_round_leaves_the_shards_in_their_files(data):
    # a worker on this machine reads its shard from the file; one that cannot (another
    # machine's) answers so, and the task goes again with it; without files the shard
    # goes with the first task
    worker, shard, structure, state = _round_zero(data)
    visits = [[np.arange(60)]]
    folder, paths = _shard_cache.write_shards([shard])
    sent = []  # per dispatch: whether each task carried its shard

    def parallel(tasks):
        tasks = list(tasks)
        sent.append([a[1].data is not None for _, a, _ in tasks])
        results = [function(*args, **kwargs) for function, args, kwargs in tasks]
        forget("first")
        return results

    def first_round(paths):
        sent.clear()
        round_ = _Round("first", 0, worker, [shard], visits, state, (), structure, paths)
        return round_.run(parallel)[0], round_.resent

    try:
        from_file, resent = first_round(paths)
        assert (sent, resent) == ([[False]], 0)
        _shard_cache.remove_shards(folder)  # unreadable here now
        sent_again, resent = first_round(paths)
        assert (sent, resent) == ([[False], [True]], 1)
        shipped, resent = first_round(None)
        assert (sent, resent) == ([[True]], 0)
        for name in ("keys", "coef", "coef_sum"):
            np.testing.assert_array_equal(getattr(from_file, name), getattr(shipped, name))
            np.testing.assert_array_equal(getattr(sent_again, name), getattr(shipped, name))
    finally:
        forget("first")
        _shard_cache.remove_shards(folder)


def test_shard_files_are_written_for_process_workers_and_removed_after_fit(data, monkeypatch):
    folders = []
    real = _shard_cache.write_shards

    def recording(shards):
        folder, paths = real(shards)
        folders.append((folder, len(paths)))
        return folder, paths

    monkeypatch.setattr(_shard_cache, "write_shards", recording)
    reference = _mixed(data, max_iter=3).coef_
    assert folders == []  # one worker: nothing to read
    with joblib.parallel_config(backend="threading"):  # one cache for every task
        _mixed(data, max_iter=3, n_jobs=2)
    assert folders == []
    np.testing.assert_array_equal(_mixed(data, max_iter=3, n_jobs=2).coef_, reference)
    [(folder, n_files)] = folders
    assert n_files == 4 and not os.path.exists(folder)


def test_no_shard_files_where_none_can_be_written(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "missing"))
    assert _shard_cache.write_shards([np.zeros(3)]) == (None, None)
    _shard_cache.remove_shards(None)  # nothing to remove


def test_an_interrupt_while_writing_shard_files_leaves_no_folder(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))

    def interrupted(data, path):
        raise KeyboardInterrupt

    monkeypatch.setattr(_shard_cache.joblib, "dump", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _shard_cache.write_shards([np.zeros(3)])
    assert list(tmp_path.iterdir()) == []


def test_kept_weights_catch_up_from_the_changes_sent():
    n = ArcFactoredTree(6)  # a fixed layout of 6 weights
    changes = [
        (1, np.array([0, 3]), np.array([1.0, -1.0]), np.array([0.5, 0.0]), 2),
        (2, np.array([3, 5]), np.array([2.0, 4.0]), np.array([1.0, 1.0]), 4),
        (3, np.array([1]), np.array([7.0]), np.array([3.0]), 6),
    ]
    try:
        # a worker that saw nothing rebuilds round 3 from round 0 (all zeros)
        structure, coef, coef_sum, n_seen = cache_weights(WeightsRef("c", 3, n, changes=changes))
        assert structure is n
        np.testing.assert_array_equal(coef, [1, 7, 0, 2, 0, 4])
        np.testing.assert_array_equal(coef_sum, [0.5, 3, 0, 1, 0, 1])
        assert n_seen == 6
        assert not coef.flags.writeable  # tasks train on copies
        # one that lags further back than the changes sent cannot
        forget("c")
        assert cache_weights(WeightsRef("c", 3, n, changes=changes[1:])) is None
        full = (n, np.arange(6.0), np.ones(6), 9)
        assert cache_weights(WeightsRef("c", 3, n, full=full))[3] == 9
        np.testing.assert_array_equal(cache_weights(WeightsRef("c", 3, n))[1], np.arange(6.0))
    finally:
        forget("c")


# -- chains: shards with layouts of their own --------------------------------------------------


def _prefixed(X, prefix):
    return [[{f"{prefix}{key}": value for key, value in token.items()} for token in x] for x in X]


def test_chain_shards_touching_different_pairs_mix_in_the_union_layout():
    # Two shards over disjoint vocabularies: their updates touch different (feature,
    # label) pairs, so each comes back with emission rows the other lacks.
    XA, yA = make_chain_data(30, n_labels=3, n_words=12, random_state=0)
    XB, yB = make_chain_data(30, n_labels=3, n_words=12, random_state=1)
    features = TokenFeatures()
    X = _prefixed(features.fit_transform(XA), "a:") + _prefixed(features.transform(XB), "b:")
    y = yA + yB
    learner = StructuredPerceptron(average=False, shuffle=False, max_iter=3)
    mu = np.array([0.75, 0.25])
    mixed = ParameterMixing(
        learner, n_shards=2, iterative=False, mixing=mu, mix_over="all", shuffle=False
    )
    mixed.fit(X, y)
    assert [s.tolist() for s in mixed.shards_] == [list(range(30)), list(range(30, 60))]

    # each shard on its own, with the same encoding, from zero weights
    reference = clone(learner)
    state, (encoded, labels) = reference.init_state(X, y)
    bounds = encoded.offsets
    emissions, dense = [], []
    for shard in mixed.shards_:
        weights = state.copy()
        shard_data = (encoded.take(shard), labels[bounds[shard[0]] : bounds[shard[-1] + 1]])
        for _ in range(learner.max_iter):
            reference.run_epoch(weights, shard_data, np.arange(len(shard)))
        structure, coef = weights.structure, weights.coef
        emissions.append(structure.emission_matrix(coef).toarray())
        dense.append(coef[: structure.n_dense])
    touched = [emission != 0 for emission in emissions]
    assert touched[0].any() and touched[1].any() and not (touched[0] & touched[1]).any()

    structure = mixed.estimator_.structure_
    np.testing.assert_array_equal(
        structure.emission_matrix(mixed.coef_).toarray(),
        mu[0] * emissions[0] + mu[1] * emissions[1],
    )
    np.testing.assert_array_equal(
        mixed.coef_[: structure.n_dense], mu[0] * dense[0] + mu[1] * dense[1]
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sets(st.integers(0, 11), max_size=8), min_size=1, max_size=4),
    st.sampled_from(["all", "changed"]),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_mix_matches_a_weight_by_weight_twin(changed_keys, over, zero_mu, seed):
    """``_mix`` against a dict per weight: ``"all"``, the mixture of whole vectors (a
    shard that left a weight alone counts with its value before); ``"changed"``, each
    weight over the shards that changed it, ``mu`` renormalised (none with a say: the
    value before). One shard of ``mu`` 1 gives its own values back, bit for bit."""
    rng = np.random.RandomState(seed)
    structure = ArcFactoredTree(12)  # 12 weights, keyed by position
    coef, coef_sum = rng.normal(size=12), rng.normal(size=12)
    mu = rng.uniform(0.1, 1.0, size=len(changed_keys))
    if zero_mu:
        mu[0] = 0.0
    mu = mu / mu.sum() if mu.sum() > 0 else np.full(len(mu), 1.0 / len(mu))
    results = []
    for keys in changed_keys:
        keys = np.array(sorted(keys), dtype=np.int64)
        values, sums = rng.normal(size=keys.size), rng.normal(size=keys.size)
        results.append(_ShardResult(keys, values, sums, int(rng.randint(1, 50)), [], 0.0))
    (_, mixed_coef, mixed_sum, n_seen), _ = mixing._mix(mu, (structure, coef, coef_sum, 3),
                                                        results, over)  # fmt: skip
    for k in range(12):
        own = [
            (m, dict(zip(r.keys.tolist(), zip(r.coef, r.coef_sum)))) for m, r in zip(mu, results)
        ]
        if over == "all":
            expected = [
                sum(m * values.get(k, (coef[k], coef_sum[k]))[i] for m, values in own)
                for i in (0, 1)
            ]
        else:
            said = [(m, values[k]) for m, values in own if k in values]
            total = sum(m for m, _ in said)
            if not said or total == 0:
                expected = [coef[k], coef_sum[k]]
            else:
                expected = [sum(m * v[i] for m, v in said) / total for i in (0, 1)]
        if not any(k in r.keys for r in results):
            expected = [coef[k], coef_sum[k]]  # no shard changed it: kept exactly
            assert (mixed_coef[k], mixed_sum[k]) == (coef[k], coef_sum[k])
        np.testing.assert_allclose([mixed_coef[k], mixed_sum[k]], expected, rtol=1e-12, atol=1e-12)
    assert n_seen == round(float(mu @ [r.n_seen for r in results]))
    if len(results) == 1:
        one = results[0]
        (_, alone, alone_sum, _), _ = mixing._mix(np.ones(1), (structure, coef, coef_sum, 3),
                                                  [one], over)  # fmt: skip
        np.testing.assert_array_equal(alone[one.keys], one.coef)
        np.testing.assert_array_equal(alone_sum[one.keys], one.coef_sum)


_PAIRS = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3), st.integers(-3, 3)), max_size=25)


def _keyed(chain, coef, coef_sum):
    """Twin of a chain state: {key: (weight, sum)} of its nonzero weights."""
    n_dense = chain.n_dense
    twin = {k: (coef[k], coef_sum[k]) for k in range(n_dense) if coef[k] or coef_sum[k]}
    weights = chain.emission_matrix(coef).tocoo()
    sums = chain.emission_matrix(coef_sum).toarray()
    for f, k, value in zip(weights.row, weights.col, weights.data):
        if value or sums[f, k]:
            twin[n_dense + f * chain.n_labels + k] = (value, sums[f, k])
    for f, k in zip(*np.nonzero(sums)):
        twin.setdefault(n_dense + f * chain.n_labels + k, (0.0, sums[f, k]))
    return twin


@settings(max_examples=60, deadline=None)
@given(_PAIRS, _PAIRS, st.booleans())
def test_chain_changes_keyed_by_pair_match_a_dict(start_pairs, updates, grow):
    """change_since, values_at and with_change against {key: (weight, sum)}: the
    change from a start state to a trained one, applied to the start, gives the trained
    weights, whatever the layouts (free slots, moved rows, a grown pool)."""
    chain = LinearChain(5, 4, order=1, rows=EmissionRows.empty(5))
    n_dense = chain.n_dense
    zeros = np.zeros(chain.n_weights)

    def keys_of(pairs):
        return np.array(sorted({n_dense + f * 4 + k for f, k, _ in pairs}), dtype=np.int64)

    def values_of(pairs, keys):
        last = {n_dense + f * 4 + k: float(v) for f, k, v in pairs}
        return np.array([last[key] for key in keys])

    keys = np.concatenate([[0, 2], keys_of(start_pairs)]).astype(np.int64)
    values = np.concatenate([[1.0, -2.0], values_of(start_pairs, keys[2:])])
    start, coef, coef_sum = chain.with_change(zeros, zeros, keys, values, 2 * values)
    assert _keyed(start, coef, coef_sum) == {int(k): (v, 2 * v) for k, v in zip(keys, values) if v}
    got_values, got_sums = start.values_at(keys, coef, coef_sum)
    np.testing.assert_array_equal(got_values, values)
    np.testing.assert_array_equal(got_sums, 2 * values)
    # "training": a copy of the start, more pairs set, maybe a grown pool
    new_keys = np.concatenate([[1], keys_of(updates)]).astype(np.int64)
    new_values = np.concatenate([[5.0], values_of(updates, new_keys[1:])])
    trained, t_coef, t_sum = start.with_change(coef, coef_sum, new_keys, new_values, new_values)
    if grow:
        state = AveragedWeights.from_state(trained, t_coef, t_sum, 1)
        trained.grow(state, pool_size=trained.rows.nnz + 30)
        t_coef, t_sum = state.coef, state.coef_sum
    before, after = _keyed(start, coef, coef_sum), _keyed(trained, t_coef, t_sum)
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    got_keys, got_coef, got_sum = trained.change_since(start, coef, coef_sum, t_coef, t_sum)
    assert np.all(np.diff(got_keys) > 0)
    assert set(got_keys.tolist()) == changed
    for key, value, total in zip(got_keys, got_coef, got_sum):
        assert after.get(int(key), (0.0, 0.0)) == (value, total)
    rebuilt = start.with_change(coef, coef_sum, got_keys, got_coef, got_sum)
    assert _keyed(*rebuilt) == after
    assert _keyed(start, coef, coef_sum) == before  # with_change copied: the start is as it was


def test_chain_changes_reach_their_kernels_read_only(monkeypatch):
    """with_change, values_at and change_since hand their kernels read-only views of
    writable and read-only arrays alike: numba compiles a kernel once more for
    read-only arrays (which the weight cache and ray's object store hand out), so a
    cold ray worker compiled these kernels a second time."""
    from skstruct._kernels import rows as kernels

    def arrays_in(args):
        for arg in args:
            if isinstance(arg, tuple):
                yield from arrays_in(arg)
            elif isinstance(arg, np.ndarray):
                yield arg

    calls = []

    def recording(name, kernel):
        def recorded(*args):
            calls.append((name, [a.flags.writeable for a in arrays_in(args)]))
            return kernel(*args)

        return recorded

    for name in ("changed_pairs", "merged_pairs", "pair_slots"):
        monkeypatch.setattr(kernels, name, recording(name, getattr(kernels, name)))
    chain = LinearChain(5, 4, order=1, rows=EmissionRows.empty(5))
    keys = np.array([0, chain.n_dense + 3, chain.n_dense + 9], dtype=np.int64)
    zeros = np.zeros(chain.n_weights)
    start, coef, coef_sum = chain.with_change(zeros, zeros, keys, np.ones(3), np.ones(3))
    coef.flags.writeable = coef_sum.flags.writeable = False  # as the weight cache keeps them
    trained, t_coef, t_sum = start.with_change(coef, coef_sum, keys[1:], np.full(2, 2.0),
                                               np.full(2, 2.0))  # fmt: skip
    trained.values_at(keys, t_coef, t_sum)
    trained.change_since(start, coef, coef_sum, t_coef, t_sum)
    assert {name for name, _ in calls} == {"changed_pairs", "merged_pairs", "pair_slots"}
    assert all(flags and not any(flags) for _, flags in calls), calls


def test_shards_train_on_one_thread_unless_the_learner_says_otherwise(data, monkeypatch):
    """Inside a task of joblib's dask backend, n_jobs=None means every core of the
    cluster; a shard must not take them all (two workers would oversubscribe the
    machine). Simulated by a context that sets n_jobs=2 around an in-process fit."""
    import joblib

    from skstruct.engine import _loop as _base

    used = []
    real = _base.numba_threads

    def recording(n):
        used.append(n)
        return real(n)

    monkeypatch.setattr(_base, "numba_threads", recording)
    X, y = data
    mixing = ParameterMixing(StructuredPerceptron(random_state=0), n_shards=2, max_iter=1,
                             n_jobs=1, random_state=0)  # fmt: skip
    with joblib.parallel_config(n_jobs=2):
        mixing.fit(X[:60], y[:60])
        assert used and set(used) == {1}
        used.clear()
        mixing.set_params(estimator__n_jobs=2).fit(X[:60], y[:60])
        assert set(used) == {2}  # an explicit n_jobs is honoured


# -- shards encoded on the workers (encode_on) ------------------------------------------------


@pytest.fixture(scope="module")
def raw_data():
    """Raw tokens (words with a tag column) that the learner featurises itself."""
    X, y = make_chain_data(240, n_labels=4, n_words=25, random_state=6)
    X = [[(word, "T" + word[-1]) for word in sentence] for sentence in X]
    return X, y


def _raw_mixing(encode_on, n_shards, n_features=None, **params):
    learner = StructuredPerceptron(
        features=TokenFeatures(columns=["tag"]), n_features=n_features, random_state=3
    )
    return ParameterMixing(
        learner, n_shards=n_shards, max_iter=3, encode_on=encode_on, random_state=4, **params
    )


def _dev_split(raw_data):
    """Training sentences and a development set with a word and a label no training
    sentence has."""
    X, y = raw_data
    X_dev, y_dev = [list(s) for s in X[180:]], [list(labels) for labels in y[180:]]
    X_dev[3][0] = ("unheard", "Tq")
    y_dev[4][0] = "unseen label"
    return X[:180], y[:180], X_dev, y_dev


def test_one_shard_encoded_on_a_worker_is_the_serial_learner_bit_for_bit(raw_data):
    X, y = raw_data
    serial = _raw_mixing("parent", 1).estimator.set_params(max_iter=3).fit(X, y)
    mixed = _raw_mixing("workers", 1).fit(X, y)
    np.testing.assert_array_equal(mixed.coef_, serial.coef_)
    assert (
        mixed.estimator_.encoder_.get_feature_names_out().tolist()
        == serial.encoder_.get_feature_names_out().tolist()
    )


@pytest.mark.parametrize("n_shards", [2, 3])
def test_shards_encoded_on_workers_learn_the_same_weights(raw_data, n_shards):
    # the merged vocabulary numbers some columns otherwise, nothing else: every weight of
    # every (feature name, label) and every prediction is the same as with the parent's
    # encoding
    X, y = raw_data
    parent = _raw_mixing("parent", n_shards, n_jobs=2).fit(X, y)
    workers = _raw_mixing("workers", n_shards, n_jobs=2).fit(X, y)
    names = workers.estimator_.encoder_.get_feature_names_out()
    assert sorted(names) == sorted(parent.estimator_.encoder_.get_feature_names_out())
    assert names.tolist() != parent.estimator_.encoder_.get_feature_names_out().tolist()
    assert workers.estimator_.state_features_ == parent.estimator_.state_features_
    assert workers.estimator_.transition_features_ == parent.estimator_.transition_features_
    assert [r["mistakes"] for r in workers.history_] == [r["mistakes"] for r in parent.history_]
    assert workers.predict(X[:40]) == parent.predict(X[:40])
    np.testing.assert_array_equal(workers.classes_, parent.classes_)


def test_hashed_shards_need_no_merge(raw_data):
    X, y = raw_data
    parent = _raw_mixing("parent", 2, n_features=2**12).fit(X, y)
    workers = _raw_mixing("workers", 2, n_features=2**12).fit(X, y)
    np.testing.assert_array_equal(workers.coef_, parent.coef_)


def test_auto_encodes_raw_input_on_the_workers_and_token_dicts_here(raw_data, data):
    X, y = raw_data
    workers = _raw_mixing("workers", 2).fit(X, y).coef_
    assert not np.array_equal(workers, _raw_mixing("parent", 2).fit(X, y).coef_)
    # whatever the workers: n_jobs and the backend never change coef_
    for n_jobs in (None, 2):
        np.testing.assert_array_equal(
            _raw_mixing("auto", 2, n_jobs=n_jobs).fit(X, y).coef_, workers
        )
    with joblib.parallel_config(backend="threading"):
        np.testing.assert_array_equal(_raw_mixing("auto", 2, n_jobs=2).fit(X, y).coef_, workers)
    X, y = data  # token dicts: shipping them costs more than encoding them here
    dicts = StructuredPerceptron(random_state=3)
    auto = ParameterMixing(dicts, n_shards=2, max_iter=2, random_state=4).fit(X, y)
    parent = ParameterMixing(dicts, n_shards=2, max_iter=2, random_state=4, encode_on="parent").fit(
        X, y
    )
    workers = ParameterMixing(
        dicts, n_shards=2, max_iter=2, random_state=4, encode_on="workers"
    ).fit(X, y)
    np.testing.assert_array_equal(auto.coef_, parent.coef_)
    assert workers.estimator_.state_features_ == parent.estimator_.state_features_


def test_shards_encoded_on_workers_do_not_depend_on_n_jobs_or_dask(raw_data, dask_client):
    X, y, X_dev, y_dev = _dev_split(raw_data)  # the development set's parts go along
    reference = _raw_mixing("workers", 3, n_jobs=1).fit(X, y, X_dev=X_dev, y_dev=y_dev)
    scores = [r["dev_score"] for r in reference.history_]
    fits = [_raw_mixing("workers", 3, n_jobs=2).fit(X, y, X_dev=X_dev, y_dev=y_dev)]
    with joblib.parallel_config(backend="dask"):
        fits.append(_raw_mixing("workers", 3, n_jobs=-1).fit(X, y, X_dev=X_dev, y_dev=y_dev))
    for fit in fits:
        np.testing.assert_array_equal(fit.coef_, reference.coef_)
        assert [r["dev_score"] for r in fit.history_] == scores


def test_partly_labelled_shards_encode_on_workers(raw_data):
    X, y = raw_data
    y = [list(labels) for labels in y]
    for labels in y[::3]:
        labels[0] = None  # unknown: completed from the weights of its turn
    y[5] = [None] * len(y[5])
    parent = _raw_mixing("parent", 2).fit(X, y)
    workers = _raw_mixing("workers", 2).fit(X, y)
    assert workers.estimator_.state_features_ == parent.estimator_.state_features_


def test_a_bad_token_on_a_worker_is_named_by_its_place_in_X(raw_data):
    X, y = raw_data
    X = [list(sentence) for sentence in X]
    X[37][1] = ("word",)  # the tag column missing
    with pytest.raises(ValueError, match="Example 37") as caught:
        _raw_mixing("workers", 3).fit(X, y)
    with pytest.raises(ValueError) as serial:
        _raw_mixing("parent", 3).estimator.fit(X, y)
    assert str(caught.value) == str(serial.value)


def test_encoding_on_workers_is_refused_where_it_cannot_be_done(raw_data):
    X, y = raw_data
    bio = [["B-X" if label == y[0][0] else "O" for label in labels] for labels in y]
    learner = StructuredPerceptron(
        Viterbi(allowed="bio"), features=TokenFeatures(columns=["tag"]), random_state=3
    )
    with pytest.raises(ValueError, match=r"encode_on='workers'.*allowed="):
        ParameterMixing(learner, n_shards=2, max_iter=1, encode_on="workers").fit(X, bio)
    auto = ParameterMixing(learner, n_shards=2, max_iter=1, random_state=4).fit(X, bio)
    parent = ParameterMixing(
        learner, n_shards=2, max_iter=1, random_state=4, encode_on="parent"
    ).fit(X, bio)
    np.testing.assert_array_equal(auto.coef_, parent.coef_)


def test_shards_encoded_on_workers_keep_sample_weights_and_the_dev_set(raw_data):
    X, y = raw_data
    weights = np.random.default_rng(0).uniform(0.0, 2.0, len(X))
    weights[::7] = 0.0  # left out of training
    fits = {
        where: _raw_mixing(where, 2, n_iter_no_change=2, validation_fraction=0.2).fit(
            X, y, sample_weight=weights
        )
        for where in ("parent", "workers")
    }
    parent, workers = fits["parent"], fits["workers"]
    assert workers.estimator_.state_features_ == parent.estimator_.state_features_
    dev_scores = [r["dev_score"] for r in workers.history_]
    assert dev_scores == [r["dev_score"] for r in parent.history_]
    assert all(score is not None for score in dev_scores)


@pytest.mark.parametrize("n_parts", [1, 2, 3])
@pytest.mark.parametrize("kind", ["raw", "hashed", "dicts"])
def test_a_development_set_encoded_in_parts_is_encoded_as_here(raw_data, n_parts, kind):
    # a part on each worker, in a vocabulary of its own, then mapped into the merged one:
    # row for row what the fitted learner's encode gives, the unknown features dropped
    X, y, X_dev, y_dev = _dev_split(raw_data)
    if kind == "dicts":
        features = TokenFeatures(columns=["tag"])
        X, X_dev = features.transform(X), features.transform(X_dev)
        learner = StructuredPerceptron()
    else:
        n_features = 2**10 if kind == "hashed" else None
        learner = StructuredPerceptron(
            features=TokenFeatures(columns=["tag"]), n_features=n_features
        )
    template = learner.shard_encoder(X)
    shards = np.array_split(np.arange(len(X)), 3)
    learner.init_state_from_shards(
        [template.encode_shard([X[i] for i in s], [y[i] for i in s]) for s in shards]
    )
    parts = [
        template.encode_X_part([X_dev[i] for i in part])
        for part in np.array_split(np.arange(len(X_dev)), n_parts)
    ]
    (got, got_gold), (want, want_gold) = (
        learner.encode_from_parts(parts, y_dev),
        learner.encode(X_dev, y_dev),
    )
    np.testing.assert_array_equal(got_gold, want_gold)
    assert (got_gold == -1).sum() == 1  # the unseen label
    for field in ("indptr", "indices", "data", "offsets"):
        np.testing.assert_array_equal(getattr(got, field), getattr(want, field))
    assert got.n_features == want.n_features
    dropped = sum(encoded.indices.size for _, encoded in parts) - got.indices.size
    assert dropped == 0 if kind == "hashed" else dropped > 0


def test_the_development_set_is_featurised_on_the_workers(raw_data, monkeypatch):
    X, y, X_dev, y_dev = _dev_split(raw_data)
    parent = _raw_mixing("parent", 3).fit(X, y, X_dev=X_dev, y_dev=y_dev)

    def encode_here(self, X, y=None, **kwargs):
        raise AssertionError("the development set was encoded in the parent")

    monkeypatch.setattr(StructuredPerceptron, "encode", encode_here)
    workers = _raw_mixing("workers", 3).fit(X, y, X_dev=X_dev, y_dev=y_dev)
    scores = [r["dev_score"] for r in workers.history_]
    assert scores == [r["dev_score"] for r in parent.history_]
    assert all(0 < score < 1 for score in scores)  # the unseen label counts as an error


def test_a_development_set_of_token_dicts_is_encoded_in_the_parent(raw_data, monkeypatch):
    # token dicts cost the parent more to pickle than to encode: shards go to the workers
    # as asked, the development set stays here (and scores as a parent-encoded one)
    X, y, X_dev, y_dev = _dev_split(raw_data)
    features = TokenFeatures(columns=["tag"])
    X, X_dev = features.transform(X), features.transform(X_dev)
    learner = StructuredPerceptron(random_state=3)
    parent = ParameterMixing(learner, n_shards=3, max_iter=3, encode_on="parent", random_state=4)
    reference = [r["dev_score"] for r in parent.fit(X, y, X_dev=X_dev, y_dev=y_dev).history_]

    def encode_part(self, X):
        raise AssertionError("a part of the development set went to a worker")

    monkeypatch.setattr(StructuredPerceptron, "encode_X_part", encode_part)
    workers = clone(parent).set_params(encode_on="workers").fit(X, y, X_dev=X_dev, y_dev=y_dev)
    assert [r["dev_score"] for r in workers.history_] == reference
    with pytest.raises(AssertionError, match="went to a worker"):  # raw words do go
        _raw_mixing("workers", 3).fit(raw_data[0][:180], y, X_dev=raw_data[0][180:], y_dev=y_dev)


def test_a_bad_token_of_the_development_set_is_named_by_its_place_in_X_dev(raw_data):
    X, y, X_dev, y_dev = _dev_split(raw_data)
    X_dev[41][1] = ("word",)  # the tag column missing
    with pytest.raises(ValueError, match="Example 41") as caught:
        _raw_mixing("workers", 3).fit(X, y, X_dev=X_dev, y_dev=y_dev)
    with pytest.raises(ValueError) as here:
        _raw_mixing("parent", 3).fit(X, y, X_dev=X_dev, y_dev=y_dev)
    assert str(caught.value) == str(here.value)


@pytest.mark.parametrize("average", [True, False])
def test_epochs_per_round_with_one_shard_are_the_serial_epochs(data, average):
    X, y = data
    learner = StructuredPerceptron(average=average, random_state=4)
    serial = clone(learner).set_params(max_iter=6).fit(X, y)
    mixed = ParameterMixing(learner, n_shards=1, max_iter=3, epochs_per_round=2).fit(X, y)
    np.testing.assert_array_equal(mixed.coef_, serial.coef_)
    assert (mixed.n_iter_, mixed.estimator_.n_iter_) == (3, 6)  # rounds, epochs


def test_epochs_per_round_train_shards_longer_between_mixes(data):
    X, y = data
    learner = StructuredPerceptron(random_state=4)
    one = ParameterMixing(learner, n_shards=2, max_iter=2, random_state=0).fit(X, y)
    two = ParameterMixing(learner, n_shards=2, max_iter=2, epochs_per_round=2, random_state=0).fit(
        X, y
    )
    assert (two.estimator_.n_iter_, one.estimator_.n_iter_) == (4, 2)
    # the first round's two epochs on a shard make mistakes in both: more than one epoch
    assert sum(two.history_[0]["mistakes"]) > sum(one.history_[0]["mistakes"])
    assert not np.array_equal(one.coef_, two.coef_)


def test_swvp_shards_encoded_on_workers_learn_the_same_weights(raw_data):
    X, y = raw_data
    learner = SWVP(features=TokenFeatures(columns=["tag"]), gamma="wmr", random_state=3)
    fits = {
        where: ParameterMixing(
            learner, n_shards=2, max_iter=2, encode_on=where, random_state=4
        ).fit(X, y)
        for where in ("parent", "workers")
    }
    parent, workers = fits["parent"], fits["workers"]
    assert workers.estimator_.state_features_ == parent.estimator_.state_features_
    assert workers.predict(X[:30]) == parent.predict(X[:30])
