"""Conditional random fields trained by L-BFGS / OWL-QN: over any structure with
marginals (:class:`ConditionalRandomField`: chains, first-order dependency trees,
candidate sets), and the first-order chain with CRFsuite's feature generation and its
SGD (:class:`LinearChainCRF`)."""

import sys
import time
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted
from threadpoolctl import threadpool_limits

from ..decoders import Viterbi
from ..decoders.chain import ALLOWED
from ..engine import StructuredModel, check_sample_weight, drop_unweighted, kernel_threads
from ..solvers import (
    LINESEARCHES,
    SGDCorpus,
    gold_counts,
    likelihood,
    minimize_l2sgd,
    minimize_lbfgs,
)
from ..structures import EmissionRows
from ..utils._sklearn_compat import HasMethods, Interval, StrOptions, fit_context
from ..utils.validation import check_sequences, check_sequences_and_labels


class ConditionalRandomField(StructuredModel):
    """A conditional random field over the outputs of any structure with exact
    marginals, trained by L-BFGS (OWL-QN with an L1 term) on its regularised
    log-likelihood.

    Minimises ``-sum_i s_i log p(y_i | x_i) + c1 ||w||_1 + c2 ||w||^2`` with ``p(y |
    x) ∝ exp(w . phi(x, y))`` over the outputs of the decoder's structure: label
    sequences (``Viterbi()``, first order; forward-backward), dependency trees
    (``Eisner()``: projective, inside-outside; ``ChuLiuEdmonds()``: any tree, the
    matrix-tree theorem; unlabelled, first order) or the candidates of candidate sets
    (:class:`~skstruct.BestCandidate`: a maximum-entropy reranker). ``log Z`` and the
    gradient come from the structure protocol (``marginals``, ``expected_delta``:
    :class:`~skstruct.solvers.StructuredLikelihood`); first-order chains
    run on fused kernels tested equal to it. Predictions are the decoder's argmax.

    For chains with CRFsuite's options (``min_freq``, ``all_possible_states``,
    ``allowed``, the ``l2sgd`` solver) use :class:`LinearChainCRF`; here a chain has
    the (feature, label) pairs seen in training and every label bigram, as
    :class:`LinearChainCRF`'s defaults do, and trains to the same weights.

    Parameters
    ----------
    decoder : Viterbi, Eisner, ChuLiuEdmonds, BestCandidate or None, default=None
        The structure (``None``: ``Viterbi()``); its decoder must have exact marginals.
    features : transformer or None, default=None
        As for :class:`~skstruct.StructuredPerceptron`; for parsers an
        :class:`~skstruct.ArcFeatures` (the default).
    n_features : int or None, default=None
        Hash features into this many columns.
    c1, c2 : float, default=0.0, 1.0
        L1 and L2 coefficients (CRFsuite's scale).
    max_iter : int or None, default=100
        L-BFGS iterations at most (None: no limit).
    epsilon, period, delta, num_memories, linesearch, max_linesearch
        L-BFGS's stopping rules and settings, as for :class:`LinearChainCRF`.
    n_jobs : int or None, default=None
        Threads of the likelihood's sums (a chain's kernels; other structures' examples,
        in two fixed runs) and of predictions (joblib's conventions); the model is the
        same whatever it is.
    verbose : int, default=0
        Print the objective after every iteration (standard error).

    Attributes
    ----------
    coef_ : ndarray of shape (n_weights,)
    structure_, decoder_, encoder_, features_
    classes_ : ndarray
        Labels (sequence labelling only).
    n_iter_, n_evaluations_ : int
    stop_reason_ : str
    history_ : list of dict
        As for :class:`LinearChainCRF`'s L-BFGS.

    Examples
    --------
    A probabilistic first-order parser:

    >>> from skstruct import ConditionalRandomField, Eisner
    >>> X = [[{"form": "dogs", "upos": "NOUN"}, {"form": "bark", "upos": "VERB"}]] * 4
    >>> y = [[2, 0]] * 4
    >>> parser = ConditionalRandomField(Eisner(), c2=0.01).fit(X, y)
    >>> parser.predict(X[:1])
    [[2, 0]]
    """

    _parameter_constraints: dict = {
        "decoder": [HasMethods(["make_structure", "decode", "search", "predict"]), None],
        "features": [HasMethods(["fit", "transform"]), None],
        "n_features": [Interval(Integral, 1, None, closed="left"), None],
        "c1": [Interval(Real, 0, None, closed="left")],
        "c2": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
        "epsilon": [Interval(Real, 0, None, closed="left")],
        "period": [Interval(Integral, 0, None, closed="left")],
        "delta": [Interval(Real, 0, None, closed="left")],
        "num_memories": [Interval(Integral, 1, None, closed="left")],
        "linesearch": [StrOptions(set(LINESEARCHES))],
        "max_linesearch": [Interval(Integral, 1, None, closed="left")],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
    }

    #: Relation labels would need labelled marginals' expected features.
    learns_relation_labels = False
    random_state = None  # L-BFGS draws nothing

    def __init__(
        self,
        decoder=None,
        *,
        features=None,
        n_features=None,
        c1=0.0,
        c2=1.0,
        max_iter=100,
        epsilon=1e-5,
        period=10,
        delta=1e-5,
        num_memories=6,
        linesearch="MoreThuente",
        max_linesearch=20,
        n_jobs=None,
        verbose=0,
    ):
        self.decoder = decoder
        self.features = features
        self.n_features = n_features
        self.c1 = c1
        self.c2 = c2
        self.max_iter = max_iter
        self.epsilon = epsilon
        self.period = period
        self.delta = delta
        self.num_memories = num_memories
        self.linesearch = linesearch
        self.max_linesearch = max_linesearch
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _decoder_needs(self):
        yield (
            "marginals",
            f"{type(self).__name__} needs exact marginals, which first-order models have: use "
            "Viterbi(order=1), Eisner(order=1), ChuLiuEdmonds() or BestCandidate()",
        )

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, *, sample_weight=None):
        """Minimise the regularised negative log-likelihood by L-BFGS (OWL-QN).

        Parameters
        ----------
        X : list of examples
            As the decoder's task reads them (token dicts, sentences for parsers,
            candidate sets).
        y : list of outputs
        sample_weight : array-like of shape (n_examples,), default=None
            A finite, non-negative weight per example, multiplying its log-likelihood
            (0 leaves it out).

        Returns
        -------
        self : object
        """
        started = time.perf_counter()
        decoder = self.check_decoder()
        X, y = decoder.capabilities.task.check_examples(X, y)
        X, y, weights = drop_unweighted(X, y, check_sample_weight(sample_weight, len(X)))
        encoded, outputs = self._initialize(X, y, classes=None, rng=None, decoder=decoder)
        if hasattr(self.structure_, "rows"):  # a chain: the pairs seen, as CRFsuite
            rows = EmissionRows.seen(encoded, outputs, self.structure_.n_labels)
            self.structure_ = self.structure_.with_rows(rows)
        self._fit_lbfgs(encoded, outputs, None, None, weights, started)
        return self

    def predict_head_proba(self, X):
        """The probability of every head of every word, for a parser: the arc marginals
        of the fitted model (inside-outside over projective trees, the matrix-tree
        theorem over all; single-rooted as the decoder says).

        Parameters
        ----------
        X : list of sentences

        Returns
        -------
        list of ndarray of shape (n_words, n_words + 1)
            Per sentence, row ``d - 1`` holds the probabilities of word ``d``'s heads
            ``0`` (the root) to ``n_words``; each row sums to 1.
        """
        check_is_fitted(self, "coef_")
        if not hasattr(self.structure_, "split_outputs"):
            raise ValueError(
                f"predict_head_proba needs a parser (Eisner or ChuLiuEdmonds); this model "
                f"uses {type(self.decoder_).__name__}."
            )
        X = check_sequences(X)
        encoded = self.task_.encode_X(self, X)
        found = []
        for i in range(encoded.n_sentences):
            mu = self.structure_.marginals(self.structure_.scores(encoded, i, self.coef_))[1]
            found.append(mu.arc[: mu.n + 1, 1 : mu.n + 1].T.copy())
        return found

    def _fit_lbfgs(self, encoded, outputs, fixed, counts, weights, started):
        """Run L-BFGS (OWL-QN) from zero; sets the fitted attributes."""
        history, ended = [], [started]  # when the last iteration ended

        def iteration(state):
            before = history[-1]["evaluations"] if history else 1
            self._record(history, ended, state, pg_norm=float(state.pg_norm), step=state.step,
                         evaluations=int(state.nfev),
                         linesearch_trials=int(state.nfev) - before)  # fmt: skip

        objective = likelihood(
            self.structure_, encoded, outputs, self.c2, kernel_threads(self.n_jobs), fixed,
            empirical=counts, weights=weights,
        )  # fmt: skip
        # one BLAS thread: OpenBLAS's threads spin after each of L-BFGS's dot products
        # and slowed the gradient's numba threads by 40% (measured on 2 cores)
        with threadpool_limits(limits=1, user_api="blas"):
            result = minimize_lbfgs(
                objective,
                np.zeros(objective.n_variables),
                c1=self.c1,
                num_memories=self.num_memories,
                max_iterations=self.max_iter,
                epsilon=self.epsilon,
                period=self.period,
                delta=self.delta,
                linesearch=self.linesearch,
                max_linesearch=self.max_linesearch,
                callback=iteration,
            )
        self.n_evaluations_ = int(result.nfev)
        result.x = objective.full(result.x)
        self._set_result(result, history, encoded)

    def _set_result(self, result, history, encoded):
        self.coef_ = result.x
        self.n_iter_ = int(result.nit)
        self.stop_reason_ = result.message
        self.history_ = history
        self._compile_prediction(encoded)

    def _record(self, history, ended, state, **fields):
        """Append iteration ``state``'s entry to ``history`` (``ended[0]``: when the
        last iteration ended)."""
        now = time.perf_counter()
        seconds, ended[0] = now - ended[0], now
        history.append({
            "iteration": int(state.nit),
            "loss": float(state.fun),
            "feature_norm": float(np.linalg.norm(state.x)),
            **fields,
            "active_features": int(np.count_nonzero(state.x)),
            "seconds": seconds,
        })  # fmt: skip
        if self.verbose:
            print(f"iteration {state.nit}: loss {state.fun:.6g}", file=sys.stderr)


