"""The argument parser of the ``skstruct`` command and its subcommands."""

import argparse

from .. import __version__
from ..compilation import FAMILIES
from ..decoders import DECODERS
from ..updates import UPDATE_RULES
from ._apply import run_evaluate, run_predict
from ._common import (
    ALGORITHMS,
    DECODER_TASKS,
    FORMATS,
    LABEL_COLUMNS,
    PROG,
    PUNCTUATION,
    SEQUENCE_TASKS,
)
from ._demo import run_demo
from ._train import run_train
from ._warmup import run_warmup


def build_parser():
    """The ``skstruct`` parser; each subcommand sets ``run`` and ``subparser``."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Train, apply and evaluate structured perceptrons and structured SVMs "
        "on CoNLL files.",
        epilog="Run 'skstruct COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    loudness = common.add_mutually_exclusive_group()
    loudness.add_argument(
        "-q", "--quiet", action="store_true", help="print only results and errors"
    )
    loudness.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print one plain line per training epoch (epoch, seconds, training accuracy, "
        "dev score), also when standard error is a terminal (default: a progress bar on a "
        "terminal, nothing elsewhere)",
    )
    files = argparse.ArgumentParser(add_help=False)
    files.add_argument(
        "--encoding",
        default="utf-8",
        help="encoding of the files read and written (default utf-8); a leading byte-order "
        "mark is ignored",
    )
    files.add_argument(
        "--format",
        choices=FORMATS,
        default="auto",
        help="'conll': column files (word [POS] label); 'conllu': CoNLL-U or CoNLL-X; 'auto' "
        "(default): CoNLL-U for a .conllu file or one whose first token line has 10 "
        "tab-separated columns and a numeric ID, else CoNLL columns",
    )
    commands = parser.add_subparsers(title="commands", dest="command", required=True)
    for add in (_add_train, _add_predict, _add_evaluate, _add_demo, _add_warmup):
        subparser = add(commands, [common, files])
        subparser.set_defaults(subparser=subparser)
    return parser


def _add_train(commands, parents):
    sub = commands.add_parser(
        "train",
        parents=parents,
        help="train a model on a CoNLL file and save it",
        description="Train a tagger, chunker, NER model, dependency parser or constituency "
        "parser and save it.",
    )
    sub.set_defaults(run=run_train)
    data = sub.add_argument_group("data")
    data.add_argument(
        "--task",
        required=True,
        choices=(*SEQUENCE_TASKS, "parse", "constituency", "ud"),
        help="tag, chunk, ner: sequence labelling; parse: dependency trees (CoNLL-U/CoNLL-X); "
        "constituency: phrase-structure trees (Penn Treebank bracketed files, gold tags as "
        "input); ud: the whole Universal Dependencies pipeline (UPOS, XPOS, FEATS, LEMMA, "
        "HEAD, DEPREL predicted from the forms of a CoNLL-U file)",
    )
    data.add_argument("--train", required=True, metavar="FILE", help="training file")
    data.add_argument("--dev", metavar="FILE", help="development file, scored every epoch")
    data.add_argument("--model", required=True, metavar="OUT", help="where to save the model")
    data.add_argument(
        "--label-column",
        type=int,
        default=None,
        metavar="INDEX",
        help="sequence tasks on CoNLL column files: the label's column (default -1, the "
        "last); the others are token columns",
    )
    data.add_argument(
        "--label",
        choices=LABEL_COLUMNS,
        default=None,
        help="sequence tasks on CoNLL-U/CoNLL-X files: the column to predict (default upos; "
        "CoNLL-X's CPOSTAG is read as upos, POSTAG as xpos)",
    )
    data.add_argument(
        "--token-columns",
        default=None,
        metavar="NAMES",
        help="sequence tasks on CoNLL-U/CoNLL-X files: the comma-separated columns a token "
        "is read from, the word first (default: form; e.g. form,lemma)",
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
    _add_learning(sub.add_argument_group("learning"))
    return sub


def _add_learning(learning):
    learning.add_argument("--algorithm", choices=ALGORITHMS, default="perceptron")
    learning.add_argument("--max-iter", type=int, metavar="N", help="epochs (learner default)")
    learning.add_argument(
        "--decoder",
        choices=DECODERS,
        help=f"search: viterbi (default), {_others('labels', 'viterbi')} for sequences; "
        f"eisner (default), {_others('heads', 'eisner')} for parsing; cky for constituency",
    )
    learning.add_argument("--order", type=int, choices=(0, 1, 2), help="Markov or parser order")
    learning.add_argument(
        "--beam-size", type=int, metavar="K", help=", ".join(_taking("beam_size"))
    )
    learning.add_argument(
        "--projectivize",
        action="store_true",
        help=f"{', '.join(_taking('projectivize'))}: lift the crossing arcs of non-projective "
        "training trees",
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
    learning.add_argument("--C", type=float, help="eg, ssvm: regularisation constant")
    learning.add_argument("--learning-rate", type=float, help="eg")
    learning.add_argument("--tol", type=float, help="eg, ssvm: relative duality gap to stop at")
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
    learning.add_argument(
        "--n-jobs",
        type=int,
        metavar="N",
        help="ud: stages trained at once where one does not read another's output",
    )
    learning.add_argument(
        "--corpora",
        metavar="NAMES",
        help="ud: tagged corpora whose word tags the tagger reads, comma-separated from "
        "brown and conll2000, or 'none' (default: brown,conll2000 for an English treebank, "
        "else none; read from $SKSTRUCT_DATA or downloaded)",
    )


def _add_model_command(commands, parents, name, run, help, description):
    """A subcommand that applies a saved model to FILE."""
    sub = commands.add_parser(name, parents=parents, help=help, description=description)
    sub.set_defaults(run=run)
    sub.add_argument("--model", required=True, metavar="MODEL")
    sub.add_argument(
        "--tagger",
        metavar="MODEL",
        help="parse: a tagger trained on CoNLL-U ('train --task tag --label xpos'); it "
        "predicts its POS column of every token before the parser reads it",
    )
    sub.add_argument("file", metavar="FILE")
    return sub


def _add_predict(commands, parents):
    sub = _add_model_command(
        commands, parents, "predict", run_predict,
        help="label or parse a file with a trained model",
        description="Write FILE back with the predictions: CoNLL columns plus the predicted "
        "label, or CoNLL-U with only the predicted columns replaced (the label column; "
        "HEAD, DEPREL and an emptied DEPS for a parser).",
    )  # fmt: skip
    sub.add_argument("-o", "--output", metavar="OUT", help="output file (default: stdout)")
    return sub


def _add_evaluate(commands, parents):
    sub = _add_model_command(
        commands, parents, "evaluate", run_evaluate,
        help="score a trained model on an annotated file",
        description="Print token accuracy, and span precision/recall/F1 (chunk, ner) or "
        "attachment scores (parse).",
    )  # fmt: skip
    sub.add_argument(
        "--punct",
        choices=PUNCTUATION,
        help="parse: words left out of UAS/LAS: 'none' keeps all (the default for CoNLL-U, "
        "as the CoNLL 2018 shared task's scorer), 'form' punctuation characters only (the "
        "default for CoNLL-X: its eval.pl), 'ptb' the PTB punctuation tags (the file's, "
        "even with --tagger)",
    )
    sub.add_argument(
        "--relations",
        choices=("universal", "full"),
        help="parse: what LAS compares: the universal relation (before ':', the default for "
        "CoNLL-U, as the CoNLL 2018 scorer) or the full label (the default for CoNLL-X)",
    )
    return sub


def _add_demo(commands, parents):
    sub = commands.add_parser(
        "demo",
        parents=parents[:1],
        help="train and score on synthetic data (no download)",
        description="The main job on synthetic HMM sequences: train and print test scores.",
    )
    sub.set_defaults(run=run_demo)
    sub.add_argument("--algorithm", choices=(*ALGORITHMS, "all"), default="all")
    sub.add_argument("--n-samples", type=int, default=2000, metavar="N", help="sequences")
    sub.add_argument("--max-iter", type=int, default=10, metavar="N")
    sub.add_argument("--random-state", type=int, default=0, metavar="SEED")
    return sub


def _add_warmup(commands, parents):
    sub = commands.add_parser(
        "warmup",
        parents=parents[:1],
        help="compile the kernels now, so that the first fit starts warm",
        description="Compile (or load from numba's disk cache) the kernels of the chosen "
        "model families by fitting tiny models, and say where compiled kernels are kept. "
        "Run it when building a Docker image or a CI cache.",
    )
    sub.set_defaults(run=run_warmup)
    sub.add_argument(
        "families",
        nargs="*",
        choices=(*FAMILIES, "all"),
        default=["all"],
        metavar="FAMILY",
        help=f"{', '.join(FAMILIES)} or all (default)",
    )
    return sub


def _others(task, default):
    """The decoders of ``task`` but ``default``, for the help text."""
    names = [name for name, kind in DECODER_TASKS.items() if kind == task and name != default]
    return ", ".join(names[:-1]) + " or " + names[-1]


def _taking(parameter):
    """The decoders that have ``parameter``."""
    return [name for name, cls in DECODERS.items() if parameter in cls().get_params()]
