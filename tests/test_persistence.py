"""skstruct.save / skstruct.load: exact round trips, refusals, and damaged or foreign files."""

import io
import json
import pickle

import joblib
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import make_pipeline

import skstruct
from skstruct import (
    SWVP,
    ArcEager,
    ArcFeatures,
    ArcStandard,
    BeamSearch,
    ChuLiuEdmonds,
    Eisner,
    ExponentiatedGradientSSVM,
    Greedy,
    ModelFormatError,
    ParameterMixing,
    PredictedRelations,
    StructuredPerceptron,
    StructuredSVM,
    TokenFeatures,
    Viterbi,
    load,
    save,
)
from skstruct.datasets import make_chain_data
from skstruct.features import crfsuite_tutorial_features
from skstruct.persistence import FORMAT_VERSION
from skstruct.structures import EmissionRows, LinearChain
from skstruct.updates import EarlyUpdate
from tests.test_contract import _tree_data

_DOCUMENT = "skstruct-model.json"
_RELATIONS = {"DT": "det", "JJ": "amod", "NN": "nmod", "VB": "root", "IN": "case"}


def _chain():
    # enough words that the vocabularies are packed into arrays (_PACK_MIN entries)
    return make_chain_data(60, n_labels=3, n_words=100, random_state=0)


def _chain_int():
    X, y = _chain()
    return X, [[int(label[1:]) for label in labels] for labels in y]


def _chain_dicts():
    X, y = _chain()
    return crfsuite_tutorial_features(X), y


def _trees():
    return _tree_data(40)


def _labelled_trees():
    X, y = _trees()
    return X, [
        [(head, _RELATIONS[token["xpos"]]) for token, head in zip(sentence, heads)]
        for sentence, heads in zip(X, y)
    ]


def _perceptron(decoder=None, **params):
    return StructuredPerceptron(decoder, **{"max_iter": 3, "random_state": 0, **params})


def _swvp(decoder=None, **params):
    return SWVP(decoder, **{"max_iter": 3, "random_state": 0, **params})


def _eg(decoder=None, **params):
    params = {"max_iter": 3, "tol": None, "random_state": 0, **params}
    return ExponentiatedGradientSSVM(decoder, **params)


# parsers hash into a small weight space: the default 2**22 weights only cost time here
_HASHED = 2**14
# ... except where the weights are to be mostly zeros: written as sparse_array nodes
_SPARSE = 2**17

# (id, estimator, data): every public estimator in the configurations it supports
CASES = [
    ("chain", _perceptron(features=TokenFeatures()), _chain),
    ("chain-hashed", _perceptron(features=TokenFeatures(), n_features=2**10), _chain),
    ("chain-dicts", _perceptron(), _chain_dicts),
    ("chain-int-labels", _perceptron(features=TokenFeatures(window=0)), _chain_int),
    (
        "beam-order2-max-violation",
        _perceptron(
            BeamSearch(beam_size=2, order=2), update="max_violation", features=TokenFeatures()
        ),
        _chain,
    ),
    ("greedy-early", _perceptron(Greedy(), update="early", features=TokenFeatures()), _chain),
    (
        "viterbi2-laso",
        _perceptron(Viterbi(order=2), update="laso", features=TokenFeatures()),
        _chain,
    ),
    (
        "early-stopping-unaveraged",
        _perceptron(
            features=TokenFeatures(), average=False, validation_fraction=0.25, n_iter_no_change=1
        ),
        _chain,
    ),
    ("swvp", _swvp(gamma="wmr", mode="balanced", beta=2.0, features=TokenFeatures()), _chain),
    (
        "swvp-spans-beam",
        _swvp(BeamSearch(beam_size=2), substructures="spans", features=TokenFeatures()),
        _chain,
    ),
    ("eg-chain", _eg(features=TokenFeatures()), _chain),
    ("eisner", _perceptron(Eisner(), n_features=_HASHED), _trees),
    ("eisner2", _perceptron(Eisner(order=2), n_features=_HASHED), _trees),
    (
        "eisner-grandparents",
        _perceptron(Eisner(order=2, grandparents=True), n_features=_HASHED),
        _trees,
    ),
    ("chu-liu-edmonds", _perceptron(ChuLiuEdmonds(), n_features=_HASHED), _trees),
    (
        "arc-standard",
        _perceptron(ArcStandard(beam_size=2), update="early", n_features=_HASHED),
        _trees,
    ),
    (
        "arc-eager",
        _perceptron(ArcEager(beam_size=2), update="max_violation", n_features=_HASHED),
        _trees,
    ),
    (  # weights mostly zeros: stored as their nonzero entries (sparse_array nodes)
        "arc-eager-sparse",
        _perceptron(ArcEager(beam_size=2), update="max_violation", n_features=_SPARSE),
        _trees,
    ),
    (
        "arc-features",
        _perceptron(Eisner(), features=ArcFeatures(n_features=2**16, lowercase=True)),
        _trees,
    ),
    (
        "arc-features-coarse",
        _perceptron(Eisner(), features=ArcFeatures(n_features=2**16, coarse_pos=1)),
        _trees,
    ),
    ("eisner-labelled", _perceptron(Eisner(), n_features=_HASHED), _labelled_trees),
    (
        "cle-labelled",
        _perceptron(ChuLiuEdmonds(single_root=False), n_features=_HASHED),
        _labelled_trees,
    ),
    ("swvp-eisner", _swvp(Eisner(), n_features=_HASHED), _trees),
    ("swvp-eisner-labelled", _swvp(Eisner(order=2), n_features=_HASHED), _labelled_trees),
    ("eg-eisner", _eg(Eisner(), n_features=_HASHED), _trees),
    ("eg-cle-batch", _eg(ChuLiuEdmonds(), online=False, n_features=_HASHED), _trees),
    ("ssvm-chain", StructuredSVM(features=TokenFeatures(), max_iter=3, random_state=0), _chain),
    (
        "ssvm-beam-order2",
        StructuredSVM(BeamSearch(beam_size=2, order=2), features=TokenFeatures(), max_iter=3),
        _chain,
    ),
    (
        "ssvm-cle-labelled",
        StructuredSVM(ChuLiuEdmonds(), n_features=_HASHED, max_iter=3, random_state=0),
        _labelled_trees,
    ),
    (
        "mixing",
        ParameterMixing(
            _perceptron(features=TokenFeatures()),
            n_shards=2,
            max_iter=2,
            mixing=np.array([0.3, 0.7]),
            random_state=0,
        ),
        _chain,
    ),
    (
        "mixing-parser",
        ParameterMixing(_swvp(Eisner(), n_features=_HASHED), n_shards=2, random_state=0),
        _trees,
    ),
]
CONTINUABLE = [case for case in CASES if isinstance(case[1], StructuredPerceptron | SWVP)]


