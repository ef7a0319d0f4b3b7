"""Shared fixtures: the real corpora, found under SKSTRUCT_DATA or downloaded once.

A test that reads a corpus asks for it with the ``corpus`` fixture::

    def test_something(corpus):
        X, y = load_conllu(corpus("ptb-sample") / "train.conllu")

- With ``SKSTRUCT_DATA`` set (CI), the corpus folder is looked for there only and
  nothing is downloaded: a missing folder fails the test.
- Without it, the ``fetch_*`` functions download the corpus into ``~/skstruct_data``
  once; later runs read it from there. A failed download fails the test, and is not
  retried by later tests of the same session.

Either way the failure is reported as FAILED (also when a fixture asked for the corpus),
with one message saying what is missing and what to do; the end of the run lists the
missing corpora once.
"""

import functools
import http.server
import itertools
import os
import socket
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import settings

from skstruct.datasets import (
    fetch_brown,
    fetch_conll2000,
    fetch_conll2002,
    fetch_conll2007,
    fetch_ptb_sample,
    fetch_treebank,
    fetch_ud,
    load_conllu,
)
from skstruct.datasets._home import DATA_ENV_VAR, default_data_home
from skstruct.datasets._sources import FETCHERS, FILES

# Kernels compile (or load from numba's cache) on their first call, inside a test
# example: wall-clock deadlines would flag that, not a slow algorithm.
settings.register_profile("skstruct", deadline=None)
settings.load_profile("skstruct")

# Read once at start-up: tests that monkeypatch the variable or HOME must not move the corpora.
_ENV_HOME = os.environ.get(DATA_ENV_VAR) or None
_DOWNLOAD_HOME = default_data_home()

#: How the tests fetch one file of each corpus folder: ``_FETCH[folder](subset, data_home)``.
_FETCH = {
    "conll2000": lambda subset, home: fetch_conll2000(subset, data_home=home),
    "conll2002-es": lambda subset, home: fetch_conll2002("es", subset, data_home=home),
    "ptb-sample": lambda subset, home: fetch_ptb_sample(subset, data_home=home),
    "treebank": lambda subset, home: fetch_treebank(subset, data_home=home),
    "conll2007-es": lambda subset, home: fetch_conll2007("es", subset, data_home=home),
    "brown": lambda subset, home: fetch_brown(data_home=home),
    "ud-ewt": lambda subset, home: fetch_ud("en_ewt", subset, data_home=home),
}
_FOUND = {}  # folder -> Path of the corpus folder
_MISSING = {}  # folder -> the failure message, so that it is not looked for again


class MissingCorpus(pytest.fail.Exception):
    """A corpus a test needs is not there (``pytest.fail`` without a traceback)."""

    def __init__(self, message):
        super().__init__(message, pytrace=False)


def find_corpus(folder):
    """The folder of corpus ``folder`` (e.g. ``"ptb-sample"``) holding all its files."""
    if folder not in _FETCH:
        raise ValueError(f"unknown corpus folder {folder!r}; known: {sorted(_FETCH)}")
    if folder not in _FOUND and folder not in _MISSING:
        try:
            _FOUND[folder] = _locate(folder)
        except MissingCorpus as exc:
            _MISSING[folder] = exc.msg
    if folder in _MISSING:
        raise MissingCorpus(_MISSING[folder])
    return _FOUND[folder]


def _locate(folder):
    names = list(FILES[folder].values())
    if _ENV_HOME is not None:
        where = Path(_ENV_HOME).expanduser() / folder
        missing = [name for name in names if not (where / name).is_file()]
        if missing:
            raise MissingCorpus(
                f"Corpus {folder}/ is missing: {DATA_ENV_VAR}={_ENV_HOME!r} is set, so the "
                f"tests read the corpora from there only and download nothing, but "
                f"{where} lacks {', '.join(missing)}. Point {DATA_ENV_VAR} at a folder holding "
                f"{folder}/ (the layout is in docs/data.md), or unset it to let the tests "
                f"download the corpus into {_DOWNLOAD_HOME} with {FETCHERS[folder]}."
            )
        return where
    where = _DOWNLOAD_HOME / folder
    if all((where / name).is_file() for name in names):
        return where
    try:
        for subset in FILES[folder]:  # one download writes the whole folder
            _FETCH[folder](subset, _DOWNLOAD_HOME)
    except OSError as exc:
        raise MissingCorpus(
            f"Corpus {folder}/ is missing and could not be downloaded ({DATA_ENV_VAR} is "
            f"unset, so the tests download the corpora into {_DOWNLOAD_HOME}). {exc}"
        ) from None
    return where


@pytest.fixture
def lbfgs_sizes(monkeypatch):
    """The lengths of the vectors the CRF's L-BFGS runs on: a list that every later
    ``ConditionalRandomField`` fit appends to."""
    from skstruct.learners import crf

    sizes, minimize = [], crf.minimize_lbfgs

    def recorded(fun, x0, **kwargs):
        sizes.append(len(x0))
        return minimize(fun, x0, **kwargs)

    monkeypatch.setattr(crf, "minimize_lbfgs", recorded)
    return sizes


@pytest.fixture
def sparse_rows(monkeypatch):
    """Chain learners start with sparse emission rows whatever their label count (by
    default few labels get dense rows, which never grow): for tests of the growth of
    the emission pool."""
    import skstruct.decoders.chain

    monkeypatch.setattr(skstruct.decoders.chain, "DENSE_PAIRS", 0)


@pytest.fixture(scope="session")
def corpus():
    """``corpus(folder)``: the Path of a real corpus folder; fails the test when it is missing."""
    return find_corpus


