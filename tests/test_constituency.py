"""Constituency parsing by CKY over anchored rules (skstruct.decoders.CKY): the kernel
against enumeration of every tree, the structure's layout, features, loss and
augmentation, and every learner through the structure protocol."""

import gc
import itertools
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import numpy as np
import pytest
from scipy.special import logsumexp
from sklearn.model_selection import GridSearchCV

from skstruct import (
    AROW,
    CKY,
    SWVP,
    ConditionalRandomField,
    ExponentiatedGradientSSVM,
    ParameterMixing,
    PassiveAggressive,
    StructuredPerceptron,
    StructuredSVM,
    load,
    save,
)
from skstruct._kernels import anchored_cky, cky
from skstruct._kernels.threads import available_threads, numba_threads
from skstruct.metrics import evalb
from skstruct.solvers import StructuredLikelihood
from skstruct.structures import _cky_charts
from skstruct.structures._cky_charts import charts_for, new_charts
from skstruct.structures.constituency import UNPARSED, AnchoredRules, ParseScores
from skstruct.trees import ROOT, Grammar, Tree, TreeTransform, normalize
from skstruct.utils.parts import PARALLEL_FROM

# -- the kernel against enumeration ---------------------------------------------------------


def _random_grammar(seed):
    rng = np.random.default_rng(seed)
    phrases, tags = ["S", "NP", "VP", "X"], ["a", "b"]
    symbols = phrases + tags
    binary = {(a, b, c): 1 for a in phrases for b in symbols for c in symbols if rng.random() < 0.3}
    unary = {(a, b): 1 for a in phrases for b in symbols if a != b and rng.random() < 0.3}
    root = dict.fromkeys([p for p in phrases if rng.random() < 0.7] or ["S"], 1)
    return Grammar(binary, unary, root, tags), rng


def _every_tree(grammar, tags, i, j, unary_allowed=True):
    """Every binarised tree over ``tags[i:j]``, by its top symbol."""
    out = {}
    if j - i == 1:
        out[tags[i]] = [Tree(tags[i], [f"w{i}"])]
    else:
        symbols = grammar.symbols
        for k in range(i + 1, j):
            lefts, rights = _every_tree(grammar, tags, i, k), _every_tree(grammar, tags, k, j)
            for a, b, c in grammar.binary.tolist():
                for left, right in itertools.product(
                    lefts.get(symbols[b], []), rights.get(symbols[c], [])
                ):
                    out.setdefault(symbols[a], []).append(Tree(symbols[a], [left, right]))
    if unary_allowed:
        base = {label: list(trees) for label, trees in out.items()}
        for a, b in grammar.unary.tolist():
            for tree in base.get(grammar.symbols[b], []):
                out.setdefault(grammar.symbols[a], []).append(Tree(grammar.symbols[a], [tree]))
    return out


def _outputs(structure, tags):
    """The output of every tree of the grammar over ``tags``."""
    grammar, n = structure.grammar, len(tags)
    every = _every_tree(grammar, tags, 0, n)
    return [
        structure.encode_tree(Tree(ROOT, [tree]), n)
        for label, trees in every.items()
        if grammar.root_counts[grammar.index[label]] > 0
        for tree in trees
    ]


def _scores(structure, tags, rng, density):
    n, grammar = len(tags), structure.grammar
    atoms = np.stack(
        [rng.integers(1, 4, size=n), [grammar.index[t] for t in tags], rng.integers(8, 40, size=n)],
        axis=1,
    ).astype(np.int64)
    allowed = rng.random((n + 1, n + 1, grammar.n_symbols)) < density
    coef = rng.normal(size=structure.n_features)
    none = np.zeros((1, 1, 1))
    return ParseScores(atoms, allowed, coef, none, none, False, 0.0)


def _inside(structure, scores, outputs):
    """The outputs whose labelled spans pruning allowed."""
    n = scores.atoms.shape[0]
    flat = scores.allowed.ravel()
    return [out for out in outputs if flat[structure.cells(out)].all()] if n else outputs


