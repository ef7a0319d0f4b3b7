"""ParameterMixing: distributed perceptron training by parameter mixing (McDonald et al. 2010)."""

import time
import uuid
import warnings
from collections import deque
from numbers import Integral, Real

import numpy as np
from joblib import cpu_count, effective_n_jobs, parallel_config
from joblib._parallel_backends import (
    LokyBackend,
    MultiprocessingBackend,
    ThreadingBackend,
)
from joblib.parallel import get_active_backend
from sklearn.base import BaseEstimator, MetaEstimatorMixin, clone
from sklearn.utils import check_random_state
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted

from ..engine import (
    AveragedWeights,
    EarlyStopping,
    check_sample_weight,
    development_set,
    drop_unweighted,
    training_data,
)
from ..features import concat_ranges
from ..structures import LinearChain
from ..utils._sklearn_compat import HasMethods, Interval, StrOptions, fit_context
from ..utils.arrays import sorted_unique, writable
from ..utils.interrupt import warn_interrupted
from ..utils.tags import sequence_tags
from . import _shard_cache

#: Mixes whose changes go with every task, for workers that missed some rounds. One:
#: with a shard per worker every worker gets a task a round, and sending the last 3
#: changes (up to 170k weights each on Brown 20k) cost 0.04 s a round on loky.
_CHANGES_SENT = 1


def _one_thread_unless_asked():
    """The joblib settings a shard's epochs run under: a learner left at ``n_jobs=None``
    trains on one thread, an explicit ``n_jobs`` is honoured.

    A task of joblib's dask backend runs with that backend active, whose
    ``effective_n_jobs`` is every thread of the cluster whatever ``n_jobs`` says (so
    ``parallel_config(n_jobs=1)`` alone is not enough): two workers on two cores each
    ran numba on both, and epochs took 2-40x as long (Brown 20k, beam 4: rounds of 1.6
    to 18 s against 0.6 s). The threading backend counts as joblib does on one machine.
    """
    return parallel_config(backend="threading", n_jobs=1)


def _shard_epochs(learner, shard, visits, weights):
    """Epochs on one shard from the mixed weights; module level so any backend can ship it.

    ``shard`` is a :class:`~._shard_cache.ShardRef` and ``weights`` a
    :class:`~._shard_cache.WeightsRef`: the data itself or a reference to what this
    worker process kept from an earlier round. ``visits`` holds one visiting order per
    epoch, drawn by the caller, so the result depends on nothing but the arguments: a
    task re-run on another worker (after a failure) returns the same weights. Returns
    :class:`_Missing` when the worker lacks the data referred to, else a
    :class:`_ShardResult`: the final state, compacted, and per-epoch stats.

    Arrays travel inside objects on purpose: joblib's dask backend scatters large
    weak-referenceable arguments to a single worker, and a task whose scattered input
    died with that worker cannot be re-run; data embedded in the task can.
    """
    data = _shard_cache.shard(shard)
    start = _shard_cache.weights(weights)
    if data is None or start is None:
        return _Missing(shard=data is None, weights=start is None)
    structure, coef, coef_sum, n_seen = start
    state = AveragedWeights.from_state(
        structure.training_copy(), coef.copy(), coef_sum.copy(), n_seen
    )
    # the state travels as an argument, so tasks sharing one learner object (the
    # threading backend) never see each other's weights
    started = time.perf_counter()
    # ray hands a task read-only arrays, for which numba would compile the epoch again
    visits = [writable(visit) for visit in visits]
    with _one_thread_unless_asked():
        stats = [learner.run_epoch(state, data, visit) for visit in visits]
    # what the epochs changed, keyed by weight (see LinearChain.change_since): the
    # task's answer, and what the mix costs, grow with the updates, not the weights
    keys, values, sums = state.structure.change_since(structure, coef, coef_sum, state.coef,
                                                      state.coef_sum)  # fmt: skip
    seconds = time.perf_counter() - started
    return _ShardResult(keys, values, sums, state.n_seen, stats, seconds)


class _RawShard:
    """A shard's raw sequences, shipped as one object: joblib's dask backend walks the
    lists of a task's arguments (millions of tokens) looking for dask keys."""

    def __init__(self, X, y, shard):
        self.X = [X[i] for i in shard]
        self.y = None if y is None else [y[i] for i in shard]


def _encode_shard(template, shard):
    """A shard encoded on its own on a worker (``template.encode_shard``), or, without
    labels, a part of the development set (``template.encode_X_part``)."""
    if shard.y is None:
        return template.encode_X_part(shard.X)
    return template.encode_shard(shard.X, shard.y)


class SlowerThanSerialWarning(UserWarning):
    """A ``ParameterMixing`` fit set up so that it cannot beat the serial learner."""