def _ids(cases):
    return [case[0] for case in cases]


@pytest.fixture(scope="module")
def fitted():
    """The fitted estimator of every case (fitted once: several tests read them)."""
    models = {}
    for name, estimator, data in CASES:
        X, y = data()
        models[name] = clone(estimator).fit(X, y)
    return models


def _same(a, b):
    """Whether ``a`` and ``b`` are equal values of the same types, all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.random.RandomState):
        return _same(a.get_state(), b.get_state())
    if hasattr(a, "__dict__"):
        return _same(vars(a), vars(b))
    return a == b


def _drop(record, key):
    return {k: v for k, v in record.items() if k != key}


def _round_trip(model, tmp_path, **kwargs):
    path = tmp_path / "model.npz"
    save(model, path, **kwargs)
    return load(path, with_metadata=bool(kwargs))


def test_same_can_tell_models_apart(fitted):
    # the helper all round-trip tests rely on must see a one-weight difference
    model = fitted["chain"]
    twin = pickle.loads(pickle.dumps(model))
    assert _same(model, twin)
    twin.coef_[3] += 1.0
    assert not _same(model, twin)
    twin = pickle.loads(pickle.dumps(model))
    twin.encoder_.values_["w3"] += 1
    assert not _same(model, twin)


@pytest.mark.parametrize(("name", "estimator", "data"), CASES, ids=_ids(CASES))
def test_round_trip_keeps_everything(name, estimator, data, fitted, tmp_path):
    model = fitted[name]
    loaded = _round_trip(model, tmp_path)
    assert type(loaded) is type(model)
    assert _same(vars(loaded), vars(model))  # parameters and every fitted attribute
    assert _same(loaded.get_params(deep=True), model.get_params(deep=True))
    np.testing.assert_array_equal(loaded.coef_, model.coef_)
    untimed = [[_drop(record, "seconds") for record in m.history_] for m in (loaded, model)]
    assert _same(*untimed)
    X, y = data()
    assert loaded.predict(X) == model.predict(X)
    assert loaded.score(X, y) == model.score(X, y)


@pytest.mark.parametrize(("name", "estimator", "data"), CONTINUABLE, ids=_ids(CONTINUABLE))
def test_loaded_perceptron_trains_on_exactly_as_the_original(
    name, estimator, data, fitted, tmp_path
):
    model = pickle.loads(pickle.dumps(fitted[name]))  # a copy that may train on
    loaded = _round_trip(model, tmp_path)
    X, y = data()
    model.partial_fit(X, y)
    loaded.partial_fit(X, y)
    np.testing.assert_array_equal(loaded.coef_, model.coef_)
    model.set_params(warm_start=True, max_iter=1).fit(X[:20], y[:20])
    loaded.set_params(warm_start=True, max_iter=1).fit(X[:20], y[:20])
    np.testing.assert_array_equal(loaded.coef_, model.coef_)
    untimed = [[_drop(record, "seconds") for record in m.history_] for m in (loaded, model)]
    assert _same(*untimed)


def test_a_random_state_object_stays_the_one_the_learner_draws_from(tmp_path):
    X, y = _chain()
    model = _perceptron(features=TokenFeatures(), random_state=np.random.RandomState(3))
    loaded = _round_trip(model.fit(X, y), tmp_path)
    assert loaded.random_state is loaded._rng and _same(loaded, model)
    loaded.partial_fit(X, y)
    model.partial_fit(X, y)
    assert _same(loaded.random_state.get_state(), model.random_state.get_state())


def test_labels_keep_their_type(fitted, tmp_path):
    loaded = _round_trip(fitted["chain-int-labels"], tmp_path)
    assert loaded.classes_.dtype.kind == "i"
    assert {type(label) for labels in loaded.predict(_chain_int()[0]) for label in labels} == {int}
    labelled = _round_trip(fitted["eisner-labelled"], tmp_path)
    head, relation = labelled.predict(_labelled_trees()[0][:1])[0][0]
    assert type(head) is int and type(relation) is str


def test_metadata_round_trips_exactly(fitted, tmp_path):
    metadata = {
        "task": "chunk",
        "columns": ("word", "pos"),
        "sizes": [1, 2.5, None],
        "counts": np.arange(3),
        "nested": {1: {"a": True}},
        "ids": {f"w\udc80{i}": i for i in range(100)},  # packed; any str, even a surrogate
    }
    _, loaded = _round_trip(fitted["chain"], tmp_path, metadata=metadata)
    assert _same(loaded, metadata)
    path = tmp_path / "plain.npz"
    save(fitted["chain"], path)
    assert load(path, with_metadata=True)[1] == {}


def test_unfitted_estimator_round_trips(tmp_path):
    estimator = _swvp(Eisner(order=2), substructures="errors")
    loaded = _round_trip(estimator, tmp_path)
    assert repr(loaded) == repr(estimator)
    with pytest.raises(NotFittedError):
        loaded.predict(_trees()[0])


def test_file_objects_and_exact_file_names(fitted, tmp_path):
    buffer = io.BytesIO()
    save(fitted["eisner"], buffer)
    buffer.seek(0)
    assert _same(load(buffer), fitted["eisner"])
    path = tmp_path / "parser.model"
    save(fitted["eisner"], str(path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["parser.model"]  # no .npz, no .partial


@pytest.mark.parametrize("name", ["chain", "eisner-labelled"])
def test_joblib_round_trip(name, fitted, tmp_path):
    path = tmp_path / "model.joblib"
    joblib.dump(fitted[name], path)
    assert _same(joblib.load(path), fitted[name])


# -- what cannot be saved -------------------------------------------------------------------


class _MyRule(EarlyUpdate):
    """A user's update rule: a class skstruct cannot vouch for."""


