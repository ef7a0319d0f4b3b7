"""fetch_ud: a Universal Dependencies treebank of one release, from its public files."""

import re

from sklearn.utils import Bunch

from ._conllu import load_conllu
from ._download import fetch_file
from ._fetch import _check_choice
from ._sources import FETCHERS, FILES, UD_SUBSETS, URLS, ud_sources

__all__ = ["UD_REPOSITORIES", "fetch_ud"]

#: The repositories of some UD treebanks, by the prefix of their files; others are
#: fetched with ``repository=`` (the name of the treebank's repository under
#: github.com/UniversalDependencies, ``UD_<Language>-<Name>``).
UD_REPOSITORIES = {
    "ar_padt": "UD_Arabic-PADT",
    "de_gsd": "UD_German-GSD",
    "en_ewt": "UD_English-EWT",
    "en_gum": "UD_English-GUM",
    "es_ancora": "UD_Spanish-AnCora",
    "es_gsd": "UD_Spanish-GSD",
    "eu_bdt": "UD_Basque-BDT",
    "fi_tdt": "UD_Finnish-TDT",
    "fr_gsd": "UD_French-GSD",
    "it_isdt": "UD_Italian-ISDT",
    "ja_gsd": "UD_Japanese-GSD",
    "nl_alpino": "UD_Dutch-Alpino",
    "zh_gsd": "UD_Chinese-GSD",
}
_TREEBANK = re.compile(r"[a-z]{2,3}_[a-z0-9]+")
_VERSION = re.compile(r"[0-9]+\.[0-9]+")
_REPOSITORY = re.compile(r"UD_[A-Za-z_]+-[A-Za-z0-9]+")


def ud_folder(treebank, version):
    """The folder of a treebank release under a data home: ``ud-ewt`` for English-EWT 2.5
    (the project's data layout), ``ud-{treebank}-{version}`` for any other."""
    if (treebank, version) == ("en_ewt", "2.5"):
        return "ud-ewt"
    return f"ud-{treebank}-{version}"


def fetch_ud(
    treebank="en_ewt",
    subset="train",
    *,
    version="2.5",
    repository=None,
    labelled=False,
    data_home=None,
    download_if_missing=True,
    return_X_y=False,
):
    """Load a Universal Dependencies treebank of one release (download it if necessary).

    The file ``{treebank}-ud-{subset}.conllu`` of folder :func:`ud_folder` (``ud-ewt/``
    for English-EWT 2.5) is looked for in ``data_home``, then in ``$SKSTRUCT_DATA``,
    then in ``~/skstruct_data``. When it is in none of them and
    ``download_if_missing`` is True, it is downloaded from the treebank's repository
    at the release's tag (``UD_English-EWT`` at ``r2.5``: the files of UD release 2.5,
    those of the release's archive), checked, and written atomically under
    :func:`get_data_home(data_home) <get_data_home>`.

    =====================  =============================================
    English-EWT 2.5        12,543 / 2,002 / 2,077 sentences (train / dev
                           / test), 204,585 training words
    Token fields           id, form, lemma, upos, xpos, feats, head,
                           deprel, deps, misc (as :func:`load_conllu`)
    Target                 heads, or (head, deprel) pairs
    =====================  =============================================

    Parameters
    ----------
    treebank : str, default="en_ewt"
        The prefix of the treebank's files: language code and name (``fr_gsd``).
    subset : {"train", "dev", "test"}, default="train"
        Which file (some treebanks have no train or dev file).
    version : str, default="2.5"
        The UD release (``"2.5"``: the release UDPipe 1's published UD 2.5 models
        were trained on).
    repository : str or None, default=None
        The treebank's repository under github.com/UniversalDependencies
        (``"UD_French-GSD"``); None looks ``treebank`` up in :data:`UD_REPOSITORIES`.
    labelled : bool, default=False
        If True, the target holds ``(head, deprel)`` pairs instead of heads.
    data_home : str or path-like, default=None
        Folder looked in first, and where a download goes. By default
        ``$SKSTRUCT_DATA`` or ``~/skstruct_data`` (see :func:`get_data_home`).
    download_if_missing : bool, default=True
        If False, raise an OSError instead of downloading a missing file.
    return_X_y : bool, default=False
        If True, return ``(data, target)`` instead of a Bunch.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        With ``data`` (sentences of token dicts), ``target`` (heads, or pairs),
        ``filename`` and ``DESCR``.
    (data, target) : tuple if ``return_X_y`` is True

    Raises
    ------
    ValueError
        For a malformed treebank, version or repository name, or a treebank not in
        :data:`UD_REPOSITORIES` without ``repository``.
    OSError
        When the file is nowhere and downloading is disabled or fails (the message
        names every place looked in and each URL tried).

    Examples
    --------
    >>> from skstruct.datasets import fetch_ud
    >>> X, y = fetch_ud("en_ewt", "dev", labelled=True, return_X_y=True)  # doctest: +SKIP
    >>> len(X), X[0][0]["form"], y[0][0]  # doctest: +SKIP
    (2002, 'From', (3, 'case'))
    """
    for value, pattern, name in ((treebank, _TREEBANK, "treebank"), (version, _VERSION, "version")):
        if not isinstance(value, str) or not pattern.fullmatch(value):
            raise ValueError(
                f"{name}={value!r} is not a UD {name} name (such as 'en_ewt' and '2.5')."
            )
    _check_choice(subset, UD_SUBSETS, "subset")
    repository = _repository(treebank, repository)
    folder = ud_folder(treebank, version)
    if folder not in FILES:  # another treebank or release: where its files come from
        FILES[folder], URLS[folder], FETCHERS[folder] = ud_sources(treebank, version, repository)

    def load(path):
        return load_conllu(path, labelled=labelled)

    path, (X, y) = fetch_file(folder, subset, data_home, download_if_missing, load)
    if return_X_y:
        return X, y
    description = (
        f"Universal Dependencies {repository} ({treebank}), release {version}, {subset}: "
        f"{len(X)} sentences. Licence: see the LICENSE.txt of the treebank's repository "
        f"(github.com/UniversalDependencies/{repository})."
    )
    return Bunch(data=X, target=y, filename=str(path), DESCR=description)


def _repository(treebank, repository):
    if repository is None:
        if treebank not in UD_REPOSITORIES:
            raise ValueError(
                f"No repository known for the treebank {treebank!r}: pass repository= (the "
                f"treebank's repository under github.com/UniversalDependencies, such as "
                f"'UD_French-GSD'); known: {', '.join(sorted(UD_REPOSITORIES))}."
            )
        return UD_REPOSITORIES[treebank]
    if not isinstance(repository, str) or not _REPOSITORY.fullmatch(repository):
        raise ValueError(
            f"repository={repository!r} is not a UD repository name (such as 'UD_French-GSD')."
        )
    return repository
