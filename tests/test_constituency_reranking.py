"""n-best constituency parsing and its reranking: k-best CKY against enumerating every
tree of the pruned space, ``predict_nbest`` of a CKY parser, Collins' head rules, the
global tree features against hand counts, and NBestReranker over a CKY parser
(bracket losses, EVALB scores, reusable jack-knifed lists, sentences a fold cannot
parse)."""

from collections import Counter

import numpy as np
import pytest

from skstruct import (
    CKY,
    BestCandidate,
    Eisner,
    JackknifedLists,
    NBestReranker,
    PassiveAggressive,
    StructuredPerceptron,
    load,
    save,
)
from skstruct._kernels.anchored_cky import best_tree
from skstruct._kernels.kbest_cky import kbest_trees
from skstruct.features import ConstituentTreeFeatures
from skstruct.metrics import evalb
from skstruct.structures._cky_charts import new_charts
from skstruct.structures.constituency import UNPARSED
from skstruct.trees import Tree, head_child, normalize

from .test_constituency import _cases

# -- k-best CKY against enumeration -------------------------------------------------------------


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("density", [1.0, 0.6])
def test_kbest_cky_lists_the_best_trees_of_the_pruned_space(seed, density):
    rng = np.random.default_rng(seed)
    for structure, n, scores, outputs in _cases(seed, density, 256):
        g, k = structure.grammar, int(rng.integers(1, 12))
        if seed % 2:  # ties
            scores = scores._replace(coef=np.round(scores.coef))
        found, totals = kbest_trees(scores.atoms, scores.allowed, g.binary, g.left_start,
                                    g.unary, structure.root_ok, scores.coef, 256, k)  # fmt: skip
        every = sorted((structure.score(scores, output) for output in outputs), reverse=True)
        assert found.shape == (min(k, len(outputs)), 6 * n - 5)
        np.testing.assert_allclose(totals, every[: len(totals)], atol=1e-9)
        assert len({output.tobytes() for output in found}) == len(found)  # no tree twice
        listed = {output.tobytes() for output in outputs}
        for output, total in zip(found, totals):
            assert output.tobytes() in listed
            assert structure.score(scores, output) == pytest.approx(total, abs=1e-9)
        if len(found) and seed % 2 == 0:  # distinct scores: the 1-best kernel's tree first
            out = np.empty(6 * n - 5, dtype=np.int32)
            none = np.zeros((1, 1, 1))
            best_tree(scores.atoms, scores.allowed, g.binary, g.left_start, g.unary,
                      structure.root_ok, scores.coef, 256, none, none, False, out,
                      new_charts(n, g.n_symbols))  # fmt: skip
            np.testing.assert_array_equal(found[0], out)


# -- a CKY parser's n-best lists ---------------------------------------------------------------


@pytest.fixture(scope="module")
def treebank(corpus):
    from skstruct.datasets import load_ptb

    folder = corpus("treebank")
    trees = [t for t in load_ptb(folder / "train.mrg") if len(normalize(t).leaves()) <= 15]
    # sentences of common tags only, so that every fold's model parses the others
    tagged = [normalize(tree).pos() for tree in trees]
    frequency = Counter(tag for sentence in tagged for tag in {t for _, t in sentence})
    common = [i for i, s in enumerate(tagged) if all(frequency[t] >= 80 for _, t in s)]
    trees, tagged = [trees[i] for i in common[:120]], [tagged[i] for i in common[:120]]
    return tagged, trees


@pytest.fixture(scope="module")
def parser(treebank):
    X, y = treebank
    return StructuredPerceptron(CKY(horizontal=0), max_iter=3, random_state=0).fit(X, y)


def test_predict_nbest_lists_a_parsers_best_trees(treebank, parser):
    X, _ = treebank
    lists = parser.predict_nbest(X[:30], k=6)
    predicted = parser.predict(X[:30])
    encoded = parser.encode(X[:30])
    longer = 0
    for i, (best, tree) in enumerate(zip(lists, predicted)):
        assert 1 <= len(best) <= 6 and best[0][0] == tree
        scores = [score for _, score in best]
        assert scores == sorted(scores, reverse=True)
        assert len({str(t) for t, _ in best}) == len(best)
        # each score is the model's score of that tree
        for candidate, score in best:
            output = parser.structure_.encode_tree(
                parser.transform_.transform([candidate])[0], len(X[i])
            )
            part_scores = parser.structure_.scores(encoded, i, parser.coef_)
            assert parser.structure_.score(part_scores, output) == pytest.approx(score)
        longer += len(best) > 1
    assert longer >= 20


