"""``--task ud``: a whole Universal Dependencies pipeline (UPOS, XPOS, FEATS, LEMMA,
HEAD, DEPREL from the forms), trained on a CoNLL-U treebank, written back whole."""

import time

from .. import PredictedTrees, UDPipeline, save
from ..corpus_tags import SOURCES, CorpusTags
from ..metrics import conll18_scores
from ..morphology import feats_label
from ._common import CLI_SETTINGS_VERSION, CommandError, UsageError, describe, info
from ._documents import TreebankDocument, detect_format, format_mismatch, read_text_of

#: What ``--task ud`` reads and writes.
FORMAT = "conllu"
#: The options of ``train`` that --task ud has no use for, with their defaults.
NOT_APPLICABLE = {
    "--label-column": ("label_column", None),
    "--label": ("label", None),
    "--token-columns": ("token_columns", None),
    "--features": ("features", "auto"),
    "--labelled/--unlabelled": ("labelled", None),
    "--algorithm": ("algorithm", "perceptron"),
    "--decoder": ("decoder", None),
    "--beam-size": ("beam_size", None),
    "--projectivize": ("projectivize", False),
    "--n-features": ("n_features", None),
    "--update": ("update", None),
    "--substructures": ("substructures", None),
    "--gamma": ("gamma", None),
    "--mode": ("mode", None),
    "--C": ("C", None),
    "--learning-rate": ("learning_rate", None),
    "--tol": ("tol", None),
    "--early-stopping": ("early_stopping", None),
    "--no-average": ("no_average", False),
}
#: The tagged corpora the tagger reads unless ``--corpora`` says otherwise: on English-EWT
#: dev they raised UPOS/XPOS from 94.77/94.39 to 95.15/94.79 (see UDPipeline's corpora).
#: They are English: by default they are read only where CoNLL-2000's words cover
#: ``MIN_COVERAGE`` of the training words (English-EWT train: 0.89; Spanish Cast3LB: 0.36).
DEFAULT_CORPORA = ("brown", "conll2000")
MIN_COVERAGE = 0.5
#: The CoNLL 2018 figures ``evaluate`` prints, in order.
METRICS = ("UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX")


def check_options(args):
    """Refuse the options that --task ud has no use for: it trains a fixed pipeline."""
    for option, (name, default) in NOT_APPLICABLE.items():
        if getattr(args, name) != default:
            raise UsageError(
                f"{option} does not apply to --task ud (it trains a fixed pipeline: "
                f"--max-iter, --order, --corpora, --n-jobs and --random-state set it)"
            )
    if args.format == "conll":
        raise UsageError("--task ud reads CoNLL-U files: --format conllu")
    if args.order == 0:
        raise UsageError("--task ud: --order is the parser's, 1 or 2")
    corpora(args)


def corpora(args):
    """The corpus names of ``--corpora``; None where not given (see default_corpora)."""
    if args.corpora is None:
        return None
    names = [name.strip() for name in args.corpora.split(",")]
    if names == ["none"]:
        return []
    unknown = [name for name in names if name not in SOURCES]
    if unknown or len(set(names)) < len(names):
        raise UsageError(
            f"--corpora {args.corpora}: give distinct names from {', '.join(sorted(SOURCES))}, "
            f"comma-separated, or 'none'"
        )
    return names


def default_corpora(args, X):
    """``DEFAULT_CORPORA`` where the treebank ``X`` looks English (CoNLL-2000 has
    ``MIN_COVERAGE`` of its words), else none; none where they cannot be read."""
    try:
        share = CorpusTags("conll2000").fit([]).coverage(X)
    except (OSError, ValueError) as exc:
        info(args, f"Tagged corpora: none (CoNLL-2000 could not be read: {exc})")
        return []
    if share < MIN_COVERAGE:
        info(args, f"Tagged corpora: none (CoNLL-2000 has {share:.0%} of the training words: "
                   f"not English?)")  # fmt: skip
        return []
    info(args, f"Tagged corpora: {', '.join(DEFAULT_CORPORA)} (CoNLL-2000 has {share:.0%} of "
               f"the training words)")  # fmt: skip
    return list(DEFAULT_CORPORA)


def train(args):
    """Train a :class:`~skstruct.UDPipeline` on ``--train``; report ``--dev``; save."""
    trees = None
    if args.order is not None:
        trees = PredictedTrees(order=args.order, max_iter=args.max_iter or 10,
                               random_state=args.random_state)  # fmt: skip
    model = UDPipeline(trees=trees, corpora=corpora(args), max_iter=args.max_iter,
                       n_jobs=args.n_jobs, random_state=args.random_state)  # fmt: skip
    try:
        for estimator in (model, trees):
            if estimator is not None:
                estimator._validate_params()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    X = read(args.train, args.encoding).X
    info(args, f"Read {describe(args.train, X)}")
    if model.corpora is None:
        model.set_params(corpora=default_corpora(args, X))
    info(args, f"Training {' '.join(repr(model).split())}")
    start = time.perf_counter()
    try:
        model.fit(X)
    except ValueError as exc:
        raise CommandError(f"{args.train}: {exc}") from None
    seconds = time.perf_counter() - start
    save(model, args.model, metadata={"cli": settings()})
    print(f"Saved {args.model}: a UD pipeline trained on {len(X)} sentences in {seconds:.1f} s")
    if args.dev:
        dev = read(args.dev, args.encoding).X
        print("\n".join(report_lines(model, dev, args.dev)))
    return 0


def settings():
    """The settings ``train`` saves with a pipeline."""
    return {"version": CLI_SETTINGS_VERSION, "task": "ud", "format": FORMAT}


def read(path, encoding, unparsed=False):
    """The CoNLL-U document of ``path`` (``unparsed``: empty HEADs allowed)."""
    text = read_text_of(path, encoding)
    found = detect_format(path, text)
    if found != FORMAT:
        raise format_mismatch(path, found, FORMAT)
    return TreebankDocument(path, text, unparsed=unparsed)


def predict(args, model):
    """Write ``args.file`` back with every predicted column filled."""
    doc = read(args.file, args.encoding, unparsed=True)
    start = time.perf_counter()
    annotated = model.transform(doc.X)
    seconds = time.perf_counter() - start
    for name in ("lemma", "upos", "xpos"):
        if doc.has(name):
            doc.set_column(name, [[t[name] or "_" for t in s] for s in annotated])
    if doc.has("feats"):
        doc.set_column("feats", [[feats_label(t["feats"]) for t in s] for s in annotated])
    doc.set_trees([[(t["head"], t["deprel"]) for t in s] for s in annotated])
    info(args, f"Annotated {describe(args.file, doc.X)} in {seconds:.1f} s")
    return doc.lines


def report_lines(model, X, path):
    """The CoNLL 2018 scores of the pipeline on the annotated sentences ``X``."""
    start = time.perf_counter()
    predicted = model.transform(X)
    seconds = time.perf_counter() - start
    scores = conll18_scores(X, predicted)
    figures = "  ".join(f"{name} {100 * scores[name].f1:.2f}" for name in METRICS)
    return [
        f"Data: {describe(path, X)}; annotated in {seconds:.1f} s from the forms alone",
        f"CoNLL 2018 scores (gold tokenization): {figures}",
    ]
