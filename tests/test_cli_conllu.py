"""The ``skstruct`` command on CoNLL-U and CoNLL-X files (issue 14, items 2, 3 and the
command-line half of 5): sequence tasks that predict a column of their choice, ``predict``
writing its input back whole, CoNLL column files keeping ``-DOCSTART-`` lines and their
separator, and a tagger that fills the POS column before a parser reads it."""

import shutil
from pathlib import Path

import pytest

from skstruct import load
from skstruct.datasets import load_conllu
from tests.conftest import first_sentences
from tests.test_cli import CHUNK, SMALL, _assert_one_line_error, _evaluate, _file, _run
from tests.test_persistence import _forge

#: A hand-written file in the style of the UD English EWT treebank: `# newdoc id`,
#: `# sent_id` and `# text` comments, multiword tokens (2-3 don't), an empty node (5.1),
#: enhanced dependencies (2:nsubj|4:nsubj:xsubj) and SpaceAfter=No.
UD = Path(__file__).with_name("data") / "ud-ewt-style.conllu"
COLUMNS = {"upos": 3, "xpos": 4, "head": 6, "deprel": 7, "deps": 8}


def _ud_copy(tmp_path, name="ud.conllu"):
    return Path(shutil.copy(UD, tmp_path / name))


def _blocks(path, n, name, tmp_path, max_words=None):
    """The first ``n`` sentences (of at most ``max_words`` words) of ``path`` as a new
    file ``name``."""
    blocks = first_sentences(path.read_text(encoding="utf-8"), n, max_words)
    return _file(tmp_path, name, "\n\n".join(blocks) + "\n")


def _is_token(line):
    fields = line.split("\t")
    return len(fields) == 10 and fields[0].isdigit()


def _assert_written_back(source, output, changed):
    """``output`` is ``source`` line for line, but for the fields ``changed`` of regular
    token lines; returns those fields' new values, token by token."""
    before = Path(source).read_text(encoding="utf-8").splitlines()
    after = Path(output).read_text(encoding="utf-8").splitlines()
    assert len(after) == len(before)
    new = []
    for old_line, new_line in zip(before, after):
        if not _is_token(old_line):
            assert new_line == old_line  # comments, ranges, empty nodes, blank lines
            continue
        old, fields = old_line.split("\t"), new_line.split("\t")
        assert [f for i, f in enumerate(fields) if i not in changed] == [
            f for i, f in enumerate(old) if i not in changed
        ]
        new.append([fields[i] for i in sorted(changed)])
    return new


# -- item 2: sequence tasks from CoNLL-U and CoNLL-X -----------------------------------------


@pytest.mark.parametrize(
    ("options", "label"), [("", "upos"), ("--label xpos", "xpos"), ("--label deprel", "deprel")]
)
def test_tagging_from_conllu_predicts_the_chosen_column(options, label, tmp_path, capsys):
    # The bug: '# newdoc id = ...' read as a token, "expected 5 columns, got 4".
    train = _ud_copy(tmp_path)
    model = tmp_path / "tagger.npz"
    status, _, err = _run(capsys, "train --task tag --train", train, "--model", model, options)
    assert status == 0, err
    fitted, metadata = load(model, with_metadata=True)
    settings = metadata["cli"]
    assert (settings["format"], settings["label"], settings["token_columns"]) == (
        "conllu",
        label,
        ["form"],
    )
    gold = [[t[label] for t in sentence] for sentence in load_conllu(train)[0]]
    assert set(fitted.classes_.tolist()) == {tag for s in gold for tag in s}
    assert float(_evaluate(capsys, model, train)[0]["Token accuracy"]) == 100.0  # 26 words

    output = tmp_path / "tagged.conllu"
    assert _run(capsys, "predict --model", model, train, "-o", output)[0] == 0
    predicted = _assert_written_back(train, output, {COLUMNS[label]})
    assert [tag for (tag,) in predicted] == [tag for s in gold for tag in s]


