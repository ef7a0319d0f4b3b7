"""EntityFeatures: global features of a whole labelling into chunks (entities), for
reranking a tagger's n-best lists.

A first-order chain scores a labelling token by token and label pair by label pair; a
reranker reads whole entities: their strings and shapes, the words around them, how
many there are of each type and in which order they come.
"""

from collections import Counter
from itertools import pairwise

from sklearn.base import BaseEstimator

from ..metrics import extract_spans
from .token import word_shape

__all__ = ["EntityFeatures"]

#: Keys that hold a token's word in the token dicts skstruct reads (CoNLL-U, the
#: sklearn-crfsuite tutorial's features), tried in this order.
WORD_KEYS = ("form", "word.lower()", "word")


def _bucket(value, cap):
    return f"{cap}+" if value >= cap else str(value)


class EntityFeatures(BaseEstimator):
    """Global features of a labelling into chunks (IOB, IOE or IOBES labels) over a
    sentence: what :class:`~skstruct.NBestReranker` reads of each candidate
    labelling of a chunker or named-entity tagger.

    Each feature counts, per chunk type:

    - ``ent``: the chunk's words (lowercased), ``shape``: their shapes
      (:func:`~skstruct.features.word_shape`), ``len``: its length (capped at 4);
    - ``before`` / ``after``: the word just outside each end (``<s>`` and ``</s>`` at
      the sentence's ends);
    - ``n``: the number of chunks of the type (capped at 3), and ``seq``: the types
      of the sentence's chunks in order (the first four), ``pair``: each two
      consecutive chunks' types with the number of words between them (0, 1, 2+);
    - ``clash``: a string labelled as chunks of two types in one sentence.

    Parameters
    ----------
    word : str, default=None
        The token dict key that holds the word; None tries ``form``,
        ``word.lower()`` (the sklearn-crfsuite tutorial's features, whose
        ``word.isupper()`` and ``word.istitle()`` flags give the word its case back for
        the shapes) and ``word``. Tokens that are strings are their words.

    Examples
    --------
    >>> sentence = [{"form": "Ana"}, {"form": "vive"}, {"form": "en"}, {"form": "Lima"}]
    >>> features = EntityFeatures()(sentence, ["B-PER", "O", "O", "B-LOC"])
    >>> features["ent=PER|ana"], features["pair=PER|LOC|2+"], features["seq=PER|LOC"]
    (1.0, 1.0, 1.0)
    """

    _parameter_constraints: dict = {"word": [str, None]}

    def __init__(self, word=None):
        self.word = word

    def __call__(self, sentence, labels):
        """The features of the labelling ``labels`` of ``sentence``: a dict of counts.

        Parameters
        ----------
        sentence : list of dict or str
        labels : list of str

        Returns
        -------
        dict of str to float
        """
        if len(labels) != len(sentence):
            raise ValueError(
                f"A labelling of {len(labels)} labels over a sentence of {len(sentence)} tokens."
            )
        words = [self._word(token, j) for j, token in enumerate(sentence)]
        padded = ["<s>", *(w.lower() for w in words), "</s>"]
        spans = extract_spans([labels])[0]
        counts = Counter()
        strings = {}
        for start, end, kind in spans:
            text = " ".join(w.lower() for w in words[start:end])
            counts[f"ent={kind}|{text}"] += 1
            counts[f"shape={kind}|{' '.join(word_shape(w) for w in words[start:end])}"] += 1
            counts[f"len={kind}|{_bucket(end - start, 4)}"] += 1
            counts[f"before={kind}|{padded[start]}"] += 1
            counts[f"after={kind}|{padded[end + 1]}"] += 1
            strings.setdefault(text, set()).add(kind)
        types = [kind for _, _, kind in spans]
        for kind, n in Counter(types).items():
            counts[f"n={kind}|{_bucket(n, 3)}"] += 1
        counts[f"seq={'|'.join(types[:4])}"] += 1
        for (_, end, a), (start, _, b) in pairwise(spans):
            counts[f"pair={a}|{b}|{_bucket(start - end, 2)}"] += 1
        counts["clash"] += sum(len(kinds) > 1 for kinds in strings.values())
        return {key: float(value) for key, value in counts.items() if value}

    def _word(self, token, j):
        if isinstance(token, str):
            return token
        keys = WORD_KEYS if self.word is None else (self.word,)
        for key in keys:
            value = token.get(key)
            if isinstance(value, str):
                # the tutorial's dicts keep the word lowercased beside its case flags
                if token.get("word.isupper()") is True:
                    return value.upper()
                if token.get("word.istitle()") is True:
                    return value.title()
                return value
        raise ValueError(
            f"Token {j} has no word under {' or '.join(map(repr, keys))}: give the key "
            f"that holds it (EntityFeatures(word=...))."
        )
