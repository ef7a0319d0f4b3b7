"""The CoNLL 2018 shared task's scores for gold tokenization, on hand-made files whose
scores are worked out by hand below, and against a twin written as the task's script
is (key functions over words with parent links)."""

import io

import numpy as np
import pytest

from skstruct.datasets import load_conllu
from skstruct.metrics import FUNCTIONAL_DEPRELS, conll18_scores

GOLD = """# text = The dogs didn't bark.
1\tThe\tthe\tDET\tDT\tDefinite=Def|PronType=Art\t2\tdet\t_\t_
2\tdogs\tdog\tNOUN\tNNS\tNumber=Plur\t5\tnsubj\t_\t_
3-4\tdidn't\t_\t_\t_\t_\t_\t_\t_\t_
3\tdid\tdo\tAUX\tVBD\tMood=Ind|Tense=Past|VerbForm=Fin\t5\taux\t_\t_
4\tn't\tnot\tPART\tRB\t_\t5\tadvmod\t_\t_
5\tbark\tbark\tVERB\tVB\tVerbForm=Inf\t0\troot\t_\t_
5.1\tbarked\tbark\tVERB\tVBD\t_\t_\t_\t5:conj\t_
6\t.\t.\tPUNCT\t.\t_\t5\tpunct\t_\t_

1\tGo\t_\tVERB\tVB\tMood=Imp|VerbForm=Fin\t0\troot\t_\t_
2\thome\t_\tADV\tRB\t_\t1\tadvmod\t_\t_
3\t!\t_\tPUNCT\t.\t_\t1\tpunct\t_\t_

1\ta\ta\tDET\tDT\t_\t2\tdet\t_\t_
2\tcat\tcat\tNOUN\tNN\t_\t0\troot\t_\t_

"""

SYSTEM = """1\tThe\tthe\tDET\tDT\tPronType=Art|Definite=Def\t2\tdet\t_\t_
2\tdogs\tdogs\tNOUN\tNNS\tFoo=Bar|Number=Plur\t5\tnsubj:pass\t_\t_
3\tdid\tdo\tVERB\tVBD\tMood=Ind|Tense=Past|VerbForm=Fin\t5\taux\t_\t_
4\tn't\tnot\tPART\tRB\t_\t3\tadvmod\t_\t_
5\tbark\tbark\tVERB\tVBP\tVerbForm=Inf\t0\troot\t_\t_
6\t.\t.\tPUNCT\t.\t_\t5\tpunct\t_\t_

1\tGo\twent\tVERB\tVB\tMood=Imp|VerbForm=Fin\t0\troot\t_\t_
2\thome\thome\tNOUN\tNN\t_\t1\tobj\t_\t_
3\t!\t!\tPUNCT\t.\t_\t1\tpunct\t_\t_

1\ta\ta\tDET\tDT\t_\t2\tnmod\t_\t_
2\tcat\tcat\tNOUN\tNN\t_\t0\troot\t_\t_

"""


def _read(text):
    return load_conllu(io.StringIO(text))[0]


def test_hand_made_files():
    """Worked out word by word (11 words; the range 3-4 and the empty node 5.1 are not
    words):

    - sentence 1: ``The``'s features in another order and ``dogs``' non-universal
      ``Foo=Bar`` leave UFeats right; ``dogs`` has the wrong lemma, and ``nsubj:pass``
      is ``nsubj``; ``did`` the wrong UPOS; ``n't`` the wrong head; ``bark`` the wrong
      XPOS. Content words (gold and system): dogs, n't, bark; CLAS right: dogs, bark;
      MLAS: dogs only (bark's functional child ``did`` has the wrong UPOS); BLEX: bark.
    - sentence 2: gold lemmas ``_``, so every lemma is right; ``home`` has the wrong
      UPOS, XPOS and relation (advmod, content, against obj, content). CLAS, MLAS and
      BLEX: Go.
    - sentence 3: the system attaches ``a`` as nmod (a content relation): LAS wrong, one
      more system content word; ``cat`` loses its functional child, so MLAS is wrong
      for it while CLAS and BLEX are right.
    """
    scores = conll18_scores(_read(GOLD), _read(SYSTEM))
    accuracy = {"UPOS": 9, "XPOS": 9, "UFeats": 11, "AllTags": 8, "Lemmas": 10, "UAS": 10,
                "LAS": 8}  # fmt: skip
    for name, correct in accuracy.items():
        assert scores[name] == (correct, 11, 11), name
        assert scores[name].f1 == pytest.approx(correct / 11)
    assert scores["CLAS"] == (4, 6, 7)
    assert scores["CLAS"].precision == pytest.approx(4 / 7)
    assert scores["CLAS"].recall == pytest.approx(4 / 6)
    assert scores["CLAS"].f1 == pytest.approx(8 / 13)
    assert scores["MLAS"] == (2, 6, 7) and scores["MLAS"].f1 == pytest.approx(4 / 13)
    assert scores["BLEX"] == (3, 6, 7) and scores["BLEX"].f1 == pytest.approx(6 / 13)


