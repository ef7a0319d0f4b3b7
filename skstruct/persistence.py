"""Saving and loading fitted models as data: no pickle, so loading runs no code.

A model file is a NumPy ``.npz`` archive (a zip of ``.npy`` arrays). One member,
``skstruct-model.json``, is a UTF-8 JSON document stored as a ``uint8`` array; the
others hold the numeric arrays it refers to by key. The document records the file
format and its version, the skstruct version that wrote it, the model and optional
user metadata. The model is a tree of nodes:

- JSON ``null``, booleans, numbers and strings stand for themselves; JSON arrays are
  Python lists;
- every JSON object is a tagged node ``{"$": tag, ...}``: ``tuple``, ``dict`` (keys and
  values as two lists, so keys keep their type and order), ``vocabulary`` (a large
  ``str -> int`` dict packed into three arrays), ``array`` (a key of the archive),
  ``sparse_array`` (a large array that is mostly zeros, as the flat positions and the
  values of its other entries, two keys of the archive, with its shape and dtype),
  ``scalar`` (a NumPy number with its dtype), ``random_state`` (a RandomState's state,
  or a reference to one written before),
  ``estimator`` (a class name, constructor parameters and fitted attributes) and
  ``object`` (a class name and attributes, for skstruct's internal helpers).

Classes are looked up by name in :data:`_ESTIMATORS` and :data:`_OBJECTS` and nowhere
else, and arrays are read with ``allow_pickle=False``: a file can describe data, never
code to run.

Format versions:

- 1: a :class:`~skstruct.structures.LinearChain` holds dense emission weights, laid out
  ``[emission (n_features * n_labels, row-major) | transition | start | stop | trigram]``;
  the perceptrons' training state (``AveragedWeights``) has no structure of its own.
- 2: a chain holds sparse emission rows (``rows``, an ``EmissionRows``) and its
  weights are laid out ``[transition | start | stop | trigram | emission pool]``; the
  training state keeps the structure its arrays follow (``_weights.structure``: for a
  chain its own copy, whose pool may have free room). Version 1 files are read as the
  same model in version 2 terms: full rows (every pair, row-major), weights reordered.
- 3: large arrays that are mostly zeros are ``sparse_array`` nodes. The hashed weights of
  a parser's :class:`~skstruct.ArcFeatures` (2**22 slots, three arrays while it can go
  on training) are such arrays when it has learnt from few sentences: a UD pipeline
  trained on 40 sentences held 612 MB of arrays, which took seconds to compress on
  saving and to decompress on loading. Earlier versions' files hold none and read as
  before.
"""

import errno
import importlib
import json
import os
from collections.abc import Mapping

import numpy as np

from ._version import __version__
from .features import TokenDictEncoder
from .structures import EmissionRows, LinearChain
from .structures.constraints import ChainConstraints

__all__ = ["FORMAT_VERSION", "ModelFormatError", "load", "register_estimator", "save"]

#: Version of the file layout written by :func:`save`; :func:`load` reads this one and the
#: earlier ones from ``_OLDEST_VERSION`` (see the module docstring for what changed).
FORMAT_VERSION = 3
_OLDEST_VERSION = 1
_FORMAT = "skstruct-model"
_DOCUMENT = "skstruct-model.json"
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_PICKLE_MAGIC = b"\x80"
# str -> int dicts this large (feature vocabularies) are packed into arrays: as JSON
# pairs they would be several times bigger and slower to read.
_PACK_MIN = 64
_SCALAR_KINDS = "biuf"
_ARRAY_KINDS = "biufcUS"
# Numeric arrays of at least this many entries, no more than this share of them nonzero,
# are written as their nonzero entries (positions and values): a quarter keeps the file
# no bigger than the dense array's (4-byte positions beside 8-byte values).
_SPARSE_MIN = 1 << 16
_SPARSE_MAX_SHARE = 0.25


class _Classes(Mapping):
    """The classes a model file may name: class name -> class, each imported from its
    module when first looked up, so that loading a model imports the modules its
    classes need and no others (a saved perceptron's new process never imports the CRF
    or the parsers)."""

    def __init__(self, names_by_module):
        self._modules = {
            name: module for module, names in names_by_module.items() for name in names
        }
        self._classes = {}

    def __getitem__(self, name):
        cls = self._classes.get(name)
        if cls is None:
            cls = getattr(importlib.import_module(self._modules[name]), name)
            self._classes[name] = cls
        return cls

    def __contains__(self, name):
        return name in self._modules

    def __iter__(self):
        return iter(self._modules)

    def __len__(self):
        return len(self._modules)

    def register(self, cls):
        self._modules[cls.__name__] = cls.__module__
        self._classes[cls.__name__] = cls


