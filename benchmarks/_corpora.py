"""Corpora and features shared by the benchmark scripts."""

from skstruct import StructuredPerceptron
from skstruct.datasets import fetch_conll2002
from skstruct.features import crfsuite_tutorial_features


def conll2002_es():
    """CoNLL-2002 Spanish train and testb as tutorial token dicts: X, y, X_test, y_test.

    Also compiles (or loads) the kernels, so that no timing includes it.
    """
    train = fetch_conll2002("es", "train", download_if_missing=False)
    test = fetch_conll2002("es", "testb", download_if_missing=False)
    X, X_test = crfsuite_tutorial_features(train.data), crfsuite_tutorial_features(test.data)
    StructuredPerceptron(max_iter=1).fit(X[:20], train.target[:20])
    return X, train.target, X_test, test.target
