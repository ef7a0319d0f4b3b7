"""``skstruct train``: check the options, read the data, fit, save with the settings."""

import os
import re
import time

from .. import TokenFeatures, save
from ..decoders import DECODERS
from ..features import crfsuite_tutorial_features
from ..tasks.trees import is_projective
from . import _constituency as constituency
from . import _ud as ud
from ._common import (
    ALGORITHMS,
    CLI_SETTINGS_VERSION,
    DECODER_TASKS,
    LABEL_COLUMNS,
    SPAN_TASKS,
    TOKEN_COLUMNS,
    CommandError,
    UsageError,
    describe,
    flat,
    info,
    percent,
    verbosity,
)
from ._documents import ColumnDocument, TreebankDocument, detect_format, read_text_of

#: Options that only some algorithms or decoders read: (option, attribute, owners).
SPECIFIC_OPTIONS = [
    ("--update", "update", {"perceptron"}),
    ("--substructures", "substructures", {"swvp"}),
    ("--gamma", "gamma", {"swvp"}),
    ("--mode", "mode", {"swvp"}),
    ("--C", "C", {"eg", "ssvm"}),
    ("--learning-rate", "learning_rate", {"eg"}),
    ("--tol", "tol", {"eg", "ssvm"}),
    ("--early-stopping", "early_stopping", {"perceptron", "swvp"}),
    ("--no-average", "no_average", {"perceptron", "swvp"}),
]


def run_train(args):
    """Train the model the options describe on ``--train`` and save it to ``--model``."""
    if args.task == "ud":
        ud.check_options(args)
        _check_model_folder(args)
        return ud.train(args)
    if args.n_jobs is not None:
        raise UsageError("--n-jobs applies to --task ud")
    if args.corpora is not None:
        raise UsageError("--corpora applies to --task ud")
    _check_train_options(args)
    model = _estimator(args)  # before reading any data: bad values fail fast
    _check_model_folder(args)
    if args.task == "parse":
        train, dev, settings = _parse_data(args, model)
    elif args.task == "constituency":
        train, dev, settings = constituency.training_data(args)
    else:
        train, dev, settings = _sequence_data(args)
        model.set_params(features=TokenFeatures() if settings["features"] == "token" else None)
    features = f" on {settings['features']} features" if "features" in settings else ""
    info(args, f"Training {' '.join(repr(model).split())}{features}")
    start = time.perf_counter()
    _fit(model, train, dev, args)
    seconds = time.perf_counter() - start
    save(model, args.model, metadata={"cli": settings})
    print(f"Saved {args.model}: {_training_summary(model, settings['task'], seconds)}")
    return 0


def _check_model_folder(args):
    folder = os.path.dirname(os.path.abspath(args.model))
    if not os.path.isdir(folder):
        raise CommandError(f"cannot save the model to {args.model}: no folder {folder}")


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
    if DECODER_TASKS[decoder] != _decoder_kind(args.task):
        kind = {"heads": "a parser", "constituency": "a constituency parser"}.get(
            DECODER_TASKS[decoder], "a sequence decoder"
        )
        raise UsageError(f"--decoder {decoder} is {kind}, which --task {args.task} cannot use")
    for option, name, owners in SPECIFIC_OPTIONS:
        if getattr(args, name) not in (None, False) and args.algorithm not in owners:
            raise UsageError(f"{option} applies to --algorithm {' or '.join(sorted(owners))}")
    for option, parameter in (
        ("--beam-size", "beam_size"),
        ("--order", "order"),
        ("--projectivize", "projectivize"),
    ):
        given = getattr(args, parameter) not in (None, False)
        if given and parameter not in DECODERS[decoder]().get_params():
            takers = [name for name, cls in DECODERS.items() if parameter in cls().get_params()]
            raise UsageError(f"{option} applies to --decoder {' or '.join(takers)}")
    if args.early_stopping is not None and args.dev is None:
        raise UsageError("--early-stopping needs a development set: --dev FILE")
    sequence_options = {
        "--label-column": args.label_column is not None,
        "--label": args.label is not None,
        "--token-columns": args.token_columns is not None,
        "--features": args.features != "auto",
    }
    misplaced = {"--labelled/--unlabelled": args.labelled is not None}
    if parsing:
        misplaced = sequence_options
    elif args.task == "constituency":
        misplaced = {**sequence_options, **misplaced, "--format": args.format != "auto"}
    for option, given in misplaced.items():
        if given:
            raise UsageError(f"{option} does not apply to --task {args.task}")
    if parsing and args.format == "conll":
        raise UsageError("--task parse reads CoNLL-U or CoNLL-X files: --format conllu")


