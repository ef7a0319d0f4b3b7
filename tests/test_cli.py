"""The ``skstruct`` command: train -> predict -> evaluate for every task, the demo, --quiet,
progress bars, exit statuses and one-line errors for user mistakes."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from skstruct import StructuredPerceptron, TokenFeatures, load, save
from skstruct.cli import main
from skstruct.datasets import load_conll, load_conllu
from skstruct.features import crfsuite_tutorial_features
from skstruct.metrics import span_f1_score, token_accuracy
from tests.test_persistence import _forge

CHUNK = """\
He PRP B-NP
reckons VBZ B-VP
the DT B-NP
current JJ I-NP
account NN I-NP
deficit NN I-NP
will MD B-VP
narrow VB I-VP
. . O

Rockwell NNP B-NP
said VBD B-VP
the DT B-NP
agreement NN I-NP
calls VBZ B-VP
for IN B-PP
it PRP B-NP
. . O

Confidence NN B-NP
in IN B-PP
the DT B-NP
pound NN I-NP
is VBZ B-VP
widely RB I-VP
expected VBN I-VP
. . O
"""
NER = """\
Sao B-LOC
Paulo I-LOC
( O
Brasil B-LOC
) O
. O

La O
Agencia B-ORG
EFE I-ORG
dijo O
Juan B-PER
Perez I-PER
. O
"""
# 10 columns: ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC
TREES = """\
1\tThe\t_\tDET\tDT\t_\t2\tdet\t_\t_
2\tdog\t_\tNOUN\tNN\t_\t3\tnsubj\t_\t_
3\tsaw\t_\tVERB\tVBD\t_\t0\troot\t_\t_
4\ta\t_\tDET\tDT\t_\t5\tdet\t_\t_
5\tcat\t_\tNOUN\tNN\t_\t3\tobj\t_\t_
6\t.\t_\tPUNCT\t.\t_\t3\tpunct\t_\t_

1\tA\t_\tDET\tDT\t_\t2\tdet\t_\t_
2\tman\t_\tNOUN\tNN\t_\t3\tnsubj\t_\t_
3\tate\t_\tVERB\tVBD\t_\t0\troot\t_\t_
4\t.\t_\tPUNCT\t.\t_\t3\tpunct\t_\t_

