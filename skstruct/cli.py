"""The ``skstruct`` command: train, apply and evaluate sequence labellers and dependency
parsers on CoNLL files.

Examples::

    skstruct train --task chunk --train train.txt --dev dev.txt --model chunker.npz
    skstruct predict --model chunker.npz test.txt --output predicted.txt
    skstruct evaluate --model chunker.npz test.txt
    skstruct train --task parse --train train.conllu --model parser.npz
    skstruct demo

Sequence tasks (``tag``, ``chunk``, ``ner``) read CoNLL column files, one token a line
(``word [more columns] label``) with a blank line between sentences; ``parse`` reads
CoNLL-U or CoNLL-X. Models are written with :func:`skstruct.save`, together with what
the command needs to read and featurize new files the same way.

Exit status: 0 on success, 1 when the run fails (a missing or malformed file, a file
that is not a model), 2 for a usage error (unknown or incompatible options).
"""

import argparse
import contextlib
import io
import os
import re
import sys
import time
import warnings

from . import (
    SWVP,
    ArcStandard,
    BeamSearch,
    ChuLiuEdmonds,
    Eisner,
    ExponentiatedGradientSSVM,
    Greedy,
    StructuredPerceptron,
    TokenFeatures,
    Viterbi,
    __version__,
    load,
    save,
)
from .datasets import load_conll, load_conllu, make_chain_data, write_conllu
from .features import crfsuite_tutorial_features
from .metrics import (
    PTB_PUNCTUATION_TAGS,
    attachment_scores,
    span_classification_report,
    span_precision_recall_fscore,
    token_accuracy,
)
from .updates import UPDATE_RULES

PROG = "skstruct"
#: Version of the settings ``train`` stores with a model (``metadata["cli"]``).
CLI_SETTINGS_VERSION = 1
SEQUENCE_TASKS = ("tag", "chunk", "ner")
SPAN_TASKS = ("chunk", "ner")
ALGORITHMS = {
    "perceptron": StructuredPerceptron,
    "swvp": SWVP,
    "eg": ExponentiatedGradientSSVM,
}
CHAIN_DECODERS = {"viterbi": Viterbi, "beam": BeamSearch, "greedy": Greedy}
TREE_DECODERS = {"eisner": Eisner, "chu-liu-edmonds": ChuLiuEdmonds, "arc-standard": ArcStandard}
#: Decoders each algorithm can learn with (EG needs exact first-order marginals; SWVP
#: mixes outputs position by position, which transition sequences do not allow).
ALLOWED_DECODERS = {
    "perceptron": {*CHAIN_DECODERS, *TREE_DECODERS},
    "swvp": {"viterbi", "beam", "greedy", "eisner", "chu-liu-edmonds"},
    "eg": {"viterbi", "eisner", "chu-liu-edmonds"},
}
#: Options that only some algorithms or decoders read: (option, attribute, owners).
SPECIFIC_OPTIONS = [
    ("--update", "update", {"perceptron"}),
    ("--substructures", "substructures", {"swvp"}),
    ("--gamma", "gamma", {"swvp"}),
    ("--mode", "mode", {"swvp"}),
    ("--C", "C", {"eg"}),
    ("--learning-rate", "learning_rate", {"eg"}),
    ("--tol", "tol", {"eg"}),
    ("--early-stopping", "early_stopping", {"perceptron", "swvp"}),
    ("--no-average", "no_average", {"perceptron", "swvp"}),
]
PUNCTUATION = {"form": "form", "ptb": PTB_PUNCTUATION_TAGS, "none": None}
#: The demo's data: make_chain_data's 5 labels over 200 words, as in the main job.
DEMO_DATA = {"n_labels": 5, "n_words": 200}


class UsageError(Exception):
    """Options that cannot work together (exit status 2, with the usage)."""


class CommandError(Exception):
    """A failure to report on one line (exit status 1)."""