def _cases(seed, density, n_features, scale=1.0):
    """``(structure, n, scores, outputs)`` of random sentences of 1 to 4 words under a
    random grammar, pruned to ``density`` of the labelled spans (``outputs``: every tree
    of the pruned space)."""
    grammar, rng = _random_grammar(seed)
    structure = AnchoredRules(n_features, grammar, None)
    for n in (1, 2, 3, 4):
        tags = [str(t) for t in rng.choice(["a", "b"], size=n)]
        scores = _scores(structure, tags, rng, density)
        scores = scores._replace(coef=scale * scores.coef)
        yield structure, n, scores, _inside(structure, scores, _outputs(structure, tags))


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("density", [1.0, 0.6])
def test_cky_finds_the_best_tree_of_the_pruned_space(seed, density):
    for structure, n, scores, outputs in _cases(seed, density, 256):
        out = np.full(6 * n - 5, -7, dtype=np.int32)
        best = structure.best(scores, out)
        if not outputs:
            assert best == -np.inf and (out == -7).all()
            continue
        every = [structure.score(scores, output) for output in outputs]
        assert best == pytest.approx(max(every), abs=1e-9)
        assert structure.score(scores, out) == pytest.approx(best, abs=1e-9)
        assert any(np.array_equal(out, output) for output in outputs)


@pytest.mark.parametrize("seed", range(6))
def test_charts_reused_from_sentence_to_sentence_find_what_fresh_ones_find(seed):
    # one set of charts, bigger than any sentence and holding garbage, then each
    # sentence's values, searched long to short and short to long, plain and augmented
    cases = list(_cases(seed, 0.6, 256))
    charts = new_charts(6, cases[0][0].grammar.n_symbols)
    for chart in charts:
        chart.fill(7)
    for structure, n, scores, outputs in cases[::-1] + cases:
        for searched in [scores] + [structure.augment(scores, gold) for gold in outputs[:1]]:
            fresh, reused = (np.full(6 * n - 5, -7, dtype=np.int32) for _ in range(2))
            best = structure.best(searched, fresh)
            assert structure.best(searched._replace(charts=charts), reused) == best
            np.testing.assert_array_equal(reused, fresh)


def test_a_corpus_gets_one_set_of_charts_a_thread_freed_with_it():
    encoded = SimpleNamespace(atoms=np.zeros((5, 3), dtype=np.int64), offsets=np.array([0, 2, 5]))
    mine = charts_for(encoded, 4, 3)
    assert [chart.shape for chart in mine][::6] == [(4, 4, 4), (4, 4)]
    assert all(chart.flags.c_contiguous for chart in mine)  # a sentence's cells together
    again = charts_for(encoded, 4, 2)  # a shorter sentence: the same memory, compact
    assert [chart.shape for chart in again][::6] == [(3, 3, 4), (3, 3)]
    assert all(np.shares_memory(a, b) for a, b in zip(again, mine))
    with ThreadPoolExecutor(1) as pool:
        theirs = pool.submit(charts_for, encoded, 4, 3).result()
    assert not any(np.shares_memory(a, b) for a, b in zip(theirs, mine))
    key = (id(encoded.atoms), threading.get_ident())
    assert key in _cky_charts._CHARTS
    del encoded
    gc.collect()
    assert key not in _cky_charts._CHARTS


def test_threads_that_ended_keep_no_charts():
    # a pool's threads (an epoch's, a predict's) end; the next thread to make charts for
    # a corpus drops theirs, so a fit of many epochs keeps a set per live thread
    encoded = SimpleNamespace(atoms=np.zeros((5, 3), dtype=np.int64), offsets=np.array([0, 5]))
    ended = threading.Thread(target=charts_for, args=(encoded, 4, 5))
    ended.start()
    ended.join()
    assert (id(encoded.atoms), ended.ident) in _cky_charts._CHARTS
    other = SimpleNamespace(atoms=np.zeros((2, 3), dtype=np.int64), offsets=np.array([0, 2]))
    charts_for(other, 4, 2)
    assert (id(encoded.atoms), ended.ident) not in _cky_charts._CHARTS


