"""Fuzzing the readers and the estimators with damaged and random input.

(a) Real sentences from the corpora (the ``corpus`` fixture), corrupted at random (lines
deleted, duplicated, swapped or cut; bytes flipped, also into invalid UTF-8; fields
added, removed or emptied; tabs and spaces inserted; non-integer heads; stray ranges,
empty nodes, comments and -DOCSTART- lines), are read by ``load_conll`` and
``load_conllu``. Each call must return well-formed data that accounts for every token
line of the file, or raise :class:`~skstruct.datasets.ConllFormatError` naming the
file and a line of it; never another exception, never hang.

(b) Random nested inputs (hypothesis: lists, tuples, dicts, strings, numbers, None,
NaN, bytes and numpy arrays nested at random, plus plausible token dicts and label
lists with a little wrong) go to ``fit`` and ``predict`` of every learner, for chains
and for trees. Each call must succeed, and then ``predict`` returns one label (or
head) per token, or raise a TypeError or ValueError with a message; never another
exception.

(c) The same for :class:`~skstruct.UDPipeline`: annotated CoNLL-U sentences, clean, with
one defect or wild, to ``fit``, and ``transform`` of the same sentences bare, of others
and of wild ones; an annotation is one tree (head and relation per word) per sentence.

Everything is deterministic (fixed seeds, ``derandomize=True``). The number of inputs
tried is counted in :data:`COUNTS` and recorded per test (``record_property``); each
test checks the counts of its own inputs after the last of them.
"""

import copy
import math
import re
import signal
import warnings
from collections import Counter
from contextlib import contextmanager

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from skstruct import (
    SWVP,
    Eisner,
    ExponentiatedGradientSSVM,
    ParameterMixing,
    StructuredPerceptron,
    StructuredSVM,
    UDPipeline,
)
from skstruct.datasets import ConllFormatError, load_conll, load_conllu
from skstruct.ud import STAGES
from tests import naive

#: Inputs tried, per kind ("conll", "conllu", "chain fit", ...), and their outcomes.
COUNTS = Counter()

N_CONLL_FILES = 1500  # per reader
N_CHAIN_EXAMPLES = 500
N_TREE_EXAMPLES = 400
N_UD_EXAMPLES = 100
SECONDS_PER_CALL = 10  # a call that takes longer counts as a hang


