"""ExponentiatedGradientSSVM: the structured SVM trained by exponentiated gradient on
its dual (Collins, Bartlett, McAllester & Taskar; Collins et al. JMLR 2008)."""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from .._kernels.threads import numba_threads
from ..structures import EmissionRows, LinearChain
from ..utils._sklearn_compat import HasMethods, Interval, StrOptions, fit_context
from ..utils.interrupt import deferred_interrupt, warn_interrupted
from ._base import check_sample_weight, drop_unweighted
from ._eg_duals import TreeDual, dual_for
from ._model import StructuredModel, kernel_threads
from ._progress import EpochProgress

#: An adaptive step is halved at most this many times before the example is skipped.
MAX_HALVINGS = 30
#: An adaptive rate that needed no halving grows by this factor for the next step.
GROWTH = 1.1


class ExponentiatedGradientSSVM(StructuredModel):
    """Structured SVM (max-margin Markov network) trained by exponentiated gradient.

    Minimises the primal ``P(w) = 1/2 ||w||^2 + C sum_i max_y (L(y_i, y) - w .
    (phi(x_i, y_i) - phi(x_i, y)))`` through its dual: one distribution ``alpha_i``
    over the outputs of each example, ``w = C sum_i sum_y alpha_{i,y} (phi(x_i, y_i) -
    phi(x_i, y))`` and ``D(alpha) = C sum_i E_{alpha_i}[L] - 1/2 ||w||^2``. The EG
    step is the slides' ``alpha_{i,y} ∝ alpha_{i,y} exp(eta (L_{i,y} - M_{i,y}))``
    with margins ``M_{i,y} = w . (phi(x_i, y_i) - phi(x_i, y))``.

    The ``alpha_i`` are never stored: with features and Hamming loss that decompose
    over parts (token labels and label bigrams; arcs), ``alpha_{i,y} ∝ exp(sum_{r in
    y} theta_{i,r})`` and the step becomes ``theta_{i,r} += eta (l_{i,r} + w .
    phi(x_i, r))``. Expected features and losses come from marginals: forward-backward
    on chains, inside-outside on projective trees, the matrix-tree theorem on
    non-projective ones.

    On chains, ``phi`` has an emission feature for every (feature, label) pair: the
    expected features of every token move every pair of its features off zero, so
    ``w`` holds ``n_features x n_labels`` emission weights (unlike the perceptrons',
    which grow with the pairs they update). Restricting EG to the pairs seen in
    training (CRFsuite's choice) cost 8.5 points of token accuracy on ``skstruct
    demo``'s synthetic data, so it is not the default; the layout supports it
    (``EmissionRows.seen``).

    Parameters
    ----------
    decoder : Viterbi, Eisner, ChuLiuEdmonds or None, default=None
        The structure: ``Viterbi()`` (first-order chain, the default), ``Eisner()``
        (first-order projective trees) or ``ChuLiuEdmonds()`` (any tree); with
        ``single_root`` the dual ranges over single-root trees. Predictions are this
        decoder's argmax under ``w``.
    features : transformer or None, default=None
        As for :class:`~skstruct.StructuredPerceptron`; for parsers an
        :class:`~skstruct.ArcFeatures` (the default).
    n_features : int or None, default=None
        Hash features into this many columns (``None``: exact vocabulary for chains,
        ``ArcFeatures``' own size for parsers).
    C : float, default=0.1
        Weight of the sum of the hinge losses against ``1/2 ||w||^2``; larger fits the
        training data harder and takes more epochs to converge. Held-out data chose 0.1
        on CoNLL-2000 chunking and 0.03 on the PTB sample (parsing).
    learning_rate : float, default=8.0
        ``eta`` in the EG step; when ``adaptive``, the largest rate a step is tried
        with. Larger than EG's convergence theory allows for a fixed rate, so pick a
        small one (e.g. 0.01) with ``adaptive=False``; adaptively, 8 gave the highest
        dual after 15 epochs on CoNLL-2000 chunking among 0.5, 2, 8 and 16.
    adaptive : bool, default=True
        Accept a step only if it raises the dual objective; otherwise halve the rate
        and retry (up to 30 times, then leave the example alone this epoch). A step
        taken at once lets the rate grow by 10% for the next one. Online, each
        example keeps its own rate; in batch mode there is one. The dual then rises
        monotonically whatever ``learning_rate`` is.
    online : bool, default=True
        Online EG (update one example's ``alpha_i`` and ``w`` in turn, the JMLR paper's
        faster variant) or batch EG (all examples against the same ``w``, then ``w``
        recomputed).
    max_iter : int, default=30
        Epochs (passes over the training data).
    tol : float or None, default=1e-3
        Stop when the duality gap ``P - D`` is at most ``tol * P`` (a bound on the
        relative suboptimality of ``w``). ``None`` runs all ``max_iter`` epochs.
    loss : {"hamming"}, default="hamming"
        Per-token (per-word head) Hamming loss ``L(y_i, y)``, the part-wise loss the
        factored form needs.
    shuffle : bool, default=True
        Online: visit the examples in a new random order every epoch.
    random_state : int, RandomState instance or None, default=None
        Seeds the visiting order.
    n_jobs : int or None, default=None
        Threads of the primal's hinge pass (once an epoch) and of predictions, with
        joblib's conventions (-1: all cores; ``None``: what a
        :func:`joblib.parallel_config` context sets), except that outside such a
        context ``None`` is every core numba has (``NUMBA_NUM_THREADS``; a joblib process
        worker's share of them). The
        marginals of an epoch are computed in turn. Identical results for any value.
    verbose : int, default=0
        Progress over epochs on standard error, with the duality gap and the dev
        score: 1 draws a bar on a terminal and prints one plain line per epoch
        elsewhere, 2 prints the plain lines everywhere.

    Attributes
    ----------
    coef_ : ndarray of shape (n_weights,)
        The primal weights ``w``, laid out by ``structure_``. For chains:
        ``[transition | start | stop | emission pool]``, the pool holding one weight
        per (feature, label) pair (``structure_.rows``; see
        ``structure_.emission_matrix(coef_)``).
    classes_ : ndarray of shape (n_labels,)
        Labels (sequence labelling only).
    structure_ : LinearChain or ArcFactoredTree
    encoder_ : TokenDictEncoder or ArcFeatures
    features_ : transformer or None
    decoder_ : Viterbi, Eisner or ChuLiuEdmonds
    n_iter_ : int
        Epochs run.
    history_ : list of dict
        Per epoch, after it: ``primal`` ``P(w)``, ``dual`` ``D(alpha)``, ``gap``
        (``P - D >= 0``), ``mean_rate`` (mean ``eta`` of the accepted steps),
        ``rejected`` (steps halved), ``skipped`` (examples left alone), ``dev_score``
        (token accuracy or UAS of ``w`` on the development set, or None) and
        ``seconds``.

    References
    ----------
    M. Collins, A. Globerson, T. Koo, X. Carreras and P. L. Bartlett (2008).
    Exponentiated gradient algorithms for conditional random fields and max-margin
    Markov networks. JMLR 9, 1775-1822.

    P. L. Bartlett, M. Collins, B. Taskar and D. McAllester (2004). Exponentiated
    gradient algorithms for large-margin structured classification. NIPS.

    Examples
    --------
    >>> from skstruct import ExponentiatedGradientSSVM, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> X, y = make_chain_data(200, random_state=0)
    >>> model = ExponentiatedGradientSSVM(features=TokenFeatures(), random_state=0)
    >>> model.fit(X[:150], y[:150]).predict(X[150:151])[0][:4]
    ['L1', 'L1', 'L1', 'L1']
    >>> round(model.score(X[150:], y[150:]), 2)
    0.96
    >>> last = model.history_[-1]
    >>> bool(last["primal"] >= last["dual"])
    True
    """

    _parameter_constraints: dict = {
        "decoder": [HasMethods(["make_structure", "decode", "search", "predict"]), None],
        "features": [HasMethods(["fit", "transform"]), None],
        "n_features": [Interval(Integral, 1, None, closed="left"), None],
        "C": [Interval(Real, 0, None, closed="neither")],
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "adaptive": ["boolean"],
        "online": ["boolean"],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left"), None],
        "loss": [StrOptions({"hamming"})],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        decoder=None,
        *,
        features=None,
        n_features=None,
        C=0.1,
        learning_rate=8.0,
        adaptive=True,
        online=True,
        max_iter=30,
        tol=1e-3,
        loss="hamming",
        shuffle=True,
        random_state=None,
        n_jobs=None,
        verbose=0,
    ):
        self.decoder = decoder
        self.features = features
        self.n_features = n_features
        self.C = C
        self.learning_rate = learning_rate
        self.adaptive = adaptive
        self.online = online
        self.max_iter = max_iter
        self.tol = tol
        self.loss = loss
        self.shuffle = shuffle
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, *, X_dev=None, y_dev=None, sample_weight=None):
        """Run EG on the dual for up to ``max_iter`` epochs.

        Parameters
        ----------
        X : list of sequences
            Token feature dicts, raw tokens with ``features``, or for parsers token
            dicts with ``form`` and ``pos`` (as :class:`~skstruct.ArcFeatures` reads).
        y : list of label sequences or head lists
        X_dev, y_dev : list, default=None
            Scored after every epoch (``history_``).
        sample_weight : array-like of shape (n_sequences,), default=None
            A finite, non-negative weight per sequence: its slack costs ``C`` times
            it (``C_i = C w_i``); 0 leaves the sequence out, as if not given.

        Returns
        -------
        self : object
        """
        return self._fit_svm(X, y, X_dev, y_dev, sample_weight, self._train_eg)

    def _fit_svm(self, X, y, X_dev, y_dev, sample_weight, train):
        """Check and encode the data, then ``train(encoded, gold, weights, dev, rng,
        interrupt)``, which sets ``coef_`` (a solver of the dual; the kernels it calls
        run on ``n_jobs`` threads)."""
        decoder = self.check_decoder()
        X, y = decoder.capabilities.task.check_examples(X, y)
        X, y, weights = drop_unweighted(X, y, check_sample_weight(sample_weight, len(X)))
        if (X_dev is None) != (y_dev is None):
            raise ValueError("Pass both X_dev and y_dev, or neither.")
        if X_dev is not None:
            X_dev, y_dev = self.check_examples(X_dev, y_dev, X_name="X_dev", y_name="y_dev")
        rng = check_random_state(self.random_state)
        try:
            encoded, gold = self._initialize(X, y, classes=None, rng=rng, decoder=decoder)
            dev = None
            if X_dev is not None:
                dev = self.encode(X_dev, y_dev, names=("X_dev", "y_dev"))
            with (
                deferred_interrupt() as interrupt,
                numba_threads(kernel_threads(self.n_jobs)),
            ):
                train(encoded, gold, weights, dev, rng, interrupt)
        except KeyboardInterrupt:  # a second Ctrl-C: nothing half-trained stays behind
            self._discard_fit()
            raise
        self._compile_prediction(encoded)
        return self

    def _train_eg(self, encoded, gold, weights, dev, rng, interrupt):
        self._give_every_pair_a_weight()
        dual = self._dual(encoded, gold, weights)
        self.coef_ = self._train(dual, encoded.n_sentences, dev, rng, interrupt)

    learns_relation_labels = False

    def _decoder_needs(self):
        yield (
            "marginals",
            "ExponentiatedGradientSSVM needs exact marginals, which first-order models have: "
            "use Viterbi(order=1), Eisner(order=1) or ChuLiuEdmonds()",
        )

    def _give_every_pair_a_weight(self):
        """Chains: EG's emission features are all (feature, label) pairs (see Notes in
        the class docstring); trees keep their hashed arc features."""
        if isinstance(self.structure_, LinearChain):
            rows = EmissionRows.full(self.structure_.n_features, self.structure_.n_labels)
            self.structure_ = self.structure_.with_rows(rows)

    def _dual(self, encoded, gold, sample_weight=None):
        dual = dual_for(self.structure_)
        if dual is TreeDual:  # its kernels read heads
            gold = self.structure_.split_outputs(gold)[0]
        return dual(self.structure_, self.decoder_, encoded, gold, self.C, sample_weight)

    def _train(self, dual, n_sentences, dev, rng, interrupt):
        """Epochs of EG until ``max_iter``, the ``tol`` gap or ``interrupt``; returns w."""
        coef = dual.coef()
        rates = np.full(n_sentences, float(self.learning_rate))
        rate = float(self.learning_rate)
        self.n_iter_ = 0
        progress = EpochProgress(self, self.max_iter)
        for _ in progress:
            start = time.perf_counter()
            if self.online:
                order = rng.permutation(n_sentences) if self.shuffle else None
                counts = online_epoch(dual, coef, order, rates, self.adaptive, self.learning_rate)
                coef = dual.coef()  # afresh: no drift from millions of small updates
            else:
                coef, rate, counts = batch_step(dual, coef, rate, self.adaptive, self.learning_rate)
            seconds = time.perf_counter() - start
            self.n_iter_ += 1
            record = {"epoch": self.n_iter_, **objectives(dual, coef), **counts}
            record["dev_score"] = None if dev is None else self._token_accuracy(dev, coef)
            record["seconds"] = seconds
            self.history_.append(record)
            # EG makes no online predictions to count: its training progress is the gap.
            progress.report(
                record,
                [("gap", f"{record['gap']:.4g}", "duality gap"),
                 ("primal", f"{record['primal']:.4g}", "primal")],
            )  # fmt: skip
            if interrupt.requested:
                warn_interrupted(self, self.n_iter_)
                break
            if self.tol is not None and record["gap"] <= self.tol * record["primal"]:
                break
        return coef


