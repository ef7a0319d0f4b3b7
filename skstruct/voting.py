"""Parser combination by reparsing: VotingParser, and ReversedParser, which reads right to left.

Parsers of different kinds make different mistakes: a graph-based parser scores whole
arcs exactly but sees little of the tree, a transition parser reads the tree it has
built so far but searches inexactly and errs more late in the sentence than early.
Sagae & Lavie (2006) let several parsers vote on every arc and find the best tree
under the votes with a maximum spanning tree algorithm: the result is a well-formed
tree more accurate than any of them. On UD English-EWT dev (gold tags, lemmas and
FEATS), a second-order graph parser (UAS 87.94) with four arc-eager parsers, over the
XPOS and over the UPOS, each read left to right and right to left (86.73, 83.77, 86.60
and 84.37 alone), every vote of weight 1, gave UAS 89.00.
"""

from numbers import Integral

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, clone
from sklearn.utils.validation import check_is_fitted

from ._kernels.tree import single_root_penalty
from .decoders import ChuLiuEdmonds, Eisner
from .metrics import attachment_scores
from .utils._sklearn_compat import BaseComposition, HasMethods, fit_context
from .utils.validation import check_sequences

__all__ = ["ReversedParser", "VotingParser"]


def _check_heads(X, y):
    """``y`` as lists of int heads, one per word of the sentence of ``X`` at its index."""
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} sentences but y has {len(y)} head lists.")
    heads = []
    for i, (sentence, hs) in enumerate(zip(X, y)):
        hs = list(hs)
        if len(hs) != len(sentence):
            raise ValueError(f"Example {i}: {len(sentence)} words but {len(hs)} heads in y[{i}].")
        for pos, head in enumerate(hs):
            if isinstance(head, bool) or not isinstance(head, Integral | np.integer):
                raise ValueError(
                    f"Example {i}: y[{i}][{pos}] is {head!r}, not an int head (0 the root, "
                    f"words from 1); give parsers combined by voting bare heads, not "
                    f"(head, relation) pairs."
                )
            if not 0 <= head <= len(hs):
                raise ValueError(
                    f"Example {i}: y[{i}][{pos}] = {head} is not a word of a sentence of "
                    f"{len(hs)} words (0 is the root)."
                )
        heads.append([int(h) for h in hs])
    return heads


def _mirror(heads, n):
    """Heads of a sentence of ``n`` words read in the other direction: word ``p`` is
    word ``n + 1 - p`` there; the root stays 0."""
    return [0 if h == 0 else n + 1 - int(h) for h in reversed(heads)]


