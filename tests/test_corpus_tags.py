"""CorpusTags: ambiguity classes against a counting twin, the guide's field against the
guide itself, the named corpora as read from the data folder, and UDPipeline's use of
them (the tagger reads the fields, the output does not have them)."""

import pytest
from sklearn.base import clone

from skstruct import CorpusTags, PredictedTags, StructuredSVM, TokenFeatures, UDPipeline, Viterbi
from skstruct.corpus_tags import UNKNOWN, brown_base_tag

WORDS = [["The", "can", "rusts"], ["We", "can", "go"], ["the", "dog", "can", "go"]] * 3
TAGS = [["at", "nn", "vbz"], ["pp", "md", "vb"], ["at", "nn", "md", "vb"]] * 3


def tagged():
    return WORDS, TAGS


def _classes(words, tags, min_share):
    """Each lower-cased word's tags with at least min_share of its occurrences: one
    pass per word type over every token."""
    out = {}
    for word in {w.lower() for s in words for w in s}:
        seen = [t for s, ts in zip(words, tags) for w, t in zip(s, ts) if w.lower() == word]
        out[word] = "|".join(sorted({t for t in seen if seen.count(t) / len(seen) >= min_share}))
    return out


@pytest.mark.parametrize("min_share", [0.05, 0.3, 0.5, 1.0])
def test_ambiguity_classes_equal_their_counting_twin(min_share):
    words = [*WORDS, ["can", "can"]]  # "can": nn 6, md 6, and 2 more of each below
    tags = [*TAGS, ["md", "nn"]]
    fitted = CorpusTags(lambda: (words, tags), min_share=min_share).fit([])
    assert fitted.lexicon_ == _classes(words, tags, min_share)
    assert fitted.guide_ is None and fitted.fields_ == ("corpus",)


def test_transform_fills_the_fields_and_keeps_the_tokens():
    X = [[{"form": "THE", "upos": "DET"}, {"form": "Can"}, {"form": "unseen"}]]
    fitted = CorpusTags(tagged, field="lex", guide=True, max_iter=3, random_state=0).fit(X)
    assert fitted.fields_ == ("lex", "lex_guide")
    out = fitted.transform(X)
    assert [t["lex"] for t in out[0]] == ["at", "md|nn", UNKNOWN]
    assert [t["lex_guide"] for t in out[0]] == fitted.guide_.predict([["THE", "Can", "unseen"]])[0]
    assert out[0][0]["upos"] == "DET" and "lex" not in X[0][0]  # copies, the rest kept


def test_guide_auto_follows_the_source():
    assert CorpusTags(tagged).fit([]).guide_ is None  # a function: no guide unless asked
    assert CorpusTags(tagged, guide=True, max_iter=1).fit([]).guide_ is not None


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (lambda: WORDS, "must return \\(sentences, tags\\)"),
        (lambda: (WORDS, TAGS[:-1]), "9 sentences and 8 tag sequences"),
        (lambda: ([], []), "at least one"),
        (lambda: ([["a", "b"]], [["x"]]), "source sentence 0 is not"),
        (lambda: ([["a", 3]], [["x", "y"]]), "source sentence 0 is not"),
    ],
)
def test_a_bad_source_is_named(source, message):
    with pytest.raises(ValueError, match=message):
        CorpusTags(source).fit([])


def test_bad_tokens_are_named():
    fitted = CorpusTags(tagged).fit([])
    with pytest.raises(ValueError, match="Example 1: token 0"):
        fitted.transform([[{"form": "a"}], [{"lemma": "b"}]])


def test_named_corpora_read_from_the_data_folder():
    conll = CorpusTags("conll2000").fit([])
    assert conll.guide_ is None and conll.fields_ == ("conll2000",)
    assert conll.lexicon_["the"] == "DT" and conll.lexicon_["can"] == "MD"
    brown = CorpusTags("brown", guide=False).fit([])
    assert brown.lexicon_["the"] == "at" and brown.lexicon_["can"] == "md"
    assert len({t for c in brown.lexicon_.values() for t in c.split("|")}) <= 168


def test_brown_base_tags():
    assert [brown_base_tag(t) for t in ("np$-tl", "bez*", "fw-in+at", "--", "nn-hl", "*")] == [
        "np$", "bez", "fw", "--", "nn", "*",
    ]  # fmt: skip


def _ud(n):
    tokens = [("the", "DET", "DT", 2, "det"), ("can", "NOUN", "NN", 3, "nsubj"),
              ("rusts", "VERB", "VBZ", 0, "root")]  # fmt: skip
    keys = ("form", "upos", "xpos", "head", "deprel")
    return [[{**dict(zip(keys, t)), "lemma": t[0], "feats": None} for t in tokens]] * n


def test_the_pipeline_stages_read_the_corpora_and_the_output_drops_them():
    X = _ud(6)
    corpora = [CorpusTags(tagged, field="lex", guide=True, max_iter=2, random_state=0)]
    ud = UDPipeline(corpora=corpora, max_iter=2, random_state=0).fit(X)
    out = ud.transform(X)
    assert not {"lex", "lex_guide"} & {k for s in out for t in s for k in t}
    # the tags stage is the tagger trained on the corpora's fields
    read = ud.corpora_[0].transform(X)
    features = TokenFeatures(window=2, suffix_length=5, columns=["lex", "lex_guide"])
    tagger = StructuredSVM(Viterbi(order=1), features=features, C=0.3, tol=None, max_iter=2,
                           random_state=0)  # fmt: skip
    alone = PredictedTags(tagger, field=("upos", "xpos")).fit(read).transform(read)
    assert [[t["xpos"] for t in s] for s in out] == [[t["xpos"] for t in s] for s in alone]
    assert ud.stages_["tags"].tagger_.features.columns == ["lex", "lex_guide"]
    graph = ud.stages_["trees"].parser_.named_parsers_["graph"]
    assert graph.features.fields == ["lemma", "feats", "lex"]  # the ambiguity class


@pytest.mark.parametrize(
    ("corpora", "message"),
    [
        (["wikipedia"], "corpora\\[0\\] is 'wikipedia'"),
        ([CorpusTags(tagged), CorpusTags(tagged)], "each needs a name of its own"),
        ([CorpusTags(tagged, field="upos")], "not one of"),
    ],
)
def test_bad_corpora_are_named(corpora, message):
    with pytest.raises(ValueError, match=message):
        UDPipeline(corpora=corpora, max_iter=1).fit(_ud(2))


def test_named_corpora_take_the_pipeline_seed():
    ud = UDPipeline(corpora=["conll2000"], random_state=3)
    assert [c.get_params() for c in ud._corpora()] == [
        clone(CorpusTags("conll2000", random_state=3)).get_params()
    ]
