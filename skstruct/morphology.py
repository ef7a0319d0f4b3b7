"""PredictedFeats: the morphological features (FEATS) of CoNLL-U tokens, predicted as
one label per token.

A token's FEATS is a set of ``Name=Value`` pairs (``Number=Plur|Person=3``) or none
(``_``). Treebanks use few distinct sets (about 150 in UD English-EWT), so the whole
set is one label: a tagger learns to predict it from the form's affixes, its
neighbours and its part of speech, and keeps the sets consistent (no ``Tense``
without a ``VerbForm`` the treebank never pairs with it).
"""

from collections.abc import Mapping

from sklearn.utils.validation import check_is_fitted

from .decoders import Viterbi
from .features import TokenFeatures
from .learners import StructuredPerceptron
from .pipeline import ColumnsTagger
from .utils.validation import check_sequences, check_token_dict

__all__ = ["PredictedFeats", "feats_label", "feats_of_label"]

#: The label of a token without features.
NONE = "_"


def feats_label(feats):
    """The label of a FEATS value (a dict as :func:`~skstruct.datasets.load_conllu` reads
    it, a ``A=B|C=D`` string or None): its pairs sorted by name, joined by ``|``.

    Examples
    --------
    >>> feats_label({"Person": "3", "Number": "Plur"}), feats_label(None)
    ('Number=Plur|Person=3', '_')
    """
    if feats is None:
        return NONE
    if isinstance(feats, str):
        pairs = feats.split("|") if feats != NONE else []
    elif isinstance(feats, Mapping):
        pairs = [f"{name}={value}" for name, value in feats.items()]
    else:
        raise TypeError(
            f"FEATS {feats!r}: FEATS is a dict of features (as load_conllu reads them), "
            f"a 'Name=Value|...' string or None."
        )
    if not pairs:
        return NONE
    return "|".join(sorted(pairs, key=lambda pair: pair.split("=", 1)[0].lower()))


def token_feats_label(token, i, pos):
    """:func:`feats_label` of the ``feats`` of token ``pos`` of sentence ``i``, or an
    error naming them: a TypeError for a value of another type, a ValueError for pairs
    without a name and an ``=`` (the label must read back, :func:`feats_of_label`)."""
    feats = token.get("feats")
    try:
        label = feats_label(feats)
    except TypeError as exc:
        raise TypeError(f"Example {i}: token {pos} has {exc}") from None
    if label != NONE and not all(pair.find("=") > 0 for pair in label.split("|")):
        raise ValueError(
            f"Example {i}: token {pos} has FEATS {feats!r}, not Name=Value pairs joined by "
            f"'|' (a value may be empty)."
        )
    return label


def feats_of_label(label):
    """The FEATS dict of a label (None for ``_``), as :func:`load_conllu` gives FEATS.

    Examples
    --------
    >>> feats_of_label("Number=Plur|Person=3"), feats_of_label("_")
    ({'Number': 'Plur', 'Person': '3'}, None)
    """
    if label == NONE:
        return None
    return dict(pair.split("=", 1) for pair in label.split("|"))


class PredictedFeats(ColumnsTagger):
    """Fill the ``feats`` field of CoNLL-U token dicts with predicted features.

    ``fit`` trains a clone of ``tagger`` to predict each token's whole feature set as
    one label (:func:`feats_label`); ``transform`` returns copies of the sentences
    with ``feats`` set to the predicted sets (dicts, or None for none, as
    :func:`~skstruct.datasets.load_conllu` reads them).

    Parameters
    ----------
    tagger : estimator or None, default=None
        The sequence labeller. ``None`` means an averaged perceptron over
        :class:`~skstruct.TokenFeatures` of the form (a window of two words, suffixes of
        up to 4 characters) and of the fields ``columns``, with first-order Viterbi.
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
    >>> from skstruct import PredictedFeats
    >>> X = [[{"form": "dogs", "upos": "NOUN", "feats": {"Number": "Plur"}},
    ...       {"form": "bark", "upos": "VERB", "feats": None}]] * 4
    >>> feats = PredictedFeats(max_iter=3, random_state=0).fit(X)
    >>> feats.transform([[{"form": "dogs", "upos": "NOUN"}]])
    [[{'form': 'dogs', 'upos': 'NOUN', 'feats': {'Number': 'Plur'}}]]
    """

    def _training_data(self, X):
        labels = []
        for i, sentence in enumerate(X):
            for pos, token in enumerate(sentence):
                check_token_dict(token, i, pos)
            labels.append([token_feats_label(t, i, pos) for pos, t in enumerate(sentence)])
        return X, labels

    def _default_tagger(self):
        features = TokenFeatures(columns=list(self.columns), window=2, suffix_length=4)
        return StructuredPerceptron(Viterbi(order=1), features=features, max_iter=self.max_iter,
                                    random_state=self.random_state)  # fmt: skip

    def _filled(self, token, label):
        return {**token, "feats": feats_of_label(label)}

    def predict(self, X):
        """The predicted feature sets of every token of ``X`` (labels such as
        ``"Number=Plur|Person=3"``, ``"_"`` for none)."""
        check_is_fitted(self, "tagger_")
        return self.tagger_.predict(check_sequences(X))