def test_a_file_against_itself_scores_one():
    gold = _read(GOLD)
    for name, score in conll18_scores(gold, gold).items():
        assert score.f1 == 1.0, name


def test_features_as_strings_and_none_score_as_parsed_ones():
    gold, system = _read(GOLD), _read(SYSTEM)
    as_text = [[{**token, "feats": "|".join(f"{k}={v}" for k, v in (token["feats"] or {}).items())
                 or None} for token in sentence] for sentence in system]  # fmt: skip
    assert conll18_scores(gold, as_text) == conll18_scores(gold, system)


def test_files_of_other_words_are_refused_with_the_place():
    gold, system = _read(GOLD), _read(SYSTEM)
    with pytest.raises(ValueError, match="3 sentences and the system file 2"):
        conll18_scores(gold, system[:2])
    system[1][1] = {**system[1][1], "form": "house"}
    with pytest.raises(ValueError, match=r"Sentence 1, word 2: 'home' .* 'house'"):
        conll18_scores(gold, system)
    system = _read(SYSTEM)
    system[1] = system[1][:2]
    with pytest.raises(ValueError, match="Sentence 1 has 3 words in the gold file and 2"):
        conll18_scores(gold, system)
    system = _read(SYSTEM)
    system[0][0] = {**system[0][0], "head": 9}
    with pytest.raises(ValueError, match=r"Sentence 0 of the system file: word 1 .* head 9"):
        conll18_scores(gold, system)


# -- a twin written as the task's script: words with parent links and key functions -------


class _Word:
    def __init__(self, token):
        feats = token["feats"] or {}
        universal = [f"{k}={v}" for k, v in feats.items() if k in _SCRIPT_UNIVERSAL]
        self.columns = {"lemma": token["lemma"], "upos": token["upos"], "xpos": token["xpos"],
                        "feats": "|".join(sorted(universal)),
                        "deprel": token["deprel"].split(":")[0]}  # fmt: skip
        self.head = token["head"]
        self.parent, self.functional_children = None, []


def _twin_words(sentences):
    words = []
    for sentence in sentences:
        these = [_Word(token) for token in sentence]
        for word in these:
            word.parent = these[word.head - 1] if word.head else None
        for word in these:
            if word.parent is not None and word.columns["deprel"] in FUNCTIONAL_DEPRELS:
                word.parent.functional_children.append(word)
        words.extend(these)
    return words


def _twin(gold, system):
    from skstruct.metrics import CONTENT_DEPRELS

    gold_words, system_words = _twin_words(gold), _twin_words(system)
    aligned = dict(zip(map(id, system_words), gold_words))

    def ga_gold(word):
        return word

    def ga_system(word):
        return None if word is None else aligned[id(word)]

    def lemma(w, ga):
        return w.columns["lemma"] if ga(w).columns["lemma"] != "_" else "_"

    def content(w):
        return w.columns["deprel"] in CONTENT_DEPRELS

    keys = {
        "UPOS": (lambda w, ga: w.columns["upos"], None),
        "XPOS": (lambda w, ga: w.columns["xpos"], None),
        "UFeats": (lambda w, ga: w.columns["feats"], None),
        "AllTags": (lambda w, ga: (w.columns["upos"], w.columns["xpos"], w.columns["feats"]), None),
        "Lemmas": (lemma, None),
        "UAS": (lambda w, ga: ga(w.parent), None),
        "LAS": (lambda w, ga: (ga(w.parent), w.columns["deprel"]), None),
        "CLAS": (lambda w, ga: (ga(w.parent), w.columns["deprel"]), content),
        "MLAS": (lambda w, ga: (ga(w.parent), w.columns["deprel"], w.columns["upos"],
                                w.columns["feats"],
                                [(ga(c), c.columns["deprel"], c.columns["upos"], c.columns["feats"])
                                 for c in w.functional_children]), content),
        "BLEX": (lambda w, ga: (ga(w.parent), w.columns["deprel"], lemma(w, ga)), content),
    }  # fmt: skip
    out = {}
    for name, (key, keep) in keys.items():
        keep = keep or (lambda w: True)
        correct = sum(
            keep(g) and key(g, ga_gold) == key(s, ga_system)
            for g, s in zip(gold_words, system_words)
        )
        out[name] = (correct, sum(map(keep, gold_words)), sum(map(keep, system_words)))
    return out