def main(argv=None):
    """Run the ``skstruct`` command.

    Parameters
    ----------
    argv : list of str or None, default=None
        The arguments (``sys.argv[1:]`` when None).

    Returns
    -------
    int
        The exit status: 0 success, 1 failure at run time, 2 usage error.

    Examples
    --------
    >>> main(["demo", "--quiet", "--n-samples", "200", "--max-iter", "2",
    ...       "--algorithm", "perceptron"])  # doctest: +ELLIPSIS
    perceptron ... token accuracy ...
    0
    """
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version and usage errors: argparse's status
        return exit_.code
    try:
        with warnings.catch_warnings():
            if args.quiet:
                warnings.simplefilter("ignore")
            return args.run(args)
    except UsageError as exc:
        args.subparser.print_usage(sys.stderr)
        print(f"{args.subparser.prog}: error: {exc}", file=sys.stderr)
        return 2
    except (CommandError, OSError, ValueError) as exc:
        print(f"{PROG}: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


def _one_line(exc):
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    return " ".join(str(exc).split("\n"))


# -- command line -------------------------------------------------------------------------------


def _parser():
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Train, apply and evaluate structured perceptrons and structured SVMs "
        "on CoNLL files.",
        epilog="Run 'skstruct COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-q", "--quiet", action="store_true", help="print only results and errors")
    commands = parser.add_subparsers(title="commands", dest="command", required=True)
    for add in (_add_train, _add_predict, _add_evaluate, _add_demo):
        subparser = add(commands, common)
        subparser.set_defaults(subparser=subparser)
    return parser


def _add_train(commands, common):
    sub = commands.add_parser(
        "train",
        parents=[common],
        help="train a model on a CoNLL file and save it",
        description="Train a tagger, chunker, NER model or dependency parser and save it.",
    )
    sub.set_defaults(run=_train)
    data = sub.add_argument_group("data")
    data.add_argument("--task", required=True, choices=(*SEQUENCE_TASKS, "parse"))
    data.add_argument("--train", required=True, metavar="FILE", help="training file")
    data.add_argument("--dev", metavar="FILE", help="development file, scored every epoch")
    data.add_argument("--model", required=True, metavar="OUT", help="where to save the model")
    data.add_argument(
        "--label-column",
        type=int,
        default=None,
        metavar="INDEX",
        help="sequence tasks: the label's column (default -1, the last); the others are "
        "token columns",
    )
    data.add_argument(
        "--features",
        choices=("auto", "crfsuite", "token"),
        default="auto",
        help="sequence tasks: 'crfsuite', the sklearn-crfsuite tutorial features (needs a POS "
        "column); 'token', TokenFeatures; 'auto' (default): crfsuite for chunk and ner "
        "files with a POS column, else token",
    )
    labels = data.add_mutually_exclusive_group()
    labels.add_argument(
        "--labelled",
        dest="labelled",
        action="store_const",
        const=True,
        default=None,
        help="parse: learn relation labels (DEPREL); the default when the file has them "
        "and the algorithm and decoder can",
    )
    labels.add_argument(
        "--unlabelled", dest="labelled", action="store_const", const=False, help="parse: heads only"
    )
    learning = sub.add_argument_group("learning")
    learning.add_argument("--algorithm", choices=ALGORITHMS, default="perceptron")
    learning.add_argument("--max-iter", type=int, metavar="N", help="epochs (learner default)")
    learning.add_argument(
        "--decoder",
        choices=(*CHAIN_DECODERS, *TREE_DECODERS),
        help="search: viterbi (default), beam or greedy for sequences; eisner (default), "
        "chu-liu-edmonds or arc-standard for parsing",
    )
    learning.add_argument("--order", type=int, choices=(0, 1, 2), help="Markov or parser order")
    learning.add_argument("--beam-size", type=int, metavar="K", help="beam and arc-standard")
    learning.add_argument(
        "--projectivize",
        action="store_true",
        help="eisner, arc-standard: lift the crossing arcs of non-projective training trees",
    )
    learning.add_argument(
        "--n-features",
        type=int,
        metavar="N",
        help="hash features into N columns (default: an exact vocabulary for sequence tasks, "
        "2**22 hashed weights for parsers)",
    )
    learning.add_argument(
        "--update",
        choices=UPDATE_RULES,
        help="perceptron: the violation to update on (default: standard with exact search, "
        "max_violation with beam, greedy or arc-standard)",
    )
    learning.add_argument("--substructures", choices=("single", "errors", "spans", "full"))
    learning.add_argument("--gamma", choices=("wm", "wmr", "uniform"), help="swvp weighting")
    learning.add_argument("--mode", choices=("aggressive", "balanced"), help="swvp")
    learning.add_argument("--C", type=float, help="eg: regularisation constant")
    learning.add_argument("--learning-rate", type=float, help="eg")
    learning.add_argument("--tol", type=float, help="eg: relative duality gap to stop at")
    learning.add_argument(
        "--early-stopping",
        type=int,
        metavar="N",
        help="stop when the dev score has not improved for N epochs (needs --dev)",
    )
    learning.add_argument(
        "--no-average", action="store_true", help="keep the last weights, not their average"
    )
    learning.add_argument("--random-state", type=int, default=0, metavar="SEED")
    return sub


