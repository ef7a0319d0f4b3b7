"""Tests for skstruct.metrics: validation, token/sequence metrics, span metrics, scorers.

Span metrics are checked against ``tests/conlleval.py``, a port of conlleval.pl.
"""

import doctest
import functools
import inspect
import pickle
import random
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval.metrics import f1_score as seqeval_f1
from seqeval.metrics.sequence_labeling import precision_recall_fscore_support as seqeval_prfs
from sklearn.base import BaseEstimator
from sklearn.metrics import accuracy_score, classification_report
from sklearn.model_selection import GridSearchCV, cross_val_score, cross_validate

import skstruct.metrics as metrics
from skstruct.metrics import (
    SCORERS,
    _scorers,
    _span,
    _token,
    flat_classification_report,
    sequence_accuracy,
    sequence_accuracy_scorer,
    span_classification_report,
    span_f1_score,
    span_f1_scorer,
    span_precision_recall_fscore,
    token_accuracy,
    token_accuracy_scorer,
)
from skstruct.metrics._span import _span_counts
from tests import conlleval

ALL_METRICS = [
    token_accuracy,
    sequence_accuracy,
    flat_classification_report,
    span_precision_recall_fscore,
    span_f1_score,
    span_classification_report,
]
SPAN_METRICS = [span_precision_recall_fscore, span_f1_score, span_classification_report]


# --------------------------------------------------------------------------- helpers


def package_counts(y_true, y_pred):
    """{type: (correct, predicted, true)} from the package."""
    c = _span_counts(y_true, y_pred)
    return {
        t: (int(a), int(b), int(d))
        for t, a, b, d in zip(c.types, c.n_correct, c.n_pred, c.n_true, strict=True)
    }


def port_counts(y_true, y_pred, *, iobes=False, counts=None):
    """{type: (correct, predicted, true)} from the conlleval port."""
    c = conlleval.evaluate(y_true, y_pred, iobes=iobes) if counts is None else counts
    types = set(c.found_correct_by_type) | set(c.found_guessed_by_type)
    return {
        t: (c.correct_chunk_by_type[t], c.found_guessed_by_type[t], c.found_correct_by_type[t])
        for t in types
    }


def assert_agrees_with_conlleval(y_true, y_pred, *, iobes):
    assert package_counts(y_true, y_pred) == port_counts(y_true, y_pred, iobes=iobes)
    counts = conlleval.evaluate(y_true, y_pred, iobes=iobes)
    assert span_precision_recall_fscore(y_true, y_pred) == pytest.approx(
        conlleval.overall(counts), abs=1e-12, rel=0
    )
    report = span_classification_report(y_true, y_pred, output_dict=True)
    for chunk_type, expected in conlleval.by_type(counts).items():
        row = report[chunk_type]
        got = (row["precision"], row["recall"], row["f1-score"])
        assert got == pytest.approx(expected, abs=1e-12, rel=0)


def totals(y_true, y_pred):
    """(correct, predicted, true) chunks over all types."""
    c = _span_counts(y_true, y_pred)
    return int(c.n_correct.sum()), int(c.n_pred.sum()), int(c.n_true.sum())


# --------------------------------------------------------------------------- validation

Y = [["B-NP", "I-NP", "O"], ["B-VP"]]


@pytest.mark.parametrize("metric", ALL_METRICS)
def test_generator_is_refused_with_a_hint(metric):
    with pytest.raises(TypeError, match=r"list\(y_true\)"):
        metric((seq for seq in Y), Y)
    with pytest.raises(TypeError, match=r"list\(y_pred\)"):
        metric(Y, iter(Y))


@pytest.mark.parametrize("metric", ALL_METRICS)
@pytest.mark.parametrize(
    "bad, message",
    [
        ("B-NP I-NP", "got a string"),
        (["B-NP", "I-NP", "O"], r"y_true\[0\] is a single label 'B-NP'"),
        (np.array(["B-NP", "I-NP"]), "flat 1-D array"),
        ({"a": ["O"]}, "got dict"),
        (3, "got int"),
    ],
)
def test_not_a_list_of_sequences(metric, bad, message):
    with pytest.raises(TypeError, match=message):
        metric(bad, Y)


