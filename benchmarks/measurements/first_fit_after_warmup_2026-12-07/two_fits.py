"""The default perceptron's first and second fit on CoNLL-2000 (the tutorial's dicts) in
one process whose numba cache ``skstruct warmup chains`` filled: numba's compile and
lock events per fit, and with ``--profile`` the first fit's 25 costliest calls.

Run: ``NUMBA_CACHE_DIR=<warmed> python two_fits.py [--profile]`` (``run.sh`` does all).
"""

import collections
import cProfile
import pstats
import sys
import time

from numba.core import event

events = collections.Counter()


class _Count(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        events[ev.kind] += 1


for kind in ("numba:compile", "numba:compiler_lock"):
    event.register(kind, _Count())

from skstruct import StructuredPerceptron  # noqa: E402
from skstruct.datasets import fetch_conll2000  # noqa: E402
from skstruct.features import crfsuite_tutorial_features  # noqa: E402

train = fetch_conll2000("train")
X, y = crfsuite_tutorial_features(train.data), train.target
for fit in ("first", "second"):
    events.clear()
    profile = cProfile.Profile() if fit == "first" and "--profile" in sys.argv else None
    start = time.perf_counter()
    if profile:
        profile.enable()
    StructuredPerceptron(random_state=0).fit(X, y)
    if profile:
        profile.disable()
    print(f"{fit} fit {time.perf_counter() - start:.2f} s, numba events {dict(events)}")
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
