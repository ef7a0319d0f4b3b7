"""Dev probe (issue 36): UDPipeline's arc-eager beam parser on UD English-EWT, with gold
tags, lemmas and FEATS, under other settings.

``python probe.py VARIANT ...`` trains each variant on train (max-violation updates,
10 epochs, ``random_state=0``) and prints its fit time and dev UAS (every word
scored). A variant is ``[r2l-]POS:FIELDS[:BEAM[:EPOCHS[:BATCH]]]``: ``r2l-`` reads the
sentences right to left (``ReversedParser``); POS is ``ArcFeatures``' ``pos``
(``auto``: the XPOS, with the UPOS as coarse POS on UD); FIELDS a comma-separated list
of ``fields`` (may be empty); BEAM the beam size (default 8, the pipeline's), EPOCHS
the epochs (default 10), BATCH the ``batch_size`` (an int or ``auto``; default 1).
``auto:`` is the pipeline's parser over the XPOS, ``upos:`` the one over the UPOS.
"""

import sys
import time

from skstruct import ArcEager, ArcFeatures, ReversedParser, StructuredPerceptron
from skstruct.datasets import fetch_ud


def heads_of(sentences):
    return [[t["head"] for t in s] for s in sentences]


def uas(dev, predicted):
    right = sum(int(p) == t["head"] for s, ps in zip(dev, predicted) for t, p in zip(s, ps))
    return 100 * right / sum(len(s) for s in dev)


def variant(name):
    reverse = name.startswith("r2l-")
    parts = name.removeprefix("r2l-").split(":")
    pos, fields, beam, epochs, batch = parts + [""] * (5 - len(parts))
    fields = tuple(f for f in fields.split(",") if f)
    decoder = ArcEager(beam_size=int(beam or 8), projectivize=True)
    parser = StructuredPerceptron(decoder, max_iter=int(epochs or 10), update="max_violation",
                                  features=ArcFeatures(pos=pos, fields=fields),
                                  batch_size="auto" if batch == "auto" else int(batch or 1),
                                  random_state=0)  # fmt: skip
    return ReversedParser(parser) if reverse else parser


def main(names):
    X, dev = fetch_ud("en_ewt", "train").data, fetch_ud("en_ewt", "dev").data
    for name in names:
        parser = variant(name)
        start = time.perf_counter()
        parser.fit(X, heads_of(X))
        seconds = time.perf_counter() - start
        predicted = parser.predict(dev)
        print(f"{name}: fit {seconds:.1f} s, dev UAS {uas(dev, predicted):.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
