"""``--task constituency``: Penn Treebank bracketed files in, bracketed trees out."""

import io

from ..datasets import load_ptb, tagged_words
from ..metrics import evalb
from ._common import CLI_SETTINGS_VERSION, CommandError, describe, info
from ._documents import ColumnDocument, read_text_of, write_lines

#: The format ``train`` records for constituency models: bracketed trees.
BRACKETED = "ptb"


def read_trees(path, encoding):
    """``(X, trees)`` of a bracketed file: the trees' tagged words (empty elements left
    out) and the trees."""
    stream = io.StringIO(read_text_of(path, encoding))
    stream.name = str(path)  # what load_ptb's errors name
    try:
        trees = load_ptb(stream)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    if not trees:
        raise CommandError(f"{path} holds no tree")
    return [tagged_words(tree) for tree in trees], trees


def read_sentences(path, encoding):
    """``(X, gold trees or None)``: a bracketed file's tagged words and trees, or the
    sentences of a two-column file (a word and its tag per line, a blank line between
    sentences)."""
    text = read_text_of(path, encoding)
    if text.lstrip().startswith("("):
        return read_trees(path, encoding)
    doc = ColumnDocument(path, text)
    for i, sentence in enumerate(doc.tokens):
        if len(sentence[0]) != 2:
            raise CommandError(
                f"{path}: sentence {i} has {len(sentence[0])} columns; the parser reads "
                f"bracketed trees or two columns (word and tag)"
            )
    return [[{"form": w, "xpos": t} for w, t in sentence] for sentence in doc.tokens], None


def training_data(args):
    """Training and dev data of ``--task constituency``, and the settings."""
    X, y = read_trees(args.train, args.encoding)
    info(args, f"Read {describe(args.train, X)}")
    dev = None
    if args.dev:
        dev = read_trees(args.dev, args.encoding)
        info(args, f"Read {describe(args.dev, dev[0])}")
    settings = {"version": CLI_SETTINGS_VERSION, "task": "constituency", "format": BRACKETED}
    return (X, y), dev, settings


def predict(args, model):
    """Write one predicted tree per line (the Penn Treebank's bracketing)."""
    X, _ = read_sentences(args.file, args.encoding)
    lines = [str(tree) for tree in _parse(model, X, args.file)]
    write_lines(args.output, lines, args.encoding)
    if args.output:
        info(args, f"Wrote {len(lines)} trees to {args.output}")


def report(args, model):
    """EVALB's figures (COLLINS.prm) of the model's trees against ``args.file``'s."""
    X, gold = read_trees(args.file, args.encoding)
    predicted = _parse(model, X, args.file)
    everything, short = evalb(gold, predicted), evalb(gold, predicted, max_length=40)
    lines = [f"Data: {describe(args.file, X)}; EVALB (COLLINS.prm), gold tags as input"]
    for name, scores in (("all lengths", everything), ("<= 40 words", short)):
        lines.append(
            f"{name}: bracket recall {scores.recall:.2f}  precision {scores.precision:.2f}  "
            f"F1 {scores.f1:.2f}  complete match {scores.complete_match:.2f}  "
            f"({scores.n_sentences} sentences, {scores.n_errors} errors)"
        )
    return lines


def _parse(model, X, path):
    try:
        return model.predict(X)
    except ValueError as exc:
        raise CommandError(f"{path}: {exc}") from None
