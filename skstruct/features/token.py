"""TokenFeatures: raw tokens -> sklearn-crfsuite-style token feature dicts."""

import re
import string
from collections.abc import Mapping
from itertools import chain, repeat
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from ..utils._sklearn_compat import Interval, fit_context
from ..utils.validation import check_sequences
from ._encoder import _offsets
from ._types import INVALID, concatenate_rows, stack_rows, type_ids

# A character repeated right after itself: the repeats go ("XXxx" -> "Xx"); as
# sub(r"(.)\1+", r"\1") does, without expanding a template per call (7x faster)
_SHAPE_RUNS = re.compile(r"(?<=(.))\1+")
#: ``word_shape``'s mapping of the ASCII letters and digits.
_ASCII_SHAPES = str.maketrans(
    string.ascii_uppercase + string.ascii_lowercase + string.digits, "X" * 26 + "x" * 26 + "d" * 10
)
#: The start of a context feature's name (``"-1:lower"``).
_CONTEXT = re.compile(r"[-+]\d+:")


def word_shape(word):
    """Short word shape: upper -> X, lower -> x, digit -> d, others kept; runs collapsed.

    Examples
    --------
    >>> word_shape("McDonald"), word_shape("1,234.5"), word_shape("U.S.")
    ('XxXx', 'd,d.d', 'X.X.')
    """
    if word.isascii():  # the same mapping, by one C call
        return _SHAPE_RUNS.sub("", word.translate(_ASCII_SHAPES))
    chars = [
        "X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c for c in word
    ]
    return _SHAPE_RUNS.sub("", "".join(chars))


