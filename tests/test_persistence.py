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
    StructuredPerceptron,
    TokenFeatures,
    Viterbi,
    load,
    save,
)
from skstruct.datasets import make_chain_data
from skstruct.features import crfsuite_tutorial_features
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
    (
        "arc-features",
        _perceptron(Eisner(), features=ArcFeatures(n_features=2**16, lowercase=True)),
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


def test_other_format_versions_are_refused_naming_both(model_file):
    _forge(model_file, lambda doc: doc.update(format_version=99, skstruct_version="9.0"))
    with pytest.raises(ModelFormatError, match=r"format version 99 \(by skstruct 9.0\).* 1 only"):
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