def test_tagging_conll_x_with_more_token_columns(data_home, tmp_path, capsys):
    train = _blocks(data_home / "conll2007-es" / "train.conll", 150, "train.conll", tmp_path)
    test = _blocks(data_home / "conll2007-es" / "test.conll", 40, "test.conll", tmp_path)
    model = tmp_path / "tagger.npz"
    options = "--token-columns form,lemma --max-iter 3"
    status, _, err = _run(capsys, "train --task tag --train", train, "--model", model, options)
    assert status == 0, err
    assert "CPOSTAG" not in err and "UPOS labels" in err  # CoNLL-X's CPOSTAG is read as upos
    scores, _ = _evaluate(capsys, model, test)
    assert float(scores["Token accuracy"]) > 80
    output = tmp_path / "tagged.conll"
    assert _run(capsys, "predict --model", model, test, "-o", output)[0] == 0
    _assert_written_back(test, output, {COLUMNS["upos"]})


def test_span_task_on_a_conllu_column(tmp_path, capsys):
    # chunk/ner on CoNLL-U: IOB labels kept in a column such as MISC are scored as spans
    lines = []
    for line in UD.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if _is_token(line):
            fields[9] = "B-NP" if fields[3] in ("PRON", "PROPN", "NOUN") else "O"
        lines.append("\t".join(fields))
    train = _file(tmp_path, "iob.conllu", "\n".join(lines) + "\n")
    model = tmp_path / "chunker.npz"
    status, _, err = _run(
        capsys, "train --task chunk --label misc --train", train, "--model", model
    )
    assert status == 0, err
    scores, _ = _evaluate(capsys, model, train)
    assert float(scores["F1"]) == 100.0


def test_conllu_option_mistakes(data_home, tmp_path, capsys):
    ud, chunk = _ud_copy(tmp_path), _file(tmp_path, "train.txt", CHUNK)
    model = tmp_path / "m.npz"
    for options, message in [
        (f"--task tag --train {chunk} --label xpos", "--label names a CoNLL-U column"),
        (f"--task tag --train {ud} --label-column 1", "--label-column applies to CoNLL column"),
        (f"--task tag --train {ud} --token-columns form,upos", "includes upos"),
        (f"--task tag --train {ud} --token-columns word", "'word' is not one of"),
        (f"--task parse --train {ud} --label xpos", "--label does not apply to --task parse"),
        (f"--task parse --train {ud} --format conll", "--task parse reads CoNLL-U"),
    ]:
        status, _, err = _run(capsys, "train --model", model, options)
        assert status == 2 and message in err, (options, err)
    # the PTB sample has no UPOS: the error names the file, the line and the fix
    ptb = _blocks(data_home / "ptb-sample" / "train.conllu", 5, "ptb.conllu", tmp_path)
    status, _, err = _run(capsys, "train --task tag --train", ptb, "--model", model)
    _assert_one_line_error(status, err, "ptb.conllu, line 1: no UPOS to learn from", "--label")
    # a model for column files refuses a CoNLL-U file, and the other way round
    assert _run(capsys, "train --task chunk --train", chunk, "--model", model)[0] == 0
    status, _, err = _run(capsys, "predict --model", model, ud)
    _assert_one_line_error(status, err, "ud.conllu looks like CoNLL-U/CoNLL-X", "CoNLL columns")
    assert _run(capsys, "train --task tag --train", ud, "--model", model)[0] == 0
    status, _, err = _run(capsys, "evaluate --model", model, chunk)
    _assert_one_line_error(status, err, "train.txt looks like CoNLL columns")
    # a malformed CoNLL-U line gets load_conllu's message, with its line number
    bad = _file(tmp_path, "bad.conllu", UD.read_text().replace("\tdo\tdo\t", "\tdo\t"))
    status, _, err = _run(capsys, "train --task tag --train", bad, "--model", model)
    _assert_one_line_error(status, err, "bad.conllu, line 6", "expected 10 columns, got 9")


