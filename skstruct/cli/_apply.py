"""``skstruct predict`` and ``skstruct evaluate``: apply a saved model (and, before a
parser, a tagger) to a file."""

import copy

from .. import load
from ..metrics import (
    attachment_scores,
    conll18_scores,
    span_classification_report,
    span_precision_recall_fscore,
    token_accuracy,
)
from . import _constituency as constituency
from . import _ud as ud
from ._common import (
    CLI_SETTINGS_VERSION,
    PUNCTUATION,
    READABLE_SETTINGS_VERSIONS,
    SEQUENCE_TASKS,
    SPAN_TASKS,
    CommandError,
    columns,
    describe,
    info,
    percent,
)
from ._documents import (
    ColumnDocument,
    TreebankDocument,
    detect_format,
    format_mismatch,
    read_text_of,
    write_lines,
)
from ._train import featurize, gold_column, has_relation_labels, trees_of

#: The POS columns a tagger may fill in before a parser reads them.
POS_COLUMNS = ("upos", "xpos")


def run_predict(args):
    """Write ``args.file`` back with the model's predictions."""
    model, settings = load_model(args.model)
    tagger = _load_tagger(args, settings)
    if settings["task"] == "constituency":
        constituency.predict(args, model)
        return 0
    if settings["task"] == "ud":
        write_lines(args.output, ud.predict(args, model), args.encoding)
        if args.output:
            info(args, f"Wrote the annotated sentences to {args.output}")
        return 0
    text = read_text_of(args.file, args.encoding)
    _check_format(args, text, settings)
    if settings["task"] == "parse":
        doc = TreebankDocument(args.file, text, unparsed=True)
        X = doc.X
        if tagger is not None:
            tags = _tag(tagger, doc, model)
            doc.set_column(tagger[1]["label"], tags)
            X = _with_column(X, tagger[1]["label"], tags)
        doc.set_trees(model.predict(X))
        lines = doc.lines
    elif settings["format"] == "conllu":
        doc = TreebankDocument(args.file, text, unparsed=True)
        doc.set_column(settings["label"], _predict_tags(model, settings, doc))
        lines = doc.lines
    else:
        doc, _, _ = _column_document(args.file, text, settings)
        lines = doc.with_labels(model.predict(featurize(settings, doc.tokens)))
    write_lines(args.output, lines, args.encoding)
    if args.output:
        info(args, f"Wrote the predictions to {args.output}")
    return 0


def run_evaluate(args):
    """Print the model's scores on ``args.file``."""
    model, settings = load_model(args.model)
    tagger = _load_tagger(args, settings)
    lines = [f"Model: {args.model} ({type(model).__name__}, task {settings['task']})"]
    if settings["task"] == "constituency":
        print("\n".join(lines + constituency.report(args, model)))
        return 0
    if settings["task"] == "ud":
        X = ud.read(args.file, args.encoding).X
        print("\n".join(lines + ud.report_lines(model, X, args.file)))
        return 0
    text = read_text_of(args.file, args.encoding)
    _check_format(args, text, settings)
    if settings["task"] == "parse":
        lines += _parse_report(model, tagger, args, text)
    else:
        lines += _sequence_report(model, settings, args, text)
    print("\n".join(lines))
    return 0


def load_model(path):
    """The model in ``path`` and the settings ``train`` stored with it (as version 2)."""
    model, metadata = load(path, with_metadata=True)
    settings = metadata.get("cli")
    if not isinstance(settings, dict):
        raise CommandError(
            f"{path} holds a model saved by skstruct.save, not by 'skstruct train': it lacks "
            f"the settings to read files with (use it from Python)"
        )
    if settings.get("version") not in READABLE_SETTINGS_VERSIONS:
        raise CommandError(
            f"{path} has command-line settings version {settings.get('version')!r}; this "
            f"skstruct reads versions up to {CLI_SETTINGS_VERSION}"
        )
    if settings["version"] == 1:  # before CoNLL-U sequence tasks: the task tells the format
        settings = {**settings, "format": "conllu" if settings["task"] == "parse" else "conll"}
    return model, settings


