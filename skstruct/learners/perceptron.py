"""StructuredPerceptron: Collins' structured perceptron (CSP), averaged, with exact or
inexact search and violation-fixing updates (Huang, Fayong & Guo 2012)."""

from sklearn.base import clone

from ..engine import BaseStructuredLearner
from ..updates import UPDATE_RULES
from ..utils._sklearn_compat import HasMethods, StrOptions


class StructuredPerceptron(BaseStructuredLearner):
    """Collins' structured perceptron with averaging, for sequence labelling and
    dependency parsing.

    For each training sequence ``(x, y)`` in turn, decode ``y* = argmax_y' w . phi(x, y')``
    and, when ``y* != y``, update ``w += phi(x, y) - phi(x, y*)`` (the SWVP paper's
    Algorithm 1; Figure 1 of McDonald et al. 2010). With ``average=True`` the model
    returned is the average of ``w`` over every example visited, computed lazily so
    that an update costs ``O(|phi(x, y) - phi(x, y*)|)``.

    The decoder decides the task: a chain decoder labels sequences (``y`` holds a
    label per token), a tree decoder parses (``y`` holds a head per word, 0 for the
    root, or ``(head, deprel)`` pairs for a labelled parser; ``X`` holds the
    sentences' token dicts as :func:`~skstruct.datasets.load_conllu` gives them).

    It is not a classifier: ``cross_val_score(est, X, y, cv=5)`` splits sequences
    with plain ``KFold``; score with :mod:`skstruct.metrics` scorers
    (``scoring=token_accuracy_scorer``), not sklearn's names such as
    ``"accuracy"``.

    Parameters
    ----------
    decoder : Viterbi, BeamSearch, Greedy, Eisner, ChuLiuEdmonds, ArcStandard, \
            ArcEager, CKY, BestCandidate or None, default=None
        How outputs are searched, and so which structure is learnt. Sequences:
        ``Viterbi(order=0|1|2)`` (exact), ``BeamSearch(beam_size)``, ``Greedy()``.
        Dependency trees: ``Eisner(order=1|2)`` (exact projective),
        ``ChuLiuEdmonds()`` (exact non-projective), ``ArcStandard(beam_size)`` and
        ``ArcEager(beam_size)`` (transition-based beam search). Phrase-structure
        trees: ``CKY()`` (tagged sentences in, :class:`~skstruct.trees.Tree` out).
        Candidate sets (reranking): ``BestCandidate()``. ``None`` means
        ``Viterbi()``, an exact first-order chain. ``GridSearchCV`` reaches their
        parameters as ``decoder__order`` or ``decoder__beam_size``.
    update : {"standard", "early", "hybrid", "max_violation", "latest", "laso"} or \
            rule object, default="standard"
        Which violation to update on (see :mod:`skstruct.updates`): ``"standard"`` is
        Collins' full update; the others fix violations found along the search
        (Huang et al. 2012) and keep the perceptron's convergence guarantee under
        beam search, where the standard update may be invalid.
    features : transformer or None, default=None
        Applied to ``X`` before encoding, e.g. :class:`~skstruct.TokenFeatures` for raw
        tokens. ``None``: ``X`` already holds token feature dicts in sklearn-crfsuite's
        format (string values are indicators ``key=value``; numbers are honoured as
        feature values; python-crfsuite's shorthand forms, lists of feature names and
        nested dicts or lists, are flattened as it does; ``None`` values are no
        feature). Parsers: :class:`~skstruct.ArcFeatures` or ``None`` for its
        defaults.
    n_features : int or None, default=None
        ``None`` learns an exact vocabulary of features (as
        :class:`~sklearn.feature_extraction.DictVectorizer` names them); an int hashes
        features into that many columns (:class:`~sklearn.feature_extraction.FeatureHasher`).
        Either way a chain keeps emission weights only for the (feature, label) pairs
        its updates touched (see ``coef_``).
    max_iter : int, default=10
        Number of epochs (passes over the training data).
    average : bool, default=True
        Return the averaged weights (Collins 2002, sec. 2.5), which generalise far
        better than the last ones.
    shuffle : bool, default=True
        Visit the sequences in a new random order every epoch.
    random_state : int, RandomState instance or None, default=None
        Seeds shuffling and the ``validation_fraction`` split. An int makes ``fit``
        reproducible.
    warm_start : bool, default=False
        When fitted already, continue from the current weights instead of starting
        over (new features are added; labels must be ones seen before).
    validation_fraction : float in (0, 1) or None, default=None
        Hold out this fraction of the training sequences as a development set when
        ``fit`` gets no ``X_dev``.
    n_iter_no_change : int or None, default=None
        Stop when the development token accuracy has not improved for this many
        epochs, and keep the weights of the best epoch (``best_iteration_``). Needs
        ``X_dev``/``y_dev`` or ``validation_fraction``.
    batch_size : int or "auto", default=1
        Sentences decoded against the same weights before their updates are made, in
        order (the minibatch perceptron of Zhao & Huang 2013). ``1`` is the online
        perceptron of the papers; a larger batch lets ``n_jobs`` threads decode it
        side by side, at some cost in accuracy where a corpus gives few batches (the
        weights of a batch are stale): Brown's first 10,000 sentences, beam 4,
        max-violation, 5 epochs: 92.90% online against 91.95% at 6 and 88.54% at 32.
        The result depends on ``batch_size``, never on ``n_jobs``. ``"auto"`` takes
        ``n_sentences // 1600`` between 1 and 32: 5 on CoNLL-2000 (span F1 92.98
        against 93.04 online), 32 on Brown's 51,606 sentences (accuracy 96.60 against
        96.68), where 16 threads train 7.8x faster per epoch than one.
    n_jobs : int or None, default=None
        Threads of the kernels that decode training batches (``batch_size > 1``) and
        predictions, with joblib's conventions (-1: all cores; ``None``: what a
        :func:`joblib.parallel_config` context sets), except that outside such a
        context ``None`` is every core numba has (``NUMBA_NUM_THREADS``; a joblib
        process worker's share of them). Bit-identical results for any value.
    verbose : int, default=0
        Show a progress bar over epochs with the mistakes and dev score.
    class_weight : dict, "balanced" or None, default=None
        Sequence labelling: scales each token's part of an update by the weight of its
        gold label (``{label: weight}``, 1 for a label not named; ``"balanced"``:
        ``n_tokens / (n_labels * count(label))`` over the training tokens). Weighted
        epochs take the generic training loop. Fitted as ``class_weight_``.

    Attributes
    ----------
    class_weight_ : ndarray of shape (n_labels,) or None
        The weight of each label (``classes_``' order) that ``class_weight`` gave.
    coef_ : ndarray of shape (n_weights,)
        The learnt (averaged) weights, laid out by ``structure_``. For a chain:
        ``[transition | start | stop | trigram (order 2) | emission pool]``, the pool
        holding the nonzero weights of the (feature, label) pairs listed by
        ``structure_.rows``; ``structure_.emission_matrix(coef_)`` gives them as a
        scipy sparse matrix (features x labels). Memory grows with the pairs the
        updates touched, never with features x labels.
    classes_ : ndarray of shape (n_labels,)
        Labels (relation labels for a labelled parser), sorted; label ids index this
        array. An unlabelled parser has none.
    structure_ : LinearChain or ArcFactoredTree
        The output structure and weight layout.
    encoder_ : TokenDictEncoder
        The fitted feature vocabulary (``encoder_.get_feature_names_out()``).
    features_ : transformer or None
        The fitted clone of ``features``.
    decoder_ : decoder object
        A clone of ``decoder`` (``Viterbi()`` when it is None).
    n_iter_ : int
        Epochs run by the last call to ``fit`` (or all ``partial_fit`` calls).
    update_rule_ : UpdateRule
        The resolved update rule (:mod:`skstruct.updates`).
    history_ : list of dict
        One record per epoch: ``epoch``, ``sequences`` (training sequences visited),
        ``mistakes`` (sequences on which the rule
        found a violation; with exact search and the standard update, sequences
        decoded wrongly), ``updates`` (violation pairs applied),
        ``invalid_updates`` (applied pairs that were no violation: only the standard
        update under inexact search makes them), ``invalid_standard`` (sequences on
        which the standard update would have been invalid, the paper's Figure 5),
        ``mean_violation`` (mean of ``w . (phi(z) - phi(y))`` over applied pairs),
        ``train_score`` (token accuracy of the online predictions made during the
        epoch, before each update), ``dev_score`` (token accuracy of the averaged
        model on the development set, or None) and ``seconds``.
    best_iteration_ : int
        With ``n_iter_no_change``: the epoch whose weights ``coef_`` holds.

    See Also
    --------
    skstruct.TokenFeatures : feature dicts from raw tokens.
    skstruct.metrics.span_f1_score : chunk / entity F1 with conlleval semantics.

    References
    ----------
    M. Collins (2002). Discriminative training methods for hidden Markov models:
    theory and experiments with perceptron algorithms. EMNLP.

    H. Daume III (2006). Practical structured learning techniques for natural language
    processing. PhD thesis, sec. 2.1.1 (lazy averaging).

    Examples
    --------
    >>> from skstruct import StructuredPerceptron, TokenFeatures
    >>> from skstruct.datasets import make_chain_data
    >>> X, y = make_chain_data(200, random_state=0)  # word sequences, label sequences
    >>> X[0][:4], y[0][:4]
    (['w11', 'w11', 'w17', 'w21'], ['L2', 'L2', 'L1', 'L2'])
    >>> model = StructuredPerceptron(features=TokenFeatures(), random_state=0)
    >>> model.fit(X[:150], y[:150]).predict(X[150:151])[0][:4]
    ['L1', 'L1', 'L1', 'L1']
    >>> round(model.score(X[150:], y[150:]), 2)
    0.96

    The same learner parses with a tree decoder (heads, 0 for the root):

    >>> from skstruct import Eisner
    >>> sentences = [[{"form": "dogs", "xpos": "NNS"}, {"form": "bark", "xpos": "VBP"}]] * 4
    >>> parser = StructuredPerceptron(Eisner(), max_iter=2, random_state=0)
    >>> parser.fit(sentences, [[2, 0]] * 4).predict(sentences[:1])
    [[2, 0]]
    """

    _parameter_constraints: dict = {
        **BaseStructuredLearner._parameter_constraints,
        "update": [StrOptions(set(UPDATE_RULES)), HasMethods(["violations"])],
    }

    def __init__(
        self,
        decoder=None,
        *,
        update="standard",
        features=None,
        n_features=None,
        max_iter=10,
        average=True,
        shuffle=True,
        random_state=None,
        warm_start=False,
        validation_fraction=None,
        n_iter_no_change=None,
        batch_size=1,
        n_jobs=None,
        verbose=0,
        class_weight=None,
    ):
        self.decoder = decoder
        self.update = update
        self.features = features
        self.n_features = n_features
        self.max_iter = max_iter
        self.average = average
        self.shuffle = shuffle
        self.random_state = random_state
        self.warm_start = warm_start
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.batch_size = batch_size
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.class_weight = class_weight

    def _make_rule(self):
        if isinstance(self.update, str):
            return UPDATE_RULES[self.update]()
        rule = clone(self.update)
        if hasattr(rule, "_parameter_constraints"):  # a rule's own parameters (PA's c, ...)
            rule._validate_params()
        return rule

    def _resolve(self):
        self.update_rule_ = self._make_rule()

    def _decoder_needs(self):
        needed = self._make_rule().required_capability
        if needed is not None:
            capability, why = needed
            yield capability, f"update={self.update!r} {why}"
