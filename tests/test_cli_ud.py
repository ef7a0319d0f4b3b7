"""``skstruct train --task ud``: the whole UD pipeline from the command line; ``predict``
fills every predicted column of a CoNLL-U file and writes the rest back as it was."""

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
    train = _blocks(folder / "en_ewt-ud-train.conllu", 300, "train.conllu", tmp)
    dev = _blocks(folder / "en_ewt-ud-dev.conllu", 60, "dev.conllu", tmp)
    return train, dev


def test_train_predict_evaluate(ewt_files, tmp_path, capsys):
    train, dev = ewt_files
    model = tmp_path / "ud.npz"
    status, out, err = _run(capsys, "train --task ud --max-iter 2 --n-jobs 2 --train", train,
                            "--dev", dev, "--model", model)  # fmt: skip
    assert status == 0, err
    assert "a UD pipeline trained on 300 sentences" in out
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
    ],
)
def test_options_that_do_not_apply_are_refused(tmp_path, capsys, options, fragment):
    status, out, err = _run(capsys, "train --task ud --train", UD, "--model",
                            tmp_path / "m.npz", options)  # fmt: skip
    assert status == 2 and out == "" and fragment in err, err


def test_n_jobs_is_for_the_ud_pipeline(tmp_path, capsys):
    status, _, err = _run(capsys, "train --task parse --n-jobs 2 --train", UD, "--model",
                          tmp_path / "m.npz")  # fmt: skip
    assert status == 2 and "--n-jobs applies to --task ud" in err
