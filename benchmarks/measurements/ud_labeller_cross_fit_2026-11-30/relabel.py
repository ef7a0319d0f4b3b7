"""Dev probe (issue 36): the pipeline's relation labeller (a clone of the fitted one in
``$UDH/relations.pkl``) trained on other annotation of the training sentences, then
relabelling the pipeline's own dev trees (``$UDH/data.pkl``); prints UAS / LAS / CLAS.

``python relabel.py SPEC ...``, each SPEC one of: ``own`` (the stages' annotation of
their own training sentences, as the pipeline trains the labeller); ``cvK`` (the same
with the UPOS and XPOS cross-fitted in K folds, ``cross_fit.py K``); ``both`` (``own``
and ``cv5`` together, twice the sentences); ``cv5+refeats`` (``cv5``, then FEATS and
lemmas predicted again from the cross-fitted tags by stages trained as the pipeline
trains them)."""

import sys
import time

from _common import load, relabel_figures, with_tags
from sklearn.base import clone

from skstruct import PredictedFeats, PredictedLemmas


def refeats(train, analysed, tags):
    """``analysed`` with ``tags``, FEATS and lemmas predicted from them, gold trees."""
    own_tags = [[(t["upos"], t["xpos"]) for t in s] for s in analysed]
    tagged = with_tags(train, own_tags)  # what the pipeline's FEATS tagger and lemmatiser learn
    feats = PredictedFeats(columns=("upos", "xpos"), max_iter=10, random_state=0).fit(tagged)
    lemmas = PredictedLemmas(max_iter=10, random_state=0).fit(tagged)
    X = lemmas.transform(feats.transform(with_tags(analysed, tags)))
    return [[{**p, "head": g["head"], "deprel": g["deprel"]} for p, g in zip(ps, gs)]
            for ps, gs in zip(X, train)]  # fmt: skip


def main():
    data = load("data.pkl")
    pipeline = load("relations.pkl")
    train, analysed = data["gold"]["train"], data["train_analysed"]
    gold, trees = data["gold"]["dev"], data["pred"]["dev"]
    print("pipeline", relabel_figures(gold, trees, pipeline.predict(trees)), flush=True)
    for spec in sys.argv[1:]:
        name, _, more = spec.partition("+")
        if name == "own":
            X = analysed
        elif name == "both":
            X = analysed + with_tags(analysed, load("tags_5.pkl"))
        else:
            tags = load(f"tags_{int(name[2:])}.pkl")
            X = refeats(train, analysed, tags) if more == "refeats" else with_tags(analysed, tags)
        start = time.perf_counter()
        labels = clone(pipeline).fit(X).predict(trees)
        seconds = time.perf_counter() - start
        print(spec, relabel_figures(gold, trees, labels), f"({seconds:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
