"""WordClusters: context counts and PPMI against dense twins, words that share their
neighbours share a cluster, and the field it fills."""

import numpy as np
import pytest

from skstruct import WordClusters, load, save
from skstruct.clusters import BOUNDARY, UNKNOWN, _context_counts, _ppmi

CORPUS = [["the", "dog", "barks"], ["the", "cat", "barks"], ["a", "dog", "sleeps"],
          ["a", "cat", "sleeps"], ["the", "cat", "sleeps"]] * 4  # fmt: skip


def _dense_counts(sentences, index, contexts):
    """Left and right neighbour counts, one loop over every pair of positions."""
    counts = np.zeros((len(index), 2 * len(contexts)))
    for words in sentences:
        padded = [BOUNDARY, *words, BOUNDARY]
        for j in range(1, len(padded) - 1):
            for k in range(len(padded)):
                if k == j - 1 and padded[k] in contexts:
                    counts[index[padded[j]], contexts[padded[k]]] += 1
                if k == j + 1 and padded[k] in contexts:
                    counts[index[padded[j]], len(contexts) + contexts[padded[k]]] += 1
    return counts


def _dense_ppmi(counts):
    total = counts.sum()
    out = np.zeros_like(counts)
    for i, j in zip(*np.nonzero(counts)):
        p = counts[i, j] / total
        pmi = np.log(p / (counts[i].sum() / total * counts[:, j].sum() / total))
        out[i, j] = max(pmi, 0.0)
    return out


def test_context_counts_and_ppmi_equal_their_dense_twins():
    words = sorted({w for s in CORPUS for w in s})
    index = {w: i for i, w in enumerate(words)}
    contexts = {w: j for j, w in enumerate([BOUNDARY, "the", "barks", "dog"])}  # some only
    counts = _context_counts(CORPUS, index, contexts)
    np.testing.assert_array_equal(counts.toarray(), _dense_counts(CORPUS, index, contexts))
    np.testing.assert_allclose(_ppmi(counts).toarray(), _dense_ppmi(counts.toarray()))


def test_words_with_the_same_neighbours_share_a_cluster():
    clusters = WordClusters(n_clusters=3, n_components=3, min_count=1, random_state=0)
    found = clusters.fit([], corpus=CORPUS).clusters_
    assert found["dog"] == found["cat"]
    assert found["barks"] == found["sleeps"]
    assert found["the"] == found["a"]
    assert len({found["dog"], found["barks"], found["the"]}) == 3


def test_transform_fills_the_field_and_unseen_words_are_unknown():
    X = [[{"form": "The", "upos": "DET"}, {"form": "Cat"}, {"form": "meows"}]]
    clusters = WordClusters(n_clusters=2, n_components=2, min_count=1, field="brown",
                            random_state=0).fit(X, corpus=CORPUS)  # fmt: skip
    out = clusters.transform(X)
    assert out[0][0] == {"form": "The", "upos": "DET", "brown": clusters.clusters_["the"]}
    assert out[0][1]["brown"] == clusters.clusters_["cat"] and out[0][2]["brown"] != UNKNOWN
    assert clusters.transform([[{"form": "zebra"}]])[0][0]["brown"] == UNKNOWN
    assert X[0][1] == {"form": "Cat"}  # copies: the input is not changed


def test_rare_words_are_assigned_to_the_nearest_cluster():
    corpus = [*CORPUS, ["the", "cow", "sleeps"]]  # "cow": once, where "dog" and "cat" go
    clusters = WordClusters(n_clusters=3, n_components=3, min_count=2, random_state=0)
    found = clusters.fit([], corpus=corpus).clusters_
    assert found["cow"] == found["cat"]


def test_same_seed_same_clusters():
    def fit():
        return WordClusters(n_clusters=3, n_components=3, min_count=1,
                            random_state=1).fit([], corpus=CORPUS).clusters_  # fmt: skip

    assert fit() == fit()


@pytest.mark.parametrize(
    "X, corpus, message",
    [
        ([], None, "No words to cluster"),
        ([[{"form": "a"}, {"lemma": "b"}]], None, r"X\[0\] is not a sentence of words"),
        ([], [["a", 3]], r"corpus\[0\] is not a sentence of words"),
        ([], [["a", "b"]], "too few to make clusters of"),
    ],
)
def test_bad_input_is_named(X, corpus, message):
    with pytest.raises(ValueError, match=message):
        WordClusters(min_count=2).fit(X, corpus=corpus)


@pytest.mark.parametrize(
    "X, corpus, message",
    [
        (None, None, "X must be a list of sequences, got NoneType"),
        (True, None, "X must be a list of sequences, got bool"),
        ("a b", None, "X must be a list of sequences, got str"),
        ([], 7, "corpus must be a list of sequences, got int"),
        ([], ["a b"], r"corpus\[0\] must be a sequence \(list, tuple or 1-D array\)"),
    ],
)
def test_what_is_no_list_of_sentences_is_named(X, corpus, message):
    # found by fuzzing: len(X) raised before any check ("object of type 'NoneType' has no
    # len()"), and a corpus's errors were named X
    with pytest.raises(TypeError, match=message):
        WordClusters(min_count=1).fit(X, corpus=corpus)


def test_fitted_clusters_save_and_load(tmp_path):
    # WordClusters was the one public estimator skstruct.save refused
    clusters = WordClusters(n_clusters=3, n_components=3, min_count=1, random_state=1)
    clusters.fit([], corpus=CORPUS)
    save(clusters, tmp_path / "clusters.npz")
    loaded = load(tmp_path / "clusters.npz")
    assert loaded.clusters_ == clusters.clusters_
    assert loaded.get_params() == clusters.get_params()
    X = [[{"form": word} for word in sentence] + [{"form": "unseen"}] for sentence in CORPUS]
    assert loaded.transform(X) == clusters.transform(X)


def test_transform_names_a_bad_token():
    clusters = WordClusters(n_clusters=2, min_count=1, random_state=0).fit([], corpus=CORPUS)
    with pytest.raises(ValueError, match=r"Example 0: token 1 \('cat'\)"):
        clusters.transform([[{"form": "dog"}, "cat"]])
