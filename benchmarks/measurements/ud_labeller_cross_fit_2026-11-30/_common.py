"""What the scripts of this folder share: ``../ud_relabel_2026-11-30/train.py``'s saved
pipeline run (``$UDH/data.pkl``: the gold splits, the fitted corpora, the training
sentences as the pipeline's stages annotate them, the dev trees of its parser) and the
pipeline's tagger, as ``UDPipeline`` builds it."""

import os
import pickle

from skstruct import PredictedTags, StructuredSVM, TokenFeatures, Viterbi
from skstruct.metrics import conll18_scores

WORK = os.environ.get("UDH", "/tmp/udh")
FILLED = ("upos", "xpos", "feats", "lemma", "head", "deprel")


def load(name):
    with open(os.path.join(WORK, name), "rb") as f:
        return pickle.load(f)


def dump(obj, name):
    with open(os.path.join(WORK, name), "wb") as f:
        pickle.dump(obj, f)


def bare(sentences):
    return [[{k: v for k, v in t.items() if k not in FILLED} for t in s] for s in sentences]


def read(corpora, X):
    """The sentences with the corpora's fields, as the pipeline's tagger reads them."""
    for corpus in corpora:
        X = corpus.transform(X)
    return X


def tagger(columns, *, window=2, order=1):
    """The pipeline's joint UPOS+XPOS tagger (``UDPipeline._stage("tags")``)."""
    features = TokenFeatures(window=window, suffix_length=5, columns=list(columns))
    svm = StructuredSVM(Viterbi(order=order), features=features, C=0.3, tol=None,
                        max_iter=20, random_state=0)  # fmt: skip
    return PredictedTags(svm, field=("upos", "xpos"))


def with_tags(X, tags):
    """``X`` with every token's UPOS and XPOS replaced by ``tags``' pairs."""
    return [[{**t, "upos": u, "xpos": x} for t, (u, x) in zip(s, ts)] for s, ts in zip(X, tags)]


def relabel_figures(gold, trees, labels):
    """UAS / LAS / CLAS (CoNLL 2018) of ``trees`` with ``labels`` as their relations."""
    filled = [[{**t, "deprel": r} for t, r in zip(s, rs)] for s, rs in zip(trees, labels)]
    scores = conll18_scores(gold, filled)
    return "  ".join(f"{k} {100 * scores[k].f1:.2f}" for k in ("UAS", "LAS", "CLAS"))
