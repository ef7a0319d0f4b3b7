"""Kernel threads: the numba thread count of the kernels a call runs."""

import contextlib

import numba


@contextlib.contextmanager
def numba_threads(n_threads):
    """Run the kernels called inside on ``n_threads`` threads (at least 1, at most
    numba's pool); the calling thread's former setting comes back on exit. Yields the
    count used.

    Learners pass ``joblib.effective_n_jobs(n_jobs)``, scikit-learn's convention:
    ``None`` is 1 unless a :func:`joblib.parallel_config` context says otherwise, -1
    all cores.
    """
    n = max(1, min(int(n_threads), numba.config.NUMBA_NUM_THREADS))
    before = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield n
    finally:
        numba.set_num_threads(before)


def available_threads():
    """Threads numba's pool has (``NUMBA_NUM_THREADS``: every core unless set)."""
    return numba.config.NUMBA_NUM_THREADS


def current_threads():
    """Threads the kernels called now run on (the calling thread's numba setting, as
    :func:`numba_threads` left it): the parts a parallel kernel splits its work into."""
    return numba.get_num_threads()
