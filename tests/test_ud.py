"""The UD pipeline: PredictedTrees (a parser's heads, a labeller's relations) and
UDPipeline (every predicted column from the forms), on hand-made and real UD data."""

import pytest
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.model_selection import KFold

from skstruct import (
    ArcEager,
    ArcFeatures,
    ArcStandard,
    ChuLiuEdmonds,
    Eisner,
    PredictedRelations,
    PredictedTags,
    PredictedTrees,
    ReversedParser,
    StructuredPerceptron,
    StructuredSVM,
    TokenFeatures,
    UDPipeline,
    Viterbi,
    VotingParser,
    load,
    save,
)
from skstruct.metrics import conll18_scores
from skstruct.ud import VOTE_OF_THE_FIRST

FILLED = ("upos", "xpos", "feats", "lemma", "head", "deprel")


@pytest.fixture(scope="module")
def ewt(ewt_head):
    # sentences of up to 30 words: the grandparent graph parsers' time grows as n**4
    return ewt_head("train", 300, max_words=30), ewt_head("dev", 150)


def _bare(sentences):
    """The sentences as raw text gives them: forms (and ids), nothing predicted."""
    return [[{k: v for k, v in t.items() if k not in FILLED} for t in s] for s in sentences]


def test_trees_are_the_parsers_heads_with_the_labellers_relations(ewt):
    train, dev = ewt[0][:150], ewt[1]
    trees = PredictedTrees(order=1, max_iter=2, random_state=0).fit(train)
    parsed = trees.transform(dev)
    parser = StructuredSVM(
        Eisner(projectivize=True), features=ArcFeatures(fields=["lemma", "feats"]),
        C=0.03, tol=None, max_iter=2, random_state=0,
    ).fit(train, [[t["head"] for t in s] for s in train])  # fmt: skip
    heads = parser.predict(dev)
    assert [[t["head"] for t in s] for s in parsed] == [list(map(int, h)) for h in heads]
    relations = PredictedRelations(max_iter=2, random_state=0).fit(train)
    with_heads = [[{**t, "head": int(h)} for t, h in zip(s, hs)] for s, hs in zip(dev, heads)]
    expected = relations.predict(with_heads)
    assert [[t["deprel"] for t in s] for s in parsed] == expected
    assert trees.predict(dev[:3]) == [[(t["head"], t["deprel"]) for t in s] for s in parsed[:3]]
    # the parser and the labeller side by side: the same model
    side_by_side = PredictedTrees(order=1, max_iter=2, random_state=0, n_jobs=2).fit(train)
    assert side_by_side.transform(dev) == parsed
    scores = conll18_scores(dev, parsed)
    assert scores["UAS"].f1 > 0.7 and scores["LAS"].f1 > 0.6


def test_trees_need_gold_heads():
    with pytest.raises(ValueError, match=r"Example 0: token 1 has no integer 'head'"):
        PredictedTrees(fields=()).fit([[{"form": "a", "upos": "X", "head": 0}, {"form": "b"}]])


def test_pipeline_fills_every_predicted_column_from_the_forms(ewt):
    train, dev = ewt
    ud = UDPipeline(max_iter=2, random_state=0).fit(train)
    annotated = ud.transform(_bare(dev))
    assert list(ud.stages_) == ["tags", "feats", "lemmas", "trees"]
    for bare, done in zip(_bare(dev), annotated):
        for token, out in zip(bare, done):
            assert {k: v for k, v in out.items() if k not in FILLED} == token
            assert set(FILLED) <= set(out)
    scores = conll18_scores(dev, annotated)
    # measured with 300 training sentences (of up to 30 words) and 2 passes: UPOS 0.86,
    # XPOS 0.86, UFeats 0.87, Lemmas 0.94, UAS 0.65, LAS 0.57
    floors = {"UPOS": 0.83, "XPOS": 0.83, "UFeats": 0.83, "Lemmas": 0.9, "UAS": 0.6, "LAS": 0.5}
    for name, floor in floors.items():
        assert scores[name].f1 > floor, (name, scores[name].f1)
    # each stage reads what the ones before it predicted
    tagged = ud.stages_["tags"].transform(_bare(dev))
    for field in ("upos", "xpos"):
        assert [[t[field] for t in s] for s in tagged] == [[t[field] for t in s] for s in annotated]


def test_pipeline_n_jobs_changes_nothing_and_it_saves_and_loads(ewt, tmp_path):
    train, dev = ewt
    train, dev = train[:40], dev[:30]
    one = UDPipeline(max_iter=1, random_state=0).fit(train)
    two = UDPipeline(max_iter=1, n_jobs=2, random_state=0).fit(train)
    assert one.transform(_bare(dev)) == two.transform(_bare(dev))
    save(two, tmp_path / "ud.npz")
    assert load(tmp_path / "ud.npz").transform(_bare(dev)) == one.transform(_bare(dev))


