"""WordClusters: a word's cluster, learnt from unlabelled text, as a token field.

Words that occur between the same neighbours behave alike (Brown et al. 1992; Koo,
Carreras & Collins 2008 gave a parser Brown clusters for about a point of UAS). Here
each word type is described by its left and right neighbours in running text (counts
over the most frequent context words, weighted by positive pointwise mutual
information), reduced by a truncated SVD and grouped by k-means: scikit-learn's
estimators, on the training sentences' own forms and any unlabelled text besides. A
tagger or a parser then reads the cluster as one more field: it generalises from the
treebank's words to the many the text saw and the treebank did not.
"""

from collections import Counter
from collections.abc import Mapping
from numbers import Integral

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.preprocessing import normalize
from sklearn.utils.validation import check_is_fitted

from .utils._sklearn_compat import Interval, fit_context
from .utils.tags import SentencesTransformerTags
from .utils.validation import check_sequences, check_token_dict

__all__ = ["WordClusters"]

#: The cluster of a word never seen in the text.
UNKNOWN = "_"
#: The context "word" before the first and after the last word of a sentence.
BOUNDARY = "<s>"


def _words(sentence):
    """The lower-cased words of a sentence of strings, tuples (word first) or token
    dicts (their ``form``)."""
    words = []
    for token in sentence:
        if isinstance(token, Mapping):
            token = token.get("form")
        elif isinstance(token, tuple | list):
            token = token[0] if token else None
        if not isinstance(token, str):
            return None
        words.append(token.lower())
    return words


