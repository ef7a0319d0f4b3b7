"""TokenDictEncoder: sklearn-crfsuite token dicts -> EncodedSequences (CSR + offsets).

Two vocabularies, with scikit-learn's naming semantics:

- exact (``n_features=None``): one column per ``key`` with a numeric value and per
  ``key=value`` with a string value, exactly as :class:`~sklearn.feature_extraction.DictVectorizer`
  names them (``get_feature_names_out`` returns the same names);
- hashed (``n_features=int``): :class:`~sklearn.feature_extraction.FeatureHasher` with
  that many columns; nothing is learnt, unseen features hash too.

Why the exact vocabulary is not computed by ``DictVectorizer`` itself: its pure-Python
loop takes 2.8 s on CoNLL-2000's 212k training tokens, half of what CRFsuite needs for
a whole 10-epoch fit. Here each distinct key and each distinct value is looked up once
per occurrence through C-level ``map`` calls, and pairs are paired by array arithmetic;
the test suite checks that the resulting matrix equals ``DictVectorizer``'s.
"""

import math
from collections.abc import Mapping
from itertools import chain, count, pairwise
from numbers import Integral, Number

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_extraction import FeatureHasher
from sklearn.utils.validation import check_is_fitted

from ..utils.arrays import concat_ranges
from ..utils.validation import locate
from ._encoded import EncodedSequences

# The value id of numeric features: their identity is the key alone.
_NUMERIC = (1 << 32) - 1

#: Largest magnitude of a numeric feature value. Scores multiply weights (which grow
#: like the values) by values, so larger values could overflow float64 into inf and NaN
#: scores, and silently wrong predictions.
MAX_VALUE = 1e100


