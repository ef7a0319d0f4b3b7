"""Attachment scores for dependency parsing: UAS and LAS, with or without punctuation."""

import unicodedata

from ._validation import _check_sequences

#: Gold POS tags of the words left out of PTB attachment scores (Yamada & Matsumoto
#: 2003; McDonald et al. 2005; Koo & Collins 2010).
PTB_PUNCTUATION_TAGS = frozenset({"``", "''", ":", ",", "."})


def is_punctuation(form):
    """Whether every character of ``form`` is Unicode punctuation (category P*), the
    CoNLL-X ``eval.pl`` rule for leaving a token out of the scores.

    Parameters
    ----------
    form : str
        A word form.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_punctuation(","), is_punctuation("--"), is_punctuation("U.S."), is_punctuation("$")
    (True, True, False, False)

    The PTB's opening quotes, two grave accents, are a symbol, not punctuation: leave
    PTB punctuation out by tag instead (:data:`PTB_PUNCTUATION_TAGS`).
    """
    return bool(form) and all(unicodedata.category(c).startswith("P") for c in form)


def attachment_scores(y_true, y_pred, X=None, punct="form", relations="full"):
    """Unlabelled and labelled attachment scores (UAS, LAS) over all words.

    Parameters
    ----------
    y_true : list of list
        Per sentence, per word: the gold head (int, 0 the root) or a
        ``(head, deprel)`` pair.
    y_pred : list of list
        The predicted heads or pairs, shaped as ``y_true``. LAS needs pairs on both
        sides.
    X : list of list of dict, default=None
        The sentences (token dicts with ``form`` and ``xpos``/``upos``), needed to
        leave punctuation out.
    punct : "form", collection of str or None, default="form"
        Which words are punctuation and not scored when ``X`` is given: ``"form"``,
        words made only of punctuation characters (CoNLL-X ``eval.pl``); a set of POS
        tags, words whose ``xpos`` (or else ``upos``) is in it (for the PTB, often
        :data:`PTB_PUNCTUATION_TAGS`); None scores every word, as the CoNLL 2018 shared
        task's scorer does.
    relations : {"full", "universal"}, default="full"
        What LAS compares: the whole relation label, or only its universal part (before
        the first ``:``, so ``nsubj:pass`` matches ``nsubj``), as the CoNLL 2018
        scorer's LAS does on UD treebanks.

    Returns
    -------
    scores : dict
        ``{"uas": float, "las": float or None, "n_words": int}``; ``las`` is None
        without relation labels.

    Examples
    --------
    >>> X = [[{"form": "Dogs"}, {"form": "bark"}, {"form": "."}]]
    >>> attachment_scores([[2, 0, 2]], [[2, 0, 1]])["uas"]
    0.6666666666666666
    >>> attachment_scores([[2, 0, 2]], [[2, 0, 1]], X=X)["uas"]  # "." is not scored
    1.0
    >>> attachment_scores([[(2, "nsubj:pass"), (0, "root")]], [[(2, "nsubj"), (0, "root")]],
    ...                   relations="universal")["las"]
    1.0
    """
    if relations not in ("full", "universal"):
        raise ValueError(f"relations must be 'full' or 'universal', got {relations!r}.")
    y_true, y_pred = _check_sequences(y_true, y_pred)
    if X is not None and len(X) != len(y_true):
        raise ValueError(f"X has {len(X)} sentences but y_true has {len(y_true)}.")
    n = heads_right = both_right = 0
    labelled = True
    for i, (gold, pred) in enumerate(zip(y_true, y_pred)):
        for j, (g, p) in enumerate(zip(gold, pred)):
            if X is not None and punct is not None and _is_punct(X[i][j], punct):
                continue
            g_head, g_rel = _split(g)
            p_head, p_rel = _split(p)
            labelled = labelled and g_rel is not None and p_rel is not None
            if relations == "universal" and labelled:
                g_rel, p_rel = str(g_rel).split(":")[0], str(p_rel).split(":")[0]
            n += 1
            if g_head == p_head:
                heads_right += 1
                both_right += g_rel == p_rel
    if n == 0:
        raise ValueError("No word left to score (all are punctuation, or y_true is empty).")
    return {
        "uas": heads_right / n,
        "las": both_right / n if labelled else None,
        "n_words": n,
    }


def uas_score(y_true, y_pred, X=None, punct="form"):
    """Unlabelled attachment score: the fraction of words with the right head.

    Parameters
    ----------
    y_true : list of list
        Gold heads or ``(head, deprel)`` pairs, per sentence.
    y_pred : list of list
        Predicted heads or pairs.
    X : list of list of dict, default=None
        The sentences, to leave punctuation out (see :func:`attachment_scores`).
    punct : "form", collection of str or None, default="form"
        Which words are punctuation (see :func:`attachment_scores`).

    Returns
    -------
    float

    Examples
    --------
    >>> uas_score([[2, 0]], [[0, 1]])
    0.0
    """
    return attachment_scores(y_true, y_pred, X=X, punct=punct)["uas"]


def _split(item):
    if isinstance(item, tuple | list):
        return int(item[0]), item[1]
    return int(item), None


def _is_punct(token, punct):
    if punct == "form":
        return is_punctuation(token.get("form") or "")
    pos = token.get("xpos")
    if pos in (None, "_"):
        pos = token.get("upos")
    return pos in punct