def _decoder_name(args):
    defaults = {"parse": "eisner", "constituency": "cky"}
    return args.decoder or defaults.get(args.task, "viterbi")


def _decoder_kind(task):
    """What the decoders of ``task`` predict (``DECODER_TASKS``'s values)."""
    return {"parse": "heads", "constituency": "constituency"}.get(task, "labels")


def _can_label(model):
    """Whether the model can learn relation labels (the decoder and the learner)."""
    try:
        model.check_decoder(relation_labels=True)
    except ValueError:
        return False
    return True


def _unlabelled_reason(args, model):
    if not model.learns_relation_labels:
        return f"--algorithm {args.algorithm}"
    return f"--decoder {_decoder_name(args)}"


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
        decoder, random_state=args.random_state, verbose=verbosity(args), **params
    )
    check_params(model, decoder)
    try:  # what the decoder can do against what the learner needs: the learner's check
        model.check_decoder()
    except ValueError as exc:
        raise UsageError(
            f"--algorithm {args.algorithm} cannot learn with --decoder {_decoder_name(args)}: {exc}"
        ) from None
    if args.labelled and not _can_label(model):
        raise UsageError(f"{_unlabelled_reason(args, model)} parses unlabelled trees only")
    return model


def check_params(*estimators):
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
    cls = DECODERS[name]
    return cls(**{k: v for k, v in params.items() if v is not None})


def _default_update(args, decoder):
    """Violation-fixing updates for inexact search, where the standard one may be invalid."""
    if args.algorithm != "perceptron":
        return None
    return "standard" if decoder.capabilities.exact else "max_violation"


# -- sequence tasks -----------------------------------------------------------------------------


def _sequence_data(args):
    """Training and dev data of a sequence task, and the settings to read new files with."""
    text = read_text_of(args.train, args.encoding)
    fmt = detect_format(args.train, text) if args.format == "auto" else args.format
    read = _conllu_sequences if fmt == "conllu" else _column_sequences
    (tokens, labels), settings, describe_labels = read(args, args.train, text, None)
    info(args, f"Read {describe(args.train, tokens)}, {describe_labels}")
    dev = None
    if args.dev:
        dev_text = read_text_of(args.dev, args.encoding)
        if args.format == "auto" and detect_format(args.dev, dev_text) != fmt:
            raise CommandError(
                f"{args.dev} is not in the format of {args.train} "
                f"({'CoNLL-U/CoNLL-X' if fmt == 'conllu' else 'CoNLL columns'})"
            )
        (dev_tokens, dev_labels), _, _ = read(args, args.dev, dev_text, settings)
        info(args, f"Read {describe(args.dev, dev_tokens)}")
        dev = (featurize(settings, dev_tokens), dev_labels)
    return (featurize(settings, tokens), labels), dev, settings


def _column_sequences(args, path, text, settings):
    """``((tokens, labels), settings, description)`` of a CoNLL column file."""
    label_column = -1 if args.label_column is None else args.label_column
    if args.label is not None or args.token_columns is not None:
        option = "--label" if args.label is not None else "--token-columns"
        raise UsageError(
            f"{option} names a CoNLL-U column, but {path} is a CoNLL column file "
            f"(--label-column INDEX; --format conllu to read it as CoNLL-U)"
        )
    doc = ColumnDocument(path, text, label_column=label_column)
    n_columns = len(doc.tokens[0][0])
    if settings is None:
        settings = {
            "version": CLI_SETTINGS_VERSION,
            "task": args.task,
            "format": "conll",
            "features": _feature_set(args, n_columns),
            "token_columns": n_columns,
            "label_column": label_column % (n_columns + 1),
        }
    elif n_columns != settings["token_columns"]:
        raise CommandError(
            f"{path} has {n_columns + 1} columns but {args.train} has "
            f"{settings['token_columns'] + 1}"
        )
    return (doc.tokens, doc.labels), settings, f"{len(set(flat(doc.labels)))} labels"


def _conllu_sequences(args, path, text, settings):
    """``((tokens, labels), settings, description)`` of a CoNLL-U or CoNLL-X file."""
    if args.label_column is not None:
        raise UsageError(
            f"--label-column applies to CoNLL column files, but {path} is CoNLL-U/CoNLL-X: "
            f"name the column with --label {{{','.join(LABEL_COLUMNS)}}}"
        )
    doc = TreebankDocument(path, text)
    purpose = "learn from" if settings is None else "score"
    if settings is None:
        label = args.label or "upos"
        names = _token_columns(args, label)
        settings = {
            "version": CLI_SETTINGS_VERSION,
            "task": args.task,
            "format": "conllu",
            "label": label,
            "token_columns": names,
            "features": _feature_set(args, len(names)),
        }
    label = settings["label"]
    labels = gold_column(doc, label, purpose)
    tokens = doc.tokens(settings["token_columns"])
    return (tokens, labels), settings, f"{len(set(flat(labels)))} {label.upper()} labels"