class TokenDictEncoder(BaseEstimator):
    """Encode lists of token feature dicts into :class:`EncodedSequences`.

    Parameters
    ----------
    n_features : int or None, default=None
        ``None`` learns an exact vocabulary; an int hashes features into that many
        columns with :class:`~sklearn.feature_extraction.FeatureHasher`.

    Notes
    -----
    String values make indicator features ``key=value`` (value 1); numbers and
    booleans are kept as the value of feature ``key`` (``True`` is 1, ``False`` is 0).
    Zero values are dropped: they never change a score or an update, and so are ``None``
    values (an unannotated field of :func:`~skstruct.datasets.load_conllu`). NaN, infinite
    values and magnitudes above ``1e100`` (scores, weights times values, would
    overflow) are refused, naming the sentence and token.

    Examples
    --------
    >>> enc = TokenDictEncoder().fit([[{"w": "a", "len": 1.5}, {"w": "b"}]])
    >>> enc.get_feature_names_out().tolist()
    ['w=a', 'w=b', 'len']
    >>> X = enc.transform([[{"w": "b", "len": 2.0}, {"w": "z"}]])  # "w=z" is unseen
    >>> X.indices.tolist(), X.data.tolist(), X.indptr.tolist()
    ([1, 2], [1.0, 2.0], [0, 2, 2])
    """

    def __init__(self, n_features=None):
        self.n_features = n_features

    # -- public API -----------------------------------------------------------------

    def fit(self, X, y=None):
        """Learn the vocabulary of ``X`` (a list of sentences of token dicts); returns self."""
        self.keys_ = {}
        self.values_ = {}
        self.codes_ = np.zeros(0, dtype=np.int64)
        self.code_ids_ = np.zeros(0, dtype=np.int64)
        self.n_features_ = 0 if self.n_features is None else int(self.n_features)
        return self.partial_fit(X)

    def partial_fit(self, X, y=None):
        """Add the features of ``X`` not seen so far; existing ids do not change (the
        first call on an unfitted encoder is ``fit``)."""
        if not hasattr(self, "n_features_"):
            return self.fit(X)
        self._encode(X, learn=True, output=False)
        return self

    def fit_transform(self, X, y=None):
        """``fit(X).transform(X)``, reading the dicts only once."""
        self.fit([])
        return self._encode(X, learn=True)

    def partial_fit_transform(self, X):
        """``partial_fit(X).transform(X)``, reading the dicts only once."""
        if not hasattr(self, "n_features_"):
            return self.fit_transform(X)
        return self._encode(X, learn=True)

    def transform(self, X):
        """Encode ``X``; features outside the vocabulary are dropped.

        Returns
        -------
        EncodedSequences
        """
        check_is_fitted(self, "n_features_")
        return self._encode(X, learn=False)

    def merge(self, other):
        """Add the features of ``other``, another fitted encoder, to this one's
        vocabulary; returns where each of ``other``'s columns is here.

        The features ``other`` has and this one lacks get the next ids, in ``other``'s
        column order; existing ids do not change. Merging the vocabularies of encoders
        fitted on the parts of a corpus, in order, gives every feature of the corpus a
        column, with no pass over the corpus itself: how
        :class:`~skstruct.ParameterMixing` encodes shards on its workers. Hashed
        encoders (``n_features`` set) share one column space: the map is the identity.

        Parameters
        ----------
        other : TokenDictEncoder
            Fitted, with the same ``n_features``.

        Returns
        -------
        columns : ndarray of int64
            This encoder's column of each of ``other``'s columns (one per column of
            ``other``).

        Examples
        --------
        >>> first = TokenDictEncoder().fit([[{"w": "a"}, {"w": "b"}]])
        >>> second = TokenDictEncoder().fit([[{"w": "c", "len": 2.0}, {"w": "a"}]])
        >>> second.get_feature_names_out().tolist()
        ['w=c', 'w=a', 'len']
        >>> first.merge(second).tolist()
        [2, 0, 3]
        >>> first.get_feature_names_out().tolist()
        ['w=a', 'w=b', 'w=c', 'len']
        """
        return self._columns_of(other, add=True)

    def columns_of(self, other):
        """Where each of ``other``'s columns is in this encoder's vocabulary, -1 for
        the features it lacks: :meth:`merge` without adding any. Data ``other``
        encoded, mapped through these columns with the -1 entries dropped
        (:meth:`EncodedSequences.with_columns`), is what :meth:`transform` gives:
        how :class:`~skstruct.ParameterMixing` encodes a development set on its
        workers. ``other`` and the result as for :meth:`merge`.

        Examples
        --------
        >>> first = TokenDictEncoder().fit([[{"w": "a"}, {"w": "b"}]])
        >>> second = TokenDictEncoder().fit([[{"w": "c"}, {"w": "a"}]])
        >>> first.columns_of(second).tolist()
        [-1, 0]
        >>> first.get_feature_names_out().tolist()
        ['w=a', 'w=b']
        """
        return self._columns_of(other, add=False)

    def _columns_of(self, other, add):
        check_is_fitted(self, "n_features_")
        check_is_fitted(other, "n_features_")
        if self.n_features != other.n_features:
            raise ValueError(
                f"cannot merge the vocabulary of an encoder with n_features="
                f"{other.n_features!r} into one with n_features={self.n_features!r}."
            )
        if self.n_features is not None:
            return np.arange(other.n_features_, dtype=np.int64)
        # unknown keys and values get id -1 without add, so that no code matches them
        keys_get = self.keys_.setdefault if add else self.keys_.get
        values_get = self.values_.setdefault if add else self.values_.get
        key_ids = np.fromiter(
            (keys_get(k, len(self.keys_) if add else -1) for k in other.keys_),
            dtype=np.int64,
            count=len(other.keys_),
        )
        value_ids = np.fromiter(
            (values_get(v, len(self.values_) if add else -1) for v in other.values_),
            dtype=np.int64,
            count=len(other.values_),
        )
        # other's codes, translated to this encoder's key and value ids, in column order
        by_column = np.empty_like(other.codes_)
        by_column[other.code_ids_] = other.codes_
        keys, values = np.divmod(by_column, 1 << 32)
        symbolic = values != _NUMERIC
        values[symbolic] = value_ids[values[symbolic]]
        valid = (key_ids[keys] >= 0) & (values >= 0)
        codes = (key_ids[keys] << 32) | values
        where = np.searchsorted(self.codes_, codes)
        known = valid & self._known(codes, where)
        columns = np.full(codes.size, -1, dtype=np.int64)
        columns[known] = self.code_ids_[where[known]]
        if add:
            columns[~known] = self._add_codes(codes[~known])
        return columns

    def get_feature_names_out(self, *, separator="="):
        """Feature names in column order: ``key=value`` or ``key`` (as DictVectorizer);
        ``separator=":"`` gives python-crfsuite's attribute names (``key:value``)."""
        if self.n_features is not None:
            raise AttributeError("hashed features have no names")
        keys = list(self.keys_)
        values = list(self.values_)
        names = np.empty(self.n_features_, dtype=object)
        for code, j in zip(self.codes_.tolist(), self.code_ids_.tolist()):
            k, v = divmod(code, 1 << 32)
            names[j] = f"{keys[k]}" if v == _NUMERIC else f"{keys[k]}{separator}{values[v]}"
        return names

    # -- exact vocabulary ---------------------------------------------------------------

    def _encode(self, X, learn, output=True):
        """Encode ``X`` a piece at a time: the per-occurrence arrays of one piece of
        :data:`PIECE_TOKENS` tokens at most exist at once (on CoNLL-2000 that keeps the
        peak memory of a fit at a third of what one piece takes)."""
        if not X:
            return None
        pieces = _pieces(X)
        if len(pieces) == 1:
            return self._encode_piece(X, learn, output)
        encoded = []
        for piece in pieces:
            try:
                encoded.append(self._encode_piece(X[piece], learn, output))
            except (TypeError, ValueError):
                # the pieces before were clean: the same check of all of X raises the
                # same error, naming the example by its index in X
                _pairs(X)
                raise
        return EncodedSequences.concatenate(encoded) if output else None

    def _encode_piece(self, X, learn, output):
        if self.n_features is not None:
            return self._hash(X) if output else None
        pairs = _pairs(X)
        vocabulary_get = self.values_.setdefault if learn else self.values_.get
        keys_get = self.keys_.setdefault if learn else self.keys_.get
        keys = np.fromiter(
            (keys_get(k, len(self.keys_) if learn else -1) for k in pairs.distinct_keys),
            dtype=np.int64,
            count=len(pairs.distinct_keys),
        )
        values = np.full(len(pairs.distinct_values), _NUMERIC, dtype=np.int64)
        symbolic = np.flatnonzero(pairs.is_symbolic)
        values[symbolic] = np.fromiter(
            (
                vocabulary_get(pairs.distinct_values[j], len(self.values_) if learn else -1)
                for j in symbolic
            ),
            dtype=np.int64,
            count=symbolic.size,
        )
        codes = (keys[pairs.distinct_pair_keys] << 32) | values[pairs.distinct_pair_values]
        valid = (keys[pairs.distinct_pair_keys] >= 0) & (values[pairs.distinct_pair_values] >= 0)
        if learn:  # (codes are distinct) new ones in code order
            self._add_codes(np.sort(codes[~self._known(codes)]))
        if not output:
            return None
        where = np.searchsorted(self.codes_, codes)
        known = valid & self._known(codes, where)
        pair_ids = np.full(codes.size, -1, dtype=np.int64)
        pair_ids[known] = self.code_ids_[where[known]]
        return pairs.encode(pair_ids, self.n_features_)

    def _add_codes(self, new):
        """Give the codes ``new`` (distinct, none in the vocabulary) the next column ids,
        in their order; returns those ids."""
        ids = np.arange(self.n_features_, self.n_features_ + new.size)
        all_codes = np.concatenate([self.codes_, new])
        all_ids = np.concatenate([self.code_ids_, ids])
        order = np.argsort(all_codes, kind="stable")  # sorted new codes: two runs, one merge
        self.codes_, self.code_ids_ = all_codes[order], all_ids[order]
        self.n_features_ += int(new.size)
        return ids

    def _known(self, codes, where=None):
        """Whether each of ``codes`` is in the vocabulary (``where``: their
        ``searchsorted`` positions in ``codes_``, if known)."""
        if self.codes_.size == 0:
            return np.zeros(codes.size, dtype=bool)
        if where is None:
            where = np.searchsorted(self.codes_, codes)
        return self.codes_[np.minimum(where, self.codes_.size - 1)] == codes

    # -- hashing ----------------------------------------------------------------------

    def _hash(self, X):
        X, flat = _plain_tokens(X)
        hasher = FeatureHasher(self.n_features, input_type="dict", alternate_sign=False)
        try:
            matrix = hasher.transform(flat)
        except (TypeError, ValueError, OverflowError):  # nested or bad values: flatten, and
            X, flat = _plain_tokens(_flatten_corpus(X))
            _Pairs(X, flat)  # name any value that is not a string or a usable number
            matrix = hasher.transform(flat)
        matrix.eliminate_zeros()
        if not (np.abs(matrix.data) <= MAX_VALUE).all():
            _raise_bad_value(X, _unusable_number)
        return EncodedSequences(
            matrix.indptr.astype(np.int64),
            matrix.indices.astype(np.int32),
            EncodedSequences.compact_values(matrix.data.astype(np.float64)),
            _offsets(X),
            self.n_features,
        )