#: Estimators rebuilt from their constructor parameters.
_ESTIMATORS = _Classes(
    {
        "skstruct.learners": [
            "StructuredPerceptron",
            "StructuredWeightedViolationsPerceptron",
            "ExponentiatedGradientSSVM",
            "StructuredSVM",
            "ParameterMixing",
            "PassiveAggressive",
            "AROW",
            "PCFG",
        ],
        "skstruct.learners.crf": ["LinearChainCRF", "ConditionalRandomField"],
        "skstruct.crfsuite": ["CRF"],
        "skstruct.trees": ["TreeTransform"],
        "skstruct.decoders": [
            "Viterbi",
            "BeamSearch",
            "Greedy",
            "Eisner",
            "ChuLiuEdmonds",
            "ArcStandard",
            "ArcEager",
            "CKY",
            "BestCandidate",
        ],
        "skstruct.features": [
            "TokenFeatures",
            "ArcFeatures",
            "DependencyTreeFeatures",
            "EntityFeatures",
            "ConstituentTreeFeatures",
        ],
        "skstruct.pipeline": ["PredictedTags"],
        "skstruct.morphology": ["PredictedFeats"],
        "skstruct.lemmas": ["PredictedLemmas"],
        "skstruct.relations": ["PredictedRelations"],
        "skstruct.parsing": ["PredictedTrees"],
        "skstruct.ud": ["UDPipeline"],
        "skstruct.voting": ["ReversedParser", "VotingParser"],
        "skstruct.corpus_tags": ["CorpusTags"],
        "skstruct.clusters": ["WordClusters"],
        "skstruct.reranking": ["NBestReranker"],
        "skstruct.updates": [
            "StandardUpdate",
            "EarlyUpdate",
            "HybridUpdate",
            "MaxViolationUpdate",
            "LatestUpdate",
            "LaSOUpdate",
            "MixedAssignments",
            "PassiveAggressiveUpdate",
        ],
    }
)


def register_estimator(cls):
    """Let model files hold estimators of class ``cls`` (rebuilt from their constructor
    parameters), for estimator classes of modules outside skstruct's own list. Returns
    ``cls``, so that it can decorate the class."""
    _ESTIMATORS.register(cls)
    return cls


#: Internal helpers rebuilt from their attributes alone (their constructors would allocate).
_OBJECTS = _Classes(
    {
        "skstruct.features": ["TokenDictEncoder"],
        "skstruct.structures": [
            "LinearChain",
            "EmissionRows",
            "ArcFactoredTree",
            "TransitionSystem",
            "CandidateSets",
            "AnchoredRules",
        ],
        "skstruct.structures.constraints": ["ChainConstraints"],
        "skstruct.trees": ["Grammar"],
        "skstruct.learners": ["AveragedWeights", "ConfidenceWeights"],
    }
)

#: Classes of files written before a rename, read as today's: name -> (class name,
#: attributes the old class did not store).
_RENAMED = {"ArcStandardSystem": ("TransitionSystem", {"kernel": "transition"})}

#: Parameters added to an estimator after files were written without them, with the value
#: that keeps such a file's model working as it was trained (the new default may not).
_PARAMETERS_ADDED = {"PredictedRelations": {"chain_order": "sentence"}}

_ADVICE = (
    "skstruct.save stores data and skstruct's own classes only, so that loading runs no "
    "code; save this model with joblib.dump or pickle instead (and load such files only "
    "from sources you trust)."
)


class ModelFormatError(ValueError):
    """A file is not a model :func:`save` wrote, is damaged, or has another format version.

    Examples
    --------
    >>> import io
    >>> from skstruct import load
    >>> load(io.BytesIO(b"not a model"))
    Traceback (most recent call last):
    ...
    skstruct.persistence.ModelFormatError: <stream> is not an skstruct model file: it is not a \
zip (.npz) archive.
    """


# -- saving ---------------------------------------------------------------------------------