def test_charts_a_corpus_keeps_are_bounded_and_longer_sentences_get_their_own(monkeypatch):
    # room for sentences of 2 words at most (3 x 3 cells of 4 symbols)
    monkeypatch.setattr(cky, "CHART_BYTES", 3 * 3 * 4 * _cky_charts._BYTES_PER_CELL)
    encoded = SimpleNamespace(atoms=np.zeros((9, 3), dtype=np.int64), offsets=np.array([0, 9]))
    kept = charts_for(encoded, 4, 2)
    assert kept[0].shape == (3, 3, 4)
    assert np.shares_memory(charts_for(encoded, 4, 1)[0], kept[0])
    assert charts_for(encoded, 4, 3) is None  # best() then makes charts for the sentence


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("density", [1.0, 0.6])
def test_the_active_features_are_those_of_every_tree_of_the_pruned_space(seed, density):
    for structure, _, scores, outputs in _cases(seed, density, 256):
        g, seen = structure.grammar, np.zeros(256, dtype=bool)
        _, inner, outer = anchored_cky.inside(*structure._search_arrays(scores))
        anchored_cky.mark_active_features(scores.atoms, scores.allowed, g.binary, g.left_start,
                                          g.unary, structure.root_ok, 256, inner, outer,
                                          seen)  # fmt: skip
        want = {int(key) for output in outputs for key in structure.keys(scores.atoms, output)}
        assert set(np.flatnonzero(seen).tolist()) == want


@pytest.mark.parametrize("seed", range(8))
def test_loss_augmented_cky_finds_the_most_violating_tree(seed):
    grammar, rng = _random_grammar(seed)
    structure = AnchoredRules(256, grammar, None)
    for n in (2, 3, 4):
        tags = [str(t) for t in rng.choice(["a", "b"], size=n)]
        scores = _scores(structure, tags, rng, 1.0)
        outputs = _outputs(structure, tags)
        if not outputs:
            continue
        gold = outputs[rng.integers(len(outputs))]
        augmented = structure.augment(scores, gold)
        for output in outputs:  # every tree scores score + loss
            loss = structure.loss(None, 0, gold, output)
            assert loss >= 0 and (loss == 0) == np.array_equal(output, gold)
            assert structure.score(augmented, output) == pytest.approx(
                structure.score(scores, output) + loss, abs=1e-9
            )
        out = np.empty(6 * n - 5, dtype=np.int32)
        structure.best(augmented, out)
        target = max(structure.score(scores, o) + structure.loss(None, 0, gold, o) for o in outputs)
        assert structure.score(augmented, out) == pytest.approx(target, abs=1e-9)


def _check_expected_delta(structure, atoms, outputs, p, gold, mu):
    """``add_expected_delta`` of ``mu`` equals ``phi(gold) - sum_y p(y) phi(y)`` over
    every output; returns that sum (dense, 128 features)."""
    expected = np.zeros(128)
    for weight, output in zip(p, outputs):
        np.add.at(expected, structure.keys(atoms, output), -weight)
    np.add.at(expected, structure.keys(atoms, gold), 1.0)
    found = np.zeros(128)
    structure.add_expected_delta(found, None, 0, gold, mu, 1.0)
    assert np.allclose(found, expected, atol=1e-9)
    return expected


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("density", [1.0, 0.7])
def test_inside_outside_equal_sums_over_every_tree(seed, density):
    rng = np.random.default_rng(seed)
    for structure, _, scores, outputs in _cases(seed, density, 128, scale=0.5):
        log_z, mu = structure.marginals(scores)
        if not outputs:
            assert log_z == -np.inf
            continue
        every = np.array([structure.score(scores, output) for output in outputs])
        assert log_z == pytest.approx(logsumexp(every), abs=1e-9)
        p = np.exp(every - logsumexp(every))
        gold = outputs[rng.integers(len(outputs))]
        expected = _check_expected_delta(structure, scores.atoms, outputs, p, gold, mu)
        keys, values = structure.expected_delta(None, 0, gold, mu)
        assert np.allclose(expected[keys], values) and np.allclose(np.delete(expected, keys), 0)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("loss_weight", [-1.5, 0.0, 0.7])
