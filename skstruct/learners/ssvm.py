"""StructuredSVM: the structured SVM by block-coordinate Frank-Wolfe (default) or
exponentiated gradient."""

import time
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np

from ..engine import EpochProgress, Minibatch
from ..solvers import FrankWolfeBlocks, example_C
from ..utils._sklearn_compat import Interval, StrOptions, fit_context
from ..utils.interrupt import warn_interrupted
from ._svm import EG_NEEDS, SVM_CONSTRAINTS, SVMLearner

#: What BCFW needs of the decoder, and how to say it lacks it.
BCFW_NEEDS = (
    "loss_augmented",
    "StructuredSVM(solver='bcfw') needs a loss-augmented argmax over outputs that "
    "decompose over tokens or words",
)


class _Solver(NamedTuple):
    """What a solver of the SVM needs and does: the decoder's capability it needs,
    whether it learns relation labels, and the method that trains."""

    needs: tuple
    relation_labels: bool
    train: str


#: The solvers, by the ``solver`` parameter.
SOLVERS = {
    "bcfw": _Solver(BCFW_NEEDS, True, "_train_bcfw"),
    "eg": _Solver(EG_NEEDS, False, "_train_eg"),
}


class StructuredSVM(SVMLearner):
    """Structured SVM (max-margin Markov network), by default trained by block-coordinate
    Frank-Wolfe on its dual.

    Minimises ``P(w) = 1/2 ||w||^2 + C sum_i max_y (L(y_i, y) - w . (phi(x_i, y_i) -
    phi(x_i, y)))`` with ``L`` the Hamming loss (tokens, or words' heads and labels).

    ``solver="bcfw"`` (Lacoste-Julien, Jaggi, Schmidt & Pletscher 2013): each step takes
    one example, asks the decoder for its loss-augmented argmax, and moves that
    example's dual block towards it by an exact line search; a pass costs one
    decoding per example, like a perceptron epoch, and the dual rises at every step.
    Only an argmax is needed, so it learns with every decoder that has one: first-
    and second-order chains (:class:`~skstruct.Viterbi`), first- and second-order
    projective trees (:class:`~skstruct.Eisner`), non-projective trees
    (:class:`~skstruct.ChuLiuEdmonds`) and labelled trees. With
    :class:`~skstruct.BeamSearch` or :class:`~skstruct.Greedy` the argmax is
    approximate: steps stay valid dual steps, but a corner the search misses is never
    taken. The primal of a first-order chain is computed by exact Viterbi whatever the
    decoder, so its gap stays exact; a second-order beam computes it, and its gap may
    then be too small.
    The weights grow with the (feature, label) pairs of outputs the decoder returned,
    not with features x labels.

    ``solver="eg"``: online or batch exponentiated gradient, as
    :class:`~skstruct.ExponentiatedGradientSSVM` (which is this class with the EG
    solver and its parameters alone): first-order models with exact marginals only.

    Parameters
    ----------
    decoder : decoder or None, default=None
        The structure and its argmax: ``Viterbi()`` (the default), ``BeamSearch``,
        ``Greedy``, ``Eisner``, ``ChuLiuEdmonds``. Predictions are its argmax under
        ``w``.
    solver : {"bcfw", "eg"}, default="bcfw"
    features : transformer or None, default=None
        As for :class:`~skstruct.StructuredPerceptron`; for parsers an
        :class:`~skstruct.ArcFeatures` (the default).
    n_features : int or None, default=None
        Hash features into this many columns (``None``: exact vocabulary for chains,
        ``ArcFeatures``' own size for parsers).
    C : float, default=0.1
        Weight of the sum of the hinge losses against ``1/2 ||w||^2``.
    average : bool, default=True
        BCFW: return the weighted average of the iterates, ``w_bar(K) = 2/(K(K+1))
        sum_k k w(k)`` (BCFW-wavg in the paper, where it converged fastest); False:
        the last iterate. The average is a dual point of its own, so its gap is exact.
    learning_rate, adaptive, online :
        EG only; see :class:`~skstruct.ExponentiatedGradientSSVM`.
    max_iter : int, default=20
        Passes over the training data. With BCFW on CoNLL-2000 chunking, test token
        accuracy moved by less than 0.05 after the ninth pass; EG converges more slowly
        (its own default is 30).
    tol : float or None, default=1e-3
        Stop when the duality gap of the model ``P - D`` is at most ``tol * P`` (a
        bound on its relative suboptimality). ``None`` runs all ``max_iter`` passes
        (and, with BCFW, computes the gap only on the last one, or never: see
        ``gap_every``).
    gap_every : int or None, default=10
        BCFW: compute the duality gap, and check ``tol`` against it, after every
        ``gap_every``-th pass and after the last (the gap takes a pass of the oracle
        over the data without the steps: half a pass's time on CoNLL-2000, nearly a
        whole pass on the PTB sample). ``1`` records it after every pass, for
        convergence curves. 10 is the default of the authors' code (its
        ``gap_check``); on CoNLL-2000 the default fit took 4.89 s with it, 7.40 s with a
        gap after every pass (``benchmarks/bench_ssvm.py``, one thread, 20 passes).
        ``None`` (with ``tol=None`` only): never, not even after the last pass, so that
        a fit takes exactly ``max_iter`` passes of the oracle; ``history_`` then has no
        gap. The weights are the same either way: the gap is only measured.
        EG computes the gap after every epoch, its steps need the objective.
    loss : {"hamming"}, default="hamming"
    shuffle : bool, default=True
        Visit the examples in a new random order every pass.
    batch_size : int, default=1
        BCFW: examples whose oracles search against the same weights, side by side on
        ``n_jobs`` threads, before their steps are taken in turn, each line search
        against the weights the steps before it left (the steps stay ascent steps of
        the dual). ``1`` is the paper's Algorithm 3. The result depends on
        ``batch_size``, never on ``n_jobs``. Worth it where the oracle is most of a
        step: on the PTB sample (first-order Eisner) ``batch_size=8`` on two threads
        took 30 passes in 25.2 s against 33.7 s for ``1`` on one, with the same gap
        (0.099 against 0.097 of the primal). On CoNLL-2000 a Viterbi oracle is half of a step and
        two threads gained nothing, while larger batches slow convergence (relative gap
        after 20 passes: 0.027 for 1, 0.030 for 8, 0.051 for 32, 0.197 for 128).
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
        Threads of the duality gap's pass of the oracle, of a minibatch's oracles and
        of predictions, with joblib's conventions (-1: all cores; ``None``: what a
        :func:`joblib.parallel_config` context sets), except that outside such a
        context ``None`` is every core numba has (``NUMBA_NUM_THREADS``; a joblib process
        worker's share of them). Identical
        results for any value.
    verbose : int, default=0
        Progress over passes on standard error, with the duality gap.

    Attributes
    ----------
    coef_ : ndarray of shape (n_weights,)
        The weights, laid out by ``structure_``.
    classes_ : ndarray of shape (n_labels,)
        Labels (sequence labelling only).
    structure_ : LinearChain or ArcFactoredTree
    encoder_, features_, decoder_ :
        As for :class:`~skstruct.StructuredPerceptron`.
    n_iter_ : int
        Passes run.
    history_ : list of dict
        Per pass (BCFW): ``primal``, ``dual`` and ``gap`` of the model it would return
        (None on passes without one: see ``gap_every``), ``mean_step`` (mean line-search
        ``gamma``), ``null_steps`` (examples whose block did not move), ``dev_score``
        and ``seconds`` (the pass alone; the gap's pass of the oracle is
        ``gap_seconds``). EG: as for :class:`~skstruct.ExponentiatedGradientSSVM`.

    References
    ----------
    S. Lacoste-Julien, M. Jaggi, M. Schmidt and P. Pletscher (2013). Block-coordinate
    Frank-Wolfe optimization for structural SVMs. ICML.

    Examples
    --------
    A second-order chain, which EG cannot learn (it needs first-order marginals):

    >>> from skstruct import StructuredSVM, TokenFeatures, Viterbi
    >>> from skstruct.datasets import make_chain_data
    >>> X, y = make_chain_data(200, random_state=0)
    >>> model = StructuredSVM(Viterbi(order=2), features=TokenFeatures(), gap_every=5,
    ...                       random_state=0)
    >>> round(model.fit(X[:150], y[:150]).score(X[150:], y[150:]), 2)
    0.96

    The relative duality gap after passes 5, 10, 15 and 20:

    >>> [round(r["gap"] / r["primal"], 2) for r in model.history_[4::5]]
    [0.24, 0.1, 0.05, 0.04]
    """

    _parameter_constraints: dict = {
        **SVM_CONSTRAINTS,
        "solver": [StrOptions({"bcfw", "eg"})],
        "average": ["boolean"],
        "batch_size": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left"), None],
        "gap_every": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(
        self,
        decoder=None,
        *,
        solver="bcfw",
        features=None,
        n_features=None,
        C=0.1,
        average=True,
        learning_rate=8.0,
        adaptive=True,
        online=True,
        max_iter=20,
        tol=1e-3,
        gap_every=10,
        loss="hamming",
        shuffle=True,
        batch_size=1,
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
        self.solver = solver
        self.average = average
        self.batch_size = batch_size
        self.gap_every = gap_every

    @property
    def learns_relation_labels(self):
        return SOLVERS[self.solver].relation_labels

    def _decoder_needs(self):
        yield SOLVERS[self.solver].needs

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, *, X_dev=None, y_dev=None, sample_weight=None):
        """Train the structured SVM for up to ``max_iter`` passes.

        Parameters
        ----------
        X : list of sequences
            Token feature dicts, raw tokens with ``features``, or for parsers token
            dicts with ``form`` and ``pos``.
        y : list of label sequences, head lists or (head, deprel) lists
        X_dev, y_dev : list, default=None
            Scored after every pass (``history_``).
        sample_weight : array-like of shape (n_sequences,), default=None
            A finite, non-negative weight per sequence: its slack costs ``C`` times
            it; 0 leaves the sequence out, as if not given.

        Returns
        -------
        self : object
        """
        if self.solver == "bcfw" and self.gap_every is None and self.tol is not None:
            raise ValueError(
                f"tol={self.tol!r} stops on the duality gap, which gap_every=None never "
                "computes: set tol=None, or gap_every to a number of passes."
            )
        train = getattr(self, SOLVERS[self.solver].train)
        return self._fit_svm(X, y, X_dev, y_dev, sample_weight, train)

    def _train_bcfw(self, encoded, gold, weights, dev, rng, interrupt, n_threads):
        """Block-coordinate Frank-Wolfe passes: sets ``coef_`` (and ``structure_``)."""
        Ci = example_C(self.C, weights, encoded.n_sentences)
        blocks = FrankWolfeBlocks(self.structure_, self.decoder_, encoded, gold, Ci, n_threads)
        n = encoded.n_sentences
        minibatch = Minibatch(self.batch_size, n_threads)
        self.n_iter_ = 0
        progress = EpochProgress(self, self.max_iter)
        for _ in progress:
            start = time.perf_counter()
            order = rng.permutation(n) if self.shuffle else np.arange(n)
            counts = blocks.epoch(order, minibatch)
            seconds = time.perf_counter() - start
            self.n_iter_ += 1
            last = self.n_iter_ == self.max_iter or interrupt.requested
            every = self.gap_every
            gap = every is not None and (
                last or (self.tol is not None and self.n_iter_ % every == 0)
            )
            record = {"epoch": self.n_iter_, "primal": None, "dual": None, "gap": None}
            gap_started = time.perf_counter()
            if last or gap or dev is not None:  # the model to return, were this the last
                structure, coef, dual = blocks.model(self.average)
            if gap:
                record.update(blocks.objectives(structure, coef, dual))
            record["gap_seconds"] = time.perf_counter() - gap_started
            record.update(counts)
            record["dev_score"] = (
                None if dev is None else self._token_accuracy(dev, coef, structure)
            )
            record["seconds"] = seconds
            self.history_.append(record)
            if record["gap"] is not None:
                items = [("gap", f"{record['gap']:.4g}", "duality gap"),
                         ("primal", f"{record['primal']:.4g}", "primal")]  # fmt: skip
            else:  # no gap on this pass (gap_every, tol=None, or gap_every=None)
                items = [("step", f"{record['mean_step']:.3g}", "mean step")]
            progress.report(record, items)
            if interrupt.requested:
                warn_interrupted(self, self.n_iter_)
                break
            if gap and self.tol is not None and record["gap"] <= self.tol * record["primal"]:
                break
        # every way out of the loop (max_iter, tol, Ctrl-C) computed the model last
        self.structure_, self.coef_ = structure.compact(coef, drop_zeros=True)
