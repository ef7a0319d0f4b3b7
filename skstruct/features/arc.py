"""ArcFeatures: parser input (sentences of token dicts) -> token attribute ids for the
hashed arc and sibling templates of the tree kernels."""

from collections.abc import Mapping
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._kernels import tree as _tree
from ..utils._sklearn_compat import Interval, StrOptions, fit_context
from ..utils.validation import check_sequences
from ._attributes import TokenAttributes


class ArcFeatures(TransformerMixin, BaseEstimator):
    """Features of dependency arcs (McDonald, Crammer & Pereira 2005) and sibling parts
    (McDonald & Pereira 2006) for the graph-based parsers.

    ``fit`` learns vocabularies of the word forms, POS tags and word prefixes of the
    training sentences; ``transform`` turns each token into those three ids (unseen
    values get a shared "unknown" id). The parsers then build every feature of an arc
    ``h -> d`` on the fly and hash it into ``n_features`` weights:

    - uni-gram: head word+POS, word, POS; the same for the dependent;
    - bi-gram: head word+POS+dependent word+POS and its six sub-combinations;
    - the same with ``prefix_length``-character prefixes in place of words;
    - surrounding POS: head POS, head POS +-1, dependent POS, dependent POS +-1
      (four combinations);

    each once alone and once conjoined with the direction and a distance bucket (1-5,
    6-10, >10); and the POS of every word between the two, with the head and
    dependent POS, direction and distance. With a coarse POS (``coarse_pos``), the same
    again over coarse tags: words with their coarse POS (eight bi-gram and uni-gram
    templates), the four surrounding-POS templates and the tags in between (MSTParser's
    coarse-POS features; sparse word features back off to tag classes), the two coarse
    tags either side of the head and of the dependent, and the word just before and
    just after each, every one with both coarse tags (UAS 87.60 against 87.02 on UD
    English-EWT dev, first-order structured SVM; 83.11 against 82.48 with predicted
    tags), and how many words between the two share the head's coarse POS, and the
    dependent's (another verb between a verb and its dependent; 0-3 or more, with both
    tags and the direction: UAS 85.68 against 85.30 on UD English-EWT dev, first
    order, averaged perceptron). Each token
    field of ``fields`` (the lemma, the FEATS set) adds six templates, alone and with
    direction and distance: the head's and the dependent's value each with its coarse
    POS, the two values together, each crossed with the other word's coarse POS, and
    all four. Second-order sibling parts ``(h, s, d)`` add head/sibling/dependent POS,
    sibling and dependent words and POS pairs, alone and with the direction.

    The transition parsers read the same ids: arc-standard the words and POS tags;
    arc-eager also the coarse POS, where there is one (the coarse tags of the stack's
    top and its head and children, of the buffer's first three words and of the first
    one's leftmost child, alone and in pairs and triples, and with the other word or
    the distance: on UD English-EWT dev, gold annotation, beam 8, UAS 88.34 against
    86.73 over the XPOS), and each field (the value of the stack's top, of its head and
    of the buffer's first two words, alone, paired and with the coarse tags).

    Parameters
    ----------
    n_features : int, default=2**22
        Size of the hashed weight space (per model, shared by all templates).
    pos : {"auto", "xpos", "upos"}, default="auto"
        Which POS field to use; ``"auto"`` takes ``xpos`` where it is given (not None
        or ``"_"``), else ``upos``.
    prefix_length : int, default=5
        Length of the word prefixes (McDonald et al. use 5).
    lowercase : bool, default=False
        Lower-case word forms before looking them up.
    coarse_pos : int, "upos", "auto" or None, default="auto"
        Add the coarse-POS templates. An int ``k``: the first ``k`` characters of the
        POS tag (``1`` groups the Penn Treebank's NN, NNS, NNP and NNPS as N); ``"upos"``:
        the universal tag, beside ``xpos``; ``"auto"``: ``"upos"`` where every training
        token has a ``upos`` (UD treebanks) and the POS read is ``xpos`` or ``fields`` are
        given (they need a coarse POS, even where the UPOS is the POS read), else none.
        None: no coarse templates. On the PTB sample the structured SVM parsed 90.08 UAS
        with ``coarse_pos=1`` against 89.09 without (``benchmarks/bench_ssvm.py``, C
        chosen on the dev set for each); a pass took 1.6x as long. On UD English-EWT dev
        (first-order Eisner, 10 epochs, gold tags) the UPOS beside the XPOS raised the
        UAS from 82.25 to 85.20 (``benchmarks/bench_ud.py``).
    fields : sequence of str, default=()
        Token fields that add templates of their own (at most three, such as
        ``("lemma", "feats")``; a FEATS dict is read as its sorted ``Name=Value`` pairs).
        They need a coarse POS. A field missing or ``"_"`` is read as ``"_"``.

    Attributes
    ----------
    vocabularies_ : dict of str to dict
        ``{"form": {...}, "pos": {...}, "prefix": {...}}``, ``"coarse"`` with a coarse
        POS, and one per field of ``fields``: value -> id.
    coarse_ : int, "upos" or None
        The coarse POS in use (``coarse_pos`` with ``"auto"`` resolved on the training
        sentences).

    Examples
    --------
    >>> from skstruct import ArcFeatures
    >>> X = [[{"form": "Dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]]
    >>> encoded = ArcFeatures().fit_transform(X)
    >>> encoded.attrs.tolist()  # (form, POS, prefix) ids per token
    [[3, 3, 3], [4, 4, 4]]

    UD tokens have a UPOS beside the XPOS: ``"auto"`` makes it the coarse POS.

    >>> X = [[{"form": "Dogs", "xpos": "NNS", "upos": "NOUN", "lemma": "dog"},
    ...       {"form": "bark", "xpos": "VBP", "upos": "VERB", "lemma": "bark"}]]
    >>> features = ArcFeatures(fields=["lemma"]).fit(X)
    >>> features.coarse_, features.transform(X).attrs.tolist()
    ('upos', [[3, 3, 3, 3, 3], [4, 4, 4, 4, 4]])
    """

    _parameter_constraints: dict = {
        "n_features": [Interval(Integral, 1, None, closed="left")],
        "pos": [StrOptions({"auto", "xpos", "upos"})],
        "prefix_length": [Interval(Integral, 1, None, closed="left")],
        "lowercase": ["boolean"],
        "coarse_pos": [
            Interval(Integral, 1, None, closed="left"),
            StrOptions({"upos", "auto"}),
            None,
        ],
        "fields": ["array-like"],
    }

    def __init__(
        self,
        n_features=2**22,
        pos="auto",
        prefix_length=5,
        lowercase=False,
        coarse_pos="auto",
        fields=(),
    ):
        self.n_features = n_features
        self.pos = pos
        self.prefix_length = prefix_length
        self.lowercase = lowercase
        self.coarse_pos = coarse_pos
        self.fields = fields

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Learn the vocabularies of forms, POS tags and prefixes.

        Parameters
        ----------
        X : list of sentences
            Each a list of token dicts with a ``form`` and ``xpos`` and/or ``upos``
            (as :func:`~skstruct.datasets.load_conllu` returns them).
        y : ignored

        Returns
        -------
        self : object
        """
        X = check_sequences(X)
        self.coarse_ = self._resolve_coarse(X)
        vocabularies = {name: {} for name in self._columns()}
        for sentence in self._attributes(X):
            for values in sentence:
                for name, value in zip(vocabularies, values):
                    vocab = vocabularies[name]
                    if value not in vocab:
                        vocab[value] = len(vocab) + _tree.N_RESERVED
        self.vocabularies_ = vocabularies
        return self

    def transform(self, X):
        """Token attribute ids: a :class:`~skstruct.features.TokenAttributes` with three
        ids per token (form, POS, prefix; a fourth, the coarse POS, with a coarse POS;
        then one per field of ``fields``) and ``n_features`` hashed weights.

        Parameters
        ----------
        X : list of sentences

        Returns
        -------
        TokenAttributes
        """
        return self.transform_named(X, "X")

    def transform_named(self, X, name):
        """:meth:`transform`, its errors naming ``X`` as ``name``: how a parser encodes
        its ``X_dev``.

        Parameters
        ----------
        X : list of sentences
        name : str
            The argument's name in error messages.

        Returns
        -------
        TokenAttributes

        Examples
        --------
        >>> from skstruct import ArcFeatures
        >>> features = ArcFeatures().fit([[{"form": "Dogs", "xpos": "NNS"}]])
        >>> features.transform_named([[{"form": "Cats"}]], "X_dev")
        Traceback (most recent call last):
        ...
        ValueError: X_dev[0][0] has no xpos or upos tag: {'form': 'Cats'}. ...
        """
        check_is_fitted(self, "vocabularies_")
        vocabs = [self.vocabularies_[column] for column in self._columns()]
        ids, lengths = [], []
        for sentence in self._attributes(X, name):
            lengths.append(len(sentence))
            for values in sentence:
                ids.extend(vocab.get(value, _tree.UNKNOWN) for vocab, value in zip(vocabs, values))
        n_tokens = sum(lengths)
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        attrs = np.asarray(ids, dtype=np.int32).reshape(n_tokens, len(vocabs))
        return TokenAttributes(attrs, offsets, self.n_features)

    def merge(self, other):
        """Take in the vocabularies of ``other``, an ``ArcFeatures`` with the same
        parameters fitted on other sentences (another shard of a corpus, encoded on its
        own worker): the values this one lacks get the next ids, in ``other``'s order.

        Parameters
        ----------
        other : ArcFeatures
            Fitted, with the same parameters and the same resolved ``coarse_``.

        Returns
        -------
        maps : list of ndarray of int32
            Per column, ``other``'s id -> this one's (reserved ids map to themselves),
            for :meth:`TokenAttributes.with_ids
            <skstruct.features.TokenAttributes.with_ids>` on what ``other`` encoded.

        Examples
        --------
        >>> from skstruct import ArcFeatures
        >>> a = ArcFeatures().fit([[{"form": "Dogs", "xpos": "NNS"}]])
        >>> b = ArcFeatures().fit([[{"form": "Cats", "xpos": "NNS"}]])
        >>> [ids.tolist() for ids in a.merge(b)]  # Cats is new, NNS known, Cats a new prefix
        [[0, 1, 2, 4], [0, 1, 2, 3], [0, 1, 2, 4]]
        """
        check_is_fitted(self, "vocabularies_")
        check_is_fitted(other, "vocabularies_")
        if other.get_params() != self.get_params() or other.coarse_ != self.coarse_:
            raise ValueError(
                f"Cannot merge the vocabularies of {other!r} (coarse POS {other.coarse_!r}) "
                f"into {self!r} (coarse POS {self.coarse_!r}): their parameters or the "
                f"coarse POS they resolved differ. Set coarse_pos explicitly, or encode "
                f"all sentences with one ArcFeatures."
            )
        maps = []
        for name, vocab in self.vocabularies_.items():
            theirs = other.vocabularies_[name]
            ids = np.arange(len(theirs) + _tree.N_RESERVED, dtype=np.int32)
            for value, i in theirs.items():
                mine = vocab.get(value)
                if mine is None:
                    mine = vocab[value] = len(vocab) + _tree.N_RESERVED
                ids[i] = mine
            maps.append(ids)
        return maps

    def _columns(self):
        """The attributes of a token, in the kernels' column order (FORM, POS, PREFIX,
        COARSE, then the fields)."""
        coarse = () if self.coarse_ is None else ("coarse",)
        return ("form", "pos", "prefix", *coarse, *(f"field:{name}" for name in self.fields))

    def _resolve_coarse(self, X):
        """The coarse POS to use: ``coarse_pos``, with ``"auto"`` resolved on ``X``."""
        fields = list(self.fields)
        if len(fields) > _tree.MAX_EXTRA or not all(isinstance(f, str) for f in fields):
            raise ValueError(
                f"fields must be at most {_tree.MAX_EXTRA} token field names; got {fields!r}."
            )
        coarse = self.coarse_pos
        if coarse == "auto":
            tokens = [t for s in X for t in s if isinstance(t, Mapping)]
            reads_xpos = self.pos == "xpos" or (
                self.pos == "auto" and any(t.get("xpos") not in (None, "_") for t in tokens)
            )
            has_upos = bool(tokens) and all(
                isinstance(t.get("upos"), str) and t["upos"] != "_" for t in tokens
            )
            # without an XPOS the UPOS is the POS read; fields still need it as coarse POS
            coarse = "upos" if has_upos and (reads_xpos or fields) else None
        if fields and coarse is None:
            raise ValueError(
                f"fields={fields!r} need a coarse POS: set coarse_pos=1 (the first letter of "
                f"the POS) or 'upos' (the 'auto' default finds no UPOS on every token)."
            )
        return coarse

    def _attributes(self, X, name="X"):
        """Per sentence, per token: (form, POS, prefix[, coarse POS]) strings; bad tokens
        raise."""
        X = check_sequences(X, name=name)
        k = self.prefix_length
        for i, sentence in enumerate(X):
            rows = []
            for j, token in enumerate(sentence):
                if not isinstance(token, Mapping):
                    raise TypeError(
                        f"{name}[{i}][{j}] is a {type(token).__name__}; a parser needs token dicts "
                        f"with a 'form' and a POS ('xpos' or 'upos'), as load_conllu returns."
                    )
                form = token.get("form")
                if not isinstance(form, str):
                    raise ValueError(f"{name}[{i}][{j}] has no 'form' string: {token!r}.")
                if self.lowercase:
                    form = form.lower()
                pos = self._pos(token, name, i, j)
                row = (form, pos, form[:k])
                if self.coarse_ is not None:
                    row += (self._coarse(token, pos, name, i, j),)
                row += tuple(_field_value(token.get(field)) for field in self.fields)
                rows.append(row)
            yield rows

    def _pos(self, token, name, i, j):
        xpos, upos = token.get("xpos"), token.get("upos")
        if self.pos == "xpos" or (self.pos == "auto" and xpos not in (None, "_")):
            value = xpos
        else:
            value = upos
        if not isinstance(value, str) or value == "_":
            raise ValueError(
                f"{name}[{i}][{j}] has no {self.pos if self.pos != 'auto' else 'xpos or upos'} "
                f"tag: {token!r}. The parsers' features need POS tags."
            )
        return value

    def _coarse(self, token, pos, name, i, j):
        if self.coarse_ != "upos":
            return pos[: self.coarse_]
        upos = token.get("upos")
        if not isinstance(upos, str) or upos == "_":
            raise ValueError(
                f"{name}[{i}][{j}] has no 'upos' tag: {token!r}. coarse_pos='upos' needs one on "
                f"every word; coarse_pos=1 takes the first letter of the POS tag instead."
            )
        return upos


def _field_value(value):
    """A token field as an attribute value: a FEATS dict as its ``Name=Value`` pairs,
    a missing value as ``"_"``."""
    if isinstance(value, Mapping):
        from ..morphology import feats_label  # here: morphology imports this package

        return feats_label(value)
    return "_" if value is None else str(value)
