"""Decoder: the base of every decoder, and the capabilities a decoder declares."""

from typing import NamedTuple

from sklearn.base import BaseEstimator


class Capabilities(NamedTuple):
    """What a decoder (with its current parameters) can do, checked by the learners and
    the command line before any work on the data.

    Attributes
    ----------
    task : SequenceLabelling or DependencyParsing
        What it predicts (:mod:`skstruct.tasks`): label sequences or trees.
    exact : bool
        ``decode`` finds the highest-scoring output.
    marginals : bool
        Its structure has exact part marginals (what the EG structured SVM needs).
    prefix_trace : bool
        ``search`` compares the gold output with the search's best step by step, on
        prefixes: the violation-fixing updates (early, max-violation, ...) need it.
    restarts : bool
        ``search`` can restart from the gold prefix when it falls off the beam (LaSO).
    mixed_assignments : bool
        Outputs are one value per token that can be mixed position by position (SWVP).
    relation_labels : bool
        It can predict dependency relation labels with the heads.
    sparse_delta : bool
        Its structure gives ``phi(x, y) - phi(x, z)`` as a sparse vector
        (``structure.delta``): what the passive-aggressive step and AROW need.
    loss_augmented : bool
        ``decode`` under ``structure.augment(scores, gold)`` is the loss-augmented
        argmax of a structured SVM (Hamming loss over tokens or words), and the
        structure gives sparse feature differences: what the Frank-Wolfe solver of
        :class:`~skstruct.StructuredSVM` needs (exactly when ``exact``).
    """

    task: object
    exact: bool
    marginals: bool
    prefix_trace: bool
    restarts: bool
    mixed_assignments: bool
    relation_labels: bool
    sparse_delta: bool
    loss_augmented: bool


class Decoder(BaseEstimator):
    """The interface every decoder implements (see :doc:`/architecture`).

    A decoder is an estimator whose parameters say how to search (``order``,
    ``beam_size``, ...). It chooses the structure it searches (``make_structure``),
    declares what it can do (``capabilities``) and owns its algorithm: ``decode`` one
    sentence, ``search`` one sentence with the gold output traced for the update
    rules, and ``predict`` a batch (where the compiled kernels are called).
    """

    @property
    def capabilities(self):
        """A :class:`Capabilities` for the current parameters."""
        raise NotImplementedError

    def make_structure(self, n_features, n_labels):
        """The structure (output space and weight layout) this decoder searches."""
        raise NotImplementedError

    def decode(self, structure, scores):
        """The best output of one sentence under its part ``scores`` (from
        ``structure.scores``)."""
        raise NotImplementedError

    def search(self, structure, scores, gold, restarts=False):
        """Search one sentence, tracing the ``gold`` output; returns a trace
        (:class:`~skstruct.structures.SearchTrace` or alike) whose ``gold`` and
        ``prefix(t)`` are in the space the structure's ``add_delta`` takes."""
        raise NotImplementedError

    def predict(self, structure, encoded, coef):
        """Output ids (int32 (n_tokens,)) of every sentence of ``encoded``."""
        raise NotImplementedError

    def lacking(self, capability):
        """How to say that this decoder lacks ``capability`` (completes an error)."""
        return _LACKING[capability]

    def check_lengths(self, encoded, name="X"):
        """Raise a ValueError naming a sentence too long to decode (nothing here)."""


_LACKING = {
    "exact": "searches inexactly",
    "marginals": "has no exact marginals with these parameters",
    "prefix_trace": "searches trees exactly, with no prefixes to compare, so use the "
    "standard update",
    "restarts": "cannot restart its search from the gold prefix",
    "mixed_assignments": "builds action sequences, which do not mix position by position",
    "relation_labels": "parses unlabelled trees: give y as head lists, or use Eisner() / "
    "ChuLiuEdmonds() for labelled parsing",
    "sparse_delta": "gives no sparse feature difference (only the chain decoders do: "
    "Viterbi, BeamSearch, Greedy)",
    "loss_augmented": "scores action sequences, whose loss does not decompose over the "
    "words (use Viterbi, BeamSearch or Greedy for chains; Eisner or ChuLiuEdmonds for trees)",
}
