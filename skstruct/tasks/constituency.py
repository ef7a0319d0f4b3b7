"""Constituency parsing: tagged sentences in, phrase-structure trees out."""

from collections import Counter
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from .._kernels import cky as _pcfg
from .._kernels.threads import current_threads
from ..features import EncodedSequences
from ..metrics import evalb
from ..trees import Grammar, Tree, TreeTransform, normalize
from ..utils.arrays import concat_ranges
from ..utils.parts import in_parts
from ..utils.validation import is_lazy
from ._base import Task

#: Hashed feature ids when the learner's ``n_features`` is None.
DEFAULT_N_FEATURES = 2**22
#: Training words seen fewer times than this are read by their signature.
MIN_WORD_COUNT = 2


class EncodedTrees(NamedTuple):
    """Tagged sentences as the constituency kernels read them.

    ``atoms`` (n_words, 3) int64: per word its word id, tag (a grammar symbol id) and
    shape class, sentence ``i`` rows ``offsets[i]:offsets[i + 1]``; ``cells`` the
    labelled spans pruning kept (flat ids ``(i * (n + 1) + j) * n_symbols + A``),
    sentence ``i``'s ``cells[cell_offsets[i]:cell_offsets[i + 1]]``; ``sentences`` the
    ``(words, tags)`` strings each tree is built over.
    """

    atoms: np.ndarray
    offsets: np.ndarray
    cells: np.ndarray
    cell_offsets: np.ndarray
    n_features: int
    sentences: list

    n_sentences = EncodedSequences.n_sentences
    n_tokens = EncodedSequences.n_tokens

    def sentence(self, i):
        """The atoms of sentence ``i``."""
        return self.atoms[self.offsets[i] : self.offsets[i + 1]]

    def take(self, examples):
        """The sentences ``examples`` (an index array), in that order."""
        examples = np.asarray(examples, dtype=np.int64)
        rows = concat_ranges(self.offsets[examples], self.offsets[examples + 1])
        cells = concat_ranges(self.cell_offsets[examples], self.cell_offsets[examples + 1])
        return EncodedTrees(
            self.atoms[rows], _offsets(np.diff(self.offsets)[examples]), self.cells[cells],
            _offsets(np.diff(self.cell_offsets)[examples]), self.n_features,
            [self.sentences[i] for i in examples],
        )  # fmt: skip