def test_pipeline_takes_its_stages(ewt):
    train, _ = ewt
    trees = PredictedTrees(order=2, grandparents=True, fields=(), max_iter=1, random_state=0)
    ud = UDPipeline(trees=trees, max_iter=1, random_state=0).fit(train[:100])
    decoder = ud.stages_["trees"].parser_.decoder
    assert decoder.order == 2 and decoder.grandparents
    assert ud.trees is trees and not hasattr(trees, "parser_")  # a clone was fitted


def test_pipeline_names_a_missing_annotation():
    X = [[{"form": "dogs", "upos": "NOUN", "xpos": "NNS", "lemma": "dog", "feats": None,
           "head": 2, "deprel": "nsubj"},
          {"form": "bark", "upos": "VERB", "lemma": "bark", "feats": None, "head": 0,
           "deprel": "root"}]]  # fmt: skip
    with pytest.raises(ValueError, match=r"Example 0: token 1 has no 'xpos' tag"):
        UDPipeline(max_iter=1).fit(X)
    with pytest.raises(ValueError, match=r"Example 0: token 0 has a tab in a tag"):
        UDPipeline(max_iter=1).fit([[{**X[0][0], "xpos": "N\tN"}]])
    # checked before any stage reads a field (found by fuzzing: AttributeErrors before)
    with pytest.raises(ValueError, match=r"Example 1: token 0 \(7\) is not a token dict"):
        UDPipeline(max_iter=1).fit([X[0], [7]])
    tagged = [[{**t, "xpos": t.get("xpos", "VBP")} for t in X[0]]]
    with pytest.raises(TypeError, match=r"Example 0: token 1 has the lemma 3; a lemma is a"):
        UDPipeline(max_iter=1).fit([[tagged[0][0], {**tagged[0][1], "lemma": 3}]])
    with pytest.raises(TypeError, match=r"Example 0: token 0 has FEATS True: FEATS is a dict"):
        UDPipeline(max_iter=1).fit([[{**tagged[0][0], "feats": True}, tagged[0][1]]])


def _voters(voting):
    """The fitted parsers of a VotingParser, a ReversedParser's own inside it."""
    return [getattr(p, "parser_", p) for p in voting.parsers_]


@pytest.mark.parametrize("xpos", [True, False])
def test_the_default_parser_is_graph_and_transition_parsers_voting(xpos):
    ud = UDPipeline(max_iter=3, n_jobs=2, random_state=0)
    ud.corpora_ = []  # as fit sets it, with no tagged corpora
    trees = ud._stage("trees", xpos)
    voting = trees.parser
    # the labeller trains beside the parsers
    assert trees.n_jobs == 2
    assert isinstance(voting, VotingParser) and voting.n_jobs == 2
    assert isinstance(voting.decoder, ChuLiuEdmonds)
    named = dict(voting.parsers)
    # the grandparent SVM votes VOTE_OF_THE_FIRST, every other parser 1
    assert voting.weights == [VOTE_OF_THE_FIRST] + [1.0] * (len(named) - 1)
    pairs = [("eager", "auto"), ("eager_upos", "upos")] if xpos else [("eager", "auto")]
    names = [n for name, _ in pairs for n in (name, f"{name}_right_to_left")]
    # the two slowest first, so that the beam parsers' threads fill in beside them
    assert list(named) == ["graph", "graph_perceptron", *names, "standard"]
    # the same parts learnt twice: by the structured SVM and by the averaged perceptron
    for name, learner in [("graph", StructuredSVM), ("graph_perceptron", StructuredPerceptron)]:
        assert type(named[name]) is learner and named[name].max_iter == 3
        assert named[name].decoder.order == 2 and named[name].decoder.grandparents
        assert named[name].decoder.projectivize
        assert named[name].features.fields == ["lemma", "feats"]
    beams = [(named["standard"], ArcStandard, "auto")]
    for name, pos in pairs:
        assert isinstance(named[f"{name}_right_to_left"], ReversedParser)
        beams += [
            (named[name], ArcEager, pos),
            (named[f"{name}_right_to_left"].parser, ArcEager, pos),
        ]
    for parser, system, pos in beams:
        assert isinstance(parser.decoder, system) and parser.features.pos == pos
        assert parser.decoder.beam_size == 8 and parser.decoder.projectivize
        assert parser.update == "max_violation" and parser.max_iter == 3


def test_a_treebank_without_xpos_gets_one_pair_of_arc_eager_parsers(ewt):
    train, _ = ewt
    no_xpos = [[{**t, "xpos": "_"} for t in s] for s in train[:30]]
    ud = UDPipeline(max_iter=1, random_state=0).fit(no_xpos)
    assert list(ud.stages_["trees"].parser_.named_parsers_) == [
        "graph", "graph_perceptron", "eager", "eager_right_to_left", "standard",
    ]  # fmt: skip
    parsed = ud.transform(train[:5])
    assert all(t["xpos"] == "_" and t["head"] is not None for s in parsed for t in s)


