"""Arc marginals and log-partition functions of first-order dependency trees.

Layout of :mod:`skstruct._kernels.tree`: a sentence of ``n`` words is nodes ``1..n``,
node 0 is the root, and ``theta[h, d]`` (float64, at least ``(n + 1, n + 1)``) is the
potential of arc ``h -> d``; column 0 and the diagonal are never read. A tree gives
every word one head and weighs ``exp(sum_d theta[heads[d], d])``. With ``single_root``
the space is the trees in which exactly one word hangs from the root.

Both functions write the marginals ``mu[h, d] = p(heads[d] = h)`` into
``out[:n + 1, :n + 1]`` (0 for column 0, the diagonal and impossible arcs) and return
``log Z``. Potentials may be ``-inf`` (a forbidden arc) but not ``+inf`` or NaN.

Everything runs in log space, because the potentials fed in by the exponentiated-
gradient SSVM are running sums that grow without bound. Each function first takes
each column's largest potential off that column ``d``: every tree holds one arc into
``d``, so this divides the weight of every tree by the same ``exp(shift[d])`` -- log Z
moves by ``sum(shift)`` and the marginals do not change -- and it keeps the values in
the chart near 0, where the rounding of log-space sums is smallest.
"""

import numpy as np

from ._config import helper, njit


@helper
def _logaddexp(a, b):
    """``log(exp(a) + exp(b))``, exact when either term is ``-inf``."""
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    if a >= b:
        return a + np.log1p(np.exp(b - a))
    return b + np.log1p(np.exp(a - b))


@helper
def _shifted(theta, n):
    """``theta[:n + 1, :n + 1]`` less each column's largest potential, ``-inf`` in
    column 0 and on the diagonal; and the sum of the shifts (see the module docstring)."""
    N = n + 1
    arc = np.full((N, N), -np.inf)
    total = 0.0
    for d in range(1, N):
        top = -np.inf
        for h in range(N):
            if h != d and theta[h, d] > top:
                top = theta[h, d]
        if top == -np.inf:
            top = 0.0  # d has no possible head: Z = 0 whatever the shift
        total += top
        for h in range(N):
            if h != d:
                arc[h, d] = theta[h, d] - top
    return arc, total


# -- projective trees: Eisner's chart with sums in place of maxima -------------------------------


@njit
def _span(complete, s, t, last):
    """Log-sum over ``r in s..last`` of ``complete[s, r, 1] + complete[r + 1, t, 0]``:
    everything under an arc between ``s`` and ``t``."""
    top = -np.inf
    for r in range(s, last + 1):
        v = complete[s, r, 1] + complete[r + 1, t, 0]
        if v > top:
            top = v
    if top == -np.inf:
        return top
    total = 0.0
    for r in range(s, last + 1):
        total += np.exp(complete[s, r, 1] + complete[r + 1, t, 0] - top)
    return top + np.log(total)


@helper
def _complete_right(complete, incomplete, s, t):
    """Log-sum over ``r in s+1..t`` of ``incomplete[s, r, 1] + complete[r, t, 1]``."""
    top = -np.inf
    for r in range(s + 1, t + 1):
        v = incomplete[s, r, 1] + complete[r, t, 1]
        if v > top:
            top = v
    if top == -np.inf:
        return top
    total = 0.0
    for r in range(s + 1, t + 1):
        total += np.exp(incomplete[s, r, 1] + complete[r, t, 1] - top)
    return top + np.log(total)


@helper
def _complete_left(complete, incomplete, s, t):
    """Log-sum over ``r in s..t-1`` of ``complete[s, r, 0] + incomplete[r, t, 0]``."""
    top = -np.inf
    for r in range(s, t):
        v = complete[s, r, 0] + incomplete[r, t, 0]
        if v > top:
            top = v
    if top == -np.inf:
        return top
    total = 0.0
    for r in range(s, t):
        total += np.exp(complete[s, r, 0] + incomplete[r, t, 0] - top)
    return top + np.log(total)