1\tThe\t_\tDET\tDT\t_\t2\tdet\t_\t_
2\tbig\t_\tADJ\tJJ\t_\t3\tamod\t_\t_
3\tcat\t_\tNOUN\tNN\t_\t4\tnsubj\t_\t_
4\tsaw\t_\tVERB\tVBD\t_\t0\troot\t_\t_
5\tthe\t_\tDET\tDT\t_\t6\tdet\t_\t_
6\tman\t_\tNOUN\tNN\t_\t4\tobj\t_\t_
"""
# small hashed weight spaces: the parsers' default 2**22 weights only cost time here
SMALL = "--n-features 4096"


def _run(capsys, *parts):
    """Run ``skstruct``; strings are split into words, paths and numbers kept whole."""
    args = [
        word for part in parts for word in (part.split() if isinstance(part, str) else [str(part)])
    ]
    status = main(args)
    out, err = capsys.readouterr()
    return status, out, err


def _file(tmp_path, name, text, copies=1):
    path = tmp_path / name
    path.write_text("\n".join([text] * copies), encoding="utf-8")
    return path


def _assert_one_line_error(status, err, *fragments):
    """Status 1 and, after any progress messages, the error on one line of its own."""
    assert status == 1
    *_, last = err.splitlines()
    assert last.startswith("skstruct: error: ") and err.endswith(last + "\n"), err
    assert "Traceback" not in err and err.count("error") == 1
    for fragment in fragments:
        assert fragment in last


def _evaluate(capsys, model, path, *options):
    """The report of ``skstruct evaluate`` and its numbers by name ("UAS", "F1", ...)."""
    status, out, err = _run(capsys, "evaluate --model", model, path, *options)
    assert status == 0, err
    numbers = re.findall(r"([A-Za-z][\w ]*?): (n/a|[\d.]+)", out)
    return {name.strip(): value for name, value in numbers}, out


# -- train -> predict -> evaluate ---------------------------------------------------------------


def test_chunking_round_trip(tmp_path, capsys):
    train = _file(tmp_path, "train.txt", CHUNK, copies=3)
    model = tmp_path / "chunker.npz"
    args = ["train --task chunk --max-iter 5 --train", train, "--dev", train, "--model", model]
    status, out, err = _run(capsys, *args)
    assert status == 0, err
    assert out.startswith(f"Saved {model}: StructuredPerceptron, 5 epochs") and "dev" in out
    assert "Read " in err and "Training " in err
    _fitted, metadata = load(model, with_metadata=True)
    assert metadata["cli"]["features"] == "crfsuite"  # a POS column: the tutorial's features

    predicted = tmp_path / "predicted.txt"
    status, out, err = _run(capsys, "predict --model", model, train, "--output", predicted)
    assert status == 0 and out == "", err
    rows, labels = load_conll(predicted)  # word, POS, gold chunk, predicted chunk
    gold_rows, gold = load_conll(train)
    assert [[row[:2] for row in s] for s in rows] == [[row[:2] for row in s] for s in gold_rows]
    assert [[row[2] for row in s] for s in rows] == gold
    assert token_accuracy(gold, labels) > 0.9

    scores, report = _evaluate(capsys, model, train)
    assert float(scores["Token accuracy"]) == pytest.approx(100 * token_accuracy(gold, labels))
    assert float(scores["Span precision"]) > 80
    assert "NP" in report and "micro avg" in report


def test_prediction_without_the_label_column_goes_to_stdout(tmp_path, capsys):
    train = _file(tmp_path, "train.txt", CHUNK, copies=3)
    words = _file(
        tmp_path, "words.txt", "\n".join(" ".join(line.split()[:2]) for line in CHUNK.splitlines())
    )
    model = tmp_path / "chunker.npz"
    assert _run(capsys, "train --task chunk --train", train, "--model", model)[0] == 0
    status, out, _ = _run(capsys, "predict --model", model, words)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["He", "PRP"] and len(lines[0].split()) == 3
    predicted = [line.split()[-1] for line in lines if line]
    X, _ = load_conll(words, label_column=None)
    assert predicted == [
        tag for s in load(model).predict(crfsuite_tutorial_features(X)) for tag in s
    ]
    status, _, err = _run(capsys, "evaluate --model", model, words)
    _assert_one_line_error(status, err, "words.txt has no label column")


def test_ner_without_pos_uses_token_features(tmp_path, capsys):
    train = _file(tmp_path, "ner.txt", NER, copies=3)
    model = tmp_path / "ner.npz"
    status, _, err = _run(
        capsys, "train --task ner --train", train, "--model", model, "--algorithm swvp --gamma wmr"
    )
    assert status == 0, err
    fitted, metadata = load(model, with_metadata=True)
    assert metadata["cli"]["features"] == "token" and isinstance(fitted.features, TokenFeatures)
    scores, report = _evaluate(capsys, model, train)
    assert float(scores["Span precision"]) == 100.0
    assert {"LOC", "ORG", "PER"} <= set(report.split())


def test_tagging_with_a_label_column_and_beam_search(tmp_path, capsys):
    train = _file(tmp_path, "train.txt", CHUNK, copies=3)
    model = tmp_path / "tagger.npz"
    options = "--label-column 1 --decoder beam --beam-size 2"
    status, _, err = _run(capsys, "train --task tag --train", train, "--model", model, options)
    assert status == 0, err
    fitted = load(model)
    assert fitted.update == "max_violation" and fitted.decoder.beam_size == 2
    assert "DT" in fitted.classes_.tolist()  # the POS column is the label
    scores, report = _evaluate(capsys, model, train)
    assert float(scores["Token accuracy"]) > 90 and "Span" not in report


@pytest.mark.parametrize(
    ("algorithm", "estimator", "solver"),
    [("eg", "ExponentiatedGradientSSVM", None), ("ssvm", "StructuredSVM", "bcfw")],
)
def test_structured_svm_chunkers(algorithm, estimator, solver, tmp_path, capsys):
    train = _file(tmp_path, "train.txt", CHUNK, copies=2)
    model = tmp_path / f"{algorithm}.npz"
    options = f"--algorithm {algorithm} --C 0.5 --max-iter 3 --tol 0 --features token"
    status, _, err = _run(capsys, "train --task chunk --train", train, "--model", model, options)
    assert status == 0, err
    fitted = load(model)
    assert type(fitted).__name__ == estimator
    assert (fitted.C, fitted.n_iter_) == (0.5, 3)
    assert getattr(fitted, "solver", None) == solver
    assert float(_evaluate(capsys, model, train)[0]["Token accuracy"]) > 80


@pytest.mark.parametrize(
    ("options", "las"),
    [
        ("", True),
        ("--decoder chu-liu-edmonds", True),
        ("--algorithm eg", False),  # EG parses unlabelled trees: DEPREL is left aside
        ("--algorithm ssvm --decoder chu-liu-edmonds", True),  # BCFW learns the labels
        ("--decoder arc-standard --beam-size 2", False),
        ("--unlabelled --order 2", False),
    ],
)
def test_parsing_round_trip(options, las, tmp_path, capsys):
    train = _file(tmp_path, "train.conllu", TREES, copies=3)
    model = tmp_path / "parser.npz"
    status, _, err = _run(
        capsys, "train --task parse --train", train, "--model", model, SMALL, options
    )
    assert status == 0, err
    assert hasattr(load(model), "classes_") == las

    # input to parse: the HEAD and DEPREL columns left empty
    unparsed = _file(
        tmp_path,
        "unparsed.conllu",
        "\n".join(
            "\t".join([*f[:6], "_", "_", *f[8:]]) if len(f := line.split("\t")) == 10 else line
            for line in TREES.splitlines()
        ),
    )
    output = tmp_path / "parsed.conllu"
    status, _, err = _run(capsys, "predict --model", model, unparsed, "-o", output)
    assert status == 0, err
    X, trees = load_conllu(output, labelled=True)
    gold_X, _gold = load_conllu(train, labelled=True)
    assert [t["form"] for t in X[0]] == [t["form"] for t in gold_X[0]]
    assert trees == (
        load(model).predict(X) if las else [[(h, "_") for h in s] for s in load(model).predict(X)]
    )

    scores, report = _evaluate(capsys, model, train)
    assert float(scores["UAS"]) > 80
    assert (scores["LAS"] != "n/a") == las
    # the CoNLL 2018 shared task's scores of what the parser predicted: every word
    line = next(line for line in report.splitlines() if line.startswith("CoNLL 2018"))
    figures = dict(re.findall(r"(\w+) ([\d.]+)", line.split(": ", 1)[1]))
    assert figures["UAS"] == scores["UAS"]
    assert set(figures) == ({"UAS", "LAS", "CLAS", "MLAS", "BLEX"} if las else {"UAS"})
    assert not las or figures["LAS"] == scores["LAS"]
    words = {
        punct: _evaluate(capsys, model, train, "--punct", punct)[1] for punct in ("form", "none")
    }
    assert "42 words scored" in words["form"] and "48 words scored" in words["none"]


@pytest.mark.data
def test_conll2000_chunking_matches_the_python_api(data_home, tmp_path, capsys):
    def sentences(name, n):
        text = (data_home / "conll2000" / name).read_text(encoding="utf-8")
        return _file(tmp_path, name, "\n\n".join(text.split("\n\n")[:n]))

    train, test = sentences("train.txt", 1000), sentences("test.txt", 300)
    model = tmp_path / "chunker.npz"
    args = ["train --task chunk --train", train, "--model", model, "--max-iter", 3]
    assert _run(capsys, *args)[0] == 0
    scores, _ = _evaluate(capsys, model, test)

    X, y = load_conll(train)
    X_test, y_test = load_conll(test)
    python = StructuredPerceptron(max_iter=3, random_state=0)
    python.fit(crfsuite_tutorial_features(X), y)
    f1 = span_f1_score(y_test, python.predict(crfsuite_tutorial_features(X_test)))
    assert float(scores["F1"]) == pytest.approx(100 * f1, abs=0.005) and f1 > 0.8


# -- demo, --quiet, progress bars ------------------------------------------------------------


def test_demo_prints_scores(capsys):
    status, out, err = _run(capsys, "demo --n-samples", 300, "--max-iter", 5)
    assert status == 0
    assert "synthetic HMM sequences" in err
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == ["perceptron", "swvp", "eg", "ssvm"]
    assert all(float(line.split("token accuracy")[1].split()[0]) > 75 for line in lines)


def test_quiet_prints_results_only(tmp_path, capsys):
    train = _file(tmp_path, "train.txt", CHUNK)
    model = tmp_path / "chunker.npz"
    status, out, err = _run(capsys, "train -q --task chunk --train", train, "--model", model)
    assert (status, err) == (0, "") and out.startswith("Saved ")
    status, out, err = _run(capsys, "evaluate --quiet --model", model, train)
    assert (status, err) == (0, "") and "Token accuracy" in out
    status, out, err = _run(capsys, "demo -q --n-samples", 100, "--max-iter", 1)
    assert (status, err) == (0, "") and len(out.splitlines()) == 4


@pytest.mark.parametrize("quiet", [False, True])
def test_progress_bars_on_a_terminal_unless_quiet(quiet, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    args = ["demo --algorithm perceptron --n-samples", 100, "--max-iter", 2]
    status, _, err = _run(capsys, *args, *(["--quiet"] if quiet else []))
    assert status == 0
    assert ("epoch" in err) != quiet


def test_help_and_version(capsys):
    status, out, _ = _run(capsys, "--version")
    assert status == 0 and out.startswith("skstruct ")
    status, out, _ = _run(capsys, "train --help")
    assert status == 0 and "--algorithm" in out


# -- user mistakes --------------------------------------------------------------------------


def test_missing_files(tmp_path, capsys):
    model = tmp_path / "m.npz"
    status, _, err = _run(capsys, "train --task tag --train", tmp_path / "no.txt", "--model", model)
    _assert_one_line_error(status, err, "no.txt: No such file or directory")
    status, _, err = _run(capsys, "predict --model", model, tmp_path / "no.txt")
    _assert_one_line_error(status, err, "m.npz: No such file or directory")
    train = _file(tmp_path, "train.txt", CHUNK)
    status, _, err = _run(
        capsys, "train --task tag --train", train, "--model", tmp_path / "missing" / "m.npz"
    )
    _assert_one_line_error(status, err, "cannot save the model", "no folder")


def test_malformed_lines_are_reported_with_their_number(tmp_path, capsys):
    lines = CHUNK.splitlines()
    lines[11] = "said B-VP"  # line 12: two columns among lines of three
    train = _file(tmp_path, "train.txt", "\n".join(lines))
    status, _, err = _run(
        capsys, "train --task chunk --train", train, "--model", tmp_path / "m.npz"
    )
    _assert_one_line_error(status, err, "train.txt, line 12: expected 3 columns, got 2")

    trees = TREES.splitlines()
    trees[2] = trees[2].replace("\t0\troot", "\tnine\troot")
    bad = _file(tmp_path, "bad.conllu", "\n".join(trees))
    status, _, err = _run(capsys, "train --task parse --train", bad, "--model", tmp_path / "m.npz")
    _assert_one_line_error(status, err, "bad.conllu, line 3")


def test_files_that_are_not_models(tmp_path, capsys, monkeypatch):
    text = _file(tmp_path, "train.txt", CHUNK)
    status, _, err = _run(capsys, "predict --model", text, text)
    _assert_one_line_error(status, err, "train.txt is not an skstruct model file")

    api_model = tmp_path / "api.npz"
    save(StructuredPerceptron(features=TokenFeatures()).fit([["a"]], [["A"]]), api_model)
    status, _, err = _run(capsys, "evaluate --model", api_model, text)
    _assert_one_line_error(status, err, "not by 'skstruct train'")

    model = tmp_path / "chunker.npz"
    assert _run(capsys, "train --task chunk --train", text, "--model", model)[0] == 0
    _forge(model, lambda document: document.update(format_version=99))
    status, _, err = _run(capsys, "evaluate --model", model, text)
    _assert_one_line_error(status, err, "format version 99", "format versions 1 to 3 only")


def test_inputs_that_do_not_fit_the_model(tmp_path, capsys):
    train = _file(tmp_path, "train.txt", CHUNK)
    model = tmp_path / "chunker.npz"
    assert _run(capsys, "train --task chunk --train", train, "--model", model)[0] == 0
    words = _file(tmp_path, "words.txt", "He\nsaid\n")
    status, _, err = _run(capsys, "predict --model", model, words)
    _assert_one_line_error(
        status, err, "words.txt has 1 column, but the model reads 2 columns of tokens"
    )
    ner = _file(tmp_path, "ner.txt", NER)
    status, _, err = _run(
        capsys, "train --task chunk --train", train, "--dev", ner, "--model", model
    )
    _assert_one_line_error(status, err, "ner.txt has 2 columns but")


def test_non_projective_training_trees_are_lifted_and_said_so(tmp_path, capsys):
    crossing = "\n".join(
        [  # 1 <- 3 crosses 2 <- 4
            "1\tA\t_\tX\tX\t_\t3\t_\t_\t_",
            "2\tB\t_\tX\tX\t_\t4\t_\t_\t_",
            "3\tC\t_\tX\tX\t_\t0\t_\t_\t_",
            "4\tD\t_\tX\tX\t_\t3\t_\t_\t_",
            "",
        ]
    )
    train = _file(tmp_path, "train.conllu", TREES + "\n" + crossing)
    args = ["train --task parse --train", train, "--model", tmp_path / "m.npz", SMALL]
    status, _, err = _run(capsys, *args)  # a UD treebank trains as the README gives it
    assert status == 0
    assert "1 of 4 training trees are not projective: eisner trains on them" in err
    assert "--projectivize" in err and "chu-liu-edmonds" in err
    status, _, err = _run(capsys, *args, "--projectivize")
    assert status == 0 and "not projective" not in err
    status, _, err = _run(capsys, *args, "--decoder chu-liu-edmonds")
    assert status == 0 and "not projective" not in err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("--task tag --decoder eisner", "--decoder eisner is a parser"),
        ("--task parse --decoder greedy", "is a sequence decoder"),
        ("--task tag --algorithm eg --update early", "--update applies to"),
        ("--task tag --algorithm eg --decoder beam", "cannot learn with"),
        ("--task parse --algorithm swvp --decoder arc-standard", "cannot learn"),
        ("--task parse --algorithm eg --labelled", "unlabelled trees only"),
        ("--task tag --algorithm eg --order 2", "first-order"),
        ("--task tag --beam-size 3", "--beam-size applies"),
        ("--task tag --early-stopping 2", "needs a development set"),
        ("--task tag --labelled", "does not apply to --task tag"),
        ("--task parse --label-column 1", "does not apply to --task parse"),
        ("--task tag --decoder greedy --order 0", "'order' parameter"),
        ("--task tag --max-iter 0", "'max_iter' parameter"),
        ("--task shallow-parse", "invalid choice: 'shallow-parse'"),
    ],
)
def test_usage_errors_exit_with_status_2(options, message, tmp_path, capsys):
    train = _file(tmp_path, "never-read.txt", "")
    status, out, err = _run(capsys, "train --model m.npz --train", train, options)
    assert status == 2 and out == ""
    assert err.startswith("usage: skstruct train") and message in err
    assert "Traceback" not in err


def _console_script():
    script = Path(sys.executable).with_name("skstruct")
    return [str(script)] if script.exists() else [sys.executable, "-m", "skstruct.cli"]


def test_console_script_exit_statuses(tmp_path):
    missing = subprocess.run(
        [*_console_script(), "evaluate", "--model", str(tmp_path / "m.npz"), "x.txt"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert missing.returncode == 1 and missing.stdout == ""
    assert missing.stderr == f"skstruct: error: {tmp_path / 'm.npz'}: No such file or directory\n"
    usage = subprocess.run(
        [*_console_script(), "train"], capture_output=True, text=True, timeout=120
    )
    assert usage.returncode == 2 and "the following arguments are required" in usage.stderr
