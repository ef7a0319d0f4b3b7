"""The data layout under a data home, and where each corpus is downloaded from."""

__all__ = ["FETCHERS", "FILES", "NLTK_URL", "UD_URL", "URLS", "ud_sources"]

_CONLL2000_URL = "https://www.clips.uantwerpen.be/conll2000/chunking/"
_CONLL2002_URL = "https://www.clips.uantwerpen.be/conll2002/ner/data/"
#: NLTK's public data packages (zip archives, one per corpus).
NLTK_URL = "https://raw.githubusercontent.com/nltk/nltk_data/gh-pages/packages/corpora/"
#: A file of a Universal Dependencies treebank as released: each treebank's repository
#: tags every release (``r2.5``) with the files of that release.
UD_URL = (
    "https://raw.githubusercontent.com/UniversalDependencies/{repository}/r{version}/"
    "{treebank}-ud-{subset}.conllu"
)
#: The subsets of a UD treebank (some treebanks have no train or dev file).
UD_SUBSETS = ("train", "dev", "test")


def ud_sources(treebank, version, repository):
    """``(files, urls, fetcher)`` of a UD treebank release's folder: its files by subset
    (``en_ewt-ud-train.conllu`` ...), the URL of each (from :data:`UD_URL`) and the call
    that fetches it."""
    files = {subset: f"{treebank}-ud-{subset}.conllu" for subset in UD_SUBSETS}
    urls = {
        subset: UD_URL.format(repository=repository, version=version, treebank=treebank,
                              subset=subset)
        for subset in UD_SUBSETS
    }  # fmt: skip
    return files, urls, f'fetch_ud("{treebank}", version="{version}")'


#: The files of each corpus folder under a data home: ``FILES[folder][subset]``.
FILES = {
    "conll2000": {"train": "train.txt", "test": "test.txt"},
    **{
        f"conll2002-{language}": {subset: f"{subset}.txt" for subset in ("train", "testa", "testb")}
        for language in ("es", "nl")
    },
    "ptb-sample": {subset: f"{subset}.conllu" for subset in ("train", "dev", "test")},
    "treebank": {subset: f"{subset}.mrg" for subset in ("train", "dev", "test")},
    **{
        f"conll2007-{language}": {subset: f"{subset}.conll" for subset in ("train", "test")}
        for language in ("es", "eu")
    },
    "brown": {"all": "brown.tsv"},
}
#: UD English-EWT 2.5 (the release UDPipe 1's published UD 2.5 models were trained on):
#: the ``ud-ewt`` folder. Other treebanks and releases get folders when fetched.
_EWT_FILES, _EWT_URLS, _EWT_FETCHER = ud_sources("en_ewt", "2.5", "UD_English-EWT")
FILES["ud-ewt"] = _EWT_FILES

#: Where each file is downloaded from: ``URLS[folder][subset]`` is a URL or a
#: tuple of URLs tried in turn. A download may be the file itself (plain or
#: gzipped: gzip is detected from the content, not the name) or a zip archive of
#: NLTK's data packages, which gives every file of the folder at once. The
#: CoNLL-2002 data folder has been quoted both with plain and gzipped file
#: names, so both are tried; NLTK's copies come last because the original
#: server is the reference but is often down.
URLS = {
    "conll2000": {
        subset: (f"{_CONLL2000_URL}{subset}.txt.gz", f"{NLTK_URL}conll2000.zip")
        for subset in ("train", "test")
    },
    **{
        f"conll2002-{language}": {
            subset: (
                f"{_CONLL2002_URL}{prefix}.{subset}",
                f"{_CONLL2002_URL}{prefix}.{subset}.gz",
                f"{NLTK_URL}conll2002.zip",
            )
            for subset in ("train", "testa", "testb")
        }
        for language, prefix in (("es", "esp"), ("nl", "ned"))
    },
    "ptb-sample": {subset: f"{NLTK_URL}dependency_treebank.zip" for subset in FILES["ptb-sample"]},
    "treebank": {subset: f"{NLTK_URL}treebank.zip" for subset in FILES["treebank"]},
    **{
        f"conll2007-{language}": {
            subset: f"{NLTK_URL}conll2007.zip" for subset in ("train", "test")
        }
        for language in ("es", "eu")
    },
    "brown": {"all": f"{NLTK_URL}brown.zip"},
    "ud-ewt": _EWT_URLS,
}

#: The call that fetches each folder, for messages that say what to run.
FETCHERS = {
    "conll2000": "fetch_conll2000()",
    "conll2002-es": 'fetch_conll2002("es")',
    "conll2002-nl": 'fetch_conll2002("nl")',
    "ptb-sample": "fetch_ptb_sample()",
    "treebank": "fetch_treebank()",
    "conll2007-es": 'fetch_conll2007("es")',
    "conll2007-eu": 'fetch_conll2007("eu")',
    "brown": "fetch_brown()",
    "ud-ewt": _EWT_FETCHER,
}
