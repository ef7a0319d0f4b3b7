"""Encodings (issue 14, item 4): a UTF-8 byte-order mark is dropped by both readers, for
files and streams, and by the command line; ``--encoding`` on every command that reads
files; a bad encoding's message tells each interface how to pass the right one."""

import io

import pytest

from skstruct.datasets import ConllFormatError, load_conll, load_conllu
from tests.test_cli import CHUNK, _assert_one_line_error, _evaluate, _run

BOM = "\ufeff"
CONLL = "-DOCSTART- -X- O O\n\nEU NNP B-NP B-ORG\nrejects VBZ B-VP O\n"
CONLLU = (
    "# sent_id = 1\n"
    "1\tDogs\tdog\tNOUN\tNNS\t_\t2\tnsubj\t_\t_\n"
    "2\tbark\tbark\tVERB\tVBP\t_\t0\troot\t_\t_\n"
)


def _with_bom(text, source, path):
    """``text`` after a byte-order mark, as a UTF-8 file at ``path`` or as a stream."""
    if source == "stream":
        return io.StringIO(BOM + text)
    path.write_bytes((BOM + text).encode("utf-8"))
    return path


@pytest.mark.parametrize("source", ["file", "stream"])
def test_load_conll_drops_a_byte_order_mark(source, tmp_path):
    # The bug: '\ufeff-DOCSTART-' is not -DOCSTART-, so it was read as a token.
    X, y = load_conll(_with_bom(CONLL, source, tmp_path / "bom.txt"))
    assert X == [[("EU", "NNP", "B-NP"), ("rejects", "VBZ", "B-VP")]] and y == [["B-ORG", "O"]]


@pytest.mark.parametrize("source", ["file", "stream"])
def test_load_conllu_drops_a_byte_order_mark(source, tmp_path):
    # The bug: "expected 10 columns, got 1: '\ufeff# sent_id = 1'"
    X, y = load_conllu(_with_bom(CONLLU, source, tmp_path / "bom.conllu"))
    assert [t["form"] for t in X[0]] == ["Dogs", "bark"] and y == [[2, 0]]


def test_a_byte_order_mark_elsewhere_is_kept(tmp_path):
    # only a leading mark is an encoding artefact; inside the text it is a character
    X, _ = load_conll(io.StringIO(f"a{BOM} B\n"), label_column=None)
    assert X == [[(f"a{BOM}", "B")]]


def test_python_readers_advise_the_encoding_argument(tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes("He PRP B-NP\nJosé NNP B-NP\n".encode("latin-1"))
    with pytest.raises(ConllFormatError, match=r"line 2: .* e\.g\. encoding='latin-1'$"):
        load_conll(path)
    # an encoding that is not UTF-8 and fails: try UTF-8
    with pytest.raises(ConllFormatError, match=r"e\.g\. encoding='utf-8'$"):
        load_conll(_write(tmp_path / "utf8.txt", "José NNP\n".encode()), encoding="ascii")


def _write(path, data):
    path.write_bytes(data)
    return path


def test_command_line_reads_and_writes_with_encoding(tmp_path, capsys):
    text = CHUNK.replace("Rockwell", "Müller").replace("pound", "peñique")
    train = _write(tmp_path / "latin.txt", text.encode("latin-1"))
    model = tmp_path / "chunker.npz"

    status, _, err = _run(capsys, "train --task chunk --train", train, "--model", model)
    _assert_one_line_error(status, err, "latin.txt, line 11", "e.g. --encoding latin-1")
    assert "encoding='latin-1'" not in err
    for command in (f"predict --model {model}", f"evaluate --model {model}"):
        status, _, err = _run(capsys, command, train)
        assert status == 1

    options = "--encoding latin-1"
    status, _, err = _run(capsys, "train --task chunk --train", train, "--model", model, options)
    assert status == 0, err
    assert float(_evaluate(capsys, model, train, options)[0]["Token accuracy"]) > 90
    status, _, err = _run(capsys, "evaluate --model", model, train)  # no --encoding
    _assert_one_line_error(status, err, "latin.txt, line 11", "--encoding latin-1")
    output = tmp_path / "predicted.txt"
    status, _, err = _run(capsys, "predict --model", model, train, "-o", output, options)
    assert status == 0, err
    written = output.read_bytes().decode("latin-1")  # the output in the same encoding
    assert "Müller NNP B-NP" in written and "peñique NN I-NP" in written


def test_command_line_ignores_a_byte_order_mark(tmp_path, capsys):
    plain, marked = tmp_path / "plain.txt", tmp_path / "marked.txt"
    plain.write_text("-DOCSTART- -X- O\n\n" + CHUNK, encoding="utf-8")
    marked.write_text(BOM + "-DOCSTART- -X- O\n\n" + CHUNK, encoding="utf-8")
    model = tmp_path / "chunker.npz"
    assert _run(capsys, "train --task chunk --train", marked, "--model", model)[0] == 0
    scores = [_evaluate(capsys, model, path)[1].split("\n", 2)[2] for path in (plain, marked)]
    assert scores[0] == scores[1]  # same tokens counted, same accuracy
    status, out, _ = _run(capsys, "predict --model", model, marked)
    assert status == 0 and out.startswith("-DOCSTART- -X- O\n\nHe PRP B-NP ")

    conllu = tmp_path / "marked.conllu"
    conllu.write_text(BOM + CONLLU, encoding="utf-8")
    assert _run(capsys, "train --task tag --train", conllu, "--model", model)[0] == 0
    status, out, _ = _run(capsys, "predict --model", model, conllu)
    assert status == 0 and out == CONLLU