def test_loss_weighted_marginals_and_expected_losses_equal_sums_over_every_tree(seed, loss_weight):
    """What batch EG's compact dual reads: the distribution of ``score + loss_weight *
    loss``, its expected features and its expected loss."""
    rng = np.random.default_rng(seed)
    for structure, _, scores, outputs in _cases(seed, 0.8, 128, scale=0.5):
        if not outputs:
            continue
        gold = outputs[rng.integers(len(outputs))]
        augmented = structure.augment(scores, gold, loss_weight=loss_weight)
        loss = np.array([structure.loss(None, 0, gold, output) for output in outputs])
        every = np.array([structure.score(scores, output) for output in outputs])
        every += loss_weight * loss
        log_z, mu = structure.marginals(augmented)
        assert log_z == pytest.approx(logsumexp(every), abs=1e-9)
        assert [structure.score(augmented, o) for o in outputs] == pytest.approx(every, abs=1e-9)
        p = np.exp(every - logsumexp(every))
        _check_expected_delta(structure, scores.atoms, outputs, p, gold, mu)
        assert structure.expected_loss(mu, gold) == pytest.approx(p @ loss, abs=1e-9)
        fresh = structure.marginals(augmented)[1]  # no outside pass run on it yet
        assert structure.expected_loss(fresh, gold) == pytest.approx(p @ loss, abs=1e-9)
        # marginals of the plain scores, the loss against gold expected under them
        plain = np.array([structure.score(scores, output) for output in outputs])
        q = np.exp(plain - logsumexp(plain))
        mu = structure.marginals(scores)[1]
        assert structure.expected_loss(mu, gold) == pytest.approx(q @ loss, abs=1e-9)


def test_the_loss_counts_labelled_spans_in_one_tree_and_not_the_other():
    trees = [Tree.fromstring("( (S (NP (DT a) (NN b)) (VP (VB c) (NP (NN d)))) )")]
    structure = AnchoredRules(64, Grammar.count(TreeTransform(0, 1).fit_transform(trees)), None)
    t = TreeTransform(0, 1).fit(trees)
    gold = structure.encode_tree(t.transform(trees)[0], 4)
    assert structure.loss(None, 0, gold, gold) == 0.0
    other = Tree.fromstring("( (S (NP (DT a) (NN b)) (VP (VB c) (NN d))) )")
    grammar = Grammar.count(t.transform([*trees, other]))
    structure = AnchoredRules(64, grammar, None)
    gold = structure.encode_tree(t.transform(trees)[0], 4)
    pred = structure.encode_tree(t.transform([other])[0], 4)
    # same binary nodes; the gold's unary NP over "d" is missed
    assert structure.loss(None, 0, gold, pred) == 1.0


def test_features_of_an_output_are_its_parts_keys():
    trees = [Tree.fromstring("( (S (NP (DT a) (NN b)) (VP (VB c))) )")]
    t = TreeTransform(0, 1).fit(trees)
    grammar = Grammar.count(t.transform(trees))
    structure = AnchoredRules(2**20, grammar, t)
    gold = structure.encode_tree(t.transform(trees)[0], 3)
    atoms = np.array([[1, grammar.index[x], 9] for x in ("DT", "NN", "VB")], dtype=np.int64)
    keys = structure.keys(atoms, gold)
    # two binary nodes, one unary (VP over VB), the root
    n_keys = 2 * (anchored_cky.N_LABEL_KEYS + anchored_cky.N_BINARY_KEYS)
    n_keys += anchored_cky.N_LABEL_KEYS + anchored_cky.N_UNARY_KEYS + 1
    assert keys.size == n_keys and ((keys >= 0) & (keys < 2**20)).all()

    trees2 = [*trees, Tree.fromstring("( (S (NP (DT a) (NN b)) (VB c)) )")]
    t2 = TreeTransform(0, 1).fit(trees2)
    structure = AnchoredRules(2**20, Grammar.count(t2.transform(trees2)), t2)
    atoms = np.array([[1, structure.grammar.index[x], 9] for x in ("DT", "NN", "VB")])
    gold, pred = (structure.encode_tree(b, 3) for b in t2.transform(trees2))

    class Encoded:
        @staticmethod
        def sentence(i):
            return atoms

    keys, values = structure.delta(Encoded, 0, gold, pred)
    expected = Counter(structure.keys(atoms, gold).tolist())
    expected.subtract(Counter(structure.keys(atoms, pred).tolist()))
    expected = {k: v for k, v in expected.items() if v}
    assert dict(zip(keys.tolist(), values.tolist())) == expected and expected
    coef = np.zeros(2**20)
    structure.add_delta(Encoded, 0, gold, pred, coef, 0.5)
    assert np.array_equal(np.flatnonzero(coef), np.sort(keys))
    assert np.allclose(coef[keys], 0.5 * values)