def _add_model_command(commands, common, name, run, help, description):
    """A subcommand that applies a saved model to FILE."""
    sub = commands.add_parser(name, parents=[common], help=help, description=description)
    sub.set_defaults(run=run)
    sub.add_argument("--model", required=True, metavar="MODEL")
    sub.add_argument("file", metavar="FILE")
    return sub


def _add_predict(commands, common):
    sub = _add_model_command(
        commands, common, "predict", _predict,
        help="label or parse a file with a trained model",
        description="Write FILE with the predictions: CoNLL columns plus the predicted label, "
        "or CoNLL-U with HEAD (and DEPREL) filled in.",
    )  # fmt: skip
    sub.add_argument("-o", "--output", metavar="OUT", help="output file (default: stdout)")
    return sub


def _add_evaluate(commands, common):
    sub = _add_model_command(
        commands, common, "evaluate", _evaluate,
        help="score a trained model on an annotated file",
        description="Print token accuracy, and span precision/recall/F1 (chunk, ner) or "
        "attachment scores (parse).",
    )  # fmt: skip
    sub.add_argument(
        "--punct",
        choices=PUNCTUATION,
        default="form",
        help="parse: words left out of UAS/LAS: 'form' (default) punctuation characters only "
        "(CoNLL-X eval.pl), 'ptb' the PTB punctuation tags, 'none' keeps all",
    )
    return sub


def _add_demo(commands, common):
    sub = commands.add_parser(
        "demo",
        parents=[common],
        help="train and score on synthetic data (no download)",
        description="The main job on synthetic HMM sequences: train and print test scores.",
    )
    sub.set_defaults(run=_demo)
    sub.add_argument("--algorithm", choices=(*ALGORITHMS, "all"), default="all")
    sub.add_argument("--n-samples", type=int, default=2000, metavar="N", help="sequences")
    sub.add_argument("--max-iter", type=int, default=10, metavar="N")
    sub.add_argument("--random-state", type=int, default=0, metavar="SEED")
    return sub


# -- train --------------------------------------------------------------------------------------


def _train(args):
    _check_train_options(args)
    model = _estimator(args)  # before reading any data: bad values fail fast
    folder = os.path.dirname(os.path.abspath(args.model))
    if not os.path.isdir(folder):
        raise CommandError(f"cannot save the model to {args.model}: no folder {folder}")
    if args.task == "parse":
        train, dev, settings = _parse_data(args)
    else:
        train, dev, settings = _sequence_data(args)
        model.set_params(features=TokenFeatures() if settings["features"] == "token" else None)
    features = f" on {settings['features']} features" if "features" in settings else ""
    _info(args, f"Training {' '.join(repr(model).split())}{features}")
    start = time.perf_counter()
    _fit(model, train, dev, args)
    seconds = time.perf_counter() - start
    save(model, args.model, metadata={"cli": settings})
    print(f"Saved {args.model}: {_training_summary(model, settings['task'], seconds)}")
    return 0


