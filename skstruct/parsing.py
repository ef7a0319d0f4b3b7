"""PredictedTrees: heads by a parser, then relations by a labeller, as a transformer of
CoNLL-U token dicts.

Parsing in two stages (an unlabelled parser, then :class:`~skstruct.PredictedRelations`
on the heads it chose) trains about six times as fast as a parser that labels its arcs,
for the same LAS or better. On UD English-EWT dev (averaged perceptrons, first-order
Eisner, 10 epochs, gold tags), with the XPOS alone: UAS 82.25 / LAS 80.27 in 38 + 35 s,
against 83.37 / 80.27 in 434 s; with the UPOS as coarse POS and the lemma and FEATS
fields, the labelled parser reached UAS 85.59 / LAS 81.92 in 562 s, and its heads
relabelled by PredictedRelations LAS 83.49: the labeller reads more of the tree than an
arc's label features can.
"""

from collections.abc import Mapping
from numbers import Integral

from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.utils.validation import check_is_fitted

from .decoders import Eisner
from .features import ArcFeatures
from .learners import StructuredPerceptron, StructuredSVM
from .relations import PredictedRelations
from .utils._sklearn_compat import HasMethods, Interval, fit_context
from .utils.tags import SentencesTransformerTags
from .utils.validation import check_sequences

__all__ = ["PredictedTrees", "graph_parser", "graph_perceptron"]

#: The default parser's regularisation: chosen on UD English-EWT dev (second order,
#: gold tags, 10 passes: UAS 87.66 at C=0.03, against 86.34 for the averaged
#: perceptron; first order: 86.43 / 86.72 / 86.63 at C=0.01 / 0.03 / 0.1, the perceptron
#: 85.68; 20 passes at C=0.03 gave 87.62).
PARSER_C = 0.03


class PredictedTrees(SentencesTransformerTags, TransformerMixin, BaseEstimator):
    """Fill the ``head`` and ``deprel`` fields of CoNLL-U token dicts: a parser's heads,
    then a labeller's relations.

    ``fit`` trains a clone of ``parser`` on the gold heads of ``X`` and a clone of
    ``relations`` on its gold trees; ``transform`` returns copies of the sentences with
    the parser's heads and the relations the labeller predicts for them.

    Parameters
    ----------
    parser : estimator or None, default=None
        The unlabelled parser: ``fit(X, heads)`` and ``predict(X)`` on token dicts.
        ``None`` means a structured SVM (:class:`~skstruct.StructuredSVM`, BCFW,
        ``C=0.03``, ``max_iter`` passes) with ``Eisner(order=order, projectivize=True)``
        over ``ArcFeatures(fields=fields)`` (the XPOS, the UPOS as coarse POS, and the
        ``fields``). Its margin is worth 1.3 UAS over an averaged perceptron on the same
        features (UD English-EWT dev, gold tags: 87.66 against 86.34) for about the
        same training time.
    relations : estimator or None, default=None
        The labeller: a transformer that fills ``deprel`` given the heads, such as
        :class:`~skstruct.PredictedRelations` (``None``: that one with its defaults).
    order : {1, 2}, default=2
        Order of the default parser: 2 adds sibling parts (on UD English-EWT dev, gold
        tags: UAS 87.66 against 86.72 for first order, in 2.5 times the time).
    grandparents : bool, default=False
        With ``order=2``, grandparent parts too (``Eisner(grandparents=True)``; on UD
        English-EWT dev, gold annotation: UAS 89.06 against 87.94 without, trained in
        445 s against 201 s).
    fields : sequence of str, default=("lemma", "feats")
        Token fields of the default parser's extra arc templates (see
        :class:`~skstruct.ArcFeatures`).
    max_iter : int, default=10
        Passes of the default parser, epochs of the default labeller.
    random_state : int, RandomState instance or None, default=None
        Seeds the default parser and labeller.
    n_jobs : int or None, default=None
        With 2 or more (or -1), the parser and the labeller train side by side, in
        threads (the labeller learns from the gold trees, not the parser's); None means
        one after the other. The result does not depend on it. A parser with threads of
        its own (a :class:`~skstruct.VotingParser` with ``n_jobs``) keeps them: the
        labeller's thread comes on top, filling in where the parser's threads wait for
        one another.

    Attributes
    ----------
    parser_ : estimator
        The fitted clone of the parser.
    relations_ : estimator
        The fitted clone of the labeller.

    Examples
    --------
    >>> from skstruct import PredictedTrees
    >>> X = [[{"form": "dogs", "upos": "NOUN", "head": 2, "deprel": "nsubj"},
    ...       {"form": "bark", "upos": "VERB", "head": 0, "deprel": "root"}]] * 4
    >>> trees = PredictedTrees(fields=(), max_iter=3, random_state=0).fit(X)
    >>> parsed = trees.transform([[{"form": "cats", "upos": "NOUN"},
    ...                            {"form": "sleep", "upos": "VERB"}]])
    >>> [(token["head"], token["deprel"]) for token in parsed[0]]
    [(2, 'nsubj'), (0, 'root')]
    """

    _parameter_constraints: dict = {
        "parser": [HasMethods(["fit", "predict"]), None],
        "relations": [HasMethods(["fit", "transform"]), None],
        "order": [Interval(Integral, 1, 2, closed="both")],
        "grandparents": ["boolean"],
        "fields": ["array-like"],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "n_jobs": [Integral, None],
    }

    def __init__(
        self,
        parser=None,
        relations=None,
        *,
        order=2,
        grandparents=False,
        fields=("lemma", "feats"),
        max_iter=10,
        random_state=None,
        n_jobs=None,
    ):
        self.parser = parser
        self.relations = relations
        self.order = order
        self.grandparents = grandparents
        self.fields = fields
        self.max_iter = max_iter
        self.random_state = random_state
        self.n_jobs = n_jobs

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y=None):
        """Train the parser on the gold heads of ``X`` and the labeller on its trees.

        Parameters
        ----------
        X : list of list of dict
            Sentences of token dicts with ``head`` and ``deprel``, as
            :func:`~skstruct.datasets.load_conllu` reads them.
        y : ignored

        Returns
        -------
        self : object
        """
        X = check_sequences(X)
        heads = [[_gold_head(i, pos, t) for pos, t in enumerate(s)] for i, s in enumerate(X)]
        parser = self._default_parser() if self.parser is None else clone(self.parser)
        relations = self.relations
        if relations is None:
            relations = PredictedRelations(max_iter=self.max_iter, random_state=self.random_state)
        self.parser_, self.relations_ = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            [delayed(parser.fit)(X, heads), delayed(clone(relations).fit)(X)]
        )
        return self

    def transform(self, X):
        """Copies of the sentences of ``X`` with predicted ``head`` and ``deprel``.

        Parameters
        ----------
        X : list of list of dict

        Returns
        -------
        list of list of dict
        """
        check_is_fitted(self, "relations_")
        X = check_sequences(X)
        heads = self.parser_.predict(X)
        parsed = [
            [{**token, "head": int(head), "deprel": None} for token, head in zip(s, hs)]
            for s, hs in zip(X, heads)
        ]
        return self.relations_.transform(parsed)

    def predict(self, X):
        """The predicted ``(head, deprel)`` pair of every word of ``X``."""
        return [[(t["head"], t["deprel"]) for t in s] for s in self.transform(X)]

    def _default_parser(self):
        return graph_parser(self.fields, order=self.order, grandparents=self.grandparents,
                            max_iter=self.max_iter, random_state=self.random_state)  # fmt: skip