@njit
def inside_outside(theta, n, single_root, out):
    """Log-partition and arc marginals over projective trees, O(n^3) time and space.

    The sum-product version of :func:`skstruct._kernels.tree.eisner` (same chart:
    ``[s, t, dir]``, dir 0 headed at ``t``, dir 1 at ``s``): the inside pass gives
    ``log Z = complete[0, n, 1]``; the outside pass pushes each item's outside score
    down to the items it was built from, largest spans first, and the marginal of an
    arc is inside + outside - log Z of the one incomplete item that adds it.

    ``single_root``: the root's incomplete items ``0 -> t`` are built only from the
    split ``complete[0, 0, 1] + complete[1, t, 0]``, i.e. ``t`` is the root's first
    and only child, since ``complete[0, n, 1]`` then reaches past ``t`` through
    ``complete[t, n, 1]``, which holds no root arc.
    """
    N = n + 1
    arc, log_shift = _shifted(theta, n)
    complete = np.full((N, N, 2), -np.inf)
    incomplete = np.full((N, N, 2), -np.inf)
    for s in range(N):
        complete[s, s, 0] = 0.0
        complete[s, s, 1] = 0.0
    for k in range(1, N):
        for s in range(N - k):
            t = s + k
            last = 0 if single_root and s == 0 else t - 1
            inner = _span(complete, s, t, last)
            incomplete[s, t, 1] = inner + arc[s, t]
            if s > 0:
                incomplete[s, t, 0] = inner + arc[t, s]
            complete[s, t, 1] = _complete_right(complete, incomplete, s, t)
            complete[s, t, 0] = _complete_left(complete, incomplete, s, t)
    out[:N, :N] = 0.0
    log_z = complete[0, n, 1]
    if log_z == -np.inf:
        return log_z

    # Within a span, complete items feed the incomplete items of the same (s, t), which
    # feed only shorter spans: visiting (s, t) complete-first settles every outside
    # score before it is pushed on.
    complete_out = np.full((N, N, 2), -np.inf)
    incomplete_out = np.full((N, N, 2), -np.inf)
    complete_out[0, n, 1] = 0.0
    for k in range(n, 0, -1):
        for s in range(N - k):
            t = s + k
            g = complete_out[s, t, 1]
            if g > -np.inf:
                for r in range(s + 1, t + 1):
                    incomplete_out[s, r, 1] = _logaddexp(
                        incomplete_out[s, r, 1], g + complete[r, t, 1]
                    )
                    complete_out[r, t, 1] = _logaddexp(
                        complete_out[r, t, 1], g + incomplete[s, r, 1]
                    )
            g = complete_out[s, t, 0]
            if g > -np.inf:
                for r in range(s, t):
                    complete_out[s, r, 0] = _logaddexp(
                        complete_out[s, r, 0], g + incomplete[r, t, 0]
                    )
                    incomplete_out[r, t, 0] = _logaddexp(
                        incomplete_out[r, t, 0], g + complete[s, r, 0]
                    )
            last = 0 if single_root and s == 0 else t - 1
            for direction in range(2):
                if incomplete[s, t, direction] == -np.inf:
                    continue
                g = incomplete_out[s, t, direction]
                g += arc[s, t] if direction == 1 else arc[t, s]
                if g == -np.inf:
                    continue
                for r in range(s, last + 1):
                    complete_out[s, r, 1] = _logaddexp(
                        complete_out[s, r, 1], g + complete[r + 1, t, 0]
                    )
                    complete_out[r + 1, t, 0] = _logaddexp(
                        complete_out[r + 1, t, 0], g + complete[s, r, 1]
                    )
    for s in range(N):
        for t in range(s + 1, N):
            out[s, t] = np.exp(incomplete[s, t, 1] + incomplete_out[s, t, 1] - log_z)
            if s > 0:
                out[t, s] = np.exp(incomplete[s, t, 0] + incomplete_out[s, t, 0] - log_z)
    return log_z + log_shift


# -- all trees: the matrix-tree theorem, by log-space elimination ---------------------------------


@helper
def _in_weight(w, order, j, k, with_root):
    """Log of the total weight of arcs into ``k`` from the words ``order[j:]`` (and from
    the root if ``with_root``)."""
    top = w[0, k] if with_root else -np.inf
    for a in range(j, order.shape[0]):
        h = order[a]
        if h != k and w[h, k] > top:
            top = w[h, k]
    if top == -np.inf:
        return top
    total = np.exp(w[0, k] - top) if with_root else 0.0
    for a in range(j, order.shape[0]):
        h = order[a]
        if h != k:
            total += np.exp(w[h, k] - top)
    return top + np.log(total)