def _warn_if_slower_than_serial(n_shards, n_jobs):
    """Warn before the rounds when the set-up cannot beat the serial learner."""
    workers = effective_n_jobs(n_jobs)
    backend = get_active_backend()[0]
    local = isinstance(backend, (LokyBackend, MultiprocessingBackend, ThreadingBackend))
    reasons = []
    if workers < 2:
        reasons.append(f"one worker (n_jobs={n_jobs!r}) trains the shards one after another")
    elif n_shards > workers:
        reasons.append(f"n_shards={n_shards} is more than the {workers} workers: a round "
                       f"waits for shards trained one after another")  # fmt: skip
    if local and workers > cpu_count():
        reasons.append(f"{workers} workers share {cpu_count()} cores")
    if reasons:
        _warn_slower("; ".join(reasons) + ". Leave n_shards=None for one shard per worker.")


def _warn_if_rounds_cost_more_than_training(record):
    """Warn after the second round (the first also ships the shards) when shipping and
    mixing took longer than the shards' training: on CoNLL-2002 Spanish (2 shards, an
    epoch of 0.09 s) rounds of 0.05 s training and 0.09 s overhead made mixing 1.5x
    slower than serial."""
    overhead = record["seconds"] - record["compute_seconds"]
    if overhead > record["compute_seconds"]:
        _warn_slower(
            f"a round spent {overhead:.3f} s shipping and mixing against "
            f"{record['compute_seconds']:.3f} s training its shards; mixing pays when "
            "a shard's epoch is long (more data a shard, a costlier decoder)."
        )


def _warn_slower(why):
    warnings.warn(
        f"ParameterMixing is likely slower than the serial learner: {why}",
        SlowerThanSerialWarning,
        stacklevel=4,
    )


def _shard_files(shard_data, n_jobs):
    """``(folder, paths)``: the shards written to files, from which a worker on this
    machine that lacks its shard reads it (``_shard_cache.write_shards``); ``(None,
    None)`` where every task finds its shard anyway (one worker, or threads sharing this
    process's cache). A task sent again runs after the round's other tasks: on 8 loky
    workers of a 16-core machine (all of Brown, beam 4) a round with one task sent again
    spent 0.89 s outside the shards' epochs against 0.12 s with none, and on 16 workers
    14 of 16 tasks went again in the second round; on Brown's first 20,000 sentences, 4
    shards on 4 loky workers of 2 cores, a round with 1 to 3 sent again took 0.74-0.93 s
    against 0.62-0.66 s."""
    backend = get_active_backend()[0]
    if len(shard_data) < 2 or effective_n_jobs(n_jobs) < 2 or isinstance(backend, ThreadingBackend):
        return None, None
    return _shard_cache.write_shards(shard_data)


def _error_weights(mixing, mistakes):
    """``mixing="error"``: weights by the shards' mistakes (uniform when none erred)."""
    if mixing == "error" and mistakes.sum() > 0:
        return mistakes / mistakes.sum()
    return np.full(len(mistakes), 1.0 / len(mistakes))


