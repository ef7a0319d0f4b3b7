"""Corpora and features shared by the benchmark scripts."""

from skstruct import StructuredPerceptron, TokenFeatures
from skstruct.datasets import fetch_brown, fetch_conll2002
from skstruct.features import crfsuite_tutorial_features


def conll2002_es(tokens=False):
    """CoNLL-2002 Spanish train and testb as tutorial token dicts (``tokens``: the raw
    ``(word, POS)`` tokens, for ``TokenFeatures()``): X, y, X_test, y_test.

    Also compiles (or loads) the kernels, so that no timing includes it.
    """
    train = fetch_conll2002("es", "train")
    test = fetch_conll2002("es", "testb")
    X, X_test = train.data, test.data
    if not tokens:
        X, X_test = crfsuite_tutorial_features(X), crfsuite_tutorial_features(X_test)
    _warm_up(X, train.target, tokens)
    return X, train.target, X_test, test.target


def _warm_up(X, y, tokens):
    features = TokenFeatures() if tokens else None
    StructuredPerceptron(features=features, max_iter=1).fit(X[:20], y[:20]).predict(X[:2])


def brown_pos(n_train=4_000, n_test=1_000, tokens=False):
    """Brown POS tagging: the first ``n_train`` sentences of Brown (``fetch_brown``)
    and the next ``n_test``, as tutorial-style token dicts (Brown has no POS column, so the
    POS features drop out; ``tokens``: the raw words, for ``TokenFeatures()``): X, y,
    X_test, y_test.

    Also compiles (or loads) the kernels, so that no timing includes it.
    """
    X, y = fetch_brown(return_X_y=True)
    end = n_train + n_test
    X = X[:end] if tokens else crfsuite_tutorial_features(X[:end])
    _warm_up(X, y, tokens)
    return X[:n_train], y[:n_train], X[n_train:end], y[n_train:end]
