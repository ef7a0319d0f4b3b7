"""Progress over epochs (issue 14, item 8): a tqdm bar on a terminal, one plain line per
epoch elsewhere or with ``verbose=2`` / ``skstruct -v``; no ``dev=None``; ``-q`` silent."""

import re
import sys

import pytest

from skstruct import (
    SWVP,
    ExponentiatedGradientSSVM,
    StructuredPerceptron,
    StructuredSVM,
    TokenFeatures,
)
from skstruct.datasets import make_chain_data
from tests.test_cli import CHUNK, SMALL, TREES, _file, _run

X, Y = make_chain_data(60, random_state=0)
LINE = r"^{name} epoch {epoch}/3: \d+\.\d\d s, {train}(, dev {dev} \d+\.\d\d%)?$"


def _fit(model, capsys, dev):
    extra = {"X_dev": X[40:], "y_dev": Y[40:]} if dev else {}
    model.fit(X[:40], Y[:40], **extra)
    return capsys.readouterr().err


@pytest.mark.parametrize("dev", [False, True])
@pytest.mark.parametrize(
    ("cls", "train"),
    [
        (StructuredPerceptron, r"online train accuracy \d+\.\d\d%, \d+/40 sequences wrong"),
        (SWVP, r"online train accuracy \d+\.\d\d%, \d+/40 sequences wrong"),
        (ExponentiatedGradientSSVM, r"duality gap \S+, primal \S+"),
        # BCFW's gap every 10 passes and after the last: the mean step before that
        (StructuredSVM, r"(mean step \S+|duality gap \S+, primal \S+)"),
    ],
)
def test_one_plain_line_per_epoch_when_stderr_is_not_a_terminal(cls, train, dev, capsys):
    # The bug: tqdm's carriage-return frames in logs, with dev=None.
    err = _fit(cls(features=TokenFeatures(), max_iter=3, verbose=1, random_state=0), capsys, dev)
    lines = err.splitlines()
    assert len(lines) == 3 and "\r" not in err and "None" not in err
    for epoch, line in enumerate(lines, 1):
        pattern = LINE.format(name=cls.__name__, epoch=epoch, train=train, dev="accuracy")
        assert re.match(pattern, line), line
        assert ("dev accuracy" in line) == dev


def test_training_accuracy_is_the_recorded_online_accuracy(capsys):
    model = StructuredPerceptron(features=TokenFeatures(), max_iter=3, verbose=2, random_state=0)
    lines = _fit(model, capsys, dev=True).splitlines()
    for line, record in zip(lines, model.history_, strict=True):
        assert f"online train accuracy {100 * record['train_score']:.2f}%" in line
        assert f"{record['mistakes']}/40 sequences wrong" in line
        assert line.endswith(f"dev accuracy {100 * record['dev_score']:.2f}%")


@pytest.mark.parametrize("dev", [False, True])
def test_a_bar_on_a_terminal_without_dev_none(dev, capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    err = _fit(StructuredPerceptron(features=TokenFeatures(), max_iter=3, verbose=1), capsys, dev)
    assert "epoch" in err and "\r" in err  # tqdm's frames
    assert "None" not in err and ("dev=" in err) == dev
    err = _fit(StructuredPerceptron(features=TokenFeatures(), max_iter=3, verbose=2), capsys, dev)
    assert "\r" not in err and len(err.splitlines()) == 3  # verbose=2: plain lines anyway


def test_verbose_0_is_silent(capsys):
    assert _fit(StructuredPerceptron(features=TokenFeatures(), max_iter=3), capsys, True) == ""


def test_command_line_progress(tmp_path, capsys, monkeypatch):
    train = _file(tmp_path, "train.conllu", TREES)
    model = tmp_path / "parser.npz"
    args = ["train --task parse --max-iter 3 --train", train, "--dev", train, "--model", model]
    for verbose in ([], ["-v"]):  # not a terminal: a plain line per epoch, never silent
        status, _, err = _run(capsys, *args, SMALL, *verbose)
        lines = [line for line in err.splitlines() if " epoch " in line]
        assert status == 0 and len(lines) == 3 and "\r" not in err
        assert lines[0].startswith("StructuredPerceptron epoch 1/3: ") and "dev UAS" in lines[0]
    status, out, err = _run(capsys, *args, SMALL, "-q")
    assert (status, err) == (0, "") and out.startswith("Saved")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    status, _, err = _run(capsys, *args, SMALL)  # a terminal: the bar
    assert status == 0 and "\r" in err and "epoch" in err
    status, _, err = _run(capsys, *args, SMALL, "-v")  # -v: plain lines on a terminal too
    assert status == 0 and "\r" not in err and "epoch 3/3" in err


def test_verbose_and_quiet_exclude_each_other(tmp_path, capsys):
    train = _file(tmp_path, "train.txt", CHUNK)
    status, _, err = _run(capsys, "train -v -q --task chunk --model m.npz --train", train)
    assert status == 2 and "not allowed with argument" in err