def test_a_sentence_without_a_tree_gets_its_flat_tree():
    trees = [Tree.fromstring("( (S (NP (DT the) (NN dog)) (VP (VBZ barks))) )")] * 2
    X = [tree.pos() for tree in trees]
    model = StructuredPerceptron(CKY(), max_iter=1, random_state=0).fit(X, trees)
    unparsable = [("barks", "VBZ"), ("the", "DT")]  # no rule puts a VBZ first
    ((tree, score),) = model.predict_nbest([unparsable], k=5)[0]
    assert score == -np.inf and tree == model.predict([unparsable])[0]
    assert str(tree) == "( (S (VBZ barks) (DT the)))"
    scores = model.structure_.scores(model.encode([unparsable]), 0, model.coef_)
    ((output, _),) = model.decoder_.nbest(model.structure_, scores, 5)
    assert output[0] == UNPARSED


def test_fixed_labels_are_refused_where_there_are_no_token_labels(parser, treebank):
    X, _ = treebank
    with pytest.raises(ValueError, match="CKY does not label tokens"):
        parser.predict(X[:1], fixed=[None])
    dependency = StructuredPerceptron(Eisner(), max_iter=1).fit(
        [[{"form": "a", "xpos": "A"}, {"form": "b", "xpos": "B"}]], [[0, 1]]
    )
    with pytest.raises(ValueError, match="Eisner does not label tokens"):
        dependency.predict_nbest([[{"form": "a", "xpos": "A"}]], fixed=[{0: 0}])


# -- head rules and global features --------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "children", "head"),
    [
        ("VP", ["VBD", "NP", "PP"], 0),
        ("VP", ["MD", "VP"], 0),
        ("VP", ["ADVP", "VBZ", "NP"], 1),
        ("S", ["NP-SBJ", "VP", "."], 1),
        ("PP", ["IN", "NP"], 0),
        ("SBAR", ["IN", "S"], 0),
        ("ADJP", ["RB", "JJ"], 1),
        ("ADVP", ["RB", "RB"], 1),  # searched from the right
        ("NP", ["DT", "JJ", "NN", "NNS"], 3),
        ("NP", ["NP", "POS"], 1),  # the possessive marker
        ("NP", ["NP", "PP"], 0),  # no noun tag: the first NP
        ("NP", ["NP", ",", "NP"], 0),
        ("NP", ["DT", "CD"], 1),
        ("NP-SBJ-1", ["PRP"], 0),  # function tags ignored; nothing found: the last child
        ("FRAG", ["NP", "PP"], 1),  # no priority list: the first from its side
        ("XYZ", ["A", "B"], 0),  # unknown labels: the first child
    ],
)
def test_head_child_follows_collins_rules(label, children, head):
    assert head_child(label, children) == head


def test_head_child_refuses_a_constituent_without_children():
    with pytest.raises(ValueError, match="without children has no head"):
        head_child("NP", [])


def test_constituent_features_count_the_configurations_of_a_tree():
    tree = Tree.fromstring(
        "( (S (NP (NP (DT the) (NN dog)) (CC and) (NP (DT a) (NN cat))) (VP (VBZ bark)) (. .)) )"
    )
    features = ConstituentTreeFeatures()(tree.pos(), tree)
    expected = {
        "rule=S>NP VP .": 1.0,
        "rule=NP>DT NN": 2.0,
        "rule^=S|NP>NP CC NP": 1.0,
        "rule^=NP|NP>DT NN": 2.0,
        "hrule=NP>NP CC NP|NN": 1.0,
        "dep=S|VBZ|NP|NN|L": 1.0,  # the subject's head noun is "dog" (the first NP)
        "dep=S|VBZ|.|.|R": 1.0,
        "dep=NP|NN|DT|DT|L": 2.0,
        "depw=S|bark|NP|NN": 1.0,
        "ngram=NP|NP|CC": 1.0,
        "heavy=NP|5-6|2|-": 1.0,  # 5 words, 2 from the end, no punctuation after
        "heavy=VP|1|1|P": 1.0,
        "edge=VP|1|NN|VBZ": 1.0,
        "edge=VP|1|VBZ|.|R": 1.0,
        "edgew=NP|the": 2.0,
        "word=dog|NP|NP": 1.0,
        "word=and|NP|S": 1.0,
        "copar=NP|NP|NP": 1.0,
        "copar_len=True|0": 1.0,
        "copar_kids=NP|True": 1.0,
        "rbranch=2": 1.0,  # S and VP lead to "bark", the last word before the stop
        "rbranch_off=3": 1.0,
        "size=2": 1.0,  # 5 constituents over 7 words: int(4 * 5 / 7)
    }
    assert {key: features.get(key) for key in expected} == expected
    assert sum(v for k, v in features.items() if k.startswith("rule=")) == 5
    lexical = ConstituentTreeFeatures(words=False)(tree.pos(), tree)
    assert not any(k.startswith(("depw=", "edgew=", "word=")) for k in lexical)
    assert {k: v for k, v in features.items() if k in lexical} == lexical


