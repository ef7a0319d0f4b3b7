"""What every command shares: the option tables, the two errors, verbosity and the
small formatting helpers."""

import sys

from .. import SWVP, ExponentiatedGradientSSVM, StructuredPerceptron, StructuredSVM
from ..decoders import DECODERS
from ..metrics import PTB_PUNCTUATION_TAGS

PROG = "skstruct"
#: Version of the settings ``train`` stores with a model (``metadata["cli"]``). Version 2
#: adds ``format`` (and, for CoNLL-U, ``label`` and named ``token_columns``); version 1
#: models are still read.
CLI_SETTINGS_VERSION = 2
READABLE_SETTINGS_VERSIONS = (1, 2)
SEQUENCE_TASKS = ("tag", "chunk", "ner")
SPAN_TASKS = ("chunk", "ner")
FORMATS = ("auto", "conll", "conllu")
#: CoNLL-U columns a sequence task may predict (``--label``), by their conllu names.
LABEL_COLUMNS = ("upos", "xpos", "lemma", "feats", "deprel", "misc")
#: CoNLL-U columns a sequence task may read its tokens from (``--token-columns``).
TOKEN_COLUMNS = ("form", "lemma", "upos", "xpos", "feats", "misc")
ALGORITHMS = {
    "perceptron": StructuredPerceptron,
    "swvp": SWVP,
    "eg": ExponentiatedGradientSSVM,
    "ssvm": StructuredSVM,
}
#: What each decoder predicts, by its --decoder name: "labels" or "heads".
DECODER_TASKS = {name: cls().capabilities.task.name for name, cls in DECODERS.items()}
PUNCTUATION = {"form": "form", "ptb": PTB_PUNCTUATION_TAGS, "none": None}
#: How the command line tells a user to pass an encoding (the Python readers say
#: ``encoding='latin-1'``); ``{}`` is the encoding to try.
ENCODING_ADVICE = "pass the file's encoding, e.g. --encoding {}"


class UsageError(Exception):
    """Options that cannot work together (exit status 2, with the usage)."""


class CommandError(Exception):
    """A failure to report on one line (exit status 1)."""


def verbosity(args):
    """The learners' ``verbose``: 0 with ``--quiet``; 2 (a plain line per epoch) with
    ``--verbose``; else 1: a progress bar on a terminal, a plain line per epoch elsewhere
    (a bar's redrawing is noise in a log, and silence for minutes is no better)."""
    if args.quiet:
        return 0
    return 2 if args.verbose else 1


def info(args, message):
    """A progress message on standard error, unless ``--quiet``."""
    if not args.quiet:
        print(message, file=sys.stderr)


def describe(path, sentences):
    return f"{path}, {len(sentences)} sentences, {sum(map(len, sentences))} tokens"


def columns(n):
    return f"{n} column{'' if n == 1 else 's'}"


def flat(sequences):
    return (item for sequence in sequences for item in sequence)


def percent(fraction):
    return f"{100 * fraction:.2f}"