class TokenFeatures(TransformerMixin, BaseEstimator):
    """Turn raw tokens into feature dicts (the input format of sklearn-crfsuite).

    A token is a string (the word), a tuple / list whose first field is the word
    and whose other fields are extra columns, such as the POS tags that
    :func:`~skstruct.datasets.load_conll` returns, or a CoNLL-U token dict as
    :func:`~skstruct.datasets.load_conllu` returns (the word is its ``"form"``, and
    ``columns`` names the fields to use besides; unannotated ``None`` fields give no
    feature). This is how to tag CoNLL-U data: the raw token dicts would make every
    field a feature, the gold ``upos``, ``head`` and the token ``id`` included.

    Parameters
    ----------
    word : bool, default=True
        Add the word itself (``"word"``).
    lower : bool, default=True
        Add the lower-cased word (``"lower"``).
    shape : bool, default=True
        Add the collapsed word shape (``"shape"``, see :func:`word_shape`).
    prefix_length : int, default=3
        Add prefixes of length 1 to ``prefix_length`` (``"prefix1"``, ...).
    suffix_length : int, default=3
        Add suffixes of length 1 to ``suffix_length`` (``"suffix1"``, ...).
    flags : bool, default=True
        Add boolean flags ``is_upper``, ``is_title``, ``is_digit``, ``has_digit`` and
        ``has_hyphen``.
    columns : sequence of str or None, default=None
        Names of the extra token fields, in order; ``None`` names them ``col1``,
        ``col2``, ... Each becomes a string feature, with its 2-character prefix too
        (``"col1[:2]"``), which for PTB tags groups ``NN``/``NNS``/``NNP``. For
        CoNLL-U token dicts, the keys of the fields to use besides ``"form"`` (for
        example ``["lemma", "xpos"]``); ``None`` uses the form alone.
    window : int, default=1
        Add the features of the tokens up to ``window`` positions away, prefixed with
        the offset (``"-1:lower"``, ``"+1:col1"``). Context tokens contribute their
        lower-cased word, flags and columns, not their affixes.
    bos_eos : bool, default=True
        Add ``"BOS"`` to the first token and ``"EOS"`` to the last.
    bias : bool, default=True
        Add a constant feature ``"bias"`` (a per-label bias in the tagger).

    See Also
    --------
    skstruct.StructuredPerceptron : takes these dicts directly, or this transformer
        as its ``features`` parameter.

    Notes
    -----
    A token's features depend on its fields alone (and on those of its neighbours, and
    on its position for ``BOS``/``EOS``). A learner given ``features=TokenFeatures()``
    therefore makes no dict per token: :meth:`encode` computes the features of each
    distinct token once (tens of thousands of types for a million tokens), encodes
    them, and builds every token's feature row by array indexing, equal to encoding
    :meth:`transform`'s dicts (the same features and values, in the same order). On
    the Brown corpus this saves most of the time and memory that the dicts cost.
    :meth:`transform` still returns the dicts, for pipelines and inspection.

    Examples
    --------
    >>> feats = TokenFeatures(prefix_length=0, suffix_length=2, shape=False, flags=False,
    ...                       columns=["pos"], window=0)
    >>> feats.fit_transform([[("The", "DT"), ("cats", "NNS")]])[0][1]
    {'bias': 1.0, 'word': 'cats', 'lower': 'cats', 'suffix1': 's', 'suffix2': 'ts', \
'pos': 'NNS', 'pos[:2]': 'NN', 'EOS': True}

    CoNLL-U tokens, as :func:`~skstruct.datasets.load_conllu` gives them:

    >>> token = {"id": 2, "form": "cats", "lemma": "cat", "upos": "NOUN", "xpos": None}
    >>> feats.set_params(columns=["xpos"]).fit_transform([[token]])[0][0]
    {'bias': 1.0, 'word': 'cats', 'lower': 'cats', 'suffix1': 's', 'suffix2': 'ts', \
'BOS': True, 'EOS': True}
    """

    _parameter_constraints: dict = {
        "word": ["boolean"],
        "lower": ["boolean"],
        "shape": ["boolean"],
        "prefix_length": [Interval(Integral, 0, None, closed="left")],
        "suffix_length": [Interval(Integral, 0, None, closed="left")],
        "flags": ["boolean"],
        "columns": ["array-like", None],
        "window": [Interval(Integral, 0, None, closed="left")],
        "bos_eos": ["boolean"],
        "bias": ["boolean"],
    }

    def __init__(
        self,
        *,
        word=True,
        lower=True,
        shape=True,
        prefix_length=3,
        suffix_length=3,
        flags=True,
        columns=None,
        window=1,
        bos_eos=True,
        bias=True,
    ):
        self.word = word
        self.lower = lower
        self.shape = shape
        self.prefix_length = prefix_length
        self.suffix_length = suffix_length
        self.flags = flags
        self.columns = columns
        self.window = window
        self.bos_eos = bos_eos
        self.bias = bias

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Check the parameters; nothing is learnt. Returns self."""
        check_sequences(X)
        return self

    def transform(self, X):
        """Feature dicts of every token.

        Parameters
        ----------
        X : list of sequences of tokens
            Tokens are strings or tuples ``(word, column1, ...)``.

        Returns
        -------
        list of list of dict
        """
        X = check_sequences(X)
        return [self._sentence(i, seq) for i, seq in enumerate(X)]

    def encode(self, X, encoder, *, learn=False):
        """Encode the features of every token with ``encoder``, computed once per
        distinct token: no dict per token.

        The result equals ``encoder.transform(self.transform(X))``, or
        ``encoder.partial_fit_transform(self.transform(X))`` when ``learn``, row for
        row: the same features with the same values, in the same order within each row
        (scores add weights in that order). The encoder learns the same features, though
        new ones may get other column ids than the dict path would give them. Bad tokens
        raise the errors of :meth:`transform`.

        Parameters
        ----------
        X : list of sequences of tokens
            As for :meth:`transform`.
        encoder : TokenDictEncoder
            Encodes the features; fitted, unless ``learn``.
        learn : bool, default=False
            Add the features of ``X`` to the encoder's vocabulary (fitting an unfitted
            encoder on them); else features it has not seen are dropped.

        Returns
        -------
        EncodedSequences

        Examples
        --------
        >>> from skstruct.features import TokenDictEncoder
        >>> feats = TokenFeatures(word=False, shape=False, prefix_length=0,
        ...                       suffix_length=1, flags=False, window=0, bos_eos=False)
        >>> encoder = TokenDictEncoder()
        >>> X = feats.encode([["The", "cats"], ["the"]], encoder, learn=True)
        >>> names = encoder.get_feature_names_out()
        >>> [names[X.indices[a:b]].tolist() for a, b in zip(X.indptr[:-1], X.indptr[1:])]
        [['bias', 'lower=the', 'suffix1=e'], ['bias', 'lower=cats', 'suffix1=s'], \
['bias', 'lower=the', 'suffix1=e']]
        """
        X = check_sequences(X)
        if learn and not hasattr(encoder, "n_features_"):
            encoder.fit([])
        encode = encoder.partial_fit_transform if learn else encoder.transform
        if not self._per_type():
            return encode(self.transform(X))
        offsets = _offsets(X)
        ids, types = self._token_types(X, offsets)
        table, slots = self._type_table(ids, types, offsets, encode)
        return stack_rows(table, slots, offsets, encoder.n_features is not None)

    def _per_type(self):
        """Whether :meth:`encode` can assemble :meth:`transform`'s dicts from per-type
        parts: not for a subclass that changes how dicts are made, nor when a column's
        feature has the name of a sentence-level or context feature (``"bias"``,
        ``"-1:lower"``): in a dict, one would overwrite the other."""
        makers = (type(self).transform, type(self)._sentence)
        if makers != (TokenFeatures.transform, TokenFeatures._sentence):
            return False  # a subclass making dicts its own way: only transform knows them
        names = [] if self.columns is None else list(self.columns)
        return not any(_taken(key) for name in names for key in (name, f"{name}[:2]"))

    def _token_types(self, X, offsets):
        """``(type id of every token, distinct token keys)``, every token checked.

        A token's key is its fields: the token itself (a word or a tuple), or the
        ``(form, *columns)`` tuple of a CoNLL-U token dict. Checks run once per type;
        on a bad token, the sentence holding the first one is checked as
        :meth:`transform` checks it, to raise the same error."""
        conllu = np.fromiter((isinstance(seq[0], Mapping) for seq in X), bool, len(X))
        ids, types = type_ids(self._token_keys(X, conllu))
        lengths = np.diff(offsets)
        usable = np.where(
            np.repeat(conllu, lengths),
            np.fromiter(map(_is_conllu_key, types), bool, len(types))[ids],
            np.fromiter(map(_is_plain_key, types), bool, len(types))[ids],
        )
        n_fields = np.fromiter(map(_n_fields, types), np.int64, len(types))[ids]
        bad = ~usable | (n_fields != np.repeat(n_fields[offsets[:-1]], lengths))
        if self.columns is not None:
            bad |= n_fields != len(self.columns) + 1
        if bad.any():
            i = int(np.searchsorted(offsets, np.argmax(bad), side="right")) - 1
            self._sentence_fields(i, X[i])
            raise AssertionError(f"Example {i} passed the checks it failed per type.")
        return ids, types

    def _token_keys(self, X, conllu):
        """The key of every token (see :meth:`_token_types`), in one list."""
        if not conllu.any():
            return list(chain.from_iterable(X))
        names = [] if self.columns is None else list(self.columns)
        if conllu.all():
            return _conllu_keys(list(chain.from_iterable(X)), names)
        return list(
            chain.from_iterable(
                _conllu_keys(seq, names) if is_conllu else seq
                for seq, is_conllu in zip(X, conllu.tolist())
            )
        )

    def _type_table(self, ids, types, offsets, encode):
        """``(table, slots)``: the encoded table rows, and the rows of each token.

        The rows are an empty dict (for the slots a token lacks), the bias, each type's
        own features, for each context offset the prefixed context features of the types
        found there, then ``BOS`` and ``EOS``. ``slots[t]`` lists token ``t``'s rows in
        the order of its :meth:`transform` dict: bias, own, ``-1``, ``+1``, ``-2``, ...,
        ``BOS``, ``EOS``. Each group of rows is encoded as soon as it is made, so that
        only one group's dicts exist at a time."""
        own, context = self._type_features(types)
        lengths = np.diff(offsets)
        before = np.arange(ids.size) - np.repeat(offsets[:-1], lengths)  # position
        after = np.repeat(lengths, lengths) - before - 1
        n_slots = bool(self.bias) + 1 + 2 * self.window + 2 * bool(self.bos_eos)
        slots = np.zeros((ids.size, n_slots), dtype=np.int32)  # row 0 is the empty one
        table = _TableGroups(encode)
        table.add([{}])
        column = 0
        if self.bias:
            slots[:, column] = table.add([{"bias": 1.0}])
            column += 1
        slots[:, column] = table.add(own) + ids
        del own
        for off in range(1, self.window + 1):
            for sign, has, step in (("-", before >= off, -off), ("+", after >= off, off)):
                column += 1
                _context_rows(table, context, ids, has, step, f"{sign}{off}:", slots[:, column])
        if self.bos_eos:
            first = table.add([{"BOS": True}, {"EOS": True}])
            slots[before == 0, column + 1] = first
            slots[after == 0, column + 2] = first + 1
        return table.stacked(), slots

    def _type_features(self, types):
        """The own and the context feature dicts of every type."""
        names = {}  # number of fields -> column names
        own, context = [], []
        for key in types:
            fields = key if isinstance(key, tuple) else (key,)
            if len(fields) not in names:
                names[len(fields)] = self._names(len(fields))
            flags = _flags(fields[0]) if self.flags else {}  # once for both dicts
            own.append(self._own(fields, names[len(fields)], flags))
            if self.window:
                context.append(self._context(fields, names[len(fields)], flags))
        return own, context

    def _names(self, n_fields):
        if self.columns is None:
            return [f"col{j}" for j in range(1, n_fields)]
        return list(self.columns)

    def _sentence(self, i, seq):
        fields, names = self._sentence_fields(i, seq)
        flags = [_flags(f[0]) if self.flags else {} for f in fields]
        own = [self._own(f, names, g) for f, g in zip(fields, flags)]
        context = (
            [self._context(f, names, g) for f, g in zip(fields, flags)] if self.window else None
        )
        n = len(seq)
        out = []
        for pos in range(n):
            feats = {"bias": 1.0} if self.bias else {}
            feats.update(own[pos])
            for off in range(1, self.window + 1):
                for sign, other in (("-", pos - off), ("+", pos + off)):
                    if 0 <= other < n:
                        for k, v in context[other].items():
                            feats[f"{sign}{off}:{k}"] = v
            if self.bos_eos and pos == 0:
                feats["BOS"] = True
            if self.bos_eos and pos == n - 1:
                feats["EOS"] = True
            out.append(feats)
        return out

    def _sentence_fields(self, i, seq):
        """``(fields of every token, column names)`` of sentence ``i``, checked: the
        errors name the example and the token."""
        if isinstance(seq[0], Mapping):
            names = [] if self.columns is None else list(self.columns)
            fields = [_conllu_fields(i, pos, token, names) for pos, token in enumerate(seq)]
        else:
            fields = [_fields(i, pos, token) for pos, token in enumerate(seq)]
            names = self._column_names(i, fields)
        return fields, names

    def _column_names(self, i, fields):
        n_extra = len(fields[0]) - 1
        if any(len(f) != n_extra + 1 for f in fields):
            pos = next(p for p, f in enumerate(fields) if len(f) != n_extra + 1)
            raise ValueError(
                f"Example {i}: token {pos} has {len(fields[pos])} fields but token 0 has "
                f"{n_extra + 1}; all tokens of a sentence need the same fields."
            )
        if self.columns is None:
            return [f"col{j}" for j in range(1, n_extra + 1)]
        names = list(self.columns)
        if len(names) != n_extra:
            raise ValueError(
                f"Example {i}: tokens have {n_extra} extra fields but columns names "
                f"{len(names)}: {names!r}."
            )
        return names

    def _own(self, fields, names, flags):
        word = fields[0]
        feats = {}
        if self.word:
            feats["word"] = word
        if self.lower:
            feats["lower"] = word.lower()
        if self.shape:
            feats["shape"] = word_shape(word)
        for k in range(1, min(self.prefix_length, len(word)) + 1):
            feats[f"prefix{k}"] = word[:k]
        for k in range(1, min(self.suffix_length, len(word)) + 1):
            feats[f"suffix{k}"] = word[-k:]
        feats.update(flags)
        feats.update(_columns(fields, names))
        return feats

    def _context(self, fields, names, flags):
        word = fields[0]
        feats = {"lower": word.lower()} if self.lower or self.word else {}
        feats.update(flags)
        feats.update(_columns(fields, names))
        return feats

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.input_tags.string = True
        tags.requires_fit = False
        return tags