#: Tokens encoded at a time (see ``TokenDictEncoder._encode``).
PIECE_TOKENS = 1 << 16


def _pieces(X):
    """Slices of consecutive sentences of ``X`` of about :data:`PIECE_TOKENS` tokens
    (whole sentences: a longer one is a piece of its own)."""
    ends = np.cumsum(np.fromiter(map(len, X), dtype=np.int64, count=len(X)))
    cuts = np.searchsorted(ends, np.arange(PIECE_TOKENS, ends[-1], PIECE_TOKENS), side="left")
    bounds = np.unique(np.concatenate([[0], cuts + 1, [len(X)]]).clip(0, len(X)))
    return [slice(int(a), int(b)) for a, b in pairwise(bounds)]


def _pairs(X):
    """The _Pairs of ``X``, whose nested crfsuite forms are flattened first if any."""
    try:
        return _Pairs(*_plain_tokens(X))
    except _NestedValues:
        return _Pairs(*_plain_tokens(_flatten_corpus(X)))


class _Pairs:
    """The (key, value) pairs of a corpus, reduced to distinct keys, values and pairs.

    Everything per occurrence happens in C (``map``, ``chain``, numpy); Python code
    runs once per distinct key, value or pair.
    """

    def __init__(self, X, flat):
        self.X = X
        key_ids, self.distinct_keys, self.token_lengths = _key_ids(flat)
        n = key_ids.size
        index = key_ids.dtype
        value_first = {}
        try:
            value_ids = np.fromiter(
                map(value_first.setdefault, chain.from_iterable(map(dict.values, flat)), count()),
                index,
                n,
            )
        except TypeError:  # an unhashable value: a nested dict or list, or a bad value
            if any(isinstance(v, _CONTAINERS) for v in chain.from_iterable(map(dict.values, flat))):
                raise _NestedValues from None
            _raise_bad_value(X, lambda v: not _value_kind(v))  # an array, a bytearray...
            raise TypeError(  # an unhashable number type: not expected, but never a crash
                "A token holds an unhashable feature value; values must be strings, numbers "
                "or booleans."
            ) from None
        value_ids = _densify(value_ids, value_first)
        self.distinct_values = list(value_first)
        kinds = [_value_kind(v) for v in self.distinct_values]
        if any(isinstance(k, bytes) for k in self.distinct_keys):
            raise _NestedValues  # bytes names: decoded by the flattening pass
        if not all(kinds):
            if any(v is None or isinstance(v, (bytes, *_CONTAINERS)) for v in self.distinct_values):
                raise _NestedValues
            _raise_bad_value(X, lambda v: not _value_kind(v))
        self.is_symbolic = np.array([k == "str" for k in kinds], dtype=bool)
        numeric_value = np.ones(len(kinds))
        numeric_value[~self.is_symbolic] = [
            _float(v) for v, s in zip(self.distinct_values, self.is_symbolic) if not s
        ]
        if not (np.abs(numeric_value) <= MAX_VALUE).all():  # NaN fails too
            _raise_bad_value(X, _unusable_number)
        # Pairs, identified by (key id, value id or one id for all numeric values).
        n_values = len(kinds) + 1
        local = key_ids.astype(np.int64) * n_values
        local += np.where(self.is_symbolic[value_ids], value_ids, n_values - 1)
        distinct, self.pair_of = _unique_inverse(local, len(self.distinct_keys) * n_values)
        self.distinct_pair_keys, pair_value_part = np.divmod(distinct, n_values)
        # numeric pairs point at any one of their values' ids: only the kind matters later
        self.distinct_pair_values = np.where(
            pair_value_part == n_values - 1,
            int(np.argmin(self.is_symbolic)) if self.is_symbolic.size else 0,
            pair_value_part,
        )
        self.data = numeric_value[value_ids]

    def encode(self, pair_ids, n_features):
        """EncodedSequences with feature id ``pair_ids[p]`` for pair ``p`` (-1: drop)."""
        ids = pair_ids[self.pair_of]
        keep = (ids >= 0) & (self.data != 0.0)
        kept_before = np.zeros(keep.size + 1, dtype=np.int64)
        np.cumsum(keep, out=kept_before[1:])
        token_bounds = np.zeros(self.token_lengths.size + 1, dtype=np.int64)
        np.cumsum(self.token_lengths, out=token_bounds[1:])
        return EncodedSequences(
            kept_before[token_bounds],
            ids[keep].astype(np.int32),
            EncodedSequences.compact_values(self.data[keep]),
            _offsets(self.X),
            n_features,
        )


