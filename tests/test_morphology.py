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
    dogs = {"form": "dogs", "feats": {"Number": "Plur"}}
    for feats, error, message in [
        (1.5, TypeError, "FEATS 1.5: FEATS is a dict of features"),
        (["Number=Sing"], TypeError, r"FEATS \['Number=Sing'\]: FEATS is a dict of features"),
        ("Number", ValueError, "FEATS 'Number', not Name=Value pairs"),  # never reads back
        ("Number=Sing|", ValueError, r"FEATS 'Number=Sing\|', not Name=Value pairs"),
        ("", ValueError, "FEATS '', not Name=Value pairs"),
    ]:
        with pytest.raises(error, match=f"Example 1: token 0 has {message}"):
            PredictedFeats().fit([[dogs], [{"form": "cat", "feats": feats}]])


def test_feats_labels_read_back():
    # what load_conllu reads from a CoNLL-X FEATS column ("soort|ev") has empty values
    for feats in ({"Number": "Plur", "Case": "Nom"}, {"soort": "", "ev": ""}, None):
        assert feats_of_label(feats_label(feats)) == feats
    assert feats_label("_") == feats_label({}) == "_"
    assert feats_label("Number=Plur|Case=Nom") == "Case=Nom|Number=Plur"