def save(model, path, *, metadata=None):
    """Save a skstruct estimator, fitted or not, to a file that loads without running code.

    Parameters
    ----------
    model : estimator
        A :class:`~skstruct.StructuredPerceptron`, :class:`~skstruct.SWVP`,
        :class:`~skstruct.ExponentiatedGradientSSVM` or :class:`~skstruct.ParameterMixing`
        (or any other public skstruct estimator), with any of skstruct's decoders,
        features and update rules as parameters.
    path : str, path-like or binary file object
        Where to write. A path is written to ``path + ".partial"`` first and then
        renamed, so an existing model is replaced only by a complete file. No suffix is
        added (``.npz`` is a good one).
    metadata : dict or None, default=None
        Anything else to keep with the model (str keys; values of the kinds the model
        itself may hold: numbers, strings, lists, tuples, dicts, arrays), returned by
        ``load(path, with_metadata=True)``.

    Raises
    ------
    FileNotFoundError
        When the folder of ``path`` does not exist (the message names it).
    TypeError
        When ``model`` is not a skstruct estimator, or a parameter or attribute holds
        something that cannot be stored as data (a function such as SWVP's callable
        ``gamma``, an object of a user-defined class such as a custom update rule):
        the message names it. Nothing is written then. Such models can be saved with
        ``joblib.dump`` or ``pickle``.

    See Also
    --------
    load : Read the model back.

    Notes
    -----
    Everything needed to continue training is saved too: the perceptrons' current and
    summed weights, the random state and ``history_``, so ``partial_fit`` or a
    ``warm_start`` fit go on exactly as they would have on the original.

    Examples
    --------
    >>> import os, tempfile
    >>> from skstruct import StructuredPerceptron, TokenFeatures, load, save
    >>> from skstruct.datasets import make_chain_data
    >>> X, y = make_chain_data(50, random_state=0)
    >>> model = StructuredPerceptron(features=TokenFeatures(), max_iter=2, random_state=0)
    >>> model = model.fit(X, y)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "tagger.npz")
    ...     save(model, path, metadata={"corpus": "synthetic"})
    ...     loaded, metadata = load(path, with_metadata=True)
    >>> loaded.predict(X[:5]) == model.predict(X[:5]), metadata
    (True, {'corpus': 'synthetic'})
    """
    arrays = _encode(model, metadata)  # raises before anything is written
    if hasattr(path, "write"):
        np.savez_compressed(path, **arrays)
        return
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):  # else open() would name the temporary file instead
        raise FileNotFoundError(
            errno.ENOENT, f"cannot save the model: no folder {folder!r} (create it first)", path
        )
    partial = f"{path}.partial"
    try:
        # an open file: np.savez_compressed would append ".npz" to a name without it
        with open(partial, "wb") as stream:
            np.savez_compressed(stream, **arrays)
        os.replace(partial, path)
    except BaseException:
        if os.path.exists(partial):
            os.remove(partial)
        raise


def _encode(model, metadata):
    """The archive's members: the JSON document (as bytes) and the arrays it refers to."""
    cls = type(model)
    if _ESTIMATORS.get(cls.__name__) is not cls:
        raise TypeError(
            f"skstruct.save saves skstruct estimators ({', '.join(sorted(_ESTIMATORS))}), "
            f"not {cls.__module__}.{cls.__qualname__}. Use joblib.dump for other objects."
        )
    if metadata is not None and not (
        type(metadata) is dict and all(isinstance(key, str) for key in metadata)
    ):
        raise TypeError(f"metadata must be a dict with str keys or None, not {metadata!r}.")
    writer = _Writer()
    document = {
        "format": _FORMAT,
        "format_version": FORMAT_VERSION,
        "skstruct_version": _skstruct_version(),
        "model": writer.encode(model, cls.__name__),
        "metadata": writer.encode(metadata or {}, "metadata"),
    }
    text = json.dumps(document, ensure_ascii=True, separators=(",", ":"))
    return {**writer.arrays, _DOCUMENT: np.frombuffer(text.encode("ascii"), dtype=np.uint8)}