@pytest.mark.parametrize("metric", ALL_METRICS)
def test_inconsistent_inputs(metric):
    with pytest.raises(ValueError, match="2 in y_true and 1 in y_pred"):
        metric(Y, Y[:1])
    with pytest.raises(ValueError, match="Sequence 1 has 1 labels in y_true but 2 in y_pred"):
        metric(Y, [Y[0], ["B-VP", "O"]])
    with pytest.raises(ValueError, match="y_true contains no sequences"):
        metric([], [])
    with pytest.raises(ValueError, match="must be a 1-D sequence"):
        metric([np.array([["O"]])], [["O"]])


@pytest.mark.parametrize("metric", [token_accuracy, sequence_accuracy, span_f1_score])
def test_container_types_are_equivalent(metric):
    y_true = [["B-NP", "I-NP", "O"], ["B-VP", "O", "B-NP"]]
    y_pred = [["B-NP", "B-NP", "O"], ["B-VP", "O", "B-NP"]]
    expected = metric(y_true, y_pred)
    variants = [
        [tuple(s) for s in y_pred],
        tuple(np.array(s) for s in y_pred),
        np.array([np.array(s, dtype=object) for s in y_pred] + [None], dtype=object)[:-1],
        np.array(y_pred),  # 2-D array: rows are sequences
    ]
    for y in variants:
        assert metric(y_true, y) == expected
        assert metric(y, y_true) == metric(y_pred, y_true)


# --------------------------------------------------------------------------- token metrics


def test_token_accuracy_pools_tokens_not_sentences():
    y_true = [["a"] * 9, ["b"]]
    y_pred = [["a"] * 9, ["a"]]
    assert token_accuracy(y_true, y_pred) == 0.9  # the mean of per-sentence accuracies is 0.5
    assert sequence_accuracy(y_true, y_pred) == 0.5


def test_token_metrics_accept_any_labels_and_match_sklearn():
    rng = np.random.default_rng(0)
    y_true = [rng.integers(0, 3, size=n) for n in (4, 0, 7, 1)]
    y_pred = [np.where(rng.random(len(s)) < 0.3, 2, s) for s in y_true]
    flat_true, flat_pred = np.concatenate(y_true), np.concatenate(y_pred)
    assert token_accuracy(y_true, y_pred) == pytest.approx(accuracy_score(flat_true, flat_pred))
    exact = [np.array_equal(t, p) for t, p in zip(y_true, y_pred, strict=True)]
    assert sequence_accuracy(y_true, y_pred) == pytest.approx(np.mean(exact))


def test_empty_sequences():
    assert sequence_accuracy([[], ["O"]], [[], ["B"]]) == 0.5
    assert token_accuracy([[], ["O"]], [[], ["O"]]) == 1.0
    with pytest.raises(ValueError, match="every sequence is empty"):
        token_accuracy([[], []], [[], []])


def test_flat_classification_report_is_sklearn_on_flattened_labels():
    y_true = [["B-NP", "I-NP", "O"], ["B-VP", "I-VP"]]
    y_pred = [["B-NP", "B-NP", "O"], ["B-VP", "O"]]
    flat_true = ["B-NP", "I-NP", "O", "B-VP", "I-VP"]
    flat_pred = ["B-NP", "B-NP", "O", "B-VP", "O"]
    kwargs = {"labels": ["B-NP", "I-NP", "B-VP"], "digits": 3, "zero_division": 0}
    assert flat_classification_report(y_true, y_pred, **kwargs) == classification_report(
        flat_true, flat_pred, **kwargs
    )
    report = flat_classification_report(y_true, y_pred, output_dict=True, zero_division=0)
    assert report["B-NP"]["precision"] == 0.5
    assert report["O"]["support"] == 1
    assert "I-VP" in report


# ---------------------------------------------------------------- span metrics: hand cases

