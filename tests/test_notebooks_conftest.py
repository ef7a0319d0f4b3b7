"""notebooks/conftest.py: which notebooks read corpora, and colour-free failure reports."""

import importlib.util
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from nbmake.pytest_items import NbMakeFailureRepr

_PATH = Path(__file__).resolve().parents[1] / "notebooks" / "conftest.py"
_SPEC = importlib.util.spec_from_file_location("notebooks_conftest", _PATH)
notebooks_conftest = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(notebooks_conftest)

# The start of a traceback as IPython colours it in a failing notebook cell.
COLOURED = (
    "\x1b[0;31m-----------\x1b[0m\n"
    "\x1b[0;31mOSError\x1b[0m                Traceback (most recent call last)\n"
    "Cell \x1b[0;32mIn[2], line 3\x1b[0m\n"
    "\x1b[0;32m----> 3\x1b[0m train \x1b[38;5;241m=\x1b[39m "
    '\x1b[0mfetch_conll2000(\x1b[38;5;124m"train"\x1b[39m)\n'
    "\x1b[0;31mOSError\x1b[0m: conll2000 subset 'train' not found\x1b[K"
)
PLAIN = (
    "-----------\n"
    "OSError                Traceback (most recent call last)\n"
    "Cell In[2], line 3\n"
    '----> 3 train = fetch_conll2000("train")\n'
    "OSError: conll2000 subset 'train' not found"
)


def test_strip_ansi_removes_colours_and_keeps_text():
    assert notebooks_conftest.strip_ansi(COLOURED) == PLAIN
    assert notebooks_conftest.strip_ansi("[0;31m is not an escape") == "[0;31m is not an escape"


def _run_hook(path, report):
    hook = notebooks_conftest.pytest_runtest_makereport(SimpleNamespace(path=Path(path)), None)
    next(hook)
    with pytest.raises(StopIteration) as done:
        hook.send(report)
    return done.value.value


def test_failure_report_of_a_notebook_is_stripped():
    repr_ = NbMakeFailureRepr(COLOURED, COLOURED.splitlines()[-1])
    report = _run_hook("nb.ipynb", SimpleNamespace(failed=True, longrepr=repr_))
    assert report.longrepr.term == PLAIN
    assert report.longrepr.reprcrash.message == "OSError: conll2000 subset 'train' not found"
    text = _run_hook("nb.ipynb", SimpleNamespace(failed=True, longrepr=COLOURED)).longrepr
    assert text == PLAIN


def test_other_reports_are_left_alone():
    report = _run_hook("test_x.py", SimpleNamespace(failed=True, longrepr=COLOURED))
    assert report.longrepr == COLOURED
    report = _run_hook("nb.ipynb", SimpleNamespace(failed=False, longrepr=None))
    assert report.longrepr is None


def _notebook(tmp_path, cells):
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({"cells": [{"cell_type": t, "source": s} for t, s in cells]}))
    return path


def test_notebooks_that_call_a_fetcher_read_corpora(tmp_path):
    reads = notebooks_conftest._reads_corpora
    assert reads(_notebook(tmp_path, [("code", ["X, y = fetch_ptb_sample(", '"dev")'])]))
    assert not reads(_notebook(tmp_path, [("markdown", ["uses fetch_brown()"])]))
    assert not reads(_notebook(tmp_path, [("code", ["make_chain_data(10)"])]))


def test_every_notebook_that_reads_corpora_is_marked():
    folder = _PATH.parent
    marked = {
        path.name for path in folder.glob("*.ipynb") if notebooks_conftest._reads_corpora(path)
    }
    assert {
        "getting_started.ipynb",
        "collins_eg_convergence.ipynb",
        "bcfw_ssvm.ipynb",
        "huang_inexact_search.ipynb",
        "mcdonald_parameter_mixing.ipynb",
    } <= marked