def online_step(dual, i, coef, rate, adaptive, ceiling=np.inf):
    """One EG step on example ``i``, updating ``coef`` in place.

    Returns the rate for this example's next step (adaptive: grown after a step taken
    at once, halved as often as the step was; the old one when every halving was
    rejected and the example left alone) and the number of halvings.
    """
    step, gradient = rate, dual.gradient(i, coef)
    for halvings in range(MAX_HALVINGS + 1):
        proposal = dual.propose(i, gradient, step)
        change, scale, undo = dual.apply(i, proposal, coef)
        gain = dual.Ci[i] * (proposal.expected_loss - dual.expected_loss[i]) - 0.5 * change
        # at a block's optimum the gain is rounding noise: rejecting it would shrink
        # the rate to nothing for the rest of training
        noise = 1e-12 * (scale + dual.total_C + 1.0)
        if not adaptive or gain >= -noise:
            dual.accept(i, proposal)
            return _next_rate(step, halvings, adaptive, ceiling), halvings
        undo()
        step /= 2.0
    return rate, MAX_HALVINGS + 1


def _next_rate(step, halvings, adaptive, ceiling):
    return min(step * GROWTH, ceiling) if adaptive and halvings == 0 else step


def online_epoch(dual, coef, order, rates, adaptive, ceiling):
    """Online EG over the examples in ``order`` (all, in turn, when None); each
    example's rate in ``rates`` is updated in place."""
    order = range(rates.size) if order is None else order
    used, rejected, skipped = [], 0, 0
    for i in order:
        rates[i], halvings = online_step(dual, i, coef, rates[i], adaptive, ceiling)
        rejected += halvings
        if halvings > MAX_HALVINGS:
            skipped += 1
        else:
            used.append(rates[i])
    return {"mean_rate": float(np.mean(used)) if used else None,
            "rejected": rejected, "skipped": skipped}  # fmt: skip


