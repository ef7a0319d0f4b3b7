"""UDPipeline: a Universal Dependencies treebank's every predicted column, from the word
forms: UPOS, XPOS, FEATS, LEMMA, HEAD and DEPREL.

The stages run in a fixed order, each reading what the ones before it predicted: the
part-of-speech tagger (UPOS and XPOS as one joint tag) reads the forms; the
morphological tagger (UPOS and XPOS) and the lemmatiser (UPOS) read the predicted tags;
the parser reads all four; the relation labeller reads the parser's heads. Each stage
learns from the gold fields it fills; the parser and the labeller learn from tags
cross-fitted on the training sentences, as wrong as the tags they will read.
"""

from numbers import Integral

from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .corpus_tags import SOURCES, CorpusTags
from .decoders import ArcEager, ArcStandard, ChuLiuEdmonds, Viterbi
from .features import ArcFeatures, TokenFeatures
from .learners import StructuredPerceptron, StructuredSVM
from .lemmas import PredictedLemmas
from .morphology import PredictedFeats
from .parsing import PredictedTrees, graph_parser, graph_perceptron
from .pipeline import PredictedTags
from .utils._sklearn_compat import HasMethods, Interval, StrOptions, fit_context
from .utils.tags import SentencesTransformerTags
from .utils.validation import check_sequences, check_token_dict, sentence_folds
from .voting import ReversedParser, VotingParser

__all__ = ["UDPipeline"]

#: The default tagger's regularisation and passes, chosen on UD English-EWT dev (joint
#: UPOS+XPOS tag): UPOS/XPOS 94.77/94.39 at C=0.3 and 20 passes, against 94.65/94.27 at
#: 10 passes, 94.74/94.35 at 30, 94.63/94.27 at C=1, 94.29/93.98 at C=0.05, and
#: 94.62/94.21 for the averaged perceptron (10 epochs; 15 gave 94.51/94.08).
TAGGER_C, TAGGER_PASSES = 0.3, 20

#: The folds of ``cv="auto"``: on English-EWT dev the parser learnt better from five-fold
#: cross-fitted tags than from the tagger's own output (see ``cv``).
AUTO_FOLDS = 5

#: The default parser's vote for its first voter, the grandparent graph SVM (every other
#: parser votes 1), chosen on English-EWT dev with the reparsing decoder (see
#: ``_voting_parser``): LAS 87.84 at 2 with Chu-Liu-Edmonds, 87.80 with Eisner; 87.73 and
#: 87.70 at 1.5; 87.68 at 1 with either; on test 86.93 against 86.98 for every vote 1 with
#: Eisner (``benchmarks/measurements/ud_vote_weights_2026-12-07/``).
VOTE_OF_THE_FIRST = 2.0

#: The stages, in the order they run, and the fields they fill.
STAGES = (
    ("tags", ("upos", "xpos")),
    ("feats", ("feats",)),
    ("lemmas", ("lemma",)),
    ("trees", ("head", "deprel")),
)


def _tag_fold(tagger, X, train, test):
    """A clone of ``tagger`` trained on ``X[train]`` tags ``X[test]``."""
    fitted = clone(tagger).fit([X[i] for i in train])
    return fitted.transform([X[i] for i in test])


def _annotated(value):
    """Whether a token field holds a value (not None, not CoNLL-U's ``_``); never
    compares a non-string (an array) with ``_``."""
    return value is not None and not (isinstance(value, str) and value == "_")