class ParameterMixing(MetaEstimatorMixin, BaseEstimator):
    """Train an online structured learner on shards in parallel and mix the weights.

    The data is cut into ``n_shards`` shards. With ``iterative=True`` (McDonald, Hall &
    Mann 2010, Figure 3), every epoch runs one epoch of the learner on each shard in
    parallel, all starting from the same weights, then mixes the shards' weights
    ``w = sum_i mu_i w_i`` (for sequence labelling by default each weight over the
    shards that changed it, ``mix_over``) and starts the next epoch from the mixture. With
    ``iterative=False`` (Figure 2) each shard trains for the learner's ``max_iter``
    epochs on its own and the weights are mixed once.

    Work is dispatched with joblib (scikit-learn's ``Parallel``), so it runs on loky
    processes by default and on any backend the caller enables, e.g. a dask cluster::

        with joblib.parallel_config(backend="dask"):
            ParameterMixing(StructuredPerceptron(), n_jobs=-1).fit(X, y)

    Parameters
    ----------
    estimator : StructuredPerceptron or SWVP
        The online learner (any :class:`~skstruct.learners.BaseStructuredLearner`);
        its decoder, update rule, averaging, shuffling and features are used.
    n_shards : int or None, default=None
        Number of shards. ``None``: one per worker, i.e. ``n_jobs`` as joblib counts it
        under the active backend (every worker thread of the cluster with joblib's dask
        backend, ``n_jobs=-1``: every core), at most the number of sequences. A fit
        that cannot be faster than the serial learner warns (``SlowerThanSerialWarning``):
        before the rounds, for more shards than workers (the rounds wait for shards run
        one after another), one worker, or more local workers than cores; after the
        second round, when its shipping and mixing took longer than its training.
    iterative : bool, default=True
        Mix after every epoch (Figure 3) rather than once at the end (Figure 2).
    epochs_per_round : int, default=1
        Epochs every shard trains between two mixes of iterative mixing (Figure 3 has
        one). More epochs a round mix less often, but a round then costs that many
        epochs: on CoNLL-2002 Spanish NER (2 shards), 10 rounds of 2 epochs reached
        test F1 76.11, 20 rounds of 1 epoch, the same training, 76.82 (see the mixing
        guide).
    mixing : {"uniform", "error"} or array-like of shape (n_shards,), default="uniform"
        Mixing weights: ``1 / n_shards``; proportional to each shard's mistakes in the
        epoch (sec. 4.3; uniform when no shard erred); or fixed weights (normalised).
    mix_over : {"auto", "changed", "all"}, default="auto"
        The shards each weight is mixed over. ``"all"``: McDonald et al.'s mixture of
        whole weight vectors, ``w = sum_i mu_i w_i``, in which a shard that left a weight
        alone counts with its value before the round. ``"changed"``: each weight is mixed
        over the shards whose epochs changed it, their ``mu`` renormalised, so a weight
        that one shard changed takes that shard's value. Under ``"all"`` a feature seen in
        one shard of ``S`` moves ``1 / S`` as far as the shard moved it, every round; rare
        features, which carry named entities, learn slowly. ``"auto"``: ``"changed"`` for
        sequence labelling, ``"all"`` for parsers (``mix_over_`` says which). Measured
        (10 rounds): CoNLL-2002 Spanish NER, 2 shards, span F1 75.69 with ``"changed"``
        against 74.29 (serial 75.81); Brown's first 20,000 sentences, beam 4, 16 shards:
        held-out accuracy within 0.3 of serial after 7 rounds, against more than 20;
        CoNLL-2000 chunking, 8 shards, F1 92.72 against 92.36 (2 shards: 92.94 and
        92.96); but the first-order parser on the PTB sample, 2, 4, 6 and 10 shards, UAS
        87.02, 87.26, 86.96 and 86.42 against 87.17, 87.62, 87.86 and 86.89. McDonald et
        al.'s Theorem 2 (convergence on separable data) is proved for ``"all"``.
    max_iter : int, default=10
        Mixing rounds (iterative mixing). A round is one epoch over the whole data
        (every shard one epoch over its part; ``epochs_per_round`` epochs), so
        ``max_iter=10`` passes over the data as often as the learner's own
        ``max_iter=10``; one-shot mixing runs the
        learner's ``max_iter`` epochs on each shard, the same count of passes.
    validation_fraction : float in (0, 1) or None, default=None
        Hold out this fraction of the training sequences as a development set when
        ``fit`` gets no ``X_dev``.
    n_iter_no_change : int or None, default=None
        Stop when the mixed model's development score has not improved for this many
        rounds, and keep the best round's weights (``best_iteration_``). Needs
        ``X_dev``/``y_dev`` or ``validation_fraction``. With ``history_``'s
        ``elapsed``, the time to a given accuracy rather than to a number of rounds.
    shuffle : bool, default=True
        Assign sequences to shards at random (a single shard is the data as given).
    encode_on : {"auto", "workers", "parent"}, default="auto"
        Where the training data is featurised and encoded. ``"workers"``: each shard's
        raw sequences go to a worker, which encodes them on their own (the learner's
        ``features`` transformer, fitted on the whole data here, then its vocabulary);
        this process merges the shards' vocabularies and label sets
        (:meth:`~skstruct.features.TokenDictEncoder.merge`), never the data itself.
        A parser's worker fits its own :class:`~skstruct.ArcFeatures` on its shard, and
        this process merges their vocabularies (:meth:`~skstruct.ArcFeatures.merge`)
        and relation labels.
        ``"parent"``: this process encodes everything, then ships each shard encoded.
        ``"auto"``: the workers when a sequence labeller featurises raw input (its
        ``features`` is set, as ``TokenFeatures()``), else this process: token dicts
        cost more to ship than to encode (on Brown, 0.7 s to pickle 10,000 sentences
        of dicts, against 1.0 s to encode all 20,000; a parser's input is token dicts,
        and on the PTB sample, 2 shards on loky, the set-up took 0.38-0.47 s here and
        0.42-0.47 s on the workers). The choice never looks at ``n_jobs`` or the
        backend, which would then change how ``coef_`` is laid out, though threads and
        a single worker gain nothing from it (the encoding holds the GIL). Sequence
        labelling (not under a decoder's ``allowed=``) and dependency parsing only:
        ``"auto"`` falls back to ``"parent"`` elsewhere, ``"workers"`` raises. Where
        a sequence labeller featurises raw input (``features`` set), the development
        set (``X_dev``, ``validation_fraction``) goes along: a part of it beside each
        shard, featurised in a vocabulary of its own on the worker, then mapped here
        into the merged one (features no training shard has dropped, as encoding it
        here drops them), so the same scores. Token dicts (and so a parser's
        development set) are encoded here: pickling them costs this process more
        than encoding them (11,000 Brown sentences of the tutorial's dicts: a set-up
        of 1.78-1.97 s shipped, 1.45-1.58 s encoded here; a parser on 4,079 EWT
        sentences: 0.10 s to pickle, 0.085 s to encode).
    n_jobs : int or None, default=None
        Shards trained at once, with joblib's conventions (``-1``: all cores).
    timeout : float or None, default=None
        Seconds a shard task may take before ``fit`` gives up with an error (joblib's
        ``Parallel(timeout=...)``; not applied with ``n_jobs=1``/``None``). Set it on a
        cluster: when a task has failed because every worker running it died, joblib's
        dask backend (1.6) can otherwise wait for it forever.
    random_state : int, RandomState instance or None, default=None
        Seeds the shard assignment and each shard's visiting orders. With one shard
        the learner's own ``random_state`` is used, so that ``n_shards=1`` reproduces
        the serial learner exactly.
    verbose : int, default=0
        joblib verbosity.

    Attributes
    ----------
    estimator_ : estimator
        The learner, fitted: its ``coef_`` are the mixed weights; ``predict`` and
        ``score`` delegate to it.
    coef_ : ndarray of shape (n_weights,)
    structure_ : LinearChain, ArcFactoredTree or TransitionSystem
        The learner's structure: the layout of ``coef_`` (for a chain, its emission
        rows).
    classes_ : ndarray of shape (n_labels,)
    shards_ : list of ndarray
        The indices of the sequences in each shard.
    n_iter_ : int
    mix_over_ : {"changed", "all"}
        The shards each weight was mixed over (``mix_over``, ``"auto"`` resolved).
    history_ : list of dict
        Per mixing round: ``mistakes`` (per shard), ``mixing_weights``, ``seconds``
        (wall clock of the round), ``compute_seconds`` (the longest time a shard's
        epochs took on its worker), ``mix_seconds`` (mixing in this process; the rest
        of ``seconds`` is shipping and scheduling), ``resent`` (tasks sent again with
        what their worker lacked, see Notes; a task sent twice counts twice),
        ``changed`` (weights the round mixed: the keys some shard changed),
        ``dev_score`` (the learner's score of the mixed model on the development set,
        or None) and ``elapsed`` (wall clock since ``fit`` began, encoding included, at
        the end of the round and its scoring).
    best_iteration_ : int
        With ``n_iter_no_change``: the round whose mixed weights ``coef_`` holds.

    Notes
    -----
    *Averaging.* With ``average=True`` the mixed state is the whole lazy-averaging state
    of the perceptron, ``(w, sum_t t * delta_t, t)``, a weight and its sum mixed with
    the same ``mu`` (``t`` with the shards' ``mu``): every shard starts the next epoch
    from it, and the model returned is its average ``w - sum / t``. With equal shard
    sizes each averaged weight is exactly the mixture of the shards' averaged weights
    (over the shards ``mix_over`` names), and with one shard it is the serial averaged
    perceptron, bit for bit.

    *What travels: changes, keyed by weight.* A round ships and mixes only what
    changed. A weight's key is its position for trees and transition systems, and for
    a chain's emission pair ``n_dense + feature * n_labels + label``: the same in every
    layout, though each shard's emission rows grow with the pairs its updates touch.
    A shard task answers with the keys its epochs changed and their new values; the
    parent mixes those keys only (a pair a shard lacks weighs 0, as in the dense
    model) and gives the mixed state's new pairs a weight; the change goes out with
    the next tasks. Worker processes keep their shards and the mixed weights between
    rounds (per process, for the last few fits), and catch up from the change of the
    last mix. A worker that lacks what a task refers to (new, restarted, or behind
    by more rounds than the changes sent) answers so, and the task is sent again with
    what it lacked (its shard, or the full weights), then, should it land on a worker
    lacking more, once more with both: the result is the same either way. Sent again,
    a task runs after the round's other tasks, so the round can take twice as long; a
    worker on this machine that lacks its shard reads it from a file this process
    writes once per fit (in a temporary folder, removed when ``fit`` ends), and only
    workers of other machines of a cluster get shards sent again.
    ``history_[i]["changed"]`` counts the weights a round mixed.

    *Where the data is encoded* (``encode_on``). On the workers, each shard's raw
    sequences are featurised and encoded by a worker in a vocabulary of the shard's
    own, and come back encoded with it. The parent merges the vocabularies (the first
    shard's takes in the others' features it lacks, in order) and the label names,
    and renumbers each shard's feature columns and label ids (array lookups): it never
    featurises or encodes a sequence. Every weight of every (feature, label) is then
    the same as with the parent's encoding; only some columns are numbered otherwise
    (with one shard, none). The encoded shards come back rather than stay with the
    worker that encoded them: joblib gives a task no worker of its own, and with
    workers keeping their shards, tasks met a worker without theirs in 4 of 5 loky fits
    (Brown 20,000 sentences, 2 shards), each time costing the parent an encoding (fits
    of 7.6-8.4 s against 6.4 s), where shipping a shard back (15 MB) costs less than the
    0.46 s of encoding it.

    *Failures.* Each shard's task depends only on its arguments (visiting orders are
    drawn up front), so when a dask worker dies mid-round the scheduler re-runs its
    tasks elsewhere and the result is the same as without the failure. When a round
    cannot complete at all (every worker lost, or a task that keeps killing its
    worker past dask's ``allowed-failures``), ``fit`` raises a ``RuntimeError`` naming
    the round and the cause, and the estimator is left unfitted; with the dask backend
    that needs ``timeout`` (see above).

    References
    ----------
    R. McDonald, K. Hall and G. Mann (2010). Distributed Training Strategies for the
    Structured Perceptron. NAACL.

    Examples
    --------
    >>> from skstruct import ParameterMixing, StructuredPerceptron, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> X, y = make_chain_data(300, random_state=0)
    >>> mix = ParameterMixing(StructuredPerceptron(features=TokenFeatures()), n_shards=3,
    ...                       max_iter=5, random_state=0).fit(X[:200], y[:200])
    >>> round(mix.score(X[200:], y[200:]), 2)
    0.96
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["init_state", "run_epoch", "set_state"])],
        "n_shards": [Interval(Integral, 1, None, closed="left"), None],
        "iterative": ["boolean"],
        "epochs_per_round": [Interval(Integral, 1, None, closed="left")],
        "mixing": [StrOptions({"uniform", "error"}), "array-like"],
        "mix_over": [StrOptions({"auto", "changed", "all"})],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither"), None],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left"), None],
        "shuffle": ["boolean"],
        "encode_on": [StrOptions({"auto", "workers", "parent"})],
        "n_jobs": [Integral, None],
        "timeout": [Interval(Real, 0, None, closed="neither"), None],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        estimator,
        *,
        n_shards=None,
        iterative=True,
        epochs_per_round=1,
        mixing="uniform",
        mix_over="auto",
        max_iter=10,
        validation_fraction=None,
        n_iter_no_change=None,
        shuffle=True,
        encode_on="auto",
        n_jobs=None,
        timeout=None,
        random_state=None,
        verbose=0,
    ):
        self.estimator = estimator
        self.n_shards = n_shards
        self.iterative = iterative
        self.epochs_per_round = epochs_per_round
        self.mixing = mixing
        self.mix_over = mix_over
        self.max_iter = max_iter
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.encode_on = encode_on
        self.n_jobs = n_jobs
        self.timeout = timeout
        self.random_state = random_state
        self.verbose = verbose

    def check_examples(self, X, y, X_name="X", y_name="y"):
        """``X`` and ``y`` checked by the task of the learner's decoder."""
        return self.estimator.check_examples(X, y, X_name, y_name)

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, *, X_dev=None, y_dev=None, sample_weight=None):
        """Shard, train in parallel, mix.

        Parameters
        ----------
        X, y : list of sequences
            As for the learner.
        X_dev, y_dev : list of sequences, default=None
            Scored with the mixed weights after every mixing round; with
            ``n_iter_no_change`` they decide when to stop.
        sample_weight : array-like of shape (n_sequences,), default=None
            A weight per sequence, as for the learner's ``fit``; each shard trains
            with its sequences' weights.

        Returns
        -------
        self : object
        """
        fit_started = time.perf_counter()
        X, y = self.check_examples(X, y)
        weights = check_sample_weight(sample_weight, len(X))
        self.__dict__.pop("estimator_", None)  # a failed fit must not leave an old model
        self.__dict__.pop("best_iteration_", None)
        rng = check_random_state(self.random_state)
        X, y, X_dev, y_dev, weights = development_set(self, X, y, X_dev, y_dev, rng, weights)
        X, y, weights = drop_unweighted(X, y, weights)
        n_shards = self._n_shards(len(X))
        fixed_mu = self._fixed_mixing_weights(n_shards)
        learner = clone(self.estimator)
        order = rng.permutation(len(X)) if self.shuffle and n_shards > 1 else np.arange(len(X))
        self.shards_ = np.array_split(order, n_shards)
        if n_shards == 1:
            shard_rngs = None  # the learner's own (after its state exists)
        else:
            seeds = rng.randint(np.iinfo(np.int32).max, size=n_shards)
            shard_rngs = [np.random.RandomState(seed) for seed in seeds]
        rounds = self.max_iter if self.iterative else 1
        fit_id = uuid.uuid4().hex
        changes = deque(maxlen=_CHANGES_SENT)  # what the last mixes set
        stopping = EarlyStopping(self.n_iter_no_change)
        self.history_ = []
        shard_folder = None
        # One Parallel for the encoding and all rounds, as a context manager: the workers
        # are started once and keep the shards and weights between rounds (see
        # _shard_cache). No memory maps (max_nbytes=None): the shards go out once, and
        # removing loky's map folder at the end took a second of retries.
        try:
            with Parallel(
                n_jobs=self.n_jobs, verbose=self.verbose, timeout=self.timeout, max_nbytes=None
            ) as parallel:
                state, shard_data, dev = self._encode(
                    learner, X, y, weights, X_dev, y_dev, parallel
                )
                if not isinstance(state, AveragedWeights):
                    raise TypeError(
                        f"ParameterMixing mixes weights and their averaging sums; "
                        f"{type(learner).__name__} trains a {type(state).__name__}, which "
                        f"it cannot mix."
                    )
                _warn_if_slower_than_serial(n_shards, self.n_jobs)
                shard_folder, shard_paths = _shard_files(shard_data, self.n_jobs)
                if shard_rngs is None:
                    shard_rngs = [check_random_state(learner.random_state)]
                worker = learner.worker_copy()
                self.mix_over_ = self._mix_over(state.structure)
                state = state.compacted()
                state = (state.structure, state.coef, state.coef_sum, state.n_seen)
                initial = state[0]  # the layout of round 0's weights (all zeros)
                epochs_per_round = self.epochs_per_round if self.iterative else learner.max_iter
                for version in range(rounds):
                    start = time.perf_counter()
                    visits = [
                        [self._visit(learner, r, len(shard)) for _ in range(epochs_per_round)]
                        for r, shard in zip(shard_rngs, self.shards_)
                    ]
                    round_ = _Round(fit_id, version, worker, shard_data, visits, state, changes,
                                    initial, shard_paths)  # fmt: skip
                    try:
                        results = round_.run(parallel)
                    except KeyboardInterrupt:
                        if not self.history_:  # nothing mixed yet: leave it unfitted
                            for name in [n for n in vars(self) if n.endswith("_")]:
                                delattr(self, name)
                            raise
                        # the mixed state changes only after a whole round: keep the last
                        warn_interrupted(self, len(self.history_))
                        break
                    except Exception as exc:  # a lost cluster, a worker that keeps dying, ...
                        raise RuntimeError(
                            f"ParameterMixing: mixing round {version + 1} of {rounds} "
                            f"failed, so no model was fitted: {type(exc).__name__}: {exc}"
                        ) from exc
                    mistakes = np.array([sum(s["mistakes"] for s in r.stats) for r in results])
                    mu = fixed_mu if fixed_mu is not None else _error_weights(self.mixing, mistakes)
                    mixing_started = time.perf_counter()
                    state, change = _mix(mu, state, results, self.mix_over_)
                    mix_seconds = time.perf_counter() - mixing_started
                    changes.append((version + 1, *change))
                    record = {
                        "epoch": version + 1,
                        "mistakes": mistakes.tolist(),
                        "mixing_weights": mu.tolist(),
                        "seconds": time.perf_counter() - start,
                        "compute_seconds": max(r.seconds for r in results),
                        "mix_seconds": mix_seconds,
                        "changed": int(change[0].size),
                        "resent": round_.resent,
                        "dev_score": None,
                    }
                    if dev is not None:
                        learner.set_state(AveragedWeights.from_state(*state))
                        record["dev_score"] = learner.score_encoded(dev)
                    record["elapsed"] = time.perf_counter() - fit_started
                    self.history_.append(record)
                    if version == 1:
                        _warn_if_rounds_cost_more_than_training(record)
                    stop = stopping.stop(record["dev_score"], state, version + 1)
                    if stopping.iteration is not None:
                        self.best_iteration_ = stopping.iteration
                    if stop:
                        break
        finally:
            _shard_cache.forget(fit_id)
            _shard_cache.remove_shards(shard_folder)
        learner.set_state(
            AveragedWeights.from_state(*(stopping.model or state)),
            n_iter=len(self.history_) * epochs_per_round,
        )
        self.estimator_ = learner
        self.n_iter_ = len(self.history_)
        return self

    def _encode(self, learner, X, y, weights, X_dev, y_dev, parallel):
        """The learner's fresh training state, each shard's training data
        (``training_data``) and the development set ``(encoded, gold)`` (None without
        one), encoded where ``encode_on`` says: on the workers, the development set
        too, a part beside each shard, where the learner's task can."""
        names = ("X_dev", "y_dev")
        template = self._shard_encoder(learner, X)
        n_shards = len(self.shards_)
        dev_parts = []  # the development set's parts, encoded on the workers
        if template is None:
            state, (encoded, labels) = learner.init_state(X, y)
            bounds = state.structure.output_offsets(encoded)
            shards = [
                (encoded.take(shard), labels[concat_ranges(bounds[shard], bounds[shard + 1])])
                for shard in self.shards_
            ]
        else:
            task = template.task_
            # token dicts cost the parent more to pickle than to encode: a development
            # set goes along only where the raw input is the cheaper to ship
            if (X_dev is not None and task.encodes_scoring_parts(template)
                    and task.shards_cheaper_on_workers(template)):  # fmt: skip
                n_parts = min(len(self.shards_), len(X_dev))
                dev_parts = np.array_split(np.arange(len(X_dev)), n_parts)
            try:
                with warnings.catch_warnings():
                    # dask's advice against data inside tasks: the shards are the data
                    warnings.filterwarnings("ignore", message="Sending large graph")
                    encodings = parallel(
                        [delayed(_encode_shard)(template, _RawShard(X, y, shard))
                         for shard in self.shards_]
                        + [delayed(_encode_shard)(template, _RawShard(X_dev, None, part))
                           for part in dev_parts]
                    )  # fmt: skip
                state, shards = learner.init_state_from_shards(encodings[:n_shards])
            except (TypeError, ValueError):
                # a worker names the example by its place in the shard, and shards that
                # disagree (a parser's bare heads in one, pairs in another) name none:
                # encoding it all here names it by its place in X (or X_dev), as a
                # serial fit does
                learner.init_state(X, y)
                if X_dev is not None:
                    learner.encode(X_dev, y_dev, names=names)
                raise
        if dev_parts:
            dev = learner.encode_from_parts(encodings[n_shards:], y_dev, names=names)
        else:
            dev = None if X_dev is None else learner.encode(X_dev, y_dev, names=names)
        shard_data = [
            training_data(encoded, labels, None if weights is None else weights[shard])
            for (encoded, labels), shard in zip(shards, self.shards_)
        ]
        return state, shard_data, dev

    def _shard_encoder(self, learner, X):
        """The learner's copy that encodes shards on the workers, or None to encode in
        this process (see ``encode_on``)."""
        if self.encode_on == "parent":
            return None
        if not hasattr(learner, "shard_encoder"):
            template = None
        else:  # "auto": where the learner's task finds it cheaper
            template = learner.shard_encoder(X, only_if_cheaper=self.encode_on == "auto")
        if template is None and self.encode_on == "workers":
            raise ValueError(
                f"encode_on='workers': {type(learner).__name__} with "
                f"{getattr(learner, 'decoder', None)!r} cannot encode its shards on their "
                f"own (sequence labelling without a decoder's allowed=, and dependency "
                f"parsing); use encode_on='parent' or 'auto'."
            )
        return template

    def _mix_over(self, structure):
        """``mix_over`` with ``"auto"`` chosen by what the learner predicts."""
        if self.mix_over != "auto":
            return self.mix_over
        return "changed" if isinstance(structure, LinearChain) else "all"

    def _n_shards(self, n_sequences):
        if self.n_shards is None:
            return max(1, min(effective_n_jobs(self.n_jobs), n_sequences))
        if self.n_shards > n_sequences:
            raise ValueError(f"n_shards={self.n_shards} is more than the {n_sequences} sequences.")
        return self.n_shards

    def _visit(self, learner, rng, n):
        return rng.permutation(n) if learner.shuffle else np.arange(n)

    def _fixed_mixing_weights(self, n_shards):
        if isinstance(self.mixing, str):
            return None
        mu = np.asarray(self.mixing, dtype=float)
        if mu.shape != (n_shards,) or (mu < 0).any() or not mu.sum() > 0:
            raise ValueError(
                f"mixing must be 'uniform', 'error' or {n_shards} non-negative weights "
                f"(one per shard, not all zero), got {self.mixing!r}."
            )
        return mu / mu.sum()

    @property
    def coef_(self):
        check_is_fitted(self, "estimator_")
        return self.estimator_.coef_

    @property
    def structure_(self):
        check_is_fitted(self, "estimator_")
        return self.estimator_.structure_

    @property
    def classes_(self):
        check_is_fitted(self, "estimator_")
        return self.estimator_.classes_

    def predict(self, X, fixed=None):
        """Label sequences from the mixed weights (see the learner's ``predict``; its
        other methods, ``predict_nbest``, ``predict_marginals``, ``predict_spans``, are
        ``estimator_``'s)."""
        check_is_fitted(self, "estimator_")
        return self.estimator_.predict(X, fixed=fixed)

    def score(self, X, y):
        """The learner's ``score`` with the mixed weights (token accuracy)."""
        check_is_fitted(self, "estimator_")
        return self.estimator_.score(X, y)

    def __sklearn_tags__(self):
        return sequence_tags(super().__sklearn_tags__())


