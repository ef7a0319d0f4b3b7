"""What cross-fitting the tags adds to ``UDPipeline``'s training time (issue 36).

``python stage_time.py CV ...`` trains the pipeline on English-EWT train as
``bench_ud_pipeline.py`` does (``n_jobs=2``, the Brown and CoNLL-2000 columns), with a
pass-through in place of the parser, once per ``CV`` (``none`` or a number of folds),
and prints the wall time of each: the tagger, its cross-fitting, the morphological
tagger and the lemmatiser. Run the values one after the other, alone on the machine."""

import sys
import time

from sklearn.preprocessing import FunctionTransformer

from skstruct import UDPipeline
from skstruct.datasets import fetch_ud


def main():
    train = fetch_ud("en_ewt", "train").data
    for value in sys.argv[1:] or ["none", "5"]:
        cv = None if value == "none" else int(value)
        ud = UDPipeline(trees=FunctionTransformer(), corpora=["brown", "conll2000"], cv=cv,
                        n_jobs=2, random_state=0)  # fmt: skip
        start = time.perf_counter()
        ud.fit(train)
        print(f"cv {value}: tagger, feats and lemmas trained in "
              f"{time.perf_counter() - start:.1f} s", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
