"""Layering rules of ARCHITECTURE.md, checked on the source text."""

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

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


#: The one module of ``_kernels`` that is no kernel's: it keeps numba's disk cache in step
#: with the kernels' sources (digests and files, from the standard library).
CACHE_STAMP_IMPORTS = {"hashlib", "os", "pathlib", "tempfile"}


def test_kernels_import_only_numpy_and_numba():
    for path in (PACKAGE / "_kernels").glob("*.py"):
        for match in re.finditer(r"^\s*(?:from|import) ([\w.]+)", path.read_text(), re.M):
            allowed = {"numpy", "numba", "functools", "contextlib", "types", "warnings", ""}
            if path.name == "_cache_stamp.py":
                allowed |= CACHE_STAMP_IMPORTS
            assert match.group(1).split(".")[0] in allowed or match.group(1).startswith("."), (
                f"{path.name} imports {match.group(1)}"
            )


def test_private_sklearn_api_only_in_compat_module():
    pattern = re.compile(r"sklearn\.(utils\._param_validation|base import fit_context)")
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


#: Private modules other packages may import by design: the kernel layer, and the one
#: module that wraps scikit-learn's private API.
SHARED_PRIVATE = ("_kernels", "utils._sklearn_compat")


def _cross_package_private_imports(path):
    """``from`` imports of ``path`` that reach a private name or module of another
    skstruct package."""
    relative = path.relative_to(PACKAGE)
    here = relative.parts[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        target = list(here[: len(here) - (node.level - 1)]) + (
            node.module.split(".") if node.module else []
        )
        if not target or (here and target[0] == here[0]) or (not here and len(target) == 1):
            continue  # the same package (or the top level importing its own modules)
        dotted = ".".join(target)
        shared = any(dotted == s or dotted.startswith(s + ".") for s in SHARED_PRIVATE)
        private_module = any(part.startswith("_") for part in target) and not shared
        private_names = [a.name for a in node.names if a.name.startswith("_")]
        if private_module or private_names:
            found.append(f"{relative}: from {dotted} import {[a.name for a in node.names]}")
    return found


def test_no_private_name_is_imported_from_another_package():
    offenders = [hit for path in _modules() for hit in _cross_package_private_imports(path)]
    assert offenders == []


def test_the_private_import_check_sees_offenders(tmp_path, monkeypatch):
    # the check itself can fail: a module reaching into another package's privates
    fake = tmp_path / "skstruct"
    (fake / "cli").mkdir(parents=True)
    offender = fake / "cli" / "x.py"
    offender.write_text(
        "from ..datasets._conll import DOCSTART\nfrom ..utils.validation import _f\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert len(_cross_package_private_imports(offender)) == 2


def _fresh_process(code):
    """``code``'s printed last line, run in a new interpreter."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_import_skstruct_imports_no_module_until_a_name_is_used():
    # a saved model's new process, or `skstruct --help`, pays only for what it uses
    code = (
        "import sys, skstruct; "
        "print(sorted(m for m in sys.modules if m.startswith(('skstruct', 'sklearn', 'numba'))))"
    )
    assert _fresh_process(code) == "['skstruct', 'skstruct._version']"


@pytest.mark.parametrize("package", ["skstruct", "skstruct.learners", "skstruct.features"])
def test_every_public_name_of_a_lazy_package_resolves(package):
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        assert getattr(value, "__name__", name) in (name, "StructuredWeightedViolationsPerceptron")
    assert set(module.__all__) <= set(dir(module))
    with pytest.raises(AttributeError, match="NoSuchName"):
        module.NoSuchName  # noqa: B018


def test_every_submodule_the_top_level_offers_exists():
    import skstruct

    for submodule in skstruct._SUBMODULES:  # each one reachable as an attribute
        assert (PACKAGE / submodule).is_dir() or (PACKAGE / f"{submodule}.py").is_file()
        assert submodule in dir(skstruct)


def test_a_saved_chain_model_predicts_without_importing_the_other_learners(tmp_path):
    from skstruct import StructuredPerceptron, TokenFeatures, save
    from skstruct.datasets import make_chain_data

    X, y = make_chain_data(20, n_labels=3, n_words=50, random_state=0)
    path = tmp_path / "model.skst"
    model = StructuredPerceptron(features=TokenFeatures(), max_iter=2, random_state=0)
    save(model.fit(X, y), path)
    code = (
        "import sys, skstruct\n"
        "from skstruct.datasets import make_chain_data\n"
        "X, _ = make_chain_data(20, n_labels=3, n_words=50, random_state=0)\n"
        f"assert len(skstruct.load({str(path)!r}).predict(X)) == 20\n"
        "print(sorted(m for m in ('skstruct.crfsuite', 'skstruct.learners.crf', "
        "'skstruct.solvers', 'skstruct.ud', 'skstruct.reranking', 'skstruct.parsing', "
        "'skstruct.learners.mixing') if m in sys.modules))"
    )
    assert _fresh_process(code) == "[]"