class _Writer:
    """Encodes values as JSON nodes, collecting the arrays they refer to."""

    def __init__(self):
        self.arrays = {}
        self._keys = {}  # id(array) -> key: an array held twice is stored once
        self._nodes = {}  # id(array) -> its node, likewise
        self._generators = {}  # id(RandomState) -> number, likewise
        self._held = []  # keeps those objects alive, so that their ids stay unique

    def encode(self, value, where):
        """The node of ``value``; ``where`` names it in errors (``SWVP.gamma``)."""
        if value is None or type(value) in (bool, int, float, str):
            return value
        if isinstance(value, str):  # numpy.str_ and other str subclasses
            return str(value)
        if isinstance(value, np.generic):
            return self._scalar(value, where)
        if isinstance(value, np.ndarray):
            return self._array_node(value, where)
        if type(value) is list:
            return [self.encode(item, f"{where}[{i}]") for i, item in enumerate(value)]
        if type(value) is tuple:
            return {"$": "tuple", "items": self.encode(list(value), where)}
        if type(value) is dict:
            return self._dict(value, where)
        if type(value) in (set, frozenset):  # as a decoder's allowed pairs
            items = sorted(value, key=repr)  # a stable file for the same set
            return {"$": type(value).__name__, "items": self.encode(items, where)}
        if type(value) is np.random.RandomState:
            return self._random_state(value, where)
        name = type(value).__name__
        if _ESTIMATORS.get(name) is type(value):
            return self._estimator(value, where)
        if _OBJECTS.get(name) is type(value):
            return {"$": "object", "class": name, "state": self._attributes(vars(value), where)}
        raise TypeError(f"Cannot save {where}: {_unsupported(value)}. {_ADVICE}")

    def _random_state(self, value, where):
        # a random_state parameter given as a RandomState is the very object the learner
        # draws from (its _rng): written once, so that the loaded model shares it too
        number = self._generators.get(id(value))
        if number is not None:
            return {"$": "random_state", "id": number}
        number = self._generators[id(value)] = len(self._generators)
        self._held.append(value)
        state = self.encode(value.get_state(), where)
        return {"$": "random_state", "id": number, "state": state}

    def _scalar(self, value, where):
        if value.dtype.kind not in _SCALAR_KINDS:
            raise TypeError(f"Cannot save {where}: {value!r} is a {value.dtype} scalar. {_ADVICE}")
        return {"$": "scalar", "dtype": value.dtype.str, "value": value.item()}

    def _array_node(self, value, where):
        node = self._nodes.get(id(value))
        if node is None:
            positions = _sparse_positions(value)
            if positions is None:
                node = {"$": "array", "key": self._array(value, where)}  # _array holds it
            else:
                node = {
                    "$": "sparse_array",
                    "shape": list(value.shape),
                    "dtype": value.dtype.str,
                    "positions": self._array(positions, where),
                    "values": self._array(value.reshape(-1)[positions], where),
                }
                self._held.append(value)
            self._nodes[id(value)] = node
        return node

    def _array(self, value, where):
        if value.dtype.kind not in _ARRAY_KINDS or value.dtype.fields is not None:
            raise TypeError(
                f"Cannot save {where}: it is an array of dtype {value.dtype}, which needs "
                f"pickle. {_ADVICE}"
            )
        key = self._keys.get(id(value))
        if key is None:
            key = self._keys[id(value)] = f"a{len(self.arrays)}"
            self.arrays[key] = value
            self._held.append(value)
        return key

    def _dict(self, value, where):
        keys = list(value)
        if len(keys) >= _PACK_MIN and all(type(k) is str for k in keys):
            ids = list(value.values())
            if all(type(v) is int and -(2**63) <= v < 2**63 for v in ids):
                return self._vocabulary(keys, ids)
        return {
            "$": "dict",
            "keys": [self.encode(key, f"{where} key {key!r}") for key in keys],
            "values": [self.encode(v, f"{where}[{k!r}]") for k, v in value.items()],
        }

    def _vocabulary(self, keys, ids):
        encoded = [key.encode("utf-8", "surrogatepass") for key in keys]
        ends = np.cumsum(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)))
        text = np.frombuffer(b"".join(encoded), dtype=np.uint8)
        values = np.array(ids, dtype=np.int64)
        arrays = {"text": text, "ends": ends, "values": values}
        return {"$": "vocabulary", **{k: self._array(a, k) for k, a in arrays.items()}}

    def _estimator(self, value, where):
        params = value.get_params(deep=False)
        fitted = {k: v for k, v in vars(value).items() if k not in params}
        return {
            "$": "estimator",
            "class": type(value).__name__,
            "params": {k: self.encode(v, f"{where}.{k}") for k, v in params.items()},
            "attributes": self._attributes(fitted, where),
        }

    def _attributes(self, attributes, where):
        return {k: self.encode(v, f"{where}.{k}") for k, v in attributes.items()}


def _sparse_positions(array):
    """The flat positions of the nonzero entries of a large, C-ordered numeric array that
    is mostly zeros (int32 where they fit); None for an array to store whole.

    An entry is zero when all its bytes are: -0.0 and NaN are kept as entries, so that
    the array reads back bit for bit."""
    dtype = array.dtype
    if (
        array.size < _SPARSE_MIN
        or dtype.kind not in _SCALAR_KINDS
        or dtype.itemsize not in (1, 2, 4, 8)
        or not array.flags.c_contiguous
    ):
        return None
    bits = array.reshape(-1).view(f"u{dtype.itemsize}")
    count = np.count_nonzero(bits)
    if count > _SPARSE_MAX_SHARE * array.size:
        return None
    positions = np.flatnonzero(bits)
    return positions.astype(np.int32) if array.size <= np.iinfo(np.int32).max else positions


def _unsupported(value):
    cls = type(value)
    if callable(value) and not isinstance(value, type) and not hasattr(value, "get_params"):
        return f"{value!r} is a function or other callable, which cannot be stored as data"
    return f"it is a {cls.__module__}.{cls.__qualname__} object, not one of skstruct's classes"


def _skstruct_version():
    return __version__


# -- loading --------------------------------------------------------------------------------