# -- the structure on treebank trees ---------------------------------------------------------


@pytest.fixture(scope="module")
def treebank(corpus):
    from skstruct.datasets import load_ptb

    folder = corpus("treebank")
    train, dev = load_ptb(folder / "train.mrg"), load_ptb(folder / "dev.mrg")
    tagged = [[(w, t) for w, t in normalize(tree).pos()] for tree in train]
    tagged_dev = [[(w, t) for w, t in normalize(tree).pos()] for tree in dev]
    return tagged, train, tagged_dev, dev


def test_outputs_round_trip_every_training_tree(treebank):
    X, y, _, _ = treebank
    X, y = X[:400], y[:400]
    for horizontal, vertical in [(0, 1), (1, 2)]:
        t = TreeTransform(horizontal, vertical).fit(y)
        binarised = t.transform(y)
        structure = AnchoredRules(64, Grammar.count(binarised), t)
        for sentence, tree, binary in zip(X, y, binarised):
            words, tags = zip(*sentence)
            output = structure.encode_tree(binary, len(words))
            assert structure.tree(output, list(words), list(tags)) == normalize(tree)


@pytest.fixture(scope="module")
def small(treebank):
    X, y, X_dev, y_dev = treebank
    short = [i for i, s in enumerate(X) if len(s) <= 20][:60]
    tags = {tag for i in short for _, tag in X[i]}
    seen = [i for i, s in enumerate(X_dev) if {tag for _, tag in s} <= tags][:20]
    return ([X[i] for i in short], [y[i] for i in short], [X_dev[i] for i in seen],
            [y_dev[i] for i in seen])  # fmt: skip


#: Sixty training trees leave the default grammar (horizontal=1) too sparse to span
#: most dev sentences: the X-bar grammar spans more.
XBAR = CKY(horizontal=0)


def test_the_perceptron_learns_its_training_trees(small):
    X, y, X_dev, y_dev = small
    model = StructuredPerceptron(XBAR, max_iter=8, random_state=0).fit(X, y)
    assert model.score(X, y) > 0.95
    predicted = model.predict(X)
    assert all(isinstance(tree, Tree) and tree.label() == "" for tree in predicted)
    assert model.score(X, y) == pytest.approx(evalb(y, predicted).f1 / 100)
    assert model.score(X_dev, y_dev) > 0.5


def test_predicting_in_a_batch_equals_decoding_each_sentence(small):
    X, y, X_dev, _ = small
    model = StructuredPerceptron(XBAR, max_iter=2, random_state=0).fit(X, y)
    encoded = model.encode(X_dev)
    batch = model.decoder_.predict(model.structure_, encoded, model.coef_)
    bounds = model.structure_.output_offsets(encoded)
    parsed = 0
    for i in range(encoded.n_sentences):
        scores = model.structure_.scores(encoded, i, model.coef_)
        if batch[bounds[i]] == UNPARSED:  # the small grammar spans no tree of it
            with pytest.raises(ValueError, match="no tree of the grammar"):
                model.decoder_.decode(model.structure_, scores)
            continue
        one = model.decoder_.decode(model.structure_, scores)
        assert np.array_equal(batch[bounds[i] : bounds[i + 1]], one)
        parsed += 1
    assert parsed >= 10


