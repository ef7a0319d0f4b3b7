"""skstruct.crfsuite as sklearn-crfsuite's users' code sees it: bytes feature values,
python-crfsuite's ``tagger_``, and eli5's explanations."""

import itertools
import subprocess
import sys
import textwrap

import pytest

from skstruct import crfsuite

X = [[{"w": "John", "up": True}, {"w": "runs"}, {"w": "home"}],
     [{"w": "Mary"}, {"w": "sleeps"}]] * 4  # fmt: skip
Y = [["B-PER", "O", "O"], ["B-PER", "O"]] * 4


@pytest.fixture(scope="module")
def crf():
    return crfsuite.CRF(c1=0.05, c2=0.05, max_iterations=40).fit(X, Y)


def test_bytes_names_and_values_are_the_strings_they_encode():
    # python-crfsuite takes bytes as the UTF-8 strings they encode
    as_bytes = [[{k.encode(): v.encode() if isinstance(v, str) else v for k, v in t.items()}
                 for t in s] for s in X]  # fmt: skip
    as_bytes[0][1]["tags"] = [b"verb", "present"]
    as_text = [[dict(t) for t in s] for s in X]
    as_text[0][1]["tags"] = ["verb", "present"]
    a = crfsuite.CRF(max_iterations=20).fit(as_bytes, Y)
    b = crfsuite.CRF(max_iterations=20).fit(as_text, Y)
    assert a.attributes_ == b.attributes_
    assert a.state_features_ == b.state_features_
    assert list(a.predict(as_text)) == list(b.predict(as_bytes))
    odd = crfsuite.CRF(max_iterations=5).fit([[{"w": b"\xff\xfe"}]], [["A"]])
    assert odd.predict([[{"w": b"\xff\xfe"}]])[0] == ["A"]  # undecodable bytes kept


def test_tagger_is_none_before_fit_and_answers_pycrfsuite_calls(crf):
    assert crfsuite.CRF().tagger_ is None
    tagger = crf.tagger_
    assert crf.tagger_ is tagger  # one tagger: what set() set is kept
    assert tagger.labels() == crf.classes_ == ["B-PER", "O"]
    assert tagger.tag(X[0]) == crf.predict_single(X[0]) == ["B-PER", "O", "O"]
    assert tagger.tag() == ["B-PER", "O", "O"]  # the sequence tag() set
    info = tagger.info()
    assert info.transitions == crf.transition_features_
    assert info.state_features == crf.state_features_
    assert info.labels == {"B-PER": 0, "O": 1}
    assert set(info.attributes) == set(crf.attributes_)
    with pytest.raises(ValueError, match="yseq has 2 labels"):
        tagger.probability(["O", "O"])
    with pytest.raises(ValueError, match="Unknown label 'X'"):
        tagger.probability(["X", "O", "O"])
    with pytest.raises(IndexError):
        tagger.marginal("O", 3)
    fresh = crfsuite.CRF(max_iterations=5).fit(X, Y).tagger_
    with pytest.raises(ValueError, match="No sequence is set"):
        fresh.probability(["O"])


def test_tagger_probabilities_are_the_chain_distribution(crf):
    # brute force: the probabilities of all 8 label sequences sum to 1, and the
    # marginals are their sums
    tagger = crf.tagger_
    tagger.set(X[0])
    labels = tagger.labels()
    sequences = list(itertools.product(labels, repeat=3))
    p = {ys: tagger.probability(list(ys)) for ys in sequences}
    assert sum(p.values()) == pytest.approx(1.0, abs=1e-12)
    for pos, y in itertools.product(range(3), labels):
        want = sum(q for ys, q in p.items() if ys[pos] == y)
        assert tagger.marginal(y, pos) == pytest.approx(want, abs=1e-12)
    assert max(p, key=p.get) == tuple(tagger.tag())


def test_refitting_gives_a_new_tagger(crf):
    model = crfsuite.CRF(max_iterations=5).fit(X, Y)
    first = model.tagger_
    model.fit(X[:2], Y[:2])
    assert model.tagger_ is not first


ELI5 = textwrap.dedent(
    """
    import sys
    if sys.argv[1] == "before":
        import eli5
    from skstruct import crfsuite
    X = [[{"w": "John", "up": True}, {"w": "runs"}], [{"w": "Mary"}, {"w": "sleeps"}]] * 5
    y = [["B-PER", "O"], ["B-PER", "O"]] * 5
    crf = crfsuite.CRF(c1=0.1, c2=0.1, max_iterations=50).fit(X, y)
    import eli5
    weights = eli5.explain_weights(crf, top=2)
    print([t.target for t in weights.targets])
    print([round(float(f.weight), 6) for f in weights.targets[1].feature_weights.pos])
    print(round(float(weights.transition_features.coef[1, 0]), 6))
    best = sorted((w for (a, label), w in crf.state_features_.items() if label == "B-PER"),
                  reverse=True)[:2]
    print([round(float(w), 6) for w in best])
    print(round(crf.transition_features_[("B-PER", "O")], 6))
    prediction = eli5.explain_prediction(crf, X[0])
    print([t.target for t in prediction.targets])
    print("CRF" in eli5.format_as_text(weights))
    """
)


@pytest.mark.parametrize("eli5_imported", ["before", "after"])
def test_eli5_explains_the_crf_whichever_is_imported_first(eli5_imported):
    done = subprocess.run([sys.executable, "-c", ELI5, eli5_imported], capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    targets, top, transition, want_top, want_transition, predicted, text = (
        done.stdout.strip().splitlines()[-7:]
    )
    assert targets == "['O', 'B-PER']"  # eli5's order for entity labels
    assert top == want_top
    assert transition == want_transition
    assert predicted == "['0: B-PER', '1: O']"
    assert text == "True"


def test_importing_skstruct_does_not_import_eli5_or_sklearns_clustering():
    # sklearn.cluster and sklearn.decomposition (WordClusters' fit) cost every
    # `import skstruct` about 0.05 s: a saved model's first predict in a new process
    code = (
        "import sys, skstruct.crfsuite; "
        "print([m in sys.modules for m in ('eli5', 'sklearn.cluster', 'sklearn.decomposition')])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[False, False, False]", done.stderr[-2000:]
