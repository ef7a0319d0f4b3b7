"""Constrained decoding (a decoder's ``allowed=``), fixed labels and n-best lists.

Every search is checked against enumeration of the label sequences the constraint
allows, on short sentences; the masks of the tagging schemes against rules written
out from their definitions.
"""

import io
import itertools
import warnings

import numpy as np
import pytest

from skstruct import (
    AROW,
    SWVP,
    BeamSearch,
    Greedy,
    ParameterMixing,
    PassiveAggressive,
    StructuredPerceptron,
    Viterbi,
    load,
    save,
)
from skstruct._kernels.kbest import kbest_paths
from skstruct.structures import ChainScores
from skstruct.structures.constraints import ChainConstraints, ForbiddenGoldWarning
from tests import naive

BIO = ["B-LOC", "B-PER", "I-LOC", "I-PER", "O"]
BIOES = ["B-X", "E-X", "I-X", "O", "S-X", "B-Y", "E-Y", "I-Y", "S-Y"]


# -- the schemes -------------------------------------------------------------------------


def _parts(label):
    return ("O", None) if label == "O" else tuple(label.split("-", 1))


def bio_allows(a, b):
    """IOB2, from its definition: I-X continues an entity of type X."""
    (_, kind_a), (pb, kind_b) = _parts(a), _parts(b)
    return pb != "I" or (a != "O" and kind_a == kind_b)


def bioes_allows(a, b):
    """BIOES, from its definition: B I* E or S, nothing else inside an entity."""
    (pa, kind_a), (pb, kind_b) = _parts(a), _parts(b)
    if pa in ("B", "I"):  # inside an entity: only its continuation
        return pb in ("I", "E") and kind_a == kind_b
    return pb in ("O", "B", "S")


def allowed_sequence(seq, labels, scheme):
    if scheme == "bio":
        ok, first, last = bio_allows, lambda a: not a.startswith("I-"), lambda a: True
    else:
        ok = bioes_allows
        first = lambda a: a[0] in "OBS"  # noqa: E731
        last = lambda a: a[0] in "OES"  # noqa: E731
    names = [labels[i] for i in seq]
    return (
        first(names[0]) and last(names[-1]) and all(ok(a, b) for a, b in itertools.pairwise(names))
    )


@pytest.mark.parametrize("scheme,labels", [("bio", BIO), ("bioes", BIOES)])
def test_scheme_masks_follow_their_definitions(scheme, labels):
    c = ChainConstraints.from_allowed(scheme, labels)
    rule = bio_allows if scheme == "bio" else bioes_allows
    expected = np.array([[rule(a, b) for b in labels] for a in labels])
    np.testing.assert_array_equal(c.transition, expected)
    for n in (1, 2, 3):  # whole sequences: start and stop too
        for seq in itertools.product(range(len(labels)), repeat=n):
            offsets = np.array([0, n])
            broken = c.violations(np.array(seq), offsets)[0].size > 0
            assert broken != allowed_sequence(seq, labels, scheme), [labels[i] for i in seq]


