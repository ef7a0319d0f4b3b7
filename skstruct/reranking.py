"""NBestReranker: rerank a structured model's n-best lists with global features.

A first-order parser or a chain tagger scores its outputs part by part, so that a
dynamic program can search them. A reranker takes the base model's ``n_best`` best
outputs of each sentence and chooses among them with features of the whole output
(Collins & Koo 2005; Charniak & Johnson 2005), learnt by any learner of candidate
sets (:class:`~skstruct.BestCandidate`).

Its training lists must look like the lists it will rerank at prediction time: a base
model parses its own training sentences far better than new ones. So ``fit`` builds
them by jack-knifing, as Charniak & Johnson do: the base model trained on all folds but
one lists the outputs of the sentences of that fold.
"""

import warnings
from inspect import signature
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, clone
from sklearn.utils.validation import check_is_fitted

from .decoders import BestCandidate
from .learners import StructuredPerceptron
from .metrics import evalb
from .trees import Tree
from .utils._sklearn_compat import HasMethods, Interval, StrOptions, fit_context
from .utils.validation import as_list, check_sequences, sentence_folds

__all__ = ["JackknifedLists", "NBestReranker"]


class JackknifedLists(NamedTuple):
    """What :meth:`NBestReranker.jackknife` gives: the base model trained on all the
    sentences, and each sentence's n-best list (``[(output, score), ...]``, best
    first) by the model trained on the folds without it; a ``str`` in place of the
    list where that model could not parse the sentence (why: e.g. a tag the folds
    without it never had)."""

    base: object
    lists: list


