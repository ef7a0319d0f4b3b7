"""The CoNLL 2018 shared task's scores (Zeman et al. 2018) for gold tokenization: UPOS,
XPOS, UFeats, AllTags, Lemmas, UAS, LAS, CLAS, MLAS and BLEX.

Written here rather than wrapping the task's ``conll18_ud_eval.py``: that script is
not a package, reads files only, and spends most of its code aligning words of two
tokenizations, which gold tokenization does not need. The definitions are the
script's, word for word:

- every word counts (multiword-token ranges and empty nodes do not: they are not
  words), punctuation included;
- UFeats compares the universal features only (the names in
  :data:`UNIVERSAL_FEATURES`), in any order;
- LAS, CLAS, MLAS and BLEX compare the universal part of the relation (``nsubj:pass``
  is ``nsubj``);
- Lemmas and BLEX count a word right whatever its lemma where the gold lemma is ``_``;
- CLAS, MLAS and BLEX score the *content* words (relations in
  :data:`CONTENT_DEPRELS`): the gold file's content words are the recall's total, the
  system's the precision's, and a word is right when it is a gold content word whose
  head and relation the system has right (BLEX: and its lemma; MLAS: and its UPOS,
  UFeats and the relation, UPOS and UFeats of each of its *functional* children, those
  attached by a relation in :data:`FUNCTIONAL_DEPRELS`, in order).
"""

from typing import NamedTuple

#: Relations whose dependents are content words (CLAS, MLAS, BLEX).
CONTENT_DEPRELS = frozenset({
    "nsubj", "obj", "iobj", "csubj", "ccomp", "xcomp", "obl", "vocative", "expl",
    "dislocated", "advcl", "advmod", "discourse", "nmod", "appos", "nummod", "acl", "amod",
    "conj", "fixed", "flat", "compound", "list", "parataxis", "orphan", "goeswith",
    "reparandum", "root", "dep",
})  # fmt: skip
#: Relations of function words, which MLAS checks with the content word they attach to.
FUNCTIONAL_DEPRELS = frozenset({"aux", "cop", "mark", "det", "clf", "case", "cc"})
#: The features UFeats compares (UD's universal features; others are left out).
UNIVERSAL_FEATURES = frozenset({
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender", "Animacy",
    "Number", "Case", "Definite", "Degree", "VerbForm", "Mood", "Tense", "Aspect", "Voice",
    "Evident", "Polarity", "Person", "Polite",
})  # fmt: skip
#: The scores, in the shared task's order.
METRICS = ("UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX")


class Conll18Score(NamedTuple):
    """One score: words right, and the gold and system words it is counted over."""

    correct: int
    gold_total: int
    system_total: int

    @property
    def precision(self):
        return self.correct / self.system_total if self.system_total else 0.0

    @property
    def recall(self):
        return self.correct / self.gold_total if self.gold_total else 0.0

    @property
    def f1(self):
        total = self.gold_total + self.system_total
        return 2 * self.correct / total if total else 0.0


class _Word(NamedTuple):
    form: str
    lemma: str
    upos: str
    xpos: str
    feats: str
    head: int
    deprel: str


def conll18_scores(gold, system):
    """The CoNLL 2018 shared task's scores of ``system`` against ``gold`` on the same
    words (gold tokenization).

    Parameters
    ----------
    gold : list of list of dict
        Sentences of tokens as :func:`~skstruct.datasets.load_conllu` reads them (``form``,
        ``lemma``, ``upos``, ``xpos``, ``feats`` as a dict, a ``A=B|C=D`` string or None,
        ``head``, ``deprel``; an ``id`` that is not an integer, a multiword-token range
        or an empty node, is skipped).
    system : list of list of dict
        The annotation to score, in the same form: the same sentences of the same word
        forms.

    Returns
    -------
    dict of str to Conll18Score
        One entry per name of :data:`METRICS`, each with ``correct``, ``gold_total``,
        ``system_total``, ``precision``, ``recall`` and ``f1`` (the shared task's
        figure; with gold tokenization, the accuracy for all but CLAS, MLAS and BLEX).

    Raises
    ------
    ValueError
        When the two differ in sentences or words (naming the first difference), or a
        head is not a word of its sentence.

    Examples
    --------
    >>> gold = [[{"form": "Dogs", "lemma": "dog", "upos": "NOUN", "xpos": "NNS",
    ...           "feats": {"Number": "Plur"}, "head": 2, "deprel": "nsubj"},
    ...          {"form": "bark", "lemma": "bark", "upos": "VERB", "xpos": "VBP",
    ...           "feats": None, "head": 0, "deprel": "root"}]]
    >>> system = [[{**gold[0][0], "upos": "PROPN"}, {**gold[0][1], "head": 1}]]
    >>> scores = conll18_scores(gold, system)
    >>> scores["UPOS"].f1, scores["UAS"].f1, scores["LAS"].f1
    (0.5, 0.5, 0.5)
    >>> scores["MLAS"]  # "Dogs" is right in head and relation, wrong in UPOS
    Conll18Score(correct=0, gold_total=2, system_total=2)
    """
    if len(gold) != len(system):
        raise ValueError(
            f"The gold file has {len(gold)} sentences and the system file {len(system)}: "
            f"CoNLL 2018 scores for gold tokenization need the same sentences."
        )
    counts = {name: [0, 0, 0] for name in METRICS}
    for index, (gold_sentence, system_sentence) in enumerate(zip(gold, system)):
        gold_words = _words(gold_sentence, index, "gold")
        system_words = _words(system_sentence, index, "system")
        _check_same_words(gold_words, system_words, index)
        _count(gold_words, system_words, counts)
    return {name: Conll18Score(*counts[name]) for name in METRICS}


