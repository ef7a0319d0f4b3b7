"""Descriptions (the ``DESCR`` of the fetched Bunches)."""

__all__ = ["DESCR"]

_CONLL2000 = """\
.. _conll2000_dataset:

CoNLL-2000 chunking
-------------------

Text chunking of Wall Street Journal text (Penn Treebank sections 15-18 for
training, section 20 for testing), prepared by Sabine Buchholz for the
CoNLL-2000 shared task.

**Data Set Characteristics:**

    :Sentences: 8,936 (train), 2,012 (test)
    :Tokens: 211,727 (train), 47,377 (test)
    :Token fields: word, pos (Penn Treebank tag)
    :Labels: IOB chunk tags such as B-NP, I-VP, O (22 in train)

Homepage: https://www.clips.uantwerpen.be/conll2000/chunking/

Licence: derived from the Penn Treebank; for non-commercial research use.

.. topic:: References

    - E. F. Tjong Kim Sang and S. Buchholz (2000). Introduction to the
      CoNLL-2000 Shared Task: Chunking. In Proceedings of CoNLL-2000 and
      LLL-2000, pages 127-132.
"""

_CONLL2002 = """\
.. _conll2002_dataset:

CoNLL-2002 named entity recognition ({language})
--------------------------------------------------

Language-independent named entity recognition, shared task of CoNLL-2002:
persons, locations, organisations and miscellaneous entities in IOB2 tags
(B-PER, I-LOC, ..., O; 9 labels). The Spanish text is EFE newswire (May
2000); the Dutch text is from the newspaper De Morgen (2000) and marks
article boundaries with -DOCSTART- lines, which are skipped.

**Data Set Characteristics:**

    :Subsets: train, testa (development), testb (test)
    :Spanish sentences: 8,323 / 1,915 / 1,517
    :Token fields: word, and pos when the file has a part-of-speech column
        (the Dutch originals and NLTK's Spanish copy have one; the Spanish
        originals do not)

Homepage: https://www.clips.uantwerpen.be/conll2002/ner/

Licence: for research use in the context of the CoNLL-2002 shared task only.

.. topic:: References

    - E. F. Tjong Kim Sang (2002). Introduction to the CoNLL-2002 Shared Task:
      Language-Independent Named Entity Recognition. In Proceedings of
      CoNLL-2002, pages 155-158.
"""

_BROWN = """\
.. _brown_dataset:

Brown corpus
------------

A Standard Corpus of Present-Day Edited American English (W. N. Francis and
H. Kucera, Brown University, 1964; revised 1971 and 1979): 500 samples of
about 2,000 words in 15 genres, every token tagged with the Brown tag set.
Read from NLTK's ``brown`` data package, files in order from ``ca01``; tags
are kept lowercase as written (compound tags such as ``np-tl`` included).

**Data Set Characteristics:**

    :Sentences: 57,340
    :Tokens: 1,161,192
    :Token fields: word
    :Labels: Brown tags (472 distinct)

Homepage: http://www.hit.uib.no/icame/brown/bcm.html

Licence: distributed with the permission of the copyright holder,
redistribution permitted.

.. topic:: References

    - W. N. Francis and H. Kucera (1979). Brown Corpus Manual. Department of
      Linguistics, Brown University.
"""

_PTB_SAMPLE = """\
.. _ptb_sample_dataset:

Penn Treebank sample, dependencies
----------------------------------

The 5% sample of the Wall Street Journal part of the Penn Treebank (files
wsj_0001-0199) with its constituency trees converted to dependencies, from
NLTK's ``dependency_treebank`` data package. Split by file: train
wsj_0001-0159, dev wsj_0160-0179, test wsj_0180-0199. Column 5 holds the
Penn Treebank part-of-speech tag, so the same text serves tagging.

**Data Set Characteristics:**

    :Sentences: 3,396 (train), 273 (dev), 245 (test)
    :Tokens: 81,793 (train)
    :Token fields: id, form, xpos
    :Target: the head of each token (unlabelled; 0 is the root)

Licence: derived from the Penn Treebank; for non-commercial research use.

.. topic:: References

    - M. P. Marcus, B. Santorini and M. A. Marcinkiewicz (1993). Building a
      Large Annotated Corpus of English: The Penn Treebank. Computational
      Linguistics 19(2), 313-330.
"""

_CONLL2007 = """\
.. _conll2007_dataset:

CoNLL-2007 dependency treebank ({language})
------------------------------------------------

{language} treebank of the CoNLL-2007 shared task on dependency parsing, in
the subset NLTK distributes as its ``conll2007`` data package (its Spanish
files are the CoNLL-X 2006 Cast3LB treebank). CoNLL-X files with ten columns
(id, form, lemma, cpostag, postag, feats, head, deprel, phead, pdeprel);
phead and pdeprel copy the gold head and deprel, so the fetcher leaves them
out (``deps`` and ``misc`` are None); non-projective arcs occur.

**Data Set Characteristics:**

    :Subsets: train, test
{counts}
Homepage: http://nextens.uvt.nl/depparse-wiki/SharedTaskWebsite

Licence: Creative Commons Attribution-NonCommercial-NoDerivativeWorks.

.. topic:: References

    - J. Nivre, J. Hall, S. Kübler, R. McDonald, J. Nilsson, S. Riedel and
      D. Yuret (2007). The CoNLL 2007 Shared Task on Dependency Parsing. In
      Proceedings of EMNLP-CoNLL 2007, pages 915-932.
"""

#: DESCR text per dataset folder.
_TREEBANK = """Penn Treebank sample, constituency trees
--------------------------------------

NLTK's sample of the Wall Street Journal part of the Penn Treebank (files wsj_0001 to
wsj_0199, the text of the dependency PTB sample), as bracketed trees with function
tags, indices, traces and ``-NONE-`` empty elements, and the unlabelled outer
brackets ``( (S ...) )``.

    :Split: train wsj_0001-0159, dev wsj_0160-0179, test wsj_0180-0199
    :Trees: 3,396 / 273 / 245
    :Data: per sentence its words with their tags (``form``, ``xpos``), empty elements
        left out
    :Target: the trees (:class:`skstruct.trees.Tree`)

The sample is for non-commercial research use (see NLTK's README of the package).
"""

DESCR = {
    "conll2000": _CONLL2000,
    "conll2002-es": _CONLL2002.format(language="Spanish"),
    "conll2002-nl": _CONLL2002.format(language="Dutch"),
    "brown": _BROWN,
    "ptb-sample": _PTB_SAMPLE,
    "treebank": _TREEBANK,
    "conll2007-es": _CONLL2007.format(
        language="Spanish", counts="    :Sentences: 2,949 (train), 563 (test)\n"
    ),
    "conll2007-eu": _CONLL2007.format(language="Basque", counts=""),
}