def test_predicting_on_threads_equals_predicting_on_one(small):
    # enough sentences for parts on threads, each thread searching in charts of its own
    X, y, X_dev, _ = small
    model = StructuredPerceptron(XBAR, max_iter=2, random_state=0).fit(X, y)
    encoded = model.encode(X + X_dev)
    assert encoded.n_sentences >= PARALLEL_FROM
    predicted = []
    for threads in (1, min(2, available_threads())):
        with numba_threads(threads):
            predicted.append(model.decoder_.predict(model.structure_, encoded, model.coef_))
    np.testing.assert_array_equal(predicted[0], predicted[1])
    firsts = model.structure_.output_offsets(encoded)[:-1]
    assert (predicted[0][firsts] != UNPARSED).sum() >= 50


def test_pruning_cells_on_one_or_two_threads_and_in_charts_of_any_size(small, monkeypatch):
    # the pruning pass: parts on threads, each with its charts; with the charts capped
    # at a few words, the longer sentences get charts of their own
    X, y, X_dev, _ = small
    model = StructuredPerceptron(XBAR, max_iter=1, random_state=0).fit(X, y)
    sentences = X + X_dev
    assert len(sentences) >= PARALLEL_FROM
    with numba_threads(1):
        one = model.encode(sentences)
    with numba_threads(min(2, available_threads())):
        two = model.encode(sentences)
    monkeypatch.setattr(cky, "CHART_BYTES", 2**20)
    capped = model.encode(sentences)
    words = cky.words_within(cky.PRUNING_BYTES, model.grammar_.n_symbols)
    assert sum(len(s) > words for s in sentences) >= 10  # sentences over the cap
    for encoded in (two, capped):
        np.testing.assert_array_equal(encoded.cells, one.cells)
        np.testing.assert_array_equal(encoded.cell_offsets, one.cell_offsets)


@pytest.mark.parametrize(
    "learner",
    [
        PassiveAggressive(CKY(), max_iter=5, random_state=0),
        AROW(CKY(), max_iter=5, random_state=0),
        StructuredSVM(CKY(), C=10.0, max_iter=8, random_state=0),
        ExponentiatedGradientSSVM(CKY(), online=False, C=10.0, max_iter=30, n_features=2**16),
        ParameterMixing(StructuredPerceptron(CKY(), max_iter=3, random_state=0), n_shards=2,
                        max_iter=3),
    ],
    ids=["pa", "arow", "bcfw", "eg-batch", "mixing"],
)  # fmt: skip
def test_every_learner_trains_the_parser(small, learner):
    X, y, _, _ = small
    assert learner.fit(X, y).score(X, y) > 0.9


def test_learners_that_need_what_cky_lacks_refuse_it(small):
    X, y, _, _ = small
    with pytest.raises(ValueError, match="CKY builds trees"):
        SWVP(CKY()).fit(X[:3], y[:3])
    for learner in (ExponentiatedGradientSSVM(CKY()), StructuredSVM(CKY(), solver="eg")):
        with pytest.raises(ValueError, match=r"never tabulates.*pass online=False"):
            learner.fit(X[:3], y[:3])


def test_the_crf_learns_its_training_trees(small):
    X, y, _, _ = small
    model = ConditionalRandomField(CKY(), n_features=2**16, max_iter=40).fit(X[:25], y[:25])
    assert model.score(X[:25], y[:25]) > 0.9