def batch_step(dual, coef, rate, adaptive, ceiling=np.inf):
    """One batch EG iteration: every example steps against the same ``w``; returns
    the new ``w``, the rate for the next iteration (as in :func:`online_step`) and
    counts."""
    before, step = dual_objective(dual, coef), rate
    snapshot = dual.snapshot() if adaptive else None
    for halvings in range(MAX_HALVINGS + 1):
        for i in range(dual.expected_loss.size):
            dual.accept(i, dual.propose(i, dual.gradient(i, coef), step))
        new_coef = dual.coef()
        if not adaptive or dual_objective(dual, new_coef) >= before:
            counts = {"mean_rate": step, "rejected": halvings, "skipped": 0}
            return new_coef, _next_rate(step, halvings, adaptive, ceiling), counts
        dual.restore(snapshot)
        step /= 2.0
    counts = {"mean_rate": None, "rejected": halvings + 1, "skipped": dual.expected_loss.size}
    return coef, rate, counts


def weighted_sum(dual, values):
    """``sum_i C_i values_i`` (``C * sum(values)`` without sample weights, as ever)."""
    if dual.weighted:
        return float(dual.Ci @ values)
    return dual.C * float(values.sum())


def dual_objective(dual, coef):
    return weighted_sum(dual, dual.expected_loss) - 0.5 * float(coef @ coef)


def objectives(dual, coef):
    """Primal, dual and gap at ``w = coef`` (which must be the dual's ``w``)."""
    hinge = dual.hinge(coef)
    primal = 0.5 * float(coef @ coef) + weighted_sum(dual, hinge)
    value = dual_objective(dual, coef)
    return {"primal": primal, "dual": value, "gap": primal - value}
