"""TokenFeatures: raw tokens -> sklearn-crfsuite-style token feature dicts."""

import re
from collections.abc import Mapping
from numbers import Integral

from sklearn.base import BaseEstimator, TransformerMixin

from ..utils._sklearn_compat import Interval, fit_context
from ..utils.validation import check_sequences

_SHAPE_RUNS = re.compile(r"(.)\1+")


def word_shape(word):
    """Short word shape: upper -> X, lower -> x, digit -> d, others kept; runs collapsed.

    Examples
    --------
    >>> word_shape("McDonald"), word_shape("1,234.5"), word_shape("U.S.")
    ('XxXx', 'd,d.d', 'X.X.')
    """
    chars = [
        "X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c for c in word
    ]
    return _SHAPE_RUNS.sub(r"\1", "".join(chars))


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

    def _sentence(self, i, seq):
        if isinstance(seq[0], Mapping):
            names = [] if self.columns is None else list(self.columns)
            fields = [_conllu_fields(i, pos, token, names) for pos, token in enumerate(seq)]
        else:
            fields = [_fields(i, pos, token) for pos, token in enumerate(seq)]
            names = self._column_names(i, fields)
        own = [self._own(f, names) for f in fields]
        context = [self._context(f, names) for f in fields] if self.window else None
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

    def _own(self, fields, names):
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
        if self.flags:
            feats.update(_flags(word))
        feats.update(_columns(fields, names))
        return feats

    def _context(self, fields, names):
        word = fields[0]
        feats = {"lower": word.lower()} if self.lower or self.word else {}
        if self.flags:
            feats.update(_flags(word))
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
        "has_digit": any(c.isdigit() for c in word),
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
