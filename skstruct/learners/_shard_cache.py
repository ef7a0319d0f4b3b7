"""What ParameterMixing's workers keep between rounds: shards and the mixed weights.

Every task of a round starts from the same mixed weights, and a worker usually sees the
same shards again, so a worker process keeps both, keyed by the fit they belong to. A
round's task then carries only references, the visiting orders and the weights that the
last mixes changed; the parent sends the full shard or weights again only to a worker
that answers "missing" (a new or restarted worker, or one that skipped rounds). Nothing
here changes a result: a task computes the same thing from cached or from sent data.

The cache is per process and bounded (the last few fits); on the threading backend it
is the parent's own, and ``ParameterMixing`` empties its entry when ``fit`` ends.
"""

import threading
from collections import OrderedDict

import numpy as np

#: Fits whose shards and weights a worker keeps (older ones are dropped first).
MAX_FITS = 3

_lock = threading.Lock()
_fits = OrderedDict()  # fit id -> _FitEntry


class _FitEntry:
    def __init__(self):
        self.shards = {}  # shard index -> (encoded, labels)
        self.version = -1  # mixing round the weights below are from
        self.weights = None  # (coef, coef_sum, n_seen)


class ShardRef:
    """Shard ``index`` of fit ``fit_id``; ``data`` is the shard itself or None (cached)."""

    def __init__(self, fit_id, index, data=None):
        self.fit_id, self.index, self.data = fit_id, index, data


class WeightsRef:
    """The mixed weights after round ``version`` of fit ``fit_id``.

    ``full`` is ``(coef, coef_sum, n_seen)`` or None; ``changes`` lists, for the last
    rounds, ``(version, positions, coef_values, coef_sum_values, n_seen)``: what each
    mix set, from which a worker holding an earlier version catches up. Version 0 is
    all zeros of length ``n_weights``.
    """

    def __init__(self, fit_id, version, n_weights, full=None, changes=()):
        self.fit_id, self.version, self.n_weights = fit_id, version, n_weights
        self.full, self.changes = full, tuple(changes)


def _entry(fit_id):
    entry = _fits.get(fit_id)
    if entry is None:
        entry = _fits[fit_id] = _FitEntry()
        while len(_fits) > MAX_FITS:
            _fits.popitem(last=False)
    _fits.move_to_end(fit_id)
    return entry


def shard(ref):
    """The shard ``ref`` names, storing it when it came with the task; None if unknown."""
    with _lock:
        entry = _entry(ref.fit_id)
        if ref.data is not None:
            entry.shards[ref.index] = ref.data
        return entry.shards.get(ref.index)


def weights(ref):
    """The weights ``(coef, coef_sum, n_seen)`` that ``ref`` names, read-only, or None.

    The cached weights are brought up to ``ref.version`` from ``ref.changes``, or
    replaced by ``ref.full``; None when neither can give that version. Cached arrays
    are never written once stored (a catch-up writes new ones), so tasks running side
    by side on threads can all read them.
    """
    with _lock:
        entry = _entry(ref.fit_id)
        if ref.full is not None:
            coef, coef_sum, n_seen = ref.full
            full = _frozen(np.array(coef), np.array(coef_sum), n_seen)  # own copies
            if entry.version <= ref.version:
                entry.version, entry.weights = ref.version, full
            return full
        if entry.version < 0 and (ref.version == 0 or (ref.changes and ref.changes[0][0] == 1)):
            entry.version = 0
            entry.weights = _frozen(np.zeros(ref.n_weights), np.zeros(ref.n_weights), 0)
        if entry.version < 0 or entry.version > ref.version:
            return None
        for version, positions, coef_values, sum_values, n_seen in ref.changes:
            if version == entry.version + 1:
                coef, coef_sum = (array.copy() for array in entry.weights[:2])
                coef[positions] = coef_values
                coef_sum[positions] = sum_values
                entry.version, entry.weights = version, _frozen(coef, coef_sum, n_seen)
        return entry.weights if entry.version == ref.version else None


def _frozen(coef, coef_sum, n_seen):
    coef.setflags(write=False)
    coef_sum.setflags(write=False)
    return coef, coef_sum, n_seen


def forget(fit_id):
    """Drop what this process holds for ``fit_id``."""
    with _lock:
        _fits.pop(fit_id, None)
