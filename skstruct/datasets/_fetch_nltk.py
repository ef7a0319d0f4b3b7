"""Loaders of the corpora taken from NLTK's data packages: Brown, the PTB sample, CoNLL-2007."""

from sklearn.utils import Bunch

from ._conll import load_conll
from ._conllu import load_conllu
from ._descr import DESCR
from ._download import fetch_file
from ._fetch import _check_choice
from ._ptb import load_ptb, tagged_words
from ._sources import FILES

__all__ = ["fetch_brown", "fetch_conll2007", "fetch_ptb_sample", "fetch_treebank"]

_CONLL2007_LANGUAGES = ("es", "eu")


def fetch_brown(*, data_home=None, download_if_missing=True, return_X_y=False):
    """Load the Brown corpus with its part-of-speech tags (download it if necessary).

    The file ``brown/brown.tsv`` is looked for in ``data_home``, then in
    ``$SKSTRUCT_DATA``, then in ``~/skstruct_data``. When it is in none of them
    and ``download_if_missing`` is True, NLTK's ``brown`` data package is
    downloaded from ``URLS["brown"]["all"]`` and converted into that file (one
    ``word<TAB>tag`` line a token, a blank line between sentences, the 500 text
    files in order from ``ca01``) under :func:`get_data_home(data_home)
    <get_data_home>`.

    =================  ===========================================
    Sentences          57,340
    Tokens             1,161,192
    Token fields       word
    Labels             Brown tags, lowercase as written (472)
    =================  ===========================================

    Parameters
    ----------
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
            One list per sentence, one ``(word,)`` tuple per token.
        target : list of list of str
            The tag of each token, e.g. ``"at"``, ``"np-tl"``.
        columns : tuple of str
            ``("word",)``, the names of the fields of each token tuple.
        label : str
            ``"tag"``, the name of the label column.
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
    W. N. Francis and H. Kucera (1979). Brown Corpus Manual. Department of
    Linguistics, Brown University.

    Examples
    --------
    >>> from skstruct.datasets import fetch_brown
    >>> X, y = fetch_brown(return_X_y=True)  # doctest: +SKIP
    >>> len(X), X[0][:2], y[0][:2]  # doctest: +SKIP
    (57340, [('The',), ('Fulton',)], ['at', 'np-tl'])
    """

    def load(path):
        return load_conll(path, columns=("word", "tag"), label_column="tag", sep="\t")

    path, (X, y) = fetch_file("brown", "all", data_home, download_if_missing, load)
    if return_X_y:
        return X, y
    return Bunch(
        data=X, target=y, columns=("word",), label="tag", filename=str(path), DESCR=DESCR["brown"]
    )


def fetch_ptb_sample(subset="train", *, data_home=None, download_if_missing=True, return_X_y=False):
    """Load the dependency trees of the Penn Treebank sample (download them if necessary).

    The file ``ptb-sample/{subset}.conllu`` is looked for in ``data_home``, then
    in ``$SKSTRUCT_DATA``, then in ``~/skstruct_data``. When it is in none of
    them and ``download_if_missing`` is True, NLTK's ``dependency_treebank``
    data package (WSJ files 0001-0199 in Malt-TAB) is downloaded from
    ``URLS["ptb-sample"][subset]`` and converted into the three CoNLL-U files
    (``ID FORM _ _ XPOS _ HEAD DEPREL _ _``; DEPREL is ``_`` when the package
    has no label) under :func:`get_data_home(data_home) <get_data_home>`.

    ===================  ==========================================
    Files                train wsj_0001-0159, dev 0160-0179,
                         test 0180-0199
    Sentences            3,396 / 273 / 245
    Tokens (train)       81,793
    Token fields         id, form, xpos (Penn Treebank tag)
    Target               unlabelled heads (0 is the root)
    ===================  ==========================================

    Parameters
    ----------
    subset : {"train", "dev", "test"}, default="train"
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

        data : list of list of dict
            One list per sentence, one token dict per token, as
            :func:`load_conllu` gives them (``"form"``, ``"xpos"``, ...).
        target : list of list of int
            The head of each token (1-based, 0 for the root).
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
    load_conllu : The reader used here, for any CoNLL-U or CoNLL-X file.

    Notes
    -----
    The same text serves part-of-speech tagging: take ``token["xpos"]`` as the
    label of each token.

    Examples
    --------
    >>> from skstruct.datasets import fetch_ptb_sample
    >>> X, heads = fetch_ptb_sample("test", return_X_y=True)  # doctest: +SKIP
    >>> len(X), [t["form"] for t in X[0][:2]]  # doctest: +SKIP
    (245, ['Genetics', 'Institute'])
    """
    _check_choice(subset, tuple(FILES["ptb-sample"]), "subset")
    path, (X, y) = fetch_file("ptb-sample", subset, data_home, download_if_missing, load_conllu)
    if return_X_y:
        return X, y
    return Bunch(data=X, target=y, filename=str(path), DESCR=DESCR["ptb-sample"])


