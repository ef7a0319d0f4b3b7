"""Token-level and sequence-level metrics for label sequences.

These treat labels as opaque values compared with ``==``; they work for any
tag set (POS tags, chunk tags, integers). For chunk-level scores see
:mod:`skstruct.metrics._span`.
"""

from itertools import chain

from sklearn.metrics import classification_report

from ._validation import _check_sequences


def token_accuracy(y_true, y_pred):
    """Fraction of tokens whose predicted label equals the true label.

    All tokens of all sequences are pooled, so long sentences weigh more than
    short ones (flat accuracy, as ``sklearn_crfsuite.metrics.flat_accuracy_score``
    and the "accuracy" line of conlleval).

    Parameters
    ----------
    y_true : list of sequences of labels
        Gold label sequences, one per sentence.
    y_pred : list of sequences of labels
        Predicted label sequences; same number of sequences as ``y_true`` and
        the same length for each pair.

    Returns
    -------
    accuracy : float
        Correct tokens divided by all tokens, in [0, 1].

    Raises
    ------
    ValueError
        If the inputs hold different numbers of sequences, if paired sequences
        differ in length, or if there is no token at all.

    See Also
    --------
    sequence_accuracy : Fraction of sentences labelled without any error.
    flat_classification_report : Per-label precision and recall over tokens.

    Examples
    --------
    >>> from skstruct.metrics import token_accuracy
    >>> y_true = [["B-NP", "I-NP", "O"], ["B-VP"]]
    >>> y_pred = [["B-NP", "B-NP", "O"], ["B-VP"]]
    >>> token_accuracy(y_true, y_pred)
    0.75
    """
    y_true, y_pred = _check_sequences(y_true, y_pred)
    n_tokens = sum(len(seq) for seq in y_true)
    if n_tokens == 0:
        raise ValueError("token_accuracy is undefined: every sequence is empty.")
    n_correct = sum(
        t == p
        for seq_true, seq_pred in zip(y_true, y_pred, strict=True)
        for t, p in zip(seq_true, seq_pred, strict=True)
    )
    return n_correct / n_tokens


def sequence_accuracy(y_true, y_pred):
    """Fraction of sequences whose labels are all correct.

    Also called sentence accuracy or exact match. An empty sequence paired with
    an empty prediction counts as correct.

    Parameters
    ----------
    y_true : list of sequences of labels
        Gold label sequences, one per sentence.
    y_pred : list of sequences of labels
        Predicted label sequences; same number of sequences as ``y_true`` and
        the same length for each pair.

    Returns
    -------
    accuracy : float
        Fully correct sequences divided by the number of sequences, in [0, 1].

    See Also
    --------
    token_accuracy : Fraction of tokens labelled correctly.

    Examples
    --------
    >>> from skstruct.metrics import sequence_accuracy
    >>> y_true = [["B-NP", "I-NP", "O"], ["B-VP"]]
    >>> y_pred = [["B-NP", "B-NP", "O"], ["B-VP"]]
    >>> sequence_accuracy(y_true, y_pred)
    0.5
    """
    y_true, y_pred = _check_sequences(y_true, y_pred)
    n_correct = sum(seq_true == seq_pred for seq_true, seq_pred in zip(y_true, y_pred, strict=True))
    return n_correct / len(y_true)


def flat_classification_report(y_true, y_pred, **kwargs):
    """Per-label precision, recall and F1 over all tokens.

    The sequences are concatenated and passed to
    :func:`sklearn.metrics.classification_report`, so each *token* label
    (``"B-NP"`` and ``"I-NP"`` separately) gets its own row. For scores per
    chunk type use :func:`span_classification_report`.

    Parameters
    ----------
    y_true : list of sequences of labels
        Gold label sequences, one per sentence.
    y_pred : list of sequences of labels
        Predicted label sequences; same number of sequences as ``y_true`` and
        the same length for each pair.
    **kwargs : dict
        Passed on to :func:`sklearn.metrics.classification_report`, e.g.
        ``labels``, ``digits``, ``output_dict`` or ``zero_division``.
        ``sample_weight``, if given, must have one weight per token.

    Returns
    -------
    report : str or dict
        Whatever :func:`sklearn.metrics.classification_report` returns.

    See Also
    --------
    span_classification_report : Chunk-level report in conlleval's sense.

    Examples
    --------
    >>> from skstruct.metrics import flat_classification_report
    >>> y_true = [["B-NP", "I-NP", "O"], ["B-VP"]]
    >>> y_pred = [["B-NP", "B-NP", "O"], ["B-VP"]]
    >>> report = flat_classification_report(y_true, y_pred, output_dict=True, zero_division=0)
    >>> report["B-NP"]["precision"], report["I-NP"]["recall"]
    (0.5, 0.0)
    """
    y_true, y_pred = _check_sequences(y_true, y_pred)
    return classification_report(
        list(chain.from_iterable(y_true)), list(chain.from_iterable(y_pred)), **kwargs
    )