class _Missing:
    """A worker's answer when it lacks the shard or the weights a task refers to."""

    def __init__(self, shard, weights):
        self.shard, self.weights = shard, weights


class _ShardResult:
    """What a shard's epochs changed, keyed by weight (``structure.change_since``):
    ``keys`` (ascending), the new ``coef`` and ``coef_sum`` values there; its
    ``n_seen``, per-epoch ``stats`` and the ``seconds`` the epochs took on the worker.
    """

    def __init__(self, keys, coef, coef_sum, n_seen, stats, seconds):
        self.keys, self.coef, self.coef_sum = keys, coef, coef_sum
        self.n_seen, self.stats, self.seconds = n_seen, stats, seconds


class _Round:
    """One mixing round's shard tasks: references first, full data where a worker lacks it."""

    def __init__(
        self, fit_id, version, worker, shard_data, visits, state, changes, initial, paths=None
    ):
        self.fit_id, self.version, self.worker = fit_id, version, worker
        self.shard_data, self.visits, self.state = shard_data, visits, state
        self.paths = paths  # a file per shard (_shard_cache.write_shards), or None
        self.changes, self.initial = tuple(changes), initial
        self.resent = 0  # tasks sent again with what their worker lacked

    def run(self, parallel):
        with warnings.catch_warnings():
            # dask's advice against data inside tasks: here it is deliberate (see Notes)
            warnings.filterwarnings("ignore", message="Sending large graph")
            return self._run(parallel)

    def _run(self, parallel):
        # the first round ships every shard, unless they lie in files that this machine's
        # workers read (from the page cache: faster than through a pipe; a worker of
        # another machine answers that it lacks its shard, and gets it sent)
        first = _Missing(shard=self.version == 0 and self.paths is None, weights=False)
        results = parallel(self._tasks({i: first for i in range(len(self.shard_data))}))
        # Send again what each worker said it lacked: mostly the shard alone (joblib gives
        # no shard a worker of its own), a few MB against the full weights' tens. A task
        # sent again may land on a worker lacking something else; the last time
        # everything goes, so that it needs nothing a worker kept.
        for everything in (False, True):
            missing = {i: r for i, r in enumerate(results) if isinstance(r, _Missing)}
            if not missing:
                break
            self.resent += len(missing)
            if everything:
                missing = dict.fromkeys(missing, _Missing(shard=True, weights=True))
            for i, result in zip(missing, parallel(self._tasks(missing))):
                results[i] = result
        return results

    def _tasks(self, send):
        """Tasks for the shards in ``send``, with the data its ``_Missing`` asks for."""
        # a worker holding nothing builds round 0 from its layout, or catches up from it
        from_zero = self.version == 0 or (self.changes and self.changes[0][0] == 1)
        initial = self.initial if from_zero else None
        for i, missing in send.items():
            shard = self.shard_data[i] if missing.shard else None
            full = self.state if missing.weights else None
            yield delayed(_shard_epochs)(
                self.worker,
                _shard_cache.ShardRef(self.fit_id, i, shard, self.paths and self.paths[i]),
                self.visits[i],
                _shard_cache.WeightsRef(self.fit_id, self.version, initial, full, self.changes),
            )


