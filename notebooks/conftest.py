"""Markers and failure reports of the notebooks that nbmake runs as tests.

Every notebook gets ``notebook`` (``-m "not notebook"`` leaves them all out); those that read
the real corpora (a code cell calls one of the ``fetch_*`` functions of skstruct.datasets)
also get ``data``, like the tests that do, so that ``-m "not data"`` leaves them out too.

A failing cell's traceback comes from IPython with ANSI colour codes, which a terminal
without colour and a CI log show as raw ``\\x1b[0;31m`` noise: they are stripped from the
failure report.
"""

import json
import re
from pathlib import Path

import pytest

# Control Sequence Introducer sequences (colours, cursor moves) and lone escapes.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
_FETCH_CALL = re.compile(r"\bfetch_\w+\(")


def strip_ansi(text):
    """``text`` without ANSI escape sequences.

    Examples
    --------
    >>> strip_ansi("\\x1b[0;31mValueError\\x1b[0m: bad")
    'ValueError: bad'
    """
    return _ANSI.sub("", text)


def _reads_corpora(path):
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    return any(
        _FETCH_CALL.search("".join(cell["source"])) for cell in cells if cell["cell_type"] == "code"
    )


#: The notebooks, longest first (the cold suite on 2 cores, 2026-11-29: 12.1 s down to
#: 6.3 s). They run last, in this order, so that the last ones are short and the two
#: pytest-xdist workers finish closer together: in name order one worker ended 6.2 and
#: 6.4 s before the other (two runs), in this order 4.4 s (one run). A notebook not
#: listed runs after these.
LONGEST_FIRST = (
    "collins_reranking", "hall_constituency", "bcfw_ssvm", "huang_inexact_search",
    "collins_eg_convergence", "crfsuite_tutorial", "swvp_table1", "getting_started",
    "mcdonald_parameter_mixing",
)  # fmt: skip


def pytest_collection_modifyitems(items):
    notebooks = [i for i, item in enumerate(items) if item.path.suffix == ".ipynb"]
    for item in (items[i] for i in notebooks):
        item.add_marker(pytest.mark.notebook)
        if _reads_corpora(item.path):
            item.add_marker(pytest.mark.data)
    rank = {name: r for r, name in enumerate(LONGEST_FIRST)}
    ordered = sorted(
        (items[i] for i in notebooks),
        key=lambda item: (rank.get(item.path.stem, len(rank)), item.path.stem),
    )
    for i, item in zip(notebooks, ordered):
        items[i] = item


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if item.path.suffix == ".ipynb" and report.failed:
        longrepr = report.longrepr
        if isinstance(longrepr, str):
            report.longrepr = strip_ansi(longrepr)
        else:
            if isinstance(getattr(longrepr, "term", None), str):  # nbmake's failure report
                longrepr.term = strip_ansi(longrepr.term)
            crash = getattr(longrepr, "reprcrash", None)
            if isinstance(getattr(crash, "message", None), str):  # the short summary line
                crash.message = strip_ansi(crash.message)
    return report
