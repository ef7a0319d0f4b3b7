"""Dev probe: the depth-first labeller (the library's default ``PredictedRelations``)
with a window of two words along the walk instead of one. English-EWT dev, gold
annotation and heads.

Run: ``python window.py window2`` (``base`` for the default; ``PROBE_N`` for a dry run).
"""

import os
import sys
import time

from probe import right  # the script beside this one

from skstruct import PredictedRelations
from skstruct.datasets import fetch_ud


def main(specs):
    train, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data
    if os.environ.get("PROBE_N"):
        n = int(os.environ["PROBE_N"])
        train, dev = train[:n], dev[: n // 4]
    for spec in specs:
        tagger = PredictedRelations(random_state=0)._default_tagger()
        if spec == "window2":
            tagger.set_params(features__window=2)
        start = time.perf_counter()
        model = PredictedRelations(tagger=tagger).fit(train)
        print(f"{spec} fit {time.perf_counter() - start:.1f} s; dev right:",
              right(dev, model.predict(dev)), flush=True)  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