def test_bilou_is_bioes():
    bilou = ["B-X", "L-X", "I-X", "O", "U-X"]
    bioes = ["B-X", "E-X", "I-X", "O", "S-X"]
    a, b = (ChainConstraints.from_allowed("bioes", labels) for labels in (bilou, bioes))
    for name in ("transition", "start", "stop"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


def test_pairs_allow_exactly_those_and_ignore_unknown_labels():
    c = ChainConstraints.from_allowed({("A", "B"), ("B", "B"), ("Z", "A")}, ["A", "B", "C"])
    np.testing.assert_array_equal(
        c.transition, [[False, True, False], [False, True, False], [False, False, False]]
    )
    assert c.start.all() and c.stop.all()
    assert c.feasible([0, 1, 2, 3]).tolist() == [True, True, True, True]
    dead = ChainConstraints.from_allowed({("A", "B")}, ["A", "B"])
    assert dead.feasible([1, 2, 3]).tolist() == [True, True, False]


@pytest.mark.parametrize(
    "allowed,labels,match",
    [
        ("bio", ["B-X", "X"], "the label 'X' is neither"),
        ("bioes", ["B-X", "Q-X"], "'Q-X'"),
        ("iob", ["O"], "allowed must be"),
        ({("A",)}, ["A"], r"got the entry \('A',\)"),
    ],
)
def test_bad_allowed_is_refused(allowed, labels, match):
    with pytest.raises(ValueError, match=match):
        ChainConstraints.from_allowed(allowed, labels)


# -- searches against enumeration --------------------------------------------------------


def _random_model(order, labels, seed, decoder):
    """A perceptron fitted on random data: varied emission and transition weights."""
    rng = np.random.default_rng(seed)
    scheme_ok = ChainConstraints.from_allowed("bio", labels) if labels is BIO else None
    X, y = [], []
    for _ in range(40):
        n = int(rng.integers(1, 6))
        X.append([{f"w{int(rng.integers(8))}": 1.0, "b": float(rng.normal())} for _ in range(n)])
        while True:  # gold labels the scheme allows
            seq = rng.integers(len(labels), size=n)
            if scheme_ok is None or not scheme_ok.violations(seq, np.array([0, n]))[0].size:
                break
        y.append([labels[i] for i in seq])
    model = StructuredPerceptron(decoder, max_iter=3, random_state=seed, average=False)
    update = "max_violation" if isinstance(decoder, BeamSearch) else "standard"
    return model.set_params(update=update).fit(X, y), X


def _enumerated(model, x, k, fixed=None):
    """The ``k`` best allowed sequences of ``x`` (labels, score) by enumeration."""
    structure = model.structure_
    encoded = model.encode([x])
    s = structure.scores(encoded, 0, model.coef_)
    c = structure.constraints
    labels = model.classes_.tolist()
    found = []
    for seq in naive.all_paths(len(x), len(labels)):
        if c is not None and c.violations(np.array(seq), np.array([0, len(x)]))[0].size:
            continue
        if fixed and any(labels[seq[t]] != label for t, label in fixed.items()):
            continue
        score = naive.chain_score_order(
            seq, s.unary, s.transition, s.start, s.stop, s.trigram, structure.order
        )
        found.append(([labels[i] for i in seq], score))
    return sorted(found, key=lambda item: -item[1])[:k]


DECODERS = [
    Viterbi(allowed="bio"),
    Viterbi(order=2, allowed="bio"),
    BeamSearch(beam_size=5, allowed="bio"),  # as wide as the labels: exact at order 1
    BeamSearch(beam_size=25, order=2, allowed="bio"),
    Viterbi(allowed={("B-LOC", "I-LOC"), ("O", "B-LOC"), ("I-LOC", "O"), ("O", "O")}),
]


@pytest.mark.filterwarnings("ignore::skstruct.structures.constraints.ForbiddenGoldWarning")
@pytest.mark.parametrize("decoder", DECODERS, ids=repr)
@pytest.mark.parametrize("seed", [0, 1])
def test_constrained_prediction_is_the_best_allowed_sequence(decoder, seed):
    model, X = _random_model(decoder.order, BIO, seed, decoder)
    predicted = model.predict(X)
    for x, labels in zip(X[:15], predicted):  # enumeration is slow: the first 15
        best = _enumerated(model, x, 1)
        if not best:  # the pairs given allow no sequence of this length
            continue
        (_, best_score), *_ = best
        scores = model.structure_.scores(model.encode([x]), 0, model.coef_)
        ids = np.array([model.classes_.tolist().index(lab) for lab in labels])
        assert model.structure_.path_score(scores, ids) == pytest.approx(best_score, abs=1e-9)


@pytest.mark.parametrize("decoder", DECODERS[:4], ids=repr)
def test_fixed_labels_give_the_best_sequence_that_has_them(decoder):
    model, X = _random_model(decoder.order, BIO, 2, decoder)
    rng = np.random.default_rng(0)
    fixed = []
    for x in X:
        t = int(rng.integers(len(x)))
        fixed.append({t: str(rng.choice(["B-PER", "O", "B-LOC"]))})
    predicted = model.predict(X, fixed=fixed)
    for x, labels, known in list(zip(X, predicted, fixed))[:15]:  # enumeration is slow
        assert all(labels[t] == label for t, label in known.items())
        (_, best_score), *_ = _enumerated(model, x, 1, known)
        scores = model.structure_.scores(model.encode([x]), 0, model.coef_)
        ids = np.array([model.classes_.tolist().index(lab) for lab in labels])
        assert model.structure_.path_score(scores, ids) == pytest.approx(best_score, abs=1e-9)
    # a list per token says the same as a dict
    as_lists = [[known.get(t) for t in range(len(x))] for x, known in zip(X, fixed)]
    assert model.predict(X, fixed=as_lists) == predicted
    # sequences without an entry are predicted as by predict
    assert model.predict(X, fixed=[None] * len(X)) == model.predict(X)


def test_fixed_labels_errors_name_the_example():
    model, X = _random_model(1, BIO, 0, Viterbi(allowed="bio"))
    n = len(X[3])
    cases = [
        ([None] * 3 + [{n: "O"}], rf"Example 3: fixed\[3\] names position {n}"),
        ([None] * 3 + [{0: "B-ORG"}], r"Example 3: fixed\[3\] gives label 'B-ORG'"),
        ([None] * 3 + [["O"] * (n + 1)], rf"Example 3: fixed\[3\] has {n + 1} entries"),
        ([None] * 3 + ["O"], r"Example 3: fixed\[3\] must be None, a dict"),
        ([None] * 3, r"fixed has 3 entries for 4 sequences of X"),
        ([None] * 5, r"fixed has 5 entries for 4 sequences of X"),
        ([None] * 3 + [{0: "I-PER"}], r"Example 3: no label sequence keeps to allowed='bio'"),
    ]
    for fixed, match in cases:
        with pytest.raises(ValueError, match=match):
            model.predict(X[:4], fixed=fixed)
    with pytest.raises(TypeError, match="fixed must be a list"):
        model.predict(X[:4], fixed=iter([None] * 4))
    with pytest.raises(ValueError, match=r"Example 4101: fixed must give an entry"):
        model.predict(iter(X[:1] * 4200), fixed=[None] * 4101)  # read in chunks


# -- n best ------------------------------------------------------------------------------


def _random_chain(rng, n, L, forbid):
    unary = rng.normal(size=(n, L))
    transition, start, stop = rng.normal(size=(L, L)), rng.normal(size=L), rng.normal(size=L)
    if forbid:
        transition[rng.random((L, L)) < 0.3] = -np.inf
        start[rng.random(L) < 0.3] = -np.inf
    return unary, transition, start, stop


@pytest.mark.parametrize("seed", range(12))
def test_kbest_kernel_equals_enumeration(seed):
    rng = np.random.default_rng(seed)
    n, L, k = int(rng.integers(1, 5)), int(rng.integers(1, 4)), int(rng.integers(1, 9))
    unary, transition, start, stop = _random_chain(rng, n, L, forbid=seed % 2 == 1)
    paths, scores = kbest_paths(unary, transition, start, stop, k)
    every = sorted(
        (naive.chain_score(p, unary, transition, start, stop) for p in naive.all_paths(n, L)),
        reverse=True,
    )
    every = [s for s in every if s > -np.inf][:k]
    np.testing.assert_allclose(scores, every, rtol=0, atol=1e-9)
    assert len({tuple(p) for p in paths.tolist()}) == len(paths)  # distinct
    for path, score in zip(paths.tolist(), scores):
        assert naive.chain_score(path, unary, transition, start, stop) == pytest.approx(score)
    if len(paths):
        assert paths[0].tolist() == naive.viterbi(unary, transition, start, stop)


def test_kbest_breaks_ties_as_viterbi():
    unary = np.zeros((4, 3))
    paths, _ = kbest_paths(unary, np.zeros((3, 3)), np.zeros(3), np.zeros(3), 5)
    assert paths[0].tolist() == [0, 0, 0, 0]
    assert len({tuple(p) for p in paths.tolist()}) == 5
    again, _ = kbest_paths(unary, np.zeros((3, 3)), np.zeros(3), np.zeros(3), 5)
    np.testing.assert_array_equal(again, paths)  # ties broken the same way every time


NBEST_DECODERS = [
    Viterbi(),
    Viterbi(allowed="bio"),
    BeamSearch(beam_size=3),
    BeamSearch(beam_size=3, order=2, allowed="bio"),
    Greedy(allowed="bio"),
]


@pytest.mark.parametrize("decoder", NBEST_DECODERS, ids=repr)
def test_nbest_first_is_predict_and_exact_nbest_equals_enumeration(decoder):
    model, X = _random_model(decoder.order, BIO, 3, decoder)
    nbest = model.predict_nbest(X, k=4)
    assert [found[0][0] for found in nbest] == model.predict(X)
    for x, found in zip(X[:15], nbest):  # enumeration is slow: the first 15
        scores = [s for _, s in found]
        assert scores == sorted(scores, reverse=True)
        assert len(found) <= (4 if isinstance(decoder, Viterbi) else min(4, decoder.beam_size))
        if isinstance(decoder, Viterbi):
            expected = _enumerated(model, x, 4)
            np.testing.assert_allclose(scores, [s for _, s in expected], atol=1e-9)
        else:  # the beam's items: each an allowed sequence, with its true score
            encoded = model.encode([x])
            structure = model.structure_
            part_scores = structure.scores(encoded, 0, structure.constrain(model.coef_))
            for labels, score in found:
                ids = np.array([model.classes_.tolist().index(lab) for lab in labels])
                assert structure.path_score(part_scores, ids) == pytest.approx(score)


def test_nbest_refuses_what_it_cannot_do():
    model, X = _random_model(2, BIO, 0, Viterbi(order=2))
    with pytest.raises(ValueError, match=r"first-order chain.*BeamSearch"):
        model.predict_nbest(X, k=2)
    model, X = _random_model(1, BIO, 0, Viterbi())
    for k in (0, 1.5, "3"):
        with pytest.raises(ValueError, match="k must be a positive integer"):
            model.predict_nbest(X, k=k)


# -- training ----------------------------------------------------------------------------


class _GenericViterbi(Viterbi):
    """A subclass takes the generic training loop (fused epochs are for exact types)."""


class _GenericBeam(BeamSearch):
    pass


@pytest.mark.parametrize(
    "fused,generic,update",
    [
        (Viterbi(allowed="bio"), _GenericViterbi(allowed="bio"), "standard"),
        (BeamSearch(3, allowed="bio"), _GenericBeam(3, allowed="bio"), "max_violation"),
        (BeamSearch(3, allowed="bio"), _GenericBeam(3, allowed="bio"), "early"),
    ],
)
@pytest.mark.parametrize("batch_size", [1, 4])
def test_constrained_training_fused_equals_generic(fused, generic, update, batch_size):
    model, X = _random_model(1, BIO, 5, fused)
    y = model.predict(X)  # labels the scheme allows
    kw = dict(update=update, max_iter=3, random_state=0, batch_size=batch_size)
    a = StructuredPerceptron(fused, **kw).fit(X, y)
    b = StructuredPerceptron(generic, **kw).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.predict(X) == b.predict(X)
    assert np.isfinite(a.coef_).all()  # -inf only while searching


@pytest.mark.parametrize("learner", [StructuredPerceptron, PassiveAggressive, AROW])
def test_training_searches_only_allowed_sequences(learner):
    # "i" is always I-X in training, after B-X: an unconstrained model labels it I-X
    # after O too, which BIO forbids
    X = [[{"w": "b"}, {"w": "i"}]] * 3 + [[{"w": "o"}]] * 3
    y = [["B-X", "I-X"]] * 3 + [["O"]] * 3
    free = learner(max_iter=5, random_state=0).fit(X, y)
    kept = learner(Viterbi(allowed="bio"), max_iter=5, random_state=0).fit(X, y)
    probe = [[{"w": "o"}, {"w": "i"}], [{"w": "i"}]]
    c = kept.structure_.constraints
    for model, expect_broken in ((free, True), (kept, False)):
        predicted = model.predict(probe) + model.predict(probe, fixed=[{0: "O"}, None])
        ids = np.concatenate([[model.classes_.tolist().index(lab) for lab in s] for s in predicted])
        offsets = np.cumsum([0] + [len(s) for s in predicted])
        assert (c.violations(ids, offsets)[0].size > 0) == expect_broken, predicted


def test_gold_breaking_the_constraint_is_left_out_with_a_warning():
    X = [[{"w": "a"}, {"w": "b"}]] * 3 + [[{"w": "b"}]]
    y = [["B-X", "I-X"]] * 3 + [["I-X"]]
    with pytest.warns(ForbiddenGoldWarning, match=r"1 of 4 .* example 3, whose y\[3\] has 'I-X'"):
        model = StructuredPerceptron(Viterbi(allowed="bio"), random_state=0).fit(X, y)
    assert model.history_[0]["sequences"] == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        StructuredPerceptron(Viterbi(allowed="bioes"), random_state=0).fit(
            [[{"w": "a"}]], [["S-X"]]
        )
    with pytest.raises(ValueError, match="every training sequence breaks"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ForbiddenGoldWarning)
            StructuredPerceptron(Viterbi(allowed="bio")).fit([[{"w": "b"}]], [["I-X"]])


def test_learners_and_orders_that_cannot_be_constrained_say_so():
    X, y = [[{"w": "a"}]], [["O"]]
    with pytest.raises(ValueError, match="SWVP mixes gold and predicted labels"):
        SWVP(Viterbi(allowed="bio")).fit(X, y)
    with pytest.raises(ValueError, match="a chain of order 0"):
        StructuredPerceptron(Viterbi(order=0, allowed="bio")).fit(X, y)


@pytest.mark.filterwarnings("ignore::skstruct.structures.constraints.ForbiddenGoldWarning")
def test_constrained_model_saves_and_loads():
    model, X = _random_model(1, BIO, 0, Viterbi(allowed={("B-LOC", "I-LOC"), ("O", "O")}))
    buffer = io.BytesIO()
    save(model, buffer)
    buffer.seek(0)
    loaded = load(buffer)
    assert loaded.decoder.allowed == model.decoder.allowed
    assert loaded.predict(X) == model.predict(X)
    assert loaded.predict_nbest(X, k=3) == model.predict_nbest(X, k=3)


def test_constrained_marginals_equal_enumeration_over_allowed_sequences():
    model, X = _random_model(1, BIO, 4, Viterbi(allowed="bio"))
    labels = model.classes_.tolist()
    for x, marginals in zip(X[:8], model.predict_marginals(X[:8])):
        everything = _enumerated(model, x, 10**6)
        weights = np.exp(np.array([s for _, s in everything]) - max(s for _, s in everything))
        expected = np.zeros((len(x), len(labels)))
        for (seq, _), w in zip(everything, weights):
            for t, label in enumerate(seq):
                expected[t, labels.index(label)] += w
        expected /= weights.sum()
        got = np.array([[m[label] for label in labels] for m in marginals])
        np.testing.assert_allclose(got, expected, atol=1e-9)
        assert got[0, labels.index("I-PER")] == 0.0  # I- never first


def test_mixing_trains_under_the_constraint_and_one_shard_is_the_serial_learner():
    model, X = _random_model(1, BIO, 6, Viterbi(allowed="bio"))
    y = model.predict(X)
    serial = StructuredPerceptron(Viterbi(allowed="bio"), max_iter=3, random_state=0).fit(X, y)
    one = ParameterMixing(serial, n_shards=1, max_iter=3, random_state=0).fit(X, y)
    np.testing.assert_array_equal(one.coef_, serial.coef_)
    two = ParameterMixing(serial, n_shards=2, max_iter=3, random_state=0).fit(X, y)
    assert np.isfinite(two.coef_).all()
    predicted = two.predict(X)
    c = two.structure_.constraints
    ids = np.concatenate([[two.classes_.tolist().index(lab) for lab in s] for s in predicted])
    assert c.violations(ids, np.cumsum([0] + [len(s) for s in predicted]))[0].size == 0
    forced = two.predict(X, fixed=[{0: "B-PER"}] + [None] * (len(X) - 1))
    assert forced[0][0] == "B-PER" and forced[1:] == predicted[1:]


def test_partial_fit_keeps_the_constraint():
    model, X = _random_model(1, BIO, 7, Viterbi(allowed="bio"))
    y = model.predict(X)
    learner = StructuredPerceptron(Viterbi(allowed="bio"), random_state=0)
    learner.partial_fit(X[:20], y[:20], classes=BIO)
    learner.partial_fit(X[20:], y[20:])
    assert learner.structure_.constraints is not None
    with pytest.warns(ForbiddenGoldWarning, match="1 of 2"):
        learner.partial_fit([[{"w": "x"}], [{"w": "y"}]], [["I-LOC"], ["O"]])


def test_chain_scores_fix_leaves_the_input_alone():
    unary = np.zeros((3, 2))
    scores = ChainScores(unary, np.zeros((2, 2)), np.zeros(2), np.zeros(2), np.zeros(0))
    model, _ = _random_model(1, BIO, 0, Viterbi())
    fixed = model.structure_.fix(scores, np.array([1]), np.array([0]))
    assert (unary == 0).all() and fixed.unary[1, 1] == -np.inf and fixed.unary[1, 0] == 0


def test_bio_on_spanish_ner_leaves_no_invalid_transition(corpus):
    """Real data: CoNLL-2002 Spanish, a small training set, so that the unconstrained
    model still makes BIO errors for the constrained one not to make."""
    from skstruct.datasets import fetch_conll2002
    from skstruct.features import crfsuite_tutorial_features

    home = corpus("conll2002-es").parent
    train = fetch_conll2002("es", "train", data_home=home)
    test = fetch_conll2002("es", "testb", data_home=home)
    X = crfsuite_tutorial_features(train.data[:400])
    X_test = crfsuite_tutorial_features(test.data[:600])
    broken = {}
    for name, decoder in [("free", Viterbi()), ("bio", Viterbi(allowed="bio"))]:
        model = StructuredPerceptron(decoder, max_iter=2, random_state=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ForbiddenGoldWarning)
            model.fit(X, train.target[:400])
        predicted = model.predict(X_test)
        c = ChainConstraints.from_allowed("bio", model.classes_.tolist())
        ids = np.concatenate([[model.classes_.tolist().index(lab) for lab in s] for s in predicted])
        broken[name] = c.violations(ids, np.cumsum([0] + [len(s) for s in predicted]))[0].size
    assert broken["free"] > 0 and broken["bio"] == 0, broken