def gold_column(doc, name, purpose):
    """The values of column ``name``, which every regular token must have."""
    empty = doc.first_empty(name)
    if empty is not None:
        raise CommandError(
            f"{doc.path}, line {empty}: no {name.upper()} to {purpose} ('_'); --label names "
            f"the column to predict"
        )
    return doc.column(name)


def _token_columns(args, label):
    names = ["form"] if args.token_columns is None else args.token_columns.split(",")
    unknown = [name for name in names if name not in TOKEN_COLUMNS]
    if unknown:
        raise UsageError(
            f"--token-columns: {', '.join(map(repr, unknown))} is not one of "
            f"{', '.join(TOKEN_COLUMNS)}"
        )
    if label in names:
        raise UsageError(f"--token-columns includes {label}, the column to predict (--label)")
    return names


def _feature_set(args, n_columns):
    if args.features == "crfsuite" and n_columns < 2:
        raise CommandError(
            f"--features crfsuite needs a POS column (word POS ... label), but {args.train} "
            f"has the word and the label only"
        )
    if args.features != "auto":
        return args.features
    return "crfsuite" if args.task in SPAN_TASKS and n_columns >= 2 else "token"


def featurize(settings, tokens):
    """What the model takes: crfsuite tutorial dicts, or the tokens for its TokenFeatures."""
    if settings["features"] == "crfsuite":
        return crfsuite_tutorial_features(tokens)
    return tokens


# -- parsing ------------------------------------------------------------------------------------


def _parse_data(args, model):
    """Training and dev trees (labelled or not, as decided here) and the settings."""
    train = TreebankDocument(args.train, read_text_of(args.train, args.encoding))
    has_relations = has_relation_labels(train.trees)
    labelled = args.labelled
    if labelled is None:
        labelled = has_relations and _can_label(model)
        if has_relations and not labelled:
            reason = _unlabelled_reason(args, model)
            info(args, f"{reason} parses unlabelled trees: DEPREL is ignored")
    if labelled and not has_relations:
        raise CommandError(f"--labelled: {args.train} has no relation labels (DEPREL)")
    info(args, f"Read {describe(args.train, train.X)}" + (", labelled" if labelled else ""))
    _projectivize_if_needed(args, model, train)
    dev = None
    if args.dev:
        dev_doc = TreebankDocument(args.dev, read_text_of(args.dev, args.encoding))
        if labelled and not has_relation_labels(dev_doc.trees):
            raise CommandError(f"{args.dev} has no relation labels (DEPREL) to score")
        info(args, f"Read {describe(args.dev, dev_doc.X)}")
        dev = (dev_doc.X, trees_of(dev_doc.trees, labelled))
    settings = {"version": CLI_SETTINGS_VERSION, "task": "parse", "format": "conllu"}
    return (train.X, trees_of(train.trees, labelled)), dev, settings


def _projectivize_if_needed(args, model, train):
    """A projective decoder that is to train on non-projective trees lifts their
    crossing arcs (``projectivize=True``), and says so: a UD treebank trains as the
    README's command gives it, where the decoder would refuse the first such tree."""
    decoder = model.decoder
    if not (decoder.projective and "projectivize" in decoder.get_params()):
        return
    if decoder.projectivize:
        return
    heads = [[head for head, _ in sentence] for sentence in train.trees]
    crossing = sum(not is_projective(sentence) for sentence in heads)
    if crossing:
        model.set_params(decoder__projectivize=True)
        info(
            args,
            f"{crossing} of {len(heads)} training trees are not projective: {_decoder_name(args)} "
            f"trains on them with their crossing arcs lifted (--projectivize); --decoder "
            f"chu-liu-edmonds parses non-projective trees",
        )


def has_relation_labels(pairs):
    return any(relation not in (None, "_") for _, relation in flat(pairs))


def trees_of(pairs, labelled):
    return pairs if labelled else [[head for head, _ in sentence] for sentence in pairs]


def _training_summary(model, task, seconds):
    summary = f"{type(model).__name__}, {model.n_iter_} epochs in {seconds:.1f} s"
    records = [r for r in model.history_ if r.get("dev_score") is not None]
    if not records:
        return summary
    best = getattr(model, "best_iteration_", None)
    record = records[-1] if best is None else model.history_[best - 1]
    score = {"parse": "UAS", "constituency": "EVALB F1"}.get(task, "token accuracy")
    return f"{summary}; dev {score} {percent(record['dev_score'])} (epoch {record['epoch']})"
