"""PredictedFeats: FEATS sets as labels, and the morphological tagger on real UD data."""

import pytest

from skstruct import PredictedFeats
from skstruct.datasets import load_conllu
from skstruct.metrics import conll18_scores
from skstruct.morphology import feats_label, feats_of_label


def test_labels_round_trip_every_feature_set_of_english_ewt(corpus):
    X, _ = load_conllu(corpus("ud-ewt") / "en_ewt-ud-dev.conllu")
    sets = [t["feats"] for s in X for t in s]
    assert all(feats_of_label(feats_label(feats)) == (feats or None) for feats in sets)
    assert feats_label("Person=3|Number=Plur") == feats_label({"Number": "Plur", "Person": "3"})
    assert len({feats_label(feats) for feats in sets}) < 200


def test_the_morphological_tagger_learns_english_ewt(ewt_head):
    X, dev = ewt_head("train", 2000), ewt_head("dev", 400)
    feats = PredictedFeats(max_iter=2, random_state=0).fit(X)
    predicted = feats.transform(dev)
    assert all(
        {**t, "feats": p["feats"]} == p for s, q in zip(dev, predicted) for t, p in zip(s, q)
    )
    assert conll18_scores(dev, predicted)["UFeats"].f1 > 0.9
    assert feats.predict(dev[:1]) == [[feats_label(t["feats"]) for t in predicted[0]]]


def test_bad_input_is_named():
    with pytest.raises(ValueError, match=r"Example 0: token 1 \('bark'\) is not a token dict"):
        PredictedFeats().fit([[{"form": "dogs"}, "bark"]])