def _fit(model, train, dev, args):
    """Fit, with the estimator's complaints about ``y[i]`` told in terms of the files."""
    try:
        model.fit(*train, **({} if dev is None else {"X_dev": dev[0], "y_dev": dev[1]}))
    except ValueError as exc:
        files = {"y": args.train, "y_dev": args.dev}
        message = re.sub(
            r"\b(y|y_dev)\[(\d+)\]",
            lambda match: f"{files[match[1]]} (sentence index {match[2]})",
            str(exc),
        )
        if "not projective" in message:
            message += " On the command line: --projectivize, or --decoder chu-liu-edmonds."
        raise CommandError(message) from exc


def _check_train_options(args):
    """Refuse combinations of options that cannot work, before any work."""
    parsing = args.task == "parse"
    decoder = _decoder_name(args)
    if (decoder in TREE_DECODERS) != parsing:
        kind = "a parser" if decoder in TREE_DECODERS else "a sequence decoder"
        raise UsageError(f"--decoder {decoder} is {kind}, which --task {args.task} cannot use")
    if decoder not in ALLOWED_DECODERS[args.algorithm]:
        raise UsageError(f"--algorithm {args.algorithm} cannot learn with --decoder {decoder}")
    for option, name, owners in SPECIFIC_OPTIONS:
        if getattr(args, name) not in (None, False) and args.algorithm not in owners:
            raise UsageError(f"{option} applies to --algorithm {' or '.join(sorted(owners))}")
    if args.algorithm == "eg" and args.order not in (None, 1):
        raise UsageError("--algorithm eg needs exact marginals, of first-order models only")
    if args.beam_size is not None and decoder not in ("beam", "arc-standard"):
        raise UsageError("--beam-size applies to --decoder beam or arc-standard")
    if args.order is not None and decoder in ("chu-liu-edmonds", "arc-standard"):
        raise UsageError(f"--decoder {decoder} has no --order")
    if args.projectivize and decoder not in ("eisner", "arc-standard"):
        raise UsageError("--projectivize applies to --decoder eisner or arc-standard")
    if args.early_stopping is not None and args.dev is None:
        raise UsageError("--early-stopping needs a development set: --dev FILE")
    misplaced = (
        {"--label-column": args.label_column is not None, "--features": args.features != "auto"}
        if parsing
        else {"--labelled/--unlabelled": args.labelled is not None}
    )
    for option, given in misplaced.items():
        if given:
            raise UsageError(f"{option} does not apply to --task {args.task}")
    if args.labelled and not _can_label(args):
        raise UsageError(f"{_unlabelled_reason(args)} parses unlabelled trees only")


def _decoder_name(args):
    return args.decoder or ("eisner" if args.task == "parse" else "viterbi")


def _can_label(args):
    return args.algorithm != "eg" and _decoder_name(args) != "arc-standard"


def _unlabelled_reason(args):
    return "--algorithm eg" if args.algorithm == "eg" else f"--decoder {_decoder_name(args)}"


def _estimator(args):
    """The unfitted estimator the options describe, its parameters checked."""
    decoder = _decoder(args)
    params = {
        "max_iter": args.max_iter,
        "n_features": args.n_features,
        "update": args.update or _default_update(args, decoder),
        "substructures": args.substructures,
        "gamma": args.gamma,
        "mode": args.mode,
        "C": args.C,
        "learning_rate": args.learning_rate,
        "tol": args.tol,
        "n_iter_no_change": args.early_stopping,
        "average": False if args.no_average else None,
    }
    params = {k: v for k, v in params.items() if v is not None}
    model = ALGORITHMS[args.algorithm](
        decoder, random_state=args.random_state, verbose=int(_progress(args)), **params
    )
    _check_params(model, decoder)
    return model