def _mix(mu, state, results, over="all"):
    """The mixed state ``sum_i mu_i state_i`` and what it changed, ``(keys, coef,
    coef_sum, n_seen)``.

    Only the weights some shard changed are mixed; the others keep their value exactly
    (``sum_i mu_i w`` may differ from ``w`` in the last bit), so that workers holding
    the previous state rebuild this one bit for bit from the change, and one shard
    gives its own state back unchanged. ``over="all"``: a shard that left a weight alone
    counts with the value it started from; ``"changed"``: only the shards that changed
    it count, their ``mu`` renormalised (a weight changed only by shards of ``mu`` 0
    keeps its value). The work grows with the changed weights: the keys are the same in
    every layout (``structure.change_since``), and a chain's pairs no shard had yet get
    a weight in the mixed layout.
    """
    structure, coef, coef_sum, _ = state
    keys = sorted_unique(np.concatenate([r.keys for r in results]))
    base_coef, base_sum = structure.values_at(keys, coef, coef_sum)
    mixed_coef = np.zeros(keys.size)
    mixed_sum = np.zeros(keys.size)
    said = np.zeros(keys.size)  # the mu of the shards that changed each weight
    for weight, r in zip(mu, results):
        where = np.searchsorted(keys, r.keys)
        mixed_coef[where] += weight * r.coef
        mixed_sum[where] += weight * r.coef_sum
        said[where] += weight
    if over == "all":  # the shards that left a weight alone, with its value before
        alone = mu.sum() - said
        mixed_coef += alone * base_coef
        mixed_sum += alone * base_sum
    else:
        has_say = said > 0
        share = np.where(has_say, said, 1.0)
        mixed_coef = np.where(has_say, mixed_coef / share, base_coef)
        mixed_sum = np.where(has_say, mixed_sum / share, base_sum)
    n_seen = round(float(mu @ np.array([r.n_seen for r in results], dtype=float)))
    mixed = structure.with_change(coef, coef_sum, keys, mixed_coef, mixed_sum)
    return (*mixed, n_seen), (keys, mixed_coef, mixed_sum, n_seen)