def test_pipeline_default_passes(ewt):
    """max_iter=None: each default stage its own passes (20 for the tagger's SVM, 10 for
    the others); an int sets every stage."""
    train, _ = ewt
    ud = UDPipeline(random_state=0).fit(train[:20])
    assert ud.stages_["tags"].tagger_.n_iter_ == 20
    assert all(p.n_iter_ == 10 for p in _voters(ud.stages_["trees"].parser_))
    assert ud.stages_["feats"].tagger_.n_iter_ == 10
    assert ud.set_params(max_iter=2).fit(train[:20]).stages_["tags"].tagger_.n_iter_ == 2


class _Seen(TransformerMixin, BaseEstimator):
    """A stage that keeps what it learnt from and changes nothing."""

    def fit(self, X, y=None):
        self.X_ = X
        return self

    def transform(self, X):
        return X


def _tags(X):
    return [[(t["upos"], t["xpos"]) for t in s] for s in X]


def test_cross_fitted_tags_are_the_fold_taggers(ewt):
    """cv: the parser learns from each fold tagged by a tagger trained on the other
    folds (a brute-force twin of the cross-fitting), the morphological tagger and the
    lemmatiser from the tagger's own output; the pipeline tags with the tagger trained
    on all; n_jobs changes nothing."""
    train, dev = ewt[0][:60], ewt[1][:20]
    tagger = PredictedTags(StructuredPerceptron(Viterbi(), features=TokenFeatures(),
                                                max_iter=2, random_state=0),
                           field=("upos", "xpos"))  # fmt: skip
    stages = {"tags": tagger, "feats": _Seen(), "lemmas": _Seen(), "trees": _Seen()}
    cv = KFold(3)
    expected = [None] * len(train)
    for fit_on, tag in cv.split(train):
        fold = clone(tagger).fit([train[i] for i in fit_on])
        for i, sentence in zip(tag, fold.transform([train[i] for i in tag])):
            expected[i] = sentence
    whole = clone(tagger).fit(train)
    own = whole.transform(train)
    assert _tags(own) != _tags(expected)
    for n_jobs in (None, 2):
        ud = UDPipeline(**stages, cv=cv, n_jobs=n_jobs).fit(train)
        assert _tags(ud.stages_["trees"].X_) == _tags(expected)
        assert _tags(ud.stages_["feats"].X_) == _tags(ud.stages_["lemmas"].X_) == _tags(own)
        assert _tags(ud.transform(_bare(dev))) == _tags(whole.transform(_bare(dev)))
    # cv=None: the parser learns from the tagger's own output too
    assert _tags(UDPipeline(**stages, cv=None).fit(train).stages_["trees"].X_) == _tags(own)
    # an int: shuffled folds, the same for the same random_state
    runs = [UDPipeline(**stages, cv=3, random_state=0).fit(train) for _ in range(2)]
    assert _tags(runs[0].stages_["trees"].X_) == _tags(runs[1].stages_["trees"].X_)
    assert _tags(runs[0].stages_["trees"].X_) not in (_tags(own), _tags(expected))
    # "auto" (the default): five folds, or none for fewer than five sentences
    five = UDPipeline(**stages, cv=5, random_state=0).fit(train).stages_["trees"].X_
    assert _tags(UDPipeline(**stages, random_state=0).fit(train).stages_["trees"].X_) == _tags(five)
    assert _tags(five) != _tags(own)
    few = UDPipeline(**stages, random_state=0).fit(train[:4]).stages_["trees"].X_
    assert _tags(few) == _tags(clone(tagger).fit(train[:4]).transform(train[:4]))
    with pytest.raises(ValueError, match=r"cv=61: cross-fitting needs 2 <= cv <= the number "):
        UDPipeline(**stages, cv=61).fit(train)
    halves = [(list(range(30)), list(range(30, 60)))]
    with pytest.raises(ValueError, match=r"leaves 30 sentences in no test fold \(the first: 0\)"):
        UDPipeline(**stages, cv=halves).fit(train)


class _CountedFits(_Seen):
    """A tagger stage that counts the fits of all its clones."""

    fits = []

    def fit(self, X, y=None):
        self.fits.append(len(X))
        return super().fit(X, y)


def test_cross_fitting_checks_its_folds_before_any_tagger_trains(ewt):
    """Folds that leave a sentence untagged are an error raised before the k + 1
    taggers train (hours on a real treebank), not after."""
    train = ewt[0][:60]
    _CountedFits.fits.clear()
    stages = {"tags": _CountedFits(), "feats": _Seen(), "lemmas": _Seen(), "trees": _Seen()}
    halves = [(list(range(30)), list(range(30, 60)))]
    with pytest.raises(ValueError, match=r"leaves 30 sentences in no test fold"):
        UDPipeline(**stages, cv=halves).fit(train)
    assert _CountedFits.fits == []
    UDPipeline(**stages, cv=KFold(3)).fit(train)  # the same stage does train on good folds
    assert sorted(_CountedFits.fits) == [40, 40, 40, 60]