def load(path, *, with_metadata=False):
    """Load a model written by :func:`save`, without running code from the file.

    Parameters
    ----------
    path : str, path-like or binary file object
        The file.
    with_metadata : bool, default=False
        Also return the ``metadata`` given to :func:`save` (``{}`` if none was).

    Returns
    -------
    model : estimator
        The estimator as it was saved: same parameters, fitted attributes and
        predictions; it can be scored, refitted and, for the perceptrons, trained on.
    metadata : dict
        Only with ``with_metadata=True``.

    Raises
    ------
    FileNotFoundError, OSError
        When the file cannot be opened.
    ModelFormatError
        A :class:`ValueError` raised when the file is not an skstruct model (another
        kind of file, a pickle, a plain ``.npz``), is truncated or damaged, or was
        written in a format version this skstruct does not read (the message gives
        the file's and the versions read). A damaged file never loads as a wrong
        model: the archive's checksums and the model's consistency (down to each
        chain's emission rows) are checked.

    See Also
    --------
    save : Write a model.

    Notes
    -----
    Files of format version 1 (written before chains had sparse emission rows) load
    too, as the same model: a chain gets a weight for every (feature, label) pair, as
    its dense matrix had, so it predicts and trains on exactly as before. :func:`save`
    writes version 2 (``skstruct.persistence.FORMAT_VERSION``).

    Examples
    --------
    >>> import io
    >>> from skstruct import Eisner, StructuredPerceptron, load, save
    >>> X = [[{"form": "Dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]] * 3
    >>> parser = StructuredPerceptron(Eisner(), max_iter=2).fit(X, [[2, 0]] * 3)
    >>> buffer = io.BytesIO()
    >>> save(parser, buffer)
    >>> _ = buffer.seek(0)
    >>> load(buffer).predict(X[:1])
    [[2, 0]]
    """
    if hasattr(path, "read"):
        return _load_stream(path, str(getattr(path, "name", "<stream>")), with_metadata)
    path = os.fspath(path)
    with open(path, "rb") as stream:
        return _load_stream(stream, path, with_metadata)


def _load_stream(stream, name, with_metadata):
    start = stream.tell()
    magic = stream.read(4)
    if magic not in _ZIP_MAGIC:
        hint = (
            " It looks like a pickle (joblib.dump or pickle.dump): load it with joblib.load, "
            "and only if you trust its source."
            if magic.startswith(_PICKLE_MAGIC)
            else ""
        )
        raise ModelFormatError(
            f"{name} is not an skstruct model file: it is not a zip (.npz) archive.{hint}"
        )
    stream.seek(start)
    try:
        with np.load(stream, allow_pickle=False) as archive:
            document = _document(archive, name)
            reader = _Reader(archive, document["format_version"])
            model = reader.decode(document["model"])
            metadata = reader.decode(document.get("metadata", {"$": "dict"}))
    except ModelFormatError:
        raise
    except Exception as exc:  # anything a damaged or forged file makes the reader hit
        raise ModelFormatError(
            f"{name} is damaged or not an skstruct model file: {type(exc).__name__}: {exc}"
        ) from exc
    if type(model) is not _ESTIMATORS.get(document["model"].get("class")):
        raise ModelFormatError(f"{name} does not hold an estimator at its top level.")
    if type(metadata) is not dict:
        raise ModelFormatError(f"{name}: its metadata is not a dict.")
    return (model, metadata) if with_metadata else model


def _document(archive, name):
    """The JSON document of an open archive, after the format and version checks."""
    if _DOCUMENT not in archive.files:
        raise ModelFormatError(
            f"{name} is a .npz archive but not an skstruct model file (it has no "
            f"{_DOCUMENT} member; write models with skstruct.save)."
        )
    raw = archive[_DOCUMENT]
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise ModelFormatError(f"{name}: the model document is not a byte string.")
    document = json.loads(raw.tobytes().decode("utf-8"))
    if not isinstance(document, dict) or document.get("format") != _FORMAT:
        raise ModelFormatError(f"{name} is not an skstruct model file (unknown document).")
    version = document.get("format_version")
    if type(version) is not int or not _OLDEST_VERSION <= version <= FORMAT_VERSION:
        raise ModelFormatError(
            f"{name} was written in skstruct model format version {version!r} (by skstruct "
            f"{document.get('skstruct_version')}); this skstruct ({_skstruct_version()}) reads "
            f"format versions {_OLDEST_VERSION} to {FORMAT_VERSION} only. Load it with the "
            f"skstruct version that wrote it."
        )
    if not isinstance(document.get("model"), dict):
        raise ModelFormatError(f"{name} holds no model.")
    return document