def _words(sentence, index, which):
    words = [_word(token) for token in sentence if _is_word(token)]
    for position, word in enumerate(words):
        if not 0 <= word.head <= len(words):
            raise ValueError(
                f"Sentence {index} of the {which} file: word {position + 1} "
                f"({word.form!r}) has head {word.head}, outside its sentence of "
                f"{len(words)} words."
            )
    return words


def _is_word(token):
    """Integer ids only: ``conllu`` reads ``3-4`` and ``5.1`` as tuples."""
    return isinstance(token.get("id", 0), int)


def _word(token):
    head = token.get("head")
    return _Word(
        form="".join((token.get("form") or "").split()),
        lemma=_text(token.get("lemma")),
        upos=_text(token.get("upos")),
        xpos=_text(token.get("xpos")),
        feats=_universal_features(token.get("feats")),
        head=-1 if head is None else int(head),
        deprel=_text(token.get("deprel")).split(":")[0],
    )


def _text(value):
    return "_" if value is None else str(value)


def _universal_features(feats):
    """The universal features of ``feats`` as the scorer keeps them: sorted ``A=B`` pairs
    joined by ``|`` (empty where none)."""
    if feats is None:
        return ""
    if isinstance(feats, str):
        pairs = feats.split("|")
    else:
        pairs = [f"{name}={value}" for name, value in feats.items()]
    return "|".join(sorted(pair for pair in pairs if pair.split("=", 1)[0] in UNIVERSAL_FEATURES))


def _check_same_words(gold, system, index):
    if len(gold) != len(system):
        raise ValueError(
            f"Sentence {index} has {len(gold)} words in the gold file and {len(system)} in the "
            f"system file: CoNLL 2018 scores for gold tokenization need the same words."
        )
    for position, (g, s) in enumerate(zip(gold, system)):
        if g.form != s.form:
            raise ValueError(
                f"Sentence {index}, word {position + 1}: {g.form!r} in the gold file, "
                f"{s.form!r} in the system file."
            )


def _functional_children(words):
    children = [[] for _ in words]
    for position, word in enumerate(words):
        if word.head > 0 and word.deprel in FUNCTIONAL_DEPRELS:
            children[word.head - 1].append(position)
    return children


def _count(gold, system, counts):
    """Add one sentence's correct, gold and system words to ``counts``."""
    gold_children, system_children = _functional_children(gold), _functional_children(system)

    def functional(words, children, position):
        return [(c, words[c].deprel, words[c].upos, words[c].feats) for c in children[position]]

    for position, (g, s) in enumerate(zip(gold, system)):
        lemma_right = g.lemma == "_" or g.lemma == s.lemma
        attached = g.head == s.head and g.deprel == s.deprel
        right = {
            "UPOS": g.upos == s.upos,
            "XPOS": g.xpos == s.xpos,
            "UFeats": g.feats == s.feats,
            "AllTags": (g.upos, g.xpos, g.feats) == (s.upos, s.xpos, s.feats),
            "Lemmas": lemma_right,
            "UAS": g.head == s.head,
            "LAS": attached,
        }
        for name, ok in right.items():
            counts[name][0] += ok
            counts[name][1] += 1
            counts[name][2] += 1
        gold_content, system_content = g.deprel in CONTENT_DEPRELS, s.deprel in CONTENT_DEPRELS
        morphology = (g.upos, g.feats) == (s.upos, s.feats) and functional(
            gold, gold_children, position
        ) == functional(system, system_children, position)
        for name, ok in (("CLAS", attached), ("MLAS", attached and morphology),
                         ("BLEX", attached and lemma_right)):  # fmt: skip
            counts[name][0] += gold_content and ok
            counts[name][1] += gold_content
            counts[name][2] += system_content
