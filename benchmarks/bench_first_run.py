"""The first run against the tenth: skstruct on an empty numba cache, beside CRFsuite.

For each family (the issue-33 table): ``perceptron`` (``StructuredPerceptron()``
defaults, CoNLL-2000 with the sklearn-crfsuite tutorial's token dicts), ``crf``
(``crfsuite.CRF(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=100)``, the
tutorial's settings, on the same dicts; ``crf-es``: the same on the tutorial's own
corpus, CoNLL-2002 Spanish NER), ``svm`` (``StructuredSVM()`` defaults, the
same dicts) and ``parser`` (``StructuredPerceptron(Eisner())``, the PTB sample, first
order), each step in processes of its own, timed inside them:

* ``cold``: a fresh ``NUMBA_CACHE_DIR``; the import of the model's classes (skstruct
  imports a module when it is first used), the first fit, the first predict after it (on
  the test set), then a second fit and predict in the same process (``warm``).
* ``saved``: a new process on that cache loads the model saved by ``cold`` and predicts
  the test set; the process's wall time from start to predictions, import included.
* ``warmed``: another fresh cache, ``skstruct warmup <family>`` run first (timed), then
  a new process's first fit.

The reference is CRFsuite through sklearn-crfsuite (``algorithm="ap"``, 10 iterations,
for the perceptron and the SVM; the tutorial's lbfgs for the CRF), fitted on the same
dicts in a process of its own, twice (its second fit is reported too). Printed: every
time, the ratios the targets name (skstruct / CRFsuite), and the import and first fit
together against CRFsuite's import and fit (numba sets itself up in whichever comes
first: the time moves between the two, the user waits for both).

Every timed step starts after a full garbage collection (see ``_timed``), for both
libraries.

Run: ``python benchmarks/bench_first_run.py [--families perceptron crf svm parser]``
The corpora come from ``$SKSTRUCT_DATA`` or ``~/skstruct_data``.
"""

import argparse
import gc
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time

FAMILIES = ("perceptron", "crf", "svm", "parser", "crf-es")

#: The warmup family that covers each benchmark family.
WARMUP = {"perceptron": "chains", "crf": "crf", "svm": "svm", "parser": "parsers", "crf-es": "crf"}


def _data(family):
    """(X, y, X_test, y_test) of a family."""
    if family == "crf-es":  # the sklearn-crfsuite tutorial itself: CoNLL-2002 Spanish NER
        from skstruct.datasets import fetch_conll2002
        from skstruct.features import crfsuite_tutorial_features

        train, test = fetch_conll2002("es", "train"), fetch_conll2002("es", "testb")
        return (crfsuite_tutorial_features(train.data), train.target,
                crfsuite_tutorial_features(test.data), test.target)  # fmt: skip
    if family == "parser":
        from skstruct.datasets import fetch_ptb_sample

        X, y = fetch_ptb_sample("train", return_X_y=True)
        X_test, y_test = fetch_ptb_sample("test", return_X_y=True)
        return X, y, X_test, y_test
    from skstruct.datasets import fetch_conll2000
    from skstruct.features import crfsuite_tutorial_features

    train, test = fetch_conll2000("train"), fetch_conll2000("test")
    return (crfsuite_tutorial_features(train.data), train.target,
            crfsuite_tutorial_features(test.data), test.target)  # fmt: skip


def _model(family):
    import skstruct
    from skstruct import crfsuite

    if family == "perceptron":
        return skstruct.StructuredPerceptron(random_state=0)
    if family in ("crf", "crf-es"):
        return crfsuite.CRF(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=100)
    if family == "svm":
        return skstruct.StructuredSVM(random_state=0)
    return skstruct.StructuredPerceptron(skstruct.Eisner(), random_state=0)


def _timed(call):
    # a full garbage collection first: with the corpus's millions of token dicts alive,
    # one costs about 0.3 s, and whichever timed step happened to trigger it (a
    # prediction, for CRFsuite too) would carry it
    gc.collect()
    start = time.perf_counter()
    out = call()
    return out, time.perf_counter() - start


def child_cold(family, model_path):
    """First fit and predict, then the same again (warm); saves the model."""
    # skstruct imports its modules when first used: "import" is that of the model's
    # classes (as CRFsuite's is not in its fit either), so that the fit times the fit
    model, import_s = _timed(lambda: _model(family))
    (X, y, X_test, _), data_s = _timed(lambda: _data(family))
    _, fit_s = _timed(lambda: model.fit(X, y))
    _, predict_s = _timed(lambda: model.predict(X_test))
    import skstruct

    skstruct.save(model, model_path)
    again = _model(family)
    _, warm_fit_s = _timed(lambda: again.fit(X, y))
    _, warm_predict_s = _timed(lambda: again.predict(X_test))
    return {"import": import_s, "data": data_s, "fit": fit_s, "predict": predict_s,
            "warm_fit": warm_fit_s, "warm_predict": warm_predict_s}  # fmt: skip