@pytest.fixture(autouse=True)
def _one_numba_thread():
    """Thousands of tiny predictions: one kernel thread each, not a parallel region whose
    threads wait for busy cores (restored afterwards)."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


class Hang(Exception):
    """Raised by the alarm: a call took more than SECONDS_PER_CALL."""


@contextmanager
def _no_hang(what):
    def ring(signum, frame):
        raise Hang(f"{what} took more than {SECONDS_PER_CALL} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, SECONDS_PER_CALL)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# -- (a) corrupted CoNLL and CoNLL-U files ---------------------------------------------------


def _blocks(path, n_sentences):
    """The first ``n_sentences`` sentences of a file, each as its list of byte lines."""
    blocks, current = [], []
    with open(path, "rb") as f:
        for line in f:
            if line.strip():
                current.append(line)
            elif current:
                blocks.append(current)
                current = []
                if len(blocks) == n_sentences:
                    break
    return blocks


_JUNK = [b"\xff", b"\xc3", b"\xe9", b"\x00", b"\t", b" ", b"  ", b"\r", b"\n", b"_", b"-", b"#"]


def _edit_field(rng, line, how):
    """``line`` with one of its fields removed, doubled, emptied or made a bad head."""
    body, end = (line[:-1], line[-1:]) if line.endswith(b"\n") else (line, b"")
    sep = b"\t" if b"\t" in body else b" "
    fields = body.split(sep)
    k = int(rng.integers(len(fields)))
    if how == "drop" and len(fields) > 1:
        del fields[k]
    elif how == "add":
        fields.insert(k, fields[k])
    elif how == "empty":
        fields[k] = b""
    elif how == "head" and len(fields) >= 7:
        fields[6] = rng.choice([b"x", b"-1", b"1.5", b"", b"999", b"_", b"0x1", b"\xd9\xa0"])
    elif how == "id":
        fields[0] = rng.choice([b"1-2", b"3.1", b"0", b"a", b"", b"99", b"1-"])
    return sep.join(fields) + end


def _corrupt(rng, lines):
    """``lines`` (bytes, newline-terminated) damaged by 1 to 4 random edits, as bytes."""
    lines = list(lines)
    for _ in range(int(rng.integers(1, 5))):
        op = rng.choice(
            [
                "delete",
                "duplicate",
                "swap",
                "truncate",
                "flip",
                "insert",
                "field",
                "blank",
                "comment",
                "separator",
            ]
        )
        i = int(rng.integers(len(lines))) if lines else 0
        if op == "delete" and lines:
            del lines[i]
        elif op == "duplicate" and lines:
            lines.insert(i, lines[i])
        elif op == "swap" and len(lines) > 1:
            j = int(rng.integers(len(lines)))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "truncate":
            data = b"".join(lines)
            return data[: int(rng.integers(len(data) + 1))]
        elif op == "flip" and lines and lines[i]:
            line = bytearray(lines[i])
            line[int(rng.integers(len(line)))] ^= int(rng.integers(1, 256))
            lines[i] = bytes(line)
        elif op == "insert" and lines:
            at = int(rng.integers(len(lines[i]) + 1))
            lines[i] = lines[i][:at] + rng.choice(_JUNK) + lines[i][at:]
        elif op == "field" and lines:
            lines[i] = _edit_field(
                rng, lines[i], rng.choice(["drop", "add", "empty", "head", "id"])
            )
        elif op == "blank":
            lines.insert(i, rng.choice([b"\n", b" \n", b"\t\n", b"\r\n"]))
        elif op == "comment":
            lines.insert(i, rng.choice([b"# sent_id = 1\n", b"-DOCSTART- -X- O\n", b"#\n"]))
        elif op == "separator" and lines:
            a, b = [(b"\t", b" "), (b" ", b"\t"), (b"\t", b"  "), (b" ", b"   ")][rng.integers(4)]
            lines[i] = lines[i].replace(a, b, 1)
    return b"".join(lines)


def _text_lines(data, errors="strict"):
    """The lines of ``data`` as the readers see them (UTF-8, universal newlines)."""
    text = data.decode("utf-8", errors=errors)
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _check_conll(data, X, y):
    """``load_conll``'s result is well formed and holds every token line, grouped right."""
    runs, current = [], 0
    for line in _text_lines(data):
        fields = line.split()
        if fields and fields[0] != "-DOCSTART-":
            current += 1
        elif current:
            runs.append(current)
            current = 0
    if current:
        runs.append(current)
    assert [len(s) for s in X] == [len(labels) for labels in y] == runs
    widths = {len(token) for sentence in X for token in sentence}
    assert len(widths) == 1 and widths.pop() >= 1
    for sentence, labels in zip(X, y):
        for token, label in zip(sentence, labels):
            assert type(token) is tuple
            for field in (*token, label):
                assert type(field) is str and field and field.split() == [field]


def _check_conllu(data, X, y, labelled):
    """``load_conllu``'s result: ids 1..n, heads in range, y agrees with X, and one token
    per line of the file whose id is a plain integer."""
    ids = 0
    for line in _text_lines(data):
        line = line.strip()
        if line and not line.startswith("#"):
            ids += bool(re.fullmatch(r"[0-9]+", re.split(r"\t| {2,}", line)[0]))
    assert sum(map(len, X)) == ids
    assert len(X) == len(y) >= 1
    for sentence, tree in zip(X, y):
        n = len(sentence)
        assert n == len(tree) >= 1
        for j, (token, item) in enumerate(zip(sentence, tree), 1):
            assert type(token) is dict and token["id"] == j
            head = item[0] if labelled else item
            assert type(head) is int and 0 <= head <= n and head == token["head"]
            if labelled:
                assert item == (token["head"], token["deprel"])