def first_sentences(text, n, max_words=None):
    """The first ``n`` sentence blocks of CoNLL-U (or CoNLL-X) ``text``, of at most
    ``max_words`` words each when given (multi-word token ranges and empty nodes are not
    words). The UD pipeline's second-order graph parsers take time growing as the fourth
    power of a sentence's length: the grandparent perceptron trained 3.5 times faster on
    English-EWT's first 300 training sentences of up to 30 words (4,699 words) than on
    its first 300 (7,027 words)."""
    blocks = (block for block in text.split("\n\n") if block.strip())
    if max_words is not None:
        blocks = (block for block in blocks if _words(block) <= max_words)
    return list(itertools.islice(blocks, n))


def _words(block):
    return sum(line.split("\t", 1)[0].isdigit() for line in block.splitlines())


@pytest.fixture(scope="session")
def conllu_head(corpus, tmp_path_factory):
    """``conllu_head(folder, name, n, labelled=False, max_words=None)``: the first ``n``
    sentences (of at most ``max_words`` words, when given) of the CoNLL-U (or CoNLL-X)
    file ``name`` of corpus ``folder``, as :func:`~skstruct.datasets.load_conllu` returns
    them, ``(X, y)``.

    Only those sentences are parsed: tests take a few hundred to a few thousand, and
    reading the whole file costs more than the test (English-EWT's training file, 12,543
    sentences, took about 3 s)."""
    tmp = tmp_path_factory.mktemp("conllu_head")

    def head(folder, name, n, labelled=False, max_words=None):
        text = (corpus(folder) / name).read_text(encoding="utf-8")
        blocks = first_sentences(text, n, max_words)
        path = tmp / f"{folder}-{n}-{max_words}-{name}"
        path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
        return load_conllu(path, labelled=labelled)

    return head


@pytest.fixture(scope="session")
def ewt_head(conllu_head):
    """``ewt_head(split, n, max_words=None)``: the first ``n`` sentences (of at most
    ``max_words`` words) of English-EWT's ``split`` ("train", "dev" or "test"), without
    their heads (``conllu_head``'s X)."""

    def head(split, n, max_words=None):
        return conllu_head("ud-ewt", f"en_ewt-ud-{split}.conllu", n, max_words=max_words)[0]

    return head


@pytest.fixture(scope="session")
def data_home(corpus):
    """The folder that holds ``conll2000/`` (the data home of the older tests)."""
    return corpus("conll2000").parent


# ------------------------------------------------ download tests: no data home, a loopback server


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """No $SKSTRUCT_DATA and a fresh HOME, so ~/skstruct_data is under tmp_path."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.delenv("SKSTRUCT_DATA", raising=False)
    monkeypatch.setenv("HOME", str(home))
    return home


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # keep pytest output clean
        pass


@pytest.fixture
def http_server(tmp_path, monkeypatch):
    """A threaded static-file server on 127.0.0.1; yields (base_url, served_folder)."""
    root = tmp_path / "www"
    root.mkdir()
    # Make sure no proxy from the environment intercepts loopback requests.
    monkeypatch.setenv("no_proxy", "*")
    monkeypatch.setenv("NO_PROXY", "*")
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def closed_url(monkeypatch):
    """A URL on a loopback port nobody listens on (connection refused)."""
    monkeypatch.setenv("no_proxy", "*")
    monkeypatch.setenv("NO_PROXY", "*")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/train.txt.gz"


# ------------------------------------------------ what dask leaves in os.environ

#: The environment this process started with.
_ENVIRON_AT_START = dict(os.environ)


def _undo_dask_environ():
    """Put back the variables a dask nanny set in this process's environment.

    A ``LocalCluster``'s nannies run in this process and copy
    ``distributed.nanny.pre-spawn-environ`` (``MALLOC_TRIM_THRESHOLD_=65536``, one BLAS
    thread) and a ``PYTHONHASHSEED`` into ``os.environ`` before starting a worker, and
    leave them there. Every process the pytest worker starts later would inherit them:
    notebook kernels, CLI runs, loky workers. With ``MALLOC_TRIM_THRESHOLD_`` set, glibc
    keeps its mmap threshold at 128 KiB, and ``notebooks/hall_constituency.ipynb`` ran in
    13.0-13.2 s against 7.5 s without it
    (``benchmarks/measurements/mixing_dask_malloc_2026-11-29/``)."""
    import dask

    names = {*dask.config.get("distributed.nanny.pre-spawn-environ", {}), "PYTHONHASHSEED"}
    for name in names:
        if name not in _ENVIRON_AT_START:
            os.environ.pop(name, None)
        else:
            os.environ[name] = _ENVIRON_AT_START[name]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    result = yield
    if "distributed" in sys.modules:
        _undo_dask_environ()
    return result


# ------------------------------------------------ reporting


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.excinfo is not None and call.excinfo.errisinstance(MissingCorpus):
        report.missing_corpus = True
    return report


def pytest_report_teststatus(report, config):
    """A corpus missing when a fixture asked for it is a FAILED test, not an ERROR, like
    one missing when the test body asked: every data test reports it the same way."""
    if report.when == "setup" and report.failed and getattr(report, "missing_corpus", False):
        return "failed", "F", "FAILED"
    return None


def pytest_terminal_summary(terminalreporter):
    if _MISSING:
        terminalreporter.section("missing corpora")
        for folder, message in sorted(_MISSING.items()):
            terminalreporter.line(f"{folder}/: {message}")


def pytest_collection_modifyitems(items):
    """Every test that reads the real corpora carries the ``data`` marker, so that
    ``-m "not data"`` (e.g. the slow NUMBA_DISABLE_JIT coverage run) leaves all of them out."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "corpus" in fixtures or "data_home" in fixtures:
            item.add_marker(pytest.mark.data)