@njit
def matrix_tree(theta, n, single_root, out):
    """Log-partition and arc marginals over all (non-projective) trees, O(n^3) time.

    Z is the determinant of the Laplacian of Koo, Globerson, Carreras & Collins (2007),
    ``L[d, d] = sum_h A[h, d]`` and ``L[h, d] = -A[h, d]`` over the words, ``A =
    exp(theta)``. A determinant computed in floating point loses everything when the
    largest arcs into each word form a cycle (``L`` is then ``1 - 1`` up to terms of
    ``exp(-1e4)``), so it is computed instead by Gaussian elimination kept free of
    subtraction, as in the GTH algorithm for Markov chains: eliminating word ``k``
    multiplies Z by its in-weight ``D_k = sum_h A[h, k]`` and leaves the Laplacian of the
    remaining words with arcs ``A[h, m] + A[h, k] A[k, m] / D_k`` (paths through ``k``;
    the root's arcs updated alike), whose diagonal is again a sum of in-weights. All
    terms being positive, the elimination runs in log space with log-sum-exp, for any
    size of potentials; the last word's in-weight is its root arc.

    ``single_root`` counts the trees whose root has one child: with root arcs scaled by
    ``eps``, Z is ``eps`` times that count plus ``O(eps^2)``. To first order the root
    arcs drop out of the in-weights of all words but the last, while they still
    propagate through the eliminations (Koo et al.'s replaced row, without the
    determinant).

    The marginals are the gradient of log Z with respect to the log-weights,
    accumulated backwards through the eliminations (each stored in ``O(n^3)``
    memory). Words are eliminated in their order, except that a word with no arc in
    yet (possible with ``-inf`` potentials) waits for one.
    """
    N = n + 1
    w, log_shift = _shifted(theta, n)
    out[:N, :N] = 0.0
    if n == 0:
        return 0.0
    order = np.arange(1, N)
    remaining = np.empty((n, n), dtype=np.int64)  # [j, :n - j]: order[j:], pivot first
    density = np.empty(n)
    offset = np.empty(n + 1, dtype=np.int64)
    offset[0] = 0
    for j in range(n):
        r = n - j
        offset[j + 1] = offset[j] + (r + 1) * r
    # before[offset[j] + a * r + b]: arc from row a (0 the root, else remaining[j, a - 1])
    # into remaining[j, b] just before step j
    before = np.empty(offset[n])
    log_z = 0.0
    for j in range(n):
        r = n - j
        with_root = not single_root or j == n - 1
        found, d = -1, -np.inf
        for a in range(j, n):
            d = _in_weight(w, order, j, order[a], with_root)
            if d > -np.inf:
                found = a
                break
        if found < 0:
            # no word left has an arc in (single root: two or more must hang from the root)
            return -np.inf
        k = order[found]
        order[found] = order[j]
        order[j] = k
        density[j] = d
        log_z += d
        for b in range(r):
            remaining[j, b] = order[j + b]
        for a in range(r + 1):
            i = 0 if a == 0 else order[j + a - 1]
            for b in range(r):
                before[offset[j] + a * r + b] = w[i, order[j + b]]
        for a in range(r + 1):
            if a == 1:
                continue
            i = 0 if a == 0 else order[j + a - 1]
            via = w[i, k] - d
            if via == -np.inf:
                continue
            for b in range(1, r):
                m = order[j + b]
                if m != i:
                    w[i, m] = _logaddexp(w[i, m], via + w[k, m])

    # grad[h, m] = d log Z / d w[h, m]: arcs into the pivot and out of it are read but
    # never written at its step, so they collect their gradient there and only there.
    grad = np.zeros((N, N))
    for j in range(n - 1, -1, -1):
        r = n - j
        base = offset[j]
        k = remaining[j, 0]
        d = density[j]
        grad_d = 1.0  # log Z gains d directly
        for a in range(r + 1):
            if a == 1:
                continue
            i = 0 if a == 0 else remaining[j, a - 1]
            via = before[base + a * r] - d
            if via == -np.inf:
                continue
            for b in range(1, r):
                m = remaining[j, b]
                if m == i or grad[i, m] == 0.0:
                    continue
                old = before[base + a * r + b]
                path = via + before[base + r + b]  # row a = 1 is the pivot
                new = _logaddexp(old, path)  # the forward value, recomputed bit for bit
                share = grad[i, m] * np.exp(path - new)
                grad[i, m] *= np.exp(old - new)
                grad[i, k] += share
                grad[k, m] += share
                grad_d -= share
        if not single_root or j == n - 1:
            grad[0, k] += grad_d * np.exp(before[base] - d)
        for a in range(2, r + 1):
            grad[remaining[j, a - 1], k] += grad_d * np.exp(before[base + a * r] - d)
    for h in range(N):
        for m in range(1, N):
            if h != m:
                out[h, m] = grad[h, m]
    return log_z + log_shift
