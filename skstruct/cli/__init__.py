"""The ``skstruct`` command: train, apply and evaluate sequence labellers and dependency
parsers on CoNLL files.

Examples::

    skstruct train --task chunk --train train.txt --dev dev.txt --model chunker.npz
    skstruct predict --model chunker.npz test.txt --output predicted.txt
    skstruct evaluate --model chunker.npz test.txt
    skstruct train --task tag --label xpos --train train.conllu --model tagger.npz
    skstruct train --task parse --train train.conllu --model parser.npz
    skstruct evaluate --model parser.npz --tagger tagger.npz test.conllu
    skstruct demo

Sequence tasks (``tag``, ``chunk``, ``ner``) read CoNLL column files, one token a line
(``word [more columns] label``) with a blank line between sentences, or CoNLL-U /
CoNLL-X files, whose column ``--label`` they predict; ``parse`` reads CoNLL-U or
CoNLL-X. Models are written with :func:`skstruct.save`, together with what the command
needs to read and featurize new files the same way. ``predict`` writes its input back
whole, with only the predicted columns filled in.

Exit status: 0 on success, 1 when the run fails (a missing or malformed file, a file
that is not a model), 2 for a usage error (unknown or incompatible options).

The package: :mod:`._parser` builds the options, :mod:`._documents` reads and writes
files, :mod:`._train`, :mod:`._apply` (predict, evaluate) and :mod:`._demo` run the
commands, :mod:`._common` holds what they share.
"""

import sys
import warnings

from ._common import PROG, CommandError, UsageError
from ._parser import build_parser

__all__ = ["main"]


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
    parser = build_parser()
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