def _check_format(args, text, settings):
    found = detect_format(args.file, text) if args.format == "auto" else args.format
    if found != settings["format"]:
        raise format_mismatch(args.file, found, settings["format"])


# -- sequence tasks -----------------------------------------------------------------------------


def _column_document(path, text, settings):
    """``(document, tokens, gold)`` of a column file: gold is None when ``path`` has the
    token columns only."""
    doc = ColumnDocument(path, text)
    n_columns, expected = len(doc.tokens[0][0]), settings["token_columns"]
    if n_columns == expected:
        return doc, doc.tokens, None
    if n_columns != expected + 1:
        raise CommandError(
            f"{path} has {columns(n_columns)}, but the model reads {columns(expected)} "
            f"of tokens (and, to evaluate, the label)"
        )
    k = settings["label_column"]
    rows = doc.tokens
    doc.tokens = [[row[:k] + row[k + 1 :] for row in sentence] for sentence in rows]
    gold = [[row[k] for row in sentence] for sentence in rows]
    return doc, doc.tokens, gold


def _predict_tags(model, settings, doc):
    return model.predict(featurize(settings, doc.tokens(settings["token_columns"])))


def _sequence_report(model, settings, args, text):
    if settings["format"] == "conllu":
        doc = TreebankDocument(args.file, text)
        gold = gold_column(doc, settings["label"], "score")
        predicted = _predict_tags(model, settings, doc)
        sentences = doc.X
    else:
        doc, tokens, gold = _column_document(args.file, text, settings)
        if gold is None:
            raise CommandError(
                f"{args.file} has no label column to evaluate against (it has the "
                f"{settings['token_columns']} token columns only)"
            )
        predicted = model.predict(featurize(settings, tokens))
        sentences = tokens
    lines = [
        f"Data: {describe(args.file, sentences)}",
        f"Token accuracy: {percent(token_accuracy(gold, predicted))}",
    ]
    if settings["task"] in SPAN_TASKS:
        precision, recall, f1 = span_precision_recall_fscore(gold, predicted)
        lines.append(
            f"Span precision: {percent(precision)}  recall: {percent(recall)}  F1: {percent(f1)}"
        )
        lines += ["", span_classification_report(gold, predicted, digits=4).rstrip("\n")]
    return lines


# -- parsing, after a tagger --------------------------------------------------------------------


def _load_tagger(args, settings):
    """``(model, settings)`` of ``--tagger``, checked to fill a POS column for a parser."""
    if args.tagger is None:
        return None
    if settings["task"] != "parse":
        raise CommandError(
            f"--tagger tags words for a parser, but {args.model} is a {settings['task']} model"
        )
    tagger, tagger_settings = load_model(args.tagger)
    if tagger_settings["task"] not in SEQUENCE_TASKS or tagger_settings["format"] != "conllu":
        kind = f"a {tagger_settings['task']} model"
        if tagger_settings["task"] in SEQUENCE_TASKS:
            kind += " trained on CoNLL column files"
        raise CommandError(
            f"--tagger {args.tagger} is {kind}; it must be a tagger trained on CoNLL-U "
            f"('skstruct train --task tag --label xpos --train train.conllu')"
        )
    if tagger_settings["label"] not in POS_COLUMNS:
        raise CommandError(
            f"--tagger {args.tagger} predicts {tagger_settings['label'].upper()}, not a POS "
            f"column (upos or xpos)"
        )
    return tagger, tagger_settings