def test_models_with_version_1_settings_are_still_read(tmp_path, capsys):
    train = _file(tmp_path, "train.txt", CHUNK)
    model = tmp_path / "chunker.npz"
    assert _run(capsys, "train --task chunk --train", train, "--model", model)[0] == 0

    def set_settings(change):
        """Edit the settings in the model file (stored as a tagged dict of keys and values)."""

        def edit(document):
            cli = document["metadata"]["values"][document["metadata"]["keys"].index("cli")]
            settings = change(dict(zip(cli["keys"], cli["values"])))
            cli["keys"], cli["values"] = list(settings), list(settings.values())

        _forge(model, edit)

    def to_version_1(settings):  # what skstruct wrote before the format was stored
        assert settings.pop("format") == "conll" and settings["version"] == 2
        return {**settings, "version": 1}

    set_settings(to_version_1)
    assert load(model, with_metadata=True)[1]["cli"]["version"] == 1
    assert float(_evaluate(capsys, model, train)[0]["Token accuracy"]) > 90
    set_settings(lambda settings: {**settings, "version": 3})
    status, _, err = _run(capsys, "evaluate --model", model, train)
    _assert_one_line_error(status, err, "settings version 3", "versions up to 2")


# -- item 3: predict writes its input back whole ---------------------------------------------


@pytest.mark.parametrize("options", ["", "--unlabelled"])
def test_parse_predictions_keep_comments_ranges_and_empty_nodes(options, tmp_path, capsys):
    train = _ud_copy(tmp_path)
    model = tmp_path / "parser.npz"
    status, _, err = _run(
        capsys, "train --task parse --train", train, "--model", model, SMALL, options
    )
    assert status == 0, err
    output = tmp_path / "parsed.conllu"
    assert _run(capsys, "predict --model", model, train, "--output", output)[0] == 0
    changed = _assert_written_back(train, output, {6, 7, 8})
    assert all(deps == "_" for _, _, deps in changed)  # the gold enhanced graph is gone
    X, _ = load_conllu(train)
    predicted = load(model).predict(X)
    heads = [int(head) for head, _, _ in changed]
    if options:
        assert heads == [h for s in predicted for h in s]
        assert {deprel for _, deprel, _ in changed} == {"_"}
    else:
        assert list(zip(heads, (d for _, d, _ in changed))) == [p for s in predicted for p in s]
    text = output.read_text(encoding="utf-8")
    for kept in ("# newdoc id = reviews-example-0002", "2-3\tdon't", "5.1\tlikes", "CopyOf=2"):
        assert kept in text


@pytest.mark.parametrize(
    ("folder", "train_name", "test_name", "options"),
    [
        ("ptb-sample", "train.conllu", "test.conllu", "--unlabelled"),
        ("conll2007-es", "train.conll", "test.conll", "--decoder chu-liu-edmonds"),
    ],
)
def test_predict_round_trip_on_real_treebanks(
    folder, train_name, test_name, options, data_home, tmp_path, capsys
):
    train = _blocks(data_home / folder / train_name, 150, train_name, tmp_path)
    test = data_home / folder / test_name
    model = tmp_path / "parser.npz"
    args = ["train --task parse --max-iter 1 --train", train, "--model", model, SMALL, options]
    status, _, err = _run(capsys, *args)
    assert status == 0, err
    output = tmp_path / "parsed"
    assert _run(capsys, "predict --model", model, test, "-o", output)[0] == 0
    changed = _assert_written_back(test, output, {6, 7, 8})
    assert len(changed) == sum(map(len, load_conllu(test)[0]))
    assert {deps for _, _, deps in changed} == {"_"}