@pytest.mark.parametrize(
    ("estimator", "data", "named"),
    [
        (
            _swvp(gamma=lambda margins: np.ones_like(margins)),
            _chain_dicts,
            "SWVP.gamma",
        ),
        (
            _swvp(substructures=lambda gold, pred: [np.arange(len(gold))]),
            _chain_dicts,
            "StructuredWeightedViolationsPerceptron.substructures",
        ),
        (_perceptron(update=_MyRule()), _chain_dicts, "StructuredPerceptron.update"),
        (
            ParameterMixing(_perceptron(update=_MyRule()), n_shards=2),
            _chain_dicts,
            "ParameterMixing.estimator.update",
        ),
    ],
)
def test_user_code_is_refused_naming_the_parameter(estimator, data, named, tmp_path):
    model = estimator.fit(*data())
    path = tmp_path / "model.npz"
    with pytest.raises(TypeError, match="joblib") as error:
        save(model, path)
    assert named.replace("SWVP", "StructuredWeightedViolationsPerceptron") in str(error.value)
    assert not list(tmp_path.iterdir())  # nothing written


def test_non_skstruct_models_and_bad_metadata_are_refused(fitted, tmp_path):
    with pytest.raises(TypeError, match=r"not sklearn\.pipeline\.Pipeline"):
        save(make_pipeline(TokenFeatures()), tmp_path / "pipe.npz")
    with pytest.raises(TypeError, match="metadata must be a dict"):
        save(fitted["chain"], tmp_path / "m.npz", metadata={1: "x"})
    with pytest.raises(TypeError, match=r"metadata\['f'\]"):
        save(fitted["chain"], tmp_path / "m.npz", metadata={"f": print})


def test_failed_save_keeps_the_previous_file(fitted, tmp_path):
    path = tmp_path / "model.npz"
    save(fitted["chain"], path)
    with pytest.raises(TypeError):
        save(fitted["chain"], path, metadata={"bad": object()})
    assert _same(load(path), fitted["chain"])


# -- files that are not (good) models -------------------------------------------------------


def _arrays(path):
    with np.load(path, allow_pickle=False) as archive:
        return {key: archive[key] for key in archive.files}


def _forge(path, change_document, **arrays):
    """Rewrite the model file at ``path`` with its document edited and ``arrays`` added."""
    members = _arrays(path)
    document = json.loads(members[_DOCUMENT].tobytes())
    change_document(document)
    text = json.dumps(document).encode()
    members[_DOCUMENT] = np.frombuffer(text, dtype=np.uint8)
    np.savez(path, **members, **arrays)


@pytest.fixture
def model_file(fitted, tmp_path):
    path = tmp_path / "model.npz"
    save(fitted["chain"], path)
    return path


@pytest.mark.parametrize("version", [99, 0, "2", None])
def test_other_format_versions_are_refused_naming_both(version, model_file):
    _forge(model_file, lambda doc: doc.update(format_version=version, skstruct_version="9.0"))
    message = rf"format version {version!r} \(by skstruct 9.0\).* versions 1 to 3 only"
    with pytest.raises(ModelFormatError, match=message):
        load(model_file)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "not a zip"),
        (b"word POS chunk\n", "not a zip"),
        (pickle.dumps({"coef_": [1.0]}), "joblib.load"),
    ],
)
def test_foreign_files_are_refused(content, message, tmp_path):
    path = tmp_path / "model.npz"
    path.write_bytes(content)
    with pytest.raises(ModelFormatError, match=message):
        load(path)