def test_constituent_features_refuse_what_is_no_tree_of_the_sentence():
    tree = Tree.fromstring("( (S (NN it) (VBZ works)) )")
    with pytest.raises(TypeError, match="reads Trees, got list"):
        ConstituentTreeFeatures()(tree.pos(), [1, 2])
    with pytest.raises(ValueError, match="A tree of 2 words over a sentence of 3 words"):
        ConstituentTreeFeatures()([*tree.pos(), ("x", "NN")], tree)


# -- the reranker over a CKY parser ----------------------------------------------------------------


def _reranker(**params):
    base = StructuredPerceptron(CKY(horizontal=0), max_iter=2, random_state=0)
    settings = {"n_best": 4, "cv": 2, "random_state": 0, **params}
    return NBestReranker(base, ConstituentTreeFeatures(), **settings)


def _bracket_loss(tree, gold):
    scores = evalb([gold], [tree])
    return scores.gold_brackets + scores.predicted_brackets - 2 * scores.matched


def test_reranker_reranks_trees_by_bracket_loss(treebank):
    X, y = treebank
    reranker = _reranker()
    lists = reranker.jackknife(X[:80], y[:80])
    assert isinstance(lists, JackknifedLists) and len(lists.lists) == 80
    reranker.fit(X[:80], y[:80], lists=lists)
    assert reranker.base_ is lists.base and reranker.n_unlisted_ == 0
    oracle = [min(best, key=lambda c, g=gold: _bracket_loss(c[0], g))[0]
              for best, gold in zip(lists.lists, y[:80])]  # fmt: skip
    assert reranker.oracle_score_ == pytest.approx(evalb(y[:80], oracle).f1 / 100)
    predicted = reranker.predict(X[80:])
    candidates = reranker.base_.predict_nbest(X[80:], k=4)
    for tree, best in zip(predicted, candidates):
        assert isinstance(tree, Tree) and tree in [t for t, _ in best]
    assert reranker.score(X[80:], y[80:]) == pytest.approx(evalb(y[80:], predicted).f1 / 100)
    # the same lists again, another learner: no second jack-knife, and fit alone agrees
    pa = PassiveAggressive(BestCandidate(), max_iter=3, random_state=0)
    again = _reranker(learner=pa).fit(X[:80], [str(t) for t in y[:80]], lists=lists)
    assert again.base_ is lists.base
    fresh = _reranker(learner=pa).fit(X[:80], y[:80])
    np.testing.assert_array_equal(fresh.reranker_.coef_, again.reranker_.coef_)
    with pytest.raises(ValueError, match="JackknifedLists of 79 lists"):
        _reranker().fit(X[:79], y[:79], lists=lists)


def test_sentences_a_fold_cannot_parse_are_left_out_with_a_warning(treebank):
    X, y = treebank
    X, y = list(X[:40]), list(y[:40])
    # a tag only one sentence has: the folds' model without it cannot parse it
    words = ["Ah", "well"]
    X.append([(words[0], "UH"), (words[1], "RB")])
    y.append(Tree.fromstring("( (FRAG (INTJ (UH Ah)) (ADVP (RB well))) )"))
    reranker = _reranker()
    with pytest.warns(UserWarning, match=r"1 training sentences have no jack-knifed list.*'UH'"):
        reranker.fit(X, y)
    assert reranker.n_unlisted_ == 1
    assert isinstance(reranker.jackknife(X, y).lists[40], str)
    assert isinstance(reranker.predict(X[-1:])[0], Tree)  # the full base model parses it
    unlisted = JackknifedLists(reranker.base_, ["sentence 0: why", "sentence 1: why"])
    with pytest.raises(ValueError, match="No training sentence has a jack-knifed list"):
        _reranker().fit(X[:2], y[:2], lists=unlisted)


def test_a_constituency_reranker_saves_and_loads(treebank, tmp_path):
    X, y = treebank
    reranker = _reranker(cv=2).fit(X[:40], y[:40])
    save(reranker, tmp_path / "reranker.npz")
    loaded = load(tmp_path / "reranker.npz")
    assert loaded.predict(X[40:50]) == reranker.predict(X[40:50])
    assert isinstance(loaded.get_params()["features"], ConstituentTreeFeatures)