def _fuzz_reader(tmp_path, sources, read, check, kind, seed):
    rng = np.random.default_rng(seed)
    path = tmp_path / f"fuzzed.{kind}"
    outcomes = Counter()
    for _ in range(N_CONLL_FILES):
        blocks = sources[int(rng.integers(len(sources)))]
        start = int(rng.integers(len(blocks)))
        chosen = blocks[start : start + int(rng.integers(1, 4))]
        lines = [line for block in chosen for line in [*block, b"\n"]]
        data = _corrupt(rng, lines)
        path.write_bytes(data)
        COUNTS[kind] += 1
        try:
            with _no_hang(f"{read.__name__} on {data!r}"):
                result = read(path)
        except ConllFormatError as err:
            outcomes["ConllFormatError"] += 1
            assert err.path == str(path) and str(err).startswith(str(path))
            if err.line is None:
                assert "no sentence found" in err.reason, err
            else:
                assert 1 <= err.line <= len(_text_lines(data, errors="replace")), err
                assert str(err).startswith(f"{path}, line {err.line}")
            continue
        outcomes["read"] += 1
        check(data, *result)
    return outcomes


def _conll_sources(corpus):
    return [
        _blocks(corpus("conll2000") / "train.txt", 60),
        _blocks(corpus("conll2002-es") / "train.txt", 60),
        [  # a small in-test corpus with -DOCSTART- and accents
            [b"-DOCSTART- -X- O\n"],
            [
                b"Jos\xc3\xa9 NNP B-PER\n",
                b"vive NN O\n",
                b"en IN O\n",
                b"M\xc3\xa1laga NNP B-LOC\n",
            ],
        ],
    ]


def _conllu_sources(corpus):
    return [
        _blocks(corpus("ptb-sample") / "train.conllu", 40),
        _blocks(corpus("conll2007-es") / "train.conll", 40),
        [  # CoNLL-U with comments, a multiword range and an empty node
            [
                b"# sent_id = 1\n",
                b"1\tVamos\tir\tVERB\t_\t_\t0\troot\t_\t_\n",
                b"2-3\tal\t_\t_\t_\t_\t_\t_\t_\t_\n",
                b"2\ta\ta\tADP\t_\t_\t4\tcase\t_\t_\n",
                b"3\tel\tel\tDET\t_\t_\t4\tdet\t_\t_\n",
                b"3.1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n",
                b"4\tmar\tmar\tNOUN\t_\tGender=Masc\t1\tobl\t_\tSpaceAfter=No\n",
            ]
        ],
    ]


@pytest.mark.data
def test_corrupted_conll_files(corpus, tmp_path, record_property):
    outcomes = _fuzz_reader(
        tmp_path, _conll_sources(corpus), load_conll, _check_conll, "conll", seed=2000
    )
    record_property("fuzzed_conll_files", COUNTS["conll"])
    assert COUNTS["conll"] >= N_CONLL_FILES
    # the corruption is neither too mild nor too harsh: both outcomes are common
    assert min(outcomes.values()) > N_CONLL_FILES // 20, outcomes


@pytest.mark.data
@pytest.mark.parametrize("labelled", [False, True])
def test_corrupted_conllu_files(corpus, tmp_path, record_property, labelled):
    def read(path):
        return load_conllu(path, labelled=labelled)

    def check(data, X, y):
        _check_conllu(data, X, y, labelled)

    read.__name__ = "load_conllu"
    kind = "conllu labelled" if labelled else "conllu"
    outcomes = _fuzz_reader(
        tmp_path, _conllu_sources(corpus), read, check, kind, seed=2007 + labelled
    )
    record_property("fuzzed_conllu_files", COUNTS[kind])
    assert COUNTS[kind] >= N_CONLL_FILES
    assert min(outcomes.values()) > N_CONLL_FILES // 20, outcomes


# -- (b) random nested inputs to the estimators ---------------------------------------------


