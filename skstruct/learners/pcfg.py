"""PCFG: the generative baseline of constituency parsing, a treebank grammar with
markovisation (relative frequencies), parsed by CKY."""

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._kernels import cky as _cky
from ..metrics import bracket_f1_score
from ..tasks.constituency import Constituency, tagged_words
from ..trees import Grammar, Tree, TreeTransform


class PCFG(BaseEstimator):
    """A probabilistic context-free grammar read off a treebank, with horizontal and
    vertical markovisation (Klein & Manning 2003's unlexicalised baseline, without their
    hand-made splits), parsing tagged sentences by exact Viterbi CKY.

    ``fit`` binarises the gold trees (:class:`~skstruct.trees.TreeTransform`) and
    counts their rules; a rule's probability is its relative frequency given its
    left-hand side. ``predict`` finds the most probable tree over the given tags and
    undoes the binarisation; a sentence no tree of the grammar spans gets a flat one
    (``S`` over the tags), counted in ``n_unparsed_``.

    Parameters
    ----------
    horizontal : int or None, default=1
    vertical : int, default=2
        Markovisation, as :class:`~skstruct.trees.TreeTransform` takes it.

    Attributes
    ----------
    transform_ : TreeTransform
    grammar_ : Grammar
    n_unparsed_ : int
        Sentences of the last ``predict`` parsed flat.

    Examples
    --------
    >>> from skstruct.trees import Tree
    >>> trees = [Tree.fromstring("( (S (NP (DT the) (NN dog)) (VP (VBZ barks))) )")] * 3
    >>> X = [[{"form": w, "xpos": t} for w, t in tree.pos()] for tree in trees]
    >>> print(PCFG().fit(X, trees).predict(X[:1])[0])
    ( (S (NP (DT the) (NN dog)) (VP (VBZ barks))))
    """

    def __init__(self, horizontal=1, vertical=2):
        self.horizontal = horizontal
        self.vertical = vertical

    def fit(self, X, y):
        """Count the rules of the binarised trees ``y`` (Trees or bracketed strings;
        ``X``: their tagged words, token dicts or ``(word, tag)`` pairs, checked against
        the trees' words as the discriminative parsers check them)."""
        X, y = Constituency().check_examples(X, y)
        self.transform_ = TreeTransform(self.horizontal, self.vertical).fit(y)
        self.grammar_ = Grammar.count(self.transform_.transform(y))
        self._log_probabilities = self.grammar_.log_probabilities()
        return self

    def predict(self, X):
        """The most probable tree of each tagged sentence (a list of Tree)."""
        check_is_fitted(self, "grammar_")
        grammar = self.grammar_
        binary, unary, root = self._log_probabilities
        out, unparsed = [], 0
        for i, sentence in enumerate(Constituency().check_inputs(X)):
            words, tags = tagged_words(sentence, i)
            unknown = [tag for tag in tags if tag not in grammar.tags]
            if unknown:
                raise ValueError(
                    f"Example {i}: tag {unknown[0]!r} was never seen in training (tags: "
                    f"{sorted(grammar.tags)[:8]}...)."
                )
            ids = np.array([grammar.index[tag] for tag in tags], dtype=np.int64)
            _, top, split, rule, urule = _cky.viterbi(
                ids, grammar.n_symbols, grammar.binary, binary, grammar.left_start,
                grammar.unary, unary, root,
            )  # fmt: skip
            if top < 0:
                unparsed += 1
                flat = Tree("S", [Tree(t, [w]) for w, t in zip(words, tags)])
                out.append(Tree("", [flat]))
                continue
            binary_tree = grammar.tree(words, tags, top, split, rule, urule)
            out.append(self.transform_.inverse_transform([binary_tree])[0])
        self.n_unparsed_ = unparsed
        return out

    def score(self, X, y):
        """EVALB's bracket F1 (COLLINS.prm) of ``predict(X)`` against ``y``, in [0, 1]."""
        return bracket_f1_score(y, self.predict(X))