class Constituency(Task):
    """Parse tagged sentences into phrase-structure trees.

    ``X``: a list of sentences, each a non-empty list of token dicts with a ``form`` and
    a tag (``xpos`` or ``pos``), or of ``(word, tag)`` pairs. ``y``: per sentence a
    :class:`~skstruct.trees.Tree` (or a bracketed string) whose words are the
    sentence's (empty elements apart). ``predict`` returns Trees rooted at an empty
    label, as the Penn Treebank writes them; ``score`` is EVALB's labelled bracket F1
    (COLLINS.prm) as a fraction.
    """

    name = "constituency"
    dev_name = "dev F1"

    def check_inputs(self, X, name="X"):
        """``X`` as a list, every sentence checked (errors name the example)."""
        X = list(X) if is_lazy(X) else X
        if not isinstance(X, (list, tuple)):
            raise TypeError(f"{name} must be a list of sentences, got {type(X).__name__}.")
        if not X:
            raise ValueError(f"{name} is empty: it needs at least one sentence.")
        for i, sentence in enumerate(X):
            tagged_words(sentence, i, name)
        return list(X)

    def check_examples(self, X, y, X_name="X", y_name="y"):
        """``X`` and ``y`` as lists, each tree over its sentence's words."""
        X = self.check_inputs(X, X_name)
        y = list(y) if is_lazy(y) else y
        if not isinstance(y, (list, tuple)):
            raise TypeError(f"{y_name} must be a list of trees, got {type(y).__name__}.")
        if len(X) != len(y):
            raise ValueError(
                f"{X_name} and {y_name} have different numbers of examples: {len(X)} and {len(y)}."
            )
        trees = []
        for i, (sentence, tree) in enumerate(zip(X, y)):
            words, _ = tagged_words(sentence, i, X_name)
            if isinstance(tree, str):
                try:
                    tree = Tree.fromstring(tree)
                except ValueError as exc:
                    raise ValueError(f"Example {i}: {y_name}[{i}] is no tree: {exc}") from None
            if not isinstance(tree, Tree):
                raise TypeError(
                    f"Example {i}: {y_name}[{i}] must be a Tree or a bracketed string, got "
                    f"{type(tree).__name__}."
                )
            normal = normalize(tree)
            if normal is None or normal.leaves() != words:
                raise ValueError(
                    f"Example {i}: the words of {X_name}[{i}] are not those of the tree "
                    f"{y_name}[{i}] (empty elements left out)."
                )
            trees.append(tree)
        return X, trees

    def initialize(self, model, X, y, classes):
        """Fit the transform, grammar, pruning grammar and word ids on ``model``
        (``transform_``, ``grammar_``, ``words_``, ``structure_``); returns the encoded
        training sentences (the gold trees' spans kept by pruning) and gold outputs."""
        decoder = model.decoder_
        model.features_ = None
        model.__dict__.pop("classes_", None)
        model.transform_ = TreeTransform(decoder.horizontal, decoder.vertical).fit(y)
        binarised = model.transform_.transform(y)
        model.grammar_ = Grammar.count(binarised)
        model.pruning_scores_ = model.grammar_.log_probabilities()
        counts = Counter(word for sentence in X for word in tagged_words(sentence, 0)[0])
        # words seen often enough have ids of their own; the rest share their signatures'
        model.words_ = {"": 0}  # 0: a signature never seen in training
        for word, count in counts.items():
            if count >= MIN_WORD_COUNT:
                model.words_[word] = len(model.words_)
        for word, count in counts.items():
            if count < MIN_WORD_COUNT:
                model.words_.setdefault(_signature(word), len(model.words_))
        n_features = DEFAULT_N_FEATURES if model.n_features is None else model.n_features
        model.structure_ = decoder.make_structure(
            n_features, grammar=model.grammar_, transform=model.transform_
        )
        return self._training(model, X, binarised)

    def extend(self, model, X, y):
        """More training sentences, in the fitted grammar (their trees must use its
        rules)."""
        return self._training(model, X, model.transform_.transform(y))

    def encode_X(self, model, X, name="X"):
        X = self.check_inputs(X, name)
        return self._encode(model, X, [None] * len(X))

    def encode(self, model, X, y, names=("X", "y")):
        """``X`` encoded, with the normalised gold trees ``y`` (what :meth:`score`
        compares predictions with)."""
        X, y = self.check_examples(X, y, *names)
        return self._encode(model, X, [None] * len(X)), [normalize(tree) for tree in y]

    def correct(self, structure, predicted, gold):
        """Output ids equal to the gold ones (the share of a tree's layout it has right:
        what training reports)."""
        return np.asarray(predicted) == np.asarray(gold)

    def predicted(self, model, encoded, ids, bounds):
        """The trees of output ids ``ids`` (a flat-parsed one where pruning left none)."""
        return [
            self.prediction(model, encoded, i, ids[bounds[i] : bounds[i + 1]])
            for i in range(len(bounds) - 1)
        ]

    def prediction(self, model, encoded, i, ids):
        """The tree of sentence ``i``'s output ids ``ids``."""
        return model.structure_.tree(ids, *encoded.sentences[i])

    def score(self, structure, encoded, predicted, gold):
        """``(2 * matched brackets, gold + predicted brackets)``: EVALB's F1 (COLLINS.prm)
        of the predicted trees against the normalised gold ones ``gold``."""
        bounds = structure.output_offsets(encoded)
        trees = [
            structure.tree(predicted[bounds[i] : bounds[i + 1]], *encoded.sentences[i])
            for i in range(encoded.n_sentences)
        ]
        scores = evalb(gold, trees)
        return 2 * scores.matched, max(scores.gold_brackets + scores.predicted_brackets, 1)

    def _training(self, model, X, binarised):
        structure = model.structure_
        golds = []
        for i, (sentence, tree) in enumerate(zip(X, binarised)):
            try:
                golds.append(structure.encode_tree(tree, len(sentence)))
            except ValueError as exc:
                raise ValueError(
                    f"Example {i}: {exc} (partial_fit learns no new rules: fit on trees "
                    f"that have them all)."
                ) from None
        encoded = self._encode(model, X, golds)
        return encoded, np.concatenate(golds).astype(np.int32)

    def _encode(self, model, X, golds):
        """Atoms and pruned cells of the sentences ``X`` (a gold output's spans kept
        where one is given). The pruning pass runs on numba's threads."""
        grammar = model.grammar_
        X = [tagged_words(sentence, i) for i, sentence in enumerate(X)]
        atoms = []
        for i, (words, tags) in enumerate(X):
            unknown = [tag for tag in tags if tag not in grammar.tags]
            if unknown:
                raise ValueError(
                    f"Example {i}: tag {unknown[0]!r} was never seen in training (tags: "
                    f"{', '.join(sorted(grammar.tags)[:8])} ...)."
                )
            sentence = np.empty((len(words), 3), dtype=np.int64)
            for t, (word, tag) in enumerate(zip(words, tags)):
                word_id = model.words_.get(word) or model.words_.get(_signature(word), 0)
                sentence[t] = word_id, grammar.index[tag], _shape(word)
            atoms.append(sentence)
        offsets = _offsets([len(sentence) for sentence in atoms])
        cells = [None] * len(X)
        threshold = model.decoder_.pruning
        binary, unary, root = model.pruning_scores_

        def prune(sentences):
            # one set of charts for the thread's sentences, as long as the longest (up
            # to CHART_BYTES; a longer sentence gets charts of its own)
            words = min(max((len(atoms[i]) for i in sentences), default=1),
                        _pcfg.words_within(_pcfg.PRUNING_BYTES, grammar.n_symbols))  # fmt: skip
            charts = _pcfg.pruning_charts(words, grammar.n_symbols)
            for i in sentences:
                n = len(atoms[i])
                kept = _pcfg.pruned_cells(
                    atoms[i][:, 1].copy(), grammar.n_symbols, grammar.binary, binary,
                    grammar.left_start, grammar.unary, unary, root, threshold,
                    *(charts if n <= words else _pcfg.pruning_charts(n, grammar.n_symbols)),
                )  # fmt: skip
                if golds[i] is not None:
                    kept = np.union1d(kept, model.structure_.cells(golds[i]))
                cells[i] = kept.astype(np.int64)

        in_parts(prune, offsets, current_threads(), power=3)
        return EncodedTrees(
            np.concatenate(atoms), offsets, np.concatenate(cells),
            _offsets([c.size for c in cells]), model.structure_.n_features, list(X),
        )  # fmt: skip


