"""``CRF``: sklearn-crfsuite's estimator, every argument, attribute and method, trained
by skstruct's learners."""

import os
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from ..learners import AROW, PassiveAggressive, StructuredPerceptron
from ..learners.crf import LinearChainCRF
from ..persistence import load, save
from ..utils._sklearn_compat import Interval, StrOptions, fit_context
from ..utils.tags import sequence_tags
from ._tagger import Tagger
from .metrics import flat_accuracy_score

#: The arguments each training algorithm takes (CRFsuite's parameter lists); any
#: other argument set (not None) is refused, as CRFsuite refuses it.
PARAMETERS = {
    "lbfgs": {"min_freq", "all_possible_states", "all_possible_transitions", "c1", "c2",
              "max_iterations", "num_memories", "epsilon", "period", "delta", "linesearch",
              "max_linesearch"},
    "l2sgd": {"min_freq", "all_possible_states", "all_possible_transitions", "c2",
              "max_iterations", "period", "delta", "calibration_eta", "calibration_rate",
              "calibration_samples", "calibration_candidates", "calibration_max_trials"},
    "ap": {"min_freq", "all_possible_states", "all_possible_transitions", "max_iterations",
           "epsilon"},
    "pa": {"min_freq", "all_possible_states", "all_possible_transitions", "max_iterations",
           "epsilon", "pa_type", "c", "error_sensitive", "averaging"},
    "arow": {"min_freq", "all_possible_states", "all_possible_transitions", "max_iterations",
             "epsilon", "variance", "gamma"},
}  # fmt: skip


def _given(value, default):
    return default if value is None else value


