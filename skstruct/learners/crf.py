"""LinearChainCRF: a first-order conditional random field trained by L-BFGS."""

import sys
import time
from numbers import Integral, Real

import numpy as np
from joblib import effective_n_jobs
from scipy.optimize import minimize
from sklearn.utils import check_random_state

from .._kernels import crf as _crf
from .._kernels.threads import numba_threads
from ..structures import EmissionRows
from ..utils._sklearn_compat import HasMethods, Interval, fit_context
from ..utils.validation import check_sequences_and_labels
from ._model import StructuredModel

#: Chunks the corpus is cut into for the likelihood's gradient: fixed, so that the
#: sums, and the model, are the same on any number of threads.
N_CHUNKS = 16


class ChainLikelihood:
    """The CRF objective over an encoded corpus: ``NLL(w) + c2 ||w||^2`` (CRFsuite's
    scaling of the L2 term) and its gradient, as ``scipy.optimize.minimize`` takes them.

    ``NLL(w) = sum_i log Z(x_i) - w . Phi``: the gold counts ``Phi`` are counted once,
    here; each call runs forward-backward over the sentences, cut into
    :data:`N_CHUNKS` runs of about equal tokens, each run summed on a thread of its own
    and the runs added in order.
    """

    def __init__(self, structure, encoded, labels, c2, n_threads):
        self.structure, self.encoded = structure, encoded
        self.c2, self.n_threads = c2, n_threads
        offsets = encoded.offsets
        n_chunks = max(1, min(N_CHUNKS, encoded.n_sentences))
        cuts = np.searchsorted(offsets, np.linspace(0, offsets[-1], n_chunks + 1)[1:-1])
        self.chunk_start = np.concatenate([[0], cuts, [encoded.n_sentences]]).astype(np.int64)
        self.empirical = np.zeros(structure.n_weights)
        _crf.empirical_counts(encoded.indptr, encoded.indices, encoded.data, offsets, labels,
                              structure.rows.arrays, structure.n_labels,
                              self.empirical)  # fmt: skip
        self.log_z = np.empty(n_chunks)
        self.grads = np.empty((n_chunks, structure.n_weights))

    def __call__(self, coef):
        e = self.encoded
        kernel = _crf.chunk_expectations if self.n_threads > 1 else _crf.chunk_expectations_serial
        with numba_threads(self.n_threads):
            kernel(e.indptr, e.indices, e.data, e.offsets, self.structure.rows.arrays, coef,
                   self.structure.n_labels, self.chunk_start, self.log_z,
                   self.grads)  # fmt: skip
        loss = self.log_z.sum() - coef @ self.empirical + self.c2 * (coef @ coef)
        grad = self.grads.sum(axis=0)
        grad -= self.empirical
        grad += 2.0 * self.c2 * coef
        return loss, grad


class LinearChainCRF(StructuredModel):
    """A first-order linear-chain CRF, trained by L-BFGS on its L2-regularised
    log-likelihood (CRFsuite's ``lbfgs`` with ``c1=0``).

    Minimises ``-sum_i log p(y_i | x_i) + c2 ||w||^2`` with
    ``p(y | x) ∝ exp(w . phi(x, y))`` over the chain's parts: (token feature, label)
    emissions, label bigrams, start and stop labels. The gradient comes from
    forward-backward over every training sentence (on ``n_jobs`` threads), the steps
    from SciPy's L-BFGS-B.

    As CRFsuite does by default, the emission weights are those of the (feature,
    label) pairs seen in the training data (``all_possible_states=False``); every
    label bigram, start and stop label has a weight (CRFsuite's
    ``all_possible_transitions=True``).

    Parameters
    ----------
    features : transformer or None, default=None
        As for :class:`~skstruct.StructuredPerceptron`: None takes token feature dicts.
    n_features : int or None, default=None
        Hash features into this many columns (``None``: an exact vocabulary).
    c2 : float, default=1.0
        Coefficient of the L2 term (CRFsuite's ``c2``, the same scale).
    max_iter : int, default=100
        L-BFGS iterations at most.
    tol : float, default=1e-5
        Stop when an iteration lowers the objective by at most ``tol`` times its size
        (SciPy's ``ftol``), or every gradient entry is at most ``tol`` (``gtol``).
    num_memories : int, default=6
        Correction pairs L-BFGS keeps (CRFsuite's ``num_memories``).
    all_possible_states : bool, default=False
        Give every (feature, label) pair a weight, not only those seen in training.
    n_jobs : int or None, default=None
        Threads for the gradient (joblib's conventions); the model is the same
        whatever it is.
    verbose : int, default=0
        Print the objective after every iteration (standard error).

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
        L-BFGS iterations run.
    history_ : list of dict
        Per iteration: ``loss`` (the objective) and ``seconds`` since ``fit`` began.

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
        "features": [HasMethods(["fit", "transform"]), None],
        "n_features": [Interval(Integral, 1, None, closed="left"), None],
        "c2": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "num_memories": [Interval(Integral, 1, None, closed="left")],
        "all_possible_states": ["boolean"],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
    }

    #: The decoder is always exact first-order Viterbi (StructuredModel reads it).
    decoder = None

    def __init__(
        self,
        *,
        features=None,
        n_features=None,
        c2=1.0,
        max_iter=100,
        tol=1e-5,
        num_memories=6,
        all_possible_states=False,
        n_jobs=None,
        verbose=0,
    ):
        self.features = features
        self.n_features = n_features
        self.c2 = c2
        self.max_iter = max_iter
        self.tol = tol
        self.num_memories = num_memories
        self.all_possible_states = all_possible_states
        self.n_jobs = n_jobs
        self.verbose = verbose

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Minimise the regularised negative log-likelihood by L-BFGS.

        Parameters
        ----------
        X : list of sequences
            Token feature dicts, or raw tokens with ``features``.
        y : list of label sequences

        Returns
        -------
        self : object
        """
        started = time.perf_counter()
        X, y = check_sequences_and_labels(X, y)
        # L-BFGS draws nothing: the generator the shared set-up keeps is never used
        encoded, labels = self._initialize(X, y, classes=None, rng=check_random_state(0))
        chain = self.structure_
        if self.all_possible_states:
            rows = EmissionRows.full(chain.n_features, chain.n_labels)
        else:
            rows = EmissionRows.seen(encoded, labels, chain.n_labels)
        self.structure_ = chain.with_rows(rows)
        objective = ChainLikelihood(
            self.structure_, encoded, labels, self.c2, effective_n_jobs(self.n_jobs)
        )
        history = []

        def record(intermediate_result):
            history.append(
                {"loss": float(intermediate_result.fun), "seconds": time.perf_counter() - started}
            )
            if self.verbose:
                print(f"iteration {len(history)}: loss {history[-1]['loss']:.6g}", file=sys.stderr)

        result = minimize(
            objective,
            np.zeros(self.structure_.n_weights),
            jac=True,
            method="L-BFGS-B",
            callback=record,
            options={
                "maxiter": self.max_iter,
                "maxcor": self.num_memories,
                "ftol": self.tol,
                "gtol": self.tol,
            },
        )
        self.coef_ = result.x
        self.n_iter_ = int(result.nit)
        self.history_ = history
        return self
