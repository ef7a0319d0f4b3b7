"""``skstruct train/predict/evaluate --task constituency`` on bracketed files."""

import re

from skstruct import load
from skstruct.datasets import load_ptb, tagged_words, write_ptb
from skstruct.metrics import evalb
from tests.test_cli import _assert_one_line_error, _run

TREES = [
    "( (S (NP-SBJ (DT the) (NN dog)) (VP (VBZ barks)) (. .)) )",
    "( (S (NP-SBJ (PRP it)) (VP (VBZ sees) (NP (DT the) (NN cat))) (. .)) )",
    "( (S (NP-SBJ (DT the) (NN cat)) (VP (VBZ sees) (NP (PRP it))) (. .)) )",
]


def _treebank(tmp_path, copies=2):
    path = tmp_path / "train.mrg"
    path.write_text("\n".join(TREES * copies) + "\n", encoding="utf-8")
    return path


def test_constituency_round_trip(tmp_path, capsys):
    train = _treebank(tmp_path)
    model = tmp_path / "parser.skstruct"
    status, out, err = _run(capsys, "train --task constituency --max-iter 3 --train", train,
                            "--dev", train, "--model", model)  # fmt: skip
    assert status == 0, err
    assert "EVALB F1 100.00" in out
    output = tmp_path / "predicted.mrg"
    status, _, err = _run(capsys, "predict --model", model, train, "-o", output)
    assert status == 0, err
    predicted, gold = load_ptb(output), load_ptb(train)
    assert evalb(gold, predicted).f1 == 100.0
    # the same trees as the saved model gives in Python
    parser = load(model)
    assert [str(t) for t in parser.predict([tagged_words(t) for t in gold])] == [
        str(t) for t in predicted
    ]
    status, out, err = _run(capsys, "evaluate --model", model, train)
    assert status == 0, err
    assert re.search(r"all lengths: bracket recall 100\.00 +precision 100\.00 +F1 100\.00", out)


def test_constituency_predicts_tagged_columns(tmp_path, capsys):
    train = _treebank(tmp_path)
    model = tmp_path / "parser.skstruct"
    assert _run(capsys, "train -q --task constituency --max-iter 2 --train", train, "--model",
                model)[0] == 0  # fmt: skip
    columns = tmp_path / "tagged.txt"
    columns.write_text("the DT\ncat NN\nbarks VBZ\n. .\n", encoding="utf-8")
    status, out, err = _run(capsys, "predict --model", model, columns)
    assert status == 0, err
    assert out == "( (S (NP (DT the) (NN cat)) (VP (VBZ barks)) (. .)))\n"


def test_constituency_bad_input(tmp_path, capsys):
    train = _treebank(tmp_path)
    model = tmp_path / "parser.skstruct"
    status, _, err = _run(capsys, "train --task constituency --decoder viterbi --train", train,
                          "--model", model)  # fmt: skip
    assert status == 2 and "--decoder viterbi is a sequence decoder" in err
    status, _, err = _run(capsys, "train --task tag --decoder cky --train", train, "--model",
                          model)  # fmt: skip
    assert status == 2 and "--decoder cky is a constituency parser" in err
    broken = tmp_path / "broken.mrg"
    broken.write_text("( (S (NP (DT the) (NN dog))\n", encoding="utf-8")
    status, _, err = _run(capsys, "train --task constituency --train", broken, "--model", model)
    _assert_one_line_error(status, err, "broken.mrg")
    assert _run(capsys, "train -q --task constituency --max-iter 1 --train", train, "--model",
                model)[0] == 0  # fmt: skip
    unknown = tmp_path / "unknown.mrg"
    write_ptb(unknown, load_ptb(train)[:1])
    unknown.write_text(unknown.read_text().replace("(NN dog)", "(XX dog)"), encoding="utf-8")
    status, _, err = _run(capsys, "evaluate --model", model, unknown)
    _assert_one_line_error(status, err, "unknown.mrg", "Example 0: tag 'XX' was never seen")