def _object_array(items):
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.integers(),
    st.floats(),  # NaN and infinities included
    st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -0.0]),
    st.text(max_size=4),
    st.sampled_from(["A", "B", "", " ", "\t", "é", "\u00a0", "😀"]),
    st.binary(max_size=3),
    st.builds(np.float64, st.floats()),
    st.builds(np.int64, st.integers(-5, 5)),
    st.sampled_from([np.bool_(True), np.str_("A"), np.float32("nan"), 1 + 2j]),
    arrays(
        st.sampled_from([np.float64, np.int64, np.bool_, np.dtype("U2")]),
        array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3),
    ),
)

#: Anything: leaves nested at random in lists, tuples, dicts and object arrays.
nested = st.recursive(
    _leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.lists(children, max_size=4).map(_object_array),
        st.dictionaries(st.text(max_size=3) | st.integers(0, 3), children, max_size=3),
    ),
    max_leaves=12,
)

_keys = st.sampled_from(["w", "p", "suffix", "bias"]) | st.text(max_size=3)
_values = st.one_of(
    st.sampled_from(["a", "b", "c", "d"]),
    st.sampled_from([1.0, 0.5, -2.0, 0, True]),
    _leaves,
    nested,
)
_token_dicts = st.dictionaries(_keys, _values, max_size=3)
_chain_tokens = st.one_of(
    _token_dicts, _token_dicts, _token_dicts, st.lists(st.text(max_size=2), max_size=3), nested
)
_labels = st.one_of(
    st.sampled_from(["A", "B", "C"]),
    st.sampled_from(["A", "B", "C"]),
    st.integers(0, 2),
    st.sampled_from([None, math.nan, 1.5, True, "", b"A", ("A",)]),
    _leaves,
)


def _sequence(elements, min_size=0):
    lists = st.lists(elements, min_size=min_size, max_size=4)
    return st.one_of(lists, lists, lists.map(tuple), lists.map(_object_array), nested)


def _items(X):
    """``X`` as a list when it is a list, tuple or 1-D+ array, else None."""
    if isinstance(X, list | tuple) or (isinstance(X, np.ndarray) and X.ndim):
        return list(X)
    return None


@st.composite
def _sized_y(draw, X, labels):
    """Label sequences matching ``X``'s lengths (now and then one too short or long)."""
    y = []
    for sentence in X:
        try:
            n = len(sentence)
        except TypeError:  # a number, None, a 0-d array...
            n = draw(st.integers(0, 3))
        n = max(0, n + draw(st.sampled_from([0, 0, 0, 0, 0, 0, 0, 0, 1, -1])))
        y.append(draw(st.lists(labels(n) if callable(labels) else labels, min_size=n, max_size=n)))
    return draw(st.sampled_from([y, y, y, tuple(y), _object_array(y)]))


