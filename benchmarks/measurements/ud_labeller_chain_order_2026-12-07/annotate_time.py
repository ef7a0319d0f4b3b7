"""What the depth-first chain costs when labelling: ``PredictedRelations.transform`` on
English-EWT test (2,077 sentences, gold heads), after a fit on the first 3,000 training
sentences; the best of five calls, and the relations right (the same model for every
side that orders alike).

Run side by side against another checkout of the package, one process at a time:
``PYTHONPATH=/path/to/checkout python annotate_time.py NAME`` (``SKSTRUCT_DATA`` set).
"""

import sys
import time

import skstruct
from skstruct import PredictedRelations
from skstruct.datasets import fetch_ud

train, test = fetch_ud("en_ewt", "train").data[:3000], fetch_ud("en_ewt", "test").data
labeller = PredictedRelations(max_iter=10, random_state=0).fit(train)
labeller.transform(test[:20])  # kernels loaded before the timing
seconds = []
for _ in range(5):
    start = time.perf_counter()
    labelled = labeller.transform(test)
    seconds.append(time.perf_counter() - start)
pairs = [(g["deprel"], p["deprel"]) for gs, ps in zip(test, labelled) for g, p in zip(gs, ps)]
right = 100 * sum(g == p for g, p in pairs) / len(pairs)
order = getattr(labeller, "chain_order", "sentence (no chain_order)")
print(
    f"{sys.argv[1]:<10} {skstruct.__file__}: chain {order}; transform best {min(seconds):.3f} s, "
    f"median {sorted(seconds)[2]:.3f} s; relations right {right:.2f}",
    flush=True,
)