class LinearChainCRF(ConditionalRandomField):
    """A first-order linear-chain CRF, trained by L-BFGS (OWL-QN with an L1 term) on
    its regularised log-likelihood, as CRFsuite's ``lbfgs``, or by SGD, as its
    ``l2sgd``.

    Minimises ``-sum_i log p(y_i | x_i) + c1 ||w||_1 + c2 ||w||^2`` with
    ``p(y | x) ∝ exp(w . phi(x, y))`` over the chain's parts: (token feature, label)
    emissions, label bigrams, start and stop labels. The gradient comes from
    forward-backward over every training sentence (on ``n_jobs`` threads); the steps
    from L-BFGS when ``c1 = 0`` and from OWL-QN (Andrew & Gao 2007) otherwise, with
    libLBFGS's stopping rules (``epsilon``, ``period``, ``delta``). With
    ``solver="l2sgd"`` the same objective (``c1 = 0``) is minimised by stochastic
    gradient descent, one sentence at a time, with CRFsuite's learning-rate calibration
    and stopping rule (:mod:`skstruct.solvers._l2sgd`); SGD is sequential, so
    ``n_jobs`` does not speed it up.

    Which weights exist follows CRFsuite's feature generation: emission weights for
    the (feature, label) pairs seen in the training data (or all of them with
    ``all_possible_states``), transition weights for the label bigrams seen (or all),
    and of those only the ones whose count in the training data (the sum of the
    feature's values) is at least ``min_freq``. Start and stop label weights, which
    CRFsuite's model lacks, exist with ``boundary_features=True``.

    Parameters
    ----------
    solver : {"lbfgs", "l2sgd"}, default="lbfgs"
        L-BFGS / OWL-QN over the whole corpus, or SGD.
    features : transformer or None, default=None
        As for :class:`~skstruct.StructuredPerceptron`: None takes token feature dicts.
    n_features : int or None, default=None
        Hash features into this many columns (``None``: an exact vocabulary).
    c1 : float, default=0.0
        Coefficient of the L1 term (CRFsuite's ``c1``): weights exactly zero.
    c2 : float, default=1.0
        Coefficient of the L2 term (CRFsuite's ``c2``, the same scale).
    max_iter : int or None, default=100
        Iterations (l2sgd: epochs) at most (CRFsuite's ``max_iterations``; None: no
        limit for L-BFGS, 1000 epochs for SGD).
    epsilon : float, default=1e-5
        Stop when ``||g|| / max(1, ||w||) <= epsilon`` (``g``: the gradient, or
        OWL-QN's pseudo-gradient).
    period : int, default=10
        Iterations (epochs) over which ``delta`` is tested (0: never).
    delta : float, default=1e-5
        Stop when the objective fell by less than this fraction over the last
        ``period`` iterations (CRFsuite's default for l2sgd is 1e-6).
    num_memories : int, default=6
        Correction pairs L-BFGS keeps (CRFsuite's ``num_memories``).
    linesearch : {"MoreThuente", "Backtracking", "StrongBacktracking"}, default="MoreThuente"
        L-BFGS's line search (``c1 = 0``): ``"MoreThuente"`` is SciPy's strong-Wolfe
        search, the others libLBFGS's backtracking ones. OWL-QN always backtracks.
    max_linesearch : int, default=20
        Trial steps per line search at most.
    calibration_eta, calibration_rate : float, default=0.1, 2.0
        l2sgd: the first learning rate tried when calibrating, and the factor between
        candidates.
    calibration_samples, calibration_candidates, calibration_max_trials : int, \
default=1000, 10, 20
        l2sgd: sentences the calibration trains on, rates that must lower the
        objective before it ends, and rates it tries at most.
    random_state : int, RandomState instance or None, default=None
        l2sgd: draws the calibration sample and each epoch's order (L-BFGS draws
        nothing).
    all_possible_states : bool, default=False
        Give every (feature, label) pair a weight, not only those seen in training.
    all_possible_transitions : bool, default=True
        Give every label bigram a weight, not only those seen in training (CRFsuite's
        default is False).
    min_freq : float, default=0
        Keep only the weights whose count in the training data is at least this
        (CRFsuite's ``minfreq``; unseen pairs count 0).
    boundary_features : bool, default=True
        Weights for the first and the last label of a sequence.
    n_jobs : int or None, default=None
        Threads for the gradient and for predictions (joblib's conventions; ``None``:
        every core numba has, unless a :func:`joblib.parallel_config` context sets
        ``n_jobs``); the model is the same whatever it is.
    verbose : int, default=0
        Print the objective after every iteration (standard error).
    allowed : {"bio", "bioes"}, set of (str, str) pairs or None, default=None
        The label sequences predictions, marginals and span probabilities keep to
        (see :class:`~skstruct.Viterbi`); the likelihood is trained over all of them.
        Training sequences whose labels break it are left out with a warning.

    Attributes
    ----------
    coef_ : ndarray of shape (n_weights,)
        ``[transition | start | stop | emission pool]``, laid out by ``structure_``.
    classes_ : ndarray of shape (n_labels,)
    structure_ : LinearChain
    encoder_ : TokenDictEncoder
    features_ : transformer or None
    decoder_ : Viterbi
    n_iter_ : int
        Iterations run.
    n_evaluations_ : int
        Passes over the corpus (L-BFGS: objective and gradient evaluations; SGD:
        epochs, calibration left out).
    t0_ : float
        l2sgd: the calibrated offset of the learning rate ``1 / (lambda (t0 + t))``.
    stop_reason_ : str
        Which stopping rule ended training.
    history_ : list of dict
        Per iteration (epoch): ``iteration``, ``loss`` (the objective),
        ``feature_norm`` (``||w||``), ``active_features`` (nonzero weights),
        ``seconds`` (the iteration's; the first also counts setting up); L-BFGS adds
        ``pg_norm`` (the (pseudo-)gradient's norm), ``step`` (the step's length),
        ``evaluations`` (so far) and ``linesearch_trials`` (this iteration's); SGD adds
        ``eta`` (the learning rate at the epoch's end).

    Examples
    --------
    >>> from skstruct import TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> from skstruct.learners.crf import LinearChainCRF
    >>> X, y = make_chain_data(200, random_state=0)
    >>> crf = LinearChainCRF(features=TokenFeatures(), c2=0.1).fit(X[:150], y[:150])
    >>> round(crf.score(X[150:], y[150:]), 2)
    0.96
    """

    _parameter_constraints: dict = {
        **{
            name: rule
            for name, rule in ConditionalRandomField._parameter_constraints.items()
            if name != "decoder"
        },
        "solver": [StrOptions({"lbfgs", "l2sgd"})],
        "calibration_eta": [Interval(Real, 0, None, closed="neither")],
        "calibration_rate": [Interval(Real, 1, None, closed="neither")],
        "calibration_samples": [Interval(Integral, 1, None, closed="left")],
        "calibration_candidates": [Interval(Integral, 1, None, closed="left")],
        "calibration_max_trials": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "all_possible_states": ["boolean"],
        "all_possible_transitions": ["boolean"],
        "min_freq": [Interval(Real, 0, None, closed="left")],
        "boundary_features": ["boolean"],
        "allowed": ALLOWED,
    }

    @property
    def decoder(self):
        """Always exact first-order Viterbi, with ``allowed`` (StructuredModel reads it)."""
        return Viterbi(allowed=self.allowed)

    def __init__(
        self,
        *,
        solver="lbfgs",
        features=None,
        n_features=None,
        c1=0.0,
        c2=1.0,
        max_iter=100,
        epsilon=1e-5,
        period=10,
        delta=1e-5,
        num_memories=6,
        linesearch="MoreThuente",
        max_linesearch=20,
        calibration_eta=0.1,
        calibration_rate=2.0,
        calibration_samples=1000,
        calibration_candidates=10,
        calibration_max_trials=20,
        random_state=None,
        all_possible_states=False,
        all_possible_transitions=True,
        min_freq=0,
        boundary_features=True,
        n_jobs=None,
        verbose=0,
        allowed=None,
    ):
        self.solver = solver
        self.features = features
        self.n_features = n_features
        self.c1 = c1
        self.c2 = c2
        self.max_iter = max_iter
        self.epsilon = epsilon
        self.period = period
        self.delta = delta
        self.num_memories = num_memories
        self.linesearch = linesearch
        self.max_linesearch = max_linesearch
        self.calibration_eta = calibration_eta
        self.calibration_rate = calibration_rate
        self.calibration_samples = calibration_samples
        self.calibration_candidates = calibration_candidates
        self.calibration_max_trials = calibration_max_trials
        self.random_state = random_state
        self.all_possible_states = all_possible_states
        self.all_possible_transitions = all_possible_transitions
        self.min_freq = min_freq
        self.boundary_features = boundary_features
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.allowed = allowed

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, *, sample_weight=None):
        """Minimise the regularised negative log-likelihood (by ``solver``).

        Parameters
        ----------
        X : list of sequences
            Token feature dicts, or raw tokens with ``features``.
        y : list of label sequences
        sample_weight : array-like of shape (n_sequences,), default=None
            A finite, non-negative weight per sequence: the likelihood is
            ``sum_i w_i log p(y_i | x_i)`` (0 leaves a sequence out, as if not given;
            an integer weight counts it that many times). Which weights the model has
            (``min_freq``, the transitions seen) follows the sequences of nonzero
            weight, unweighted.

        Returns
        -------
        self : object
        """
        started = time.perf_counter()
        X, y = check_sequences_and_labels(X, y)
        X, y, weights = drop_unweighted(X, y, check_sample_weight(sample_weight, len(X)))
        rng = check_random_state(self.random_state)
        encoded, labels = self._initialize(X, y, classes=None, rng=rng)
        self.structure_, fixed, counts = self._weights(encoded, labels)
        if weights is not None:
            counts = gold_counts(self.structure_, encoded, labels, weights)
        if self.solver == "lbfgs":
            self._fit_lbfgs(encoded, labels, fixed, counts, weights, started)
            return self
        history, ended = [], [started]
        with threadpool_limits(limits=1, user_api="blas"):
            result = self._sgd(encoded, labels, fixed, rng, weights,
                               lambda state, **fields: self._record(history, ended, state,
                                                                    **fields))  # fmt: skip
        self._set_result(result, history, encoded)
        return self

    def _sgd(self, encoded, labels, fixed, rng, weights, record):
        if self.c1:
            raise ValueError("solver='l2sgd' has no L1 term: set c1=0 (or solver='lbfgs').")
        n_structure = self.structure_.n_labels * (self.structure_.n_labels + 2)
        free = np.ones(n_structure)
        if fixed is not None:
            free[fixed[:n_structure]] = 0.0
        corpus = SGDCorpus(encoded, labels, self.structure_, free, weights)
        result = minimize_l2sgd(
            corpus,
            self.c2,
            rng,
            max_iterations=1000 if self.max_iter is None else self.max_iter,
            period=self.period,
            delta=self.delta,
            calibration_eta=self.calibration_eta,
            calibration_rate=self.calibration_rate,
            calibration_samples=self.calibration_samples,
            calibration_candidates=self.calibration_candidates,
            calibration_max_trials=self.calibration_max_trials,
            callback=lambda state: record(state, eta=float(state.eta)),
        )
        self.t0_ = float(result.t0)
        self.n_evaluations_ = int(result.nit)
        return result

    def _weights(self, encoded, labels):
        """The structure with the emission pairs the model has, the mask of the weights
        it lacks (kept at zero: label bigrams, start and stop) and the gold counts
        ``Phi`` in the structure's layout."""
        chain = self.structure_
        L = chain.n_labels
        if self.all_possible_states:
            rows = EmissionRows.full(chain.n_features, L)
        else:
            rows = EmissionRows.seen(encoded, labels, L)
        chain = chain.with_rows(rows)
        counts = gold_counts(chain, encoded, labels)
        emission_counts, transition_counts, _start, _stop, _ = chain.split(counts)
        if self.min_freq > 0:
            keep = np.zeros(rows.pool_size, dtype=bool)
            keep[rows.live_slots()] = emission_counts[rows.live_slots()] >= self.min_freq
            rows, slots = rows.compacted(keep=keep)
            n_structure = counts.size - emission_counts.size
            counts = np.concatenate([counts[:n_structure], emission_counts[slots]])
            chain = chain.with_rows(rows)
        fixed = np.zeros(chain.n_weights, dtype=bool)
        _, fixed_transition, fixed_start, fixed_stop, _ = chain.split(fixed)
        if not self.all_possible_transitions:
            fixed_transition[transition_counts == 0] = True
        fixed_transition[transition_counts < self.min_freq] = True
        fixed_start[:] = fixed_stop[:] = not self.boundary_features
        return chain, (fixed if fixed.any() else None), counts