class WordClusters(SentencesTransformerTags, TransformerMixin, BaseEstimator):
    """Fill a ``cluster`` field of CoNLL-U token dicts with the word's cluster, learnt
    from the words around it in unlabelled text.

    ``fit`` reads the forms of ``X`` and the sentences of its ``corpus``; every word type
    seen at least ``min_count`` times gets a vector of its left and right neighbours
    (PPMI-weighted counts over the ``n_contexts`` most frequent words), reduced to
    ``n_components`` dimensions (:class:`~sklearn.decomposition.TruncatedSVD`) and
    clustered (:class:`~sklearn.cluster.KMeans`); rarer words go to the nearest
    cluster. ``transform`` returns copies of the sentences with ``field`` set to the
    cluster of the lower-cased form (``"c17"``), or ``"_"`` for a word the text never
    had.

    Parameters
    ----------
    n_clusters : int, default=256
        Number of clusters.
    n_components : int, default=64
        Dimensions the context vectors are reduced to.
    n_contexts : int, default=1000
        The most frequent words that serve as contexts (left and right apart).
    min_count : int, default=3
        Word types seen fewer times are not clustered, only assigned.
    field : str, default="cluster"
        The token field to fill.
    random_state : int, RandomState instance or None, default=None
        Seeds the SVD and k-means.

    Attributes
    ----------
    clusters_ : dict of str to str
        Lower-cased word -> cluster name.

    Examples
    --------
    >>> from skstruct import WordClusters
    >>> corpus = [["the", "dog", "barks"], ["the", "cat", "barks"], ["a", "dog", "sleeps"],
    ...           ["a", "cat", "sleeps"]] * 5
    >>> clusters = WordClusters(n_clusters=3, n_components=2, min_count=1,
    ...                         random_state=0).fit([], corpus=corpus)
    >>> clusters.clusters_["dog"] == clusters.clusters_["cat"]
    True
    >>> dog, unseen = clusters.transform([[{"form": "Dog"}, {"form": "unseen"}]])[0]
    >>> dog["cluster"] == clusters.clusters_["dog"], unseen["cluster"]
    (True, '_')
    """

    _parameter_constraints: dict = {
        "n_clusters": [Interval(Integral, 2, None, closed="left")],
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "n_contexts": [Interval(Integral, 1, None, closed="left")],
        "min_count": [Interval(Integral, 1, None, closed="left")],
        "field": [str],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        n_clusters=256,
        n_components=64,
        n_contexts=1000,
        min_count=3,
        field="cluster",
        random_state=None,
    ):
        self.n_clusters = n_clusters
        self.n_components = n_components
        self.n_contexts = n_contexts
        self.min_count = min_count
        self.field = field
        self.random_state = random_state

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, corpus=None):
        """Cluster the words of ``X`` and ``corpus`` by their neighbours.

        Parameters
        ----------
        X : list of sentences
            Token dicts (or words); their forms are text to learn from.
        y : ignored
        corpus : list of sentences or None, default=None
            Unlabelled text besides the forms of ``X``: sentences of words (strings,
            tuples whose first field is the word, or token dicts with a ``form``), such
            as ``fetch_brown().data``. A fit parameter, not a constructor one, so that
            the model does not keep the text.

        Returns
        -------
        self : object
        """
        sentences = self._sentences(X, "X") + self._sentences(corpus or [], "corpus")
        counts = Counter(word for words in sentences for word in words)
        if not counts:
            raise ValueError("No words to cluster: X and corpus are empty.")
        types = sorted(counts, key=lambda w: (-counts[w], w))  # frequent first, then by name
        index = {word: i for i, word in enumerate(types)}
        contexts = {w: j for j, w in enumerate([BOUNDARY, *types[: self.n_contexts]])}
        vectors = _ppmi(_context_counts(sentences, index, contexts))
        frequent = np.array([counts[w] >= self.min_count for w in types])
        n_clusters = min(self.n_clusters, int(frequent.sum()))
        if n_clusters < 2:
            raise ValueError(
                f"Only {int(frequent.sum())} word types occur min_count={self.min_count} "
                f"times or more: too few to make clusters of."
            )
        # imported here: sklearn.cluster and sklearn.decomposition took about 0.14 s of
        # every `import skstruct` (a saved model's first predict in a new process)
        from sklearn.cluster import KMeans
        from sklearn.decomposition import TruncatedSVD

        k = min(self.n_components, vectors.shape[1] - 1, int(frequent.sum()) - 1)
        svd = TruncatedSVD(max(k, 1), random_state=self.random_state)
        dense = normalize(svd.fit_transform(vectors))
        kmeans = KMeans(n_clusters, n_init=1, random_state=self.random_state)
        kmeans.fit(dense[frequent])
        labels = kmeans.predict(dense)
        self.clusters_ = {word: f"c{label}" for word, label in zip(types, labels.tolist())}
        return self

    def transform(self, X):
        """Copies of the sentences of ``X`` (token dicts) with ``field`` set.

        Parameters
        ----------
        X : list of list of dict

        Returns
        -------
        list of list of dict
        """
        check_is_fitted(self, "clusters_")
        X = check_sequences(X)
        out = []
        for i, sentence in enumerate(X):
            row = []
            for pos, token in enumerate(sentence):
                check_token_dict(token, i, pos)
                cluster = self.clusters_.get(token["form"].lower(), UNKNOWN)
                row.append({**token, self.field: cluster})
            out.append(row)
        return out

    @staticmethod
    def _sentences(X, name):
        if isinstance(X, list | tuple) and not X:  # one of X and the corpus may be empty
            return []
        sentences = []
        for i, sentence in enumerate(check_sequences(X, name=name)):
            words = _words(sentence)
            if words is None:
                raise ValueError(
                    f"{name}[{i}] is not a sentence of words: each token must be a string, a "
                    f"tuple whose first field is the word, or a token dict with a 'form'."
                )
            sentences.append(words)
        return sentences


def _context_counts(sentences, index, contexts):
    """Sparse counts (word types x 2 * contexts): how often each type has each context
    word just left of it (first half of the columns) and just right of it."""
    n = len(contexts)
    rows, cols = [], []
    for words in sentences:
        padded = [BOUNDARY, *words, BOUNDARY]
        for j in range(1, len(padded) - 1):
            row = index[padded[j]]
            left, right = contexts.get(padded[j - 1]), contexts.get(padded[j + 1])
            if left is not None:
                rows.append(row)
                cols.append(left)
            if right is not None:
                rows.append(row)
                cols.append(n + right)
    data = np.ones(len(rows))
    return sparse.coo_matrix((data, (rows, cols)), shape=(len(index), 2 * n)).tocsr()


def _ppmi(counts):
    """Positive pointwise mutual information of a sparse count matrix."""
    total = counts.sum()
    row = np.asarray(counts.sum(axis=1)).ravel()
    col = np.asarray(counts.sum(axis=0)).ravel()
    coo = counts.tocoo()
    pmi = np.log(coo.data * total / (row[coo.row] * col[coo.col]))
    keep = pmi > 0
    return sparse.csr_matrix((pmi[keep], (coo.row[keep], coo.col[keep])), shape=counts.shape)