class _Reader:
    """Decodes JSON nodes, reading the arrays they refer to from the archive."""

    def __init__(self, archive, version=FORMAT_VERSION):
        self.archive = archive
        self.version = version
        self._arrays = {}  # key -> array: shared arrays stay shared
        self._sparse = {}  # key of the positions -> the array they rebuilt, likewise
        self._generators = {}  # number -> RandomState, likewise

    def decode(self, node):
        if node is None or type(node) in (bool, int, float, str):
            return node
        if type(node) is list:
            return [self.decode(item) for item in node]
        tag = node["$"]
        decoder = getattr(self, f"_decode_{tag}", None) if isinstance(tag, str) else None
        if decoder is None:
            raise ValueError(f"unknown node type {tag!r}")
        return decoder(node)

    def _decode_tuple(self, node):
        return tuple(self._list(node["items"]))

    def _decode_set(self, node):
        return set(self._list(node["items"]))

    def _decode_frozenset(self, node):
        return frozenset(self._list(node["items"]))

    def _decode_dict(self, node):
        keys, values = self._list(node.get("keys", [])), self._list(node.get("values", []))
        if len(keys) != len(values):
            raise ValueError("a dict has more keys than values or the reverse")
        return dict(zip(keys, values))

    def _decode_vocabulary(self, node):
        text = self._array(node["text"]).tobytes()
        ends, values = self._array(node["ends"]), self._array(node["values"])
        if ends.shape != values.shape or ends.ndim != 1 or (ends.size and ends[-1] != len(text)):
            raise ValueError("a vocabulary's arrays do not match")
        starts = [0, *ends[:-1].tolist()]
        keys = [text[a:b].decode("utf-8", "surrogatepass") for a, b in zip(starts, ends.tolist())]
        return dict(zip(keys, values.tolist()))

    def _decode_array(self, node):
        return self._array(node["key"])

    def _decode_sparse_array(self, node):
        key = node["positions"]
        if key not in self._sparse:
            dtype = np.dtype(node["dtype"])
            shape = node["shape"]
            if dtype.kind not in _SCALAR_KINDS or dtype.str != node["dtype"]:
                raise ValueError(f"sparse array of dtype {node['dtype']!r} refused")
            if type(shape) is not list or not all(_is_int(n) and n >= 0 for n in shape):
                raise ValueError(f"sparse array of shape {shape!r} refused")
            positions, values = self._array(key), self._array(node["values"])
            array = np.zeros(shape, dtype=dtype)
            if (
                positions.dtype.kind not in "iu"
                or positions.ndim != 1
                or values.shape != positions.shape
                or values.dtype != dtype
            ):
                raise ValueError(
                    f"sparse array {key!r}: {positions.shape} {positions.dtype} positions "
                    f"for {values.shape} {values.dtype} values of a {dtype} array"
                )
            if positions.size and not 0 <= positions.min() <= positions.max() < array.size:
                raise ValueError(f"sparse array {key!r} has positions outside its {shape}")
            array.reshape(-1)[positions] = values
            self._sparse[key] = array
        return self._sparse[key]

    def _decode_scalar(self, node):
        dtype = np.dtype(node["dtype"])
        if dtype.kind not in _SCALAR_KINDS:
            raise ValueError(f"scalar of dtype {dtype} refused")
        return dtype.type(node["value"])

    def _decode_random_state(self, node):
        number = node["id"]
        if "state" not in node:
            return self._generators[number]
        random_state = np.random.RandomState()
        random_state.set_state(self.decode(node["state"]))
        self._generators[number] = random_state
        return random_state

    def _decode_estimator(self, node):
        cls = _lookup(_ESTIMATORS, node["class"])
        params = {_name(k): self.decode(v) for k, v in node["params"].items()}
        params = {**_PARAMETERS_ADDED.get(node["class"], {}), **params}
        estimator = cls(**params)
        if hasattr(cls, "_parameter_constraints"):
            estimator._validate_params()
        vars(estimator).update(self._attributes(node["attributes"], exclude=params))
        if self.version < 2:
            _upgrade_from_version_1(estimator)
        _check_fitted(estimator)
        return estimator

    def _decode_object(self, node):
        name, added = _RENAMED.get(node["class"], (node["class"], {}))
        cls = _lookup(_OBJECTS, name)
        instance = cls.__new__(cls)
        vars(instance).update({**added, **self._attributes(node["state"])})
        if cls is EmissionRows:
            _check_rows(instance)
        elif cls is LinearChain:
            vars(instance).setdefault("constraints", None)  # saved before constraints
            # a version 1 chain has no rows yet: its estimator gives it full ones
            _check_chain(instance, "a chain", needs_rows=self.version >= 2)
        return instance

    def _attributes(self, nodes, exclude=()):
        attributes = {_name(k): self.decode(v) for k, v in nodes.items()}
        clash = set(attributes) & set(exclude)
        if clash:
            raise ValueError(f"attributes {sorted(clash)} are also parameters")
        return attributes

    def _list(self, node):
        if type(node) is not list:
            raise ValueError(f"expected a list, got {type(node).__name__}")
        return [self.decode(item) for item in node]

    def _array(self, key):
        if key not in self._arrays:
            if not isinstance(key, str) or key == _DOCUMENT or key not in self.archive.files:
                raise ValueError(f"array {key!r} is missing from the archive")
            array = self.archive[key]  # reads and checks the member's CRC
            if array.dtype.kind not in _ARRAY_KINDS:
                raise ValueError(f"array {key!r} has dtype {array.dtype}")
            self._arrays[key] = array
        return self._arrays[key]


