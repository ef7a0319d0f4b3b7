"""Dev probe (issue 36), step 1: train the default UDPipeline on UD English-EWT train once
(``corpora=("brown", "conll2000")``, ``n_jobs=2``, ``random_state=0``, as
``bench_ud_pipeline.py``) and keep, in ``$UDH`` (default ``/tmp/udh``): the training
sentences as the stages before the parser annotate them (what the relation labeller
learns from), every split's predicted annotation with the parser's heads, and the fitted
labeller. ``relabel.py`` then tries labellers on those heads in about a minute each."""

import os
import pickle
import time

from skstruct import UDPipeline
from skstruct.datasets import fetch_ud

WORK = os.environ.get("UDH", "/tmp/udh")
FILLED = ("upos", "xpos", "feats", "lemma", "head", "deprel")


def bare(sentences):
    return [[{k: v for k, v in t.items() if k not in FILLED} for t in s] for s in sentences]


def analysed(ud, sentences):
    """The sentences as the stages before the parser annotate them."""
    X = ud._with_corpora(bare(sentences))
    for name in ("tags", "feats", "lemmas"):
        X = ud.stages_[name].transform(X)
    return X


def main():
    train = fetch_ud("en_ewt", "train").data
    splits = {name: fetch_ud("en_ewt", name).data for name in ("dev", "test")}
    start = time.perf_counter()
    ud = UDPipeline(corpora=["brown", "conll2000"], n_jobs=2, random_state=0).fit(train)
    print(f"trained in {time.perf_counter() - start:.1f} s", flush=True)
    out = {"gold": {"train": train, **splits}, "pred": {}}
    out["train_analysed"] = [
        [{**p, "head": g["head"], "deprel": g["deprel"]} for p, g in zip(ps, gs)]
        for ps, gs in zip(analysed(ud, train), train)
    ]
    parser = ud.stages_["trees"].parser_
    for split, gold in splits.items():
        X = analysed(ud, gold)
        out["pred"][split] = [
            [{**token, "head": int(h), "deprel": None} for token, h in zip(s, hs)]
            for s, hs in zip(X, parser.predict(X))
        ]
    os.makedirs(WORK, exist_ok=True)
    with open(os.path.join(WORK, "data.pkl"), "wb") as f:
        pickle.dump(out, f)
    with open(os.path.join(WORK, "relations.pkl"), "wb") as f:
        pickle.dump(ud.stages_["trees"].relations_, f)
    print("saved", flush=True)


if __name__ == "__main__":
    main()