class _NestedValues(Exception):
    """Raised when token dicts use crfsuite's nested forms, ``None`` values or ``bytes``
    names or values, which need flattening first."""


_CONTAINERS = (Mapping, list, tuple, set, frozenset)


def _plain_tokens(X):
    """``(X, all tokens in one list)``, with crfsuite's list-of-names tokens made dicts.

    Raises a TypeError naming the first token that is neither a dict nor a list.
    """
    flat = list(chain.from_iterable(X))
    types = set(map(type, flat))
    if all(issubclass(t, dict) for t in types):
        return X, flat
    if all(issubclass(t, (dict, list)) for t in types):
        X = _flatten_corpus(X)
        return X, list(chain.from_iterable(X))
    j = next(j for j, tok in enumerate(flat) if not isinstance(tok, (dict, list)))
    i, pos = locate(X, j)
    hint = (
        " Pass features=TokenFeatures() to featurize raw tokens."
        if isinstance(flat[j], (str, tuple))
        else ""
    )
    raise TypeError(
        f"Example {i}: token {pos} is a {type(flat[j]).__name__}, expected a dict of "
        f"features (sklearn-crfsuite format).{hint}"
    )


def _flatten_corpus(X):
    """Tokens in python-crfsuite's shorthand forms as flat dicts of scalar values.

    A list of names ``["a", "b"]`` means ``{"a": 1.0, "b": 1.0}``; a nested dict value
    ``{"p": {"a": 2.0}}`` means ``{"p:a": 2.0}``; a nested list or set of names
    ``{"p": ["a", "b"]}`` means ``{"p:a": 1.0, "p:b": 1.0}``. Repeated names add up.
    A ``None`` value, at any depth, is no feature: it is how
    :func:`~skstruct.datasets.load_conllu` gives an unannotated field. A name that is a
    tuple of strings and numbers, as in the enhanced dependencies ``load_conllu``
    gives (``"deps": [("nsubj", 2)]``), is joined with ``:`` (``"deps:nsubj:2"``).
    ``bytes`` names and values are the strings they encode in UTF-8, as python-crfsuite
    takes them (undecodable bytes are kept, as surrogate escapes).
    """
    return [
        [_flatten_token(i, pos, token) for pos, token in enumerate(seq)] for i, seq in enumerate(X)
    ]


