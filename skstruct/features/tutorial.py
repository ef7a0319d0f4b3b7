"""The feature set of the sklearn-crfsuite tutorial, for like-for-like comparisons."""

from ..utils.validation import check_sequences


def crfsuite_tutorial_features(X):
    """Token dicts of the sklearn-crfsuite tutorial (its ``sent2features``).

    Word lower case, suffixes of length 3 and 2, ``isupper``/``istitle``/``isdigit``,
    POS and its first two characters; the lower case, case flags and POS of the
    previous and next words; ``BOS``/``EOS`` at the edges. The benchmark, the
    CoNLL-2000 end-to-end test and the main job all use it, so that skstruct and
    CRFsuite see the very same dicts.

    Parameters
    ----------
    X : list of sequences of (word, pos, ...) tuples
        As returned by :func:`skstruct.datasets.load_conll` for CoNLL-2000. Tokens
        without a POS field (strings or ``(word,)``) get the same features less the
        POS ones.

    Returns
    -------
    list of list of dict

    Examples
    --------
    >>> crfsuite_tutorial_features([[("He", "PRP"), ("ran", "VBD")]])[0][1]["-1:word.lower()"]
    'he'
    """
    X = check_sequences(X)
    return [[_word_features(sent, i) for i in range(len(sent))] for sent in X]


def _word_features(sent, i):
    word, pos = _fields(sent[i])
    features = {
        "bias": 1.0,
        "word.lower()": word.lower(),
        "word[-3:]": word[-3:],
        "word[-2:]": word[-2:],
        "word.isupper()": word.isupper(),
        "word.istitle()": word.istitle(),
        "word.isdigit()": word.isdigit(),
    }
    if pos is not None:
        features["postag"] = pos
        features["postag[:2]"] = pos[:2]
    for offset, edge in ((-1, "BOS"), (1, "EOS")):
        j = i + offset
        if not 0 <= j < len(sent):
            features[edge] = True
            continue
        word1, pos1 = _fields(sent[j])
        prefix = f"{offset:+d}:"
        features[prefix + "word.lower()"] = word1.lower()
        features[prefix + "word.istitle()"] = word1.istitle()
        features[prefix + "word.isupper()"] = word1.isupper()
        if pos1 is not None:
            features[prefix + "postag"] = pos1
            features[prefix + "postag[:2]"] = pos1[:2]
    return features


def _fields(token):
    """(word, POS or None) of a token: a string, ``(word,)`` or ``(word, pos, ...)``."""
    if isinstance(token, str):
        return token, None
    return token[0], (token[1] if len(token) > 1 else None)
