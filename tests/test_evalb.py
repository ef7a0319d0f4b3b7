"""EVALB with COLLINS.prm (skstruct.metrics.evalb), on cases worked out by hand from
EVALB's rules: punctuation and TOP deleted, function tags trimmed, ADVP = PRT, repeated
brackets matched one to one, brackets left empty dropped, lengths without -NONE-,
sentences whose words differ left out."""

import pytest

from skstruct.metrics import bracket_f1_score, evalb
from skstruct.trees import Tree


def T(text):
    return Tree.fromstring(text)


GOLD = T(
    "(TOP (S (NP (DT The) (NN cat)) (VP (VBD sat) (PP (IN on) (NP (DT the) (NN mat)))) (. .)))"
)
# S(0,6) NP(0,2) VP(2,6) PP(3,6) NP(4,6): five brackets over the six words kept ('.' goes)
PRED = T(
    "(TOP (S (NP (DT The) (NN cat)) (VP (VBD sat) (PP (IN on) (NP (DT the))) (NP (NN mat))) (. .)))"
)
# S(0,6) NP(0,2) VP(2,6) PP(3,5) NP(4,5) NP(5,6): six, of which S, NP(0,2), VP match


def test_recall_precision_and_f1_of_a_hand_worked_sentence():
    scores = evalb([GOLD], [PRED])
    assert (scores.matched, scores.gold_brackets, scores.predicted_brackets) == (3, 5, 6)
    assert scores.recall == pytest.approx(60.0)
    assert scores.precision == pytest.approx(50.0)
    assert scores.f1 == pytest.approx(2 * 60 * 50 / 110)
    assert scores.complete_match == 0.0
    assert scores.tagging_accuracy == 100.0  # six words: the '.' is not counted
    assert bracket_f1_score([GOLD], [PRED]) == pytest.approx(scores.f1 / 100)


def test_function_tags_go_prt_is_advp_and_the_empty_root_is_top():
    gold = T("( (S (NP-SBJ (PRP He)) (VP (VBD gave) (PRT (RP up)))) )")
    pred = T("(TOP (S (NP (PRP He)) (VP (VBD gave) (ADVP (RB up)))))")
    scores = evalb([gold], [pred])
    assert (scores.matched, scores.gold_brackets, scores.predicted_brackets) == (4, 4, 4)
    assert scores.complete_match == 100.0
    assert scores.tagging_accuracy == pytest.approx(200 / 3)  # RP against RB


def test_repeated_brackets_match_one_to_one():
    gold = T("(TOP (S (NP (NP (NN a))) (VP (VB b))))")  # NP(0,1) twice
    pred = T("(TOP (S (NP (NN a)) (VP (VB b))))")
    scores = evalb([gold], [pred])
    assert (scores.matched, scores.gold_brackets, scores.predicted_brackets) == (3, 4, 3)
    assert (scores.recall, scores.precision) == (75.0, 100.0)
    reverse = evalb([pred], [gold])
    assert (reverse.recall, reverse.precision) == (100.0, 75.0)


def test_brackets_over_deleted_words_only_are_dropped():
    gold = T("(TOP (S (NP (NN a)) (PRN (, ,) (: --)) (VP (VB b)) (. .)))")
    pred = T("(TOP (S (NP (NN a)) (, ,) (: --) (VP (VB b)) (. .)))")
    scores = evalb([gold], [pred])
    assert (scores.matched, scores.gold_brackets, scores.predicted_brackets) == (3, 3, 3)


def test_the_40_word_cut_counts_punctuation_but_not_empty_elements():
    def sentence(n_words, extra):
        words = " ".join(f"(NN w{i})" for i in range(n_words))
        return T(f"(TOP (S (NP {words}) {extra}))")

    forty_and_trace = sentence(40, "(NP (-NONE- *))")  # length 40
    forty_and_stop = sentence(40, "(. .)")  # length 41: punctuation counts
    trees = [forty_and_trace, forty_and_stop]
    assert evalb(trees, trees, max_length=40).n_sentences == 1
    assert evalb(trees, trees).n_sentences == 2


def test_sentences_whose_words_differ_are_errors_left_out():
    gold = [GOLD, T("(TOP (S (NN a) (VB b)))")]
    pred = [PRED, T("(TOP (S (NN a) (VB c)))")]
    scores = evalb(gold, pred)
    assert (scores.n_sentences, scores.n_errors) == (2, 1)
    assert (scores.matched, scores.gold_brackets) == (3, 5)  # the first sentence alone
    # a punctuation word tagged as a word is kept in one tree and not the other
    mislabelled = T("(TOP (S (NP (DT The) (NN cat)) (VP (VBD sat) (PP (IN on) (NP (DT the) "
                    "(NN mat)))) (NN .)))")  # fmt: skip
    assert evalb([GOLD], [mislabelled]).n_errors == 1


def test_identical_treebank_trees_score_100(corpus):
    from skstruct.datasets import load_ptb

    trees = load_ptb(corpus("treebank") / "test.mrg")
    scores = evalb(trees, trees)
    assert (scores.f1, scores.complete_match, scores.tagging_accuracy) == (100.0, 100.0, 100.0)
    assert scores.n_errors == 0 and scores.n_sentences == 245


def test_bad_input():
    with pytest.raises(ValueError, match="different numbers of trees: 1 and 2"):
        evalb([GOLD], [GOLD, GOLD])