_UNIVERSAL = {"Number", "Person", "Tense", "VerbForm", "Mood", "PronType", "Definite"}
#: The task script's list, written out again for the twin.
_SCRIPT_UNIVERSAL = set(
    "PronType NumType Poss Reflex Foreign Abbr Gender Animacy Number Case Definite Degree "
    "VerbForm Mood Tense Aspect Voice Evident Polarity Person Polite".split()
)


_DEPRELS = ["nsubj", "obj", "obl:tmod", "root", "det", "case", "aux:pass", "cc", "punct",
            "conj", "advmod", "nmod:poss", "mark", "compound:prt"]  # fmt: skip
_UPOS = ["NOUN", "VERB", "AUX", "DET", "ADP", "PUNCT"]


def _random_sentence(rng, n):
    sentence = []
    for i in range(n):
        feats = {name: "X" for name in rng.choice(sorted(_UNIVERSAL | {"Foo"}), size=2)}
        sentence.append({
            "id": i + 1, "form": f"w{i}", "lemma": str(rng.choice(["_", "a", "b"])),
            "upos": str(rng.choice(_UPOS)), "xpos": str(rng.choice(["NN", "VB", "IN"])),
            "feats": feats if rng.random() < 0.7 else None,
            "head": int(rng.integers(n + 1)), "deprel": str(rng.choice(_DEPRELS)),
        })  # fmt: skip
    return sentence


def _perturbed(rng, sentence):
    out = []
    for token in sentence:
        token = dict(token)
        for column, choices in (("lemma", ["_", "a", "b"]), ("upos", _UPOS), ("deprel", _DEPRELS),
                                ("xpos", ["NN", "VB", "IN"])):  # fmt: skip
            if rng.random() < 0.2:
                token[column] = str(rng.choice(choices))
        if rng.random() < 0.2:
            token["head"] = int(rng.integers(len(sentence) + 1))
        if rng.random() < 0.2:
            token["feats"] = {str(rng.choice(sorted(_UNIVERSAL | {"Foo"}))): "X"}
        out.append(token)
    return out


@pytest.mark.parametrize("seed", range(5))
def test_random_annotations_score_as_the_twin(seed):
    """Random sentences (heads need not form trees: the scores do not ask) against
    copies with random errors in every column."""
    from skstruct.metrics import UNIVERSAL_FEATURES

    assert _UNIVERSAL <= UNIVERSAL_FEATURES and "Foo" not in UNIVERSAL_FEATURES
    rng = np.random.default_rng(seed)
    gold = [_random_sentence(rng, int(rng.integers(1, 9))) for _ in range(80)]
    system = [_perturbed(rng, sentence) for sentence in gold]
    scores = conll18_scores(gold, system)
    assert {name: tuple(score) for name, score in scores.items()} == _twin(gold, system)
    assert 0 < scores["MLAS"].correct < scores["CLAS"].correct


@pytest.mark.parametrize("seed", range(2))
def test_english_ewt_with_random_errors_scores_as_the_twin(corpus, seed):
    """UD English-EWT dev (features the scorer leaves out, such as ``Typo=Yes``, subtyped
    relations, multiword tokens and empty nodes dropped by the reader) against a copy
    with random errors in every column."""
    X, _ = load_conllu(corpus("ud-ewt") / "en_ewt-ud-dev.conllu")
    rng = np.random.default_rng(seed)
    gold = [X[i] for i in rng.choice(len(X), size=300, replace=False)]
    values = {column: sorted({str(t[column]) for s in gold for t in s})
              for column in ("lemma", "upos", "xpos", "deprel")}  # fmt: skip
    feats = [t["feats"] for s in gold for t in s]
    system = []
    for sentence in gold:
        system.append([])
        for token in sentence:
            token = dict(token)
            for column, choices in values.items():
                if rng.random() < 0.1:
                    token[column] = choices[rng.integers(len(choices))]
            if rng.random() < 0.1:
                token["head"] = int(rng.integers(len(sentence) + 1))
            if rng.random() < 0.1:
                token["feats"] = feats[rng.integers(len(feats))]
            system[-1].append(token)
    scores = conll18_scores(gold, system)
    assert {name: tuple(score) for name, score in scores.items()} == _twin(gold, system)
