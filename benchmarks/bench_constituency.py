"""Constituency parsing on the treebank sample (issue 35): the generative baseline (a
markovised treebank PCFG, ``skstruct.PCFG``) against the discriminative parser
(``StructuredPerceptron(CKY())``: anchored rules with hashed span features, pruned by
the PCFG's max-marginals).

Settings are chosen on dev (the PCFG's markovisation; the parser's grammar), then the
test split is scored once by EVALB (COLLINS.prm): with gold tags as input, and with
the tags of our own tagger (``StructuredPerceptron(features=TokenFeatures())``, Viterbi,
trained on the same training sentences) as a second row. The chosen parser is fitted
once more without a dev set, for the training time.

Run: ``python benchmarks/bench_constituency.py``; the corpus comes from
``fetch_treebank`` (``$SKSTRUCT_DATA`` or ``~/skstruct_data``).
"""

import time

from skstruct import CKY, PCFG, StructuredPerceptron, TokenFeatures
from skstruct.datasets import fetch_treebank
from skstruct.metrics import evalb

#: Markovisations of the PCFG tried on dev: (horizontal, vertical).
PCFG_GRID = [(0, 2), (1, 1), (2, 1), (1, 2), (2, 2), (1, 3), (2, 3)]
#: Grammars of the discriminative parser tried on dev.
CKY_GRID = [(0, 1), (1, 1)]


def _row(name, gold, predicted, extra=""):
    everything, short = evalb(gold, predicted), evalb(gold, predicted, max_length=40)
    print(
        f"{name:<34} F1 {everything.f1:6.2f} (P {everything.precision:6.2f}, R "
        f"{everything.recall:6.2f})  <=40 {short.f1:6.2f}  complete "
        f"{everything.complete_match:6.2f}  tags {everything.tagging_accuracy:6.2f}{extra}",
        flush=True,
    )
    return everything


def _timed_predict(model, X):
    model.predict(X[:2])  # kernels compiled (or loaded) before timing
    start = time.perf_counter()
    predicted = model.predict(X)
    return predicted, time.perf_counter() - start


def main():
    X, y = fetch_treebank("train", return_X_y=True)
    X_dev, y_dev = fetch_treebank("dev", return_X_y=True)
    X_test, y_test = fetch_treebank("test", return_X_y=True)

    print("PCFG on dev:")
    print(f"{'h':>4} {'v':>2} {'symbols':>8} {'rules':>6} {'dev F1':>7} {'unparsed':>8}")
    best = None
    for horizontal, vertical in PCFG_GRID:
        model = PCFG(horizontal, vertical).fit(X, y)
        scores = evalb(y_dev, model.predict(X_dev))
        rules = len(model.grammar_.binary) + len(model.grammar_.unary)
        print(f"{horizontal!s:>4} {vertical:>2} {model.grammar_.n_symbols:>8} {rules:>6} "
              f"{scores.f1:7.2f} {model.n_unparsed_:>8}", flush=True)  # fmt: skip
        if best is None or scores.f1 > best[0]:
            best = (scores.f1, horizontal, vertical)
    _, horizontal, vertical = best
    start = time.perf_counter()
    pcfg = PCFG(horizontal, vertical).fit(X, y)
    pcfg_fit = time.perf_counter() - start

    print("\nStructuredPerceptron(CKY(h, v)), 10 epochs, dev F1 after each epoch:")
    best = None
    for horizontal, vertical in CKY_GRID:
        decoder = CKY(horizontal=horizontal, vertical=vertical)
        model = StructuredPerceptron(decoder, random_state=0)
        model.fit(X, y, X_dev=X_dev, y_dev=y_dev)
        curve = [round(100 * record["dev_score"], 2) for record in model.history_]
        epochs = sum(record["seconds"] for record in model.history_)
        print(f"h={horizontal} v={vertical}: {curve} (epochs {epochs:.0f} s)", flush=True)
        if best is None or curve[-1] > best[0]:
            best = (curve[-1], horizontal, vertical)
    _, horizontal, vertical = best
    start = time.perf_counter()
    parser = StructuredPerceptron(CKY(horizontal=horizontal, vertical=vertical), random_state=0)
    parser.fit(X, y)
    parser_fit = time.perf_counter() - start

    words = [[token["form"] for token in sentence] for sentence in X]
    tags = [[token["xpos"] for token in sentence] for sentence in X]
    tagger = StructuredPerceptron(features=TokenFeatures(), random_state=0).fit(words, tags)
    test_words = [[token["form"] for token in sentence] for sentence in X_test]
    X_tagged = [
        [{"form": t["form"], "xpos": tag} for t, tag in zip(sentence, predicted)]
        for sentence, predicted in zip(X_test, tagger.predict(test_words))
    ]

    print(f"\nTest ({len(X_test)} sentences), scored once:")
    predicted, seconds = _timed_predict(pcfg, X_test)
    baseline = _row(f"PCFG h={pcfg.horizontal} v={pcfg.vertical}, gold tags", y_test, predicted,
                    f"  fit {pcfg_fit:.1f} s, parse {seconds:.1f} s")  # fmt: skip
    predicted, seconds = _timed_predict(parser, X_test)
    ours = _row(f"Perceptron+CKY h={horizontal} v={vertical}, gold tags", y_test, predicted,
                f"  fit {parser_fit:.0f} s, parse {seconds:.1f} s")  # fmt: skip
    _row("PCFG, predicted tags", y_test, pcfg.predict(X_tagged))
    _row("Perceptron+CKY, predicted tags", y_test, parser.predict(X_tagged))
    print(f"\nF1 over the baseline: {ours.f1 - baseline.f1:+.2f} (target: >= 80 and >= +5)")


if __name__ == "__main__":
    main()
