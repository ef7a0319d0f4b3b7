"""EpochProgress: what a learner's ``verbose`` shows on standard error, epoch by epoch."""

import sys

from tqdm.auto import tqdm

__all__ = ["EpochProgress"]


class EpochProgress:
    """What ``verbose`` shows, per epoch, on standard error.

    ``verbose=1`` draws a tqdm bar on a terminal; when standard error is not a
    terminal (a log file, a pipe, a notebook's captured output) the bar's redrawn
    frames would be noise, so it prints one plain line per epoch instead, as
    ``verbose >= 2`` does everywhere. ``verbose=0`` shows nothing. A dev score is
    shown only when there is a development set.

    Parameters
    ----------
    learner : estimator
        Its class names the output, its ``verbose`` decides it and its decoder whether
        the dev score is token accuracy or UAS.
    total : int
        The most epochs the loop may run (``max_iter``).

    Examples
    --------
    >>> import io, sys
    >>> from skstruct import StructuredPerceptron
    >>> progress = EpochProgress(StructuredPerceptron(verbose=2), total=2)
    >>> sys.stderr, saved = io.StringIO(), sys.stderr
    >>> for epoch in progress:
    ...     progress.report({"epoch": epoch + 1, "seconds": 0.5, "dev_score": None},
    ...                     [("mistakes", 3, "/10 sequences wrong")])
    >>> printed, sys.stderr = sys.stderr.getvalue(), saved
    >>> print(printed, end="")
    StructuredPerceptron epoch 1/2: 0.50 s, 3/10 sequences wrong
    StructuredPerceptron epoch 2/2: 0.50 s, 3/10 sequences wrong
    """

    def __init__(self, learner, total):
        verbose = int(learner.verbose)
        self.name = type(learner).__name__
        self.total = total
        self.plain = verbose >= 2 or (verbose == 1 and not sys.stderr.isatty())
        decoder = getattr(learner, "decoder_", None)
        self.dev_name = "dev accuracy" if decoder is None else decoder.capabilities.task.dev_name
        self.bar = tqdm(
            range(total),
            desc=self.name,
            unit="epoch",
            disable=verbose < 1 or self.plain,
            leave=False,
            file=sys.stderr,
        )

    def __iter__(self):
        return iter(self.bar)

    def report(self, record, items):
        """Show epoch ``record``'s time and dev score with ``items``, each a triple
        ``(key, value, text)``: the bar shows ``key=value``, the plain line ``value`` and
        ``text`` (``value`` first when ``text`` starts with ``/``, else after ``text``)."""
        dev = record.get("dev_score")
        if self.plain:
            parts = [f"{record['seconds']:.2f} s"]
            parts += [f"{value}{text}" if text.startswith("/") else f"{text} {value}"
                      for _, value, text in items]  # fmt: skip
            if dev is not None:
                parts.append(f"{self.dev_name} {100 * dev:.2f}%")
            line = f"{self.name} epoch {record['epoch']}/{self.total}: {', '.join(parts)}"
            print(line, file=sys.stderr, flush=True)
        elif not self.bar.disable:
            postfix = {key: value for key, value, _ in items}
            if dev is not None:
                postfix["dev"] = f"{100 * dev:.2f}%"
            self.bar.set_postfix(postfix)
