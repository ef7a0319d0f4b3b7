"""The text layer under the readers, for code that rewrites files line by line and so
keeps what the readers drop (the command line's ``predict``)."""

from ._conll import DOCSTART
from ._conllu import columns_after, sentence_blocks, split_fields
from ._io import read_text

__all__ = ["DOCSTART", "columns_after", "read_text", "sentence_blocks", "split_fields"]