class UDPipeline(SentencesTransformerTags, TransformerMixin, BaseEstimator):
    """Tag, lemmatise and parse CoNLL-U sentences: UPOS, XPOS, FEATS, LEMMA, HEAD and
    DEPREL predicted from the forms.

    ``fit`` trains every stage on the gold annotation of ``X``, reading the fields
    the stages before it fill as they predict them (the parser reads cross-fitted tags,
    see ``cv``; the other stages the tagger's own output on its training sentences,
    nearly gold); ``transform`` returns copies of the sentences with all six fields
    predicted, the other fields (``id``, ``form``, ``deps``, ``misc``) as they were.

    Parameters
    ----------
    tags, feats, lemmas, trees : estimator or None, default=None
        The stages: transformers of token dicts that each fill their fields (see
        :class:`~skstruct.PredictedTags`, :class:`~skstruct.PredictedFeats`,
        :class:`~skstruct.PredictedLemmas`, :class:`~skstruct.PredictedTrees`).
        ``None`` means the default of each, with ``max_iter`` and ``random_state``:
        ``tags`` as ``PredictedTags(field=("upos", "xpos"))`` (one joint tag) with a
        structured SVM (:class:`~skstruct.StructuredSVM`, ``C=0.3``) on
        :class:`~skstruct.TokenFeatures` of the form and the ``corpora``'s fields (a
        window of two words, suffixes of up to five characters, first-order Viterbi);
        ``feats`` as ``PredictedFeats(columns=("upos", "xpos"))``; ``trees`` as
        :class:`~skstruct.PredictedTrees` whose parser is a
        :class:`~skstruct.VotingParser` of seven: the second-order graph parser with
        grandparent parts (:func:`~skstruct.parsing.graph_parser` with
        ``grandparents=True``) over the lemma, the FEATS and the first corpus's field,
        four beam-search
        :class:`~skstruct.ArcEager` parsers, over the XPOS and over the UPOS, each left
        to right and, through :class:`~skstruct.ReversedParser`, right to left (two when
        the treebank has no XPOS), a beam-search :class:`~skstruct.ArcStandard` parser
        over the XPOS and the grandparent graph parser again, learnt by the averaged
        perceptron (:class:`~skstruct.StructuredPerceptron`); the first votes
        ``VOTE_OF_THE_FIRST``, the others 1, and :class:`~skstruct.ChuLiuEdmonds` finds
        the best tree under the votes.
        ``PredictedTrees(grandparents=True, fields=("lemma", "feats"))`` is the graph
        parser alone: on English-EWT dev with gold annotation 0.67 UAS less than the
        seven (89.06 against 89.73, each parser trained alone).
        ``lemmas`` as its class's default.
    corpora : sequence of str or CorpusTags, or None, default=None
        Tagged corpora of other annotations whose word tags the default stages read
        (see :class:`~skstruct.CorpusTags`): names (``"brown"``, ``"conll2000"``, each
        with its own default settings) or estimators. The default tagger reads every
        field they fill as a column, the default parser the first corpus's ambiguity
        class as a field; ``transform``'s sentences do not have them. None means none.
        ``("brown", "conll2000")`` raised UPOS/XPOS from 94.77/94.39 to 95.15/94.79 on
        English-EWT dev (at about 20 s of training), and the parser's UAS with gold
        annotation from 87.66 to 87.84; it is the command line's default, not this
        class's, because it reads the Brown corpus and CoNLL-2000 (downloaded where
        ``$SKSTRUCT_DATA`` does not have them).
    cv : "auto", int, cross-validation splitter or None, default="auto"
        Which tags of its training sentences the parser (and its relation labeller)
        learns from: cross-fitted (jack-knifed) tags, each fold tagged by a tagger
        trained on the other folds, with FEATS and lemmas predicted from them, so that
        it learns from tags as wrong as the ones it will read (an int ``k``: ``KFold``
        over shuffled sentences, seeded by ``random_state``; ``"auto"``: five folds, or
        as ``None`` where ``X`` has fewer than five sentences); ``None``: the tagger's
        own output on them, after it trained on them (nearly gold). The morphological
        tagger and the lemmatiser learn from the tagger's own output either way. It
        costs ``k`` more tagger fits, beside each other and the final tagger with
        ``n_jobs``. On English-EWT dev five folds raised the pipeline's UAS / LAS from
        85.94 / 82.50 to 86.12 / 82.67 (86.09 / 82.60 with the morphological tagger and
        the lemmatiser learning from the cross-fitted tags too, which cost AllTags 0.19).
        An int keeps the model savable by :func:`~skstruct.save` (a splitter object is
        not data).
    max_iter : int or None, default=None
        Epochs (passes of the structured SVMs) of every default stage; ``None`` means
        each one's own: 20 passes of the tagger, 10 for the others.
    n_jobs : int or None, default=None
        Stages trained at once where one does not read another's output (the
        morphological tagger and the lemmatiser, the default parser's seven parsers);
        ``None`` means 1. The result does not depend on it.
    random_state : int, RandomState instance or None, default=None
        Seeds the default stages.

    Attributes
    ----------
    stages_ : dict of str to estimator
        The fitted stages, by name (``"tags"``, ``"feats"``, ``"lemmas"``,
        ``"trees"``), in the order they run.
    corpora_ : list of CorpusTags
        The fitted corpora of ``corpora``, whose fields the tagger reads.

    Examples
    --------
    >>> from skstruct import UDPipeline
    >>> words = [("dogs", "dog", "NOUN", "NNS", {"Number": "Plur"}, 2, "nsubj"),
    ...          ("bark", "bark", "VERB", "VBP", None, 0, "root")]
    >>> keys = ("form", "lemma", "upos", "xpos", "feats", "head", "deprel")
    >>> X = [[dict(zip(keys, word)) for word in words]] * 4
    >>> ud = UDPipeline(max_iter=3, random_state=0).fit(X)
    >>> [(t["upos"], t["lemma"], t["head"], t["deprel"])
    ...  for t in ud.transform([[{"form": "dogs"}, {"form": "bark"}]])[0]]
    [('NOUN', 'dog', 2, 'nsubj'), ('VERB', 'bark', 0, 'root')]
    """

    _parameter_constraints: dict = {
        **{name: [HasMethods(["fit", "transform"]), None] for name, _ in STAGES},
        "corpora": ["array-like", None],
        "cv": [StrOptions({"auto"}), "cv_object", None],
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        tags=None,
        feats=None,
        lemmas=None,
        trees=None,
        *,
        corpora=None,
        cv="auto",
        max_iter=None,
        n_jobs=None,
        random_state=None,
    ):
        self.tags = tags
        self.feats = feats
        self.lemmas = lemmas
        self.trees = trees
        self.corpora = corpora
        self.cv = cv
        self.max_iter = max_iter
        self.n_jobs = n_jobs
        self.random_state = random_state

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y=None):
        """Train every stage on the gold fields of ``X``.

        Parameters
        ----------
        X : list of list of dict
            Annotated sentences, as :func:`~skstruct.datasets.load_conllu` reads them
            (every field the stages learn: ``upos``, ``xpos``, ``feats``, ``lemma``,
            ``head``, ``deprel``).
        y : ignored

        Returns
        -------
        self : object
        """
        X = check_sequences(X)
        for i, sentence in enumerate(X):  # before anything reads a field of them
            for pos, token in enumerate(sentence):
                check_token_dict(token, i, pos)
        self.corpora_ = [corpus.fit(X) for corpus in self._corpora()]
        fields = self._corpus_fields()
        taken = {"form", *(f for _, filled in STAGES for f in filled)}
        if len(set(fields)) < len(fields) or taken.intersection(fields):
            raise ValueError(
                f"The corpora fill the fields {fields}: each needs a name of its own, not "
                f"one of {sorted(taken)} (set CorpusTags' field)."
            )
        xpos = any(_annotated(t.get("xpos")) for s in X for t in s)
        stages = {name: self._stage(name, xpos) for name, _ in STAGES}
        read = self._with_corpora(X)
        stages["tags"], crossed = self._fit_tagger(stages["tags"], read)
        tagged = stages["tags"].transform(read)
        # the morphological tagger and the lemmatiser read the tags: side by side
        Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(stages[name].fit)(tagged) for name in ("feats", "lemmas")
        )
        # the parser learns from the cross-fitted tags where there are some, with FEATS
        # and lemmas predicted from them
        read_by_parser = tagged if crossed is None else crossed
        analysed = stages["lemmas"].transform(stages["feats"].transform(read_by_parser))
        stages["trees"].fit(analysed)
        self.stages_ = stages
        return self

    def _fit_tagger(self, tagger, X):
        """The tagger fitted on ``X``, and ``X`` with cross-fitted tags (``cv``; None
        without)."""
        cv = self.cv
        if isinstance(cv, str):  # "auto"
            cv = AUTO_FOLDS if len(X) >= AUTO_FOLDS else None
        if cv is None:
            return tagger.fit(X), None
        seed = check_random_state(self.random_state).randint(2**31)
        folds = sentence_folds(cv, len(X), seed, "cross-fitting")
        # checked before any tagger trains: the folds say which sentences get tags
        covered = {int(i) for _, test in folds for i in test}
        if len(covered) < len(X):
            missing = [i for i in range(len(X)) if i not in covered]
            raise ValueError(
                f"cv={self.cv!r} leaves {len(missing)} sentences in no test fold (the "
                f"first: {missing[0]}): cross-fitting must tag every training sentence."
            )
        # the tagger on all of X trains beside the folds' taggers
        jobs = [delayed(_tag_fold)(tagger, X, train, test) for train, test in folds]
        *tagged_folds, fitted = Parallel(n_jobs=self.n_jobs)([*jobs, delayed(clone(tagger).fit)(X)])
        tagged = [None] * len(X)
        for (_, test), sentences in zip(folds, tagged_folds):
            for i, sentence in zip(test, sentences):
                tagged[i] = sentence
        return fitted, tagged

    def transform(self, X):
        """Copies of the sentences of ``X`` with every stage's fields predicted.

        Parameters
        ----------
        X : list of list of dict
            Sentences of token dicts with a ``form`` (other fields are kept, or
            overwritten where a stage fills them).

        Returns
        -------
        list of list of dict
        """
        check_is_fitted(self, "stages_")
        X = self._with_corpora(check_sequences(X))
        for name, _ in STAGES:
            X = self.stages_[name].transform(X)
        return self._without_corpora(X)

    def _corpora(self):
        """Unfitted copies of ``corpora``: names become CorpusTags with their defaults."""
        corpora = []
        for i, corpus in enumerate(self.corpora or ()):
            if isinstance(corpus, str) and corpus in SOURCES:
                corpus = CorpusTags(corpus, random_state=self.random_state)
            elif not isinstance(corpus, CorpusTags):
                raise ValueError(
                    f"corpora[{i}] is {corpus!r}: give a CorpusTags or one of the names "
                    f"{sorted(SOURCES)}."
                )
            corpora.append(clone(corpus))
        return corpora

    def _with_corpora(self, X):
        for corpus in self.corpora_:
            X = corpus.transform(X)
        return X

    def _corpus_fields(self):
        """The fields the fitted corpora fill, in order."""
        return [field for corpus in self.corpora_ for field in corpus.fields_]

    def _without_corpora(self, X):
        """The sentences without the corpora's fields: only the stages read them."""
        fields = set(self._corpus_fields())
        if not fields:
            return X
        return [[{k: v for k, v in t.items() if k not in fields} for t in s] for s in X]

    def _stage(self, name, xpos=True):
        given = getattr(self, name)
        if given is not None:
            return clone(given)
        seed, epochs = self.random_state, self.max_iter
        if name == "tags":
            columns = self._corpus_fields() or None
            features = TokenFeatures(window=2, suffix_length=5, columns=columns)
            # no duality gap: it would cost a pass of the oracle, and changes no weight
            tagger = StructuredSVM(Viterbi(order=1), features=features, C=TAGGER_C, tol=None,
                                   gap_every=None, max_iter=epochs or TAGGER_PASSES,
                                   random_state=seed)  # fmt: skip
            return PredictedTags(tagger, field=("upos", "xpos"))
        epochs = epochs or 10
        if name == "feats":
            # the XPOS too: the sets agree with it more often (AllTags 92.59 against 92.44
            # on English-EWT dev, UFeats the same)
            return PredictedFeats(columns=("upos", "xpos"), max_iter=epochs, random_state=seed)
        if name == "trees":
            # the first corpus's ambiguity classes too: with Brown's, English-EWT dev UAS
            # 87.84 against 87.66 at second order (gold annotation), 83.25 against 83.05
            # (predicted); CoNLL-2000's did not help at first order (86.66 against 86.72)
            first = [corpus.fields_[0] for corpus in self.corpora_[:1]]
            fields = ("lemma", "feats", *first)
            parser = self._voting_parser(fields, epochs, seed, xpos)
            return PredictedTrees(parser=parser, max_iter=epochs, random_state=seed,
                                  n_jobs=self.n_jobs)  # fmt: skip
        return PredictedLemmas(max_iter=epochs, random_state=seed)

    def _voting_parser(self, fields, epochs, seed, xpos=True):
        """The default parser: the second-order graph parser with grandparents (a structured
        SVM), the same graph parser learnt by the averaged perceptron, arc-eager beam
        parsers reading left to right and right to left over the XPOS and (where the
        treebank has an XPOS) again over the UPOS, and an arc-standard beam parser, combined
        by reparsing into any tree (Chu-Liu-Edmonds), the first parser's vote
        ``VOTE_OF_THE_FIRST`` and the others' 1. On English-EWT dev (gold annotation, each
        parser trained alone, every vote 1): UAS 89.73, against 89.55 with the first-order
        graph parser (an SVM) in place of the perceptron, 89.28 with neither graph parser
        having grandparents, and 89.06 for the grandparent SVM alone; in the pipeline
        (predicted annotation) dev UAS / LAS 85.94 / 82.50 against 85.83 / 82.41 with the
        first-order graph parser (85.78 / 82.34 without grandparents). The grandparent SVM
        trains in 445 s alone, the perceptron in 317 s (10 epochs; 88.34 alone, and 89.59
        voting after 5 epochs), an arc-eager parser (beam 8, max-violation updates) in about
        a minute, arc-standard in 36 s. The graph parsers read the token ``fields``."""

        def beam(system, pos):
            decoder = system(beam_size=8, projectivize=True)
            return StructuredPerceptron(decoder, features=ArcFeatures(pos=pos),
                                        update="max_violation", max_iter=epochs,
                                        random_state=seed)  # fmt: skip

        svm = graph_parser(fields, order=2, grandparents=True, max_iter=epochs, random_state=seed)
        # the same parts as the first voter, learnt by the averaged perceptron: other
        # errors to outvote
        perceptron = graph_perceptron(fields, max_iter=epochs, random_state=seed)
        # the two slowest first: the parsers train in this order as threads come free, so
        # the short beam parsers fill in beside them (English-EWT, 2 threads: 916 s with
        # the perceptron last, benchmarks/measurements/ud_training_schedule_2026-12-07/);
        # the order changes no vote, as every parser but the first votes 1
        voters = [("graph", svm), ("graph_perceptron", perceptron)]
        # without an XPOS, "auto" reads the UPOS: a second pair would vote twice as one
        for name, pos in [("eager", "auto"), ("eager_upos", "upos")][: 2 if xpos else 1]:
            voters += [(name, beam(ArcEager, pos)),
                       (f"{name}_right_to_left", ReversedParser(beam(ArcEager, pos)))]  # fmt: skip
        voters += [("standard", beam(ArcStandard, "auto"))]
        # the grandparent SVM votes twice, and the votes are reparsed into any tree, not
        # only projective ones (see VOTE_OF_THE_FIRST)
        weights = [VOTE_OF_THE_FIRST] + [1.0] * (len(voters) - 1)
        return VotingParser(voters, weights=weights, decoder=ChuLiuEdmonds(), n_jobs=self.n_jobs)