def _fields(i, pos, token):
    if isinstance(token, str):
        return (token,)
    if isinstance(token, (tuple, list)) and token and all(isinstance(f, str) for f in token):
        return tuple(token)
    raise TypeError(
        f"Example {i}: token {pos} is {token!r}; TokenFeatures expects a string or a tuple of "
        f"strings (word, extra columns...)."
    )


def _conllu_fields(i, pos, token, names):
    """``(form, *fields)`` of a CoNLL-U token dict; an unannotated field is None."""
    if not isinstance(token, Mapping) or not isinstance(token.get("form"), str):
        raise TypeError(
            f"Example {i}: token {pos} is {token!r}; TokenFeatures expects CoNLL-U token "
            f"dicts with a string 'form' (as load_conllu gives them) in a sentence whose "
            f"first token is one."
        )
    values = [token.get(name) for name in names]
    for name, value in zip(names, values):
        if value is not None and not isinstance(value, str):
            raise TypeError(
                f"Example {i}: token {pos} has {value!r} in field {name!r}; columns must name "
                f"string fields (or fields that are None where unannotated)."
            )
    return (token["form"], *values)


def _flags(word):
    return {
        "is_upper": word.isupper(),
        "is_title": word.istitle(),
        "is_digit": word.isdigit(),
        # no character is both a letter and a digit: most words skip the Python loop
        "has_digit": not word.isalpha() and any(c.isdigit() for c in word),
        "has_hyphen": "-" in word,
    }


