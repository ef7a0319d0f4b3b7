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

#: DESCR text per dataset folder.
DESCR = {
    "conll2000": _CONLL2000,
    "conll2002-es": _CONLL2002.format(language="Spanish"),
    "conll2002-nl": _CONLL2002.format(language="Dutch"),
}
