"""The Structured Weighted Violations Perceptron (Dror & Reichart 2016): the base
learner's loop with the mixed-assignments update rule."""

from ..engine import BaseStructuredLearner
from ..updates import MixedAssignments


class StructuredWeightedViolationsPerceptron(BaseStructuredLearner):
    """SWVP: update on a weighted sum of mixed assignments (Dror & Reichart 2016, Alg. 2).

    For each training sequence, decode ``y* = argmax w . phi(x, y')``; when ``y* != y``,
    form for each substructure ``J`` (a set of positions) the mixed assignment ``m^J``
    (``y*`` on ``J``, ``y`` elsewhere) and update
    ``w += sum_J gamma_J (phi(x, y) - phi(x, m^J))``. ``substructures="full"`` with any
    gamma is Collins' perceptron, bit for bit.

    Parameters
    ----------
    decoder : Viterbi, Eisner, ChuLiuEdmonds or None, default=None
        The argmax (``None``: ``Viterbi()``); a tree decoder makes it a parser. Beam
        decoders are accepted; ``y*`` is then the beam's best sequence (the
        convergence argument assumes argmax).
    substructures : {"single", "errors", "spans", "full", "all"} or callable, \
            default="single"
        The sets JJ_x: ``"single"`` every position on its own (the paper's choice);
        ``"errors"`` every position where ``y*`` is wrong, on its own; ``"spans"`` the
        maximal runs of wrong positions; ``"full"`` the whole sequence (CSP); ``"all"``
        every subset of positions (``2 ** n`` of them, refused beyond 12 tokens); or
        ``f(y_true, y_pred) -> list of index arrays`` (label ids).
        Only sets whose mixed assignment differs from ``y`` enter the update.
    gamma : {"wm", "wmr", "uniform"} or callable, default="wm"
        SETGAMMA. ``"wm"``: ``|w . dphi(m^J)|^beta`` normalised; ``"wmr"``:
        ``((N - r) / N)^beta`` normalised, ``r`` the rank of ``|w . dphi(m^J)|`` among the
        ``N`` sets (largest first); ``"uniform"``. A callable gets the margins
        ``w . (phi(y) - phi(m^J))`` of the terms in play and returns non-negative
        weights; all are normalised to sum to 1 (selection condition 1).
    mode : {"aggressive", "balanced"}, default="aggressive"
        ``"aggressive"`` weighs violating mixed assignments only
        (``w . dphi <= 0``), which always meets selection condition 2; ``"balanced"``
        weighs violating and non-violating ones.
    beta : float, default=1.0
        The exponent of WM and WMR.
    enforce_conditions : bool, default=True
        When the weights break condition 2 (``w . sum gamma dphi <= 0``), drop the
        non-violating term of largest margin and re-weigh until it holds; when no
        mixed assignment is a violation, make the CSP update instead (the paper's
        "dynamic updates", sec. 4.2). ``False`` follows the paper's experiments: an
        aggressive update with no violating term is skipped, a balanced one is made.
    features, n_features, max_iter, average, shuffle, random_state, warm_start, \
validation_fraction, n_iter_no_change, batch_size, n_jobs, verbose
        As in :class:`~skstruct.StructuredPerceptron`.
    class_weight : dict, "balanced" or None, default=None
        Sequence labelling: scales each token's part of an update by the weight of its
        gold label (``{label: weight}``, 1 for a label not named; ``"balanced"``:
        ``n_tokens / (n_labels * count(label))`` over the training tokens). Weighted
        epochs take the generic training loop. Fitted as ``class_weight_``.

    Attributes
    ----------
    class_weight_ : ndarray of shape (n_labels,) or None
        The weight of each label (``classes_``' order) that ``class_weight`` gave.
    coef_, classes_, structure_, encoder_, features_, decoder_, n_iter_
        As in :class:`~skstruct.StructuredPerceptron`.
    update_rule_ : MixedAssignments
        The update rule the parameters describe (:class:`~skstruct.updates.MixedAssignments`),
        run by the base learner's loop.
    history_ : list of dict
        Per epoch: ``mistakes``, ``updates``, ``terms`` (mixed assignments applied),
        ``csp_backoffs``, ``dropped_terms``, ``condition2_failures`` (balanced updates
        made although condition 2 failed, with ``enforce_conditions=False``),
        ``stuck`` (updates skipped for want of a violating term), ``train_score``,
        ``dev_score``, ``seconds``.

    Notes
    -----
    For the built-in ``substructures`` every ``J`` is a range of positions, so the
    margins and the update touch only the parts that meet it (a fused kernel runs
    the epoch). Callables and ``"all"`` run a Python loop over sentences.

    *Trees.* With a tree decoder (:class:`~skstruct.Eisner`,
    :class:`~skstruct.ChuLiuEdmonds`) a position is a word and ``m^J`` takes ``y*``'s
    heads on ``J`` and the gold heads elsewhere (a Python loop over sentences).
    ``m^J`` need not be a tree: it can hold a cycle or lose its root word (the paper
    leaves open whether mixed assignments must lie in ``Y(x)``). Its features are
    those of its arcs, and at second order of the sibling parts read off its head
    vector, which is all the margins and the update need, so it is used as it is
    rather than repaired or dropped.

    References
    ----------
    R. Dror and R. Reichart (2016). The Structured Weighted Violations Perceptron
    Algorithm. EMNLP.

    Examples
    --------
    >>> from skstruct import SWVP, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> X, y = make_chain_data(200, random_state=0)
    >>> model = SWVP(gamma="wmr", mode="balanced", beta=2.0, features=TokenFeatures(),
    ...              random_state=0).fit(X[:150], y[:150])
    >>> round(model.score(X[150:], y[150:]), 2)
    0.97
    """

    _parameter_constraints: dict = {
        **BaseStructuredLearner._parameter_constraints,
        **MixedAssignments._parameter_constraints,  # the rule's parameters are SWVP's
    }

    def __init__(
        self,
        decoder=None,
        *,
        substructures="single",
        gamma="wm",
        mode="aggressive",
        beta=1.0,
        enforce_conditions=True,
        features=None,
        n_features=None,
        max_iter=10,
        average=True,
        shuffle=True,
        random_state=None,
        warm_start=False,
        validation_fraction=None,
        n_iter_no_change=None,
        batch_size=1,
        n_jobs=None,
        verbose=0,
        class_weight=None,
    ):
        self.decoder = decoder
        self.substructures = substructures
        self.gamma = gamma
        self.mode = mode
        self.beta = beta
        self.enforce_conditions = enforce_conditions
        self.features = features
        self.n_features = n_features
        self.max_iter = max_iter
        self.average = average
        self.shuffle = shuffle
        self.random_state = random_state
        self.warm_start = warm_start
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.batch_size = batch_size
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.class_weight = class_weight

    def _make_rule(self):
        return MixedAssignments(
            substructures=self.substructures,
            gamma=self.gamma,
            mode=self.mode,
            beta=self.beta,
            enforce_conditions=self.enforce_conditions,
        )

    def _resolve(self):
        self.update_rule_ = self._make_rule()

    def _decoder_needs(self):
        capability, why = MixedAssignments.required_capability
        yield capability, why

    def check_decoder(self, relation_labels=False):
        decoder = super().check_decoder(relation_labels)
        if getattr(decoder, "allowed", None) is not None:
            # a mixed assignment takes some labels from the gold and some from the
            # prediction, so it may cross a forbidden transition: its margin is infinite
            raise ValueError(
                f"SWVP mixes gold and predicted labels position by position, which can "
                f"cross a transition allowed={decoder.allowed!r} forbids; train SWVP "
                f"without allowed, or use StructuredPerceptron."
            )
        return decoder


SWVP = StructuredWeightedViolationsPerceptron