def _tag(tagger, doc, parser):
    """The tagger's POS tags for ``doc``, checked to be the column ``parser`` reads."""
    model, settings = tagger
    label = settings["label"]
    reads = getattr(parser.encoder_, "pos", "auto")
    if reads == "auto":  # ArcFeatures: XPOS where the token has one, else UPOS
        has_xpos = any(token.get("xpos") not in (None, "_") for s in doc.X for token in s)
        reads = "xpos" if has_xpos else "upos"
    if reads != label:
        raise CommandError(
            f"the parser reads the {reads.upper()} column of {doc.path}, but the tagger "
            f"predicts {label.upper()}"
        )
    return _predict_tags(model, settings, doc)


def _with_column(X, name, values):
    """Copies of the token dicts of ``X`` with field ``name`` set to ``values``."""
    tagged = copy.deepcopy(X)
    for sentence, tags in zip(tagged, values):
        for token, tag in zip(sentence, tags):
            token[name] = tag
    return tagged


def _parse_report(model, tagger, args, text):
    doc = TreebankDocument(args.file, text)
    labelled = hasattr(model, "classes_") and has_relation_labels(doc.trees)
    X, lines = doc.X, []
    if tagger is not None:
        label = tagger[1]["label"]
        tags = _tag(tagger, doc, model)
        X = _with_column(doc.X, label, tags)
        accuracy = "n/a (no gold tags)"
        if doc.first_empty(label) is None:
            accuracy = percent(token_accuracy(doc.column(label), tags))
        lines.append(
            f"Tagger: {args.tagger} ({type(tagger[0]).__name__}, {label.upper()}); "
            f"{label.upper()} accuracy: {accuracy}"
        )
    predicted = model.predict(X)
    if not labelled:
        predicted = [[_head(item) for item in sentence] for sentence in predicted]
    # CoNLL-U is scored as the CoNLL 2018 shared task scores it (every word, universal
    # relations), CoNLL-X as its eval.pl (punctuation left out, whole labels)
    conllu = str(args.file).endswith(".conllu")
    punct = args.punct or ("none" if conllu else "form")
    relations = args.relations or ("universal" if conllu else "full")
    # The gold tokens decide what --punct ptb leaves out, so that the same words are
    # scored with and without --tagger.
    scores = attachment_scores(trees_of(doc.trees, labelled), predicted, X=doc.X,
                               punct=PUNCTUATION[punct], relations=relations)  # fmt: skip
    if labelled:
        las = percent(scores["las"])
    elif hasattr(model, "classes_"):
        las = f"n/a ({args.file} has no relation labels)"
    else:
        las = "n/a (unlabelled model)"
    pos = f"; POS predicted by {args.tagger}" if tagger is not None else ""
    lines += [
        f"Data: {describe(args.file, doc.X)}; {scores['n_words']} words scored "
        f"(punctuation left out: {punct}; LAS on {relations} relations){pos}",
        f"UAS: {percent(scores['uas'])}",
        f"LAS: {las}",
    ]
    if conllu:
        tagged = None if tagger is None else tagger[1]["label"]
        lines.append(_conll18_line(doc.X, X, predicted, labelled, tagged))
    return lines


def _conll18_line(gold, X, predicted, labelled, tagged):
    """The CoNLL 2018 shared task's scores of the predicted columns (every word, universal
    relations, the content-word scores of relations), the file's own columns elsewhere."""
    system = copy.deepcopy(X)
    for sentence, outputs in zip(system, predicted):
        for token, output in zip(sentence, outputs):
            if labelled:
                token["head"], token["deprel"] = output
            else:
                token["head"] = output
    scores = conll18_scores(gold, system)
    names = (["UPOS" if tagged == "upos" else "XPOS"] if tagged else []) + ["UAS"]
    if labelled:
        names += ["LAS", "CLAS", "MLAS", "BLEX"]
    figures = ", ".join(f"{name} {percent(scores[name].f1)}" for name in names)
    return f"CoNLL 2018 scores (gold tokenization; other columns the file's): {figures}"


def _head(item):
    return item[0] if isinstance(item, tuple) else item
