"""ExponentiatedGradientSSVM: the structured SVM trained by exponentiated gradient on
its dual (Collins, Bartlett, McAllester & Taskar; Collins et al. JMLR 2008)."""

from ..utils._sklearn_compat import fit_context
from ._svm import EG_NEEDS, SVM_CONSTRAINTS, SVMLearner


class ExponentiatedGradientSSVM(SVMLearner):
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
    decoder : Viterbi, Eisner, ChuLiuEdmonds, BestCandidate, CKY or None, default=None
        The structure: ``Viterbi()`` (first-order chain, the default), ``Eisner()``
        (first-order projective trees), ``ChuLiuEdmonds()`` (any tree), ``BestCandidate()``
        (reranking) or ``CKY()`` (constituency trees, batch EG only: see ``online``);
        with ``single_root`` the dual ranges over single-root trees. Predictions are
        this decoder's argmax under ``w``.
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
        recomputed). Constituency trees (``CKY``) train in batch only: their parts are
        never tabulated, and batch EG's potentials are, for every example, ``a_i``
        times the loss plus one weight-shaped vector's scores (``CompactDual``).
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
    decoder_ : Viterbi, Eisner, ChuLiuEdmonds, BestCandidate or CKY
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

    _parameter_constraints: dict = {**SVM_CONSTRAINTS}

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
        super().__init__(
            decoder,
            features=features,
            n_features=n_features,
            C=C,
            learning_rate=learning_rate,
            adaptive=adaptive,
            online=online,
            max_iter=max_iter,
            tol=tol,
            loss=loss,
            shuffle=shuffle,
            random_state=random_state,
            n_jobs=n_jobs,
            verbose=verbose,
        )

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

    def _decoder_needs(self):
        yield EG_NEEDS
