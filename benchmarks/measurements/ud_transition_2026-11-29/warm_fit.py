"""Warm beam-search fits of the transition parsers on the PTB sample (no coarse POS: the
word and POS templates alone), to compare commits side by side (issue 36: the template
count of arc-eager became a run-time value).

``python warm_fit.py`` fits ``StructuredPerceptron(ArcEager(8))`` and
``StructuredPerceptron(ArcStandard(8))`` (max-violation, 5 epochs) twice each and prints
the second fit's time and the test UAS.
"""

import time

from skstruct import ArcEager, ArcStandard, StructuredPerceptron
from skstruct.datasets import fetch_ptb_sample

X, y = fetch_ptb_sample("train", return_X_y=True)
X_test, y_test = fetch_ptb_sample("test", return_X_y=True)
for system in (ArcEager, ArcStandard):
    for _attempt in range(2):
        parser = StructuredPerceptron(system(beam_size=8), max_iter=5, update="max_violation",
                                      random_state=0)  # fmt: skip
        start = time.perf_counter()
        parser.fit(X, y)
        seconds = time.perf_counter() - start
    score = 100 * parser.score(X_test, y_test)
    print(f"{system.__name__}: warm fit {seconds:.2f} s, test UAS {score:.2f}")