def tagged_words(sentence, i, name="X"):
    """``(words, tags)`` of one sentence of token dicts or ``(word, tag)`` pairs."""
    if isinstance(sentence, (str, Mapping)) or not isinstance(sentence, (list, tuple)):
        raise TypeError(
            f"Example {i}: {name}[{i}] must be a list of tokens (dicts with a form and a tag, "
            f"or (word, tag) pairs), got {type(sentence).__name__}."
        )
    if not sentence:
        raise ValueError(f"Example {i}: {name}[{i}] is an empty sentence.")
    words, tags = [], []
    for j, token in enumerate(sentence):
        if isinstance(token, Mapping):
            word, tag = token.get("form"), token.get("xpos", token.get("pos"))
        elif isinstance(token, (list, tuple)) and len(token) == 2:
            word, tag = token
        else:
            raise TypeError(
                f"Example {i}: {name}[{i}][{j}] must be a token dict or a (word, tag) pair, "
                f"got {token!r}."
            )
        if not isinstance(word, str) or not word:
            raise ValueError(f"Example {i}: {name}[{i}][{j}] has no word (form): {token!r}.")
        if not isinstance(tag, str) or not tag:
            raise ValueError(
                f"Example {i}: {name}[{i}][{j}] has no tag ('xpos' or 'pos'): {token!r}. "
                f"The parser reads tagged sentences; tag them first (a Viterbi tagger)."
            )
        words.append(word)
        tags.append(tag)
    return words, tags


def _shape(word):
    """The shape class of a word: its first character's class (upper, lower, digit,
    other), with whether it holds a digit, a hyphen, or is all capitals."""
    first = word[0]
    kind = 1 if first.isupper() else 2 if first.islower() else 3 if first.isdigit() else 4
    flags = (any(c.isdigit() for c in word) << 0) | (("-" in word) << 1) | (word.isupper() << 2)
    return kind * 8 + flags


def _signature(word):
    """What a rare or unknown word is read as: its shape class and last two letters."""
    return f"\x00{_shape(word)}:{word[-2:].lower()}"


def _offsets(sizes):
    return np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]).astype(np.int64)


CONSTITUENCY = Constituency()
"""The constituency parsing task."""

__all__ = ["CONSTITUENCY", "Constituency", "EncodedTrees"]