def _check_params(*estimators):
    """Out-of-range option values (``--order 0`` with beam, ``--max-iter 0``) are usage
    errors: sklearn's InvalidParameterError names the parameter and its valid range."""
    try:
        for estimator in estimators:
            estimator._validate_params()
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _decoder(args):
    name = _decoder_name(args)
    params = {"order": args.order, "beam_size": args.beam_size}
    if args.projectivize:
        params["projectivize"] = True
    cls = {**CHAIN_DECODERS, **TREE_DECODERS}[name]
    return cls(**{k: v for k, v in params.items() if v is not None})


def _default_update(args, decoder):
    """Violation-fixing updates for inexact search, where the standard one may be invalid."""
    if args.algorithm != "perceptron":
        return None
    return "standard" if decoder.search_width(None) is None else "max_violation"


def _sequence_data(args):
    """Training and dev data of a sequence task, and the settings to read new files with."""
    label_column = -1 if args.label_column is None else args.label_column
    tokens, labels = load_conll(args.train, label_column=label_column)
    n_columns = len(tokens[0][0])
    settings = {
        "version": CLI_SETTINGS_VERSION,
        "task": args.task,
        "features": _feature_set(args, n_columns),
        "token_columns": n_columns,
        "label_column": label_column % (n_columns + 1),
    }
    _info(args, f"Read {_describe(args.train, tokens)}, {len(set(_flat(labels)))} labels")
    dev = None
    if args.dev:
        dev_tokens, dev_labels = load_conll(args.dev, label_column=label_column)
        if len(dev_tokens[0][0]) != n_columns:
            raise CommandError(
                f"{args.dev} has {len(dev_tokens[0][0]) + 1} columns but {args.train} has "
                f"{n_columns + 1}"
            )
        _info(args, f"Read {_describe(args.dev, dev_tokens)}")
        dev = (_featurize(settings, dev_tokens), dev_labels)
    return (_featurize(settings, tokens), labels), dev, settings


def _feature_set(args, n_columns):
    if args.features == "crfsuite" and n_columns < 2:
        raise CommandError(
            f"--features crfsuite needs a POS column (word POS ... label), but {args.train} "
            f"has the word and the label only"
        )
    if args.features != "auto":
        return args.features
    return "crfsuite" if args.task in SPAN_TASKS and n_columns >= 2 else "token"


def _featurize(settings, tokens):
    """What the model takes: crfsuite tutorial dicts, or the tokens for its TokenFeatures."""
    if settings["features"] == "crfsuite":
        return crfsuite_tutorial_features(tokens)
    return tokens


def _parse_data(args):
    """Training and dev trees (labelled or not, as decided here) and the settings."""
    X, pairs = load_conllu(args.train, labelled=True)
    has_relations = _has_relations(pairs)
    labelled = args.labelled
    if labelled is None:
        labelled = has_relations and _can_label(args)
        if has_relations and not labelled:
            _info(args, f"{_unlabelled_reason(args)} parses unlabelled trees: DEPREL is ignored")
    if labelled and not has_relations:
        raise CommandError(f"--labelled: {args.train} has no relation labels (DEPREL)")
    _info(args, f"Read {_describe(args.train, X)}" + (", labelled" if labelled else ""))
    dev = None
    if args.dev:
        X_dev, dev_pairs = load_conllu(args.dev, labelled=True)
        if labelled and not _has_relations(dev_pairs):
            raise CommandError(f"{args.dev} has no relation labels (DEPREL) to score")
        _info(args, f"Read {_describe(args.dev, X_dev)}")
        dev = (X_dev, _trees(dev_pairs, labelled))
    settings = {"version": CLI_SETTINGS_VERSION, "task": "parse"}
    return (X, _trees(pairs, labelled)), dev, settings


