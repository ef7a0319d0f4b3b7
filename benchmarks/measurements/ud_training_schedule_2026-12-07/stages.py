"""When each part of ``UDPipeline.fit`` runs (issue 36's training time): the pipeline of
``bench_ud_pipeline.py`` (English-EWT train, ``n_jobs=2``, Brown and CoNLL-2000 word
tags, five cross-fitting folds) with timers around the stages' fits and around every
parser's fit, printed as start and end seconds from the beginning of ``fit``.

Run: ``SKSTRUCT_DATA=... python stages.py [--warm]`` (about 20 minutes on a slow 2-core
machine); with ``--warm``, a fit of the same pipeline on 100 sentences, 1 epoch, first,
untimed, so that numba's kernels are compiled (or loaded) before the timed fit.
Nothing in the library is changed; the timers wrap methods of this process only (the
tagger's folds run in worker processes, so only the whole cross-fitting is timed)."""

import functools
import sys
import threading
import time

from skstruct import UDPipeline
from skstruct.corpus_tags import CorpusTags
from skstruct.datasets import fetch_ud
from skstruct.learners import StructuredPerceptron, StructuredSVM
from skstruct.lemmas import PredictedLemmas
from skstruct.morphology import PredictedFeats
from skstruct.parsing import PredictedTrees
from skstruct.relations import PredictedRelations
from skstruct.ud import UDPipeline as _UD
from skstruct.voting import ReversedParser, VotingParser

START = [None]
EVENTS = []


def describe(obj):
    decoder = getattr(obj, "decoder", None)
    inner = getattr(obj, "parser", None)
    if isinstance(obj, ReversedParser):
        return f"ReversedParser({describe(inner)})"
    if decoder is not None:
        pos = getattr(getattr(obj, "features", None), "pos", "")
        return f"{type(obj).__name__}({type(decoder).__name__}{', ' + str(pos) if pos else ''})"
    return type(obj).__name__


def timed(cls, method):
    original = getattr(cls, method)

    @functools.wraps(original)
    def wrapper(self, *args, **kwargs):
        begin = time.perf_counter()
        try:
            return original(self, *args, **kwargs)
        finally:
            end = time.perf_counter()
            if START[0] is not None:
                EVENTS.append((begin - START[0], end - START[0], threading.current_thread().name,
                               f"{describe(self)}.{method}"))  # fmt: skip

    setattr(cls, method, wrapper)


for cls, method in [
    (CorpusTags, "fit"),
    (_UD, "_fit_tagger"),
    (PredictedFeats, "fit"),
    (PredictedLemmas, "fit"),
    (PredictedFeats, "transform"),
    (PredictedLemmas, "transform"),
    (PredictedTrees, "fit"),
    (PredictedRelations, "fit"),
    (VotingParser, "fit"),
    (ReversedParser, "fit"),
    (StructuredSVM, "fit"),
    (StructuredPerceptron, "fit"),
]:
    timed(cls, method)

train = fetch_ud("en_ewt", "train").data
if "--warm" in sys.argv[1:]:
    UDPipeline(corpora=["brown", "conll2000"], max_iter=1, n_jobs=2, random_state=0).fit(
        train[:100]
    )
pipeline = UDPipeline(corpora=["brown", "conll2000"], n_jobs=2, random_state=0)
START[0] = time.perf_counter()
pipeline.fit(train)
total = time.perf_counter() - START[0]
for begin, end, thread, what in sorted(EVENTS):
    print(f"{begin:8.1f} {end:8.1f} {end - begin:8.1f}  {thread:<22} {what}")
print(f"fit: {total:.1f} s")
