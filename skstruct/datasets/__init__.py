"""Readers, fetchers and generators of structured data sets.

- :func:`load_conll` reads CoNLL-2000/2002/2003 column files into token tuples
  and label lists; :func:`load_conllu` reads CoNLL-U and CoNLL-X treebanks into
  token dicts and head lists; :func:`write_conllu` writes predicted trees back.
- :func:`fetch_conll2000`, :func:`fetch_conll2002`, :func:`fetch_conll2007`,
  :func:`fetch_ptb_sample`, :func:`fetch_brown`, :func:`fetch_treebank` and
  :func:`fetch_ud` load the real corpora from :func:`get_data_home`, downloading the
  public originals (the shared tasks' servers, NLTK's data packages, Universal
  Dependencies releases) when missing.
- :func:`make_chain_data` samples a small tagging task from a random HMM;
  :func:`make_hmm_sequences` the synthetic setups of the SWVP paper.
"""

from ._conll import load_conll
from ._conllu import load_conllu, write_conllu
from ._errors import ConllFormatError
from ._fetch import fetch_conll2000, fetch_conll2002
from ._fetch_nltk import fetch_brown, fetch_conll2007, fetch_ptb_sample, fetch_treebank
from ._fetch_ud import UD_REPOSITORIES, fetch_ud
from ._home import get_data_home
from ._ptb import load_ptb, tagged_words, write_ptb
from ._synthetic import make_candidate_data, make_chain_data, make_hmm_sequences

__all__ = [
    "UD_REPOSITORIES",
    "ConllFormatError",
    "fetch_brown",
    "fetch_conll2000",
    "fetch_conll2002",
    "fetch_conll2007",
    "fetch_ptb_sample",
    "fetch_treebank",
    "fetch_ud",
    "get_data_home",
    "load_conll",
    "load_conllu",
    "load_ptb",
    "make_candidate_data",
    "make_chain_data",
    "make_hmm_sequences",
    "tagged_words",
    "write_conllu",
    "write_ptb",
]
