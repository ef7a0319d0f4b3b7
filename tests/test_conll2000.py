"""End to end on the real CoNLL-2000 chunking corpus (the ``corpus`` fixture finds it)."""

import pytest

from skstruct import StructuredPerceptron
from skstruct.datasets import fetch_conll2000
from skstruct.features import crfsuite_tutorial_features
from skstruct.metrics import span_f1_score, span_precision_recall_fscore
from tests import conlleval


@pytest.fixture(scope="module")
def chunking(corpus):
    home = corpus("conll2000").parent
    train = fetch_conll2000("train", data_home=home, download_if_missing=False)
    test = fetch_conll2000("test", data_home=home, download_if_missing=False)
    return (
        crfsuite_tutorial_features(train.data),
        train.target,
        crfsuite_tutorial_features(test.data),
        test.target,
    )


@pytest.fixture(scope="module")
def predictions(chunking):
    X_train, y_train, X_test, _ = chunking
    model = StructuredPerceptron(max_iter=10, random_state=0).fit(X_train, y_train)
    return model, model.predict(X_test)


def test_span_f1_after_ten_epochs(chunking, predictions):
    model, y_pred = predictions
    y_test = chunking[3]
    assert len(model.classes_) == 22
    assert span_f1_score(y_test, y_pred) >= 0.920
    assert model.history_[-1]["mistakes"] < model.history_[0]["mistakes"]


def test_span_scores_agree_with_conlleval_on_real_predictions(chunking, predictions):
    y_test, y_pred = chunking[3], predictions[1]
    expected = conlleval.overall(conlleval.evaluate(y_test, y_pred))
    got = span_precision_recall_fscore(y_test, y_pred)
    assert got == pytest.approx(expected, abs=1e-12)