def fetch_conll2007(
    language="es",
    subset="train",
    *,
    labelled=False,
    data_home=None,
    download_if_missing=True,
    return_X_y=False,
):
    """Load a CoNLL-2007 dependency treebank from NLTK's subset (download it if necessary).

    The file ``conll2007-{language}/{subset}.conll`` is looked for in
    ``data_home``, then in ``$SKSTRUCT_DATA``, then in ``~/skstruct_data``. When
    it is in none of them and ``download_if_missing`` is True, NLTK's
    ``conll2007`` data package is downloaded from
    ``URLS[f"conll2007-{language}"][subset]`` and its CoNLL-X files of that
    language are written, in UTF-8, under :func:`get_data_home(data_home)
    <get_data_home>`.

    ==========================  ====================================
    Sentences (es train/test)   2,949 / 563
    Token fields                CoNLL-X columns (form, lemma, cpos,
                                xpos, feats, ...)
    Target                      heads, or (head, deprel) pairs
    ==========================  ====================================

    Parameters
    ----------
    language : {"es", "eu"}, default="es"
        Spanish (Cast3LB: the files NLTK names CoNLL-2007 hold the CoNLL-X
        2006 Spanish treebank) or Basque (the Basque files are Latin-1 in the
        package and converted to UTF-8).
    subset : {"train", "test"}, default="train"
        Which part of the data to load.
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
        Dictionary-like object with the following attributes.

        data : list of list of dict
            One list per sentence, one token dict per token, as
            :func:`load_conllu` gives them.
        target : list of list of int or of tuple
            The head of each token, or its ``(head, deprel)`` pair when
            ``labelled`` is True.
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
    load_conllu : The reader used here, for any CoNLL-U or CoNLL-X file.

    References
    ----------
    J. Nivre, J. Hall, S. Kübler, R. McDonald, J. Nilsson, S. Riedel and
    D. Yuret (2007). The CoNLL 2007 Shared Task on Dependency Parsing.
    Proceedings of EMNLP-CoNLL 2007, 915-932.

    Examples
    --------
    >>> from skstruct.datasets import fetch_conll2007
    >>> data = fetch_conll2007("es", "train", labelled=True)  # doctest: +SKIP
    >>> len(data.data), data.data[0][1]["form"], data.target[0][1]  # doctest: +SKIP
    (2949, 'aumento', (8, 'SUJ'))
    """
    _check_choice(language, _CONLL2007_LANGUAGES, "language")
    folder = f"conll2007-{language}"
    _check_choice(subset, tuple(FILES[folder]), "subset")

    def load(path):
        X, y = load_conllu(path, labelled=labelled)
        # PHEAD and PDEPREL (``deps``, ``misc`` as load_conllu reads CoNLL-X) copy the
        # gold HEAD and DEPREL in these files: never let them reach a feature
        for sentence in X:
            for token in sentence:
                token["deps"] = token["misc"] = None
        return X, y

    path, (X, y) = fetch_file(folder, subset, data_home, download_if_missing, load)
    if return_X_y:
        return X, y
    return Bunch(data=X, target=y, filename=str(path), DESCR=DESCR[folder])


def fetch_treebank(subset="train", *, data_home=None, download_if_missing=True, return_X_y=False):
    """Load the constituency trees of the Penn Treebank sample (download them if
    necessary).

    The file ``treebank/{subset}.mrg`` is looked for in ``data_home``, then in
    ``$SKSTRUCT_DATA``, then in ``~/skstruct_data``. When it is in none of them and
    ``download_if_missing`` is True, NLTK's ``treebank`` data package is downloaded
    from ``URLS["treebank"][subset]`` and its files ``treebank/combined/wsj_*.mrg``
    are split into the three files (by file number, as :func:`fetch_ptb_sample`
    splits the same text) under :func:`get_data_home(data_home) <get_data_home>`,
    atomically.

    ===================  ==========================================
    Files                train wsj_0001-0159, dev 0160-0179,
                         test 0180-0199
    Trees                3,396 / 273 / 245
    Data                 words with their tags (``form``, ``xpos``)
    Target               trees, as read (function tags, empty elements)
    ===================  ==========================================

    Parameters
    ----------
    subset : {"train", "dev", "test"}, default="train"
    data_home : str or path-like, default=None
    download_if_missing : bool, default=True
    return_X_y : bool, default=False
        If True, return ``(data, target)`` instead of a Bunch.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        ``data``: per tree, its words as token dicts ``{"form", "xpos"}`` (empty
        elements left out); ``target``: the :class:`~skstruct.trees.Tree` objects;
        ``filename``; ``DESCR``.

    Examples
    --------
    >>> from skstruct.datasets import fetch_treebank
    >>> X, trees = fetch_treebank("test", return_X_y=True)  # doctest: +SKIP
    >>> len(trees), X[0][0]  # doctest: +SKIP
    (245, {'form': 'Genetics', 'xpos': 'NNP'})
    """
    _check_choice(subset, tuple(FILES["treebank"]), "subset")
    path, trees = fetch_file("treebank", subset, data_home, download_if_missing, load_ptb)
    X = [tagged_words(tree) for tree in trees]
    if return_X_y:
        return X, trees
    return Bunch(data=X, target=trees, filename=str(path), DESCR=DESCR["treebank"])