def _columns(fields, names):
    feats = {}
    for name, value in zip(names, fields[1:]):
        if value is None:  # an unannotated CoNLL-U field
            continue
        feats[name] = value
        feats[f"{name}[:2]"] = value[:2]
    return feats


def _taken(key):
    """Whether a column feature named ``key`` would clash with a sentence-level or a
    context feature in a token dict."""
    return isinstance(key, str) and (key in ("bias", "BOS", "EOS") or bool(_CONTEXT.match(key)))


def _context_rows(table, context, ids, has, step, prefix, out):
    """Table rows of one context offset: the context dicts, keys prefixed, of the types
    found ``step`` tokens away from some token (added to ``table``); writes every
    token's row there to ``out`` (leaving 0, the empty row, where ``has`` is False)."""
    source = ids[np.flatnonzero(has) + step]
    present = np.zeros(len(context), dtype=bool)
    present[source] = True
    found = np.flatnonzero(present)
    row_of = np.zeros(len(context), dtype=np.int64)
    row_of[found] = np.arange(found.size)
    dicts = [context[t] for t in found.tolist()]
    # each key prefixed once, not once per dict: C-level renaming by look-up
    renamed = {k: prefix + k for k in set(chain.from_iterable(dicts))}.__getitem__
    first = table.add([dict(zip(map(renamed, d), d.values())) for d in dicts])
    out[has] = first + row_of[source]