class NBestReranker(BaseEstimator):
    """Rerank the n-best outputs of a structured model with global features.

    Parameters
    ----------
    base : estimator
        The structured model whose outputs are reranked: a learner with
        ``predict_nbest`` (a decoder with an exact n-best search: ``Viterbi()``,
        ``Eisner()``, ``CKY()``), unfitted; ``fit`` trains clones of it.
    features : callable
        ``features(x, output)`` -> dict of feature name to value, for a sentence ``x``
        of ``X`` and one candidate output (heads, labels, or a tree), e.g.
        :class:`~skstruct.features.DependencyTreeFeatures`,
        :class:`~skstruct.features.EntityFeatures` or
        :class:`~skstruct.features.ConstituentTreeFeatures`. The reranker adds the base
        model's score of the candidate (less the best one's, times ``base_scale``:
        ``base_score``) and its rank in the list (``base_rank=0``, ``1``, ``2``,
        ``3+``).
    learner : estimator, default=None
        The reranker, a learner of candidate sets (its decoder a
        :class:`~skstruct.BestCandidate`): None is Collins' averaged reranking
        perceptron, ``StructuredPerceptron(BestCandidate(), max_iter=10)``;
        ``PassiveAggressive``, ``AROW``, ``ConditionalRandomField`` (maximum entropy),
        ``StructuredSVM`` (BCFW) and ``ExponentiatedGradientSSVM`` train it too, and
        ``ParameterMixing`` over an online one.
    n_best : int, default=20
        Candidates per sentence, in training and prediction.
    base_scale : "auto" or float, default="auto"
        What the base score is multiplied by: ``"auto"`` divides it by its standard
        deviation over the training lists, so that one update of an online learner
        moves its weight as much as a count feature's (the base model's scores can
        be in the tens or hundreds).
    cv : int or cross-validation splitter, default=5
        The folds of the jack-knife that lists the training candidates.
    n_jobs : int, default=None
        Folds trained side by side (joblib); results never depend on it.
    random_state : int, RandomState instance or None, default=None
        Shuffles the folds (an int ``cv``) and seeds the default learner.

    Attributes
    ----------
    base_ : estimator
        The base model trained on all of ``X``: it lists the candidates at prediction.
    reranker_ : estimator
        The learner trained on the jack-knifed candidates.
    base_scale_ : float
        The factor of the base score (``base_scale``, or its ``"auto"`` value).
    oracle_score_ : float
        The score (:meth:`score`) of the best candidate of each training list: the most
        reranking could reach on the training sentences.
    n_unlisted_ : int
        Training sentences the reranker left out: the base model of the folds without
        them could not parse them (a ``CKY`` parser refuses a tag it never saw).

    Notes
    -----
    A candidate's loss is the number of words whose output (head, or label) differs
    from the gold one; for trees, the number of EVALB brackets (COLLINS.prm) in one of
    the candidate and the gold tree and not in the other. The learner's gold candidate
    is the first of least loss, so sentences whose list misses the gold output still
    teach it. A sentence the base model has no output for (a ``CKY`` parser's pruned
    space without a tree) gets one candidate, its flat tree.

    References
    ----------
    M. Collins and T. Koo (2005). Discriminative reranking for natural language
    parsing. Computational Linguistics 31(1).
    E. Charniak and M. Johnson (2005). Coarse-to-fine n-best parsing and MaxEnt
    discriminative reranking. ACL.

    Examples
    --------
    >>> from skstruct import Eisner, NBestReranker, StructuredPerceptron
    >>> from skstruct.features import DependencyTreeFeatures
    >>> X = [[{"form": "Dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]] * 4
    >>> y = [[2, 0]] * 4
    >>> reranker = NBestReranker(StructuredPerceptron(Eisner(), max_iter=2),
    ...                          DependencyTreeFeatures(), n_best=2, cv=2, random_state=0)
    >>> reranker.fit(X, y).predict(X[:1])
    [[2, 0]]
    """

    _parameter_constraints: dict = {
        "base": [HasMethods(["fit", "predict_nbest"])],
        "features": [callable],
        "learner": [HasMethods(["fit", "predict"]), None],
        "n_best": [Interval(Integral, 1, None, closed="left")],
        "base_scale": [StrOptions({"auto"}), Interval(Real, 0, None, closed="left")],
        "cv": ["cv_object"],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
    }

    def __init__(self, base, features, learner=None, *, n_best=20, base_scale="auto", cv=5,
                 n_jobs=None, random_state=None):  # fmt: skip
        self.base = base
        self.features = features
        self.learner = learner
        self.n_best = n_best
        self.base_scale = base_scale
        self.cv = cv
        self.n_jobs = n_jobs
        self.random_state = random_state

    def jackknife(self, X, y):
        """Train the base model on ``X`` and list the jack-knifed candidates: what
        :meth:`fit` trains the reranker on. Give the result to ``fit(lists=...)`` to
        train several rerankers (learners, features) on one jack-knife.

        Parameters
        ----------
        X : list of sentences
        y : list of outputs (heads, labels, or trees), one per sentence

        Returns
        -------
        JackknifedLists
        """
        self._validate_params()
        X, y = check_sequences(X), _outputs(y)
        if len(X) != len(y):
            raise ValueError(f"X has {len(X)} sentences and y {len(y)} outputs.")
        folds = self._folds(len(X))
        # the base model on all of X trains beside the folds' models
        jobs = [delayed(_list_fold)(self.base, X, y, train, test, self.n_best)
                for train, test in folds]  # fmt: skip
        *listed, base = Parallel(n_jobs=self.n_jobs)([*jobs, delayed(_fit_clone)(self.base, X, y)])
        candidates = [None] * len(X)
        for (_, test), lists in zip(folds, listed):
            for i, best in zip(test, lists):
                candidates[i] = best
        return JackknifedLists(base, candidates)

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, *, X_dev=None, y_dev=None, lists=None):
        """Train the base model on ``X``, list jack-knifed candidates and train the
        reranker on them.

        Parameters
        ----------
        X : list of sentences
        y : list of outputs (heads, labels, or trees), one per sentence
        X_dev, y_dev : list, default=None
            Held-out sentences and their outputs: the base model's lists of them (with
            their losses) go to the learner's ``fit`` as its ``X_dev`` and ``y_dev``
            (learners that take them, e.g. :class:`~skstruct.ExponentiatedGradientSSVM`,
            record a dev score per epoch in ``history_``).
        lists : JackknifedLists, default=None
            What :meth:`jackknife` gave for these ``X`` and ``y`` (its base model and
            lists are used as they are); None: they are made here.

        Returns
        -------
        self : object
        """
        X, y = check_sequences(X), _outputs(y)
        if len(X) != len(y):
            raise ValueError(f"X has {len(X)} sentences and y {len(y)} outputs.")
        if (X_dev is None) != (y_dev is None):
            raise ValueError("Give both X_dev and y_dev, or neither.")
        learner = self._learner()
        if X_dev is not None and "X_dev" not in signature(learner.fit).parameters:
            raise ValueError(f"{type(learner).__name__}.fit takes no X_dev.")
        if lists is None:
            lists = self.jackknife(X, y)
        elif not isinstance(lists, JackknifedLists) or len(lists.lists) != len(X):
            raise ValueError(
                "lists must be what jackknife(X, y) gave for these sentences: a "
                f"JackknifedLists of {len(X)} lists."
            )
        self.base_, candidates = lists
        listed = [i for i, best in enumerate(candidates) if not isinstance(best, str)]
        self.n_unlisted_ = len(X) - len(listed)
        if self.n_unlisted_:
            first = next(best for best in candidates if isinstance(best, str))
            if not listed:
                raise ValueError(f"No training sentence has a jack-knifed list; the first: {first}")
            warnings.warn(
                f"{self.n_unlisted_} training sentences have no jack-knifed list (the model "
                f"of the folds without them could not parse them; the first: {first}); "
                f"the reranker trains on the other {len(listed)}.",
                stacklevel=3,  # the caller of fit, through fit_context's wrapper
            )
        losses = [[_loss(output, y[i], i) for output, _ in candidates[i]] for i in listed]
        X, y = [X[i] for i in listed], [y[i] for i in listed]
        candidates = [candidates[i] for i in listed]
        oracle = [best[int(np.argmin(loss))][0] for best, loss in zip(candidates, losses)]
        self.oracle_score_ = _score(oracle, y)
        self.base_scale_ = self._base_scale(candidates)
        dev = {}
        if X_dev is not None:
            X_dev, y_dev = check_sequences(X_dev, name="X_dev"), _outputs(y_dev, "y_dev")
            if len(X_dev) != len(y_dev):  # zip would cut the longer one short
                raise ValueError(
                    f"X_dev has {len(X_dev)} sentences and y_dev {len(y_dev)} outputs."
                )
            lists = self.base_.predict_nbest(X_dev, k=self.n_best)
            dev["X_dev"] = self._candidate_features(X_dev, lists)
            dev["y_dev"] = [[_loss(output, gold, i) for output, _ in best]
                            for i, (best, gold) in enumerate(zip(lists, y_dev))]  # fmt: skip
        rows = self._candidate_features(X, candidates, examples=listed)
        self.reranker_ = learner.fit(rows, losses, **dev)
        return self

    def predict(self, X):
        """The reranked output of each sentence of ``X``.

        Parameters
        ----------
        X : list of sentences

        Returns
        -------
        list
            One output (heads, labels, or a tree) per sentence, as the base model
            gives them.
        """
        check_is_fitted(self, "reranker_")
        X = check_sequences(X)
        candidates = self.base_.predict_nbest(X, k=self.n_best)
        chosen = self.reranker_.predict(self._candidate_features(X, candidates))
        return [best[int(c)][0] for best, c in zip(candidates, chosen)]

    def score(self, X, y):
        """The share of words whose output (a parser's head: UAS) is right; for
        trees, EVALB's labelled bracket F1 (COLLINS.prm) as a fraction.

        Parameters
        ----------
        X : list of sentences
        y : list of outputs

        Returns
        -------
        score : float
        """
        return _score(self.predict(X), _outputs(y))

    def _learner(self):
        if self.learner is None:
            return StructuredPerceptron(
                BestCandidate(), max_iter=10, random_state=self.random_state
            )
        # a meta-learner (ParameterMixing) holds the learner whose decoder counts
        inner = getattr(self.learner, "estimator", self.learner)
        if not isinstance(getattr(inner, "decoder", None), BestCandidate):
            raise ValueError(
                f"The learner reranks candidate sets, so its decoder must be a "
                f"BestCandidate(), not {getattr(inner, 'decoder', None)!r}."
            )
        return clone(self.learner)

    def _folds(self, n):
        return sentence_folds(self.cv, n, self.random_state, "the jack-knife")

    def _base_scale(self, candidates):
        if self.base_scale != "auto":
            return float(self.base_scale)
        gaps = np.array([score - best[0][1] for best in candidates for _, score in best])
        gaps = gaps[np.isfinite(gaps)]  # a flat tree's -inf less itself
        spread = float(gaps.std()) if gaps.size else 0.0
        return 1.0 / spread if spread > 0 else 1.0

    def _candidate_features(self, X, candidates, examples=None):
        """Per sentence, the feature dicts of its candidates; ``examples``: the
        sentences' indices for error messages (default ``0, 1, ...``)."""
        rows = []
        for i, x, best in zip(range(len(X)) if examples is None else examples, X, candidates):
            top = best[0][1]
            sentence = []
            for rank, (output, score) in enumerate(best):
                try:
                    features = dict(self.features(x, output))
                except (TypeError, ValueError) as exc:  # the extractor reads more of X
                    error = TypeError if isinstance(exc, TypeError) else ValueError
                    raise error(f"Example {i}: {exc}") from exc
                # a list of one flat tree scores -inf: its gap is 0
                gap = float(score - top) if score != top else 0.0
                features["base_score"] = self.base_scale_ * gap
                features[f"base_rank={rank if rank < 3 else '3+'}"] = 1.0
                sentence.append(features)
            rows.append(sentence)
        return rows


