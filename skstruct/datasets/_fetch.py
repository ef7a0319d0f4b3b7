"""Loaders of the CoNLL-2000 and CoNLL-2002 shared-task data, downloaded when missing."""

from sklearn.utils import Bunch

from ._conll import load_conll
from ._descr import DESCR
from ._download import fetch_file
from ._errors import ConllFormatError
from ._sources import URLS

__all__ = ["URLS", "fetch_conll2000", "fetch_conll2002"]

_CONLL2000_COLUMNS = ("word", "pos", "chunk")
_CONLL2002_LANGUAGES = ("es", "nl")


def fetch_conll2000(subset="train", *, data_home=None, download_if_missing=True, return_X_y=False):
    """Load the CoNLL-2000 chunking data (download it if necessary).

    The file ``conll2000/{subset}.txt`` is looked for in ``data_home``, then in
    ``$SKSTRUCT_DATA``, then in ``~/skstruct_data``. When it is in none of them
    and ``download_if_missing`` is True, the public original is downloaded from
    ``URLS["conll2000"][subset]`` (the shared task's server, then NLTK's data
    package) into :func:`get_data_home(data_home) <get_data_home>`.

    =================  =====================
    Sentences (train)  8,936
    Tokens (train)     211,727
    Sentences (test)   2,012
    Token fields       word, pos
    Labels             IOB chunk tags (22)
    =================  =====================

    Parameters
    ----------
    subset : {"train", "test"}, default="train"
        Which part of the data to load.
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
        Dictionary-like object with the following attributes.

        data : list of list of tuple of str
            One list per sentence, one ``(word, pos)`` tuple per token.
        target : list of list of str
            The chunk tag of each token.
        columns : tuple of str
            ``("word", "pos")``, the names of the fields of each token tuple.
        label : str
            ``"chunk"``, the name of the label column.
        filename : str
            The file the data was read from.
        DESCR : str
            Description of the data set.

    (data, target) : tuple if ``return_X_y`` is True

    Raises
    ------
    OSError
        When the file is nowhere and downloading is disabled or fails. The
        message names every place looked in, each URL tried and its error.

    See Also
    --------
    load_conll : The reader used here, for any CoNLL column file.

    References
    ----------
    E. F. Tjong Kim Sang and S. Buchholz (2000). Introduction to the CoNLL-2000
    Shared Task: Chunking. Proceedings of CoNLL-2000 and LLL-2000, 127-132.

    Examples
    --------
    >>> from skstruct.datasets import fetch_conll2000
    >>> X, y = fetch_conll2000("test", return_X_y=True)  # doctest: +SKIP
    >>> len(X), X[0][:2], y[0][:2]  # doctest: +SKIP
    (2012, [('Rockwell', 'NNP'), ('International', 'NNP')], ['B-NP', 'I-NP'])
    """
    _check_choice(subset, tuple(URLS["conll2000"]), "subset")

    def load(path):
        return load_conll(path, columns=_CONLL2000_COLUMNS, label_column="chunk")

    path, (X, y) = fetch_file("conll2000", subset, data_home, download_if_missing, load)
    if return_X_y:
        return X, y
    return Bunch(
        data=X,
        target=y,
        columns=_CONLL2000_COLUMNS[:2],
        label="chunk",
        filename=str(path),
        DESCR=DESCR["conll2000"],
    )


def fetch_conll2002(
    language="es", subset="train", *, data_home=None, download_if_missing=True, return_X_y=False
):
    """Load the CoNLL-2002 named-entity data (download it if necessary).

    The file ``conll2002-{language}/{subset}.txt`` is looked for in
    ``data_home``, then in ``$SKSTRUCT_DATA``, then in ``~/skstruct_data``. When
    it is in none of them and ``download_if_missing`` is True, the public
    original is downloaded from ``URLS[f"conll2002-{language}"][subset]`` (the
    shared task's server, then NLTK's data package) into
    :func:`get_data_home(data_home) <get_data_home>`, converted from Latin-1
    to UTF-8.

    ==========================  =====================================
    Sentences (es train/a/b)    8,323 / 1,915 / 1,517
    Token fields                word, and pos when the file has it
    Labels                      IOB2 entity tags (9): B-PER, I-LOC, O
    ==========================  =====================================

    Parameters
    ----------
    language : {"es", "nl"}, default="es"
        Spanish or Dutch.
    subset : {"train", "testa", "testb"}, default="train"
        Training data, development data (``testa``) or test data (``testb``).
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
        Dictionary-like object with the following attributes.

        data : list of list of tuple of str
            One list per sentence, one tuple per token: ``(word, pos)`` when the
            file has a part-of-speech column, else ``(word,)``.
        target : list of list of str
            The entity tag of each token.
        columns : tuple of str
            ``("word", "pos")`` or ``("word",)``, the names of the token fields.
        label : str
            ``"ner"``, the name of the label column.
        filename : str
            The file the data was read from.
        DESCR : str
            Description of the data set.

    (data, target) : tuple if ``return_X_y`` is True

    Raises
    ------
    OSError
        When the file is nowhere and downloading is disabled or fails. The
        message names every place looked in, each URL tried and its error.

    See Also
    --------
    load_conll : The reader used here, for any CoNLL column file.

    Notes
    -----
    The Dutch files and NLTK's copy of the Spanish files have a part-of-speech
    column; the Spanish originals do not. The columns are therefore read from
    the file: two fields a line give ``("word",)``, three ``("word", "pos")``.
    Dutch ``-DOCSTART-`` lines are skipped. A local file that is not valid
    UTF-8 (an original copied by hand) is read as Latin-1.

    References
    ----------
    E. F. Tjong Kim Sang (2002). Introduction to the CoNLL-2002 Shared Task:
    Language-Independent Named Entity Recognition. Proceedings of CoNLL-2002.

    Examples
    --------
    >>> from skstruct.datasets import fetch_conll2002
    >>> data = fetch_conll2002("es", "testa")  # doctest: +SKIP
    >>> len(data.data), data.columns, data.target[0][:2]  # doctest: +SKIP
    (1915, ('word', 'pos'), ['B-LOC', 'I-LOC'])
    """
    _check_choice(language, _CONLL2002_LANGUAGES, "language")
    folder = f"conll2002-{language}"
    _check_choice(subset, tuple(URLS[folder]), "subset")
    path, (X, y) = fetch_file(folder, subset, data_home, download_if_missing, _load_conll2002)
    if return_X_y:
        return X, y
    n_fields = len(X[0][0])
    columns = ("word", "pos")[:n_fields] + tuple(f"field{k}" for k in range(2, n_fields))
    return Bunch(
        data=X, target=y, columns=columns, label="ner", filename=str(path), DESCR=DESCR[folder]
    )


def _load_conll2002(path):
    try:
        return load_conll(path, label_column=-1)
    except ConllFormatError as exc:  # bytes that are not UTF-8: a hand-copied Latin-1 original
        if not isinstance(exc.__cause__, UnicodeDecodeError):
            raise
        return load_conll(path, label_column=-1, encoding="latin-1")


def _check_choice(value, choices, name):
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}.")
