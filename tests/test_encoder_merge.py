"""TokenDictEncoder.merge and EncodedSequences.with_columns: encoding the parts of a corpus
on their own and merging equals encoding it with the merged vocabulary."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skstruct.features import TokenDictEncoder

_TOKEN = st.dictionaries(
    st.sampled_from(["w", "suffix", "len", "bias", "tag"]),
    st.one_of(st.sampled_from(["a", "b", "c", "d"]), st.sampled_from([1.0, 2.5, -1.0, True])),
    min_size=1,
    max_size=4,
)
_CORPUS = st.lists(st.lists(_TOKEN, min_size=1, max_size=4), min_size=1, max_size=8)


@settings(max_examples=60)
@given(parts=st.lists(_CORPUS, min_size=1, max_size=4))
def test_merged_parts_encode_as_the_merged_vocabulary_does(parts):
    encoders = [TokenDictEncoder() for _ in parts]
    encoded = [enc.fit_transform(part) for enc, part in zip(encoders, parts)]
    own_names = [enc.get_feature_names_out().tolist() for enc in encoders]
    merged = encoders[0]  # grows into the whole vocabulary
    columns = [np.arange(merged.n_features_)] + [merged.merge(enc) for enc in encoders[1:]]
    whole = TokenDictEncoder().fit([sentence for part in parts for sentence in part])
    assert sorted(merged.get_feature_names_out()) == sorted(whole.get_feature_names_out())
    names = merged.get_feature_names_out()
    for part, own, part_encoded, cols in zip(parts, own_names, encoded, columns):
        moved = part_encoded.with_columns(cols, merged.n_features_)
        direct = merged.transform(part)
        assert moved.n_features == merged.n_features_ == len(names)
        np.testing.assert_array_equal(moved.indptr, direct.indptr)
        np.testing.assert_array_equal(moved.indices, direct.indices)
        np.testing.assert_array_equal(moved.values, direct.values)
        np.testing.assert_array_equal(moved.offsets, direct.offsets)
        # each part's columns are the merged columns of the same names
        assert names[cols].tolist() == own


def test_merge_keeps_existing_columns_and_appends_new_ones_in_order():
    first = TokenDictEncoder().fit([[{"w": "a", "n": 2.0}]])
    before = first.get_feature_names_out().tolist()
    second = TokenDictEncoder().fit([[{"w": "z"}, {"w": "a"}, {"x": "a"}]])
    columns = first.merge(second)
    after = first.get_feature_names_out().tolist()
    assert after[: len(before)] == before
    assert [after[c] for c in columns] == second.get_feature_names_out().tolist()
    assert first.merge(TokenDictEncoder().fit([[{"w": "a"}]])).tolist() == [before.index("w=a")]


def test_hashed_encoders_share_their_columns_and_others_are_refused():
    hashed = TokenDictEncoder(n_features=64).fit([[{"w": "a"}]])
    other = TokenDictEncoder(n_features=64).fit([[{"w": "b"}]])
    np.testing.assert_array_equal(hashed.merge(other), np.arange(64))
    with pytest.raises(ValueError, match="n_features=None into one with n_features=64"):
        hashed.merge(TokenDictEncoder().fit([[{"w": "b"}]]))


@settings(max_examples=60)
@given(fitted=_CORPUS, other=_CORPUS)
def test_a_part_encoded_on_its_own_maps_into_a_fitted_vocabulary_as_transform_does(fitted, other):
    # columns_of: merge without adding; the features the vocabulary lacks (an unknown key,
    # or a known key with an unknown value) dropped, the rest in their order
    encoder = TokenDictEncoder().fit(fitted)
    names = encoder.get_feature_names_out().tolist()
    own = TokenDictEncoder()
    part = own.fit_transform(other)
    columns = encoder.columns_of(own)
    moved = part.with_columns(columns, encoder.n_features_)
    direct = encoder.transform(other)
    assert encoder.get_feature_names_out().tolist() == names  # nothing added
    assert moved.n_features == direct.n_features
    for field in ("indptr", "indices", "data", "offsets"):
        np.testing.assert_array_equal(getattr(moved, field), getattr(direct, field))
    own_names = own.get_feature_names_out().tolist()
    assert [names.index(n) if n in names else -1 for n in own_names] == columns.tolist()
