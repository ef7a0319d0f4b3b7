"""Metrics and scorers for sequence labelling, dependency parsing and reranking.

Inputs are always lists of label sequences, one per sentence:
``y_true = [["B-NP", "I-NP", "O"], ["B-VP"]]``.

* Token level: :func:`token_accuracy`, :func:`flat_classification_report`.
* Sequence level: :func:`sequence_accuracy`.
* Chunk level, with CoNLL ``conlleval`` semantics:
  :func:`span_precision_recall_fscore`, :func:`span_f1_score`,
  :func:`span_classification_report`, and the chunks themselves:
  :func:`extract_spans`.
* Dependency trees: :func:`attachment_scores` (UAS, LAS, punctuation left out by
  form or by tag), :func:`uas_score`; whole CoNLL-U annotations as the CoNLL 2018
  shared task scores them for gold tokenization: :func:`conll18_scores` (UPOS, XPOS,
  UFeats, AllTags, Lemmas, UAS, LAS, CLAS, MLAS, BLEX).
* Reranking (chosen candidate indices against gold indices or losses):
  :func:`top1_accuracy`, :func:`mean_candidate_loss`, and their scorers
  :data:`top1_scorer`, :data:`mean_candidate_loss_scorer`.
* Constituency trees: :func:`evalb` (EVALB's bracket recall, precision and F1 with
  COLLINS.prm, complete match, tagging accuracy), :func:`bracket_f1_score`.
* Calibration of token marginals: :func:`expected_calibration_error`,
  :func:`reliability_bins`.
* Scorers for model selection: :data:`token_accuracy_scorer`,
  :data:`sequence_accuracy_scorer`, :data:`span_f1_scorer` and the
  :data:`SCORERS` dict. scikit-learn's own (``scoring="accuracy"``) raise
  :class:`UnsupportedScorerError`.
"""

from ..utils.scorer_guard import UnsupportedScorerError
from ._attachment import (
    PTB_PUNCTUATION_TAGS,
    attachment_scores,
    is_punctuation,
    uas_score,
)
from ._calibration import expected_calibration_error, reliability_bins
from ._candidates import mean_candidate_loss, top1_accuracy
from ._conll18 import (
    CONTENT_DEPRELS,
    FUNCTIONAL_DEPRELS,
    UNIVERSAL_FEATURES,
    Conll18Score,
    conll18_scores,
)
from ._evalb import EvalbScores, bracket_f1_score, evalb
from ._scorers import (
    SCORERS,
    mean_candidate_loss_scorer,
    sequence_accuracy_scorer,
    span_f1_scorer,
    token_accuracy_scorer,
    top1_scorer,
)
from ._span import (
    extract_spans,
    span_classification_report,
    span_f1_score,
    span_precision_recall_fscore,
)
from ._token import flat_classification_report, sequence_accuracy, token_accuracy

__all__ = [
    "CONTENT_DEPRELS",
    "FUNCTIONAL_DEPRELS",
    "PTB_PUNCTUATION_TAGS",
    "SCORERS",
    "UNIVERSAL_FEATURES",
    "Conll18Score",
    "EvalbScores",
    "UnsupportedScorerError",
    "attachment_scores",
    "bracket_f1_score",
    "conll18_scores",
    "evalb",
    "expected_calibration_error",
    "extract_spans",
    "flat_classification_report",
    "is_punctuation",
    "mean_candidate_loss",
    "mean_candidate_loss_scorer",
    "reliability_bins",
    "sequence_accuracy",
    "sequence_accuracy_scorer",
    "span_classification_report",
    "span_f1_score",
    "span_f1_scorer",
    "span_precision_recall_fscore",
    "token_accuracy",
    "token_accuracy_scorer",
    "top1_accuracy",
    "top1_scorer",
    "uas_score",
]
