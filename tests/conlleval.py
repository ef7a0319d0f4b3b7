"""Pure-Python port of the chunk counting of ``conlleval.pl``, the test oracle for span metrics.

``conlleval.pl`` (Erik Tjong Kim Sang, version 2004-01-26) is the evaluation
script of the CoNLL-2000 chunking and CoNLL-2002/2003 NER shared tasks. It
reads one token per line (``... correct guessed``) with blank lines between
sentences. This module ports, statement by statement and without shortcuts:

* the label split ``/^([^-]*)-(.*)$/`` (tag before the first hyphen, type after
  it; the whole label is the tag when it has no hyphen), including the Perl
  truthiness test that turns the type ``"0"`` into ``""``;
* the sentence boundary, which the script processes as an extra ``O O`` line
  that is not counted as a token;
* ``endOfChunk`` and ``startOfChunk`` over the tags B, I, E, O, ``[`` and
  ``]``, with ``.`` exempt from the type-change rules;
* the ``$inCorrect`` state machine that counts correct chunks: a chunk is
  correct when both sequences start a chunk of the same type at the same
  token and both end it at the same token with the same type, and no token in
  between has a different type in the two sequences. A chunk that starts
  inside a chunk of another type (``I-VP`` right after ``I-NP``) ends that
  chunk and starts a new one, and chunks are counted where they *start*;
* precision, recall and FB1 in percent, each 0 when its denominator is 0.

The script has no rule for the IOBES tag ``S``, and does not end a chunk at
``E`` followed by ``B``. ``iobes=True`` adds the rules that the Python ports
of the script (and seqeval) add for those: ``E`` and ``S`` always end a
chunk, ``B`` and ``S`` always start one, and ``S`` followed by ``I`` or ``E``
starts one. Only label sets mixing ``E`` with ``B``, or using ``S``, are
affected.

Only the chunk logic is ported; file parsing, the ``-r``/``-d``/``-o``/``-l``
options and report printing are not.
"""

import re
from collections import Counter
from typing import NamedTuple

BOUNDARY = "-X-"
_LABEL = re.compile(r"^([^-]*)-(.*)$")


class Counts(NamedTuple):
    """Totals printed by conlleval (``correctChunk``, ``foundCorrect``...)."""

    correct_chunk: int
    found_correct: int
    found_guessed: int
    correct_tags: int
    token_counter: int
    correct_chunk_by_type: Counter
    found_correct_by_type: Counter
    found_guessed_by_type: Counter


def split_label(label):
    """``"B-NP"`` -> ``("B", "NP")``, as the 20040126 regex plus ``$x ? $x : ""``."""
    match = _LABEL.match(label)
    tag, chunk_type = match.groups() if match else (label, "")
    # $guessedType = $guessedType ? $guessedType : "";  -- Perl's "0" is false.
    if chunk_type in ("", "0"):
        chunk_type = ""
    return tag, chunk_type


def end_of_chunk(prev_tag, tag, prev_type, type_, *, iobes=False):
    """conlleval's ``endOfChunk``: did a chunk end between the previous and this token?"""
    chunk_end = False
    if prev_tag == "B" and tag == "B":
        chunk_end = True
    if prev_tag == "B" and tag == "O":
        chunk_end = True
    if prev_tag == "I" and tag == "B":
        chunk_end = True
    if prev_tag == "I" and tag == "O":
        chunk_end = True

    if prev_tag == "E" and tag == "E":
        chunk_end = True
    if prev_tag == "E" and tag == "I":
        chunk_end = True
    if prev_tag == "E" and tag == "O":
        chunk_end = True
    if prev_tag == "I" and tag == "O":
        chunk_end = True

    if prev_tag != "O" and prev_tag != "." and prev_type != type_:
        chunk_end = True

    # corrected 1998-12-22: these chunks are assumed to have length 1
    if prev_tag == "]":
        chunk_end = True
    if prev_tag == "[":
        chunk_end = True

    if iobes:
        if prev_tag in ("E", "S"):
            chunk_end = True
        if prev_tag in ("B", "I") and tag == "S":
            chunk_end = True
    return chunk_end


