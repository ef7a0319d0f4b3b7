"""Dependency parsing end to end: the learners with Eisner / Chu-Liu-Edmonds on the PTB
sample, gold-tree checks, and bad input."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, cross_val_score

from skstruct import (
    SWVP,
    ArcEager,
    ArcFeatures,
    ArcStandard,
    ChuLiuEdmonds,
    Eisner,
    ParameterMixing,
    StructuredPerceptron,
    StructuredSVM,
    TokenFeatures,
    Viterbi,
)
from skstruct.datasets import load_conllu, write_conllu
from skstruct.metrics import PTB_PUNCTUATION_TAGS, attachment_scores
from skstruct.tasks.trees import is_projective, projectivize
from tests import naive


@pytest.fixture(scope="module")
def ptb(corpus, conllu_head):
    X_test, y_test = load_conllu(corpus("ptb-sample") / "test.conllu")
    return *conllu_head("ptb-sample", "train.conllu", 500), X_test, y_test


def _uas(model, X, y):
    return attachment_scores(y, model.predict(X), X=X, punct=PTB_PUNCTUATION_TAGS)["uas"]


@pytest.mark.data
def test_first_order_parser_learns_the_ptb_sample(ptb):
    X, y, X_test, y_test = ptb
    parser = StructuredPerceptron(decoder=Eisner(), max_iter=5, random_state=0).fit(X, y)
    predicted = parser.predict(X_test)
    for heads in predicted:  # projective trees with one root word
        assert naive.is_tree([-1, *heads]) and is_projective(heads)
        assert heads.count(0) == 1
    assert _uas(parser, X_test, y_test) > 0.78
    # score is UAS over every word
    assert parser.score(X_test, y_test) == pytest.approx(
        attachment_scores(y_test, predicted, punct=None)["uas"]
    )
    assert [h["mistakes"] for h in parser.history_][-1] < parser.history_[0]["mistakes"]


@pytest.mark.data
def test_non_projective_and_second_order_parsers_run(ptb):
    X, y, X_test, y_test = ptb
    for decoder in (ChuLiuEdmonds(), Eisner(order=2)):
        parser = StructuredPerceptron(decoder=decoder, max_iter=2, random_state=0)
        parser.fit(X[:200], y[:200])
        for heads in parser.predict(X_test[:50]):
            assert naive.is_tree([-1, *heads]) and heads.count(0) == 1
        assert _uas(parser, X_test, y_test) > 0.6


@pytest.mark.data
def test_grandparent_parser_learns_and_predicts_as_its_search(ptb):
    # the structured SVM trains through the generic path (the structure's scores, the
    # decoder's search); predict runs the kernels' decoding loop: the same trees
    X, y, X_test, y_test = ptb
    decoder = Eisner(order=2, grandparents=True)
    parser = StructuredSVM(decoder, C=0.1, max_iter=3, tol=None, random_state=0)
    parser.fit(X[:200], y[:200])
    predicted = parser.predict(X_test[:60])
    encoded = parser.encode(X_test[:60])
    for i, heads in enumerate(predicted):
        assert naive.is_tree([-1, *heads]) and is_projective(heads) and heads.count(0) == 1
        scores = parser.structure_.scores(encoded, i, parser.coef_)
        np.testing.assert_array_equal(parser.decoder_.decode(parser.structure_, scores), heads)
    assert _uas(parser, X_test, y_test) > 0.7
    assert parser.structure_.grandparents  # the decoder's structure has the parts


def test_grandparents_need_second_order_and_have_no_kbest_lists():
    with pytest.raises(ValueError, match=r"grandparents=True\) needs order=2 \(got order=1\)"):
        _fit([[2, 0, 2]], Eisner(grandparents=True))
    parser = _fit([[2, 0, 2]], Eisner(order=2, grandparents=True))
    assert parser.predict(_X) == [[2, 0, 2]]
    with pytest.raises(ValueError, match="has no k-best lists"):
        parser.predict_nbest(_X, k=2)


@pytest.mark.data
def test_mixing_and_model_selection_work_with_parsers(ptb):
    X, y, X_test, y_test = ptb
    X, y = X[:150], y[:150]
    serial = StructuredPerceptron(decoder=Eisner(), max_iter=2, random_state=3)
    mixed = ParameterMixing(serial, n_shards=1, max_iter=2).fit(X, y)
    np.testing.assert_array_equal(mixed.coef_, clone(serial).fit(X, y).coef_)
    two = ParameterMixing(serial, n_shards=2, max_iter=2, random_state=0).fit(X, y)
    assert two.score(X_test, y_test) > 0.5
    # parsers mix whole vectors by default: mixing each weight over the shards that
    # changed it cost the PTB sample's first-order parser UAS (see ParameterMixing)
    assert two.mix_over_ == "all"
    paper = ParameterMixing(serial, n_shards=2, max_iter=2, mix_over="all", random_state=0)
    np.testing.assert_array_equal(paper.fit(X, y).coef_, two.coef_)
    each = ParameterMixing(serial, n_shards=2, max_iter=2, mix_over="changed", random_state=0)
    assert each.fit(X, y).mix_over_ == "changed"
    assert not np.array_equal(each.coef_, two.coef_)
    search = GridSearchCV(
        StructuredPerceptron(decoder=Eisner(), max_iter=1), {"decoder__order": [1, 2]}, cv=2
    )
    assert search.fit(X[:60], y[:60]).best_params_["decoder__order"] in (1, 2)
    assert cross_val_score(serial, X[:60], y[:60], cv=3).shape == (3,)


# -- gold trees and bad input ------------------------------------------------------------------

_X = [[{"form": w, "xpos": p} for w, p in [("Dogs", "NNS"), ("bark", "VBP"), ("loudly", "RB")]]]


def _fit(y, decoder=None, X=None):
    parser = StructuredPerceptron(decoder=decoder or Eisner(), max_iter=1)
    return parser.fit(X or _X * len(y), y)


@pytest.mark.parametrize(
    "y, message",
    [
        ([[2, 0, 4]], r"y\[0\]\[2\]: head 4 is out of range for a sentence of 3 words"),
        ([[2, 0, 3]], r"y\[0\]\[2\]: word 3 is its own head"),
        ([[2, 1, 0]], r"y\[0\] is not a tree: words \[1, 2\] form a cycle"),
        ([[2, 0, "x"]], r"y\[0\]\[2\] = 'x' is not a head"),
        ([[0, 0, 2]], r"y\[0\] has 2 words attached to the root .* needs exactly one"),
    ],
)
def test_bad_gold_trees_are_refused_naming_the_sentence(y, message):
    with pytest.raises(ValueError, match=message):
        _fit(y)


def test_several_root_words_are_fine_without_single_root():
    parser = _fit([[0, 0, 2]] * 3, Eisner(single_root=False))
    assert parser.predict(_X)[0].count(0) >= 1
    assert parser.predict(_X) == [[0, 0, 2]]  # two root words, as trained


def test_non_projective_gold_trees_need_a_choice():
    X = [[{"form": f"w{i}", "xpos": "X"} for i in range(4)]]
    y = [[3, 4, 0, 3]]  # 2 <- 4 crosses 3 <- 0
    with pytest.raises(ValueError, match=r"y\[0\] is not projective.*projectivize=True"):
        _fit(y, Eisner(), X)
    assert projectivize([3, 4, 0, 3]) == [3, 3, 0, 3]
    _fit(y, Eisner(projectivize=True), X)
    _fit(y, ChuLiuEdmonds(), X)


def test_one_word_sentences_and_unseen_words():
    X = [[{"form": "Go", "xpos": "VB"}]]
    parser = _fit([[0]], X=X)
    assert parser.predict(X) == [[0]]
    unseen = [[{"form": "Zorblax", "xpos": "XX"}, {"form": "!", "xpos": "."}]]
    assert len(parser.predict(unseen)[0]) == 2


def test_sentences_too_long_for_the_tables_are_refused():
    long = [[{"form": "w", "xpos": "X"}] * 301]
    parser = _fit([[2, 0, 2]], Eisner(order=2))
    with pytest.raises(ValueError, match=r"X\[0\] has 301 words; Eisner\(order=2\) parses"):
        parser.predict(long)
    parser = _fit([[2, 0, 2]], Eisner(order=2, grandparents=True))
    with pytest.raises(ValueError, match=r"X\[0\] has 201 words; .* at most 200 words"):
        parser.predict([long[0][:201]])
    # first order still parses it
    heads = _fit([[2, 0, 2]]).predict(long)[0]
    assert len(heads) == 301 and naive.is_tree([-1, *heads])


def test_parsers_need_token_dicts_with_pos_and_parser_features():
    with pytest.raises(TypeError, match=r"X\[0\]\[0\] is a str; a parser needs token dicts"):
        _fit([[2, 0, 2]], X=[["Dogs", "bark", "loudly"]])
    with pytest.raises(ValueError, match=r"X\[0\]\[1\] has no xpos or upos tag"):
        _fit([[2, 0, 2]], X=[[{"form": "a", "xpos": "DT"}, {"form": "b"}, {"form": "c"}]])
    with pytest.raises(ValueError, match="features must be an ArcFeatures"):
        StructuredPerceptron(decoder=Eisner(), features=TokenFeatures()).fit(_X, [[2, 0, 2]])
    with pytest.raises(ValueError, match=r"ArcFeatures\(\) builds parser features"):
        StructuredPerceptron(decoder=Viterbi(), features=ArcFeatures()).fit(_X, [["a", "b", "c"]])
    with pytest.raises(ValueError, match="searches trees exactly"):
        StructuredPerceptron(decoder=Eisner(), update="early").fit(_X, [[2, 0, 2]])


@pytest.mark.data
def test_coarse_pos_templates_help_a_small_training_set(ptb):
    X, y, X_test, y_test = ptb
    features = ArcFeatures(coarse_pos=1).fit(X)
    assert features.transform(X[:2]).attrs.shape[1] == 4
    assert {"N", "V", "J", "R"} <= set(features.vocabularies_["coarse"])
    assert "NNS" not in features.vocabularies_["coarse"]
    fine = StructuredPerceptron(Eisner(), max_iter=5, random_state=0).fit(X, y)
    coarse = StructuredPerceptron(
        Eisner(), features=ArcFeatures(coarse_pos=1), max_iter=5, random_state=0
    ).fit(X, y)
    # 500 sentences: 81.30 UAS without the coarse templates, 83.49 with them
    assert _uas(coarse, X_test, y_test) > _uas(fine, X_test, y_test) + 0.01


def test_coarse_pos_from_upos_or_a_tag_prefix():
    X = [[{"form": "Dogs", "xpos": "NNS", "upos": "NOUN"}, {"form": "bark", "xpos": "VBP",
                                                           "upos": "VERB"}]]  # fmt: skip
    upos = ArcFeatures(coarse_pos="upos").fit(X)
    assert list(upos.vocabularies_) == ["form", "pos", "prefix", "coarse"]
    assert set(upos.vocabularies_["coarse"]) == {"NOUN", "VERB"}
    assert set(ArcFeatures(coarse_pos=2).fit(X).vocabularies_["coarse"]) == {"NN", "VB"}
    assert ArcFeatures(coarse_pos=None).fit(X).transform(X).attrs.shape == (2, 3)
    auto = ArcFeatures().fit(X)  # a UPOS beside every XPOS: the coarse POS
    assert auto.coarse_ == "upos" and auto.transform(X).attrs.shape == (2, 4)
    assert ArcFeatures().fit([[{"form": "Dogs", "xpos": "NNS"}]]).coarse_ is None
    assert ArcFeatures(pos="upos").fit(X).coarse_ is None  # the POS read is the UPOS
    ids = upos.transform(X).attrs
    assert ids[:, 3].tolist() == [upos.vocabularies_["coarse"][t] for t in ("NOUN", "VERB")]
    for bad in (0, "xpos", 1.5):
        with pytest.raises(ValueError, match="coarse_pos"):
            ArcFeatures(coarse_pos=bad).fit(X)


def test_fields_add_attribute_columns():
    X = [[{"form": "Dogs", "xpos": "NNS", "upos": "NOUN", "feats": {"Number": "Plur"}},
          {"form": "bark", "xpos": "VBP", "upos": "VERB", "lemma": "bark"}]]  # fmt: skip
    features = ArcFeatures(fields=["lemma", "feats"]).fit(X)
    assert list(features.vocabularies_)[4:] == ["field:lemma", "field:feats"]
    assert set(features.vocabularies_["field:lemma"]) == {"_", "bark"}  # a missing lemma: "_"
    assert set(features.vocabularies_["field:feats"]) == {"Number=Plur", "_"}
    assert features.transform(X).attrs.shape == (2, 6)
    with pytest.raises(ValueError, match="need a coarse POS"):
        ArcFeatures(fields=["lemma"], coarse_pos=None).fit(X)
    # a treebank without XPOS: the UPOS is the POS read, and the fields' coarse POS too
    no_xpos = [[{k: v for k, v in t.items() if k != "xpos"} for t in X[0]]]
    assert ArcFeatures(fields=["lemma"]).fit(no_xpos).coarse_ == "upos"
    assert ArcFeatures().fit(no_xpos).coarse_ is None  # no fields: no coarse templates
    no_upos = [[{k: v for k, v in t.items() if k != "upos"} for t in X[0]]]
    with pytest.raises(ValueError, match="finds no UPOS on every token"):
        ArcFeatures(fields=["lemma"]).fit(no_upos)
    with pytest.raises(ValueError, match="at most 3 token field names"):
        ArcFeatures(fields=["a", "b", "c", "d"]).fit(X)


# -- SWVP on trees -----------------------------------------------------------------------------


@pytest.mark.data
@pytest.mark.parametrize("order", [1, 2])
def test_swvp_full_is_the_tree_perceptron_bit_for_bit(ptb, order):
    X, y = ptb[0][:120], ptb[1][:120]
    csp = StructuredPerceptron(decoder=Eisner(order=order), max_iter=2, random_state=1).fit(X, y)
    swvp = SWVP(decoder=Eisner(order=order), substructures="full", max_iter=2, random_state=1)
    np.testing.assert_array_equal(swvp.fit(X, y).coef_, csp.coef_)


@pytest.mark.data
def test_swvp_single_learns_to_parse(ptb):
    X, y, X_test, y_test = ptb
    swvp = SWVP(decoder=Eisner(), gamma="wmr", mode="balanced", max_iter=3, random_state=0)
    assert _uas(swvp.fit(X[:300], y[:300]), X_test, y_test) > 0.7
    mixed = ParameterMixing(swvp, n_shards=2, max_iter=2, random_state=0).fit(X[:100], y[:100])
    assert mixed.score(X_test, y_test) > 0.5


def test_a_mixed_assignment_that_is_not_a_tree_is_scored_by_its_arcs():
    # gold: 1 <- 2 <- root, 3 <- 2; prediction: 1 <- 2 <- 3 <- root. Taking the prediction's
    # head for word 2 alone gives 2 <- 3 and 3 <- 2: a cycle, no root word.
    parser = _fit([[2, 0, 2]])
    encoded = parser.encode(_X)
    structure, coef = parser.structure_, parser.coef_
    gold, mixed = np.array([2, 0, 2]), np.array([2, 3, 2])
    assert not naive.is_tree([-1, *mixed])
    scores = structure.scores(encoded, 0, coef)
    assert structure.margin(scores, gold, mixed) == pytest.approx(
        scores.arc[0, 2] - scores.arc[3, 2]
    )
    delta = np.zeros_like(coef)
    structure.add_delta(encoded, 0, gold, mixed, delta, 1.0)
    attrs = encoded.attrs.tolist()
    expected = np.zeros_like(coef)
    np.add.at(expected, naive.arc_features(attrs, 0, 2, coef.size), 1.0)
    np.add.at(expected, naive.arc_features(attrs, 3, 2, coef.size), -1.0)
    np.testing.assert_array_equal(delta, expected)


# -- labelled parsing and CoNLL-U output -------------------------------------------------------


@pytest.fixture(scope="module")
def spanish(conllu_head):
    train = conllu_head("conll2007-es", "train.conll", 150, labelled=True)
    return *train, *conllu_head("conll2007-es", "test.conll", 150, labelled=True)


@pytest.mark.data
def test_a_bad_word_of_the_development_set_is_named_in_X_dev(ptb):
    X, y, X_test, y_test = ptb
    X, y, dev, y_dev = X[:40], y[:40], [[dict(t) for t in s] for s in X_test[:20]], y_test[:20]
    del dev[7][2]["form"]
    parser = StructuredPerceptron(Eisner(), max_iter=1, random_state=0)
    with pytest.raises(ValueError, match=r"^X_dev\[7\]\[2\] has no 'form' string"):
        clone(parser).fit(X, y, X_dev=dev, y_dev=y_dev)
    mixing = ParameterMixing(parser, n_shards=2, max_iter=1, encode_on="workers")
    with pytest.raises(ValueError, match=r"^X_dev\[7\]\[2\] has no 'form' string"):
        mixing.fit(X, y, X_dev=dev, y_dev=y_dev)
    with pytest.raises(ValueError, match=r"^X\[7\]\[2\] has no 'form' string"):
        parser.fit(X, y).predict(dev)


@pytest.mark.data
def test_labelled_parsing_predicts_relations_and_scores_uas(spanish, tmp_path):
    X, y, X_test, y_test = spanish
    parser = StructuredPerceptron(decoder=ChuLiuEdmonds(), max_iter=3, random_state=0)
    predicted = parser.fit(X, y).predict(X_test)
    assert all(isinstance(rel, str) for sentence in predicted for _, rel in sentence)
    scores = attachment_scores(y_test, predicted, X=X_test)
    assert 0.5 < scores["las"] <= scores["uas"]
    assert parser.score(X_test, y_test) == pytest.approx(
        attachment_scores(y_test, predicted, punct=None)["uas"]
    )
    assert set(parser.classes_) >= {rel for sentence in predicted for _, rel in sentence}
    # the predictions go back into CoNLL-U, HEAD and DEPREL filled, the rest kept
    path = tmp_path / "predicted.conllu"
    write_conllu(path, X_test, predicted)
    X_back, y_back = load_conllu(path, labelled=True)
    assert y_back == [[tuple(p) for p in sentence] for sentence in predicted]
    assert [[t["form"] for t in s] for s in X_back] == [[t["form"] for t in s] for s in X_test]
    # a labelled model also scores unlabelled gold, and unseen relations do not matter
    bare = [[head for head, _ in sentence] for sentence in y_test]
    assert parser.score(X_test, bare) == parser.score(X_test, y_test)


@pytest.mark.data
def test_labelled_swvp_and_mixing(spanish):
    X, y, X_test, y_test = spanish
    decoder = Eisner(projectivize=True)
    csp = StructuredPerceptron(decoder=decoder, max_iter=2, random_state=0).fit(X[:80], y[:80])
    full = SWVP(decoder=decoder, substructures="full", max_iter=2, random_state=0)
    np.testing.assert_array_equal(full.fit(X[:80], y[:80]).coef_, csp.coef_)
    single = SWVP(decoder=decoder, max_iter=2, random_state=0).fit(X[:80], y[:80])
    assert single.score(X_test, y_test) > 0.4
    mixed = ParameterMixing(csp, n_shards=2, max_iter=2, random_state=0).fit(X[:80], y[:80])
    assert mixed.predict(X_test[:1])[0][0][1] in set(csp.classes_)


def test_pairs_and_bare_heads_do_not_mix():
    with pytest.raises(ValueError, match=r"y\[0\]\[1\] = 0: y mixes bare heads and"):
        _fit([[(2, "nsubj"), 0, (2, "adv")]])


# -- transition-based parsing ------------------------------------------------------------------


@pytest.mark.data
@pytest.mark.parametrize(
    ("system", "update"),
    [(ArcStandard, u) for u in ("max_violation", "early", "latest", "hybrid")]
    + [(ArcEager, u) for u in ("max_violation", "early")],
)
def test_transition_beam_parsers_learn_with_violation_fixing_updates(ptb, system, update):
    X, y, X_test, y_test = ptb
    parser = StructuredPerceptron(system(beam_size=4), update=update, max_iter=3)
    parser.set_params(random_state=0).fit(X[:300], y[:300])
    for heads in parser.predict(X_test[:40]):
        assert naive.is_tree([-1, *heads]) and is_projective(heads) and heads.count(0) == 1
    assert _uas(parser, X_test, y_test) > 0.72
    if update != "hybrid":  # hybrid may fall back to a standard update that is valid
        assert all(r["invalid_updates"] == 0 for r in parser.history_)


@pytest.mark.data
def test_arc_standard_grid_search_and_greedy(ptb):
    X, y = ptb[0][:90], ptb[1][:90]
    search = GridSearchCV(
        StructuredPerceptron(ArcStandard(), max_iter=1),
        {"decoder__beam_size": [1, 4], "update": ["early", "max_violation"]},
        cv=2,
    )
    assert len(search.fit(X, y).cv_results_["params"]) == 4


@pytest.mark.parametrize("system", [ArcStandard, ArcEager])
def test_transition_parsers_refuse_labels_and_swvp(system):
    name = system.__name__
    with pytest.raises(ValueError, match=f"{name} parses unlabelled trees"):
        _fit([[(2, "nsubj"), (0, "root"), (2, "adv")]], system())
    with pytest.raises(ValueError, match=rf"SWVP mixes .* {name} builds action sequences"):
        SWVP(decoder=system()).fit(_X, [[2, 0, 2]])


# -- parser shards encoded on their workers (ParameterMixing(encode_on="workers")) -----------


def _strings(features, encoded):
    """Every word's attributes as the strings ``features`` numbered them (column order)."""
    names = [{i: value for value, i in vocab.items()} for vocab in features.vocabularies_.values()]
    return [tuple(names[c].get(i, i) for c, i in enumerate(row)) for row in encoded.attrs.tolist()]


