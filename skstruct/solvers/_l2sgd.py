"""CRFsuite's ``l2sgd``: stochastic gradient descent on the CRF's L2-regularised
log-likelihood, with its learning-rate calibration and stopping rule.

The objective is the one L-BFGS minimises, ``sum_i -log p(y_i | x_i) + c2 ||w||^2``,
written per sentence as ``(lambda / 2) ||w||^2 - log p(y_i | x_i)`` with
``lambda = 2 c2 / N``. Sentence ``t`` (counted over all epochs) takes a step of
``eta_t = 1 / (lambda (t0 + t))`` (Pegasos's schedule, without its projection); the
decay of every weight is a scalar kept aside, so a step costs what the sentence's
features cost (:func:`skstruct._kernels.crf.sgd_epoch`).

``t0`` comes from calibration (Bottou's sgd): on ``calibration_samples`` sentences,
one epoch from zero weights per candidate ``eta``, growing it by ``calibration_rate``
while the sample's objective falls below its value at zero, then shrinking it from
``calibration_eta / calibration_rate``, until ``calibration_candidates`` rates did
lower it (or ``calibration_max_trials`` were tried); the best one sets
``t0 = 1 / (lambda eta)``.

Training stops when the objective improved by less than ``delta`` (relative) over
``period`` epochs, or after ``max_iterations`` epochs, and keeps the weights of the
epoch with the lowest objective (each epoch's objective sums the sentences' losses as
they were met, plus the L2 term at the end of the epoch), as CRFsuite does.
"""

import math
import time

import numpy as np
from scipy.optimize import OptimizeResult

from .._kernels import crf as _crf
from .._kernels.chain import longest_sentence


class SGDCorpus:
    """The encoded sentences and what the kernels take with them."""

    def __init__(self, encoded, labels, structure, free, weights=None):
        self.arrays = (encoded.indptr, encoded.indices, encoded.data, encoded.offsets, labels,
                       structure.rows.arrays, structure.n_labels)  # fmt: skip
        self.n_sentences = encoded.n_sentences
        self.n_weights = structure.n_weights
        self.free = free
        self.longest = longest_sentence(encoded.offsets)
        # the sentences' sample weights (ones: every sum as unweighted)
        self.weights = np.ones(self.n_sentences) if weights is None else weights

    def epoch(self, order, v, lam, t0, clock):
        """One SGD epoch over ``order`` (updates ``v`` and ``clock``): the summed loss."""
        return _crf.sgd_epoch(*self.arrays, order, v, self.free, lam, t0, clock, self.longest,
                              self.weights)  # fmt: skip

    def nll(self, order, coef):
        return _crf.corpus_nll(*self.arrays, order, coef, self.weights)


def calibrate(corpus, lam, rng, *, eta, rate, samples, candidates, max_trials):
    """``(t0, trials)``: CRFsuite's learning-rate calibration (see the module)."""
    sample = rng.permutation(corpus.n_sentences)[: min(corpus.n_sentences, samples)]
    initial = corpus.nll(sample, np.zeros(corpus.n_weights))
    best_loss, best_eta, initial_eta = math.inf, eta, eta
    left, decreasing, trials = candidates, False, 0
    while (left > 0 or not decreasing) and trials < max_trials:
        v = np.zeros(corpus.n_weights)
        loss = corpus.epoch(sample, v, lam, 1.0 / (lam * eta), np.zeros(1))
        loss += 0.5 * lam * (v @ v) * sample.size
        lowered = math.isfinite(loss) and loss < initial
        if lowered:
            left -= 1
            if loss < best_loss:
                best_loss, best_eta = loss, eta
        if decreasing:
            eta /= rate
        elif lowered and left > 0:
            eta *= rate
        else:
            decreasing, left, eta = True, candidates, initial_eta / rate
        trials += 1
    return 1.0 / (lam * best_eta), trials


def minimize_l2sgd(
    corpus,
    c2,
    rng,
    *,
    max_iterations=1000,
    period=10,
    delta=1e-6,
    calibration_eta=0.1,
    calibration_rate=2.0,
    calibration_samples=1000,
    calibration_candidates=10,
    calibration_max_trials=20,
    callback=None,
):
    """Minimise the CRF objective of ``corpus`` by SGD (see the module).

    Parameters
    ----------
    corpus : SGDCorpus
    c2 : float
        The L2 coefficient (> 0).
    rng : numpy.random.RandomState
        Draws the calibration sample and each epoch's order.

    Returns
    -------
    result : scipy.optimize.OptimizeResult
        ``x`` (the best epoch's weights), ``fun`` (its objective), ``nit`` (epochs),
        ``t0`` and ``message``.
    """
    if not c2 > 0:
        raise ValueError(
            "l2sgd needs c2 > 0: its learning rate is 1 / (lambda t), lambda = 2 c2 / N."
        )
    N = corpus.n_sentences
    lam = 2.0 * c2 / N
    t0, _ = calibrate(
        corpus, lam, rng, eta=calibration_eta, rate=calibration_rate,
        samples=calibration_samples, candidates=calibration_candidates,
        max_trials=calibration_max_trials,
    )  # fmt: skip
    v = np.zeros(corpus.n_weights)
    clock = np.zeros(1)
    best_loss, best_v = math.inf, v.copy()
    past = np.zeros(max(period, 1))
    message = "The maximum number of iterations was reached."
    epoch = 0
    for epoch in range(1, max_iterations + 1):
        started = time.perf_counter()
        loss = corpus.epoch(rng.permutation(N), v, lam, t0, clock)
        if not math.isfinite(loss):
            raise FloatingPointError(f"l2sgd: the loss overflowed in epoch {epoch}.")
        loss += 0.5 * lam * (v @ v) * N
        if loss < best_loss:
            best_loss, best_v = loss, v.copy()
        improvement = (past[(epoch - 1) % period] - loss) / loss if period < epoch else delta
        if period:
            past[(epoch - 1) % period] = loss
        if callback is not None:
            callback(OptimizeResult(
                nit=epoch, fun=loss, x=v, eta=1.0 / (lam * (t0 + clock[0])),
                seconds=time.perf_counter() - started,
            ))  # fmt: skip
        if period and improvement < delta:
            message = f"The objective improved by less than delta over {period} epochs."
            break
    return OptimizeResult(x=best_v, fun=best_loss, nit=epoch, t0=t0, message=message)
