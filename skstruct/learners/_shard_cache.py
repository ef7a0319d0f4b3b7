"""What ParameterMixing's workers keep between rounds: shards and the mixed weights.

Every task of a round starts from the same mixed weights, and a worker usually sees the
same shards again, so a worker process keeps both, keyed by the fit they belong to. A
round's task then carries only references, the visiting orders and the weights that the
last mixes changed; the parent sends the full shard or weights again only to a worker
that answers "missing" (a new or restarted worker, or one that skipped rounds). Nothing
here changes a result: a task computes the same thing from cached or from sent data.

The weights are a state ``(structure, coef, coef_sum, n_seen)``. Changes are keyed by
weight (a position, or a chain's ``n_dense + feature * n_labels + label``), so they
apply to a state in any layout: a worker's chain rows need not lie as the parent's do.

The cache is per process and bounded (the last few fits); on the threading backend it
is the parent's own, and ``ParameterMixing`` empties its entry when ``fit`` ends.

The parent also writes every shard to a file once (:func:`write_shards`), and a
reference names it: a worker on the parent's machine that lacks the shard reads it from
there (the page cache) rather than answer "missing", which costs the round a second
dispatch of the task after all the others (joblib gives no shard a worker of its own).
A worker that cannot read the file (another machine of a cluster) answers "missing" as
before.
"""

import os
import shutil
import tempfile
import threading
from collections import OrderedDict

import joblib
import numpy as np

from ..utils.arrays import writable

#: Fits whose shards and weights a worker keeps (older ones are dropped first).
MAX_FITS = 3

_lock = threading.Lock()
_fits = OrderedDict()  # fit id -> _FitEntry


class _FitEntry:
    def __init__(self):
        self.shards = {}  # shard index -> (encoded, labels)
        self.version = -1  # mixing round the weights below are from
        self.weights = None  # (structure, coef, coef_sum, n_seen)


class ShardRef:
    """Shard ``index`` of fit ``fit_id``; ``data`` is the shard itself or None (cached);
    ``path`` a file holding it (:func:`write_shards`) or None."""

    def __init__(self, fit_id, index, data=None, path=None):
        self.fit_id, self.index, self.data, self.path = fit_id, index, data, path


class WeightsRef:
    """The mixed weights after round ``version`` of fit ``fit_id``.

    ``full`` is ``(structure, coef, coef_sum, n_seen)`` or None; ``changes`` lists, for
    the last rounds, ``(version, keys, coef_values, coef_sum_values, n_seen)``: what each
    mix set, keyed by weight (``structure.with_change``), from which a worker holding an
    earlier version catches up. Version 0 is all zeros
    in the layout of ``initial``, its structure, sent while a worker may start from it
    (else None).
    """

    def __init__(self, fit_id, version, initial=None, full=None, changes=()):
        self.fit_id, self.version, self.initial = fit_id, version, initial
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
    """The shard ``ref`` names, storing it when it came with the task or was read from
    its file; None if unknown and unreadable."""
    with _lock:
        entry = _entry(ref.fit_id)
        if ref.data is not None:
            entry.shards[ref.index] = writable(ref.data)
        elif ref.index not in entry.shards and ref.path is not None:
            try:
                entry.shards[ref.index] = writable(joblib.load(ref.path))
            except OSError:  # not on this machine, or the fit has ended
                pass
        return entry.shards.get(ref.index)


def write_shards(shards):
    """``(folder, paths)``: each shard written to a file of a new temporary folder, for
    :class:`ShardRef`'s ``path``; ``(None, None)`` where no file can be written (a
    read-only or full disk): the workers then get what they lack sent again. Remove the
    folder with :func:`remove_shards`."""
    folder = None
    try:
        folder = tempfile.mkdtemp(prefix="skstruct-mixing-")
        paths = [os.path.join(folder, f"shard-{i}.pkl") for i in range(len(shards))]
        for data, path in zip(shards, paths):
            joblib.dump(data, path)
    except OSError:
        remove_shards(folder)
        return None, None
    except BaseException:  # an interrupt while writing: leave no folder behind
        remove_shards(folder)
        raise
    return folder, paths


def remove_shards(folder):
    """Remove a folder of :func:`write_shards` (nothing for None)."""
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def weights(ref):
    """The state ``(structure, coef, coef_sum, n_seen)`` that ``ref`` names (arrays
    read-only), or None.

    The cached weights are brought up to ``ref.version`` from ``ref.changes``, or
    replaced by ``ref.full``; None when neither can give that version. Cached arrays
    are never written once stored (a catch-up writes new ones), nor is the structure
    changed (tasks train on its ``training_copy()``), so tasks running side by side on
    threads can all read them.
    """
    with _lock:
        entry = _entry(ref.fit_id)
        if ref.full is not None:
            structure, coef, coef_sum, n_seen = ref.full
            full = _frozen(structure, np.array(coef), np.array(coef_sum), n_seen)  # own copies
            if entry.version <= ref.version:
                entry.version, entry.weights = ref.version, full
            return full
        if entry.version < 0 and ref.initial is not None:
            n_weights = ref.initial.n_weights
            entry.version = 0
            entry.weights = _frozen(ref.initial, np.zeros(n_weights), np.zeros(n_weights), 0)
        if entry.version < 0 or entry.version > ref.version:
            return None
        for version, keys, coef_values, sum_values, n_seen in ref.changes:
            if version == entry.version + 1:
                structure, coef, coef_sum, _ = entry.weights
                changed = structure.with_change(coef, coef_sum, keys, coef_values, sum_values)
                entry.version = version
                entry.weights = _frozen(*changed, n_seen)
        return entry.weights if entry.version == ref.version else None


def _frozen(structure, coef, coef_sum, n_seen):
    coef.setflags(write=False)
    coef_sum.setflags(write=False)
    return structure, coef, coef_sum, n_seen


def forget(fit_id):
    """Drop what this process holds for ``fit_id``."""
    with _lock:
        _fits.pop(fit_id, None)