def test_column_predictions_keep_docstart_lines_and_the_separator(tmp_path, capsys):
    text = "-DOCSTART-\tO\n\n" + "\n".join(
        "\t".join(line.split())
        for line in CHUNK.replace("\n\n", "\n\n-DOCSTART-\tO\n\n").split("\n")
    )
    train = _file(tmp_path, "tabs.txt", text)
    model = tmp_path / "chunker.npz"
    assert _run(capsys, "train --task chunk --train", train, "--model", model)[0] == 0
    status, out, err = _run(capsys, "predict --model", model, train)
    assert status == 0, err
    source, written = train.read_text().splitlines(), out.splitlines()
    assert len(written) == len(source) and written.count("-DOCSTART-\tO") == 3
    for before, after in zip(source, written):
        if before.strip() and not before.startswith("-DOCSTART-"):
            assert after.startswith(before + "\t") and after.count("\t") == 3
        else:
            assert after == before


# -- item 5: a tagger before the parser ------------------------------------------------------


def test_parsing_with_predicted_tags(data_home, tmp_path, capsys):
    ptb = data_home / "ptb-sample"
    train = _blocks(ptb / "train.conllu", 400, "train.conllu", tmp_path)
    test = _blocks(ptb / "test.conllu", 60, "test.conllu", tmp_path)
    tagger, parser = tmp_path / "tagger.npz", tmp_path / "parser.npz"
    status, _, err = _run(
        capsys, "train --task tag --label xpos --max-iter 3 --train", train, "--model", tagger
    )
    assert status == 0, err
    status, _, err = _run(
        capsys,
        "train --task parse --max-iter 3 --train",
        train,
        "--model",
        parser,
        "--n-features 65536",
    )
    assert status == 0, err

    gold, _ = _evaluate(capsys, parser, test)
    predicted, report = _evaluate(capsys, parser, test, "--tagger", tagger)
    assert "POS predicted by" in report
    assert 80 < float(predicted["XPOS accuracy"]) < 100
    # 73.2 with gold tags, 69.2 with predicted ones; chance (a head drawn at random) is about 4%
    assert 60 < float(predicted["UAS"]) <= float(gold["UAS"])
    line = next(line for line in report.splitlines() if line.startswith("CoNLL 2018"))
    assert f"XPOS {predicted['XPOS accuracy']}, UAS {predicted['UAS']}" in line

    # predict writes the tags the parser read, and the heads
    output = tmp_path / "parsed.conllu"
    status, _, err = _run(capsys, "predict --model", parser, "--tagger", tagger, test, "-o", output)
    assert status == 0, err
    changed = _assert_written_back(test, output, {4, 6, 7, 8})
    X, _ = load_conllu(test)
    tags = load(tagger).predict([[(t["form"],) for t in s] for s in X])
    assert [xpos for xpos, *_ in changed] == [tag for s in tags for tag in s]


def test_tagger_mistakes(tmp_path, capsys):
    ud, chunk = _ud_copy(tmp_path), _file(tmp_path, "train.txt", CHUNK)
    parser, upos, columns, lemma = (
        tmp_path / name for name in ("p.npz", "u.npz", "c.npz", "l.npz")
    )
    assert _run(capsys, "train --task parse --train", ud, "--model", parser, SMALL)[0] == 0
    assert _run(capsys, "train --task tag --train", ud, "--model", upos)[0] == 0
    assert (
        _run(capsys, "train --task tag --label-column 1 --train", chunk, "--model", columns)[0] == 0
    )
    assert _run(capsys, "train --task tag --label lemma --train", ud, "--model", lemma)[0] == 0
    for model, tagger, message in [
        (parser, upos, "the parser reads the XPOS column of"),
        (parser, columns, "a tag model trained on CoNLL column files"),
        (parser, lemma, "predicts LEMMA, not a POS column"),
        (parser, parser, "is a parse model"),
        (upos, upos, "but " + str(upos) + " is a tag model"),
    ]:
        status, _, err = _run(capsys, "evaluate --model", model, "--tagger", tagger, ud)
        _assert_one_line_error(status, err, message)
