"""Ctrl-C during ``fit``: finish the epoch in progress, then stop with a usable model.

An epoch runs in numba kernels that a signal cannot stop half way, and the Python
loops update weights example by example: a ``KeyboardInterrupt`` raised in the middle
would leave weights from part of an epoch, or averaging counters out of step with the
weights. So while a learner trains, the first Ctrl-C only asks it to stop: the epoch
ends, the learner keeps the model of the last completed epoch and warns. A second
Ctrl-C raises ``KeyboardInterrupt`` at once and the learner is left unfitted.
"""

import signal
import threading
import warnings
from contextlib import contextmanager


class InterruptedFitWarning(UserWarning):
    """``fit`` stopped early at the user's Ctrl-C; the model is the last completed epoch's."""


class _Request:
    requested = False


@contextmanager
def deferred_interrupt():
    """Within the block, the first SIGINT sets ``.requested`` instead of raising.

    Signal handlers belong to the main thread; elsewhere (a joblib or GridSearchCV
    thread, which never receives KeyboardInterrupt anyway) nothing changes, and neither
    does a process that ignores SIGINT.
    """
    request = _Request()
    if threading.current_thread() is not threading.main_thread():
        yield request
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:  # the process ignores Ctrl-C (nohup, a daemon): keep it so
        yield request
        return

    def ask_to_stop(signum, frame):
        if request.requested:  # asked twice: stop now
            signal.signal(signal.SIGINT, previous)
            raise KeyboardInterrupt
        request.requested = True

    signal.signal(signal.SIGINT, ask_to_stop)
    try:
        yield request
    finally:
        signal.signal(signal.SIGINT, previous)


def warn_interrupted(estimator, n_epochs):
    warnings.warn(
        f"{type(estimator).__name__}.fit was interrupted (Ctrl-C) and stopped after "
        f"{n_epochs} completed epoch(s): the model holds the weights of that epoch.",
        InterruptedFitWarning,
        stacklevel=3,
    )
