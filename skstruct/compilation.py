"""Compiling skstruct's kernels ahead of the first real fit, and where they are kept.

numba compiles a kernel the first time it is called with new argument types, and keeps
the machine code in a disk cache (see :func:`kernel_cache_dir`), so a fresh install, a
new container or a new cluster worker pays seconds of compilation in its first fit.
:func:`warmup` pays them up front: it fits and applies tiny models of the chosen
families on synthetic data shaped like real data, which compiles (or loads from the
cache) exactly the kernels a real fit of those families calls. Run it once when
building a Docker image or a CI cache (``skstruct warmup``), or on every worker of a
cluster before training there::

    client.run(skstruct.warmup)                       # dask.distributed

    @ray.remote
    def warm():
        return skstruct.warmup()

    ray.get([warm.remote() for _ in range(n_nodes)])  # ray
"""

import threading
import time

import numpy as np

from ._kernels._config import CACHE, kernel_cache_dir
from .crfsuite import CRF
from .datasets import make_chain_data
from .decoders import ArcEager, BeamSearch, Eisner
from .decoders.chain import DENSE_LABELS
from .features import TokenFeatures, crfsuite_tutorial_features
from .learners import LinearChainCRF, StructuredPerceptron, StructuredSVM
from .parsing import graph_parser, graph_perceptron

#: The families :func:`warmup` can compile, and what each covers.
FAMILIES = {
    "chains": "StructuredPerceptron on token dicts and raw tokens (Viterbi, with few and "
    "with many labels: dense and sparse emission rows; beam search with max-violation "
    "updates), fit and predict",
    "crf": "LinearChainCRF and skstruct.crfsuite.CRF (lbfgs with and without c1), fit, "
    "predict and marginals",
    "svm": "StructuredSVM (block-coordinate Frank-Wolfe) on chains (dense and sparse "
    "emission rows), on first-order trees "
    "and on second-order trees with field templates, with and without grandparents "
    "(UDPipeline's graph parser), fit and predict",
    "parsers": "StructuredPerceptron with Eisner (first order, unlabelled and labelled; "
    "second order with grandparents and field templates, UDPipeline's graph perceptron) "
    "and with ArcEager beam search (UDPipeline's transition parsers) on CoNLL-U token "
    "dicts, fit and predict",
}


def warmup(families=("chains", "crf", "svm", "parsers"), *, background=False):
    """Compile the kernels of the model families ``families`` now (or load them from
    numba's disk cache), so that the first real fit starts warm.

    Parameters
    ----------
    families : str or iterable of str, default=("chains", "crf", "svm", "parsers")
        Which kernels: any of :data:`FAMILIES` (``"chains"``, ``"crf"``, ``"svm"``,
        ``"parsers"``), or ``"all"``.
    background : bool, default=False
        Compile in a daemon thread and return it at once (join it to wait). numba
        compiles mostly under the GIL, so this overlaps compilation with reading and
        featurising data more than with other Python work.

    Returns
    -------
    seconds : dict or threading.Thread
        The seconds each family took (``{"chains": 7.1, ...}``), or the thread with
        ``background=True``.

    Notes
    -----
    The compiled code goes to :func:`kernel_cache_dir`: beside the package sources
    (``skstruct/_kernels/__pycache__``) when that is writable, else numba's per-user
    cache directory, or ``NUMBA_CACHE_DIR`` when set. Copy that directory (or set
    ``NUMBA_CACHE_DIR`` to a shared one) to start other machines of the same CPU
    model and the same skstruct, numba and Python versions warm. Without any
    writable location the kernels compile in memory for this process only.

    Examples
    --------
    >>> seconds = warmup("chains")  # doctest: +SKIP
    >>> sorted(seconds)  # doctest: +SKIP
    ['chains']
    """
    chosen = _check_families(families)
    if background:
        thread = threading.Thread(target=_run, args=(chosen,), name="skstruct-warmup", daemon=True)
        thread.start()
        return thread
    return _run(chosen)


def _check_families(families):
    if isinstance(families, str):
        families = list(FAMILIES) if families == "all" else [families]
    chosen = list(dict.fromkeys(families))
    unknown = [name for name in chosen if name not in FAMILIES]
    if unknown or not chosen:
        raise ValueError(
            f"Unknown kernel families {unknown!r}: choose from {sorted(FAMILIES)} or 'all'."
        )
    return chosen


def _run(families):
    seconds = {}
    for name in families:
        start = time.perf_counter()
        _WARMERS[name]()
        seconds[name] = time.perf_counter() - start
    return seconds