@pytest.mark.data
def test_arc_features_merge_renumbers_the_other_shards_words(ptb):
    X = ptb[0][:200]
    first, other = ArcFeatures(coarse_pos=1).fit(X[:120]), ArcFeatures(coarse_pos=1).fit(X[120:])
    before = first.transform(X[:120]).attrs
    theirs = other.transform(X[120:])
    maps = first.merge(other)
    # the other shard's words, renumbered, are what the merged vocabulary gives them
    np.testing.assert_array_equal(theirs.with_ids(maps).attrs, first.transform(X[120:]).attrs)
    np.testing.assert_array_equal(first.transform(X[:120]).attrs, before)  # old ids kept
    assert _strings(first, theirs.with_ids(maps)) == _strings(other, theirs)
    assert len(first.vocabularies_["form"]) == len(ArcFeatures().fit(X).vocabularies_["form"])
    with pytest.raises(ValueError, match="coarse POS"):
        first.merge(ArcFeatures(coarse_pos=2).fit(X[120:]))


@pytest.mark.data
@pytest.mark.parametrize("labelled", [False, True])
def test_parser_shards_encoded_on_their_own_merge_into_the_parents_encoding(ptb, spanish, labelled):
    X, y = (spanish[0], spanish[1]) if labelled else (ptb[0][:150], ptb[1][:150])
    decoder = Eisner(projectivize=True)
    learner = StructuredPerceptron(decoder, features=ArcFeatures(coarse_pos=1), random_state=0)
    shards = np.array_split(np.random.default_rng(0).permutation(len(X)), 3)
    merged = clone(learner)
    template = merged.shard_encoder(X)  # as ParameterMixing does: one copy per worker
    encodings = [template.encode_shard([X[i] for i in s], [y[i] for i in s]) for s in shards]
    _, data = merged.init_state_from_shards(encodings)
    parent = clone(learner)
    _, (encoded, outputs) = parent.init_state(X, y)
    bounds = parent.structure_.output_offsets(encoded)
    for shard, (shard_encoded, shard_outputs) in zip(shards, data):
        # the same attribute strings and the same gold trees, numbered otherwise
        assert _strings(merged.encoder_, shard_encoded) == _strings(
            parent.encoder_, encoded.take(shard)
        )
        gold = np.concatenate([outputs[bounds[i] : bounds[i + 1]] for i in shard])
        heads, labels = merged.structure_.split_outputs(shard_outputs)
        parent_heads, parent_labels = parent.structure_.split_outputs(gold)
        np.testing.assert_array_equal(heads, parent_heads)
        if labelled:
            np.testing.assert_array_equal(merged.classes_, parent.classes_)
            np.testing.assert_array_equal(labels, parent_labels)


