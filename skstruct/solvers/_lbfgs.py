"""L-BFGS and OWL-QN with CRFsuite's (libLBFGS's) stopping rules.

Minimises ``F(x) = f(x) + c1 ||x||_1`` for a smooth ``f`` given as ``fun(x) -> (f, g)``.
With ``c1 = 0`` this is L-BFGS (Nocedal 1980) with SciPy's strong-Wolfe line search
(``scipy.optimize.line_search``: Nocedal & Wright's algorithm 3.5, where CRFsuite's
default is Moré-Thuente's) or libLBFGS's backtracking ones; with ``c1 > 0``
it is OWL-QN (Andrew & Gao 2007): the quasi-Newton direction of the pseudo-gradient,
kept in its orthant, and a backtracking line search that projects every trial point
onto that orthant, so that weights reach exactly zero. SciPy's L-BFGS-B has no L1 term,
which is why this module exists.

The stopping rules are libLBFGS's, which CRFsuite's ``epsilon``, ``period``, ``delta``
and ``max_iterations`` set: ``||pg|| / max(1, ||x||) <= epsilon``; or the objective fell
by less than ``delta`` (relative) over the last ``period`` iterations; or
``max_iterations`` iterations.
"""

import warnings
from collections import deque

import numpy as np
from scipy.optimize import OptimizeResult, line_search

#: Sufficient decrease (Armijo) and curvature (Wolfe) constants, libLBFGS's defaults.
FTOL, WOLFE = 1e-4, 0.9
#: Step factors of the backtracking line search when a condition fails (libLBFGS's).
DECREASE, INCREASE = 0.5, 2.1

LINESEARCHES = ("MoreThuente", "Backtracking", "StrongBacktracking")


def pseudo_gradient(x, g, c1):
    """The L1 objective's steepest-descent direction, negated (Andrew & Gao 2007, eq. 4):
    ``g + c1 sign(x)`` where ``x != 0``; at zero, the one-sided derivative that points
    downhill, or 0 when neither does."""
    if c1 == 0.0:
        return g
    pg = g + c1 * np.sign(x)
    zero = x == 0.0
    right, left = g[zero] + c1, g[zero] - c1
    pg[zero] = np.where(right < 0.0, right, np.where(left > 0.0, left, 0.0))
    return pg


def two_loop_direction(pg, pairs):
    """``-H pg`` by L-BFGS's two-loop recursion over the correction ``pairs``
    ``(s, y, y.s)``, oldest first, with ``H0 = (y.s / y.y) I`` from the newest."""
    q = -pg
    alphas = []
    for s, y, ys in reversed(pairs):
        a = (s @ q) / ys
        alphas.append(a)
        q -= a * y
    if pairs:
        s, y, ys = pairs[-1]
        q *= ys / (y @ y)
    for (s, y, ys), a in zip(pairs, reversed(alphas)):
        b = (y @ q) / ys
        q += (a - b) * s
    return q


class _Objective:
    """``F = f + c1 ||x||_1``, counting evaluations and remembering the last one (SciPy's
    line search asks for ``f`` and ``g`` at the same point separately)."""

    def __init__(self, fun, c1):
        self.fun, self.c1, self.n_evaluations = fun, c1, 0
        self._x = self._f = self._g = None

    def __call__(self, x):
        if self._x is None or not np.array_equal(x, self._x):
            self._f, self._g = self.fun(x)
            self._x = x.copy()
            self.n_evaluations += 1
        return self._f, self._g

    def total(self, x, f):
        return f + self.c1 * np.abs(x).sum() if self.c1 else f


def _backtracking_owlqn(objective, x, F, pg, d, step, max_linesearch):
    """Backtrack along ``d`` in the orthant of ``x`` (the sign of ``-pg`` where ``x`` is
    0) until ``F`` decreases enough (libLBFGS's ``line_search_backtracking_owlqn``)."""
    orthant = np.where(x == 0.0, -np.sign(pg), np.sign(x))
    for _ in range(max_linesearch):
        trial = x + step * d
        trial[np.sign(trial) != orthant] = 0.0
        f, g = objective(trial)
        F_trial = objective.total(trial, f)
        if F_trial <= F + FTOL * (pg @ (trial - x)):
            return trial, f, g, F_trial
        step *= DECREASE
    return None


def _backtracking(objective, x, F, g, d, step, max_linesearch, strong):
    """Backtracking on the Wolfe conditions (libLBFGS's ``line_search_backtracking``):
    halve the step when the decrease is too small, grow it when the slope is still too
    steep (``strong``: too steep either way)."""
    slope = g @ d
    for _ in range(max_linesearch):
        trial = x + step * d
        f, g_trial = objective(trial)
        if f > F + FTOL * step * slope:
            step *= DECREASE
            continue
        new_slope = g_trial @ d
        if new_slope < WOLFE * slope:
            step *= INCREASE
        elif strong and new_slope > -WOLFE * slope:
            step *= DECREASE
        else:
            return trial, f, g_trial, f
    return None


def _wolfe(objective, x, F, g, d, step, max_linesearch):
    """SciPy's strong-Wolfe line search from ``step`` along ``d``."""
    direction = step * d  # SciPy's search starts at 1 along the direction it gets
    with warnings.catch_warnings():  # the result says when the search failed
        warnings.filterwarnings("ignore", message="The line search algorithm did not converge")
        found = line_search(
            lambda z: objective(z)[0], lambda z: objective(z)[1], x, direction, g, F,
            c1=FTOL, c2=WOLFE, maxiter=max_linesearch,
        )  # fmt: skip
    if found[0] is None:
        return None
    trial = x + found[0] * direction
    f_trial, g_trial = objective(trial)
    return trial, f_trial, g_trial, f_trial