def _slots(value, path=()):
    """Paths to every item of nested lists and dicts, ``value`` itself first."""
    yield path
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from _slots(item, (*path, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _slots(item, (*path, key))


@st.composite
def _one_defect(draw, data):
    """``[X, y]`` (nested lists and dicts, copied) with one item replaced, removed or
    added, or one list made a tuple or an object array."""
    data = copy.deepcopy(data)
    path = draw(st.sampled_from(list(_slots(data))[1:]))
    how = draw(st.sampled_from(["replace", "replace", "remove", "add", "tuple", "array"]))
    if len(path) == 1 and how in ("remove", "add"):  # X or y itself
        how = "replace"
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    if how == "replace":
        parent[key] = draw(_leaves | nested)
    elif how == "remove":
        del parent[key]
    elif how == "add" and isinstance(parent, list):
        parent.insert(key, draw(_leaves | nested))
    elif how == "add":
        parent[draw(_keys)] = draw(_values)
    elif isinstance(parent[key], list):
        parent[key] = tuple(parent[key]) if how == "tuple" else _object_array(parent[key])
    return data


_clean_tokens = st.dictionaries(
    st.sampled_from(["w", "p", "len"]),
    st.sampled_from(["a", "b", "c", "d"]) | st.sampled_from([1.0, 0.5, -2.0, True]),
    min_size=1,
    max_size=3,
)


@st.composite
def _clean_chain_data(draw):
    X = draw(st.lists(st.lists(_clean_tokens, min_size=1, max_size=4), min_size=1, max_size=4))
    labels = draw(st.sampled_from([["A", "B", "C"], [0, 1, 2], [0.5, 1.5]]))
    y = [draw(st.lists(st.sampled_from(labels), min_size=len(s), max_size=len(s))) for s in X]
    return X, y


@st.composite
def chain_inputs(draw):
    """``(X, y)``: clean data (a third), clean data with one defect (a third), or wild."""
    mode = draw(st.sampled_from(["clean", "defect", "wild"]))
    if mode != "wild":
        X, y = draw(_clean_chain_data())
        if mode == "defect":
            X, y = draw(_one_defect([X, y]))
        return X, y
    X = draw(_sequence(_sequence(_chain_tokens, 1), 1) | _sequence(_sequence(_chain_tokens)))
    if _items(X) is not None and draw(st.integers(0, 5)):
        y = draw(_sized_y(_items(X), _labels))
    else:
        y = draw(nested)
    if draw(st.integers(0, 10)) == 0:  # now and then a one-shot iterator
        X = OneShot(X) if isinstance(X, list) else X
    return X, y


class OneShot:
    """Sentences that every call reads as a fresh one-shot iterator (:func:`_fresh`)."""

    def __init__(self, items):
        self.items = items

    def __repr__(self):
        return f"OneShot({self.items!r})"


def _fresh(X):
    """``X`` for one call: a new iterator over a :class:`OneShot`'s items."""
    return iter(X.items) if isinstance(X, OneShot) else X


_tags = st.sampled_from(["DT", "NN", "VB", "_", ""]) | _leaves
_tree_tokens = st.one_of(
    st.fixed_dictionaries(
        {"form": st.sampled_from(["the", "dog", "barks"]) | _leaves, "xpos": _tags},
        optional={"upos": _tags},
    ),
    st.fixed_dictionaries({"form": st.sampled_from(["a", "cat"]), "upos": _tags}),
    _token_dicts,
    nested,
)


def _heads(n):
    head = st.one_of(
        st.integers(0, max(n, 0)), st.integers(0, max(n, 0)), st.integers(-1, n + 1), _leaves
    )
    pair = st.tuples(head, st.sampled_from(["nsubj", "root", "det"]) | _leaves)
    return st.one_of(head, head, head, pair)


@st.composite
def _projective_tree(draw, n):
    """Heads of a random projective tree over words 1..n with one root word."""
    heads = [0] * (n + 1)

    def attach(lo, hi, parent):  # words lo..hi all hang (indirectly) from parent
        if lo > hi:
            return
        root = draw(st.integers(lo, hi))
        heads[root] = parent
        attach(lo, root - 1, root)
        attach(root + 1, hi, root)

    attach(1, n, 0)
    return heads[1:]


@st.composite
def _clean_tree_data(draw):
    words = st.fixed_dictionaries(
        {
            "form": st.sampled_from(["the", "dog", "barks", "é", " "]),
            "xpos": st.sampled_from(["DT", "NN", "VB"]),
        }
    )
    X = draw(st.lists(st.lists(words, min_size=1, max_size=5), min_size=1, max_size=4))
    y = [draw(_projective_tree(len(sentence))) for sentence in X]
    if draw(st.booleans()):  # labelled
        y = [[(h, draw(st.sampled_from(["nsubj", "root", "det"]))) for h in t] for t in y]
    return X, y


@st.composite
def tree_inputs(draw):
    """``(X, y)``: clean trees (a third), clean trees with one defect (a third), or wild."""
    mode = draw(st.sampled_from(["clean", "defect", "wild"]))
    if mode != "wild":
        X, y = draw(_clean_tree_data())
        if mode == "defect":
            X, y = draw(_one_defect([X, y]))
        return X, y
    X = draw(_sequence(_sequence(_tree_tokens, 1), 1))
    if _items(X) is not None and draw(st.integers(0, 5)):
        y = draw(_sized_y(_items(X), _heads))
    else:
        y = draw(nested)
    return X, y


def _chain_learners():
    return {
        "perceptron": StructuredPerceptron(max_iter=2, random_state=0),
        "swvp": SWVP(max_iter=2, random_state=0),
        "eg": ExponentiatedGradientSSVM(max_iter=2, random_state=0),
        "ssvm": StructuredSVM(max_iter=2, random_state=0),
        "mixing": ParameterMixing(
            StructuredPerceptron(max_iter=2, random_state=0), n_shards=1, max_iter=2, n_jobs=1
        ),
    }


def _tree_learners():
    """The learners as parsers, with a small hashed weight space (fast to average)."""
    learners = _chain_learners()
    for name, learner in learners.items():
        prefix = "estimator__" if name == "mixing" else ""
        learner.set_params(**{f"{prefix}decoder": Eisner(), f"{prefix}n_features": 2**10})
    return learners


def _attempt(kind, call, *args):
    """``call(*args)``: the result, or None after a TypeError/ValueError with a message.
    Any other exception fails the test."""
    COUNTS[kind] += 1
    try:
        with _no_hang(kind), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # overflow warnings on huge values, and such
            result = call(*args)
    except (TypeError, ValueError) as exc:
        assert str(exc).strip(), f"{type(exc).__name__} without a message"
        COUNTS[f"{kind}: {type(exc).__name__}"] += 1
        return None
    COUNTS[f"{kind}: ok"] += 1
    return result


def _check_predictions(learner, X, predicted, parses):
    sentences = list(X.items if isinstance(X, OneShot) else X)
    assert type(predicted) is list and len(predicted) == len(sentences)
    classes = None if parses else learner.classes_.tolist()
    for sentence, out in zip(sentences, predicted):
        assert type(out) is list and len(out) == len(sentence)
        if parses:
            heads = [item[0] if isinstance(item, tuple) else item for item in out]
            assert all(type(h) is int for h in heads) and naive.is_tree([-1, *heads])
            assert heads.count(0) == 1  # Eisner(single_root=True)
        else:
            assert all(label in classes for label in out)


def _fuzz_learners(learners, X, y, other_X, parses, kind):
    for name, learner in learners.items():
        fitted = _attempt(f"{kind} fit", learner.fit, _fresh(X), y)
        if fitted is None:
            continue
        predicted = _attempt(f"{kind} predict", fitted.predict, _fresh(X))
        assert predicted is not None, f"{name}: fitted on X but cannot predict X"
        _check_predictions(fitted, X, predicted, parses)
        predicted = _attempt(f"{kind} predict", fitted.predict, _fresh(other_X))
        if predicted is not None:
            _check_predictions(fitted, other_X, predicted, parses)


_fuzz_settings = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@settings(_fuzz_settings, max_examples=N_CHAIN_EXAMPLES)
@given(data=chain_inputs(), other=chain_inputs())
def _fuzz_chain_learners(data, other):
    X, y = data
    _fuzz_learners(_chain_learners(), X, y, other[0], parses=False, kind="chain")


@settings(_fuzz_settings, max_examples=N_TREE_EXAMPLES)
@given(data=tree_inputs(), other=tree_inputs())
def _fuzz_parsers(data, other):
    X, y = data
    _fuzz_learners(_tree_learners(), X, y, other[0], parses=True, kind="tree")


def _run_and_count(fuzz, kind, n_examples, record_property, fits_per_example=4):
    """Run every example of ``fuzz`` (hypothesis), then check what they tried: in the
    same test, so that the counts never depend on which xdist worker ran what."""
    before = Counter(COUNTS)
    fuzz()
    counts = {k: n - before[k] for k, n in COUNTS.items() if k.startswith(kind)}
    for key, n in sorted(counts.items()):
        record_property(key, n)
    assert counts[f"{kind} fit"] >= fits_per_example * n_examples, counts
    assert counts.get(f"{kind} fit: ok", 0) > 0, counts
    assert counts.get(f"{kind} fit: ValueError", 0) > 0, counts
    return counts


def test_random_nested_inputs_to_chain_learners(record_property):
    counts = _run_and_count(_fuzz_chain_learners, "chain", N_CHAIN_EXAMPLES, record_property)
    assert counts.get("chain fit: TypeError", 0) > 0, counts


def test_random_nested_inputs_to_parsers(record_property):
    _run_and_count(_fuzz_parsers, "tree", N_TREE_EXAMPLES, record_property)


# -- (c) the UD pipeline: CoNLL-U token dicts with every field it learns ---------------------

#: The fields the pipeline's stages fill (all but the form).
_UD_FILLED = tuple(field for _, fields in STAGES for field in fields)


@st.composite
def _clean_ud_data(draw):
    words = st.fixed_dictionaries(
        {
            "form": st.sampled_from(["the", "dog", "barks", "é", "Runs"]),
            "lemma": st.sampled_from(["the", "dog", "bark", "run"]),
            "upos": st.sampled_from(["DET", "NOUN", "VERB"]),
            "xpos": st.sampled_from(["DT", "NN", "VBZ", None]),
            "feats": st.sampled_from([None, {}, {"Number": "Sing"}, "Number=Plur|Person=3"]),
            "deprel": st.sampled_from(["det", "nsubj", "root", "obj"]),
        }
    )
    X = draw(st.lists(st.lists(words, min_size=1, max_size=5), min_size=1, max_size=5))
    for sentence in X:
        for token, head in zip(sentence, draw(_projective_tree(len(sentence)))):
            token["head"] = head
    return X


@st.composite
def ud_inputs(draw):
    """Annotated sentences: clean, with one defect anywhere, with one field of one token
    replaced by anything (the pipeline reads every field), or wild."""
    mode = draw(st.sampled_from(["clean", "defect", "field", "field", "wild"]))
    if mode == "wild":
        return draw(_sequence(_sequence(_tree_tokens, 1), 1))
    X = draw(_clean_ud_data())
    if mode == "field":
        sentence = draw(st.sampled_from(X))
        token = draw(st.sampled_from(sentence))
        token[draw(st.sampled_from(["form", *_UD_FILLED]))] = draw(_leaves | nested)
        return X
    return draw(_one_defect([X]))[0] if mode == "defect" else X


def _unannotated(X):
    """``X`` without the fields the pipeline fills, where it is sentences of dicts."""
    try:
        return [[{k: v for k, v in t.items() if k not in _UD_FILLED} for t in s] for s in X]
    except (AttributeError, TypeError):
        return X


@settings(_fuzz_settings, max_examples=N_UD_EXAMPLES)
@given(data=ud_inputs(), other=ud_inputs())
def _fuzz_ud_pipeline(data, other):
    fitted = _attempt("ud fit", UDPipeline(max_iter=1, random_state=0).fit, data)
    if fitted is None:
        return
    for n, X in enumerate((_unannotated(data), _unannotated(other), other)):
        annotated = _attempt("ud transform", fitted.transform, X)
        if annotated is None:
            assert n, "fitted on the sentences but cannot annotate them"
            continue
        assert type(annotated) is list and len(annotated) == len(X)
        for sentence, out in zip(X, annotated):
            heads = [token["head"] for token in out]
            assert len(out) == len(sentence) and naive.is_tree([-1, *heads])
            assert all(isinstance(token["deprel"], str) for token in out)


def test_random_nested_inputs_to_the_ud_pipeline(record_property):
    counts = _run_and_count(
        _fuzz_ud_pipeline, "ud", N_UD_EXAMPLES, record_property, fits_per_example=1
    )
    assert counts.get("ud transform: ok", 0) > 0, counts