def _has_relations(pairs):
    return any(relation not in (None, "_") for _, relation in _flat(pairs))


def _trees(pairs, labelled):
    return pairs if labelled else [[head for head, _ in sentence] for sentence in pairs]


def _training_summary(model, task, seconds):
    summary = f"{type(model).__name__}, {model.n_iter_} epochs in {seconds:.1f} s"
    records = [r for r in model.history_ if r.get("dev_score") is not None]
    if not records:
        return summary
    best = getattr(model, "best_iteration_", None)
    record = records[-1] if best is None else model.history_[best - 1]
    score = "UAS" if task == "parse" else "token accuracy"
    return f"{summary}; dev {score} {_percent(record['dev_score'])} (epoch {record['epoch']})"


# -- predict and evaluate -----------------------------------------------------------------------


def _predict(args):
    model, settings = _load_model(args.model)
    if settings["task"] == "parse":
        X = _read_unparsed_trees(args.file)
        with _output(args.output) as stream:
            write_conllu(stream, X, model.predict(X))
    else:
        rows, tokens, _ = _read_sequences(args.file, settings)
        predicted = model.predict(_featurize(settings, tokens))
        with _output(args.output) as stream:
            _write_columns(stream, rows, predicted)
    if args.output:
        _info(args, f"Wrote the predictions to {args.output}")
    return 0


def _evaluate(args):
    model, settings = _load_model(args.model)
    report = _parse_report if settings["task"] == "parse" else _sequence_report
    lines = [f"Model: {args.model} ({type(model).__name__}, task {settings['task']})"]
    print("\n".join(lines + report(model, settings, args)))
    return 0


def _sequence_report(model, settings, args):
    rows, tokens, gold = _read_sequences(args.file, settings)
    if gold is None:
        raise CommandError(
            f"{args.file} has no label column to evaluate against (it has the "
            f"{settings['token_columns']} token columns only)"
        )
    predicted = model.predict(_featurize(settings, tokens))
    lines = [
        f"Data: {_describe(args.file, rows)}",
        f"Token accuracy: {_percent(token_accuracy(gold, predicted))}",
    ]
    if settings["task"] in SPAN_TASKS:
        precision, recall, f1 = span_precision_recall_fscore(gold, predicted)
        lines.append(
            f"Span precision: {_percent(precision)}  recall: {_percent(recall)}  F1: {_percent(f1)}"
        )
        lines += ["", span_classification_report(gold, predicted, digits=4).rstrip("\n")]
    return lines


def _parse_report(model, settings, args):
    X, pairs = load_conllu(args.file, labelled=True)
    labelled = hasattr(model, "classes_") and _has_relations(pairs)
    predicted = model.predict(X)
    if not labelled:
        predicted = [[_head(item) for item in sentence] for sentence in predicted]
    scores = attachment_scores(
        _trees(pairs, labelled), predicted, X=X, punct=PUNCTUATION[args.punct]
    )
    if labelled:
        las = _percent(scores["las"])
    elif hasattr(model, "classes_"):
        las = f"n/a ({args.file} has no relation labels)"
    else:
        las = "n/a (unlabelled model)"
    return [
        f"Data: {_describe(args.file, X)}; {scores['n_words']} words scored "
        f"(punctuation left out: {args.punct})",
        f"UAS: {_percent(scores['uas'])}",
        f"LAS: {las}",
    ]


def _head(item):
    return item[0] if isinstance(item, tuple) else item


def _load_model(path):
    """The model in ``path`` and the settings ``train`` stored with it."""
    model, metadata = load(path, with_metadata=True)
    settings = metadata.get("cli")
    if not isinstance(settings, dict):
        raise CommandError(
            f"{path} holds a model saved by skstruct.save, not by 'skstruct train': it lacks "
            f"the settings to read files with (use it from Python)"
        )
    if settings.get("version") != CLI_SETTINGS_VERSION:
        raise CommandError(
            f"{path} has command-line settings version {settings.get('version')!r}; this "
            f"skstruct reads version {CLI_SETTINGS_VERSION}"
        )
    return model, settings