def test_plain_npz_and_missing_files(tmp_path):
    np.savez(tmp_path / "arrays.npz", coef_=np.zeros(3))
    with pytest.raises(ModelFormatError, match=r"no skstruct-model\.json member"):
        load(tmp_path / "arrays.npz")
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "missing.npz")


def test_truncated_file_is_refused(model_file):
    data = model_file.read_bytes()
    for size in (10, len(data) // 2, len(data) - 30):
        model_file.write_bytes(data[:size])
        with pytest.raises(ModelFormatError, match="damaged"):
            load(model_file)


def test_a_damaged_byte_never_gives_a_different_model(fitted, model_file):
    data = bytearray(model_file.read_bytes())
    X = _chain()[0]
    expected = fitted["chain"].predict(X)
    refused = 0
    for position in range(0, len(data), 41):
        data[position] ^= 0xFF
        model_file.write_bytes(bytes(data))
        data[position] ^= 0xFF
        try:
            loaded = load(model_file)
        except ModelFormatError:
            refused += 1
            continue
        # a byte the reader does not use (a zip timestamp, say): the very same model
        assert _same(loaded, fitted["chain"]) and loaded.predict(X) == expected
    assert refused > len(data) // 41 // 2


_UNPICKLED = []


class _Trap:
    def __reduce__(self):
        return (_UNPICKLED.append, ("ran",))


def _point_classes_at(node, name):
    node["attributes"]["classes_"] = {"$": "array", "key": name}


@pytest.mark.parametrize(
    ("forgery", "arrays", "message"),
    [
        (lambda doc: doc["model"].update({"class": "Popen"}), {}, "'Popen' is not a class"),
        (
            lambda doc: doc["model"]["attributes"].update({"__class__": 1}),
            {},
            "not an attribute name",
        ),
        (lambda doc: doc["model"]["params"].update({"max_iter": -1}), {}, "max_iter"),
        (lambda doc: doc["model"]["params"].update({"bogus": 1}), {}, "bogus"),
        (lambda doc: doc["model"]["attributes"].update({"x": {"$": "eval"}}), {}, "'eval'"),
        (lambda doc: _point_classes_at(doc["model"], "a99"), {}, "'a99' is missing"),
        (
            lambda doc: _point_classes_at(doc["model"], "evil"),
            {"evil": np.array([_Trap()], dtype=object)},
            "allow_pickle=False",
        ),
        (
            lambda doc: _point_classes_at(doc["model"], "two"),
            {"two": np.array(["a", "b"])},
            r"shape \(2,\).* for 3 labels",
        ),
        (lambda doc: doc["model"]["attributes"].update({"coef_": 1.0}), {}, "coef_"),
        (lambda doc: doc.update(model=[]), {}, "holds no model"),
        (lambda doc: doc.update(model={"$": "tuple", "items": []}), {}, "top level"),
        (lambda doc: doc.update(metadata=[1]), {}, "metadata is not a dict"),
        (lambda doc: doc.update(format="other"), {}, "unknown document"),
    ],
)
def test_forged_documents_are_refused_without_running_code(forgery, arrays, message, model_file):
    _forge(model_file, forgery, **arrays)
    with pytest.raises(ModelFormatError, match=message):
        load(model_file)
    assert _UNPICKLED == []


def test_public_api():
    assert {"save", "load", "ModelFormatError"} <= set(skstruct.__all__)
    assert issubclass(ModelFormatError, ValueError)


def test_every_class_a_file_may_name_resolves_to_that_class():
    # the registry imports a class by its name when a file first names it: a misspelt
    # name or module there would fail only then, so every entry is resolved here
    from sklearn.base import BaseEstimator

    from skstruct import features
    from skstruct.decoders import DECODERS
    from skstruct.persistence import _ESTIMATORS, _OBJECTS
    from skstruct.updates import UPDATE_RULES

    for table in (_ESTIMATORS, _OBJECTS):
        for name in table:
            assert table[name].__name__ == name
    estimators = {_ESTIMATORS[name] for name in _ESTIMATORS}
    assert set(DECODERS.values()) | set(UPDATE_RULES.values()) <= estimators
    public = [getattr(skstruct, n) for n in skstruct.__all__]
    public += [getattr(features, n) for n in features.__all__]
    public = {c for c in public if isinstance(c, type) and issubclass(c, BaseEstimator)}
    objects = {_OBJECTS[name] for name in _OBJECTS}
    assert public - estimators - objects == set()  # every public estimator is saveable
    assert "Nope" not in _ESTIMATORS and _ESTIMATORS.get("Nope") is None


def test_arc_standard_models_saved_before_the_transition_system_rename_load(tmp_path):
    # files written before TransitionSystem held an ArcStandardSystem without a kernel name
    X, y = _trees()
    model = _perceptron(ArcStandard(beam_size=2), update="early", n_features=_HASHED).fit(X, y)
    path = tmp_path / "old.npz"
    save(model, path)

    def to_old_class(node):
        if isinstance(node, dict):
            if node.get("class") == "TransitionSystem":
                node["class"] = "ArcStandardSystem"
                node["state"].pop("kernel")
            for value in node.values():
                to_old_class(value)
        elif isinstance(node, list):
            for value in node:
                to_old_class(value)

    _forge(path, to_old_class)
    assert "ArcStandardSystem" in _arrays(path)[_DOCUMENT].tobytes().decode()
    loaded = load(path)
    assert loaded.predict(X) == model.predict(X)


def test_relation_labellers_saved_before_chain_order_keep_the_sentence_order(tmp_path):
    # files written before PredictedRelations had chain_order labelled in sentence order
    X = [
        [{"form": "dogs", "upos": "NOUN", "head": 2, "deprel": "nsubj"},
         {"form": "bark", "upos": "VERB", "head": 0, "deprel": "root"},
         {"form": "loudly", "upos": "ADV", "head": 2, "deprel": "advmod"}],
        [{"form": "the", "upos": "DET", "head": 2, "deprel": "det"},
         {"form": "cat", "upos": "NOUN", "head": 3, "deprel": "nsubj"},
         {"form": "sleeps", "upos": "VERB", "head": 0, "deprel": "root"}],
    ] * 3  # fmt: skip
    model = PredictedRelations(chain_order="sentence", columns=("upos",), max_iter=2,
                               random_state=0).fit(X)  # fmt: skip
    path = tmp_path / "old.npz"
    save(model, path)
    _forge(path, lambda document: document["model"]["params"].pop("chain_order"))
    assert "chain_order" not in _arrays(path)[_DOCUMENT].tobytes().decode()
    loaded = load(path)
    assert loaded.chain_order == "sentence"
    assert loaded.predict(X) == model.predict(X)
    # a file that names it keeps it, whatever the default
    assert _round_trip(clone(model).set_params(chain_order="depth_first").fit(X),
                       tmp_path).chain_order == "depth_first"  # fmt: skip


# -- format version 1: dense chains, training states without a structure -----------------


def _estimators(model):
    """``model`` and the learner it holds (ParameterMixing's ``estimator_``)."""
    inner = vars(model).get("estimator_")
    return [model] if inner is None else [model, inner]


def _dense_layout(chain, coef):
    """``coef`` (laid out by ``chain``) in version 1's layout: ``[emission (n_features *
    n_labels, row-major) | transition | start | stop | trigram]``."""
    emission = chain.emission_matrix(coef).toarray().ravel()
    return np.concatenate([emission, coef[: chain.n_dense]])


def _as_version_1(model):
    """A copy of ``model`` as format version 1 held it: chains with dense emission
    weights first, training states (``_weights``) without a structure."""
    model = pickle.loads(pickle.dumps(model))
    for estimator in _estimators(model):
        structure = vars(estimator).get("structure_")
        weights = vars(estimator).get("_weights")
        if isinstance(structure, LinearChain):
            estimator.coef_ = _dense_layout(structure, estimator.coef_)
            if weights is not None:
                weights.coef = _dense_layout(weights.structure, weights.coef)
                weights.coef_sum = _dense_layout(weights.structure, weights.coef_sum)
            del structure.rows
            del structure.constraints  # chains had none before
        if weights is not None:
            del weights.structure
    return model


def _save_version_1(model, path):
    """Write ``model`` as a format version 1 file (as skstruct wrote before chains had
    emission rows)."""
    save(_as_version_1(model), path)
    _forge(path, lambda document: document.update(format_version=1))
    assert json.loads(_arrays(path)[_DOCUMENT].tobytes())["format_version"] == 1


def test_files_are_written_in_the_current_format_version(model_file):
    assert FORMAT_VERSION == 3
    assert json.loads(_arrays(model_file)[_DOCUMENT].tobytes())["format_version"] == 3


def _nodes(node, tag):
    """Every node tagged ``tag`` in a document's ``node`` tree, depth first."""
    if isinstance(node, list):
        return [found for item in node for found in _nodes(item, tag)]
    if not isinstance(node, dict):
        return []
    found = [node] if node.get("$") == tag else []
    return found + [f for value in node.values() for f in _nodes(value, tag)]


def _document_of(path):
    return json.loads(_arrays(path)[_DOCUMENT].tobytes())


def test_mostly_zero_arrays_are_stored_as_their_nonzero_entries(fitted, tmp_path):
    model = pickle.loads(pickle.dumps(fitted["arc-eager-sparse"]))
    coef = model.coef_
    assert coef.size == _SPARSE and 0 < np.count_nonzero(coef) < coef.size / 4
    # entries whose bits are not all zero are kept, -0.0 and NaN included
    coef[[1, 2]] = [-0.0, np.nan]
    save(model, tmp_path / "model.npz")
    document, arrays = _document_of(tmp_path / "model.npz"), _arrays(tmp_path / "model.npz")
    node = document["model"]["attributes"]["coef_"]
    assert node["$"] == "sparse_array" and node["shape"] == [_SPARSE]
    positions, values = arrays[node["positions"]], arrays[node["values"]]
    assert positions.dtype == np.int32 and positions.size == np.count_nonzero(coef.view(np.uint64))
    assert values.size < _SPARSE / 4 and 1 in positions and 2 in positions
    loaded = load(tmp_path / "model.npz")
    assert loaded.coef_.flags.c_contiguous and loaded.coef_.flags.writeable
    np.testing.assert_array_equal(loaded.coef_.view(np.uint64), coef.view(np.uint64))
    # the training state's arrays of the same size too
    assert len(_nodes(document, "sparse_array")) == 3
    assert _same(loaded._weights.coef_sum, model._weights.coef_sum)


def test_sparse_positions_only_for_large_mostly_zero_numeric_c_ordered_arrays():
    from skstruct.persistence import _SPARSE_MIN, _sparse_positions

    mostly_zero = np.zeros(_SPARSE_MIN)
    mostly_zero[[3, 70]] = [1.5, -2.0]
    np.testing.assert_array_equal(_sparse_positions(mostly_zero), [3, 70])
    assert _sparse_positions(mostly_zero[:-1]) is None  # too small to gain
    dense = np.ones(_SPARSE_MIN)
    dense[: 3 * _SPARSE_MIN // 4 - 1] = 0
    assert _sparse_positions(dense) is None  # a quarter and one more entry nonzero
    dense[3 * _SPARSE_MIN // 4 - 1] = 0
    assert _sparse_positions(dense).size == _SPARSE_MIN // 4
    grid = np.zeros((256, 256))
    assert _sparse_positions(grid).size == 0
    assert _sparse_positions(np.asfortranarray(grid[:, :255])) is None  # layout kept whole
    assert _sparse_positions(np.zeros(_SPARSE_MIN, dtype="U1")) is None


def _moved(positions, at, to):
    positions = positions.copy()
    positions[at] = to
    return positions


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda node, p, v: {"positions": _moved(p, -1, _SPARSE)}, "outside"),
        (lambda node, p, v: {"positions": _moved(p, 0, -1)}, "outside"),
        (lambda node, p, v: {"positions": p.astype(float)}, "float64 positions"),
        (lambda node, p, v: {"values": v[:-1]}, "positions for"),
        (lambda node, p, v: {"values": v.astype(np.float32)}, "float32 values"),
        (lambda node, p, v: node.update(dtype="<U1"), "dtype '<U1' refused"),
        (lambda node, p, v: node.update(dtype="object"), "dtype 'object' refused"),
        (lambda node, p, v: node.update(shape=[-1]), r"shape \[-1\] refused"),
        (lambda node, p, v: node.update(shape="big"), "shape 'big' refused"),
        (lambda node, p, v: node.update(shape=[4]), "outside"),
    ],
)
def test_forged_sparse_arrays_are_refused(change, message, fitted, tmp_path):
    path = tmp_path / "model.npz"
    save(fitted["arc-eager-sparse"], path)
    node = _document_of(path)["model"]["attributes"]["coef_"]
    positions, values = _arrays(path)[node["positions"]], _arrays(path)[node["values"]]
    arrays = change({}, positions, values) or {}

    def forge(document):
        forged = document["model"]["attributes"]["coef_"]
        change(forged, positions, values)
        forged.update({name: f"forged_{name}" for name in arrays})

    _forge(path, forge, **{f"forged_{name}": array for name, array in arrays.items()})
    with pytest.raises(ModelFormatError, match=message):
        load(path)


