"""Conversion of NLTK's data packages (zip archives) into the files of a corpus folder.

Each converter takes the corpus folder name and an open :class:`zipfile.ZipFile`
and returns ``{file name: text}`` for every file of that folder (see
``_sources.FILES``). A member that is missing or malformed raises ValueError
naming it, so that a download that is not the expected archive is rejected.
"""

import re

__all__ = ["decode", "extract"]

# Dependency treebank files wsj_0001-0199: train, dev and test by file number.
_PTB_SPLITS = (("train", 1, 159), ("dev", 160, 179), ("test", 180, 199))
_WSJ_MEMBER = re.compile(r"dependency_treebank/wsj_(\d{4})\.dp")
_MRG_MEMBER = re.compile(r"treebank/combined/wsj_(\d{4})\.mrg")
# Brown files: category letter a-r, two digits (README, CONTENTS, cats.txt are not text).
_BROWN_MEMBER = re.compile(r"brown/c[a-r]\d\d")


def decode(payload, encoding=None):
    """Text of ``payload`` with ``\\n`` line ends: ``encoding``, or UTF-8 falling back to Latin-1.

    The CoNLL-2002 originals are Latin-1; Latin-1 text with accents is
    practically never valid UTF-8, so the fallback tells the two apart.
    """
    if encoding is not None:
        text = payload.decode(encoding)
    else:
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError:
            text = payload.decode("latin-1")
    return text.replace("\r\n", "\n")


def extract(folder, archive):
    """``{file name: text}`` of corpus ``folder`` from the NLTK package ``archive``."""
    if folder == "brown":
        return {"brown.tsv": _brown(archive)}
    if folder == "ptb-sample":
        return _ptb_sample(archive)
    if folder == "treebank":
        return _treebank(archive)
    if folder == "conll2000":
        return {name: _read(archive, f"conll2000/{name}") for name in ("train.txt", "test.txt")}
    language = folder.rpartition("-")[2]
    if folder.startswith("conll2002-"):
        prefix = {"es": "esp", "nl": "ned"}[language]
        subsets = ("train", "testa", "testb")
        return {f"{s}.txt": _read(archive, f"conll2002/{prefix}.{s}") for s in subsets}
    if folder.startswith("conll2007-"):
        # The Basque files are Latin-1 (NLTK's reader says ISO-8859-2, which turns
        # "Iruñea" into "Iruńea"); the Spanish ones are UTF-8.
        prefix, encoding = {"es": ("esp", "utf-8"), "eu": ("eus", "latin-1")}[language]
        return {
            f"{s}.conll": _read(archive, f"conll2007/{prefix}.{s}", encoding)
            for s in ("train", "test")
        }
    raise ValueError(f"no NLTK package converter for the corpus folder {folder!r}")


def _read(archive, member, encoding=None):
    try:
        payload = archive.read(member)
    except KeyError:
        names = ", ".join(archive.namelist()[:5])
        raise ValueError(f"the archive has no member {member!r} (it starts with {names})") from None
    return decode(payload, encoding)


def _members(archive, pattern):
    names = sorted(name for name in archive.namelist() if pattern.fullmatch(name))
    if not names:
        raise ValueError(f"the archive has no member matching {pattern.pattern!r}")
    return names


def _blocks(text):
    """Sentences of a blank-line separated file, each a list of its non-blank lines."""
    block = []
    for line in text.split("\n"):
        if line.strip():
            block.append(line)
        elif block:
            yield block
            block = []
    if block:
        yield block


def _ptb_sample(archive):
    """The three CoNLL-U files of the PTB sample from NLTK's ``dependency_treebank``.

    Each ``.dp`` line is Malt-TAB, ``word tag head`` and possibly a relation
    label. The label is dropped (DEPREL ``_``): the sample is laid out unlabelled,
    as every copy of it must be for results to be comparable.
    """
    out = {f"{subset}.conllu": [] for subset, _, _ in _PTB_SPLITS}
    for member in _members(archive, _WSJ_MEMBER):
        subset = _split_of(int(_WSJ_MEMBER.fullmatch(member).group(1)))
        if subset is None:
            continue
        for block in _blocks(_read(archive, member)):
            rows = []
            for i, line in enumerate(block, start=1):
                fields = line.split()
                if len(fields) not in (3, 4):
                    raise ValueError(
                        f"{member}: expected 'word tag head [label]', got {line.strip()!r}"
                    )
                word, tag, head = fields[:3]
                rows.append(f"{i}\t{word}\t_\t_\t{tag}\t_\t{head}\t_\t_\t_\n")
            out[f"{subset}.conllu"].append("".join(rows) + "\n")
    return {name: "".join(sentences) for name, sentences in out.items()}


def _split_of(number):
    return next((s for s, first, last in _PTB_SPLITS if first <= number <= last), None)


def _treebank(archive):
    """The three bracketed files of the treebank sample from NLTK's ``treebank``
    package (``treebank/combined/wsj_*.mrg``, split by file number as the PTB sample
    is): each file's trees as they are, the files one after the other."""
    out = {f"{subset}.mrg": [] for subset, _, _ in _PTB_SPLITS}
    for member in _members(archive, _MRG_MEMBER):
        subset = _split_of(int(_MRG_MEMBER.fullmatch(member).group(1)))
        if subset is not None:
            out[f"{subset}.mrg"].append(_read(archive, member).strip("\n") + "\n")
    return {name: "\n".join(texts) for name, texts in out.items()}


def _brown(archive):
    """``brown.tsv`` from NLTK's ``brown``: ``word<TAB>tag`` lines, files in sorted order.

    A Brown file has one sentence a line, tokens ``word/tag`` (the word may hold
    a ``/``, so the tag follows the last one), tags kept lowercase as written.
    """
    sentences = []
    for member in _members(archive, _BROWN_MEMBER):
        for line in _read(archive, member).split("\n"):
            if not line.strip():
                continue
            rows = []
            for token in line.split():
                word, slash, tag = token.rpartition("/")
                if not (slash and word and tag):
                    raise ValueError(f"{member}: token {token!r} is not 'word/tag'")
                rows.append(f"{word}\t{tag}\n")
            sentences.append("".join(rows) + "\n")
    return "".join(sentences)
