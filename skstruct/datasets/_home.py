"""Where skstruct keeps its data sets."""

import os
from pathlib import Path

__all__ = ["DATA_ENV_VAR", "candidate_homes", "default_data_home", "get_data_home"]

#: Environment variable naming the data folder (CI sets it to the shared corpora).
DATA_ENV_VAR = "SKSTRUCT_DATA"


def default_data_home():
    """``~/skstruct_data``, with ``~`` expanded at call time."""
    return Path("~", "skstruct_data").expanduser()


def _from_env():
    value = os.environ.get(DATA_ENV_VAR, "")
    return Path(value).expanduser() if value else None


def get_data_home(data_home=None):
    """Return the folder where skstruct keeps its data sets.

    The folder is, in order of preference: ``data_home`` when given, else the
    folder named by the environment variable ``SKSTRUCT_DATA`` when it is set
    and not empty, else ``~/skstruct_data``. Unlike
    :func:`sklearn.datasets.get_data_home` the folder is not created here: the
    ``fetch_*`` functions create it only when they download something.

    Parameters
    ----------
    data_home : str or path-like, default=None
        An explicit folder. ``~`` is expanded.

    Returns
    -------
    data_home : pathlib.Path
        The folder (it may not exist).

    See Also
    --------
    fetch_conll2000, fetch_conll2002 : Read (or download) into this folder.

    Examples
    --------
    >>> from skstruct.datasets import get_data_home
    >>> get_data_home("/srv/corpora").as_posix()
    '/srv/corpora'
    """
    if data_home is not None:
        return Path(os.fspath(data_home)).expanduser()
    return _from_env() or default_data_home()


def candidate_homes(data_home=None):
    """Folders to look in, most preferred first, without duplicates.

    ``data_home`` (when given), then ``$SKSTRUCT_DATA`` (when set), then
    ``~/skstruct_data``. The first one is also where :func:`get_data_home`
    points, that is where a download goes.
    """
    homes = []
    if data_home is not None:
        homes.append(get_data_home(data_home))
    env = _from_env()
    if env is not None:
        homes.append(env)
    homes.append(default_data_home())
    unique = []
    for home in homes:
        if home not in unique:
            unique.append(home)
    return unique
