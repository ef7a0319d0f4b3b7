"""What a learner predicts, chosen by its decoder: label sequences, dependency trees or
chosen candidates.

A task owns what differs between them above the structures: the default features,
how ``X`` and ``y`` are encoded (with errors that name the example), what ``predict``
returns and what ``score`` counts. Decoders name theirs in
:attr:`~skstruct.decoders.Capabilities.task`.
"""

from .constituency import CONSTITUENCY, Constituency
from .labelling import SEQUENCE_LABELLING, SequenceLabelling
from .parsing import DEPENDENCY_PARSING, DependencyParsing
from .reranking import RERANKING, Reranking

__all__ = [
    "CONSTITUENCY",
    "DEPENDENCY_PARSING",
    "RERANKING",
    "SEQUENCE_LABELLING",
    "Constituency",
    "DependencyParsing",
    "Reranking",
    "SequenceLabelling",
]