def test_the_crf_on_the_active_weights_alone_trains_as_on_all(small, monkeypatch, lbfgs_sizes):
    X, y, _, _ = small
    found, active_weights = [], AnchoredRules.active_weights

    def recorded(structure, encoded, outputs):  # the training corpus, as the CRF encodes it
        found.append((structure, encoded, outputs, active_weights(structure, encoded, outputs)))
        return found[-1][-1]

    monkeypatch.setattr(AnchoredRules, "active_weights", recorded)
    restricted = ConditionalRandomField(CKY(), n_features=2**18, max_iter=8).fit(X[:25], y[:25])
    [(structure, encoded, outputs, active)] = found
    assert 0 < active.size < structure.n_weights / 10
    # outside them the likelihood's gradient is zero, whatever the weights
    coef = np.random.default_rng(0).normal(scale=0.1, size=structure.n_weights)
    _, grad = StructuredLikelihood(structure, encoded, outputs, 0.0)(coef)
    assert np.isin(np.flatnonzero(grad), active).all()
    monkeypatch.setattr(AnchoredRules, "active_weights", lambda self, encoded, outputs: None)
    whole = ConditionalRandomField(CKY(), n_features=2**18, max_iter=8).fit(X[:25], y[:25])
    # L-BFGS really ran on the touched weights alone, then on all of them
    assert lbfgs_sizes == [active.size, 2**18]
    assert restricted.n_iter_ == whole.n_iter_
    assert [h["loss"] for h in restricted.history_] == pytest.approx(
        [h["loss"] for h in whole.history_], rel=1e-9
    )
    np.testing.assert_allclose(restricted.coef_, whole.coef_, rtol=1e-7, atol=1e-10)


def test_a_saved_parser_predicts_the_same_trees(small, tmp_path):
    X, y, X_dev, _ = small
    model = StructuredPerceptron(CKY(), max_iter=2, random_state=0).fit(X, y)
    save(model, tmp_path / "parser.skstruct")
    loaded = load(tmp_path / "parser.skstruct")
    assert loaded.predict(X_dev) == model.predict(X_dev)


def test_grid_search_tunes_the_markovisation(small):
    X, y, X_dev, y_dev = small  # dev: sentences of tags the training ones have
    split = [(np.arange(len(X)), np.arange(len(X), len(X) + len(X_dev)))]
    search = GridSearchCV(
        StructuredPerceptron(CKY(), max_iter=2, random_state=0),
        {"decoder__horizontal": [0, 1]},
        cv=split,
        error_score="raise",
    ).fit(X + X_dev, y + y_dev)
    assert 0 < search.best_score_ <= 1


def test_bad_input_names_the_example(small):
    X, y, _, _ = small
    model = StructuredPerceptron(CKY(), max_iter=1, random_state=0).fit(X[:10], y[:10])
    with pytest.raises(ValueError, match="Example 1: tag 'XYZ' was never seen"):
        model.predict([X[0], [("word", "XYZ")]])
    with pytest.raises(ValueError, match=r"Example 0: .* no tag"):
        model.predict([[{"form": "word"}]])
    with pytest.raises(ValueError, match="Example 0: X\\[0\\] is an empty sentence"):
        model.predict([[]])
    with pytest.raises(ValueError, match="Example 1: the words of X\\[1\\]"):
        StructuredPerceptron(CKY()).fit(X[:2], [y[0], y[0]])
    with pytest.raises(ValueError, match="Example 0: y\\[0\\] is no tree"):
        StructuredPerceptron(CKY()).fit(X[:1], ["( (S (NN x)"])
    # bracketed strings are trees too
    as_text = StructuredPerceptron(CKY(), max_iter=1, random_state=0)
    as_text.fit(X[:10], [str(tree) for tree in y[:10]])
    assert as_text.predict(X[:2]) == model.predict(X[:2])


def test_partial_fit_goes_on_in_the_grammar_it_has(small):
    X, y, _, _ = small
    model = StructuredPerceptron(XBAR, random_state=0).partial_fit(X[:30], y[:30])
    model.partial_fit(X[:30], y[:30])
    assert model.n_iter_ == 2 and model.score(X[:30], y[:30]) > 0.5
    with pytest.raises(ValueError, match="Example 0: the tree uses a symbol or rule"):
        model.partial_fit([[("it", "PRP")]], ["( (FRAG (PRP it)) )"])


def test_a_sentence_the_grammar_cannot_span_is_parsed_flat():
    trees = [Tree.fromstring("( (S (NP (DT a) (NN b)) (VP (VB c))) )")] * 2
    X = [tree.pos() for tree in trees]
    model = StructuredPerceptron(CKY(), max_iter=1, random_state=0).fit(X, trees)
    (tree,) = model.predict([[("b", "NN"), ("a", "DT")]])
    assert str(tree) == "( (S (NN b) (DT a)))"
