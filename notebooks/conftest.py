"""Markers for the notebooks that nbmake runs as tests.

Every notebook gets ``notebook`` (``-m "not notebook"`` leaves them all out); those that read
the real corpora also get ``data``, like the tests that do, so that ``-m "not data"`` leaves
them out too.
"""

import json
from pathlib import Path

import pytest


def _reads_corpora(path):
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    return any(
        "SKSTRUCT_DATA" in "".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"
    )


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.notebook)
            if _reads_corpora(item.path):
                item.add_marker(pytest.mark.data)