def minimize_lbfgs(
    fun,
    x0,
    *,
    c1=0.0,
    num_memories=6,
    max_iterations=None,
    epsilon=1e-5,
    period=10,
    delta=1e-5,
    linesearch="MoreThuente",
    max_linesearch=20,
    callback=None,
):
    """Minimise ``f(x) + c1 ||x||_1`` by L-BFGS (``c1 = 0``) or OWL-QN (``c1 > 0``).

    Parameters
    ----------
    fun : callable
        ``fun(x) -> (f, g)``: the smooth part and its gradient.
    x0 : ndarray
        The starting point.
    c1 : float, default=0.0
        Coefficient of the L1 term.
    num_memories : int, default=6
        Correction pairs kept.
    max_iterations : int or None, default=None
        Iterations at most (None: until another rule stops).
    epsilon : float, default=1e-5
        Stop when ``||pg|| / max(1, ||x||) <= epsilon`` (``pg``: the pseudo-gradient).
    period, delta : int, float, default=10, 1e-5
        Stop when ``(F_{k - period} - F_k) / F_k < delta`` (``period = 0``: never).
    linesearch : {"MoreThuente", "Backtracking", "StrongBacktracking"}, default="MoreThuente"
        The line search of L-BFGS: ``"MoreThuente"`` is SciPy's strong-Wolfe search,
        the others libLBFGS's backtracking on the (weak, strong) Wolfe conditions.
        OWL-QN always backtracks in its orthant on sufficient decrease (as libLBFGS
        requires).
    max_linesearch : int, default=20
        Trial steps per line search at most.
    callback : callable or None
        Called after every iteration with an :class:`~scipy.optimize.OptimizeResult`
        holding ``x``, ``fun`` (``F``), ``nit``, ``nfev``, ``pg_norm``, ``step``.

    Returns
    -------
    result : scipy.optimize.OptimizeResult
        ``x``, ``fun``, ``nit``, ``nfev``, ``success`` and ``message``.

    Examples
    --------
    >>> import numpy as np
    >>> from skstruct.solvers import minimize_lbfgs
    >>> def quadratic(x):
    ...     return 0.5 * (x - 3.0) @ (x - 3.0), x - 3.0
    >>> minimize_lbfgs(quadratic, np.zeros(2)).x.round(6)
    array([3., 3.])
    >>> minimize_lbfgs(quadratic, np.zeros(2), c1=1.0).x.round(6)  # soft-thresholded
    array([2., 2.])
    """
    if linesearch not in LINESEARCHES:
        raise ValueError(f"linesearch must be one of {LINESEARCHES}, got {linesearch!r}.")
    objective = _Objective(fun, c1)
    x = np.array(x0, dtype=np.float64)
    f, g = objective(x)
    F = objective.total(x, f)
    pg = pseudo_gradient(x, g, c1)
    pairs = deque(maxlen=num_memories)
    past = deque([F], maxlen=max(period, 1))
    nit, message, success = 0, "", True
    if np.linalg.norm(pg) / max(1.0, np.linalg.norm(x)) <= epsilon:
        return OptimizeResult(
            x=x, fun=F, nit=0, nfev=objective.n_evaluations, success=True,
            message="The initial point is already a minimiser.",
        )  # fmt: skip
    d = -pg
    step = 1.0 / np.linalg.norm(d)
    while True:
        if c1:
            found = _backtracking_owlqn(objective, x, F, pg, d, step, max_linesearch)
        elif linesearch == "MoreThuente":
            found = _wolfe(objective, x, F, g, d, step, max_linesearch)
        else:
            found = _backtracking(
                objective, x, F, g, d, step, max_linesearch, linesearch == "StrongBacktracking"
            )
        if found is None:
            # libLBFGS returns the last good point when the line search fails
            message, success = "The line search found no step that lowers the objective.", False
            break
        x_new, f_new, g_new, F_new = found
        s, y = x_new - x, g_new - g
        x, f, g, F = x_new, f_new, g_new, F_new
        pg = pseudo_gradient(x, g, c1)
        nit += 1
        pg_norm = np.linalg.norm(pg)
        if callback is not None:
            callback(
                OptimizeResult(x=x, fun=F, nit=nit, nfev=objective.n_evaluations,
                               pg_norm=pg_norm, step=float(np.linalg.norm(s)))
            )  # fmt: skip
        if pg_norm / max(1.0, np.linalg.norm(x)) <= epsilon:
            message = "The gradient is small enough (epsilon)."
            break
        if period and len(past) == period and abs((past[0] - F) / F) < delta:
            message = f"The objective fell by less than delta over {period} iterations."
            break
        past.append(F)
        if max_iterations is not None and nit >= max_iterations:
            message = "The maximum number of iterations was reached."
            break
        ys = y @ s
        if ys > 0.0:  # a pair without positive curvature would make H indefinite
            pairs.append((s, y, ys))
        d = two_loop_direction(pg, list(pairs))
        if c1:
            d[d * pg >= 0.0] = 0.0  # keep the direction where the pseudo-gradient descends
        step = 1.0
    return OptimizeResult(
        x=x, fun=F, nit=nit, nfev=objective.n_evaluations, success=success, message=message
    )
