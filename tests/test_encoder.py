"""TokenDictEncoder against scikit-learn's DictVectorizer and FeatureHasher."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction import DictVectorizer, FeatureHasher

from skstruct.features import TokenDictEncoder, _encoder

_values = st.one_of(
    st.sampled_from(["a", "b", "c", "1", ""]),
    st.booleans(),
    st.sampled_from([0.5, 2.0, -1.0, 0.0, 3]),
)
_token = st.dictionaries(st.sampled_from(["w", "pos", "len", "x", "flag"]), _values, max_size=4)
_corpus = st.lists(st.lists(_token, min_size=1, max_size=4), min_size=1, max_size=5)


def _csr(encoded):
    return sp.csr_matrix(
        (encoded.values, encoded.indices, encoded.indptr),
        shape=(encoded.indptr.size - 1, encoded.n_features),
    )


def _dict_vectorizer_matrix(encoder, vectorizer, X):
    """DictVectorizer's matrix of X with columns in the encoder's order, zeros dropped."""
    flat = [tok for seq in X for tok in seq]
    matrix = vectorizer.transform(flat) if flat else None
    names = encoder.get_feature_names_out()
    columns = [vectorizer.vocabulary_[name] for name in names]
    matrix = matrix[:, columns].tocsr()
    matrix.eliminate_zeros()
    return matrix


@settings(max_examples=80, deadline=None)
@given(_corpus, _corpus)
def test_exact_vocabulary_equals_dict_vectorizer(X_fit, X_new):
    encoder = TokenDictEncoder()
    encoded = encoder.fit_transform(X_fit)
    vectorizer = DictVectorizer().fit([tok for seq in X_fit for tok in seq])
    # DictVectorizer keeps features whose only value seen is 0; we have them too.
    assert sorted(encoder.get_feature_names_out()) == sorted(vectorizer.feature_names_)
    for X, got in ((X_fit, encoded), (X_new, encoder.transform(X_new))):
        expected = _dict_vectorizer_matrix(encoder, vectorizer, X)
        assert (_csr(got) != expected).nnz == 0
        assert got.offsets.tolist() == np.cumsum([0] + [len(s) for s in X]).tolist()


@settings(max_examples=40, deadline=None)
@given(_corpus, _corpus)
def test_partial_fit_keeps_ids_and_adds_new_features(X_first, X_second):
    encoder = TokenDictEncoder().fit(X_first)
    names_before = encoder.get_feature_names_out().tolist()
    first_before = encoder.transform(X_first)
    encoder.partial_fit(X_second)
    assert encoder.get_feature_names_out().tolist()[: len(names_before)] == names_before
    assert (_csr(encoder.transform(X_first))[:, : len(names_before)] != _csr(first_before)).nnz == 0
    combined = TokenDictEncoder().fit(X_first + X_second)
    assert sorted(encoder.get_feature_names_out()) == sorted(combined.get_feature_names_out())


@settings(max_examples=40, deadline=None)
@given(_corpus)
def test_hashing_equals_feature_hasher(X):
    encoded = TokenDictEncoder(n_features=64).fit_transform(X)
    expected = FeatureHasher(64, alternate_sign=False).transform(tok for seq in X for tok in seq)
    expected.eliminate_zeros()
    assert (_csr(encoded) != expected).nnz == 0


def test_numeric_values_are_honoured_and_zeros_dropped():
    encoder = TokenDictEncoder()
    encoded = encoder.fit_transform([[{"len": 2.5, "w": "a", "neg": False}]])
    names = encoder.get_feature_names_out().tolist()
    assert dict(zip([names[i] for i in encoded.indices], encoded.values.tolist())) == {
        "len": 2.5,
        "w=a": 1.0,
    }


def test_unseen_features_are_dropped():
    encoder = TokenDictEncoder().fit([[{"w": "a"}]])
    encoded = encoder.transform([[{"w": "zzz", "new": 1.0}, {"w": "a"}]])
    assert encoded.indptr.tolist() == [0, 0, 1]


@pytest.mark.parametrize(
    ("token", "error", "match"),
    [
        ({"w": float("nan")}, ValueError, r"Example 1: token 0 .*non-finite.*'w'"),
        ({"w": float("inf")}, ValueError, r"Example 1: token 0 .*non-finite"),
        ({"w": ["a", 2]}, TypeError, r"Example 1: token 0 lists 2 as a feature name under 'w'"),
        ({"w": [("a", None)]}, TypeError, r"Example 1: token 0 lists \('a', None\) as a"),
        ([["a"]], TypeError, r"Example 1: token 0 lists \['a'\] as a feature name"),
        ({"w": bytearray(b"x")}, TypeError, r"Example 1: token 0 .*bytearray"),
        ("word", TypeError, r"Example 1: token 0 is a str.*TokenFeatures"),
    ],
)
@pytest.mark.parametrize("n_features", [None, 32])
def test_bad_values_name_the_example_and_token(token, error, match, n_features):
    X = [[{"w": "ok"}], [token]]
    with pytest.raises(error, match=match):
        TokenDictEncoder(n_features).fit_transform(X)


@pytest.mark.parametrize("n_features", [None, 32])
def test_bad_values_in_a_later_piece_name_the_example_by_its_index_in_X(monkeypatch, n_features):
    monkeypatch.setattr(_encoder, "PIECE_TOKENS", 2)
    X = [[{"w": "ok"}, {"w": "ok"}]] * 3 + [[{"w": "ok"}, {"w": float("nan")}]]
    assert len(_encoder._pieces(X)) > 1
    with pytest.raises(ValueError, match=r"Example 3: token 1 .*non-finite"):
        TokenDictEncoder(n_features).fit_transform(X)


@settings(max_examples=60, deadline=None)
@given(_corpus, _corpus, st.integers(1, 6))
def test_encoding_in_pieces_equals_encoding_at_once(X_fit, X_new, piece_tokens):
    whole = TokenDictEncoder()
    expected_fit, expected_new = whole.fit_transform(X_fit), whole.transform(X_new)
    names = whole.get_feature_names_out()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_encoder, "PIECE_TOKENS", piece_tokens)
        pieces = _encoder._pieces(X_fit)
        covered = [i for piece in pieces for i in range(len(X_fit))[piece]]
        assert covered == list(range(len(X_fit)))  # every sentence once, in order
        encoder = TokenDictEncoder()
        got_fit, got_new = encoder.fit_transform(X_fit), encoder.transform(X_new)
    # the same features and values row for row (column ids may differ)
    got_names = encoder.get_feature_names_out()
    for got, expected in ((got_fit, expected_fit), (got_new, expected_new)):
        assert got.offsets.tolist() == expected.offsets.tolist()
        assert _named_rows(got, got_names) == _named_rows(expected, names)


def _named_rows(encoded, names):
    values = encoded.values
    return [
        sorted(zip(names[encoded.indices[a:b]].tolist(), values[a:b].tolist()))
        for a, b in zip(encoded.indptr[:-1], encoded.indptr[1:])
    ]


def test_partial_fit_of_an_unfitted_encoder_fits_it():
    X = [[{"w": "a"}, {"w": "b", "n": 2.0}]]
    assert TokenDictEncoder().partial_fit(X).get_feature_names_out().tolist() == (
        TokenDictEncoder().fit(X).get_feature_names_out().tolist()
    )
    encoded = TokenDictEncoder().partial_fit_transform(X)
    assert (_csr(encoded) != _csr(TokenDictEncoder().fit_transform(X))).nnz == 0


@pytest.mark.parametrize("n_features", [None, 64])
def test_none_values_at_any_depth_are_absent_features(n_features):
    # None is how load_conllu gives an unannotated CoNLL-U field (feats, misc, deps)
    with_none = [[{"w": "a", "feats": None, "misc": {"x": None, "y": "v"}}, {"w": None}]]
    without = [[{"w": "a", "misc": {"y": "v"}}, {}]]
    got = TokenDictEncoder(n_features).fit_transform(with_none)
    expected = TokenDictEncoder(n_features).fit_transform(without)
    assert got.n_features == expected.n_features
    assert (_csr(got) != _csr(expected)).nnz == 0


@pytest.mark.parametrize("n_features", [None, 64])
def test_python_crfsuite_shorthand_forms_are_flattened(n_features):
    shorthand = [[["a", "b", "a"], {"p": {"x": 2.0, "y": "v"}, "q": ["m", "n"], "s": {"k"}}]]
    flat = [[{"a": 2.0, "b": 1.0}, {"p:x": 2.0, "p:y": "v", "q:m": 1.0, "q:n": 1.0, "s:k": 1.0}]]
    encoder = TokenDictEncoder(n_features)
    got = encoder.fit_transform(shorthand)
    expected = TokenDictEncoder(n_features).fit_transform(flat)
    assert (_csr(got) != _csr(expected)).nnz == 0
    if n_features is None:
        names = encoder.get_feature_names_out().tolist()
        assert sorted(names) == ["a", "b", "p:x", "p:y=v", "q:m", "q:n", "s:k"]


@settings(max_examples=40, deadline=None)
@given(_corpus, st.data())
def test_take_equals_encoding_the_chosen_sentences(X, data):
    encoder = TokenDictEncoder().fit(X)
    chosen = data.draw(st.lists(st.integers(0, len(X) - 1), max_size=6))
    part = encoder.transform(X).take(np.array(chosen, dtype=np.int64))
    if chosen:
        expected = encoder.transform([X[i] for i in chosen])
        assert (_csr(part) != _csr(expected)).nnz == 0
        assert part.offsets.tolist() == expected.offsets.tolist()
    else:
        assert part.n_sentences == 0 and part.indptr.tolist() == [0]