def graph_parser(fields=("lemma", "feats"), *, order=2, grandparents=False, max_iter=10,
                 random_state=None):  # fmt: skip
    """The default parser of :class:`PredictedTrees`: a structured SVM (``C=0.03``) over
    projective Eisner trees of ``order`` (with ``grandparents``, grandparent parts too;
    non-projective training trees lifted) and :class:`~skstruct.ArcFeatures` with the
    token ``fields``, ``max_iter`` passes."""
    features = ArcFeatures(fields=list(fields))
    decoder = Eisner(order=order, projectivize=True, grandparents=grandparents)
    # exactly max_iter passes, and no duality gap: its pass of the oracle was a tenth of
    # the UD pipeline's grandparent SVM
    return StructuredSVM(decoder, features=features, C=PARSER_C, max_iter=max_iter, tol=None,
                         gap_every=None, random_state=random_state)  # fmt: skip


def graph_perceptron(fields=("lemma", "feats"), *, max_iter=10, random_state=None):
    """:func:`graph_parser`'s second-order parts with grandparents, learnt by the averaged
    perceptron (:class:`~skstruct.StructuredPerceptron`, ``max_iter`` epochs) instead of
    the structured SVM: :class:`~skstruct.UDPipeline` has both among its voters, as
    they err in different places (English-EWT dev, gold annotation: 88.34 UAS alone
    against the SVM's 89.06, but the seven voting 89.73 with it against 89.55 with a
    first-order graph parser in its place).

    Examples
    --------
    >>> from skstruct.parsing import graph_perceptron
    >>> parser = graph_perceptron(max_iter=5, random_state=0)
    >>> type(parser).__name__, parser.features.fields
    ('StructuredPerceptron', ['lemma', 'feats'])
    >>> parser.decoder
    Eisner(grandparents=True, order=2, projectivize=True)
    """
    svm = graph_parser(fields, order=2, grandparents=True)
    return StructuredPerceptron(svm.decoder, features=svm.features, max_iter=max_iter,
                                random_state=random_state)  # fmt: skip


def _gold_head(i, pos, token):
    head = token.get("head") if isinstance(token, Mapping) else None
    if not isinstance(head, Integral) or isinstance(head, bool):
        raise ValueError(
            f"Example {i}: token {pos} has no integer 'head' to learn from ({token!r})."
        )
    return int(head)