def _chain_data(n_sentences=24, seed=0, n_labels=4):
    """Token dicts in the sklearn-crfsuite tutorial's form (strings, booleans), raw
    tokens, and IOB labels: the shapes real sequence data takes (``n_labels`` above 4:
    the generator's own label names)."""
    tokens, labels = make_chain_data(n_sentences, n_labels=n_labels, n_words=30, random_state=seed)
    names = ["B-NP", "I-NP", "O", "B-VP"]
    y = labels
    if n_labels <= len(names):
        y = [[names[int(label[1:]) % 4] for label in sentence] for sentence in labels]
    tagged = [[(word, "NN" if i % 2 else "VB") for i, word in enumerate(s)] for s in tokens]
    return crfsuite_tutorial_features(tagged), tokens, y


def _warm_chains():
    X, tokens, y = _chain_data()
    StructuredPerceptron(max_iter=2, random_state=0).fit(X, y).predict(X)
    # more labels than learners start dense emission rows with (DENSE_LABELS, as the
    # Penn Treebank's 45 tags): the epoch for sparse rows, which compiles the pair
    # lookups and insertions that full rows go without
    X_many, _, y_many = _chain_data(n_labels=DENSE_LABELS + 16)
    StructuredPerceptron(max_iter=2, random_state=0).fit(X_many, y_many).predict(X_many)
    StructuredPerceptron(features=TokenFeatures(), max_iter=2, random_state=0).fit(
        tokens, y
    ).predict(tokens)
    StructuredPerceptron(BeamSearch(4), update="max_violation", max_iter=2, random_state=0).fit(
        X, y
    ).predict(X)


def _warm_crf():
    X, _, y = _chain_data()
    model = LinearChainCRF(max_iter=3).fit(X, y)
    model.predict(X)
    model.predict_marginals(X)
    crf = CRF(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=3).fit(X, y)
    crf.predict(X)
    crf.predict_marginals(X)


def _tree_data(n_sentences=16, seed=0):
    """CoNLL-U token dicts with projective trees (each word's head a neighbour or the
    root) and relation labels."""
    rng = np.random.default_rng(seed)
    X, y = [], []
    for _ in range(n_sentences):
        n = int(rng.integers(2, 9))
        sentence, heads = [], []
        root = int(rng.integers(1, n + 1))
        for d in range(1, n + 1):
            head = 0 if d == root else (d + 1 if d < root else d - 1)
            tag = ["NN", "VB", "DT", "JJ"][int(rng.integers(4))]
            form = f"w{int(rng.integers(20))}"
            sentence.append(dict(id=d, form=form, lemma="_", upos=tag[0], xpos=tag, feats=None,
                                 head=head, deprel="dep", deps=None, misc=None))  # fmt: skip
            heads.append((head, "root" if head == 0 else ["nsubj", "obj"][d % 2]))
        X.append(sentence)
        y.append(heads)
    return X, y


def _warm_parsers():
    X, y = _tree_data()
    heads = [[head for head, _ in sentence] for sentence in y]
    StructuredPerceptron(Eisner(), max_iter=2, random_state=0).fit(X, heads).predict(X)
    StructuredPerceptron(Eisner(), max_iter=2, random_state=0).fit(X, y).predict(X)
    graph_perceptron(max_iter=2, random_state=0).fit(X, heads).predict(X)
    eager = ArcEager(beam_size=8, projectivize=True)
    StructuredPerceptron(eager, update="max_violation", max_iter=2, random_state=0).fit(
        X, heads
    ).predict(X)


def _warm_svm():
    X, _, y = _chain_data()
    StructuredSVM(max_iter=2, random_state=0).fit(X, y).predict(X)
    # sparse emission rows too (more labels than DENSE_LABELS): BCFW's epoch for them
    # compiles the pair searches and insertions that full rows go without
    X_many, _, y_many = _chain_data(n_labels=DENSE_LABELS + 16)
    StructuredSVM(max_iter=2, random_state=0).fit(X_many, y_many).predict(X_many)
    trees, labelled = _tree_data()
    heads = [[head for head, _ in sentence] for sentence in labelled]
    StructuredSVM(Eisner(), max_iter=2, random_state=0).fit(trees, heads).predict(trees)
    graph_parser(max_iter=2, random_state=0).fit(trees, heads).predict(trees)
    graph_parser(grandparents=True, max_iter=2, random_state=0).fit(trees, heads).predict(trees)


_WARMERS = {
    "chains": _warm_chains,
    "crf": _warm_crf,
    "svm": _warm_svm,
    "parsers": _warm_parsers,
}


def cache_summary():
    """One line on where compiled kernels are kept (for ``skstruct warmup``)."""
    if not CACHE:
        return "no writable cache location: kernels are compiled in memory for this process"
    return f"compiled kernels are kept in {kernel_cache_dir()}"