def _read_sequences(path, settings):
    """``(rows, tokens, gold)``: every column as read, the token columns, and the gold
    labels or None when ``path`` has the token columns only."""
    rows, _ = load_conll(path, label_column=None)
    n_columns, expected = len(rows[0][0]), settings["token_columns"]
    if n_columns == expected:
        return rows, rows, None
    if n_columns != expected + 1:
        raise CommandError(
            f"{path} has {_columns(n_columns)}, but the model reads {_columns(expected)} "
            f"of tokens (and, to evaluate, the label)"
        )
    k = settings["label_column"]
    tokens = [[row[:k] + row[k + 1 :] for row in sentence] for sentence in rows]
    gold = [[row[k] for row in sentence] for sentence in rows]
    return rows, tokens, gold


def _read_unparsed_trees(path):
    """The sentences of a CoNLL-U/CoNLL-X file whose HEAD column may be empty (``_``)."""
    with open(path, encoding="utf-8") as stream:
        text = io.StringIO("".join(map(_fill_head, stream)))
    text.name = path  # load_conllu's errors name the file; the lines are the same
    return load_conllu(text)[0]


def _fill_head(line):
    """``line`` with an empty HEAD as 0: load_conllu wants integers, predict overwrites it."""
    fields = line.split("\t")
    if len(fields) == 10 and fields[6] == "_" and fields[0].isdigit():
        fields[6] = "0"
        return "\t".join(fields)
    return line


def _write_columns(stream, rows, predicted):
    for sentence, labels in zip(rows, predicted):
        for row, label in zip(sentence, labels):
            stream.write(" ".join((*row, str(label))) + "\n")
        stream.write("\n")


@contextlib.contextmanager
def _output(path):
    if path is None:
        yield sys.stdout
        return
    with open(path, "w", encoding="utf-8") as stream:
        yield stream


# -- demo ---------------------------------------------------------------------------------------


def _demo(args):
    if args.n_samples < 4:
        raise UsageError("--n-samples must be at least 4 (three quarters train, the rest test)")
    X, y = make_chain_data(args.n_samples, **DEMO_DATA, random_state=args.random_state)
    n_train = 3 * len(X) // 4
    _info(
        args,
        f"Data: synthetic HMM sequences (make_chain_data, {DEMO_DATA['n_labels']} labels, "
        f"{DEMO_DATA['n_words']} words), "
        f"{n_train} to train on, {len(X) - n_train} to test",
    )
    names = list(ALGORITHMS) if args.algorithm == "all" else [args.algorithm]
    for name in names:
        model = ALGORITHMS[name](
            features=TokenFeatures(),
            max_iter=args.max_iter,
            random_state=args.random_state,
            verbose=int(_progress(args)),
        )
        _check_params(model)
        start = time.perf_counter()
        model.fit(X[:n_train], y[:n_train])
        seconds = time.perf_counter() - start
        accuracy = token_accuracy(y[n_train:], model.predict(X[n_train:]))
        print(
            f"{name:<10} {type(model).__name__:<40} token accuracy {_percent(accuracy)}  "
            f"(fit {seconds:.2f} s)"
        )
    return 0


# -- helpers ------------------------------------------------------------------------------------


def _progress(args):
    """Progress bars on a terminal only: in logs their redrawing is noise."""
    return not args.quiet and sys.stderr.isatty()


def _info(args, message):
    if not args.quiet:
        print(message, file=sys.stderr)


def _describe(path, sentences):
    return f"{path}, {len(sentences)} sentences, {sum(map(len, sentences))} tokens"


def _columns(n):
    return f"{n} column{'' if n == 1 else 's'}"


def _flat(sequences):
    return (item for sequence in sequences for item in sequence)


def _percent(fraction):
    return f"{100 * fraction:.2f}"


if __name__ == "__main__":
    sys.exit(main())
