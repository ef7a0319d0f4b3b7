"""What the two structured SVM estimators share: their parameters' checks, the fit
around a solver, and EG's loop (StructuredSVM runs it with ``solver="eg"``)."""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from .._kernels.threads import numba_threads
from ..engine import (
    EpochProgress,
    StructuredModel,
    check_sample_weight,
    drop_unweighted,
    kernel_threads,
)
from ..solvers import TreeDual, batch_step, dual_for, objectives, online_epoch
from ..structures import EmissionRows, LinearChain
from ..utils._sklearn_compat import HasMethods, Interval, StrOptions
from ..utils.interrupt import deferred_interrupt, warn_interrupted

#: The checks of the parameters both estimators have.
SVM_CONSTRAINTS = {
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

#: What EG needs of the decoder, and how to say it lacks it.
EG_NEEDS = (
    "marginals",
    "The EG structured SVM needs exact marginals, which first-order models have: use "
    "Viterbi(order=1), Eisner(order=1), ChuLiuEdmonds() or BestCandidate()",
)


class SVMLearner(StructuredModel):
    """The base of :class:`~skstruct.ExponentiatedGradientSSVM` and
    :class:`~skstruct.StructuredSVM` (see them): the parameters they share."""

    def __init__(
        self, decoder, *, features, n_features, C, learning_rate, adaptive, online, max_iter,
        tol, loss, shuffle, random_state, n_jobs, verbose,
    ):  # fmt: skip
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

    def _fit_svm(self, X, y, X_dev, y_dev, sample_weight, train):
        """Check and encode the data, then ``train(encoded, gold, weights, dev, rng,
        interrupt, n_threads)``, which sets ``coef_`` (a solver of the dual, on the
        ``n_threads`` that ``n_jobs`` gives, passed to it and set for numba's
        ``prange`` kernels alike)."""
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
            n_threads = kernel_threads(self.n_jobs)
            with deferred_interrupt() as interrupt, numba_threads(n_threads):
                train(encoded, gold, weights, dev, rng, interrupt, n_threads)
        except KeyboardInterrupt:  # a second Ctrl-C: nothing half-trained stays behind
            self._discard_fit()
            raise
        self._compile_prediction(encoded)
        return self

    def _train_eg(self, encoded, gold, weights, dev, rng, interrupt, n_threads):
        """EG on the dual: sets ``coef_``."""
        self._give_every_pair_a_weight()
        dual = self._dual(encoded, gold, weights, n_threads)
        self.coef_ = self._train(dual, encoded.n_sentences, dev, rng, interrupt)

    learns_relation_labels = False

    def _give_every_pair_a_weight(self):
        """Chains: EG's emission features are all (feature, label) pairs (see Notes in
        the class docstring); trees keep their hashed arc features."""
        if isinstance(self.structure_, LinearChain):
            rows = EmissionRows.full(self.structure_.n_features, self.structure_.n_labels)
            self.structure_ = self.structure_.with_rows(rows)

    def _dual(self, encoded, gold, sample_weight=None, n_threads=1):
        dual = dual_for(self.structure_)
        if self.online and not dual.online_steps:
            raise ValueError(
                f"Online EG keeps potentials for each part of every example, which "
                f"{type(self.structure_).__name__} never tabulates; batch EG keeps them in "
                f"one vector: pass online=False."
            )
        if dual is TreeDual:  # its kernels read heads
            gold = self.structure_.split_outputs(gold)[0]
        return dual(self.structure_, self.decoder_, encoded, gold, self.C, sample_weight,
                    n_threads)  # fmt: skip

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
