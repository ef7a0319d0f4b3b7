"""The documentation site builds with warnings as errors, and says what the code does.

The build is the CI check of the docs: ``sphinx-build -W --keep-going -b html``, offline,
in a subprocess (Sphinx must be installed: the ``docs`` and ``dev`` extras have it; a
missing Sphinx fails the test rather than skipping it). The other tests are fast static
checks: the API page lists every public name, and the results page copies the README's
benchmark tables exactly.
"""

import contextlib
import hashlib
import importlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no lock (run the docs tests with -n 0 there)
    fcntl = None

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

#: Public modules whose ``__all__`` the API page must cover.
DOCUMENTED_MODULES = [
    "skstruct",
    "skstruct.crfsuite",
    "skstruct.crfsuite.metrics",
    "skstruct.datasets",
    "skstruct.decoders",
    "skstruct.features",
    "skstruct.inspect",
    "skstruct.learners",
    "skstruct.metrics",
    "skstruct.plot",
    "skstruct.structures",
    "skstruct.tasks",
    "skstruct.trees",
    "skstruct.updates",
]


#: Pages the site must have (source files, without suffix).
PAGES = [
    "index",
    "install",
    "data",
    "quickstart",
    "crfsuite",
    "cli",
    "guide/index",
    "guide/perceptron",
    "guide/inexact_search",
    "guide/swvp",
    "guide/mixing",
    "guide/eg_ssvm",
    "guide/parsing",
    "results",
    "notebooks",
    "api",
    "bad_input",
    "architecture",
]


@contextlib.contextmanager
def _build_lock():
    """One docs build of this checkout at a time: conf.py empties docs/generated/ and
    autosummary writes the API stubs there, in the source tree, so two builds at once
    (two pytest-xdist workers) delete each other's stubs mid-build."""
    digest = hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]
    path = Path(tempfile.gettempdir()) / f"skstruct-docs-{digest}.lock"
    with open(path, "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(scope="module")
def html(tmp_path_factory):
    """Build the site once: ``(output folder, completed process)``."""
    out = tmp_path_factory.mktemp("docs_html")
    with _build_lock():
        result = subprocess.run(
            [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", DOCS, out],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
        )
    return out, result


def test_sphinx_is_installed():
    # Fail, not skip: the docs extra (and dev) must provide Sphinx and the extensions.
    for name in ("sphinx", "numpydoc", "myst_parser", "pydata_sphinx_theme"):
        importlib.import_module(name)


def test_docs_build_without_warnings(html):
    out, result = html
    assert result.returncode == 0, (
        f"sphinx-build -W failed (exit {result.returncode}).\n"
        f"--- warnings and errors ---\n{result.stderr}\n--- output ---\n{result.stdout}"
    )
    assert (out / "index.html").is_file()


@pytest.mark.parametrize("page", PAGES)
def test_page_is_built(html, page):
    out, result = html
    assert result.returncode == 0, result.stderr
    assert (out / f"{page}.html").is_file(), f"{page}.html missing from the built site"


@pytest.mark.parametrize(
    "name",
    [
        "skstruct.StructuredPerceptron",
        "skstruct.ExponentiatedGradientSSVM",
        "skstruct.BeamSearch",
        "skstruct.metrics.span_f1_score",
        "skstruct.datasets.load_conllu",
        "skstruct.updates.MaxViolationUpdate",
    ],
)
def test_api_page_is_generated(html, name):
    out, result = html
    assert result.returncode == 0, result.stderr
    page = out / "generated" / f"{name}.html"
    assert page.is_file(), f"no API page for {name}"
    text = page.read_text(encoding="utf-8")
    assert f'id="{name}"' in text, f"{name} is not described on its page"
    # numpydoc rendered the sections instead of leaving raw underlined headings
    assert "----------" not in text


def test_estimator_page_documents_methods(html):
    out, result = html
    assert result.returncode == 0, result.stderr
    text = (out / "generated" / "skstruct.StructuredPerceptron.html").read_text(encoding="utf-8")
    for method in ("fit", "partial_fit", "predict", "score", "get_params"):
        assert f'id="skstruct.StructuredPerceptron.{method}"' in text, method


def test_guide_pages_have_math_and_references(html):
    out, result = html
    assert result.returncode == 0, result.stderr
    for page in (
        "perceptron",
        "inexact_search",
        "swvp",
        "mixing",
        "eg_ssvm",
        "bcfw_ssvm",
        "parsing",
    ):
        text = (out / "guide" / f"{page}.html").read_text(encoding="utf-8")
        assert 'class="math' in text, f"guide/{page} has no math"
        assert 'id="references"' in text, f"guide/{page} has no References section"
    eg = (out / "guide" / "eg_ssvm.html").read_text(encoding="utf-8")
    assert "ExponentiatedGradientSSVM" in eg


def test_results_page_shows_the_figures(html):
    out, result = html
    assert result.returncode == 0, result.stderr
    text = (out / "results.html").read_text(encoding="utf-8")
    for figure in sorted((DOCS / "figures").glob("*.png")):
        assert figure.name in text, f"{figure.name} is not shown on the results page"
        assert (out / "_images" / figure.name).is_file()


def test_no_remote_assets_but_mathjax(html):
    """The theme fetches nothing at build or view time (no analytics, fonts, switcher);
    only MathJax is loaded by the reader's browser on pages with math."""
    out, result = html
    assert result.returncode == 0, result.stderr
    allowed = ("https://cdn.jsdelivr.net/npm/mathjax",)
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for url in re.findall(r'<(?:script|link)[^>]*(?:src|href)="(https?://[^"]+)"', text):
            assert url.startswith(allowed), f"{page.name} loads {url}"


# -- static checks (no build) -----------------------------------------------------------


def _api_names():
    """Every name the API page documents or mentions, comments left out."""
    text = (DOCS / "api.rst").read_text(encoding="utf-8")
    # an RST comment: ".. " not starting a directive or a target, and its indented lines
    text = re.sub(r"(?m)^\.\. (?![\w:-]+::|_)[^\n]*\n(?:(?:[ \t]+[^\n]*)?\n)*", "", text)
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))


@pytest.mark.parametrize("module_name", DOCUMENTED_MODULES)
def test_api_page_covers_public_names(module_name):
    module = importlib.import_module(module_name)
    missing = sorted(
        name for name in module.__all__ if not name.startswith("__") and name not in _api_names()
    )
    assert not missing, (
        f"{module_name}.__all__ names missing from docs/api.rst: {missing}. "
        "Add them to an autosummary list there."
    )


def _tables(markdown):
    """The markdown table rows of ``markdown``, as a list of tables (lists of lines)."""
    tables, current = [], []
    for line in markdown.splitlines():
        if line.startswith("|"):
            current.append(line.rstrip())
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def test_results_tables_are_the_readmes():
    """docs/results.md reproduces every benchmark table of the README, digit for digit
    (and in the same order), and nothing else."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("## Benchmark against sklearn-crfsuite")
    end = readme.index("## Layout", start)
    expected = _tables(readme[start:end])
    found = _tables((DOCS / "results.md").read_text(encoding="utf-8"))
    assert expected, "no benchmark tables found in README.md"
    assert found == expected, (
        "the tables of docs/results.md differ from README.md's benchmark sections; "
        "copy them again from the README"
    )
