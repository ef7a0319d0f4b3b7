"""Work over the sentences of a corpus in parts, on Python threads.

Kernels hold no GIL, so Python threads that each call a serial kernel on a part of the
sentences run side by side. This is how prediction and the structured SVMs' hinge
passes use several cores: a kernel with ``prange`` costs seconds more to compile than
its serial twin (a new user's first run pays for it), and the serial kernel is often
the one training has compiled already.
"""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

#: Fewer sentences are worked on in one call: starting threads costs more than the work.
PARALLEL_FROM = 64

#: Parts per thread: parts of equal estimated cost still differ, and a thread that
#: finishes early takes the next part.
PARTS_PER_THREAD = 4


def longest_sentence(offsets):
    """Tokens of the longest sentence of a corpus with token ``offsets`` (at least 1):
    the rows a decoding scratch needs.

    >>> longest_sentence(np.array([0, 3, 4]))
    3
    """
    return max(int(np.diff(offsets).max(initial=1)), 1)


def in_parts(work, offsets, threads, power=1):
    """Call ``work(sentences)`` (int64 sentence ids, ascending) so that together the
    calls cover every sentence of a corpus with token ``offsets`` once: in one call, or,
    from ``PARALLEL_FROM`` sentences and ``threads > 1``, in parts of about equal cost
    (length ** ``power``: 1 for chains, 3 for Eisner) on ``threads`` threads. An
    exception raised by a part is raised here.

    >>> seen = []
    >>> in_parts(seen.append, np.arange(0, 200, 2), threads=1)
    >>> [part.size for part in seen]
    [99]
    """
    n_sentences = offsets.shape[0] - 1
    sentences = np.arange(n_sentences, dtype=np.int64)
    if threads <= 1 or n_sentences < PARALLEL_FROM:
        work(sentences)
        return
    n_parts = min(threads * PARTS_PER_THREAD, n_sentences)
    cost = np.cumsum(np.diff(offsets).astype(np.float64) ** power)
    cuts = np.searchsorted(cost, np.linspace(0.0, cost[-1], n_parts + 1)[1:-1], side="right")
    on_threads(work, [part for part in np.split(sentences, cuts) if part.size], threads)


def on_threads(work, parts, threads=None):
    """Call ``work(part)`` for every one of ``parts``, on ``threads`` threads (default:
    a thread a part; in this thread when there is one part or one thread). An
    exception raised by a part is raised here.

    >>> done = []
    >>> on_threads(done.append, [1, 2, 3])
    >>> sorted(done)
    [1, 2, 3]
    """
    threads = len(parts) if threads is None else threads
    if threads <= 1 or len(parts) <= 1:
        for part in parts:
            work(part)
        return
    with ThreadPoolExecutor(min(threads, len(parts))) as pool:
        for _ in pool.map(work, parts):
            pass