def test_the_version_1_helper_writes_the_old_layout(fitted, tmp_path):
    model = fitted["chain"]
    path = tmp_path / "old.npz"
    _save_version_1(model, path)
    document = json.loads(_arrays(path)[_DOCUMENT].tobytes())
    attributes = document["model"]["attributes"]
    assert set(attributes["structure_"]["state"]) == {"n_features", "n_labels", "order"}
    assert set(attributes["_weights"]["state"]) == {"coef", "coef_sum", "n_seen"}
    coef = _arrays(path)[attributes["coef_"]["key"]]
    chain = model.structure_
    n_emission = chain.n_features * chain.n_labels
    assert coef.shape == (n_emission + chain.n_dense,)
    dense = chain.emission_matrix(model.coef_).toarray()
    np.testing.assert_array_equal(coef[:n_emission].reshape(dense.shape), dense)
    np.testing.assert_array_equal(coef[n_emission:], model.coef_[: chain.n_dense])


@pytest.mark.parametrize(("name", "estimator", "data"), CASES, ids=_ids(CASES))
def test_version_1_files_load_as_the_same_model(name, estimator, data, fitted, tmp_path):
    model = fitted[name]
    path = tmp_path / "old.npz"
    _save_version_1(model, path)
    loaded = load(path)
    X, y = data()
    assert loaded.predict(X) == model.predict(X)
    assert loaded.score(X, y) == model.score(X, y)
    for old, new in zip(_estimators(loaded), _estimators(model)):
        structure = vars(new).get("structure_")
        if structure is None:  # ParameterMixing: its learner follows
            continue
        if not isinstance(structure, LinearChain):
            assert _same(old, new)  # trees and transition systems: nothing changed
            continue
        chain = old.structure_
        # a weight for every pair, row-major: the dense matrix the file held
        assert _same(chain.rows, EmissionRows.full(chain.n_features, chain.n_labels))
        assert (chain.n_features, chain.n_labels, chain.order) == (
            structure.n_features, structure.n_labels, structure.order
        )  # fmt: skip
        np.testing.assert_array_equal(
            chain.emission_matrix(old.coef_).toarray(),
            structure.emission_matrix(new.coef_).toarray(),
        )
        np.testing.assert_array_equal(old.coef_[: chain.n_dense], new.coef_[: structure.n_dense])
        if "_weights" in vars(new):
            state, original = old._weights, new._weights
            assert state.structure is not chain and _same(state.structure, chain)
            assert state.n_seen == original.n_seen
            for field in ("coef", "coef_sum"):
                a, b = getattr(state, field), getattr(original, field)
                np.testing.assert_array_equal(
                    state.structure.emission_matrix(a).toarray(),
                    original.structure.emission_matrix(b).toarray(),
                )
                np.testing.assert_array_equal(a[: chain.n_dense], b[: chain.n_dense])
    # and it is written back as version 2
    assert _same(_round_trip(loaded, tmp_path), loaded)


