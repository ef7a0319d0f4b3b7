"""PredictedLemmas: edit scripts (every training lemma derived back from its form) and
the lemmatiser on real UD data."""

import pytest

from skstruct import PredictedLemmas, StructuredPerceptron, TokenFeatures, Viterbi
from skstruct.datasets import load_conllu
from skstruct.lemmas import apply_edit_script, edit_script
from skstruct.metrics import conll18_scores

CASES = [
    ("dogs", "dog"), ("Dogs", "dog"), ("studied", "study"), ("went", "go"), ("NASA", "NASA"),
    ("unhappy", "happy"), ("n't", "not"), ("Mr.", "Mr."), ("better", "good"), ("I", "I"),
    ("", ""), ("a", "a"), ("ÉTÉS", "été"), ("gegangen", "gehen"), ("x", "y"),
]  # fmt: skip


@pytest.mark.parametrize(("form", "lemma"), CASES)
def test_a_script_derives_its_lemma_from_its_form(form, lemma):
    assert apply_edit_script(form, edit_script(form, lemma)) == lemma


def test_scripts_are_shared_by_regular_forms():
    assert edit_script("dogs", "dog") == edit_script("Cats", "cat") == edit_script("RATS", "rat")
    assert edit_script("went", "go").startswith("=")


def test_every_lemma_of_english_ewt_round_trips(corpus):
    X, _ = load_conllu(corpus("ud-ewt") / "en_ewt-ud-dev.conllu")
    pairs = {(t["form"], t["lemma"]) for s in X for t in s}
    assert all(apply_edit_script(f, edit_script(f, lemma)) == lemma for f, lemma in pairs)
    scripts = {edit_script(f, lemma) for f, lemma in pairs}
    assert len(scripts) < len(pairs) / 5  # scripts generalise across words


def test_the_lemmatiser_learns_english_ewt(ewt_head):
    X, dev = ewt_head("train", 3000), ewt_head("dev", 500)
    lemmas = PredictedLemmas(max_iter=3, random_state=0).fit(X)
    predicted = lemmas.transform(dev)
    # the other fields are kept, the lemma replaced
    assert all(
        {**t, "lemma": p["lemma"]} == p for s, q in zip(dev, predicted) for t, p in zip(s, q)
    )
    assert conll18_scores(dev, predicted)["Lemmas"].f1 > 0.93
    assert lemmas.predict(dev[:2]) == [[t["lemma"] for t in s] for s in predicted[:2]]


def test_a_tagger_can_be_given():
    X = [[{"form": "dogs", "lemma": "dog"}, {"form": "ran", "lemma": "run"}]] * 3
    tagger = StructuredPerceptron(Viterbi(order=0), features=TokenFeatures(), max_iter=2)
    lemmas = PredictedLemmas(tagger, random_state=0).fit(X)
    assert lemmas.tagger_ is not tagger and not hasattr(tagger, "coef_")  # a clone is fitted
    assert lemmas.predict([[{"form": "dogs"}, {"form": "ran"}]]) == [["dog", "run"]]


def test_bad_input_is_named():
    with pytest.raises(ValueError, match=r"Example 0: token 0 \('dogs'\) is not a token dict"):
        PredictedLemmas().fit([["dogs"]])
    ran = {"form": "ran", "lemma": "run"}
    for lemma in (0, ["dog"], b"dog", {"lemma": "dog"}):  # not str: no edit script
        with pytest.raises(TypeError, match=r"Example 1: token 0 has the lemma .*a lemma is a"):
            PredictedLemmas().fit([[ran], [{"form": "dogs", "lemma": lemma}]])
    with pytest.raises(ValueError, match="No sentence of X has every lemma annotated"):
        PredictedLemmas().fit([[{"form": "dogs", "lemma": None}]])