def _lookup(classes, name):
    if not isinstance(name, str) or name not in classes:
        raise ValueError(f"{name!r} is not a class skstruct.load knows")
    return classes[name]


def _name(key):
    """An attribute name from the file: a plain identifier, never a special one."""
    if not (isinstance(key, str) and key.isidentifier() and not key.startswith("__")):
        raise ValueError(f"{key!r} is not an attribute name")
    return key


def _check_fitted(estimator):
    """Refuse a model whose weights do not fit its structure (a forged or mixed-up file)."""
    structure = vars(estimator).get("structure_")
    if structure is None:
        return
    for name in ("coef_", "variance_"):  # variance_: AROW's
        _check_weights(name, vars(estimator).get(name), structure.n_weights, "structure_")
    weights = vars(estimator).get("_weights")
    if weights is not None:
        state = vars(weights).get("structure")
        if type(state) is not type(structure):
            raise ValueError(
                f"_weights.structure is {_describe(state)}, not a {type(structure).__name__} "
                f"as structure_"
            )
        if isinstance(structure, LinearChain):
            same = ("n_features", "n_labels", "order")
            if any(getattr(state, k) != getattr(structure, k) for k in same):
                raise ValueError("_weights.structure and structure_ are different chains")
        for name in getattr(type(weights), "layout_arrays", ("coef", "coef_sum")):
            _check_weights(
                f"_weights.{name}", vars(weights).get(name), state.n_weights, "_weights.structure"
            )
    classes = vars(estimator).get("classes_")
    if isinstance(structure, LinearChain) and classes is not None:
        if not (isinstance(classes, np.ndarray) and classes.shape == (structure.n_labels,)):
            raise ValueError(f"classes_ is {_describe(classes)} for {structure.n_labels} labels")
    encoder = vars(estimator).get("encoder_")
    if isinstance(structure, LinearChain) and isinstance(encoder, TokenDictEncoder):
        _check_feature_ids(encoder, structure.n_features)


def _check_weights(name, array, size, layout):
    if array is not None and not (
        isinstance(array, np.ndarray) and array.shape == (size,) and array.dtype.kind == "f"
    ):
        raise ValueError(f"{name} is {_describe(array)}, but {layout} needs {size} float weights")


def _check_feature_ids(encoder, n_features):
    """The column ids the encoder gives (emission rows the kernels read) exist in the chain."""
    hashed, ids = vars(encoder).get("n_features"), vars(encoder).get("code_ids_")
    if hashed is not None and not (_is_int(hashed) and 0 < hashed <= n_features):
        raise ValueError(f"encoder_ hashes into {hashed!r} columns, the chain has {n_features}")
    if ids is not None and not (
        isinstance(ids, np.ndarray)
        and ids.ndim == 1
        and ids.dtype.kind in "iu"
        and (ids.size == 0 or (ids.min() >= 0 and ids.max() < n_features))
    ):
        raise ValueError(f"encoder_.code_ids_ are not column ids of a chain of {n_features}")


def _is_int(value):
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


_ROWS_DTYPES = {
    "start": np.int64,
    "length": np.int32,
    "capacity": np.int32,
    "labels": np.int32,
    "used": np.int64,
}