@pytest.mark.parametrize(("name", "estimator", "data"), CONTINUABLE, ids=_ids(CONTINUABLE))
def test_version_1_models_train_on_exactly_as_before(name, estimator, data, fitted, tmp_path):
    model = pickle.loads(pickle.dumps(fitted[name]))  # a copy that may train on
    path = tmp_path / "old.npz"
    _save_version_1(model, path)
    loaded = load(path)
    X, y = data()
    model.partial_fit(X, y)
    loaded.partial_fit(X, y)
    # a fitted model keeps the pairs of nonzero weight: the same layout, the same weights
    assert _same(loaded.structure_, model.structure_)
    np.testing.assert_array_equal(loaded.coef_, model.coef_)
    model.set_params(warm_start=True, max_iter=1).fit(X[:20], y[:20])
    loaded.set_params(warm_start=True, max_iter=1).fit(X[:20], y[:20])
    np.testing.assert_array_equal(loaded.coef_, model.coef_)
    assert loaded.predict(X) == model.predict(X)


def test_version_1_weights_of_the_wrong_size_are_refused(fitted, tmp_path):
    path = tmp_path / "old.npz"
    _save_version_1(fitted["chain"], path)

    def shorten_coef(document):
        document["model"]["attributes"]["coef_"] = {"$": "array", "key": "short"}

    _forge(path, shorten_coef, short=np.zeros(10))
    with pytest.raises(ModelFormatError, match=r"coef_ .*\(10,\).*\(format version 1\) needs"):
        load(path)