def start_of_chunk(prev_tag, tag, prev_type, type_, *, iobes=False):
    """conlleval's ``startOfChunk``: did a chunk start between the previous and this token?"""
    chunk_start = False
    if prev_tag == "B" and tag == "B":
        chunk_start = True
    if prev_tag == "I" and tag == "B":
        chunk_start = True
    if prev_tag == "O" and tag == "B":
        chunk_start = True
    if prev_tag == "O" and tag == "I":
        chunk_start = True

    if prev_tag == "E" and tag == "E":
        chunk_start = True
    if prev_tag == "E" and tag == "I":
        chunk_start = True
    if prev_tag == "O" and tag == "E":
        chunk_start = True
    if prev_tag == "O" and tag == "I":
        chunk_start = True

    if tag != "O" and tag != "." and prev_type != type_:
        chunk_start = True

    # corrected 1998-12-22: these chunks are assumed to have length 1
    if tag == "[":
        chunk_start = True
    if tag == "]":
        chunk_start = True

    if iobes:
        if tag in ("B", "S"):
            chunk_start = True
        if prev_tag == "S" and tag in ("E", "I"):
            chunk_start = True
    return chunk_start


def _lines(y_true, y_pred):
    """The lines of the input file: (first item, correct label, guessed label)."""
    for i, (seq_true, seq_pred) in enumerate(zip(y_true, y_pred, strict=True)):
        if i > 0:  # an empty line between sentences
            yield BOUNDARY, "O", "O"
        for correct, guessed in zip(seq_true, seq_pred, strict=True):
            yield "token", correct, guessed


def evaluate(y_true, y_pred, *, iobes=False):
    """Run conlleval's main loop over sentences of labels and return its counts."""
    correct_chunk = found_correct = found_guessed = correct_tags = token_counter = 0
    correct_chunk_by_type, found_correct_by_type, found_guessed_by_type = (
        Counter(),
        Counter(),
        Counter(),
    )
    in_correct = False
    last_correct, last_correct_type = "O", ""
    last_guessed, last_guessed_type = "O", ""

    for first_item, correct_label, guessed_label in _lines(y_true, y_pred):
        guessed, guessed_type = split_label(guessed_label)
        correct, correct_type = split_label(correct_label)
        # 1999-06-26 sentence breaks should always be counted as out of chunk
        if first_item == BOUNDARY:
            guessed = "O"

        end_correct = end_of_chunk(
            last_correct, correct, last_correct_type, correct_type, iobes=iobes
        )
        end_guessed = end_of_chunk(
            last_guessed, guessed, last_guessed_type, guessed_type, iobes=iobes
        )
        start_correct = start_of_chunk(
            last_correct, correct, last_correct_type, correct_type, iobes=iobes
        )
        start_guessed = start_of_chunk(
            last_guessed, guessed, last_guessed_type, guessed_type, iobes=iobes
        )

        if in_correct:
            if end_correct and end_guessed and last_guessed_type == last_correct_type:
                in_correct = False
                correct_chunk += 1
                correct_chunk_by_type[last_correct_type] += 1
            elif end_correct != end_guessed or guessed_type != correct_type:
                in_correct = False

        if start_correct and start_guessed and guessed_type == correct_type:
            in_correct = True

        if start_correct:
            found_correct += 1
            found_correct_by_type[correct_type] += 1
        if start_guessed:
            found_guessed += 1
            found_guessed_by_type[guessed_type] += 1
        if first_item != BOUNDARY:
            if correct == guessed and guessed_type == correct_type:
                correct_tags += 1
            token_counter += 1

        last_guessed, last_correct = guessed, correct
        last_guessed_type, last_correct_type = guessed_type, correct_type

    if in_correct:  # end of file
        correct_chunk += 1
        correct_chunk_by_type[last_correct_type] += 1

    return Counts(
        correct_chunk,
        found_correct,
        found_guessed,
        correct_tags,
        token_counter,
        correct_chunk_by_type,
        found_correct_by_type,
        found_guessed_by_type,
    )


def _scores(correct, guessed, found):
    """conlleval's precision, recall and FB1, in percent (0.0 when undefined)."""
    precision = 100 * correct / guessed if guessed > 0 else 0.0
    recall = 100 * correct / found if found > 0 else 0.0
    fb1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return precision, recall, fb1


def overall(counts):
    """The "accuracy/precision/recall/FB1" line, as fractions in [0, 1]."""
    scores = _scores(counts.correct_chunk, counts.found_guessed, counts.found_correct)
    return tuple(s / 100 for s in scores)


def by_type(counts):
    """The per-type lines, as {type: (precision, recall, fb1)} fractions."""
    types = set(counts.found_correct_by_type) | set(counts.found_guessed_by_type)
    return {
        t: tuple(
            s / 100
            for s in _scores(
                counts.correct_chunk_by_type[t],
                counts.found_guessed_by_type[t],
                counts.found_correct_by_type[t],
            )
        )
        for t in sorted(types)
    }


def accuracy(counts):
    """Token accuracy as conlleval prints it, as a fraction."""
    return counts.correct_tags / counts.token_counter
