"""The Structured Weighted Violations Perceptron (Dror & Reichart 2016)."""

import itertools
from numbers import Real

import numpy as np

from .._kernels import swvp as _swvp
from ..utils._sklearn_compat import Interval, StrOptions
from ._base import BaseStructuredLearner

SUBSTRUCTURES = {
    "single": _swvp.SUBSTRUCTURES_SINGLE,
    "errors": _swvp.SUBSTRUCTURES_ERRORS,
    "spans": _swvp.SUBSTRUCTURES_SPANS,
    "full": _swvp.SUBSTRUCTURES_FULL,
}
GAMMAS = {"wm": _swvp.GAMMA_WM, "wmr": _swvp.GAMMA_WMR, "uniform": _swvp.GAMMA_UNIFORM}
# 2^L mixed assignments per sentence: beyond this length "all" is refused.
MAX_LENGTH_ALL = 12
_COUNT_NAMES = (
    "mistakes",
    "updates",
    "terms",
    "csp_backoffs",
    "dropped_terms",
    "condition2_failures",
    "stuck",
)


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
validation_fraction, n_iter_no_change, verbose
        As in :class:`~skstruct.StructuredPerceptron`.

    Attributes
    ----------
    coef_, classes_, structure_, encoder_, features_, decoder_, n_iter_
        As in :class:`~skstruct.StructuredPerceptron`.
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
        "substructures": [StrOptions({*SUBSTRUCTURES, "all"}), callable],
        "gamma": [StrOptions(set(GAMMAS)), callable],
        "mode": [StrOptions({"aggressive", "balanced"})],
        "beta": [Interval(Real, 0, None, closed="left")],
        "enforce_conditions": ["boolean"],
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
        verbose=0,
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
        self.verbose = verbose

    def _run_epoch(self, encoded, labels, visit):
        if not hasattr(self.structure_, "margin"):
            raise ValueError(
                f"SWVP mixes the prediction and the gold output position by position, which "
                f"needs a factored output (chains, or graph-based trees with Eisner / "
                f"ChuLiuEdmonds); {type(self.decoder_).__name__} builds action sequences."
            )
        counts = np.zeros(_swvp.N_COUNTS + 1, dtype=np.int64)
        fused = (
            isinstance(self.substructures, str)
            and self.substructures in SUBSTRUCTURES
            and isinstance(self.gamma, str)
            and self.decoder_.search_width(self.structure_) is None
            and hasattr(self.structure_, "swvp_epoch")
        )
        if fused:
            options = (
                SUBSTRUCTURES[self.substructures],
                GAMMAS[self.gamma],
                float(self.beta),
                self.mode == "aggressive",
                self.enforce_conditions,
            )
            self.structure_.swvp_epoch(encoded, labels, visit, self._weights, options, counts)
        else:
            self._python_epoch(encoded, labels, visit, counts)
        stats = dict(zip(_COUNT_NAMES, counts[: _swvp.N_COUNTS].tolist()))
        stats["correct"] = int(counts[_swvp.N_COUNTS])
        return stats

    def _python_epoch(self, encoded, labels, visit, counts):
        """Algorithm 2 sentence by sentence, for any JJ_x, SETGAMMA and decoder.

        It is also the reference the fused kernel is tested against.
        """
        structure, weights = self.structure_, self._weights
        width = self.decoder_.search_width(structure)
        aggressive = self.mode == "aggressive"
        for i in visit:
            gold = labels[encoded.offsets[i] : encoded.offsets[i + 1]]
            n = gold.shape[0]
            unary = structure.unary(encoded, i, weights.coef)
            if width is None:
                pred = structure.argmax(unary, weights.coef)
            else:
                pred = structure.search(unary, weights.coef, width, gold).path
            wrong = pred != gold
            counts[_swvp.N_COUNTS] += n - int(wrong.sum())
            if not wrong.any():
                weights.n_seen += 1
                continue
            counts[_swvp.COUNT_MISTAKES] += 1
            mixed, margins = [], []
            for J in self._substructure_sets(i, gold, pred):
                m = gold.copy()
                m[J] = pred[J]
                mixed.append(m)
                a, b = (int(J.min()), int(J.max()) + 1) if J.size else (0, 0)
                margins.append(structure.margin(unary, weights.coef, gold, m, a, b))
            margins = np.array(margins)
            differs = np.array([bool((m != gold).any()) for m in mixed])
            used = np.zeros(len(mixed), dtype=bool)
            ranked = np.zeros(len(mixed), dtype=bool)
            gamma = np.zeros(len(mixed))
            case = self._choose_terms(margins, differs, aggressive, used, ranked, gamma, counts)
            if case == 1:
                mixed, gamma = [pred], np.ones(1)
            if case != 2:
                counts[_swvp.COUNT_UPDATES] += 1
                for m, g in zip(mixed, gamma):
                    if g == 0.0:
                        continue
                    counts[_swvp.COUNT_TERMS] += 1
                    structure.add_delta(encoded, i, gold, m, weights.coef, g)
                    if weights.n_seen:
                        structure.add_delta(
                            encoded, i, gold, m, weights.coef_sum, g * weights.n_seen
                        )
            weights.n_seen += 1

    def _substructure_sets(self, i, gold, pred):
        n = gold.shape[0]
        if callable(self.substructures):
            return [np.asarray(J, dtype=np.int64) for J in self.substructures(gold, pred)]
        if self.substructures == "all":
            if n > MAX_LENGTH_ALL:
                raise ValueError(
                    f"Example {i}: substructures='all' makes 2**{n} mixed assignments for "
                    f"this {n}-token sequence; it is allowed up to {MAX_LENGTH_ALL} tokens. "
                    f"Use 'single', 'spans' or a callable."
                )
            return [
                np.array(J, dtype=np.int64)
                for size in range(1, n + 1)
                for J in itertools.combinations(range(n), size)
            ]
        starts = np.empty(n, dtype=np.int64)
        stops = np.empty(n, dtype=np.int64)
        count = _swvp.substructure_ranges(
            gold, pred, n, SUBSTRUCTURES[self.substructures], starts, stops
        )
        return [np.arange(a, b) for a, b in zip(starts[:count], stops[:count])]

    def _choose_terms(self, margins, differs, aggressive, used, ranked, gamma, counts):
        if not callable(self.gamma):
            return _swvp.choose_terms(
                margins,
                differs,
                margins.shape[0],
                GAMMAS[self.gamma],
                float(self.beta),
                aggressive,
                self.enforce_conditions,
                used,
                ranked,
                gamma,
                counts,
            )
        # A user SETGAMMA: the same selection, enforcement and back-off as the kernel.
        used[:] = differs & ((margins <= 0) | (not aggressive))
        violating = differs & (margins <= 0)
        if not violating.any() and (self.enforce_conditions or aggressive):
            counts[_swvp.COUNT_BACKOFFS if self.enforce_conditions else _swvp.COUNT_STUCK] += 1
            return 1 if self.enforce_conditions else 2
        while True:
            gamma[:] = 0.0
            weights = np.asarray(self.gamma(margins[used]), dtype=float)
            if weights.shape != (int(used.sum()),) or (weights < 0).any() or weights.sum() <= 0:
                raise ValueError(
                    f"gamma returned {weights!r} for {int(used.sum())} mixed assignments; it "
                    f"must return that many non-negative weights, not all zero."
                )
            gamma[used] = weights / weights.sum()
            if aggressive or not self.enforce_conditions or gamma @ margins <= 0:
                break
            worst = np.flatnonzero(used & (margins > 0))
            used[worst[np.argmax(margins[worst])]] = False
            counts[_swvp.COUNT_DROPPED] += 1
        if not aggressive and not self.enforce_conditions and gamma @ margins > 0:
            counts[_swvp.COUNT_CONDITION_FAILED] += 1
        return 0


SWVP = StructuredWeightedViolationsPerceptron