def test_version_2_keeps_the_training_state_with_its_free_room(tmp_path, sparse_rows):
    # sparse rows grow during training: the state keeps their free room and holes
    model = _perceptron(features=TokenFeatures()).fit(*_chain())
    rows = model._weights.structure.rows
    assert rows.pool_size > rows.nnz  # growing room (and holes) in the training state
    loaded = _round_trip(model, tmp_path)
    assert _same(loaded._weights, model._weights)
    assert loaded._weights.structure is not loaded.structure_


# -- forged emission rows -------------------------------------------------------------------


def _rows_node(document, owner):
    attributes = document["model"]["attributes"]
    if owner == "_weights":
        return attributes["_weights"]["state"]["structure"]["state"]["rows"]["state"]
    return attributes["structure_"]["state"]["rows"]["state"]


def _forge_rows(path, change, owner="structure_"):
    """Rewrite the emission rows of ``owner`` (``structure_`` or ``_weights``) with
    ``change(rows)``, ``rows`` a dict of copies of their arrays."""
    members = _arrays(path)
    document = json.loads(members[_DOCUMENT].tobytes())
    node = _rows_node(document, owner)
    rows = {field: members[node[field]["key"]].copy() for field in node}
    change(rows)
    for field, array in rows.items():
        key = f"forged_{owner}_{field}"
        members[key] = array
        node[field] = {"$": "array", "key": key}
    members[_DOCUMENT] = np.frombuffer(json.dumps(document).encode(), dtype=np.uint8)
    np.savez(path, **members)


def _a_row(rows, at_least=1):
    """A row holding ``at_least`` labels."""
    return int(np.flatnonzero(rows["length"] >= at_least)[0])


def _set(rows, field, index, value):
    rows[field][index] = value


def _unsort(rows):
    f = _a_row(rows, 2)
    s = rows["start"][f]
    rows["labels"][s : s + 2] = rows["labels"][s : s + 2][::-1].copy()


def _repeat_label(rows):
    f = _a_row(rows, 2)
    s = rows["start"][f]
    rows["labels"][s + 1] = rows["labels"][s]


def _overlap(rows):
    first, second = np.flatnonzero(rows["capacity"])[:2]
    rows["start"][second] = rows["start"][first]


def _label_beyond(rows):
    f = _a_row(rows)
    rows["labels"][rows["start"][f] + rows["length"][f] - 1] = 3  # the chain has 3 labels


def _negative_label(rows):
    f = _a_row(rows)
    rows["labels"][rows["start"][f]] = -1


_ROW_FORGERIES = [
    ("labels-int64", lambda r: r.update(labels=r["labels"].astype(np.int64)), "labels is an"),
    ("start-int32", lambda r: r.update(start=r["start"].astype(np.int32)), "start is an"),
    ("big-endian", lambda r: r.update(length=r["length"].astype(">i4")), "length is an"),
    ("2-d", lambda r: r.update(capacity=r["capacity"][None]), "capacity is an"),
    ("short", lambda r: r.update(length=r["length"][:-1]), "differ in length"),
    ("used-beyond", lambda r: r.update(used=r["used"] + r["labels"].size), "used is"),
    ("used-negative", lambda r: r.update(used=-r["used"]), "used is"),
    ("used-two", lambda r: r.update(used=np.zeros(2, np.int64)), "used is"),
    ("too-long", lambda r: _set(r, "length", _a_row(r), r["capacity"][_a_row(r)] + 1), "longer"),
    ("negative-length", lambda r: _set(r, "length", 0, -1), "longer than its capacity, or"),
    ("start-beyond", lambda r: _set(r, "start", _a_row(r), r["used"][0]), "outside"),
    ("start-negative", lambda r: _set(r, "start", _a_row(r), -1), "outside"),
    ("start-huge", lambda r: _set(r, "start", 0, 2**62), "outside"),
    ("capacity-beyond", lambda r: _set(r, "capacity", _a_row(r), 2**31 - 1), "outside"),
    ("overlap", _overlap, "share pool slots"),
    ("unsorted", _unsort, "not sorted"),
    ("repeated", _repeat_label, "not sorted, distinct"),
    ("label-beyond", _label_beyond, "beyond its 3 labels"),
    ("negative-label", _negative_label, "negative label"),
]