# (y_true, y_pred, expected (correct, predicted, true) chunks, worked out by hand)
TRICKY_IOB_CASES = {
    "I after O starts a chunk (IOB1)": (
        [["O", "B-NP", "I-NP", "O"]],
        [["O", "I-NP", "I-NP", "O"]],
        (1, 1, 1),
    ),
    "I of another type ends the chunk and starts one": (
        [["B-NP", "I-NP", "I-NP"]],
        [["B-NP", "I-VP", "I-NP"]],
        (0, 3, 1),
    ),
    "chunk starting inside another type, correct": (
        [["B-NP", "I-NP", "B-VP", "I-VP"]],
        [["B-NP", "I-NP", "I-VP", "I-VP"]],
        (2, 2, 2),
    ),
    "B after I splits a chunk": (
        [["B-NP", "I-NP", "B-NP", "I-NP"]],
        [["B-NP", "I-NP", "I-NP", "I-NP"]],
        (0, 1, 2),
    ),
    "sentence end closes the chunk; next sentence's I starts one": (
        [["O", "B-NP"], ["I-NP", "O"]],
        [["O", "B-NP"], ["O", "O"]],
        (1, 1, 2),
    ),
    "sequence ending inside a chunk": (
        [["B-NP", "I-NP"], ["B-VP", "I-VP", "I-VP"]],
        [["B-NP", "I-NP"], ["B-VP", "I-VP", "B-VP"]],
        (1, 3, 2),
    ),
    "typeless labels": ([["B", "I", "O", "B"]], [["B", "B", "O", "I"]], (1, 3, 2)),
    "IOB1 truth, IOB2 prediction": (
        [["I-NP", "I-NP", "B-NP", "I-VP", "O", "I-PP"]],
        [["B-NP", "I-NP", "B-NP", "B-VP", "O", "B-PP"]],
        (4, 4, 4),
    ),
    "hyphen inside the type": ([["B-NP-X", "I-NP-X"]], [["B-NP-X", "I-NP-Y"]], (0, 2, 1)),
    "IOE1": (
        [["I-NP", "I-NP", "E-NP", "I-NP", "O"]],
        [["I-NP", "E-NP", "I-NP", "I-NP", "O"]],
        (0, 2, 2),
    ),
    "IOE2": ([["E-NP", "I-VP", "E-VP"]], [["E-NP", "E-VP", "E-VP"]], (1, 3, 2)),
    "type on O is ignored": ([["B-NP", "O-NP", "I-NP"]], [["B-NP", "O", "B-NP"]], (2, 2, 2)),
    "nothing predicted": ([["B-NP", "O"]], [["O", "O"]], (0, 0, 1)),
    "no chunk anywhere": ([["O", "O"], []], [["O", "O"], []], (0, 0, 0)),
    "empty sentences around": ([[], ["B-NP"], []], [[], ["B-NP"], []], (1, 1, 1)),
}


@pytest.mark.parametrize("case", list(TRICKY_IOB_CASES))
def test_tricky_iob_cases_match_conlleval(case):
    y_true, y_pred, expected = TRICKY_IOB_CASES[case]
    assert totals(y_true, y_pred) == expected
    # IOB/IOE label sets: the plain Perl rules and the IOBES extension must agree.
    assert_agrees_with_conlleval(y_true, y_pred, iobes=False)
    assert_agrees_with_conlleval(y_true, y_pred, iobes=True)


def test_iobes_follows_the_extension_not_perl():
    y_true = [["S-PER", "S-PER", "B-LOC", "E-LOC", "B-LOC", "E-LOC"]]
    y_pred = [["B-PER", "E-PER", "B-LOC", "E-LOC", "S-LOC", "O"]]
    assert totals(y_true, y_pred) == (1, 3, 4)
    assert_agrees_with_conlleval(y_true, y_pred, iobes=True)
    # conlleval.pl itself knows no S and does not split E-LOC B-LOC: PER(0-1), LOC(2-5).
    assert conlleval.evaluate(y_true, y_true).found_correct == 2


def test_hand_computed_scores():
    # seqeval's own documentation example.
    y_true = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    assert span_precision_recall_fscore(y_true, y_pred) == (0.5, 0.5, 0.5)
    # 2 of 3 predicted, 2 of 4 true: P = 2/3, R = 1/2, F = 4/7.
    y_true = [["B-NP", "I-NP", "B-VP", "B-NP"], ["B-PP"]]
    y_pred = [["B-NP", "I-NP", "B-VP", "B-VP"], ["O"]]
    p, r, f = span_precision_recall_fscore(y_true, y_pred)
    assert (p, r, f) == pytest.approx((2 / 3, 1 / 2, 4 / 7), abs=1e-15)
    assert span_f1_score(y_true, y_pred) == f


