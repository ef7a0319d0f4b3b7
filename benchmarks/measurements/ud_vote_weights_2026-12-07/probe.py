"""Dev probe (issue 36): the votes of the UD pipeline's seven parsers, and the decoder
that reparses them, chosen on English-EWT dev with gold annotation.

Trains the pipeline's parser stage (``UDPipeline._stage("trees")``: seven parsers
voting, then the relation labeller) once on the gold annotation of train, with the
fields of the corpora the command line reads (Brown, CoNLL-2000), as
``benchmarks/bench_ud_pipeline.py`` trains its gold-annotation parser. Each voter's
dev trees are kept; every configuration of the grid below reparses them
(``VotingParser.reparse``, ties to the first parser as ``predict`` breaks them) and the
labeller labels the trees, scored by the CoNLL 2018 definitions (every word).

The rule, fixed before the run: the configuration with the best dev LAS (then UAS) is
chosen; where it is the default (every vote 1, Eisner), nothing changes. The test split
is then scored for the default and the chosen configuration only.

Run: ``python probe.py`` (``SKSTRUCT_DATA`` set; about 20 minutes on 2 cores).
"""

import itertools
import os
import time

import numpy as np

from skstruct import ChuLiuEdmonds, Eisner, UDPipeline
from skstruct.datasets import fetch_ud
from skstruct.metrics import conll18_scores


def main():
    train = fetch_ud("en_ewt", "train").data
    dev = fetch_ud("en_ewt", "dev").data
    test = fetch_ud("en_ewt", "test").data
    if os.environ.get("PROBE_N"):  # a dry run on the first sentences of each split
        n = int(os.environ["PROBE_N"])
        train, dev, test = train[:n], dev[: n // 4], test[: n // 4]
    ud = UDPipeline(corpora=["brown", "conll2000"], n_jobs=2, random_state=0)
    start = time.perf_counter()
    ud.corpora_ = [corpus.fit(train) for corpus in ud._corpora()]
    stage = ud._stage("trees", xpos=True)
    stage.fit(ud._with_corpora(train))
    print(f"parser stage trained on gold annotation in {time.perf_counter() - start:.1f} s",
          flush=True)  # fmt: skip
    voting = stage.parser_
    names = list(voting.named_parsers_)
    print("voters:", names, flush=True)

    def voter_trees(sentences):
        X = ud._with_corpora(sentences)
        return X, [parser.predict(X) for parser in voting.parsers_]

    def score(X, trees, gold, votes, decoder):
        votes = np.asarray(votes, dtype=float).copy()
        votes[0] += 1e-6 * votes.min()  # ties go to the first parser, as predict does
        heads = [voting.reparse(decoder, votes, [t[i] for t in trees]) for i in range(len(X))]
        parsed = [[{**token, "head": int(h), "deprel": None} for token, h in zip(s, hs)]
                  for s, hs in zip(X, heads)]  # fmt: skip
        scores = conll18_scores(gold, stage.relations_.transform(parsed))
        return tuple(round(100 * scores[m].f1, 2) for m in ("UAS", "LAS", "CLAS"))

    X_dev, dev_trees = voter_trees(dev)
    for name, trees in zip(names, dev_trees):
        right = sum(int(p) == t["head"] for s, ps in zip(dev, trees) for t, p in zip(s, ps))
        print(f"  {name}: dev UAS {100 * right / sum(map(len, dev)):.2f} (alone)")
    default = ((1.0,) * len(names), "Eisner")
    decoders = {"Eisner": Eisner(), "ChuLiuEdmonds": ChuLiuEdmonds()}
    right_to_left = [i for i, n in enumerate(names) if n.endswith("right_to_left")]
    results = {}
    for g, p, r, dec in itertools.product((1.0, 1.5, 2.0), (1.0, 1.5), (1.0, 0.75),
                                          decoders):  # fmt: skip
        votes = np.ones(len(names))
        votes[names.index("graph")] = g
        votes[names.index("graph_perceptron")] = p
        votes[right_to_left] = r
        key = (tuple(votes.tolist()), dec)
        results[key] = score(X_dev, dev_trees, dev, votes, decoders[dec])
        print(f"votes {dict(zip(names, votes.tolist()))} {dec}: dev UAS / LAS / CLAS "
              f"{results[key]}", flush=True)  # fmt: skip
    chosen = max(results, key=lambda k: (results[k][1], results[k][0], k == default))
    print(f"\ndefault {default}: dev {results[default]}")
    print(f"chosen {chosen}: dev {results[chosen]}", flush=True)
    X_test, test_trees = voter_trees(test)
    for label, (votes, dec) in {"default": default, "chosen": chosen}.items():
        print(f"{label} test UAS / LAS / CLAS: "
              f"{score(X_test, test_trees, test, votes, decoders[dec])}")  # fmt: skip


if __name__ == "__main__":
    main()