@pytest.mark.parametrize("owner", ["structure_", "_weights"])
@pytest.mark.parametrize(
    ("change", "message"),
    [forgery[1:] for forgery in _ROW_FORGERIES],
    ids=[forgery[0] for forgery in _ROW_FORGERIES],
)
def test_forged_emission_rows_are_refused(change, message, owner, model_file):
    _forge_rows(model_file, change, owner)
    with pytest.raises(ModelFormatError, match=message):
        load(model_file)


def _chain_state(document, owner="structure_"):
    attributes = document["model"]["attributes"]
    if owner == "_weights":
        return attributes["_weights"]["state"]["structure"]["state"]
    return attributes["structure_"]["state"]


@pytest.mark.parametrize(
    ("forgery", "message"),
    [
        (lambda doc: _chain_state(doc).update(n_features=379), "380 emission rows for 379"),
        (lambda doc: _chain_state(doc).update(order=3), "order=3"),
        (lambda doc: _chain_state(doc).update(n_labels=True), "n_labels=True"),
        (lambda doc: _chain_state(doc).pop("rows"), "rows a NoneType, not EmissionRows"),
        (lambda doc: _chain_state(doc).update(rows=[1]), "rows a list"),
        (
            lambda doc: _chain_state(doc)["rows"]["state"].update(start=[0]),
            "start is a list",
        ),
        (
            lambda doc: doc["model"]["attributes"]["_weights"]["state"].pop("structure"),
            "_weights.structure is a NoneType",
        ),
        (
            lambda doc: _chain_state(doc, "_weights").update(n_features=379),
            "380 emission rows for 379",
        ),
        (
            lambda doc: doc["model"]["attributes"]["_weights"]["state"]["coef"].update(
                key=doc["model"]["attributes"]["coef_"]["key"]
            ),
            r"_weights.coef is an array of shape \(\d+,\).*_weights.structure needs",
        ),
    ],
)
def test_forged_chains_are_refused(forgery, message, model_file):
    _forge(model_file, forgery)
    with pytest.raises(ModelFormatError, match=message):
        load(model_file)


def test_feature_ids_beyond_the_rows_are_refused(model_file):
    def point_ids(document):
        encoder = document["model"]["attributes"]["encoder_"]["state"]
        encoder["code_ids_"] = {"$": "array", "key": "ids"}

    _forge(model_file, point_ids, ids=np.array([0, 380]))
    with pytest.raises(ModelFormatError, match="code_ids_"):
        load(model_file)


def test_rows_arrays_a_file_shares_are_not_shared_once_loaded(fitted, model_file):
    # a forged file may point two rows at the same arrays; the kernels grow rows in
    # place, so each loaded rows object must own its arrays
    def share(document):
        attributes = document["model"]["attributes"]
        state = attributes["_weights"]["state"]
        state["structure"]["state"]["rows"] = attributes["structure_"]["state"]["rows"]
        state["coef"] = state["coef_sum"] = attributes["coef_"]

    _forge(model_file, share)
    loaded = load(model_file)
    fields = ("start", "length", "capacity", "labels", "used")
    arrays = [getattr(rows, f) for rows in (loaded.structure_.rows, loaded._weights.structure.rows)
              for f in fields]  # fmt: skip
    assert not any(np.shares_memory(a, b) for i, a in enumerate(arrays) for b in arrays[i + 1 :])
    X, y = _chain()
    expected = fitted["chain"].predict(X)
    assert loaded.predict(X) == expected
    loaded.partial_fit(X, y)  # the compact training state grows its pool


def test_randomly_forged_rows_never_crash(fitted, model_file):
    # every forgery is refused, or loads as a model that predicts and trains: a bad
    # index reaching a kernel would crash the interpreter instead
    original = model_file.read_bytes()
    X, y = _chain()
    rng = np.random.RandomState(0)
    fields = ["start", "length", "capacity", "labels", "used"]
    loaded_some = 0
    for _ in range(60):
        model_file.write_bytes(original)
        owner = ["structure_", "_weights"][rng.randint(2)]
        field = fields[rng.randint(len(fields))]

        def change(rows, field=field):
            array = rows[field]
            index = rng.randint(array.size)
            pool = rows["labels"].size
            values = [-1, 0, 1, 2, 3, pool - 1, pool, pool + 7, 2**31 - 1, array[index] + 1]
            array[index] = values[rng.randint(len(values))]

        _forge_rows(model_file, change, owner)
        try:
            loaded = load(model_file)
        except ModelFormatError:
            continue
        loaded_some += 1
        loaded.predict(X)
        loaded.partial_fit(X, y)
    assert 0 < loaded_some < 60