def test_zero_division_follows_conlleval():
    assert span_precision_recall_fscore([["B-NP"]], [["O"]]) == (0.0, 0.0, 0.0)
    assert span_precision_recall_fscore([["O"]], [["B-NP"]]) == (0.0, 0.0, 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and quietly
        for average in ("micro", "macro", "weighted"):
            assert span_f1_score([["O"]], [["O"]], average=average) == 0.0
    assert conlleval.overall(conlleval.evaluate([["O"]], [["O"]])) == (0.0, 0.0, 0.0)


def test_macro_and_weighted_averages():
    # (correct, predicted, true) per type: NP (1, 1, 2) -> F 2/3; VP (0, 0, 1) -> F 0;
    # PP (1, 2, 1) -> P 1/2, R 1, F 2/3.
    y_true = [["B-NP", "B-NP", "B-VP", "B-PP"]]
    y_pred = [["B-NP", "O", "B-PP", "B-PP"]]
    report = span_classification_report(y_true, y_pred, output_dict=True)
    assert report["NP"] == {
        "precision": 1.0,
        "recall": 0.5,
        "f1-score": pytest.approx(2 / 3),
        "support": 2,
    }
    assert report["VP"] == {"precision": 0.0, "recall": 0.0, "f1-score": 0.0, "support": 1}
    assert report["PP"]["precision"] == 0.5
    macro = span_f1_score(y_true, y_pred, average="macro")
    weighted = span_f1_score(y_true, y_pred, average="weighted")
    assert macro == pytest.approx((2 / 3 + 0 + 2 / 3) / 3)
    assert weighted == pytest.approx((2 * 2 / 3 + 0 + 1 * 2 / 3) / 4)
    assert report["macro avg"]["f1-score"] == macro
    assert report["weighted avg"]["f1-score"] == weighted
    assert report["micro avg"]["support"] == 4
    with pytest.raises(ValueError, match="average must be one of"):
        span_f1_score(y_true, y_pred, average="samples")


def test_text_report_lists_types_then_averages():
    y_true = [["B-NP", "I-NP", "O", "B-VP"], ["B-ADJP"]]
    text = span_classification_report(y_true, y_true, digits=4)
    lines = [line.split() for line in text.splitlines() if line.strip()]
    assert lines[0] == ["precision", "recall", "f1-score", "support"]
    assert [line[0] for line in lines[1:4]] == ["ADJP", "NP", "VP"]
    assert lines[1][1:] == ["1.0000", "1.0000", "1.0000", "1"]
    assert [" ".join(line[:2]) for line in lines[4:]] == ["micro avg", "macro avg", "weighted avg"]
    with pytest.raises(ValueError, match="digits"):
        span_classification_report(y_true, y_true, digits=-1)


def test_typeless_chunks_are_not_merged_with_type_underscore():
    y_true, y_pred = [["B", "I", "O"]], [["B-_", "I-_", "O"]]
    assert package_counts(y_true, y_pred) == {"": (0, 0, 1), "_": (0, 1, 0)}
    assert_agrees_with_conlleval(y_true, y_pred, iobes=True)
    # Plain seqeval names the typeless type "_" as well and calls this a perfect match.
    assert seqeval_f1(y_true, y_pred) == 1.0


def test_type_zero_is_kept_unlike_perl_truthiness():
    # The one deliberate difference on supported labels (documented in _span).
    y_true, y_pred = [["B-0", "O"]], [["B", "O"]]
    assert span_f1_score(y_true, y_pred) == 0.0
    assert conlleval.overall(conlleval.evaluate(y_true, y_pred)) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize(
    "y_true, y_pred, expected",
    [
        # A type change after "." neither ends nor starts a chunk, but the differing
        # token types still make the chunk wrong ($guessedType ne $correctType).
        ([["B-NP", ".-NP", ".-VP"]], [["B-NP", ".-NP", ".-NP"]], (0, 1, 1)),
        # "[" and "]" are chunks of length 1.
        ([["[-NP", "]-NP", "O"]], [["B-NP", "B-NP", "O"]], (2, 2, 2)),
        # IOBES is not in the script: S-NP S-NP is one chunk, and so is E-NP B-NP.
        ([["S-NP", "S-NP"]], [["B-NP", "E-NP"]], (1, 1, 1)),
        ([["B-NP", "E-NP", "B-NP"]], [["B-NP", "I-NP", "I-NP"]], (1, 1, 1)),
        # Perl truthiness: type "0" is no type.
        ([["B-0", "I"]], [["B", "I-0"]], (1, 1, 1)),
    ],
)
def test_port_reproduces_conlleval_pl_quirks(y_true, y_pred, expected):
    """Pins the port itself on rules that the package does not exercise."""
    c = conlleval.evaluate(y_true, y_pred)
    assert (c.correct_chunk, c.found_guessed, c.found_correct) == expected


@pytest.mark.parametrize("metric", SPAN_METRICS)
@pytest.mark.parametrize(
    "label", ["[-NP", "]-NP", "[", ".", ".-NP", "U-PER", "L-PER", "NP", "BB-NP", "", 1, None]
)
def test_unsupported_labels_are_refused(metric, label):
    with pytest.raises(ValueError, match=r"y_pred\[1\] contains"):
        metric([["O"], ["B-NP", "O"]], [["O"], ["B-NP", label]])


@pytest.mark.parametrize(
    "y_true, y_pred",
    [
        ([["[-NP", "]-NP"]], [["B-NP", "B-NP"]]),  # seqeval ignores brackets
        ([["O", "NP"]], [["O", "NP"]]),  # seqeval reads "NP" as tag N, type P
        ([["E-NP", "X-NP"]], [["E-NP", "O"]]),  # unknown tag: seqeval counts NP twice
        ([["B-NP", ".-NP", "I-VP"]], [["B-NP", ".-NP", "B-VP"]]),  # "." start without end
    ],
)
def test_plain_seqeval_disagrees_with_conlleval_outside_supported_labels(y_true, y_pred):
    """Why span metrics refuse these labels instead of passing them to seqeval."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seqeval warns about non-NE tags
        plain = seqeval_prfs(y_true, y_pred, average="micro", zero_division=0)[:3]
    port = conlleval.overall(conlleval.evaluate(y_true, y_pred, iobes=True))
    assert plain != pytest.approx(port, abs=1e-12)


# ---------------------------------------------------------------- span metrics: hypothesis

TYPES = ("NP", "VP")
IOB_LABELS = ["O"] + [f"{tag}-{t}" for t in TYPES for tag in "BI"]
IOE_LABELS = ["O"] + [f"{tag}-{t}" for t in TYPES for tag in "IE"]
ALL_SUPPORTED = ["O", "O-NP", "B", "I", "E", "S"] + [
    f"{tag}-{t}" for t in (*TYPES, "_", "A-B") for tag in "BIES"
]


@st.composite
def corpora(draw, labels, max_sentences=4, max_length=8):
    """Paired label sequences; predictions copy the truth often so chunks can match."""
    label = st.sampled_from(labels)
    y_true, y_pred = [], []
    for _ in range(draw(st.integers(1, max_sentences))):
        seq = draw(st.lists(label, max_size=max_length))
        y_true.append(seq)
        y_pred.append([draw(st.one_of(st.just(t), label)) for t in seq])
    return y_true, y_pred


@settings(max_examples=200, deadline=None)
@given(corpora(IOB_LABELS))
def test_random_iob_matches_conlleval(data):
    y_true, y_pred = data
    assert_agrees_with_conlleval(y_true, y_pred, iobes=False)
    assert package_counts(y_true, y_pred) == port_counts(y_true, y_pred, iobes=True)
    # seqeval's default mode itself, with conlleval's zero handling.
    port = conlleval.overall(conlleval.evaluate(y_true, y_pred))
    plain = seqeval_prfs(y_true, y_pred, average="micro", zero_division=0)[:3]
    assert plain == pytest.approx(port, abs=1e-12, rel=0)


@settings(max_examples=100, deadline=None)
@given(corpora(IOE_LABELS))
def test_random_ioe_matches_conlleval(data):
    assert_agrees_with_conlleval(*data, iobes=False)


@settings(max_examples=200, deadline=None)
@given(corpora(ALL_SUPPORTED))
def test_random_supported_labels_match_conlleval_with_iobes_rules(data):
    assert_agrees_with_conlleval(*data, iobes=True)


@settings(max_examples=100, deadline=None)
@given(corpora(IOB_LABELS))
def test_averages_match_conlleval_per_type_lines(data):
    y_true, y_pred = data
    counts = conlleval.evaluate(y_true, y_pred)
    rows = conlleval.by_type(counts)
    f1 = {t: row[2] for t, row in rows.items()}
    support = {t: counts.found_correct_by_type[t] for t in rows}
    macro = np.mean(list(f1.values())) if f1 else 0.0
    total = sum(support.values())
    weighted = sum(f1[t] * support[t] for t in f1) / total if total else 0.0
    assert span_f1_score(y_true, y_pred, average="macro") == pytest.approx(macro, abs=1e-12)
    assert span_f1_score(y_true, y_pred, average="weighted") == pytest.approx(weighted, abs=1e-12)


# --------------------------------------------------------------------------- CoNLL-2000


@functools.cache
def load_conll2000_test(folder):
    """Chunk tags of the CoNLL-2000 test set in ``folder``, one list per sentence.

    Read with a plain split (not skstruct's reader), so that the reference does not
    depend on the code under test.
    """
    path = Path(folder) / "test.txt"
    sentences, current = [], []
    for line in path.read_text(encoding="latin-1").splitlines():
        fields = line.split()
        if fields:
            current.append(fields[2])
        elif current:
            sentences.append(current)
            current = []
    if current:
        sentences.append(current)
    return sentences


def corrupt(sentences, rate, seed):
    """Replace ~rate of the tags: half by a random tag, half by flipping B- and I-."""
    rng = random.Random(seed)
    tags = sorted({t for s in sentences for t in s})
    out = []
    for sentence in sentences:
        new = []
        for tag in sentence:
            u = rng.random()
            if u < rate / 2:
                tag = rng.choice(tags)
            elif u < rate and tag != "O":
                tag = ("I" if tag[0] == "B" else "B") + tag[1:]
            new.append(tag)
        out.append(new)
    return out


@pytest.mark.data
def test_conll2000_gold_counts_match_published_numbers(corpus):
    conll2000_test = load_conll2000_test(corpus("conll2000"))
    counts = conlleval.evaluate(conll2000_test, conll2000_test)
    # conlleval on the test set: "processed 47377 tokens with 23852 phrases".
    assert (counts.token_counter, counts.found_correct) == (47377, 23852)
    assert totals(conll2000_test, conll2000_test) == (23852, 23852, 23852)
    assert span_precision_recall_fscore(conll2000_test, conll2000_test) == (1.0, 1.0, 1.0)


@pytest.mark.data
@pytest.mark.parametrize("rate, seed", [(0.1, 0), (0.3, 1)])
def test_conll2000_corrupted_matches_conlleval(corpus, rate, seed):
    y_true = load_conll2000_test(corpus("conll2000"))
    y_pred = corrupt(y_true, rate, seed)
    counts = conlleval.evaluate(y_true, y_pred)
    port = conlleval.overall(counts)
    assert 0.4 < port[2] < 0.97  # the corruption did something, but not everything

    assert package_counts(y_true, y_pred) == port_counts(y_true, y_pred, counts=counts)
    ours = span_precision_recall_fscore(y_true, y_pred)
    assert ours == pytest.approx(port, abs=1e-12, rel=0)
    # seqeval's default mode, called directly (it warns about nothing here: no 0/0).
    plain = seqeval_prfs(y_true, y_pred, average="micro")[:3]
    assert plain == pytest.approx(port, abs=1e-12, rel=0)
    report = span_classification_report(y_true, y_pred, output_dict=True)
    for chunk_type, expected in conlleval.by_type(counts).items():
        row = report[chunk_type]
        assert (row["precision"], row["recall"], row["f1-score"]) == pytest.approx(
            expected, abs=1e-12, rel=0
        )
    assert token_accuracy(y_true, y_pred) == pytest.approx(
        conlleval.accuracy(counts), abs=1e-12, rel=0
    )


# --------------------------------------------------------------------------- scorers


class LookupTagger(BaseEstimator):
    """Tags each token through a fixed dict; unknown tokens get ``default``."""

    def __init__(self, mapping=None, default="O"):
        self.mapping = mapping
        self.default = default

    def fit(self, X, y):
        self.mapping_ = dict(self.mapping or {})
        return self

    def predict(self, X):
        return [[self.mapping_.get(token, self.default) for token in x] for x in X]


MAPPING = {
    "the": "B-NP",
    "a": "B-NP",
    "dog": "I-NP",
    "cat": "I-NP",
    "barks": "B-VP",
    "runs": "B-VP",
    "sleeps": "B-VP",
}
X = [
    ["the", "dog", "barks"],
    ["a", "cat", "sleeps"],
    ["the", "cat", "runs"],
    ["dogs", "bark"],
    ["the", "dog", "runs"],
    ["cats", "sleep"],
]
y = (
    [["B-NP", "I-NP", "B-VP"]] * 3
    + [["B-NP", "B-VP"]]
    + [["B-NP", "I-NP", "B-VP"]]
    + [["B-NP", "B-VP"]]
)
# KFold(3) tests on sentences {0, 1}, {2, 3}, {4, 5}; the tagger gets 0, 1, 2, 4 right and
# tags the unknown tokens of 3 and 5 with `default`. With default="O", folds 2 and 3 find
# 2 of 4 chunks (F1 2/3), 3 of 5 tokens, 1 of 2 sentences.
EXPECTED_O = {
    "span_f1": [1.0, 2 / 3, 2 / 3],
    "token_accuracy": [1.0, 0.6, 0.6],
    "sequence_accuracy": [1.0, 0.5, 0.5],
}


@pytest.mark.parametrize("container", [list, lambda v: np.array([*v, None], dtype=object)[:-1]])
@pytest.mark.parametrize("name", list(EXPECTED_O))
def test_scorers_in_cross_val_score(container, name):
    est = LookupTagger(MAPPING)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # make_scorer must take list-of-lists y silently
        scores = cross_val_score(
            est, container(X), container(y), cv=3, scoring=SCORERS[name], error_score="raise"
        )
    assert scores == pytest.approx(EXPECTED_O[name])


def test_named_scorers_are_the_public_ones():
    assert SCORERS == {
        "token_accuracy": token_accuracy_scorer,
        "sequence_accuracy": sequence_accuracy_scorer,
        "span_f1": span_f1_scorer,
    }
    est = LookupTagger(MAPPING).fit(X, y)
    assert span_f1_scorer(est, X[2:4], y[2:4]) == span_f1_score(y[2:4], est.predict(X[2:4]))
    assert token_accuracy_scorer(est, X[2:4], y[2:4]) == 0.6  # greater is better: no sign flip
    restored = pickle.loads(pickle.dumps(SCORERS))  # joblib workers pickle scorers
    assert restored["span_f1"](est, X[2:4], y[2:4]) == pytest.approx(2 / 3)


def test_grid_search_with_all_scorers():
    # default="B-NP" tags "dogs bark" as B-NP B-NP: 3 of 4 chunks right in folds 2 and 3
    # (F1 3/4), default="I-NP" as one NP chunk over both tokens (F1 4/7).
    grid = GridSearchCV(
        LookupTagger(MAPPING),
        {"default": ["O", "B-NP", "I-NP"]},
        cv=3,
        scoring=SCORERS,
        refit="span_f1",
        error_score="raise",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        grid.fit(X, y)
    assert grid.best_params_ == {"default": "B-NP"}
    assert grid.best_score_ == pytest.approx((1 + 3 / 4 + 3 / 4) / 3)
    span = grid.cv_results_["mean_test_span_f1"]
    assert span == pytest.approx([(1 + 4 / 3) / 3, (1 + 3 / 2) / 3, (1 + 8 / 7) / 3])
    tokens = grid.cv_results_["mean_test_token_accuracy"]
    assert tokens == pytest.approx([(1 + 1.2) / 3, (1 + 1.6) / 3, (1 + 1.2) / 3])
    assert grid.predict([["dogs", "bark"]]) == [["B-NP", "B-NP"]]


def test_cross_validate_with_scorers_dict():
    result = cross_validate(LookupTagger(MAPPING), X, y, cv=3, scoring=SCORERS, error_score="raise")
    assert result["test_sequence_accuracy"] == pytest.approx([1.0, 0.5, 0.5])


# --------------------------------------------------------------------------- docstrings


@pytest.mark.parametrize("module", [_token, _span, _scorers])
def test_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize(
    "name",
    [
        n
        for n in metrics.__all__
        if callable(getattr(metrics, n)) and inspect.isfunction(getattr(metrics, n))
    ],
)
def test_public_functions_document_every_parameter(name):
    func = getattr(metrics, name)
    doc = inspect.getdoc(func)
    sections = ["Parameters", "Returns", "Examples"]
    positions = [doc.find(f"\n{s}\n{'-' * len(s)}\n") for s in sections]
    assert all(p > 0 for p in positions) and positions == sorted(positions), name
    params_section = doc[positions[0] : positions[1]]
    for param in inspect.signature(func).parameters.values():
        prefix = "**" if param.kind is param.VAR_KEYWORD else ""
        assert f"\n{prefix}{param.name} : " in params_section, (name, param.name)


def test_all_is_explicit_and_complete():
    public = {n for n in dir(metrics) if not n.startswith("_")}
    assert set(metrics.__all__) == public
    assert len(metrics.__all__) == len(set(metrics.__all__)) == 30
