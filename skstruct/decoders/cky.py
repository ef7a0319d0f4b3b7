"""CKY: the decoder of constituency trees (anchored rules, pruned by a first pass)."""

from numbers import Integral, Real

import numpy as np

from .._kernels import anchored_cky as _cky
from .._kernels import kbest_cky as _kbest_cky
from .._kernels.threads import current_threads
from ..structures import AnchoredRules, OutputTrace
from ..structures.constituency import UNPARSED
from ..tasks.constituency import CONSTITUENCY
from ..utils._sklearn_compat import Interval
from ..utils.parts import in_parts
from ._base import Capabilities, Decoder


class CKY(Decoder):
    """Exact CKY over binarised trees whose parts are anchored rules, each scored by
    hashed surface features of its span (Hall, Durrett & Klein 2014); sentences are
    parsed in parallel.

    The grammar's symbols and rules are those of the training trees, binarised with
    ``horizontal`` and ``vertical`` markovisation (:class:`~skstruct.trees.TreeTransform`).
    The features carry what richer symbols would, so the grammar can stay small: the
    default (first-order horizontal markovisation, no parent annotation) was chosen on
    the treebank sample's dev set over Hall et al.'s X-bar grammar (``horizontal=0``),
    87.88 F1 against 87.81, in two thirds of the training time; on a few hundred
    training trees, the X-bar grammar spans more sentences.

    The search runs in a space pruned by a first pass (on numba's threads): a treebank
    PCFG over the same symbols keeps a labelled span when the best tree through it is
    at least ``pruning`` times as probable as its best tree (max-marginals); while
    training, the gold tree's spans are always kept. A sentence the PCFG cannot parse
    is parsed flat (an ``S`` over its tags).

    ``X`` is tagged sentences (token dicts with a form and ``xpos``/``pos``, or
    ``(word, tag)`` pairs), ``y`` and ``predict`` are :class:`~skstruct.trees.Tree`\\ s.

    Parameters
    ----------
    horizontal : int or None, default=1
    vertical : int, default=1
        Markovisation of the grammar.
    pruning : float in (0, 1], default=1e-5
        The first pass keeps labelled spans whose best tree is at least this share of
        the PCFG's best tree's probability (smaller: less pruning, slower, exact in
        the limit).

    Examples
    --------
    >>> from skstruct import CKY, StructuredPerceptron
    >>> from skstruct.trees import Tree
    >>> trees = [Tree.fromstring("( (S (NP (DT the) (NN dog)) (VP (VBZ barks))) )"),
    ...          Tree.fromstring("( (S (NP (NN it)) (VP (VBZ works))) )")]
    >>> X = [tree.pos() for tree in trees]
    >>> model = StructuredPerceptron(CKY(), random_state=0).fit(X, trees)
    >>> print(model.predict(X[:1])[0])
    ( (S (NP (DT the) (NN dog)) (VP (VBZ barks))))
    """

    _parameter_constraints: dict = {
        "horizontal": [Interval(Integral, 0, None, closed="left"), None],
        "vertical": [Interval(Integral, 1, None, closed="left")],
        "pruning": [Interval(Real, 0, 1, closed="right")],
    }

    def __init__(self, horizontal=1, vertical=1, pruning=1e-5):
        self.horizontal = horizontal
        self.vertical = vertical
        self.pruning = pruning

    @property
    def capabilities(self):
        return Capabilities(
            task=CONSTITUENCY,
            exact=True,
            marginals=True,
            prefix_trace=False,
            restarts=False,
            mixed_assignments=False,
            relation_labels=False,
            sparse_delta=True,
            loss_augmented=True,
        )

    def make_structure(self, n_features, n_labels=0, *, grammar=None, transform=None):
        """The :class:`~skstruct.structures.constituency.AnchoredRules` of ``grammar``."""
        self._validate_params()
        return AnchoredRules(n_features, grammar, transform)

    def decode(self, structure, scores):
        """The best tree's output (int32 ``6n - 5``); a ValueError where the pruned
        space has none."""
        out = np.empty(_cky.output_length(scores.atoms.shape[0]), dtype=np.int32)
        if not structure.best(scores, out) > -np.inf:
            raise ValueError("no tree of the grammar spans the sentence in the pruned space")
        return out

    def search(self, structure, scores, gold, restarts=False):
        """The best tree, with its score and the gold tree's (one step)."""
        path = self.decode(structure, scores)
        return OutputTrace.of(
            path, gold, structure.score(scores, path), structure.score(scores, gold)
        )

    def predict(self, structure, encoded, coef):
        """The best tree of every sentence (flat output ids; a sentence without a tree
        starts with ``UNPARSED``): the sentences in parts on numba's threads (as the
        pruning pass), each thread searching in charts it reuses from sentence to
        sentence (``structures/_cky_charts.py``)."""
        offsets = structure.output_offsets(encoded)
        out = np.full(offsets[-1], -1, dtype=np.int32)

        def parse(sentences):
            for i in sentences.tolist():
                tree = out[offsets[i] : offsets[i + 1]]
                if structure.best(structure.scores(encoded, i, coef), tree) == -np.inf:
                    tree[0] = UNPARSED

        in_parts(parse, encoded.offsets, current_threads(), power=3)
        return out

    def nbest(self, structure, scores, k):
        """The ``k`` best trees of the pruned space under the part ``scores``, best
        first, as ``[(output ids int32 (6n - 5,), score), ...]`` (Huang & Chiang's k-best
        lists on every labelled span): fewer where the space holds fewer. A sentence
        the pruned space has no tree for gets one candidate, parsed flat as
        :meth:`predict` parses it, scored ``-inf``."""
        g = structure.grammar
        outputs, totals = _kbest_cky.kbest_trees(
            scores.atoms, scores.allowed, g.binary, g.left_start, g.unary, structure.root_ok,
            scores.coef, structure.n_features, int(k),
        )  # fmt: skip
        if not len(outputs):
            flat = np.full(_cky.output_length(scores.atoms.shape[0]), -1, dtype=np.int32)
            flat[0] = UNPARSED
            return [(flat, -np.inf)]
        return [(output, float(total)) for output, total in zip(outputs, totals)]

    def lacking(self, capability):
        if capability == "mixed_assignments":
            return "builds trees, which do not mix position by position"
        return super().lacking(capability)
