"""The bad-input catalogue: every kind of bad (or odd) input, what skstruct does with it.

:data:`CATALOGUE` lists one case per row of the table in ``docs/bad_input.md`` (a test
checks that the page shows exactly these rows). A case is refused with a specific
exception whose message matches ``match`` (the exact type is checked, not a subclass),
or accepted with a documented behaviour that ``check`` verifies precisely. Each case
runs for every learner it applies to: the chain learners (``StructuredPerceptron``,
``SWVP``, ``ExponentiatedGradientSSVM``, ``ParameterMixing``), the same with
``decoder=Eisner()`` for trees, or none for the file readers.
"""

import functools
import io
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
import pytest

from skstruct import (
    SWVP,
    ArcFeatures,
    Eisner,
    ExponentiatedGradientSSVM,
    ModelFormatError,
    ParameterMixing,
    StructuredPerceptron,
    StructuredSVM,
    TokenFeatures,
    load,
    save,
)
from skstruct.datasets import ConllFormatError, load_conll, load_conllu
from skstruct.metrics import token_accuracy
from tests import naive
from tests.test_persistence import _forge

DOCS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "bad_input.md"

# -- learners and data -------------------------------------------------------------------------


def _perceptron(**params):
    return StructuredPerceptron(max_iter=3, random_state=0, **params)


def _chain_learners():
    return {
        "perceptron": _perceptron(),
        "swvp": SWVP(max_iter=3, random_state=0),
        "eg": ExponentiatedGradientSSVM(max_iter=3, random_state=0),
        "ssvm": StructuredSVM(max_iter=3, random_state=0),
        "mixing": ParameterMixing(_perceptron(), n_shards=2, max_iter=3, n_jobs=1, random_state=0),
    }


def _learner(name):
    """A fresh learner: ``"swvp"`` labels sequences, ``"swvp+eisner"`` parses (with a
    small hashed weight space: the default 2**22 weights only cost time here)."""
    base, _, decoder = name.partition("+")
    learner = _chain_learners()[base]
    if decoder:
        _set(learner, decoder=Eisner(), n_features=2**12)
    return learner


def _set(learner, **params):
    """``set_params`` on the learner, or on the learner inside ParameterMixing."""
    if isinstance(learner, ParameterMixing):
        params = {f"estimator__{key}": value for key, value in params.items()}
    return learner.set_params(**params)


CHAINS = ("perceptron", "swvp", "eg", "ssvm", "mixing")
TREES = tuple(f"{name}+eisner" for name in CHAINS)
#: Which learners a case runs with; None: no learner (readers).
APPLIES = {
    "chains": CHAINS,
    "batch chains": ("eg", "ssvm"),  # the online learners take None as an unknown label
    "trees": TREES,
    "chains, trees": CHAINS + TREES,
    "labelled trees": tuple(name for name in TREES if not name.startswith("eg")),  # EG: heads
    "reader": (None,),
}


def _token(word, tag):
    return {"w": word, "p": tag}


# the label is the tag's: D -> A, N -> B
CHAIN_X = [
    [_token("the", "D"), _token("dog", "N")],
    [_token("a", "D"), _token("cat", "N"), _token("the", "D")],
] * 3
CHAIN_Y = [["A", "B"], ["A", "B", "A"]] * 3