class _TableGroups:
    """The rows of a type table, encoded a group at a time by ``encode`` (an encoder's
    ``transform`` or ``partial_fit_transform``, which numbers new features in order of
    first occurrence, across calls as within one)."""

    def __init__(self, encode):
        self.encode = encode
        self.parts = []
        self.n_rows = 0

    def add(self, rows):
        """Encode the dicts ``rows``; returns the table row of the first."""
        first = self.n_rows
        if rows:  # (a hashing encoder refuses an empty sequence)
            self.parts.append(self.encode([rows]))
        self.n_rows += len(rows)
        return first

    def stacked(self):
        """All the rows so far, as one EncodedSequences (one sentence)."""
        return concatenate_rows(self.parts)


def _conllu_keys(tokens, names):
    """``(form, *fields)`` of CoNLL-U token dicts (:data:`INVALID` for a token that is no
    mapping), with C-level look-ups when all are dicts."""
    if all(issubclass(t, dict) for t in set(map(type, tokens))):
        return list(zip(*(map(dict.get, tokens, repeat(name)) for name in ("form", *names))))
    return [
        (token.get("form"), *map(token.get, names)) if isinstance(token, Mapping) else INVALID
        for token in tokens
    ]


def _is_plain_key(key):
    """What :func:`_fields` accepts (a list is keyed as its tuple)."""
    return isinstance(key, str) or (
        isinstance(key, tuple) and len(key) > 0 and all(isinstance(f, str) for f in key)
    )


def _is_conllu_key(key):
    """What :func:`_conllu_fields` accepts: a string form, string or None fields."""
    return (
        isinstance(key, tuple)
        and len(key) > 0
        and isinstance(key[0], str)
        and all(f is None or isinstance(f, str) for f in key[1:])
    )


def _n_fields(key):
    return len(key) if isinstance(key, tuple) else 1
