"""Corpora and features shared by the benchmark scripts."""

from skstruct import StructuredPerceptron
from skstruct.datasets import fetch_brown, fetch_conll2002
from skstruct.features import crfsuite_tutorial_features


def conll2002_es():
    """CoNLL-2002 Spanish train and testb as tutorial token dicts: X, y, X_test, y_test.

    Also compiles (or loads) the kernels, so that no timing includes it.
    """
    train = fetch_conll2002("es", "train")
    test = fetch_conll2002("es", "testb")
    X, X_test = crfsuite_tutorial_features(train.data), crfsuite_tutorial_features(test.data)
    StructuredPerceptron(max_iter=1).fit(X[:20], train.target[:20])
    return X, train.target, X_test, test.target


def brown_pos(n_train=4_000, n_test=1_000):
    """Brown POS tagging: the first ``n_train`` sentences of Brown (``fetch_brown``)
    and the next ``n_test``, as tutorial-style token dicts (Brown has no POS column, so the
    POS features drop out): X, y, X_test, y_test.

    Also compiles (or loads) the kernels, so that no timing includes it.
    """
    X, y = fetch_brown(return_X_y=True)
    end = n_train + n_test
    X = crfsuite_tutorial_features(X[:end])
    StructuredPerceptron(max_iter=1).fit(X[:20], y[:20]).predict(X[:2])
    return X[:n_train], y[:n_train], X[n_train:end], y[n_train:end]
