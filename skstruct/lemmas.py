"""PredictedLemmas: lemmas as edit scripts predicted by a tagger (as UDPipe 1 does).

A lemma is rarely a word of its own to predict: most are their form with a prefix or a
suffix changed (``dogs -> dog``, ``studied -> study``). Each training lemma becomes
the *edit script* that derives it from its form, and a tagger learns to predict the
script of every token; the few lemmas that share nothing with their form (``went ->
go``) are their own scripts. Scripts are labels like any tag, so the tagger sees the
form's affixes, its neighbours and (``columns``) its part of speech.
"""

from difflib import SequenceMatcher

from .decoders import Viterbi
from .features import TokenFeatures
from .learners import StructuredPerceptron
from .pipeline import ColumnsTagger
from .utils.validation import check_token_dict

__all__ = ["PredictedLemmas", "apply_edit_script", "edit_script"]

#: The script of a lemma that shares nothing with its form starts with this, then the
#: lemma itself.
WHOLE = "="


def edit_script(form, lemma):
    """The edit script that turns ``form`` into ``lemma``.

    ``"l|a|p|b|s"`` (``l``: from the lower-cased form; ``k``: from the form as written)
    cuts ``a`` characters from the start and ``b`` from the end, then adds the prefix
    ``p`` and the suffix ``s``; what stays is the longest run the two share. A lemma
    that shares nothing with its form is ``"=" + lemma``.

    Examples
    --------
    >>> edit_script("Dogs", "dog"), edit_script("studied", "study")
    ('l|0||1|', 'l|0||3|y')
    >>> edit_script("went", "go"), edit_script("NASA", "NASA")
    ('=go', 'k|0||0|')
    """
    lower = lemma == lemma.lower()
    source = form.lower() if lower else form
    match = SequenceMatcher(None, source, lemma, autojunk=False).find_longest_match(
        0, len(source), 0, len(lemma)
    )
    if match.size == 0:
        return WHOLE + lemma
    cut_end = len(source) - match.a - match.size
    prefix, suffix = lemma[: match.b], lemma[match.b + match.size :]
    return f"{'l' if lower else 'k'}|{match.a}|{prefix}|{cut_end}|{suffix}"


def apply_edit_script(form, script):
    """The lemma ``script`` (from :func:`edit_script`) derives from ``form``; the form
    itself where the script cuts more than it has (a script learnt on longer forms).

    Examples
    --------
    >>> apply_edit_script("Cats", "l|0||1|"), apply_edit_script("flies", "l|0||3|y")
    ('cat', 'fly')
    >>> apply_edit_script("a", "l|0||3|y"), apply_edit_script("was", "=be")
    ('a', 'be')
    """
    if script.startswith(WHOLE):
        return script[len(WHOLE) :]
    mode, start, prefix, end, suffix = script.split("|")
    source = form.lower() if mode == "l" else form
    start, end = int(start), int(end)
    if start + end > len(source):
        return form
    return prefix + source[start : len(source) - end] + suffix


class PredictedLemmas(ColumnsTagger):
    """Fill the ``lemma`` field of CoNLL-U token dicts with predicted lemmas.

    ``fit`` turns every training lemma into the edit script that derives it from its
    form (:func:`edit_script`) and trains a clone of ``tagger`` to predict the scripts;
    ``transform`` returns copies of the sentences with ``lemma`` set to the predicted
    scripts applied to the forms. Lemmas ``_`` (not annotated) are not learnt from.

    Parameters
    ----------
    tagger : estimator or None, default=None
        The sequence labeller of scripts. ``None`` means an averaged perceptron over
        :class:`~skstruct.TokenFeatures` of the form (affixes of up to 4 characters)
        and of the fields ``columns``, each token classified on its own
        (``Viterbi(order=0)``: scripts hardly depend on their neighbours' scripts, and
        hundreds of labels make transitions costly).
    columns : sequence of str, default=("upos",)
        Token fields the default tagger reads besides the form (predicted tags in a
        pipeline; ``()`` for the form alone).
    max_iter : int, default=10
        Epochs of the default tagger.
    random_state : int, RandomState instance or None, default=None
        Seeds the default tagger.

    Attributes
    ----------
    tagger_ : estimator
        The fitted clone of the tagger.

    Examples
    --------
    >>> from skstruct import PredictedLemmas
    >>> words = [("dogs", "dog"), ("barked", "bark"), ("cats", "cat"), ("walked", "walk")]
    >>> X = [[{"form": form, "lemma": lemma, "upos": "X"} for form, lemma in words]] * 4
    >>> lemmas = PredictedLemmas(random_state=0).fit(X)
    >>> [t["lemma"] for t in lemmas.transform([[{"form": "rats", "upos": "X"},
    ...                                          {"form": "jumped", "upos": "X"}]])[0]]
    ['rat', 'jump']
    """

    def _training_data(self, X):
        """The sentences with every lemma annotated, and their lemmas' edit scripts."""
        sentences, scripts = [], []
        for i, sentence in enumerate(X):
            if all(self._lemma(i, pos, token) != "_" for pos, token in enumerate(sentence)):
                sentences.append(sentence)
                scripts.append([edit_script(t["form"], t["lemma"]) for t in sentence])
        if not sentences:
            raise ValueError("No sentence of X has every lemma annotated: nothing to learn.")
        return sentences, scripts

    def _default_tagger(self):
        features = TokenFeatures(columns=list(self.columns), prefix_length=2, suffix_length=4)
        return StructuredPerceptron(Viterbi(order=0), features=features, max_iter=self.max_iter,
                                    random_state=self.random_state)  # fmt: skip

    def _filled(self, token, script):
        return {**token, "lemma": apply_edit_script(token["form"], script)}

    def predict(self, X):
        """The predicted lemmas of every token of ``X`` (lists of strings)."""
        return [[token["lemma"] for token in sentence] for sentence in self.transform(X)]

    @staticmethod
    def _lemma(i, pos, token):
        """Token ``pos`` of sentence ``i``'s lemma, ``"_"`` where it has none."""
        lemma = check_token_dict(token, i, pos).get("lemma")
        if lemma is None:
            return "_"
        if not isinstance(lemma, str):
            raise TypeError(
                f"Example {i}: token {pos} has the lemma {lemma!r}; a lemma is a string "
                f"(None or '_' where the token has none)."
            )
        return lemma
