"""Constituency trees: reading and writing brackets, and the transforms a grammar is
learnt on (normalisation, unary collapse, markovised binarisation), which round-trip
every tree of the treebank sample exactly."""

import io

import pytest

from skstruct.datasets import load_ptb, write_ptb
from skstruct.trees import Tree, TreeTransform, normalize

# -- the tree type and brackets --------------------------------------------------------------


def test_brackets_round_trip_and_the_ptb_root_is_an_empty_label():
    text = "( (S (NP-SBJ (NNP Pierre)) (VP (VBZ is) (NP (-NONE- *T*-1))) (. .)) )"
    tree = Tree.fromstring(text)
    assert tree.label() == "" and tree[0].label() == "S"
    assert Tree.fromstring(str(tree)) == tree
    assert tree.leaves() == ["Pierre", "is", "*T*-1", "."]
    assert tree.pos()[2] == ("*T*-1", "-NONE-")
    assert tree.spans() == [("", 0, 4), ("S", 0, 4), ("NP-SBJ", 0, 1), ("VP", 1, 3), ("NP", 2, 3)]
    assert ("NNP", 0, 1) in tree.spans(preterminals=True)
    assert tree.height() == 5  # -NONE-, NP, VP, S, the root


@pytest.mark.parametrize(
    "text, match",
    [
        ("(S (NN a)", "1 bracket left open"),
        ("(S (NN a)))", "text after the tree"),
        ("", "empty"),
        ("(S (NP) (NN a))", r"empty constituent \(NP\)"),
        ("NN a)", "expected '\\('"),
    ],
)
def test_bad_brackets_are_named(text, match):
    with pytest.raises(ValueError, match=match):
        Tree.fromstring(text)


def test_files_round_trip_and_errors_name_the_line(tmp_path):
    trees = [Tree.fromstring("( (S (NN a)) )"), Tree.fromstring("(S (NP (DT the) (NN b)))")]
    path = tmp_path / "two.mrg"
    write_ptb(path, trees)
    assert load_ptb(path) == trees
    assert load_ptb(io.StringIO("\n( (S\n  (NN a)) )\n\n(S (NN b))")) == [
        Tree.fromstring("( (S (NN a)) )"),
        Tree.fromstring("(S (NN b))"),
    ]
    with pytest.raises(ValueError, match="line 3: a '\\)' closes no open bracket"):
        load_ptb(io.StringIO("(S (NN a))\n\n(NN b)))"))
    with pytest.raises(ValueError, match="starting on line 2 is not closed"):
        load_ptb(io.StringIO("(S (NN a))\n(S (NN b)"))
    with pytest.raises(ValueError, match="'x' outside any tree"):
        load_ptb(io.StringIO("x (S (NN a))"))
    with pytest.raises(ValueError, match=r"tree 1 \(line 2\): empty constituent"):
        load_ptb(io.StringIO("(S (NN a))\n(S (NP) (NN a))"))
    with pytest.raises(TypeError, match="Example 1"):
        write_ptb(io.StringIO(), [trees[0], "(S (NN a))"])


# -- transforms ------------------------------------------------------------------------------


def test_normalize_strips_empty_elements_and_function_tags():
    tree = Tree.fromstring(
        "( (S (NP-SBJ-1 (NNS Investors)) (VP (VBD sold) (NP=2 (-NONE- *T*-1)) "
        "(SBAR (-NONE- 0) (S (-NONE- *T*-2)))) (. .)) )"
    )
    assert str(normalize(tree)) == "( (S (NP (NNS Investors)) (VP (VBD sold)) (. .)))"
    assert normalize(Tree.fromstring("(S (-NONE- *))")) is None
    assert normalize(Tree.fromstring("(-LRB- -LRB-)")).label() == "-LRB-"


@pytest.mark.parametrize(
    "horizontal, vertical, expected",
    [
        (None, 1, "(ROOT (S (A (a a)) (@S|A (B (b b)) (@S|A_B (C (c c)) (D (d d))))))"),
        (1, 1, "(ROOT (S (A (a a)) (@S|A (B (b b)) (@S|B (C (c c)) (D (d d))))))"),
        (0, 1, "(ROOT (S (A (a a)) (@S| (B (b b)) (@S| (C (c c)) (D (d d))))))"),
        (
            0,
            2,
            "(ROOT (S^ROOT (A^S (a a)) (@S^ROOT| (B^S (b b)) (@S^ROOT| (C^S (c c)) (D^S (d d))))))",
        ),
    ],
)
def test_binarisation_markovises_as_asked(horizontal, vertical, expected):
    tree = Tree.fromstring("( (S (A (a a)) (B (b b)) (C (c c)) (D (d d))) )")
    transform = TreeTransform(horizontal=horizontal, vertical=vertical)
    binary = transform.fit_transform([tree])[0]
    assert str(binary) == expected
    assert transform.inverse_transform([binary]) == [tree]


def test_unary_chains_collapse_above_the_tags():
    tree = Tree.fromstring("( (S (VP (VP (VB go))) (NP (NN it))) )")
    binary = TreeTransform(vertical=1).fit_transform([tree])[0]
    assert str(binary) == "(ROOT (S (VP+VP (VB go)) (NP (NN it))))"
    assert TreeTransform().inverse_transform([binary]) == [tree]
    kept = TreeTransform(vertical=1, collapse_unary=False).fit_transform([tree])[0]
    assert str(kept) == "(ROOT (S (VP (VP (VB go))) (NP (NN it))))"


def test_transform_refuses_what_it_could_not_undo():
    with pytest.raises(ValueError, match=r"Example 0: trees\[0\] has a phrase labelled 'A\+B'"):
        TreeTransform().fit_transform([Tree.fromstring("(S (A+B (a a)) (C (c c)))")])
    with pytest.raises(ValueError, match="no word but empty elements"):
        TreeTransform().fit_transform([Tree.fromstring("(S (-NONE- *))")])
    with pytest.raises(TypeError, match="Example 0"):
        TreeTransform().fit_transform(["(S (NN a))"])
    with pytest.raises(ValueError, match="vertical"):
        TreeTransform(vertical=0).fit_transform([Tree.fromstring("(S (NN a))")])


@pytest.mark.parametrize("horizontal, vertical", [(1, 2), (None, 3)])
def test_every_tree_of_the_treebank_round_trips(corpus, horizontal, vertical):
    trees = [
        t
        for split in ("train", "dev", "test")
        for t in load_ptb(corpus("treebank") / f"{split}.mrg")
    ]
    assert len(trees) == 3396 + 273 + 245
    transform = TreeTransform(horizontal=horizontal, vertical=vertical)
    binary = transform.fit_transform(trees)
    assert all(len(node) <= 2 for tree in binary for node in tree.subtrees())
    assert all(tree.leaves() == normalize(t).leaves() for tree, t in zip(binary, trees))
    back = transform.inverse_transform(binary)
    assert [i for i, (b, t) in enumerate(zip(back, trees)) if b != normalize(t)] == []