_DOGS = [{"form": "Dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]
_LOUDLY = {"form": "loudly", "xpos": "RB"}
_CATS = [{"form": "Cats", "xpos": "NNS"}, {"form": "sleep", "xpos": "VBP"}]
TREE_X = [[*_DOGS, _LOUDLY], _CATS] * 3
TREE_Y = [[2, 0, 2], [2, 0]] * 3
LABELLED_Y = [[(2, "nsubj"), (0, "root"), (2, "advmod")], [(2, "nsubj"), (0, "root")]] * 3


@functools.cache
def _fitted(name):
    """A learner fitted on the good data of its kind (shared: predict and score only)."""
    return _learner(name).fit(*_data(name))


@functools.cache
def _fitted_labelled(name):
    return _learner(name).fit(TREE_X, LABELLED_Y)


def _data(name):
    return (TREE_X, TREE_Y) if name.endswith("+eisner") else (CHAIN_X, CHAIN_Y)


@dataclass
class Context:
    """What a case's ``run`` gets: the learner's name and a folder for files."""

    name: str | None
    tmp: Path

    def new(self, **params):
        return _set(_learner(self.name), **params)

    def fitted(self):
        return _fitted(self.name)

    @property
    def X(self):
        return _data(self.name)[0]

    @property
    def y(self):
        return _data(self.name)[1]

    def file(self, content, name="data.txt"):
        path = self.tmp / name
        if isinstance(content, str):
            content = content.encode("utf-8")
        path.write_bytes(content)
        return path

    def model_file(self):
        path = self.tmp / "model.npz"
        save(self.fitted(), path)
        return path


# -- the catalogue -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One row: the input, where it goes, and what happens.

    ``error`` is the exception type (None: the input is accepted); ``match`` a regex of
    its message; ``message`` what the docs table shows (the message abridged, or the
    behaviour of an accepted input). ``run(context)`` makes the call; for an accepted
    input ``check(context, result)`` asserts the documented behaviour.
    """

    id: str
    input: str
    where: str
    applies: str
    error: type | None
    match: str | None
    message: str
    run: Callable
    check: Callable | None = None


def _replace(X, i, j, token):
    """``X`` with token ``j`` of sentence ``i`` replaced (copies of the lists only)."""
    X = [list(sentence) for sentence in X]
    X[i][j] = token
    return X


def _object_array(items):
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


def _same_model(c, fitted, reference_X=None):
    """``fitted`` equals the model fitted on the good data as lists, weight for weight."""
    reference = c.fitted()
    assert np.array_equal(fitted.coef_, reference.coef_)
    X = reference_X if reference_X is not None else c.X
    assert fitted.predict(X) == reference.predict(X)


def _assert_equal(got, expected):
    assert got == expected


# A 10,000-token sentence: the label follows the word (w0-w2: A, w3-w6: B).
_LONG_X = [{"w": f"w{k % 7}"} for k in range(10_000)]
_LONG_Y = ["A" if k % 7 < 3 else "B" for k in range(10_000)]


def _long_sentence_data():
    rng = np.random.default_rng(0)
    X, y = [_LONG_X], [_LONG_Y]
    for _ in range(100):
        words = rng.integers(0, 7, size=rng.integers(3, 12))
        X.append([{"w": f"w{k}"} for k in words])
        y.append(["A" if k < 3 else "B" for k in words])
    return X, y


def _check_long_sentence(c, fitted):
    predicted = fitted.predict([_LONG_X])
    assert len(predicted) == 1 and len(predicted[0]) == 10_000
    assert predicted == [_LONG_Y]


# Unicode and whitespace tokens: each a distinct word (whitespace ones labelled WS).
_WHITESPACE_WORDS = [" ", "\t", "\u3000", "\u200b", ""]
_UNICODE_WORDS = ["é", "漢字", "😀", "Ω", "naïve"]


def _unicode_data(c):
    if c.name.endswith("+eisner"):
        forms = [["😀", "\t", " "], ["", "漢字"]] * 3
        odd = [
            [{**token, "form": form} for token, form in zip(sentence, sentence_forms)]
            for sentence, sentence_forms in zip(TREE_X, forms)
        ]
        return odd, TREE_Y
    rng = np.random.default_rng(1)
    words = _WHITESPACE_WORDS + _UNICODE_WORDS
    X, y = [], []
    for _ in range(60):
        sentence = [words[k] for k in rng.integers(0, len(words), size=rng.integers(2, 7))]
        X.append(sentence)
        y.append(["WS" if word in _WHITESPACE_WORDS else "U" for word in sentence])
    return X, y


def _fit_unicode(c):
    X, y = _unicode_data(c)
    learner = c.new() if c.name.endswith("+eisner") else c.new(features=TokenFeatures())
    return learner.fit(X, y)


def _check_unicode(c, fitted):
    X, y = _unicode_data(c)
    if not c.name.endswith("+eisner"):  # a new sentence with every word
        X = [_WHITESPACE_WORDS + _UNICODE_WORDS]
        y = [["WS"] * len(_WHITESPACE_WORDS) + ["U"] * len(_UNICODE_WORDS)]
    assert fitted.predict(X) == y


def _long_parse(n_words):
    return [[{"form": "w", "xpos": "NN"}] * 3, [{"form": "w", "xpos": "NN"}] * n_words]


def _check_unseen_features(c, predicted):
    # every token with unseen keys and an unseen value of a known key ("w")...
    without = [[{"p": token["p"]} for token in sentence] for sentence in c.X[:2]]
    # ...predicts as the token without them, and the labels are right
    assert predicted == c.fitted().predict(without) == c.y[:2]


def _check_unseen_words(c, predicted):
    other = [[{"form": "Quux", "xpos": "NNS"}, {"form": "snorfs", "xpos": "VBP"}]]
    assert predicted == c.fitted().predict(other)  # all unseen words are alike
    heads = predicted[0]
    assert len(heads) == 2 and naive.is_tree([-1, *heads]) and heads.count(0) == 1


def _check_unseen_deprel(c, score):
    fitted = _fitted_labelled(c.name)
    assert score == fitted.score(TREE_X, LABELLED_Y) == fitted.score(TREE_X, TREE_Y)
    assert 0.0 <= score <= 1.0


_CONLL = "He PRP B-NP\nreckons VBZ B-VP\n\nIt PRP B-NP\nis VBZ B-VP\n"
_CONLL_X = [[("He", "PRP"), ("reckons", "VBZ")], [("It", "PRP"), ("is", "VBZ")]]
_CONLL_Y = [["B-NP", "B-VP"], ["B-NP", "B-VP"]]


def _row(i, head, form=None):
    return f"{i}\t{form or f'w{i}'}\t_\tNOUN\tNN\t_\t{head}\tdep\t_\t_\n"


# sentence 0: 1 <- 2 (root) -> 3 ; sentence 1: 1 (root) -> 2 -> 3
_CONLLU = _row(1, 2) + _row(2, 0) + _row(3, 2) + "\n" + _row(1, 0) + _row(2, 1) + _row(3, 2) + "\n"


def _conllu_heads(result):
    return result[1]


def _bad_byte_on_line(text, lineno):
    """``text`` as UTF-8 with a byte 0xff in line ``lineno``."""
    lines = text.encode().split(b"\n")
    lines[lineno - 1] = lines[lineno - 1].replace(b"w", b"w\xff", 1)
    return b"\n".join(lines)


def _flip_a_model_byte(c):
    """A model file with one byte of its JSON member's compressed data flipped."""
    path = c.model_file()
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("skstruct-model.json.npy")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    data[start + info.compress_size // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    return load(path)


def _truncated_model(c):
    path = c.model_file()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return load(path)


def _other_version(c):
    path = c.model_file()
    _forge(path, lambda doc: doc.update(format_version=99, skstruct_version="9.0"))
    return load(path)


def _plain_npz(c):
    path = c.tmp / "arrays.npz"
    np.savez(path, coef_=np.zeros(3))
    return load(path)


def _numpy_y(c):
    if c.name.endswith("+eisner"):
        return [np.asarray(heads, dtype=np.int64) for heads in c.y]
    return [np.asarray(labels) for labels in c.y]  # numpy str_ arrays


def _check_numpy_y(c, fitted):
    _same_model(c, fitted)
    predicted = fitted.predict(c.X)
    assert predicted == c.y
    kind = int if c.name.endswith("+eisner") else str
    assert all(type(label) is kind for sentence in predicted for label in sentence)


def _two_d(c):
    """The good data cut to equal lengths: ``np.array`` makes a 2-D object array of it."""
    X = [sentence[:2] for sentence in c.X]
    y = [[2, 0]] * len(X) if c.name.endswith("+eisner") else [labels[:2] for labels in c.y]
    return X, y


def _fit_two_d(c):
    X, y = _two_d(c)
    array = np.array(X, dtype=object)
    assert array.shape == (len(X), 2)
    return c.new().fit(array, y), c.new().fit(X, y)


def _check_two_d(c, fitted):
    from_array, from_lists = fitted
    assert np.array_equal(from_array.coef_, from_lists.coef_)
    X, _ = _two_d(c)
    assert from_array.predict(np.array(X, dtype=object)) == from_lists.predict(X)


def _numpy_bool(c):
    X = [[{**token, "flag": np.bool_(k % 2 == 0)} for k, token in enumerate(s)] for s in c.X]
    plain = [[{**token, "flag": k % 2 == 0} for k, token in enumerate(s)] for s in c.X]
    return c.new().fit(X, c.y), c.new().fit(plain, c.y)


def _check_numpy_bool(c, fitted):
    from_numpy, from_python = fitted
    assert np.array_equal(from_numpy.coef_, from_python.coef_)
    assert from_numpy.structure_.n_features > c.fitted().structure_.n_features  # a feature


def _fit_with_none_value(c):
    with_none = [[{**token, "w2": None} for token in sentence] for sentence in c.X]
    with_none[1][0] = {**with_none[1][0], "w": None}
    without = _replace(c.X, 1, 0, {k: v for k, v in c.X[1][0].items() if k != "w"})
    return c.new().fit(with_none, c.y), c.new().fit(without, c.y)


def _check_none_value(c, fitted):
    with_none, without = fitted
    assert np.array_equal(with_none.coef_, without.coef_)
    assert with_none.predict(c.X) == without.predict(c.X)


def _check_unseen_label(c, score):
    fitted = c.fitted()
    gold = [c.y[0], ["C", *c.y[1][1:]]]
    predicted = fitted.predict(c.X[:2])
    assert predicted[1][0] != "C"  # never predicted: an error
    assert score == token_accuracy(gold, predicted)


def _load_conllu_and_fit(c):
    X, y = load_conllu(c.file(_row(1, 2) + _row(2, 1) + _row(3, 0) + "\n" + _CONLLU))
    assert y[0] == [2, 1, 0]  # the reader checks the range of heads, not the tree
    return c.new().fit(X * 2, y * 2)


# fmt: off
CATALOGUE = [
    # -- shape of X and y ----------------------------------------------------------------------
    Case(
        "empty-X", "`X = []` (and `y = []`)", "fit", "chains, trees",
        ValueError, r"^X is empty: it needs at least one sequence\.$",
        "X is empty: it needs at least one sequence.",
        lambda c: c.new().fit([], []),
    ),
    Case(
        "empty-X-predict", "`X = []`", "predict", "chains, trees",
        ValueError, r"^X is empty", "X is empty: ...",
        lambda c: c.fitted().predict([]),
    ),
    Case(
        "empty-sentence", "`X[1] = []` (and `y[1] = []`)", "fit", "chains, trees",
        ValueError, r"^X\[1\] is an empty sequence; every sequence needs at least one token\.$",
        "X[1] is an empty sequence; every sequence needs at least one token.",
        lambda c: c.new().fit([c.X[0], [], *c.X[2:]], [c.y[0], [], *c.y[2:]]),
    ),
    Case(
        "empty-sentence-predict", "`X[1] = []`", "predict", "chains, trees",
        ValueError, r"^X\[1\] is an empty sequence", "X[1] is an empty sequence; ...",
        lambda c: c.fitted().predict([c.X[0], []]),
    ),
    Case(
        "ragged-X-y", "6 sentences in X, 5 in y", "fit", "chains, trees",
        ValueError, r"^X and y have different numbers of sequences: 6 and 5\.$",
        "X and y have different numbers of sequences: 6 and 5.",
        lambda c: c.new().fit(c.X, c.y[:5]),
    ),
    Case(
        "ragged-X-y-score", "2 sentences in X, 1 in y", "score", "chains, trees",
        ValueError, r"^X and y have different numbers of sequences: 2 and 1\.$",
        "X and y have different numbers of sequences: 2 and 1.",
        lambda c: c.fitted().score(c.X[:2], c.y[:1]),
    ),
    Case(
        "wrong-label-length", "`y[1]` one label (head) short of `X[1]`", "fit", "chains, trees",
        ValueError, r"^Example 1: X\[1\] has (3 tokens but y\[1\] has 2|2 tokens but y\[1\] has 1) "
        r"labels\.$",
        "Example 1: X[1] has 3 tokens but y[1] has 2 labels.",
        lambda c: c.new().fit(c.X, [c.y[0], c.y[1][:-1], *c.y[2:]]),
    ),
    Case(
        "wrong-label-length-score", "`y[0]` one label (head) longer than `X[0]`", "score",
        "chains, trees",
        ValueError, r"^Example 0: X\[0\] has (2 tokens but y\[0\] has 3|3 tokens but y\[0\] has 4) "
        r"labels\.$",
        "Example 0: X[0] has 2 tokens but y[0] has 3 labels.",
        lambda c: c.fitted().score(c.X[:1], [[*c.y[0], c.y[0][-1]]]),
    ),
    Case(
        "generator-X", "X a generator of sentences", "fit", "chains, trees", None, None,
        "read into a list (the sentences, not their features): the same model, weight for "
        "weight",
        lambda c: c.new().fit((s for s in c.X), c.y),
        _same_model,
    ),
    Case(
        "generator-y", "y a generator of label lists", "fit", "chains, trees", None, None,
        "read into a list: the same model, weight for weight",
        lambda c: c.new().fit(c.X, (labels for labels in c.y)),
        _same_model,
    ),
    Case(
        "iterator-X-predict", "`iter(X)`", "predict", "chains, trees", None, None,
        "read and predicted 4096 sentences at a time: the predictions for the list",
        lambda c: c.fitted().predict(iter(c.X)),
        lambda c, predicted: _assert_equal(predicted, c.fitted().predict(c.X)),
    ),
    Case(
        "iterator-X-predict-late-error", "`iter(X)` whose sentence 4,200 is empty (a later "
        "chunk)", "predict", "chains, trees",
        ValueError, r"^X\[4200\] is an empty sequence; every sequence needs at least one token\.$",
        "X[4200] is an empty sequence; every sequence needs at least one token.",
        lambda c: c.fitted().predict(iter([*c.X * 700, []])),
    ),
    Case(
        "string-X", '`X = "the dog"`', "fit", "chains, trees",
        TypeError, r"^X must be a list of sequences, got str\.$",
        "X must be a list of sequences, got str.",
        lambda c: c.new().fit("the dog", c.y),
    ),
    Case(
        "dict-X", '`X = {"w": "the"}`', "fit", "chains, trees",
        TypeError, r"^X must be a list of sequences, got dict\.$",
        "X must be a list of sequences, got dict.",
        lambda c: c.new().fit({"w": "the"}, c.y),
    ),
    Case(
        "dict-as-sentence", "X a list of token dicts (one sentence, not a list of them)",
        "fit", "chains, trees",
        TypeError,
        r"^X\[0\] must be a sequence \(list, tuple or 1-D array\) of tokens, got dict\. X must "
        r"be a list of sequences\.$",
        "X[0] must be a sequence (list, tuple or 1-D array) of tokens, got dict. ...",
        lambda c: c.new().fit(c.X[0], c.y[0]),
    ),
    Case(
        "string-label-sequence", '`y = ["AB", ...]`: strings for label lists', "fit",
        "chains, trees",
        TypeError, r"^y\[0\] must be a sequence \(list, tuple or 1-D array\) of tokens, got str",
        "y[0] must be a sequence (list, tuple or 1-D array) of tokens, got str. ...",
        lambda c: c.new().fit(c.X, ["".join(map(str, labels)) for labels in c.y]),
    ),
    Case(
        "numpy-object-array-X", "X a 1-D numpy object array of sentences", "fit",
        "chains, trees", None, None,
        "read as a list of sentences: the same model, weight for weight",
        lambda c: c.new().fit(_object_array(c.X), c.y),
        _same_model,
    ),
    Case(
        "numpy-2d-object-array-X", "`np.array(X, dtype=object)` of equal-length sentences (2-D)",
        "fit", "chains, trees", None, None,
        "each row is a sentence: the same model as from the lists",
        _fit_two_d,
        _check_two_d,
    ),
    Case(
        "numpy-arrays-y", "y a list of numpy arrays (`str_` labels, `int64` heads)", "fit",
        "chains, trees", None, None,
        "the same model; `predict` returns Python `str` labels and `int` heads",
        lambda c: c.new().fit(c.X, _numpy_y(c)),
        _check_numpy_y,
    ),
    Case(
        "numeric-array-X", "`X = np.zeros((2, 3))`: numbers for tokens", "fit", "chains",
        TypeError,
        r"^Example 0: token 0 is a float64, expected a dict of features \(sklearn-crfsuite "
        r"format\)\.$",
        "Example 0: token 0 is a float64, expected a dict of features (sklearn-crfsuite format).",
        lambda c: c.new().fit(np.zeros((2, 3)), [["A"] * 3] * 2),
    ),
    # -- tokens and feature values -------------------------------------------------------------
    Case(
        "string-tokens", "raw words where token dicts are expected, no `features=`", "fit",
        "chains",
        TypeError,
        r"^Example 0: token 0 is a str, expected a dict of features \(sklearn-crfsuite format\)"
        r"\. Pass features=TokenFeatures\(\) to featurize raw tokens\.$",
        "Example 0: token 0 is a str, expected a dict of features (sklearn-crfsuite format). "
        "Pass features=TokenFeatures() to featurize raw tokens.",
        lambda c: c.new().fit([["the", "dog"]] * 2, [["A", "B"]] * 2),
    ),
    Case(
        "string-tokens-parser", "raw words where token dicts are expected", "fit", "trees",
        TypeError,
        r"^X\[0\]\[0\] is a str; a parser needs token dicts with a 'form' and a POS \('xpos' or "
        r"'upos'\), as load_conllu returns\.$",
        "X[0][0] is a str; a parser needs token dicts with a 'form' and a POS ('xpos' or "
        "'upos'), as load_conllu returns.",
        lambda c: c.new().fit([["Dogs", "bark"]] * 2, [[2, 0]] * 2),
    ),
    Case(
        "none-token", "`X[1][0] = None`", "fit", "chains",
        TypeError, r"^Example 1: token 0 is a NoneType, expected a dict of features",
        "Example 1: token 0 is a NoneType, expected a dict of features (...).",
        lambda c: c.new().fit(_replace(c.X, 1, 0, None), c.y),
    ),
    Case(
        "missing-form", "a token dict without `'form'`", "fit", "trees",
        ValueError, r"^X\[0\]\[1\] has no 'form' string: \{'xpos': 'VBP'\}\.$",
        "X[0][1] has no 'form' string: {'xpos': 'VBP'}.",
        lambda c: c.new().fit(_replace(c.X, 0, 1, {"xpos": "VBP"}), c.y),
    ),
    Case(
        "missing-pos", "a token dict without `'xpos'` or `'upos'`", "fit", "trees",
        ValueError,
        r"^X\[0\]\[1\] has no xpos or upos tag: \{'form': 'bark'\}\. The parsers' features need "
        r"POS tags\.$",
        "X[0][1] has no xpos or upos tag: {'form': 'bark'}. The parsers' features need POS tags.",
        lambda c: c.new().fit(_replace(c.X, 0, 1, {"form": "bark"}), c.y),
    ),
    Case(
        "missing-upos", "`ArcFeatures(coarse_pos='upos')` and a word without `'upos'`", "fit",
        "trees", ValueError,
        r"^X\[0\]\[0\] has no 'upos' tag: \{'form': 'Dogs', 'xpos': 'NNS'\}\. "
        r"coarse_pos='upos' needs one on every word; coarse_pos=1 takes the first letter of the "
        r"POS tag instead\.$",
        "X[0][0] has no 'upos' tag: {'form': 'Dogs', 'xpos': 'NNS'}. coarse_pos='upos' needs one "
        "on every word; coarse_pos=1 takes the first letter of the POS tag instead.",
        lambda c: c.new(features=ArcFeatures(n_features=2**12, coarse_pos="upos")).fit(c.X, c.y),
    ),
    Case(
        "nan-value", "a feature value `float('nan')`", "fit", "chains",
        ValueError,
        r"^Example 1: token 0 has a non-finite value for feature 'v' \(nan\); NaN and infinity "
        r"are not allowed\.$",
        "Example 1: token 0 has a non-finite value for feature 'v' (nan); NaN and infinity are "
        "not allowed.",
        lambda c: c.new().fit(_replace(c.X, 1, 0, {"w": "a", "v": float("nan")}), c.y),
    ),
    Case(
        "inf-value", "a feature value `-inf`", "fit", "chains",
        ValueError, r"^Example 1: token 0 has a non-finite value for feature 'v' \(-inf\)",
        "Example 1: token 0 has a non-finite value for feature 'v' (-inf); ...",
        lambda c: c.new().fit(_replace(c.X, 1, 0, {"w": "a", "v": -np.inf}), c.y),
    ),
    Case(
        "nan-value-predict", "a feature value NaN at predict", "predict", "chains",
        ValueError, r"^Example 0: token 1 has a non-finite value for feature 'v' \(nan\)",
        "Example 0: token 1 has a non-finite value for feature 'v' (nan); ...",
        lambda c: c.fitted().predict(_replace(c.X[:1], 0, 1, {"v": np.float32("nan")})),
    ),
    Case(
        "huge-value", "a feature value `1e200` (scores would overflow)", "fit", "chains",
        ValueError,
        r"^Example 1: token 0 has a value too large for feature 'v' \(1e\+200\); values must be "
        r"at most 1e\+100 in magnitude, or scores would overflow\. Scale them down\.$",
        "Example 1: token 0 has a value too large for feature 'v' (1e+200); values must be at "
        "most 1e+100 in magnitude, or scores would overflow. Scale them down.",
        lambda c: c.new().fit(_replace(c.X, 1, 0, {"w": "a", "v": 1e200}), c.y),
    ),
    Case(
        "huge-int-value", "a feature value `10**400` (no float holds it)", "fit", "chains",
        ValueError, r"^Example 1: token 0 has a value too large for feature 'v' \(an integer "
        r"of 1329 bits\)",
        "Example 1: token 0 has a value too large for feature 'v' (an integer of 1329 bits); ...",
        lambda c: c.new().fit(_replace(c.X, 1, 0, {"w": "a", "v": 10**400}), c.y),
    ),
    Case(
        "none-value", "a feature value `None` (an unannotated `load_conllu` field)", "fit",
        "chains", None, None,
        "skipped: the token has no such feature, as if the key were absent",
        _fit_with_none_value,
        _check_none_value,
    ),
    Case(
        "bytearray-value", "a feature value `bytearray(b'dog')` (bytes read as str are fine; a "
        "bytearray is not)", "fit", "chains",
        TypeError, r"^Example 0: token 1 has a value of type bytearray for feature 'w'",
        "Example 0: token 1 has a value of type bytearray for feature 'w'; ...",
        lambda c: c.new().fit(_replace(c.X, 0, 1, {"w": bytearray(b"dog")}), c.y),
    ),
    Case(
        "array-value", "a feature value `np.array(1.0)` (unhashable)", "predict", "chains",
        TypeError, r"^Example 0: token 1 has a value of type ndarray for feature 'w'",
        "Example 0: token 1 has a value of type ndarray for feature 'w'; ...",
        lambda c: c.fitted().predict(_replace(c.X[:1], 0, 1, {"w": np.array(1.0)})),
    ),
    Case(
        "numpy-bool-value", "a feature value `np.bool_(True)`", "fit", "chains", None, None,
        "taken as the Python bool: the same weights as with `True`/`False`",
        _numpy_bool,
        _check_numpy_bool,
    ),
    Case(
        "unseen-features", "tokens with unseen keys and unseen values of known keys",
        "predict", "chains", None, None,
        "ignored (as CRFsuite does): the predictions of the tokens without them",
        lambda c: c.fitted().predict(
            [[{**token, "w": "zzz", "new": 1.5, "other": "x"} for token in s] for s in c.X[:2]]
        ),
        _check_unseen_features,
    ),
    Case(
        "unseen-words", "words and tags never seen in training", "predict", "trees", None, None,
        "one shared 'unknown' id: the same tree for any unseen words, one root word",
        lambda c: c.fitted().predict(
            [[{"form": "Zorblax", "xpos": "XX"}, {"form": "glorps", "xpos": "YY"}]]
        ),
        _check_unseen_words,
    ),
    Case(
        "unicode-whitespace-tokens",
        "words such as `''`, `' '`, `'\\t'`, `'\\u3000'`, `'é'`, `'漢字'`, `'😀'`",
        "fit, predict", "chains, trees", None, None,
        "distinct words, learnt and predicted exactly",
        _fit_unicode,
        _check_unicode,
    ),
    Case(
        "huge-sentence", "a sentence of 10,000 tokens (chains)", "fit, predict", "chains",
        None, None, "10,000 labels, exactly the gold ones",
        lambda c: c.new().set_params(max_iter=10).fit(*_long_sentence_data()),
        _check_long_sentence,
    ),
    Case(
        "long-sentence-parser", "a sentence of 1,001 words", "predict", "trees",
        ValueError,
        r"^X\[1\] has 1001 words; Eisner\(\) parses sentences of at most 1000 words \(its tables "
        r"grow with the length\)\. Split it first\.$",
        "X[1] has 1001 words; Eisner() parses sentences of at most 1000 words (its tables grow "
        "with the length). Split it first.",
        lambda c: c.fitted().predict(_long_parse(1001)),
    ),
    Case(
        "long-sentence-parser-fit", "a training sentence of 1,001 words", "fit", "trees",
        ValueError, r"^X\[1\] has 1001 words; Eisner\(\) parses sentences of at most 1000 words",
        "X[1] has 1001 words; Eisner() parses sentences of at most 1000 words (...).",
        lambda c: c.new().fit(_long_parse(1001), [[2, 0, 2], [0] + [1] * 1000]),
    ),
    # -- labels ----------------------------------------------------------------------------------
    Case(
        "unseen-label", "a label never seen in training", "score", "chains",
        None, None,
        "scored: counts as an error, as in `token_accuracy` and `skstruct evaluate`",
        lambda c: c.fitted().score(c.X[:2], [c.y[0], ["C", *c.y[1][1:]]]),
        _check_unseen_label,
    ),
    Case(
        "unseen-deprel", "a relation label never seen in training", "score", "labelled trees",
        None, None, "scored: `score` is UAS, which reads the heads only",
        lambda c: _fitted_labelled(c.name).score(
            TREE_X, [[(h, "never-seen") for h, _ in tree] for tree in LABELLED_Y]
        ),
        _check_unseen_deprel,
    ),
    Case(
        "mixed-label-types", 'y mixes `"A"` and `1`', "fit", "chains",
        TypeError,
        r"^Example 1: y mixes label types: 1 at position 0 of y\[1\] is a int while 'A' is a "
        r"str\. Use one type for all labels\.$",
        "Example 1: y mixes label types: 1 at position 0 of y[1] is a int while 'A' is a str. "
        "Use one type for all labels.",
        lambda c: c.new().fit(c.X, [c.y[0], [1, "B", "A"], *c.y[2:]]),
    ),
    Case(
        "mixed-deprel-types", 'relations mix `"root"` and `1`', "fit", "labelled trees",
        TypeError, r"^Example 1: deprels mixes label types: 1 at position 1 of deprels\[1\]",
        "Example 1: deprels mixes label types: 1 at position 1 of deprels[1] is a int ...",
        lambda c: c.new().fit(TREE_X, [LABELLED_Y[0], [(2, "nsubj"), (0, 1)], *LABELLED_Y[2:]]),
    ),
    Case(
        "none-label", "a label `None`", "fit", "batch chains",
        TypeError,
        r"^Example 1: label None at position 0 of y\[1\] has type NoneType; labels must be "
        r"strings or numbers \(None marks an unknown label only for the learners that train "
        r"on partially labelled sequences: StructuredPerceptron, SWVP, PassiveAggressive, "
        r"AROW\)\.$",
        "Example 1: label None at position 0 of y[1] has type NoneType; labels must be strings "
        "or numbers (None marks an unknown label only for the learners that train on "
        "partially labelled sequences: StructuredPerceptron, SWVP, PassiveAggressive, AROW).",
        lambda c: c.new().fit(c.X, [c.y[0], [None, "B", "A"], *c.y[2:]]),
    ),
    Case(
        "bool-label", "labels `True`/`False`", "fit", "chains",
        TypeError, r"^Example 0: label True at position 0 of y\[0\] has type bool",
        "Example 0: label True at position 0 of y[0] has type bool; ...",
        lambda c: c.new().fit(c.X, [[label == "A" for label in labels] for labels in c.y]),
    ),
    Case(
        "nan-label", "a label `float('nan')` among numbers", "fit", "chains",
        ValueError,
        r"^Example 1: label nan at position 1 of y\[1\] is NaN, which equals no label \(not "
        r"even itself\); use another value\.$",
        "Example 1: label nan at position 1 of y[1] is NaN, which equals no label (not even "
        "itself); use another value.",
        lambda c: c.new().fit(c.X, [[0.0, 1.0], [0.0, np.nan, 0.0], *[[0.0] * 2, [0.0] * 3] * 2]),
    ),
    # -- heads -----------------------------------------------------------------------------------
    Case(
        "head-out-of-range", "a head of 3 in a 2-word sentence", "fit", "trees",
        ValueError,
        r"^y\[1\]\[1\]: head 3 is out of range for a sentence of 2 words \(heads are 0\.\.2\)\.$",
        "y[1][1]: head 3 is out of range for a sentence of 2 words (heads are 0..2).",
        lambda c: c.new().fit(c.X, [c.y[0], [2, 3], *c.y[2:]]),
    ),
    Case(
        "head-negative", "a head of `-1`", "fit", "trees",
        ValueError, r"^y\[0\]\[2\]: head -1 is out of range for a sentence of 3 words",
        "y[0][2]: head -1 is out of range for a sentence of 3 words (heads are 0..3).",
        lambda c: c.new().fit(c.X, [[2, 0, -1], *c.y[1:]]),
    ),
    Case(
        "head-self-loop", "a word that is its own head", "fit", "trees",
        ValueError, r"^y\[0\]\[2\]: word 3 is its own head\.$",
        "y[0][2]: word 3 is its own head.",
        lambda c: c.new().fit(c.X, [[2, 0, 3], *c.y[1:]]),
    ),
    Case(
        "head-cycle", "heads `[2, 1, 0]`: words 1 and 2 head each other", "fit", "trees",
        ValueError, r"^y\[0\] is not a tree: words \[1, 2\] form a cycle \(heads \[2, 1\]\)\.$",
        "y[0] is not a tree: words [1, 2] form a cycle (heads [2, 1]).",
        lambda c: c.new().fit(c.X, [[2, 1, 0], *c.y[1:]]),
    ),
    Case(
        "head-cycle-score", "gold heads with a cycle", "score", "trees",
        ValueError, r"^y\[0\] is not a tree: words \[1, 2\] form a cycle",
        "y[0] is not a tree: words [1, 2] form a cycle (heads [2, 1]).",
        lambda c: c.fitted().score(c.X[:1], [[2, 1, 0]]),
    ),
    Case(
        "several-roots", "two words attached to the root", "fit", "trees",
        ValueError,
        r"^y\[0\] has 2 words attached to the root \(positions \[0, 1\]\); "
        r"Eisner\(single_root=True\) needs exactly one\. Use single_root=False to allow several\.$",
        "y[0] has 2 words attached to the root (positions [0, 1]); Eisner(single_root=True) "
        "needs exactly one. Use single_root=False to allow several.",
        lambda c: c.new().fit(c.X, [[0, 0, 2], *c.y[1:]]),
    ),
    Case(
        "non-integer-head", "a head of `2.0`", "fit", "trees",
        ValueError,
        r"^y\[0\]\[0\] = 2\.0 is not a head: a parser's y holds one integer head per word \(0 "
        r"the root, k the k-th word\)\.$",
        "y[0][0] = 2.0 is not a head: a parser's y holds one integer head per word (0 the root, "
        "k the k-th word).",
        lambda c: c.new().fit(c.X, [[2.0, 0, 2], *c.y[1:]]),
    ),
    Case(
        "string-head", 'a head of `"2"`', "fit", "trees",
        ValueError, r"^y\[0\]\[2\] = '2' is not a head",
        "y[0][2] = '2' is not a head: ...",
        lambda c: c.new().fit(c.X, [[2, 0, "2"], *c.y[1:]]),
    ),
    Case(
        "mixed-heads-and-pairs", "bare heads and `(head, deprel)` pairs in one y", "fit", "trees",
        ValueError,
        r"^y\[0\]\[1\] = 0: y mixes bare heads and \(head, deprel\) pairs; give every word the "
        r"same form\.$",
        "y[0][1] = 0: y mixes bare heads and (head, deprel) pairs; give every word the same form.",
        lambda c: c.new().fit(c.X, [[(2, "nsubj"), 0, 2], *c.y[1:]]),
    ),
    Case(
        "non-projective-tree", "crossing arcs, for the projective Eisner", "fit", "trees",
        ValueError,
        r"^y\[0\] is not projective, so Eisner can never predict it\. Use "
        r"Eisner\(projectivize=True\) to lift its crossing arcs, or ChuLiuEdmonds\(\) for "
        r"non-projective parsing\.$",
        "y[0] is not projective, so Eisner can never predict it. Use Eisner(projectivize=True) "
        "to lift its crossing arcs, or ChuLiuEdmonds() for non-projective parsing.",
        lambda c: c.new().fit([[*c.X[0], _LOUDLY], *c.X[1:]], [[3, 4, 0, 3], *c.y[1:]]),
    ),
    # -- CoNLL files -----------------------------------------------------------------------------
    Case(
        "conll-wrong-columns", "a line with 2 fields among lines of 3", "load_conll", "reader",
        ConllFormatError, r"data\.txt, line 2: expected 3 columns, got 2: 'reckons VBZ'$",
        "data.txt, line 2: expected 3 columns, got 2: 'reckons VBZ'",
        lambda c: load_conll(c.file(_CONLL.replace("VBZ B-VP", "VBZ", 1))),
    ),
    Case(
        "conll-empty-field", "an empty field between two tabs (`sep='\\t'`)", "load_conll",
        "reader",
        ConllFormatError, r"data\.txt, line 1: empty field 1: 'He\\t\\tB-NP'$",
        "data.txt, line 1: empty field 1: 'He\\t\\tB-NP'",
        lambda c: load_conll(c.file("He\t\tB-NP\n"), sep="\t"),
    ),
    Case(
        "conll-one-column", "a file of one field per line, read with a label column",
        "load_conll", "reader",
        ConllFormatError,
        r"data\.txt, line 1: the first token line has one field, but a label column needs at "
        r"least one other column \(use label_column=None to read unlabelled tokens\): 'He'$",
        "data.txt, line 1: the first token line has one field, but a label column needs at "
        "least one other column (use label_column=None ...): 'He'",
        lambda c: load_conll(c.file("He\nreckons\n")),
    ),
    Case(
        "conll-empty-file", "only blank and `-DOCSTART-` lines", "load_conll", "reader",
        ConllFormatError, r"data\.txt: no sentence found \(only blank and -DOCSTART- lines\)$",
        "data.txt: no sentence found (only blank and -DOCSTART- lines)",
        lambda c: load_conll(c.file("-DOCSTART- -X- O\n\n\n")),
    ),
    Case(
        "conll-invalid-utf8", "a byte `0xff` on line 4 (not UTF-8)", "load_conll", "reader",
        ConllFormatError,
        r"data\.txt, line 4: b'\\xff' is not valid utf-8 \(invalid start byte\); pass the "
        r"file's encoding, e.g\. encoding='latin-1'$",
        "data.txt, line 4: b'\\xff' is not valid utf-8 (invalid start byte); pass the file's "
        "encoding, e.g. encoding='latin-1'",
        lambda c: load_conll(c.file(_CONLL.encode().replace(b"It", b"I\xff"))),
    ),
    Case(
        "conll-latin1-encoding", "a Latin-1 file read with `encoding='latin-1'`", "load_conll",
        "reader", None, None, "the words decoded right (`José`)",
        lambda c: load_conll(c.file("José NNP B-PER\n".encode("latin-1")), encoding="latin-1"),
        lambda c, result: result == ([[("José", "NNP")]], [["B-PER"]]) or pytest.fail(result),
    ),
    Case(
        "conll-cut-mid-line", "a file cut inside the last line, which lost its last field",
        "load_conll", "reader",
        ConllFormatError, r"data\.txt, line 5: expected 3 columns, got 2: 'is VBZ'$",
        "data.txt, line 5: expected 3 columns, got 2: 'is VBZ'",
        lambda c: load_conll(c.file(_CONLL[: _CONLL.rindex(" ")])),
    ),
    Case(
        "conll-cut-in-last-field", "a file cut inside the last field of its last line",
        "load_conll", "reader", None, None,
        "the label comes back cut short (`B-V`): the file is valid, nothing can tell",
        lambda c: load_conll(c.file(_CONLL[:-2])),
        lambda c, result: result == (_CONLL_X, [_CONLL_Y[0], ["B-NP", "B-V"]])
        or pytest.fail(result),
    ),
    Case(
        "conll-cut-mid-sentence", "a file cut after a complete line inside a sentence",
        "load_conll", "reader", None, None,
        "the last sentence holds the complete lines before the cut",
        lambda c: load_conll(c.file(_CONLL[: _CONLL.index("is VBZ")])),
        lambda c, result: result == ([_CONLL_X[0], [("It", "PRP")]], [_CONLL_Y[0], ["B-NP"]])
        or pytest.fail(result),
    ),
    Case(
        "conll-no-final-newline", "the last line without its newline", "load_conll", "reader",
        None, None, "the same result as with the newline",
        lambda c: load_conll(c.file(_CONLL.rstrip("\n"))),
        lambda c, result: result == (_CONLL_X, _CONLL_Y) or pytest.fail(result),
    ),
    Case(
        "conllu-wrong-columns", "a token line with 9 of 10 columns", "load_conllu", "reader",
        ConllFormatError,
        r"data\.txt, line 2 \(sentence index 0\): expected 10 columns, got 9: '2\\tw2\\t",
        "data.txt, line 2 (sentence index 0): expected 10 columns, got 9: '2\\tw2\\t...'",
        lambda c: load_conllu(c.file(_row(1, 2) + _row(2, 0)[:-3] + "\n" + _row(3, 2))),
    ),
    Case(
        "conllu-non-integer-head", "a HEAD of `x`", "load_conllu", "reader",
        ConllFormatError,
        r"data\.txt, line 6 \(sentence index 1\): conllu cannot parse it \(Failed parsing field "
        r"'head': 'x' is not a valid value",
        "data.txt, line 6 (sentence index 1): conllu cannot parse it (Failed parsing field "
        "'head': 'x' is not a valid value ...)",
        lambda c: load_conllu(c.file(_CONLLU.replace("\t1\tdep", "\tx\tdep"))),
    ),
    Case(
        "conllu-head-out-of-range", "a HEAD of 5 in a 3-word sentence", "load_conllu",
        "reader",
        ConllFormatError,
        r"data\.txt, line 3 \(sentence index 0\): head 5 is out of range \[0, 3\]: '3\\tw3",
        "data.txt, line 3 (sentence index 0): head 5 is out of range [0, 3]: '3\\tw3...'",
        lambda c: load_conllu(c.file(_row(1, 2) + _row(2, 0) + _row(3, 5))),
    ),
    Case(
        "conllu-bad-ids", "ids 1, 3, 2", "load_conllu", "reader",
        ConllFormatError, r"data\.txt, line 2 \(sentence index 0\): expected id 2, got 3",
        "data.txt, line 2 (sentence index 0): expected id 2, got 3: ...",
        lambda c: load_conllu(c.file(_row(1, 0) + _row(3, 1) + _row(2, 1))),
    ),
    Case(
        "conllu-invalid-utf8", "a byte `0xff` on line 5 (not UTF-8)", "load_conllu", "reader",
        ConllFormatError, r"data\.txt, line 5: b'\\xff' is not valid utf-8",
        "data.txt, line 5: b'\\xff' is not valid utf-8 (invalid start byte); pass the file's "
        "encoding, ...",
        lambda c: load_conllu(c.file(_bad_byte_on_line(_CONLLU, 5))),
    ),
    Case(
        "conllu-empty-file", "only comments and blank lines", "load_conllu", "reader",
        ConllFormatError, r"data\.txt: no sentence found \(no token line\)$",
        "data.txt: no sentence found (no token line)",
        lambda c: load_conllu(c.file("# newdoc\n\n\n")),
    ),
    Case(
        "conllu-cut-mid-line", "a file cut inside a token line", "load_conllu", "reader",
        ConllFormatError, r"data\.txt, line 2 \(sentence index 0\): expected 10 columns, got 3",
        "data.txt, line 2 (sentence index 0): expected 10 columns, got 3: '2\\tw2\\t_'",
        lambda c: load_conllu(c.file(_CONLLU[: len(_row(1, 2)) + 7])),
    ),
    Case(
        "conllu-cut-lost-head", "a file cut after word 1 of `1 <- 2 (root)`", "load_conllu",
        "reader",
        ConllFormatError,
        r"data\.txt, line 1 \(sentence index 0\): head 2 is out of range \[0, 1\]",
        "data.txt, line 1 (sentence index 0): head 2 is out of range [0, 1]: ...",
        lambda c: load_conllu(c.file(_row(1, 2))),
    ),
    Case(
        "conllu-cut-mid-sentence", "a file cut after complete lines, heads still in range",
        "load_conllu", "reader", None, None,
        "the last sentence holds the complete lines before the cut",
        lambda c: load_conllu(c.file(_CONLLU[: _CONLLU.rindex("3\tw3")])),
        lambda c, result: _conllu_heads(result) == [[2, 0, 2], [0, 1]] or pytest.fail(result),
    ),
    Case(
        "conllu-no-final-newline", "the last line without its newline", "load_conllu",
        "reader", None, None, "the same result as with the newline",
        lambda c: load_conllu(c.file(_CONLLU.rstrip("\n"))),
        lambda c, result: result == load_conllu(io.StringIO(_CONLLU)) or pytest.fail(result),
    ),
    Case(
        "conllu-cycle", "a treebank whose heads form a cycle", "load_conllu, fit", "trees",
        ValueError, r"^y\[0\] is not a tree: words \[1, 2\] form a cycle \(heads \[2, 1\]\)\.$",
        "load_conllu accepts it (it checks ids and the range of heads); fit: y[0] is not a "
        "tree: words [1, 2] form a cycle (heads [2, 1]).",
        _load_conllu_and_fit,
    ),
    # -- model files -----------------------------------------------------------------------------
    Case(
        "model-other-version", "a model file of format version 99 (skstruct 9.0)", "load",
        "chains, trees",
        ModelFormatError,
        r"model\.npz was written in skstruct model format version 99 \(by skstruct 9\.0\); this "
        r"skstruct \(.+\) reads format versions 1 to 3 only\. Load it with the skstruct "
        r"version that wrote it\.$",
        "model.npz was written in skstruct model format version 99 (by skstruct 9.0); this "
        "skstruct (0.1.0...) reads format versions 1 to 3 only. Load it with the skstruct version "
        "that wrote it.",
        _other_version,
    ),
    Case(
        "model-corrupted", "a model file with one byte flipped", "load", "chains, trees",
        ModelFormatError, r"model\.npz is damaged or not an skstruct model file: \w+",
        "model.npz is damaged or not an skstruct model file: BadZipFile: Bad CRC-32 ...",
        _flip_a_model_byte,
    ),
    Case(
        "model-truncated", "a model file cut in half", "load", "chains, trees",
        ModelFormatError,
        r"model\.npz is damaged or not an skstruct model file: BadZipFile: File is not a zip "
        r"file$",
        "model.npz is damaged or not an skstruct model file: BadZipFile: File is not a zip file",
        _truncated_model,
    ),
    Case(
        "model-pickle", "a pickle (`joblib.dump`) instead of a model file", "load", "reader",
        ModelFormatError,
        r"data\.txt is not an skstruct model file: it is not a zip \(\.npz\) archive\. It looks "
        r"like a pickle \(joblib\.dump or pickle\.dump\): load it with joblib\.load, and only if "
        r"you trust its source\.$",
        "data.txt is not an skstruct model file: it is not a zip (.npz) archive. It looks like a "
        "pickle (...): load it with joblib.load, and only if you trust its source.",
        lambda c: load(c.file(b"\x80\x04\x95\x10\x00\x00\x00")),
    ),
    Case(
        "model-text-file", "a CoNLL file passed as the model", "load", "reader",
        ModelFormatError, r"data\.txt is not an skstruct model file: it is not a zip \(\.npz\) "
        r"archive\.$",
        "data.txt is not an skstruct model file: it is not a zip (.npz) archive.",
        lambda c: load(c.file(_CONLL)),
    ),
    Case(
        "model-plain-npz", "a `.npz` of arrays, not written by `skstruct.save`", "load", "reader",
        ModelFormatError,
        r"arrays\.npz is a \.npz archive but not an skstruct model file \(it has no "
        r"skstruct-model\.json member; write models with skstruct\.save\)\.$",
        "arrays.npz is a .npz archive but not an skstruct model file (it has no "
        "skstruct-model.json member; write models with skstruct.save).",
        _plain_npz,
    ),
]
# fmt: on


def _params():
    for case in CATALOGUE:
        for name in APPLIES[case.applies]:
            yield pytest.param(case, name, id=case.id if name is None else f"{case.id}[{name}]")


@pytest.fixture(autouse=True, scope="module")
def _one_numba_thread():
    """Many tiny fits: one kernel thread, not a parallel region waiting for busy cores."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


@pytest.mark.parametrize(("case", "name"), list(_params()))
def test_catalogue(case, name, tmp_path):
    context = Context(name, tmp_path)
    if case.error is None:
        result = case.run(context)
        case.check(context, result)
        return
    with pytest.raises(Exception) as info:  # the exact type is checked below
        case.run(context)
    assert type(info.value) is case.error, f"{type(info.value).__name__}: {info.value}"
    assert re.search(case.match, str(info.value)), str(info.value)


def test_catalogue_ids_are_unique_and_stable():
    ids = [case.id for case in CATALOGUE]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[A-Za-z0-9]+(-[A-Za-z0-9]+)*", i) for i in ids)
    for case in CATALOGUE:
        assert case.applies in APPLIES
        assert (case.error is None) == (case.match is None) == (case.check is not None), case.id


# -- the docs page shows the catalogue -----------------------------------------------------------


def _cell(text):
    return text.replace("|", "\\|")


def doc_row(case):
    """The row of ``docs/bad_input.md`` for ``case``."""
    error = "accepted" if case.error is None else f"`{case.error.__name__}`"
    message = case.message if case.error is None else f"`{case.message}`"
    cells = [f"`{case.id}`", case.input, f"`{case.where}`", case.applies, error, message]
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _doc_rows():
    text = DOCS_PAGE.read_text(encoding="utf-8")
    return [line.rstrip() for line in text.splitlines() if line.startswith("| `")]


def test_docs_table_is_the_catalogue():
    rows = _doc_rows()
    expected = [doc_row(case) for case in CATALOGUE]
    ids = {re.match(r"\| `([^`]+)`", row).group(1) for row in rows}
    assert ids == {case.id for case in CATALOGUE}, (
        f"ids only in the docs: {sorted(ids - {c.id for c in CATALOGUE})}; only in the "
        f"catalogue: {sorted({c.id for c in CATALOGUE} - ids)}"
    )
    assert rows == expected, "docs/bad_input.md's table differs; its rows should be:\n" + (
        "\n".join(expected)
    )