class CRF(BaseEstimator):
    """sklearn-crfsuite's ``CRF``, trained by skstruct: replace
    ``import sklearn_crfsuite`` by ``from skstruct import crfsuite as sklearn_crfsuite``
    and nothing else changes.

    Every argument of ``sklearn_crfsuite.CRF`` 0.5 is accepted, with CRFsuite's
    defaults (``None`` means the algorithm's default). ``algorithm`` picks the learner:

    * ``"lbfgs"`` (default): :class:`~skstruct.learners.crf.LinearChainCRF`, the CRF's
      log-likelihood with ``c1`` (L1, by OWL-QN) and ``c2`` (L2) by L-BFGS, the same
      model as CRFsuite's (emission and transition features as CRFsuite generates them,
      no start or stop weights), its gradient on ``n_jobs`` threads;
    * ``"ap"``: :class:`~skstruct.StructuredPerceptron` (averaged);
    * ``"pa"``: :class:`~skstruct.learners.PassiveAggressive`;
    * ``"arow"``: :class:`~skstruct.learners.AROW`;
    * ``"l2sgd"``: :class:`~skstruct.learners.crf.LinearChainCRF` with
      ``solver="l2sgd"``: SGD on the same objective (``c2``), with CRFsuite's
      learning-rate calibration.

    An argument that the chosen algorithm does not take raises ``ValueError``, as
    CRFsuite does. The full table of arguments, attributes and what each maps to is in
    the documentation (``docs/crfsuite.md``).

    Parameters
    ----------
    algorithm : {"lbfgs", "l2sgd", "ap", "pa", "arow"} or None, default=None
        ``None`` is ``"lbfgs"``.
    min_freq : float or None, default=None
        Keep only the features whose count in the training data is at least this
        (lbfgs; default 0).
    all_possible_states, all_possible_transitions : bool or None, default=None
        Give every (attribute, label) pair / every label bigram a weight, not only those
        seen in training (lbfgs; default False). The online learners give a weight to
        what their updates touch.
    c1, c2 : float or None, default=None
        L1 and L2 coefficients (lbfgs; defaults 0 and 1).
    max_iterations : int or None, default=None
        Iterations (lbfgs: unlimited by default) or epochs (ap, pa, arow: 100).
    num_memories, epsilon, period, delta, linesearch, max_linesearch : optional
        L-BFGS's settings (defaults 6, 1e-5, 10, 1e-5, "MoreThuente", 20); see
        :class:`~skstruct.learners.crf.LinearChainCRF`. ``epsilon`` is also the
        stopping threshold of pa and arow (default 0, as in CRFsuite's source); ap
        ignores it.
    calibration_eta, calibration_rate, calibration_samples, calibration_candidates, \
calibration_max_trials : optional
        l2sgd's learning-rate calibration (defaults 0.1, 2.0, 1000, 10, 20); l2sgd's
        ``max_iterations`` is 1000 epochs and its ``delta`` 1e-6 by default.
    pa_type, c, error_sensitive, averaging : optional
        Passive-aggressive's settings (defaults 1, 1.0, True, True).
    variance, gamma : float or None, default=None
        AROW's settings (defaults 1.0, 1.0).
    verbose : bool, default=False
        Print progress while training.
    model_filename : str or None, default=None
        After ``fit``, the model is saved there (:func:`skstruct.save`'s format, not
        CRFsuite's); an unfitted ``CRF`` whose file exists loads it on first use, as
        sklearn-crfsuite does.
    keep_tempfiles : bool, default=False
        Accepted and ignored: no temporary files are ever written.
    trainer_cls : optional
        Accepted and ignored: there is no CRFsuite trainer.
    n_jobs : int or None, default=None
        Threads (joblib's conventions; ``None``: every core, unless a
        :func:`joblib.parallel_config` context sets ``n_jobs``) for lbfgs's gradient
        and for prediction; the model does not depend on it.
    random_state : int, RandomState instance or None, default=0
        Seeds the order in which l2sgd, ap, pa and arow visit the sequences (CRFsuite's
        training is deterministic, hence 0).

    Attributes
    ----------
    model_ : estimator
        The fitted skstruct learner.
    classes_ : list of str
        The labels, sorted.
    state_features_ : dict
        ``{(attribute, label): weight}``, nonzero weights only.
    transition_features_ : dict
        ``{(label_from, label_to): weight}``, nonzero weights only.
    attributes_ : list of str
        Attribute names, python-crfsuite's ``key:value``.
    num_attributes_ : int
    size_ : int
        Bytes of the weights and their layout.
    training_log_ : TrainingLog
        ``training_log_.iterations``: one dict per iteration (``num``, ``loss``,
        ``feature_norm``, ``error_norm``, ``active_features``, ``linesearch_trials``,
        ``linesearch_step``, ``time``), ``training_log_.last_iteration``.

    Examples
    --------
    >>> from skstruct import crfsuite as sklearn_crfsuite
    >>> X = [[{"w": "John"}, {"w": "runs"}], [{"w": "Mary"}, {"w": "sleeps"}]] * 5
    >>> y = [["B-PER", "O"], ["B-PER", "O"]] * 5
    >>> crf = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=50)
    >>> crf.fit(X, y).predict_single([{"w": "Mary"}, {"w": "runs"}])
    ['B-PER', 'O']
    >>> crf.classes_
    ['B-PER', 'O']
    >>> round(crf.predict_marginals_single([{"w": "John"}])[0]["B-PER"], 2)
    0.64
    """

    _parameter_constraints: dict = {
        "algorithm": [StrOptions(set(PARAMETERS)), None],
        "min_freq": [Interval(Real, 0, None, closed="left"), None],
        "all_possible_states": ["boolean", None],
        "all_possible_transitions": ["boolean", None],
        "c1": [Interval(Real, 0, None, closed="left"), None],
        "c2": [Interval(Real, 0, None, closed="left"), None],
        "max_iterations": [Interval(Integral, 1, None, closed="left"), None],
        "num_memories": [Interval(Integral, 1, None, closed="left"), None],
        "epsilon": [Interval(Real, 0, None, closed="left"), None],
        "period": [Interval(Integral, 0, None, closed="left"), None],
        "delta": [Interval(Real, 0, None, closed="left"), None],
        "linesearch": [StrOptions({"MoreThuente", "Backtracking", "StrongBacktracking"}), None],
        "max_linesearch": [Interval(Integral, 1, None, closed="left"), None],
        "calibration_eta": [Interval(Real, 0, None, closed="neither"), None],
        "calibration_rate": [Interval(Real, 0, None, closed="neither"), None],
        "calibration_samples": [Interval(Integral, 1, None, closed="left"), None],
        "calibration_candidates": [Interval(Integral, 1, None, closed="left"), None],
        "calibration_max_trials": [Interval(Integral, 1, None, closed="left"), None],
        "pa_type": [Interval(Integral, 0, 2, closed="both"), None],
        "c": [Interval(Real, 0, None, closed="neither"), None],
        "error_sensitive": ["boolean", None],
        "averaging": ["boolean", None],
        "variance": [Interval(Real, 0, None, closed="neither"), None],
        "gamma": [Interval(Real, 0, None, closed="neither"), None],
        "verbose": ["boolean", "verbose"],
        "model_filename": [str, os.PathLike, None],
        "keep_tempfiles": ["boolean"],
        "trainer_cls": "no_validation",
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        algorithm=None,
        min_freq=None,
        all_possible_states=None,
        all_possible_transitions=None,
        c1=None,
        c2=None,
        max_iterations=None,
        num_memories=None,
        epsilon=None,
        period=None,
        delta=None,
        linesearch=None,
        max_linesearch=None,
        calibration_eta=None,
        calibration_rate=None,
        calibration_samples=None,
        calibration_candidates=None,
        calibration_max_trials=None,
        pa_type=None,
        c=None,
        error_sensitive=None,
        averaging=None,
        variance=None,
        gamma=None,
        verbose=False,
        model_filename=None,
        keep_tempfiles=False,
        trainer_cls=None,
        n_jobs=None,
        random_state=0,
    ):
        self.algorithm = algorithm
        self.min_freq = min_freq
        self.all_possible_states = all_possible_states
        self.all_possible_transitions = all_possible_transitions
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations
        self.num_memories = num_memories
        self.epsilon = epsilon
        self.period = period
        self.delta = delta
        self.linesearch = linesearch
        self.max_linesearch = max_linesearch
        self.calibration_eta = calibration_eta
        self.calibration_rate = calibration_rate
        self.calibration_samples = calibration_samples
        self.calibration_candidates = calibration_candidates
        self.calibration_max_trials = calibration_max_trials
        self.pa_type = pa_type
        self.c = c
        self.error_sensitive = error_sensitive
        self.averaging = averaging
        self.variance = variance
        self.gamma = gamma
        self.verbose = verbose
        self.model_filename = model_filename
        self.keep_tempfiles = keep_tempfiles
        self.trainer_cls = trainer_cls
        self.n_jobs = n_jobs
        self.random_state = random_state

    # -- training -------------------------------------------------------------------------

    def _learner(self):
        """The skstruct learner ``algorithm`` names, with these arguments."""
        algorithm = _given(self.algorithm, "lbfgs")
        allowed = PARAMETERS[algorithm]
        for name in sorted(set().union(*PARAMETERS.values()) - allowed):
            if getattr(self, name) is not None:
                raise ValueError(
                    f"{name}={getattr(self, name)!r} does not apply to algorithm="
                    f"{algorithm!r} (it takes {', '.join(sorted(allowed))})."
                )
        verbose = int(bool(self.verbose))
        if algorithm == "lbfgs":
            return LinearChainCRF(
                c1=_given(self.c1, 0.0),
                c2=_given(self.c2, 1.0),
                max_iter=self.max_iterations,
                epsilon=_given(self.epsilon, 1e-5),
                period=_given(self.period, 10),
                delta=_given(self.delta, 1e-5),
                num_memories=_given(self.num_memories, 6),
                linesearch=_given(self.linesearch, "MoreThuente"),
                max_linesearch=_given(self.max_linesearch, 20),
                all_possible_states=bool(self.all_possible_states),
                all_possible_transitions=bool(self.all_possible_transitions),
                min_freq=_given(self.min_freq, 0),
                boundary_features=False,  # CRFsuite's model has no start or stop weights
                n_jobs=self.n_jobs,
                verbose=verbose,
            )
        if algorithm == "l2sgd":
            return LinearChainCRF(
                solver="l2sgd",
                c2=_given(self.c2, 1.0),
                max_iter=_given(self.max_iterations, 1000),
                period=_given(self.period, 10),
                delta=_given(self.delta, 1e-6),
                calibration_eta=_given(self.calibration_eta, 0.1),
                calibration_rate=_given(self.calibration_rate, 2.0),
                calibration_samples=_given(self.calibration_samples, 1000),
                calibration_candidates=_given(self.calibration_candidates, 10),
                calibration_max_trials=_given(self.calibration_max_trials, 20),
                all_possible_states=bool(self.all_possible_states),
                all_possible_transitions=bool(self.all_possible_transitions),
                min_freq=_given(self.min_freq, 0),
                boundary_features=False,
                random_state=self.random_state,
                verbose=verbose,
            )
        common = dict(
            max_iter=_given(self.max_iterations, 100),
            random_state=self.random_state,
            n_jobs=self.n_jobs,
            verbose=verbose,
        )
        if algorithm == "ap":
            return StructuredPerceptron(**common)
        if algorithm == "pa":
            return PassiveAggressive(
                pa_type=_given(self.pa_type, 1),
                c=_given(self.c, 1.0),
                error_sensitive=_given(self.error_sensitive, True),
                averaging=_given(self.averaging, True),
                epsilon=_given(self.epsilon, 0.0),
                **common,
            )
        arow = AROW(
            variance=_given(self.variance, 1.0),
            gamma=_given(self.gamma, 1.0),
            epsilon=_given(self.epsilon, 0.0),
        )
        return arow.set_params(**{k: v for k, v in common.items() if k in arow.get_params()})

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, X_dev=None, y_dev=None, *, sample_weight=None):
        """Train a model.

        Parameters
        ----------
        X : list of lists of dicts
            Feature dicts of every sequence, in python-crfsuite's format.
        y : list of lists of str
            Labels of every sequence.
        X_dev, y_dev : optional
            Held-out data: ap, pa and arow report their score on it per epoch (in
            ``model_.history_``); lbfgs ignores it.
        sample_weight : array-like of shape (n_sequences,), default=None
            A weight per sequence (an extra of skstruct's): lbfgs and l2sgd weigh each
            sequence's log-likelihood by it, ap, pa and arow each update on it; 0
            leaves a sequence out.

        Returns
        -------
        self : CRF
        """
        if (X_dev is None) != (y_dev is None):
            raise ValueError("Pass both X_dev and y_dev to use the holdout data")
        learner = self._learner()
        if X_dev is not None and not isinstance(learner, LinearChainCRF):
            learner.fit(X, y, X_dev=X_dev, y_dev=y_dev, sample_weight=sample_weight)
        else:
            learner.fit(X, y, sample_weight=sample_weight)
        self.model_ = learner
        if self.model_filename is not None:
            save(self, self.model_filename)
        return self

    # -- prediction -----------------------------------------------------------------------

    def _model(self):
        """The fitted learner, loaded from ``model_filename`` when not fitted here."""
        if not hasattr(self, "model_") and self.model_filename is not None:
            if os.path.exists(self.model_filename):
                self.model_ = load(self.model_filename).model_
        check_is_fitted(self, "model_")
        return self.model_

    def predict(self, X):
        """Labels of every sequence of ``X``: an object array of lists of str."""
        return _objects(self._model().predict(X))

    def predict_single(self, xseq):
        """Labels of one sequence (a list of feature dicts): a list of str."""
        return self._model().predict_single(xseq)

    def predict_marginals(self, X):
        """For every sequence of ``X``, for every token, ``{label: p(label)}``: an object
        array of lists of dicts. Calibrated probabilities for lbfgs; for the online
        learners, forward-backward over scores never trained as probabilities (as
        CRFsuite's tagger gives them)."""
        return _objects(self._model().predict_marginals(X))

    def predict_marginals_single(self, xseq):
        """:meth:`predict_marginals` of one sequence: a list of dicts."""
        return self._model().predict_marginals_single(xseq)

    def score(self, X, y):
        """Token accuracy of ``predict(X)`` (sklearn-crfsuite's ``score``); see
        :mod:`skstruct.crfsuite.metrics` for other metrics."""
        return flat_accuracy_score(y, self.predict(X))

    # -- what the model holds (None before fit, as sklearn-crfsuite) -----------------------

    def _fitted_attribute(self, name):
        try:
            model = self._model()
        except AttributeError:  # NotFittedError is one
            return None
        return getattr(model, name)

    @property
    def classes_(self):
        classes = self._fitted_attribute("classes_")
        return None if classes is None else [str(label) for label in classes]

    @property
    def state_features_(self):
        return self._fitted_attribute("state_features_")

    @property
    def transition_features_(self):
        return self._fitted_attribute("transition_features_")

    @property
    def attributes_(self):
        return self._fitted_attribute("attributes_")

    @property
    def num_attributes_(self):
        return self._fitted_attribute("num_attributes_")

    @property
    def size_(self):
        return self._fitted_attribute("size_")

    @property
    def training_log_(self):
        return self._fitted_attribute("training_log_")

    @property
    def tagger_(self):
        """python-crfsuite's ``Tagger`` calls (``labels``, ``tag``, ``set``,
        ``probability``, ``marginal``, ``info``) on the fitted model; None before fit."""
        try:
            model = self._model()
        except AttributeError:  # NotFittedError is one
            return None
        tagger = self.__dict__.get("_tagger")
        if tagger is None or tagger.model is not model:  # fitted again since
            tagger = self.__dict__["_tagger"] = Tagger(self, model)
        return tagger

    def __sklearn_tags__(self):
        return sequence_tags(super().__sklearn_tags__())


def _objects(sequences):
    """A 1-d object array of lists (``np.array`` of equal-length lists would be 2-d)."""
    out = np.empty(len(sequences), dtype=object)
    out[:] = [list(s) for s in sequences]
    return out
