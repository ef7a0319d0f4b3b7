"""Timing ParameterMixing's set-up (the time before its first round), for the
measurement scripts of issue 38."""

import time


def print_setups(label, fit, describe, times=2):
    """Call ``fit()`` (a fresh ``ParameterMixing`` fit) ``times`` times; print, after
    ``label``, ``describe(model)``'s words, the set-up (the first round's elapsed time
    less its own seconds) and the whole fit's wall time."""
    for _ in range(times):
        start = time.perf_counter()
        model = fit()
        wall = time.perf_counter() - start
        first = model.history_[0]
        print(f"{label}: {describe(model, 'head')}; set-up "
              f"{first['elapsed'] - first['seconds']:.2f} s, fit {wall:.2f} s, "
              f"{describe(model, 'tail')}", flush=True)  # fmt: skip