def _fit_clone(base, X, y):
    return clone(base).fit(X, y)


def _list_fold(base, X, y, train, test, n_best):
    """The n-best lists of the sentences ``test`` by the base model trained on ``train``
    (where it cannot parse one, e.g. for a tag it never saw, why, as a ``str``)."""
    model = _fit_clone(base, [X[i] for i in train], [y[i] for i in train])
    try:
        return model.predict_nbest([X[i] for i in test], k=n_best)
    except ValueError:
        pass
    lists = []
    for i in test:
        try:
            lists.append(model.predict_nbest([X[i]], k=n_best)[0])
        except ValueError as exc:
            lists.append(f"sentence {i}: {str(exc).removeprefix('Example 0: ')}")
    return lists


def _outputs(y, name="y"):
    """``y`` as a list, bracketed strings read as trees (errors name the example)."""
    outputs = []
    for i, output in enumerate(as_list(y, name)):
        if isinstance(output, str):
            try:
                output = Tree.fromstring(output)
            except ValueError as exc:
                raise ValueError(f"Example {i}: {name}[{i}] is no tree: {exc}") from None
        outputs.append(output)
    return outputs


def _loss(output, gold, i):
    """A candidate's loss against the gold output of sentence ``i``: brackets in one
    tree and not the other (EVALB's), or words with another head or label."""
    if isinstance(gold, Tree):
        scores = evalb([gold], [output])
        if scores.n_errors:
            raise ValueError(f"y[{i}]: the candidate tree's words are not the gold tree's.")
        return scores.gold_brackets + scores.predicted_brackets - 2 * scores.matched
    return _mismatches(output, gold, i)


def _score(predicted, y):
    """EVALB's F1 (a fraction) for trees; else the share of words right (heads only)."""
    if y and isinstance(y[0], Tree):
        return evalb(y, predicted).f1 / 100.0
    wrong = sum(_mismatches(p, g, i, heads_only=True) for i, (p, g) in enumerate(zip(predicted, y)))
    return 1.0 - wrong / max(sum(len(g) for g in y), 1)


def _mismatches(output, gold, i, heads_only=False):
    """Words whose output differs from the gold one (only heads of (head, relation)
    pairs with ``heads_only``)."""
    if len(output) != len(gold):
        raise ValueError(f"y[{i}] has {len(gold)} words; its candidate has {len(output)}.")
    if heads_only:
        output = [o[0] if isinstance(o, tuple) else o for o in output]
        gold = [g[0] if isinstance(g, tuple) else g for g in gold]
    return sum(o != g for o, g in zip(output, gold))