def _flatten_token(i, pos, token):
    out = {}

    def add_names(prefix, names):
        for name in names:
            name = _text(name)
            if isinstance(name, tuple) and all(_is_name_part(part) for part in name):
                name = ":".join(map(str, name))
            if not isinstance(name, str):
                raise TypeError(
                    f"Example {i}: token {pos} lists {name!r} as a feature name"
                    f"{f' under {prefix[:-1]!r}' if prefix else ''}; names must be strings."
                )
            out[prefix + name] = out.get(prefix + name, 0.0) + 1.0

    def add(key, value):
        key, value = _text(key), _text(value)
        if value is None:
            return
        if isinstance(value, Mapping):
            for sub_key, sub_value in value.items():
                add(f"{key}:{sub_key}", sub_value)
        elif isinstance(value, (list, tuple, set, frozenset)):
            add_names(f"{key}:", value)
        else:
            out[key] = value

    if isinstance(token, list):
        add_names("", token)
    else:
        for key, value in token.items():
            add(key, value)
    return out


def _text(x):
    """``bytes`` as the string python-crfsuite reads them as (UTF-8); anything else as is."""
    return x.decode("utf-8", "surrogateescape") if isinstance(x, bytes) else x


def _is_name_part(part):
    return isinstance(part, (str, Integral)) and not isinstance(part, bool)


