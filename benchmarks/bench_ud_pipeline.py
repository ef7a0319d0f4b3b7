"""Issue 36: the whole UD pipeline (``UDPipeline``: UPOS, XPOS, FEATS, LEMMA, HEAD,
DEPREL from the forms) on UD English-EWT 2.5, scored by ``conll18_scores`` (the CoNLL
2018 shared task's definitions, gold tokenization), and its parser stage on gold tags,
features and lemmas.

Prints, for dev (and test with ``--test``): every CoNLL 2018 figure of the pipeline run
on the bare forms; the training time (``n_jobs=2``); the time to annotate the split; the
model file's size; the process's peak resident memory after training; and UAS/LAS of
``PredictedTrees`` trained and run on the gold annotation. UDPipe 1's published UD 2.5
model, on test: UPOS 94.4, XPOS 93.9, UFeats 95.4, AllTags 92.5, Lemmas 96.4, UAS/LAS
84.4/81.1 (predicted tags), 88.1/86.2 (gold).

Run: ``python benchmarks/bench_ud_pipeline.py [--order 1|2] [--epochs N] [--test]
[--corpora brown,conll2000|none] [--treebank conll2007-es] [--cv K|none]`` (the Spanish CoNLL-X
treebank: its test split, scored with the same definitions, every word included).
"""

import argparse
import os
import resource
import tempfile
import time

from sklearn.base import clone

from skstruct import PredictedTrees, UDPipeline, save
from skstruct.datasets import fetch_conll2007, fetch_ud
from skstruct.metrics import conll18_scores

FILLED = ("upos", "xpos", "feats", "lemma", "head", "deprel")
METRICS = ("UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX")


def bare(sentences):
    """The sentences as raw text gives them: forms, ids and MISC, nothing to predict."""
    return [[{k: v for k, v in t.items() if k not in FILLED} for t in s] for s in sentences]


def timed(call):
    start = time.perf_counter()
    out = call()
    return out, time.perf_counter() - start


def figures(gold, predicted, names=METRICS):
    scores = conll18_scores(gold, predicted)
    return "  ".join(f"{name} {100 * scores[name].f1:.2f}" for name in names)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--order", type=int, default=None, help="parser order (default: its)")
    parser.add_argument(
        "--epochs", type=int, default=None, help="of every stage (default: each its own)"
    )
    parser.add_argument("--test", action="store_true", help="score the test split too")
    parser.add_argument("--skip-gold", action="store_true", help="no gold-annotation parser")
    parser.add_argument(
        "--treebank",
        choices=("en_ewt", "conll2007-es"),
        default="en_ewt",
        help="conll2007-es: the CoNLL-X Spanish treebank (train and test only), as a second "
        "language with the settings chosen on English",
    )
    parser.add_argument(
        "--corpora",
        default=None,
        help="tagged corpora whose word tags the tagger reads, comma-separated, or 'none' "
        "(default, as the command line's: brown,conll2000 on English, none on Spanish)",
    )
    parser.add_argument(
        "--cv",
        type=lambda v: v if v in ("auto", "none") else int(v),
        default="auto",
        help="the parser learns from tags cross-fitted by this many folds, or from the "
        "tagger's own output with 'none' (UDPipeline's cv; default: its 'auto', five folds)",
    )
    args = parser.parse_args()
    if args.corpora is None:
        args.corpora = "brown,conll2000" if args.treebank == "en_ewt" else "none"
    corpora = [] if args.corpora == "none" else args.corpora.split(",")
    if args.treebank == "en_ewt":
        train = fetch_ud("en_ewt", "train").data
        splits = {"dev": fetch_ud("en_ewt", "dev").data}
        if args.test:
            splits["test"] = fetch_ud("en_ewt", "test").data
    else:
        train = fetch_conll2007("es", "train", labelled=True).data
        splits = {"test": fetch_conll2007("es", "test", labelled=True).data}
    trees = {} if args.order is None else {"order": args.order}
    print(f"{args.treebank}: {len(train)} training sentences, epochs {args.epochs or 'default'}, "
          f"parser {trees or 'default'}, corpora {corpora or 'none'}, cv {args.cv}",
          flush=True)  # fmt: skip

    def make_trees():
        if not trees:
            return None
        return PredictedTrees(**trees, max_iter=args.epochs or 10, random_state=0)

    ud, seconds = timed(
        lambda: UDPipeline(
            trees=make_trees(),
            corpora=corpora,
            cv=None if args.cv == "none" else args.cv,
            max_iter=args.epochs,
            n_jobs=2,
            random_state=0,
        ).fit(train)
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(f"pipeline: trained in {seconds:.1f} s (n_jobs=2); peak resident memory so far "
          f"{peak / 2**10:.0f} MiB", flush=True)  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "ud.npz")
        save(ud, path)
        print(f"pipeline: model file {os.path.getsize(path) / 2**20:.1f} MiB", flush=True)
    for name, gold in splits.items():
        predicted, seconds = timed(lambda gold=gold: ud.transform(bare(gold)))
        print(f"pipeline {name} ({len(gold)} sentences, annotated in {seconds:.1f} s): "
              f"{figures(gold, predicted)}", flush=True)  # fmt: skip
    if args.skip_gold:
        return

    def with_corpora(sentences):
        """The sentences with the corpora's fields, which the pipeline's parser reads."""
        for corpus in ud.corpora_:
            sentences = corpus.transform(sentences)
        return sentences

    gold_trees, seconds = timed(lambda: clone(ud.stages_["trees"]).fit(with_corpora(train)))
    print(f"parser on gold tags, features and lemmas: trained in {seconds:.1f} s", flush=True)
    for name, gold in splits.items():
        parsed = gold_trees.transform(with_corpora(gold))
        print(f"gold annotation {name}: {figures(gold, parsed, ('UAS', 'LAS', 'CLAS'))}",
              flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