@pytest.mark.data
def test_parser_mixing_encodes_on_the_workers_when_asked(ptb, spanish):
    X, y, X_test, y_test = ptb
    X, y = X[:150], y[:150]
    serial = StructuredPerceptron(decoder=Eisner(), max_iter=2, random_state=3)
    one = ParameterMixing(serial, n_shards=1, max_iter=2, encode_on="workers").fit(X, y)
    np.testing.assert_array_equal(one.coef_, clone(serial).fit(X, y).coef_)

    def mixed(encode_on, n_jobs=None, learner=serial, data=(X, y)):
        mixing = ParameterMixing(
            learner, n_shards=2, max_iter=2, encode_on=encode_on, n_jobs=n_jobs, random_state=0
        )
        return mixing.fit(*data)

    workers = mixed("workers")
    np.testing.assert_array_equal(mixed("workers", n_jobs=2).coef_, workers.coef_)
    assert workers.score(X_test, y_test) > 0.5
    # token dicts either way: "auto" encodes a parser's shards here
    np.testing.assert_array_equal(mixed("auto").coef_, mixed("parent").coef_)
    labelled = StructuredPerceptron(Eisner(projectivize=True), max_iter=2, random_state=3)
    X_es, y_es = spanish[0][:80], spanish[1][:80]
    one = ParameterMixing(labelled, n_shards=1, max_iter=2, encode_on="workers").fit(X_es, y_es)
    np.testing.assert_array_equal(one.coef_, clone(labelled).fit(X_es, y_es).coef_)
    two = mixed("workers", learner=labelled, data=(X_es, y_es))
    np.testing.assert_array_equal(two.classes_, clone(labelled).fit(X_es, y_es).classes_)
    # a bad tree on a worker is named by its place in X, as the serial fit names it
    y_bad = [list(heads) for heads in y]
    y_bad[101][0] = 1  # word 1 its own head
    with pytest.raises(ValueError, match=r"y\[101\]\[0\]: word 1 is its own head"):
        mixed("workers", data=(X, y_bad))
    # shards of bare heads and of (head, deprel) pairs: named as the serial fit names them
    y_mixed = [list(heads) for heads in y[:75]] + [[(h, "dep") for h in heads] for heads in y[75:]]
    with pytest.raises(ValueError) as serial_error:
        clone(serial).fit(X, y_mixed)
    unshuffled = ParameterMixing(serial, n_shards=2, max_iter=1, shuffle=False,
                                 encode_on="workers")  # fmt: skip
    with pytest.raises(ValueError) as caught:
        unshuffled.fit(X, y_mixed)
    assert "mixes bare heads" in str(caught.value)
    assert str(caught.value) == str(serial_error.value)
