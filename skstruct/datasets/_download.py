"""Local-first lookup of a corpus file, and its atomic cached download."""

import contextlib
import gzip
import http.client
import io
import os
import tempfile
import urllib.request
import zipfile
import zlib
from pathlib import Path

from . import _nltk
from ._home import DATA_ENV_VAR, candidate_homes, get_data_home
from ._sources import FETCHERS, FILES, URLS

__all__ = ["DOWNLOAD_TIMEOUT", "fetch_file"]

#: Seconds to wait for the server before a download attempt fails.
DOWNLOAD_TIMEOUT = 60

# Errors that mean "this download attempt failed": network and HTTP errors
# (URLError is an OSError), a corrupt or truncated gzip stream or zip archive, an
# archive without the expected members or a file not in the expected format
# (ConllFormatError is a ValueError).
_DOWNLOAD_ERRORS = (
    OSError,
    ValueError,
    EOFError,
    zlib.error,
    zipfile.BadZipFile,
    http.client.HTTPException,
)


def fetch_file(folder, subset, data_home, download_if_missing, load):
    """Return ``(path, load(path))`` for file ``subset`` of corpus ``folder``.

    The file is looked for under every :func:`candidate_homes` folder in turn.
    When it is in none of them, each of ``URLS[folder][subset]`` is tried until
    one gives the file: the files it holds (all those of ``folder`` when it is a
    zip archive) are written beside their final names, the requested one is
    checked by ``load``, and only then are they all renamed into place.
    """
    name = FILES[folder][subset]
    relative = Path(folder, name)
    looked = [home / relative for home in candidate_homes(data_home)]
    for path in looked:
        if path.is_file():
            return path, load(path)

    where = ", ".join(str(path) for path in looked)
    what = f"{folder} subset {subset!r} ({relative.as_posix()}) not found in {where}"
    if not download_if_missing:
        hint = (
            f"Put {folder}/ in one of those places, or set {DATA_ENV_VAR} to a folder that "
            f"holds it, or call {FETCHERS[folder]} with download_if_missing=True."
        )
        raise OSError(f"{what}, and download_if_missing=False. {hint}")

    target = get_data_home(data_home) / relative
    urls = URLS[folder][subset]
    urls = (urls,) if isinstance(urls, str) else tuple(urls)
    failures = []
    for url in urls:
        try:
            files = _unpack(folder, name, _get(url))
            return target, _install(target.parent, files, name, load)
        except _DOWNLOAD_ERRORS as exc:
            failures.append(f"  - {url} ({type(exc).__name__}: {exc})")
    tried = "\n".join(failures)
    hint = (
        f"To fix: set {DATA_ENV_VAR} to a folder that holds {relative.as_posix()} (the data "
        f"layout is in the 'Data sets' page of the documentation), or run {FETCHERS[folder]} "
        f"where one of those URLs can be reached and copy the {folder}/ folder it makes into "
        f"{target.parent.parent}."
    )
    raise OSError(f"{what}, and downloading it to {target} failed:\n{tried}\n{hint}")


def _get(url):
    request = urllib.request.Request(url, headers={"User-Agent": "skstruct-datasets"})
    with urllib.request.urlopen(request, timeout=DOWNLOAD_TIMEOUT) as response:
        return response.read()


def _unpack(folder, name, payload):
    """``{file name: text}`` from a download: a zip archive, or the file ``name`` itself."""
    if payload[:2] == b"\x1f\x8b":  # gzip magic number, whatever the URL says
        payload = gzip.decompress(payload)
    if payload[:4] == b"PK\x03\x04":  # a zip archive: one of NLTK's data packages
        with zipfile.ZipFile(io.BytesIO(payload)) as archive:
            return _nltk.extract(folder, archive)
    return {name: _nltk.decode(payload)}


def _install(folder, files, name, load):
    """Write ``files`` into ``folder`` atomically once ``load`` accepts file ``name``.

    Every file goes to a temporary file beside its final name; the requested one
    is loaded from there (so a broken download is never kept), and then all are
    renamed into place. Other files of the folder that are already there are
    left as they are.
    """
    if name not in files:
        raise ValueError(f"the download does not hold {name}")
    folder.mkdir(parents=True, exist_ok=True)
    temporary = {}
    try:
        for file_name, text in files.items():
            if file_name != name and (folder / file_name).exists():
                continue
            temporary[file_name] = _write_temporary(folder / file_name, text)
        data = load(temporary[name])
        for file_name, tmp_name in temporary.items():
            os.replace(tmp_name, folder / file_name)
    except BaseException:
        for tmp_name in temporary.values():
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp_name)
        raise
    return data


def _write_temporary(target, text):
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as tmp:
            tmp.write(text)
        os.chmod(tmp_name, 0o644)  # mkstemp makes 0600 files
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    return tmp_name