class ReversedParser(BaseEstimator):
    """A parser that reads every sentence from its last word to its first.

    ``fit`` and ``predict`` hand ``parser`` each sentence reversed (and the heads
    renumbered to match), then put the predicted heads back in the sentence's order. A
    transition parser read right to left makes other mistakes than the same parser read
    left to right, which makes it a useful voter in :class:`VotingParser`.

    Parameters
    ----------
    parser : estimator
        An unlabelled parser: ``fit(X, heads)`` and ``predict(X)``, heads as lists of
        ints (0 the root, words numbered from 1).

    Attributes
    ----------
    parser_ : estimator
        The fitted clone of ``parser`` (it has seen the sentences reversed).

    Examples
    --------
    >>> from skstruct import ArcEager, ReversedParser, StructuredPerceptron
    >>> X = [[{"form": "Dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]] * 3
    >>> parser = ReversedParser(StructuredPerceptron(ArcEager(beam_size=4), random_state=0))
    >>> parser.fit(X, [[2, 0]] * 3).predict(X[:1])
    [[2, 0]]
    """

    _parameter_constraints: dict = {"parser": [HasMethods(["fit", "predict"])]}

    def __init__(self, parser):
        self.parser = parser

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Train ``parser`` on the sentences of ``X`` and their heads ``y`` (as
        :meth:`VotingParser.fit` takes them), each sentence reversed.

        Returns
        -------
        self : object
        """
        X = check_sequences(X)
        heads = _check_heads(X, y)
        reversed_heads = [_mirror(hs, len(hs)) for hs in heads]
        self.parser_ = clone(self.parser).fit(self._reversed(X), reversed_heads)
        return self

    def predict(self, X):
        """The head of every word of ``X`` (lists of ints, 0 the root), in the sentences'
        own order."""
        check_is_fitted(self, "parser_")
        X = check_sequences(X)
        predicted = self.parser_.predict(self._reversed(X))
        return [_mirror(hs, len(hs)) for hs in predicted]

    def score(self, X, y):
        """UAS of ``predict(X)`` against ``y`` (every word)."""
        return attachment_scores(y, self.predict(X))["uas"]

    @staticmethod
    def _reversed(X):
        return [list(reversed(sentence)) for sentence in X]


class VotingParser(BaseComposition):
    """Several parsers combined by reparsing: the tree with the most weighted votes.

    Every parser predicts its tree; each arc gets the summed weights of the parsers
    whose trees have it, and the best tree under those arc scores (Sagae & Lavie 2006)
    is the prediction: a well-formed tree (projective with :class:`~skstruct.Eisner`,
    single-rooted where the decoder asks for it) even where no parser's tree wins
    outright. Ties between trees of equal votes go to the first parser's arcs.

    Parameters
    ----------
    parsers : list of (str, estimator) tuples
        The named, unlabelled parsers: ``fit(X, heads)`` and ``predict(X)``, such as
        :class:`~skstruct.StructuredSVM` with :class:`~skstruct.Eisner`,
        :class:`~skstruct.StructuredPerceptron` with :class:`~skstruct.ArcEager`, or a
        :class:`ReversedParser`. Parameters are reachable as ``<name>__<parameter>``.
    weights : array-like of shape (n_parsers,) or None, default=None
        Each parser's vote (positive); None gives every parser a vote of 1.
    decoder : Eisner or ChuLiuEdmonds or None, default=None
        Finds the best tree under the votes: a first-order :class:`~skstruct.Eisner`
        (projective trees) or :class:`~skstruct.ChuLiuEdmonds` (any tree); None means
        ``Eisner()``.
    n_jobs : int or None, default=None
        Parsers trained (and run) at once, in threads; None means 1. The result does not
        depend on it. The parsers start in the order given as threads come free: with
        fewer threads than parsers, list the slowest first.

    Attributes
    ----------
    parsers_ : list of estimator
        The fitted clones of the parsers, in the order of ``parsers``.
    named_parsers_ : dict of str to estimator
        The same, by name.

    Notes
    -----
    Ties are broken by adding to each of the first parser's arcs a millionth of the
    smallest weight; trees whose votes differ by less than that (weights chosen to
    differ by about a millionth) may come out in either order.

    References
    ----------
    K. Sagae and A. Lavie (2006). Parser combination by reparsing. *HLT-NAACL*.

    Examples
    --------
    >>> from skstruct import ArcEager, ArcStandard, Eisner, StructuredPerceptron
    >>> from skstruct import ReversedParser, VotingParser
    >>> X = [[{"form": "Dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]] * 3
    >>> voting = VotingParser([
    ...     ("graph", StructuredPerceptron(Eisner(), random_state=0)),
    ...     ("eager", StructuredPerceptron(ArcEager(beam_size=4), random_state=0)),
    ...     ("standard", ReversedParser(StructuredPerceptron(ArcStandard(beam_size=4)))),
    ... ])
    >>> voting.fit(X, [[2, 0]] * 3).predict(X[:1])
    [[2, 0]]
    """

    _parameter_constraints: dict = {
        "parsers": [list],
        "weights": ["array-like", None],
        "decoder": [Eisner, ChuLiuEdmonds, None],
        "n_jobs": [Integral, None],
    }

    def __init__(self, parsers, *, weights=None, decoder=None, n_jobs=None):
        self.parsers = parsers
        self.weights = weights
        self.decoder = decoder
        self.n_jobs = n_jobs

    # -- nested parameters (``<name>__<parameter>``), as in scikit-learn's VotingClassifier

    def get_params(self, deep=True):
        return self._get_params("parsers", deep=deep)

    def set_params(self, **params):
        named = self._named_parsers_or_none() or {}
        unknown = sorted({key.split("__", 1)[0] for key in params if "__" in key} - set(named))
        if unknown:
            raise ValueError(
                f"Invalid parameter {unknown[0]!r} for {type(self).__name__}: no parser "
                f"named {unknown[0]!r} (the parsers are {sorted(named)})."
            )
        return self._set_params("parsers", **params)

    def _named_parsers_or_none(self):
        try:
            return dict(self.parsers)
        except (TypeError, ValueError):
            return None  # not a list of pairs: fit says so

    # -- fit and predict

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Train every parser on the sentences of ``X`` and the heads ``y``.

        Parameters
        ----------
        X : list of list
            Sentences, each a list of tokens (token dicts, as
            :func:`~skstruct.datasets.load_conllu` reads them).
        y : list of list of int
            The gold head of every word (0 the root, words from 1).

        Returns
        -------
        self : object
        """
        names, parsers = self._check_parsers()
        self._check_weights(len(parsers))
        X = check_sequences(X)
        heads = _check_heads(X, y)
        fitted = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(clone(parser).fit)(X, heads) for parser in parsers
        )
        self.parsers_ = list(fitted)
        self.named_parsers_ = dict(zip(names, self.parsers_))
        return self

    def predict(self, X):
        """The best tree of every sentence of ``X`` under the parsers' votes.

        Parameters
        ----------
        X : list of list

        Returns
        -------
        list of list of int
            The head of every word (0 the root).
        """
        check_is_fitted(self, "parsers_")
        X = check_sequences(X)
        votes = self._check_weights(len(self.parsers_))
        votes[0] += 1e-6 * votes.min()  # ties go to the first parser
        trees = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(parser.predict)(X) for parser in self.parsers_
        )
        decoder = self.decoder if self.decoder is not None else Eisner()
        return [self.reparse(decoder, votes, [t[i] for t in trees]) for i in range(len(X))]

    def score(self, X, y):
        """UAS of ``predict(X)`` against ``y`` (every word)."""
        return attachment_scores(y, self.predict(X))["uas"]

    @staticmethod
    def reparse(decoder, votes, trees):
        """The best tree under arc scores that add ``votes[k]`` for every arc of
        ``trees[k]`` (head lists of one sentence)."""
        n = len(trees[0])
        arc = np.zeros((n + 1, n + 1))
        words = np.arange(1, n + 1)
        for vote, heads in zip(votes, trees):
            arc[np.asarray(heads, dtype=np.int64), words] += vote
        if decoder.single_root:
            single_root_penalty(arc, n, 0.0)
        return decoder.best_heads(arc, None, n)[1:].tolist()

    def _check_parsers(self):
        named = self._named_parsers_or_none()
        if (
            not self.parsers
            or named is None
            or not all(isinstance(p, tuple) and len(p) == 2 for p in self.parsers)
        ):
            raise ValueError(
                f"parsers must be a non-empty list of (name, parser) tuples, not {self.parsers!r}."
            )
        names = [name for name, _ in self.parsers]
        if len(set(names)) < len(names) or not all(isinstance(n, str) for n in names):
            raise ValueError(f"The parsers' names must be distinct strings: {names}.")
        bad = [n for n in names if "__" in n or n in self.get_params(deep=False)]
        if bad:
            raise ValueError(f"Parser names {bad} clash with parameter names (or contain '__').")
        for name, parser in self.parsers:
            if not (hasattr(parser, "fit") and hasattr(parser, "predict")):
                raise TypeError(f"The parser {name!r} ({parser!r}) has no fit and predict.")
        if self.decoder is not None and getattr(self.decoder, "order", 1) != 1:
            raise ValueError(
                f"decoder={self.decoder!r}: the votes are arc scores, so the decoder must be "
                "first order (Eisner() or ChuLiuEdmonds())."
            )
        return names, [parser for _, parser in self.parsers]

    def _check_weights(self, n_parsers):
        if self.weights is None:
            return np.ones(n_parsers)
        weights = np.asarray(self.weights, dtype=float)
        if weights.shape != (n_parsers,):
            raise ValueError(
                f"weights has shape {weights.shape}, but there are {n_parsers} parsers."
            )
        if not (np.all(np.isfinite(weights)) and np.all(weights > 0)):
            raise ValueError(f"weights must be positive and finite: {self.weights!r}.")
        return weights.copy()
