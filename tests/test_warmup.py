"""Warm-up: ``skstruct.warmup`` compiles what real fits call, and a fit compiles what
its predictions call. Each check runs in a new process, where only what that process
calls is compiled or loaded from the disk cache."""

import json
import subprocess
import sys
import textwrap
import threading

import pytest

import skstruct
from skstruct.compilation import FAMILIES, cache_summary, warmup

#: ``signatures()``: every (kernel, argument types) compiled or loaded in this process.
#: (numba's compile events miss what comes from its disk cache: the dispatchers'
#: signatures count both.)
LISTENER = textwrap.dedent(
    """
    import importlib, pkgutil
    import skstruct._kernels

    def signatures():
        found = set()
        for info in pkgutil.iter_modules(skstruct._kernels.__path__):
            module = importlib.import_module("skstruct._kernels." + info.name)
            for name, kernel in vars(module).items():
                for signature in getattr(kernel, "signatures", ()):
                    found.add((info.name, name, str(signature)))
        return found
    """
)


def _run(code):
    done = subprocess.run(
        [sys.executable, "-c", LISTENER + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_importing_the_estimators_compiles_and_loads_no_kernel():
    # a kernel compiled at import (or loaded from the disk cache) costs every process
    # that imports skstruct's estimators, whether or not it calls the kernel: with
    # explicit signatures, the parsers' hashing and stack helpers were compiled when a
    # chain's modules were imported, with numba's own set-up (about 2 of 4 s of a cold
    # import on a slow machine: benchmarks/measurements/import_compiles_2026-12-01/)
    last = _run(
        """
        import json
        from numba.core import event

        compiled = []

        class Compiles(event.Listener):
            def on_start(self, ev):
                pass

            def on_end(self, ev):
                compiled.append(ev.data["dispatcher"].py_func.__qualname__)

        event.register("numba:compile", Compiles())
        import skstruct

        for name in skstruct.__all__:  # every estimator, decoder, feature set ...
            getattr(skstruct, name)
        found = signatures()  # and every kernel module
        print(json.dumps([compiled, sorted(map(list, found))]))
        """
    )
    compiled, found = json.loads(last)
    assert compiled == [] and found == []


def test_a_warmed_up_process_compiles_nothing_in_real_fits():
    # other data than warmup's (sizes, labels, features), the defaults of each family
    last = _run(
        """
        import skstruct
        from skstruct import ArcFeatures, Eisner, LinearChainCRF, StructuredPerceptron
        from skstruct import StructuredSVM
        from skstruct.datasets import make_chain_data
        from skstruct.features import crfsuite_tutorial_features
        from skstruct.compilation import _tree_data

        skstruct.warmup("all")
        tokens, y = make_chain_data(60, n_labels=7, n_words=90, random_state=5)
        X = crfsuite_tutorial_features([[(w, "DT") for w in s] for s in tokens])
        # more labels than a dense start takes (DENSE_LABELS): sparse emission rows, as
        # the Penn Treebank's 45 tags and Brown's 472 give
        many, y_many = make_chain_data(60, n_labels=40, n_words=90, random_state=6)
        X_many = crfsuite_tutorial_features([[(w, "DT") for w in s] for s in many])
        trees, labelled = _tree_data(30, seed=4)
        heads = [[h for h, _ in s] for s in labelled]
        before = signatures()
        StructuredPerceptron(random_state=1).fit(X, y).predict(X)
        StructuredPerceptron(random_state=1).fit(X_many, y_many).predict(X_many)
        LinearChainCRF().fit(X, y).predict(X)
        StructuredSVM(random_state=1).fit(X, y).predict(X)
        StructuredSVM(random_state=1).fit(X_many, y_many).predict(X_many)
        StructuredPerceptron(Eisner(), random_state=1).fit(trees, heads).predict(trees)
        StructuredPerceptron(Eisner(), random_state=1).fit(trees, labelled).predict(trees)
        grand = Eisner(order=2, projectivize=True, grandparents=True)  # UDPipeline's voter
        StructuredPerceptron(grand, features=ArcFeatures(fields=["lemma", "feats"]),
                             random_state=1).fit(trees, heads).predict(trees)
        print(sorted(signatures() - before))
        """
    )
    assert last == "[]"


def test_the_first_prediction_after_a_fit_needs_no_new_kernel():
    # prediction runs kernels the fit already compiled, with the fit's argument types: in
    # a process whose cache is empty, the first predict compiles nothing (the dispatchers'
    # signatures count what was compiled and what was loaded from the disk cache alike, so
    # the check holds whatever the cache holds, and the suite does not compile it all again)
    last = _run(
        """
        from skstruct import Eisner, StructuredPerceptron
        from skstruct.compilation import _chain_data, _tree_data

        X, _, y = _chain_data(30, seed=2)
        trees, heads = _tree_data(20, seed=2)
        chain = StructuredPerceptron(random_state=0).fit(X, y)
        parser = StructuredPerceptron(Eisner(), random_state=0).fit(trees, heads)
        before = signatures()
        chain.predict(X)
        parser.predict(trees)
        print(sorted(signatures() - before))
        """
    )
    assert last == "[]"


def test_warmup_reports_each_family_and_refuses_unknown_ones():
    seconds = warmup(["chains", "chains"])
    assert list(seconds) == ["chains"] and seconds["chains"] >= 0
    with pytest.raises(ValueError, match="Unknown kernel families \\['chain'\\]"):
        warmup("chain")
    with pytest.raises(ValueError, match="choose from"):
        warmup([])
    thread = warmup("parsers", background=True)
    assert isinstance(thread, threading.Thread)
    thread.join()
    assert set(FAMILIES) == {"chains", "crf", "svm", "parsers"}
    assert skstruct.warmup is warmup


def test_cli_warmup_says_where_kernels_are_kept(capsys):
    from skstruct.cli import main

    assert main(["warmup", "chains"]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == cache_summary()
    assert "chains:" in captured.err
    assert main(["warmup", "nonsense"]) == 2


def test_binary_and_real_valued_features_reach_the_kernels_as_one_type():
    # numba compiles a kernel once per argument types, read-only arrays included: binary
    # features (no stored values) and real-valued ones must not double a process's kernels
    import numba
    import numpy as np

    from skstruct.features import TokenDictEncoder

    binary = TokenDictEncoder().fit_transform([[{"w": "a"}, {"w": "b", "title": True}]])
    real = TokenDictEncoder().fit_transform([[{"w": "a", "len": 1.5}, {"w": "b"}]])
    assert binary.data.size == 0 and real.data.size > 0
    for field in binary._fields[:-1]:
        assert numba.typeof(getattr(binary, field)) == numba.typeof(getattr(real, field)), field
    assert numba.typeof(binary.data) == numba.typeof(np.zeros(1))


def test_shards_that_arrive_read_only_train_on_writable_copies():
    # ray's object store and joblib's memory maps give workers read-only arrays, for
    # which numba would compile every kernel of an epoch a second time
    import numba
    import numpy as np

    from skstruct.features import TokenDictEncoder
    from skstruct.learners import _shard_cache

    encoded = TokenDictEncoder().fit_transform([[{"w": "a", "len": 1.5}, {"w": "b"}]])
    labels = np.zeros(encoded.n_tokens, dtype=np.int32)
    frozen = []
    for array in (*encoded[:-1], labels):
        view = array.view()
        view.flags.writeable = False
        frozen.append(view)
    sent = (type(encoded)(*frozen[:-1], encoded.n_features), frozen[-1])
    kept = _shard_cache.shard(_shard_cache.ShardRef("read-only-test", 0, sent))
    _shard_cache.forget("read-only-test")
    assert type(kept[0]) is type(encoded) and kept[0].n_features == encoded.n_features
    for got, want in zip((*kept[0][:-1], kept[1]), (*encoded[:-1], labels)):
        assert got.flags.writeable
        assert numba.typeof(got) == numba.typeof(want)
        np.testing.assert_array_equal(got, want)


def test_kernels_call_kernels_with_typed_flags_not_literals():
    # a Python constant passed from one kernel to another is typed as a literal
    # (Literal[int](0)), and the callee compiled a copy for it beside the one that calls
    # from Python get: after fits and predictions of every family (k-best lists and
    # constituency trees included), no kernel of any module has a literal signature but
    # those kept on purpose: k-best Eisner's order, a copy per order (1 or 2) of its
    # helpers
    last = _run(
        """
        import json
        import re

        from skstruct import (CKY, ArcEager, BeamSearch, Eisner, ExponentiatedGradientSSVM,
                              StructuredPerceptron, StructuredSVM)
        from skstruct.compilation import _chain_data, _tree_data
        from skstruct.trees import Tree

        X, _, y = _chain_data(6)
        StructuredPerceptron(BeamSearch(2), update="max_violation", max_iter=1).fit(X, y)
        chain = StructuredPerceptron(max_iter=1).fit(X, y)
        chain.predict(X), chain.predict_nbest(X, k=3)
        StructuredSVM(max_iter=1).fit(X, y)
        ExponentiatedGradientSSVM(max_iter=1).fit(X, y)
        trees, labelled = _tree_data(4)
        heads = [[head for head, _ in sentence] for sentence in labelled]
        StructuredSVM(Eisner(), max_iter=1).fit(trees, heads)
        ExponentiatedGradientSSVM(Eisner(), max_iter=1).fit(trees, heads)
        parser = StructuredPerceptron(Eisner(), max_iter=1).fit(trees, heads)
        parser.predict_nbest(trees, k=3)
        StructuredPerceptron(Eisner(order=2), max_iter=1).fit(trees, heads).predict_nbest(
            trees, k=3)
        StructuredPerceptron(ArcEager(beam_size=2), update="max_violation", max_iter=1).fit(
            trees, heads).predict(trees)
        bracketed = ["( (S (NP (DT a) (NN b)) (VP (VB c) (NP (NN d)))) )",
                     "( (S (NP (NN d)) (VP (VB c) (NP (DT a) (NN b)))) )"]
        parses = [Tree.fromstring(text) for text in bracketed]
        words = [tree.pos() for tree in parses]
        cky = StructuredPerceptron(CKY(), max_iter=1).fit(words, parses)
        cky.predict(words), cky.predict_nbest(words, k=3)
        ExponentiatedGradientSSVM(CKY(), online=False, max_iter=1, tol=None).fit(words, parses)
        literal = {}
        for module, name, signature in signatures():
            for value in re.findall(r"Literal\\[\\w+\\]\\([^)]*\\)", signature):
                literal.setdefault(f"{module}.{name}", []).append(value)
        print(json.dumps([len(signatures()), literal]))
        """
    )
    n_signatures, literal = json.loads(last)
    # a floor that the fits reached the kernels: 100 signatures from a warm cache (where
    # callees loaded with their caller keep none), more on a cold one
    assert n_signatures > 80, n_signatures
    orders = {"Literal[int](1)", "Literal[int](2)"}
    for name in ("kbest_tree._kbest", "kbest_tree._merge", "kbest_tree._children",
                 "kbest_tree._incomplete_edges"):  # fmt: skip
        values = literal.pop(name, [])
        assert len(values) <= 2 and set(values) <= orders, (name, values)
    assert literal == {}
