"""Layering rules of ARCHITECTURE.md, checked on the source text."""

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "skstruct"


def _modules():
    return sorted(PACKAGE.rglob("*.py"))


def test_only_kernels_import_numba():
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in _modules()
        if re.search(r"^\s*(from|import) numba", path.read_text(), re.M)
        and path.parent.name != "_kernels"
    ]
    assert offenders == []


def test_kernels_import_only_numpy_and_numba():
    for path in (PACKAGE / "_kernels").glob("*.py"):
        for match in re.finditer(r"^\s*(?:from|import) ([\w.]+)", path.read_text(), re.M):
            assert match.group(1).split(".")[0] in {"numpy", "numba", "functools", ""} or (
                match.group(1).startswith(".")
            ), f"{path.name} imports {match.group(1)}"


def test_private_sklearn_api_only_in_compat_module():
    pattern = re.compile(r"sklearn\.(utils\._param_validation|base import _fit_context)")
    offenders = [
        path.name
        for path in _modules()
        if pattern.search(path.read_text()) and path.name != "_sklearn_compat.py"
    ]
    assert offenders == []


def test_metrics_and_datasets_do_not_import_learners():
    for folder in ("metrics", "datasets"):
        for path in (PACKAGE / folder).glob("*.py"):
            text = path.read_text()
            assert not re.search(r"from \.\.(learners|decoders|_kernels)", text), path.name