def _check_rows(rows):
    """Refuse emission rows the kernels could read or write out of bounds with.

    Their arrays are replaced by copies, so that no two rows (and no other attribute)
    share an array a forged file pointed at twice: the kernels grow rows in place.
    """
    for name, dtype in _ROWS_DTYPES.items():
        array = vars(rows).get(name)
        if not (isinstance(array, np.ndarray) and array.dtype == dtype and array.ndim == 1):
            raise ValueError(
                f"emission rows: {name} is {_describe(array)}, not a 1-d array of {np.dtype(dtype)}"
            )
        setattr(rows, name, array.copy())
    start, length, capacity, labels, used = rows.arrays
    if not start.shape == length.shape == capacity.shape:
        raise ValueError("emission rows: start, length and capacity differ in length")
    if used.shape != (1,) or not 0 <= used[0] <= labels.size:
        raise ValueError(f"emission rows: used is {used.tolist()} for a pool of {labels.size}")
    if start.size == 0:
        return
    if length.min() < 0 or (length > capacity).any():
        raise ValueError("emission rows: a row is longer than its capacity, or negative")
    # start <= used first: start + capacity cannot overflow then
    if start.min() < 0 or start.max() > used[0] or (start + capacity > used[0]).any():
        raise ValueError("emission rows: a row lies outside the used part of the pool")
    taken = np.flatnonzero(capacity)
    by_start = taken[np.argsort(start[taken], kind="stable")]
    if (start[by_start[1:]] < start[by_start[:-1]] + capacity[by_start[:-1]]).any():
        raise ValueError("emission rows: two rows share pool slots")
    # rows are disjoint and in the pool: their labels number at most the pool size
    live = labels[rows.live_slots()]
    if live.size:
        ends = np.cumsum(length, dtype=np.int64)
        rising = np.diff(live) > 0
        # a row's first label may be below the last one of the row before it
        rising[ends[(ends > 0) & (ends < live.size)] - 1] = True
        if live.min() < 0:
            raise ValueError("emission rows: a row holds a negative label")
        if not rising.all():
            raise ValueError("emission rows: a row's labels are not sorted, distinct labels")


def _check_chain(chain, where, needs_rows=True):
    """Refuse a chain whose sizes or rows do not fit together."""
    n_features, n_labels, order = (vars(chain).get(k) for k in ("n_features", "n_labels", "order"))
    if not (
        _is_int(n_features) and n_features >= 0 and _is_int(n_labels) and n_labels >= 1
    ) or order not in (0, 1, 2):
        raise ValueError(
            f"{where} has n_features={n_features!r}, n_labels={n_labels!r}, order={order!r}"
        )
    constraints = vars(chain).get("constraints")
    if constraints is not None:
        _check_constraints(constraints, n_labels, where)
    rows = vars(chain).get("rows")
    if rows is None and not needs_rows:
        return
    if type(rows) is not EmissionRows:
        raise ValueError(f"{where} has rows {_describe(rows)}, not EmissionRows")
    if rows.n_features != n_features:
        raise ValueError(f"{where} has {rows.n_features} emission rows for {n_features} features")
    live = rows.labels[rows.live_slots()]
    if live.size and live.max() >= n_labels:
        raise ValueError(f"{where}: its emission rows hold labels beyond its {n_labels} labels")


def _check_constraints(constraints, n_labels, where):
    """Refuse constraints whose masks do not fit the chain's labels."""
    if type(constraints) is not ChainConstraints:
        raise ValueError(f"{where} has constraints {_describe(constraints)}")
    shapes = {"transition": (n_labels, n_labels), "start": (n_labels,), "stop": (n_labels,)}
    for name, shape in shapes.items():
        mask = vars(constraints).get(name)
        if not (isinstance(mask, np.ndarray) and mask.dtype == bool and mask.shape == shape):
            raise ValueError(f"{where}: constraints.{name} is {_describe(mask)}, not bool {shape}")
    if not isinstance(vars(constraints).get("description"), str):
        raise ValueError(f"{where}: constraints have no description")
    vars(constraints).pop("_feasible", None)  # a cache: recomputed when needed


def _upgrade_from_version_1(estimator):
    """Bring an estimator read from a version 1 file to today's layout (in place).

    A chain's dense emission weights become full rows (every pair, row-major, as the
    dense matrix was) and move after the other weights; the training state gets the
    structure its arrays follow.
    """
    attributes = vars(estimator)
    structure = attributes.get("structure_")
    weights = attributes.get("_weights")
    if isinstance(structure, LinearChain) and "rows" not in vars(structure):
        n_features, n_labels = int(structure.n_features), int(structure.n_labels)
        n_emission = n_features * n_labels
        size = n_emission + structure.n_dense
        if attributes.get("coef_") is None:
            raise ValueError("structure_ is a chain, but there is no coef_")
        owners = [(estimator, "coef_")]
        if weights is not None:
            owners += [(weights, "coef"), (weights, "coef_sum")]
        for owner, name in owners:
            array = vars(owner).get(name)
            where = name if owner is estimator else f"_weights.{name}"
            _check_weights(where, array, size, "structure_ (format version 1)")
            if array is not None:
                setattr(owner, name, np.concatenate([array[n_emission:], array[:n_emission]]))
        structure.rows = EmissionRows.full(n_features, n_labels)
        # attributes in the order a chain sets them (constraints after rows)
        structure.constraints = vars(structure).pop("constraints", None)
    if weights is not None and structure is not None and "structure" not in vars(weights):
        state = vars(weights)
        arrays = dict(state)
        state.clear()  # the structure first, as AveragedWeights sets it
        state.update(structure=structure.training_copy(), **arrays)


def _describe(value):
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return f"a {type(value).__name__}"
