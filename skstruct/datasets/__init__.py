"""Readers, fetchers and generators of structured data sets.

- :func:`load_conll` reads CoNLL-2000/2002/2003 column files into token tuples
  and label lists; :func:`load_conllu` reads CoNLL-U and CoNLL-X treebanks into
  token dicts and head lists; :func:`write_conllu` writes predicted trees back.
- :func:`fetch_conll2000` and :func:`fetch_conll2002` load the shared-task data
  from :func:`get_data_home`, downloading the public originals when missing.
- :func:`make_chain_data` samples a small tagging task from a random HMM;
  :func:`make_hmm_sequences` the synthetic setups of the SWVP paper.
"""

from ._conll import load_conll
from ._conllu import load_conllu, write_conllu
from ._errors import ConllFormatError
from ._fetch import fetch_conll2000, fetch_conll2002
from ._home import get_data_home
from ._synthetic import make_chain_data, make_hmm_sequences

__all__ = [
    "ConllFormatError",
    "fetch_conll2000",
    "fetch_conll2002",
    "get_data_home",
    "load_conll",
    "load_conllu",
    "make_chain_data",
    "make_hmm_sequences",
    "write_conllu",
]