def _value_kind(v):
    if isinstance(v, str):
        return "str"
    # numpy booleans are no Number, but are booleans (1 or 0) like Python's
    if isinstance(v, (Number, np.number, np.bool_)) and not isinstance(v, complex):
        return "number"
    return None


def _float(v):
    """``float(v)``, or infinity for an int too large for a float."""
    try:
        return float(v)
    except OverflowError:
        return math.inf


def _unusable_number(v):
    return _value_kind(v) == "number" and not abs(_float(v)) <= MAX_VALUE


def _raise_bad_value(X, is_bad):
    """Raise the error for the first value ``is_bad`` accepts, naming its place."""
    for i, seq in enumerate(X):
        for pos, token in enumerate(seq):
            for key, v in token.items():
                if not is_bad(v):
                    continue
                where = f"Example {i}: token {pos} has"
                if _value_kind(v) != "number":
                    raise TypeError(
                        f"{where} a value of type {type(v).__name__} for feature {key!r}; "
                        f"values must be strings, numbers or booleans."
                    )
                if not isinstance(v, Integral) and not math.isfinite(_float(v)):
                    raise ValueError(
                        f"{where} a non-finite value for feature {key!r} ({v}); NaN and "
                        f"infinity are not allowed."
                    )
                shown = (
                    f"{_float(v):g}"
                    if math.isfinite(_float(v))
                    else f"an integer of {int(v).bit_length()} bits"
                )
                raise ValueError(
                    f"{where} a value too large for feature {key!r} ({shown}); values must be "
                    f"at most {MAX_VALUE:g} in magnitude, or scores would overflow. Scale them "
                    f"down."
                )


def _key_ids(flat):
    """``(key ids, distinct keys, token lengths)`` of the token dicts ``flat``: the id
    of every key occurrence (0, 1, ... in order of first occurrence), by the tokens'
    key signatures.

    Tokens made by one feature function share a handful of key tuples (CoNLL-2000's
    tutorial dicts: 4), so one C-level look-up per token, not per key, finds them; the
    keys of each distinct signature are numbered in Python. A key first occurs in a
    token whose signature first occurs there, so numbering the signatures' keys in the
    signatures' order numbers the keys in order of first occurrence.
    """
    first = {}
    signature_ids = np.fromiter(map(first.setdefault, map(tuple, flat), count()), np.int64,
                                len(flat))  # fmt: skip
    signature_ids = _densify(signature_ids, first)
    numbering = {}
    signature_keys = [[numbering.setdefault(k, len(numbering)) for k in keys] for keys in first]
    lengths = np.fromiter(map(len, signature_keys), np.int64, len(signature_keys))
    bounds = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=bounds[1:])
    n = int(lengths[signature_ids].sum())
    # int32 ids halve the memory of the per-occurrence arrays on any realistic corpus
    index = np.int32 if n < 2**31 else np.int64
    keys = np.fromiter(chain.from_iterable(signature_keys), index, int(bounds[-1]))
    occurrences = concat_ranges(bounds[signature_ids], bounds[signature_ids + 1])
    return keys[occurrences], list(numbering), lengths[signature_ids]


def _densify(first_seen_ids, first_seen):
    """Renumber ids given by ``count()`` (first occurrence positions) as 0..n_distinct-1."""
    firsts = np.fromiter(first_seen.values(), dtype=np.int64, count=len(first_seen))
    dense = np.empty(first_seen_ids.size, dtype=first_seen_ids.dtype)
    dense[firsts] = np.arange(firsts.size)
    return dense[first_seen_ids]


def _unique_inverse(codes, space):
    """np.unique(codes, return_inverse=True), by a presence table when ``space`` is small."""
    if space <= max(8 * codes.size, 1 << 22):
        present = np.zeros(space, dtype=bool)
        present[codes] = True
        rank = np.cumsum(present, dtype=np.int32 if space < 2**31 else np.int64) - 1
        return np.flatnonzero(present), rank[codes]
    return np.unique(codes, return_inverse=True)


def _offsets(X):
    offsets = np.zeros(len(X) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, X), dtype=np.int64, count=len(X)), out=offsets[1:])
    return offsets
