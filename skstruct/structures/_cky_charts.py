"""Charts for :func:`~skstruct._kernels.anchored_cky.best_tree`, made once per corpus.

The best-tree search fills dense ``(n + 1, n + 1, n_symbols)`` charts, some MB for a
sentence of the treebank sample. Made afresh for every sentence, each came from the
system as new pages, faulted in one by one (glibc hands big blocks back when they are
freed): a warm 3-epoch perceptron fit on 400 trees took 2.98-3.31 s so, and 2.43-2.94 s
with the charts reused; nothing changed measurably on the whole treebank, whose
sentences cost far more to search than to allocate for. So a corpus (an
encoded training or test set) gets one set of charts per thread, sized for its longest
sentence, reused for every sentence and freed with the corpus (or, for a thread that
ended, when another thread next makes charts); a corpus whose longest
sentence would need more than :data:`~skstruct._kernels.cky.CHART_BYTES` gets charts
that size, and its longer
sentences charts of their own, as before
(``benchmarks/measurements/cky_charts_2026-11-29/``).
"""

import threading
import weakref

import numpy as np

from .._kernels import cky as _cky
from ..utils.parts import longest_sentence

#: Bytes of the charts per cell and symbol: two float64 and four int32 charts.
_BYTES_PER_CELL = 2 * 8 + 4 * 4

#: (id of a corpus's atoms, thread id) -> its charts; an entry goes with the atoms.
_CHARTS = {}
_LOCK = threading.Lock()


def charts_for(encoded, n_symbols, n):
    """The charts this thread searches a sentence of ``n`` words of ``encoded`` (an
    :class:`~skstruct.tasks.constituency.EncodedTrees`) in, or None for one longer
    than they hold (the search then makes charts of its own).

    Each chart is a view, shaped ``(n + 1, n + 1, n_symbols)``, of the start of a flat
    buffer the thread keeps for the corpus: a sentence's cells lie together, as in
    charts made for it alone (a chart sized for the longest sentence would spread a
    short one's cells over many more pages)."""
    key = (id(encoded.atoms), threading.get_ident())
    buffers = _CHARTS.get(key)
    if buffers is None or buffers[1] != n_symbols:
        words = min(longest_sentence(encoded.offsets),
                    _cky.words_within(_BYTES_PER_CELL, n_symbols))  # fmt: skip
        buffers = ([chart.ravel() for chart in new_charts(words, n_symbols)], n_symbols, words)
        with _LOCK:
            # threads that ended (a pool's, from an earlier epoch or predict) keep none
            alive = {thread.ident for thread in threading.enumerate()}
            for old in [old for old in _CHARTS if old[1] not in alive]:
                del _CHARTS[old]
            _CHARTS[key] = buffers
        weakref.finalize(encoded.atoms, _CHARTS.pop, key, None)
    flat, _, words = buffers
    if n > words:
        return None
    m = n + 1
    charts = [chart[: m * m * n_symbols].reshape(m, m, n_symbols) for chart in flat[:6]]
    return (*charts, flat[6][: m * m].reshape(m, m))


def new_charts(n, n_symbols):
    """Charts for sentences of up to ``n`` words: ``(inner, outer, split, rule, urule,
    live, n_live)`` as :func:`~skstruct._kernels.anchored_cky.best_tree` reads them.

    >>> [chart.shape for chart in new_charts(2, 5)][::6]
    [(3, 3, 5), (3, 3)]
    """
    shape = (n + 1, n + 1, n_symbols)
    return (
        np.empty(shape),
        np.empty(shape),
        *(np.empty(shape, dtype=np.int32) for _ in range(4)),
        np.empty((n + 1, n + 1), dtype=np.int64),
    )
