"""n-best reranking: k-best Eisner against enumerating every projective tree, the
parsers' ``predict_nbest``, the global tree features against hand counts, and
NBestReranker's estimator contract (jack-knifing, n_jobs, GridSearchCV, bad input)."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV

from skstruct import (
    BestCandidate,
    ChuLiuEdmonds,
    ConditionalRandomField,
    Eisner,
    ExponentiatedGradientSSVM,
    NBestReranker,
    ParameterMixing,
    PassiveAggressive,
    StructuredPerceptron,
    Viterbi,
    load,
    save,
)
from skstruct._kernels.kbest_tree import kbest_eisner, kbest_eisner2
from skstruct._kernels.tree_search import eisner, eisner2
from skstruct.features import DependencyTreeFeatures, EntityFeatures

from .naive import all_trees, tree_score

# -- k-best Eisner against enumeration ----------------------------------------------------------


@pytest.mark.parametrize("order", [1, 2])
@pytest.mark.parametrize("seed", range(6))
def test_kbest_eisner_lists_the_best_projective_trees(seed, order):
    rng = np.random.default_rng(seed)
    for _ in range(25):
        n, k = int(rng.integers(1, 6)), int(rng.integers(1, 40))
        arc, sib = rng.normal(size=(n + 1, n + 1)), rng.normal(size=(n + 1, n + 1, n + 1))
        if seed % 2:
            arc, sib = np.round(arc), np.round(sib)  # ties
        if order == 1:
            heads, scores = kbest_eisner(arc, n, k)
        else:
            heads, scores = kbest_eisner2(arc, sib, n, k)
        parts = {"arc": arc, "sib": None if order == 1 else sib}
        trees = {tuple(h) for h in all_trees(n, projective=True)}
        expected = sorted((tree_score(list(h), **parts) for h in trees), reverse=True)[:k]
        np.testing.assert_allclose(scores, expected, atol=1e-9)
        assert len({tuple(h) for h in heads}) == len(heads)  # no tree twice
        for h, score in zip(heads, scores):
            assert tuple(h) in trees
            assert tree_score(list(h), **parts) == pytest.approx(score)
        if seed % 2 == 0:  # distinct scores: the best is the 1-best kernel's tree
            best = eisner(arc, n) if order == 1 else eisner2(arc, sib, n)
            np.testing.assert_array_equal(heads[0], best)


def test_kbest_eisner_leaves_out_trees_through_forbidden_arcs():
    arc = np.zeros((4, 4))
    arc[:, 2] = -np.inf
    arc[1, 2] = 0.5  # word 2 can only hang from word 1
    heads, scores = kbest_eisner(arc, 3, 50)
    trees = [h for h in all_trees(3, projective=True) if h[2] == 1]
    assert len(heads) == len(trees) and np.isfinite(scores).all()
    assert all(h[2] == 1 for h in heads)


# -- predict_nbest of a parser ------------------------------------------------------------------


def _treebank(n_sentences=40, seed=0):
    """Short sentences of tagged words with projective trees (each word's head a
    neighbour or the root), the head chosen by the tags so that a parser can learn it."""
    rng = np.random.default_rng(seed)
    X, y = [], []
    for _ in range(n_sentences):
        n = int(rng.integers(2, 7))
        root = int(rng.integers(1, n + 1))
        tags = [["NN", "VB", "DT", "JJ"][int(rng.integers(4))] for _ in range(n)]
        X.append([{"form": f"w{int(rng.integers(15))}", "xpos": t} for t in tags])
        y.append([0 if d == root else (d + 1 if d < root else d - 1) for d in range(1, n + 1)])
    return X, y


@pytest.fixture(scope="module")
def parser():
    X, y = _treebank()
    return StructuredPerceptron(Eisner(), max_iter=3, random_state=0).fit(X, y), X


@pytest.mark.parametrize("order", [1, 2])
@pytest.mark.parametrize("single_root", [True, False])
def test_predict_nbest_gives_the_best_trees_under_the_model(single_root, order):
    X, y = _treebank()
    decoder = Eisner(order=order, single_root=single_root)
    model = StructuredPerceptron(decoder, max_iter=3, random_state=0).fit(X, y)
    lists = model.predict_nbest(X[:8], k=7)
    assert [best[0][0] for best in lists] == model.predict(X[:8])
    encoded = model.encode(X[:8])
    for i, best in enumerate(lists):
        scores = model.structure_.scores(encoded, i, model.coef_)
        parts = {"arc": scores.arc, "sib": scores.sib if order == 2 else None}
        trees = all_trees(scores.n, projective=True, single_root=single_root)
        expected = sorted((tree_score(h, **parts) for h in trees), reverse=True)[:7]
        np.testing.assert_allclose([score for _, score in best], expected, atol=1e-9)
        for heads, score in best:
            assert tree_score([-1, *heads], **parts) == pytest.approx(score)
        assert len({tuple(heads) for heads, _ in best}) == len(best)


def test_labelled_parsers_list_trees_with_their_best_labels():
    X, heads = _treebank()
    y = [[(h, "root" if h == 0 else "dep" if d % 2 else "mod") for d, h in enumerate(s)]
         for s in heads]  # fmt: skip
    model = StructuredPerceptron(Eisner(), max_iter=3, random_state=0).fit(X, y)
    lists = model.predict_nbest(X[:5], k=4)
    assert [best[0][0] for best in lists] == model.predict(X[:5])
    for best in lists:
        assert all(isinstance(pair, tuple) and len(pair) == 2 for pair in best[0][0])
        assert len({tuple(h for h, _ in tree) for tree, _ in best}) == len(best)


def test_nbest_needs_a_projective_parser():
    X, y = _treebank(12)
    mst = StructuredPerceptron(ChuLiuEdmonds(), max_iter=1, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match=r"ChuLiuEdmonds has no n-best search"):
        mst.predict_nbest(X[:1])


# -- global features ----------------------------------------------------------------------------


def test_tree_features_count_the_configurations_of_a_tree():
    # "the old dog barks": the -> dog, old -> dog, dog -> barks, barks -> root
    sentence = [{"form": w, "xpos": t} for w, t in
                [("the", "DT"), ("old", "JJ"), ("dog", "NN"), ("Barks", "VBZ")]]  # fmt: skip
    features = DependencyTreeFeatures(words=False)(sentence, [3, 3, 4, 0])
    assert features == {
        "gp=VBZ|NN|DT|L": 1.0,
        "gp=VBZ|NN|JJ|L": 1.0,
        "gp=<root>|VBZ|NN|L": 1.0,
        "gp=-|<root>|VBZ|R": 1.0,
        "val=DT|0|0": 1.0,
        "val=JJ|0|0": 1.0,
        "val=NN|2|0": 1.0,
        "val=VBZ|1|0": 1.0,
        "edge=DT|DT|DT": 1.0,
        "edge=JJ|JJ|JJ": 1.0,
        "edge=NN|DT|NN": 1.0,
        "edge=VBZ|DT|VBZ": 1.0,
        "sib=NN|-|JJ|L": 1.0,
        "sib=NN|JJ|DT|L": 1.0,
        "sib=VBZ|-|NN|L": 1.0,
        "sib=<root>|-|VBZ|R": 1.0,
        "heavy=DT|1|L": 1.0,
        "heavy=JJ|1|L": 1.0,
        "heavy=NN|3-5|L": 1.0,
        "heavy=VBZ|3-5|R": 1.0,
        "root=VBZ": 1.0,
        "root_n=1": 1.0,
        "depth=3": 1.0,
        "crossing=0": 1.0,
    }
    words = DependencyTreeFeatures()(sentence, [(3, "det"), (3, "amod"), (4, "nsubj"), (0, "root")])
    assert words["gpw=VBZ|dog|DT|L"] == 1.0 and words["sibw=barks|-|NN|L"] == 1.0
    assert words["gpr=VBZ|NN|det"] == 1.0
    crossing = DependencyTreeFeatures(words=False)(sentence, [3, 4, 0, 3])
    assert crossing["crossing=2"] == 1.0  # 4 -> 2 crosses 3 -> 1 and root -> 3


def test_tree_features_refuse_what_is_no_tree_over_the_sentence():
    sentence = [{"form": "a", "xpos": "DT"}, {"form": "b", "xpos": "NN"}]
    with pytest.raises(ValueError, match="A tree of 3 heads over a sentence of 2 words"):
        DependencyTreeFeatures()(sentence, [2, 0, 1])
    with pytest.raises(ValueError, match="Word 2 has the head 5"):
        DependencyTreeFeatures()(sentence, [2, 5])
    with pytest.raises(ValueError, match=r"Not a tree: words \[1, 2\] do not reach the root"):
        DependencyTreeFeatures()(sentence, [2, 1])


# -- the reranker -------------------------------------------------------------------------------


def _reranker(**params):
    base = StructuredPerceptron(Eisner(), max_iter=2, random_state=0)
    settings = {"n_best": 5, "cv": 3, "random_state": 0, **params}
    return NBestReranker(base, DependencyTreeFeatures(), **settings)


def test_reranker_fits_jackknifed_lists_and_predicts_trees():
    X, y = _treebank(60)
    reranker = _reranker().fit(X[:45], y[:45])
    predicted = reranker.predict(X[45:])
    assert [len(p) for p in predicted] == [len(s) for s in X[45:]]
    candidates = reranker.base_.predict_nbest(X[45:], k=5)
    for tree, best in zip(predicted, candidates):
        assert tree in [output for output, _ in best]
    assert 0.0 <= reranker.score(X[45:], y[45:]) <= 1.0
    assert reranker.oracle_score_ >= 0.5 and reranker.base_scale_ > 0
    # the default learner: Collins' averaged reranking perceptron
    assert isinstance(reranker.reranker_.decoder_, BestCandidate)


def test_reranker_results_do_not_depend_on_n_jobs():
    X, y = _treebank(40)
    one = _reranker(n_jobs=1).fit(X, y)
    two = _reranker(n_jobs=2).fit(X, y)
    assert one.predict(X) == two.predict(X)
    np.testing.assert_array_equal(one.reranker_.coef_, two.reranker_.coef_)


def test_reranker_reranks_a_tagger_with_any_candidate_learner():
    X = [[{"w": w} for w in sentence] for sentence in (["a", "b"], ["b", "a", "b"], ["a"])] * 4
    y = [["A" if t["w"] == "a" else "B" for t in s] for s in X]

    def label_counts(x, labels):
        return {f"n_{label}": float(labels.count(label)) for label in set(labels)}

    reranker = NBestReranker(
        StructuredPerceptron(Viterbi(), max_iter=3, random_state=0), label_counts,
        PassiveAggressive(BestCandidate(), max_iter=5, random_state=0), n_best=3, cv=2,
        random_state=0,
    ).fit(X, y)  # fmt: skip
    assert reranker.predict(X[:3]) == y[:3]
    assert reranker.score(X, y) == 1.0
    mixed = ParameterMixing(
        StructuredPerceptron(BestCandidate(), max_iter=1, random_state=0), n_shards=2,
        max_iter=3, n_jobs=1, random_state=0,
    )  # fmt: skip
    again = clone(reranker).set_params(learner=mixed).fit(X, y)
    assert again.score(X, y) == 1.0


def test_reranker_tunes_in_grid_search_and_clones():
    X, y = _treebank(30)
    search = GridSearchCV(_reranker(), {"n_best": [1, 3]}, cv=2).fit(X, y)
    assert search.best_params_["n_best"] in (1, 3)
    assert clone(_reranker(n_best=7)).get_params()["n_best"] == 7


def test_reranker_refuses_bad_settings_clearly():
    X, y = _treebank(10)
    with pytest.raises(ValueError, match=r"its decoder must be a BestCandidate\(\)"):
        _reranker(learner=StructuredPerceptron()).fit(X, y)
    with pytest.raises(ValueError, match=r"cv=20: the jack-knife needs 2 <= cv"):
        _reranker(cv=20).fit(X, y)
    with pytest.raises(ValueError, match="X has 10 sentences and y 9 outputs"):
        _reranker().fit(X, y[:9])
    with pytest.raises(ValueError, match=r"'base' parameter"):
        NBestReranker(object(), DependencyTreeFeatures()).fit(X, y)


def test_reranker_names_bad_outputs_and_the_example_its_features_refuse():
    # found by fuzzing: Python's iteration errors, an unnamed tree error, an unnamed
    # extractor error, and a held-out set zip() cut short
    X, y = _treebank(10)
    for bad, kind in [(None, "NoneType"), (3, "int"), (np.array(1), "ndarray")]:
        with pytest.raises(TypeError, match=f"y must be a list of sequences, got {kind}"):
            _reranker().fit(X, bad)
    with pytest.raises(ValueError, match=r"Example 2: y\[2\] is no tree: tree: expected"):
        _reranker().fit(X, [*y[:2], "heads", *y[3:]])
    words = [[{"w": "Ana"}, {"w": "ríe"}], [{"w": "Eva"}], [{"w": "Ana"}]]
    tags = [["B-PER", "O"], ["B-PER"], ["B-PER"]]
    tagger = StructuredPerceptron(max_iter=1, random_state=0)
    with pytest.raises(ValueError, match="Example 0: Token 0 has no word under 'form'"):
        NBestReranker(tagger, EntityFeatures(), n_best=2, cv=2).fit(words, tags)
    with pytest.raises(ValueError, match="X_dev has 2 sentences and y_dev 1 outputs"):
        _reranker().fit(X, y, X_dev=X[:2], y_dev=y[:1])


def test_reranker_saves_and_loads(tmp_path):
    X, y = _treebank(30)
    reranker = _reranker().fit(X, y)
    save(reranker, tmp_path / "reranker.npz")
    loaded = load(tmp_path / "reranker.npz")
    assert loaded.predict(X) == reranker.predict(X)
    assert loaded.get_params()["features"].get_params() == DependencyTreeFeatures().get_params()


def test_entity_features_count_chunks_and_their_context():
    sentence = [{"form": w} for w in ["Ana", "y", "Luis", "viven", "en", "San", "José"]]
    labels = ["B-PER", "O", "B-PER", "O", "O", "B-LOC", "I-LOC"]
    features = EntityFeatures()(sentence, labels)
    assert features == {
        "ent=PER|ana": 1.0,
        "ent=PER|luis": 1.0,
        "ent=LOC|san josé": 1.0,
        "shape=PER|Xx": 2.0,
        "shape=LOC|Xx Xx": 1.0,
        "len=PER|1": 2.0,
        "len=LOC|2": 1.0,
        "before=PER|<s>": 1.0,
        "after=PER|y": 1.0,
        "before=PER|y": 1.0,
        "after=PER|viven": 1.0,
        "before=LOC|en": 1.0,
        "after=LOC|</s>": 1.0,
        "n=PER|2": 1.0,
        "n=LOC|1": 1.0,
        "seq=PER|PER|LOC": 1.0,
        "pair=PER|PER|1": 1.0,
        "pair=PER|LOC|2+": 1.0,
    }
    clash = EntityFeatures()(["Ana", "Ana"], ["B-PER", "B-LOC"])
    assert clash["clash"] == 1.0
    # the tutorial's dicts: the word lowercased, its case in flags
    tutorial = [{"word.lower()": "ana", "word.istitle()": True, "word.isupper()": False}]
    assert EntityFeatures()(tutorial, ["B-PER"])["shape=PER|Xx"] == 1.0


def test_entity_features_refuse_tokens_without_words_and_wrong_lengths():
    with pytest.raises(ValueError, match=r"Token 0 has no word under 'text'"):
        EntityFeatures(word="text")([{"form": "a"}], ["O"])
    with pytest.raises(ValueError, match="A labelling of 2 labels over a sentence of 1 tokens"):
        EntityFeatures()(["a"], ["O", "O"])


def test_reranker_hands_held_out_lists_to_learners_that_take_them():
    X, y = _treebank(40)
    eg = ExponentiatedGradientSSVM(BestCandidate(), C=1.0, max_iter=3)
    reranker = _reranker(learner=eg).fit(X[:30], y[:30], X_dev=X[30:], y_dev=y[30:])
    history = reranker.reranker_.history_
    assert len(history) == 3 and all(0.0 <= r["dev_score"] <= 1.0 for r in history)
    assert history[-1]["primal"] >= history[-1]["dual"]
    with pytest.raises(ValueError, match="Give both X_dev and y_dev, or neither"):
        _reranker().fit(X, y, X_dev=X[:2])
    with pytest.raises(ValueError, match=r"ConditionalRandomField\.fit takes no X_dev"):
        crf = ConditionalRandomField(BestCandidate())
        _reranker(learner=crf).fit(X, y, X_dev=X[:2], y_dev=y[:2])