def child_saved(family, model_path, started):
    """A saved model's predictions in a new process: seconds since ``started`` (the
    parent's clock before it started this process), less the time reading the data."""
    import skstruct

    model = skstruct.load(model_path)
    X_test, data_s = _timed(lambda: _data(family)[2])
    _, predict_s = _timed(lambda: model.predict(X_test))
    return {"process_to_predictions": time.time() - started - data_s, "predict": predict_s,
            "data": data_s}  # fmt: skip


def child_fit(family):
    """One fit (after ``skstruct warmup``)."""
    X, y, _, _ = _data(family)
    model = _model(family)
    _, fit_s = _timed(lambda: model.fit(X, y))
    return {"fit": fit_s}


def child_crfsuite(family):
    """sklearn-crfsuite on the same dicts, fitted twice (and its import timed, first
    thing in the process, as skstruct's is)."""
    sklearn_crfsuite, import_s = _timed(lambda: importlib.import_module("sklearn_crfsuite"))
    X, y, X_test, _ = _data(family)
    settings = {"algorithm": "lbfgs", "c1": 0.1, "c2": 0.1, "max_iterations": 100}
    if family not in ("crf", "crf-es"):
        settings = {"algorithm": "ap", "max_iterations": 10}
    out = {"import": import_s}
    for run in ("", "second_"):
        crf = sklearn_crfsuite.CRF(**settings)
        _, out[run + "fit"] = _timed(lambda: crf.fit(X, y))  # noqa: B023 (called at once)
        _, out[run + "predict"] = _timed(lambda: crf.predict(X_test))  # noqa: B023
    return out


def _child(args, cache, *extra):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    done = subprocess.run([sys.executable, __file__, "--child", *args, *extra], env=env,
                          capture_output=True, text=True)  # fmt: skip
    if done.returncode:
        raise RuntimeError(f"{args}: {done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_family(family, work):
    cold_cache = os.path.join(work, f"{family}-cold")
    model_path = os.path.join(work, f"{family}.npz")
    row = {"cold": _child(["cold", family, model_path], cold_cache)}
    row["saved"] = _child(["saved", family, model_path, repr(time.time())], cold_cache)
    warm_cache = os.path.join(work, f"{family}-warmup")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "skstruct.cli", "warmup", "-q", WARMUP[family]],
                   env=dict(os.environ, NUMBA_CACHE_DIR=warm_cache), check=True,
                   capture_output=True)  # fmt: skip
    row["warmup_s"] = time.perf_counter() - start
    row["warmed"] = _child(["fit", family], warm_cache)
    if family != "parser":
        row["crfsuite"] = _child(["crfsuite", family], cold_cache)
    return row


def report(family, row):
    cold, saved, warmed = row["cold"], row["saved"], row["warmed"]
    print(f"\n== {family}")
    print(f"skstruct, empty cache: import {cold['import']:.2f} s, data {cold['data']:.2f} s, "
          f"first fit {cold['fit']:.2f} s, first predict {cold['predict']:.3f} s; warm fit "
          f"{cold['warm_fit']:.2f} s, warm predict {cold['warm_predict']:.3f} s")  # fmt: skip
    print(f"saved model, new process: start to predictions {saved['process_to_predictions']:.2f}"
          f" s (predict {saved['predict']:.3f} s; reading the data, {saved['data']:.2f} s, "
          f"left out)")  # fmt: skip
    print(f"after skstruct warmup ({row['warmup_s']:.1f} s): first fit {warmed['fit']:.2f} s = "
          f"{warmed['fit'] / cold['warm_fit']:.2f}x the warm fit")  # fmt: skip
    if "crfsuite" in row:
        ref = row["crfsuite"]
        print(f"CRFsuite: fit {ref['fit']:.2f} s (second {ref['second_fit']:.2f} s), "
              f"predict {ref['predict']:.3f} s")  # fmt: skip
        # where numba sets itself up (at import, or in the first fit) moves time between
        # the two; the user waits for both
        first, ref_first = cold["import"] + cold["fit"], ref["import"] + ref["fit"]
        print(f"import + first fit: {first:.2f} s against CRFsuite's {ref_first:.2f} s "
              f"({first / ref_first:.2f}x)")  # fmt: skip
        print(f"ratios: first fit {cold['fit'] / ref['fit']:.2f}x, first predict "
              f"{cold['predict'] / ref['predict']:.2f}x, warm fit "
              f"{cold['warm_fit'] / ref['second_fit']:.2f}x CRFsuite's")  # fmt: skip


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        kind, family, *rest = sys.argv[2:]
        if kind == "saved":
            out = child_saved(family, rest[0], float(rest[1]))
        else:
            child = {"cold": child_cold, "fit": child_fit, "crfsuite": child_crfsuite}[kind]
            out = child(family, *rest)
        print(json.dumps(out))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--families", nargs="+", choices=FAMILIES, default=list(FAMILIES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        for family in args.families:
            row = run_family(family, work)
            report(family, row)
            print(json.dumps({family: row}))


if __name__ == "__main__":
    main()
