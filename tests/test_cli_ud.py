"""``skstruct train --task ud``: the whole UD pipeline from the command line; ``predict``
fills every predicted column of a CoNLL-U file and writes the rest back as it was."""

from argparse import Namespace

import pytest

from skstruct import UDPipeline, load
from tests.test_cli import _run
from tests.test_cli_conllu import UD, _assert_written_back, _blocks

#: CoNLL-U columns the pipeline fills: LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL and the
#: DEPS it empties (the enhanced graph of the old heads would contradict the new ones).
PREDICTED = {2, 3, 4, 5, 6, 7, 8}


@pytest.fixture(scope="module")
def ewt_files(corpus, tmp_path_factory):
    folder, tmp = corpus("ud-ewt"), tmp_path_factory.mktemp("ud")
    # sentences of up to 30 words: the grandparent graph parsers' time grows as n**4
    train = _blocks(folder / "en_ewt-ud-train.conllu", 150, "train.conllu", tmp, max_words=30)
    dev = _blocks(folder / "en_ewt-ud-dev.conllu", 60, "dev.conllu", tmp)
    return train, dev


def test_train_predict_evaluate(ewt_files, tmp_path, capsys):
    train, dev = ewt_files
    model = tmp_path / "ud.npz"
    # one corpus, the quicker one: the default's Brown guide trains on 1.16 million words
    status, out, err = _run(capsys, "train --task ud --max-iter 2 --n-jobs 2 --train", train,
                            "--dev", dev, "--model", model, "--corpora conll2000")  # fmt: skip
    assert status == 0, err
    assert "a UD pipeline trained on 150 sentences" in out
    assert [c.source for c in load(model).corpora_] == ["conll2000"]
    assert "CoNLL 2018 scores (gold tokenization): UPOS" in out
    assert isinstance(load(model), UDPipeline)
    output = tmp_path / "out.conllu"
    status, _, err = _run(capsys, "predict --model", model, UD, "-o", output)
    assert status == 0, err
    new = _assert_written_back(UD, output, PREDICTED)
    assert all(fields[-1] == "_" for fields in new)  # DEPS emptied
    assert {fields[4] for fields in new} >= {"0"}  # every sentence has a root
    status, out, err = _run(capsys, "evaluate --model", model, dev)
    assert status == 0, err
    figures = dict(
        (name, float(value))
        for name, value in (pair.split() for pair in out.split("): ")[1].split("  "))
    )
    assert list(figures) == ["UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS",
                             "CLAS", "MLAS", "BLEX"]  # fmt: skip
    assert figures["UPOS"] > 80 and figures["UAS"] > 50


@pytest.mark.parametrize(
    "options, fragment",
    [
        ("--algorithm eg", "--algorithm does not apply to --task ud"),
        ("--decoder chu-liu-edmonds", "--decoder does not apply to --task ud"),
        ("--label upos", "--label does not apply to --task ud"),
        ("--order 0", "--order is the parser's, 1 or 2"),
        ("--format conll", "--task ud reads CoNLL-U files"),
        ("--corpora brown,wsj", "give distinct names from brown, conll2000"),
        ("--corpora brown,brown", "give distinct names"),
    ],
)
def test_options_that_do_not_apply_are_refused(tmp_path, capsys, options, fragment):
    status, out, err = _run(capsys, "train --task ud --train", UD, "--model",
                            tmp_path / "m.npz", options)  # fmt: skip
    assert status == 2 and out == "" and fragment in err, err


@pytest.mark.parametrize("option", ["--n-jobs 2", "--corpora brown"])
def test_ud_options_are_for_the_ud_pipeline(tmp_path, capsys, option):
    status, _, err = _run(capsys, "train --task parse", option, "--train", UD, "--model",
                          tmp_path / "m.npz")  # fmt: skip
    assert status == 2 and f"{option.split()[0]} applies to --task ud" in err


@pytest.mark.parametrize("given, names", [(None, None), ("none", []), ("conll2000", ["conll2000"])])
def test_corpora_option(given, names):
    from skstruct.cli._ud import corpora

    assert corpora(Namespace(corpora=given)) == names


def test_corpora_by_default_for_an_english_treebank_only(capsys):
    from skstruct.cli._ud import default_corpora
    from skstruct.datasets import fetch_conll2007, fetch_ud

    args = Namespace(quiet=False)
    assert default_corpora(args, fetch_ud("en_ewt", "dev").data[:300]) == ["brown", "conll2000"]
    assert "Tagged corpora: brown, conll2000 (CoNLL-2000 has 8" in capsys.readouterr().err
    assert default_corpora(args, fetch_conll2007("es", "test").data[:300]) == []
    assert "not English?" in capsys.readouterr().err
