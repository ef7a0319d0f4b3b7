"""numba's disk cache is never a requirement: with no writable location for it,
``import skstruct`` works, warns once, and the kernels compile in memory."""

import os
import subprocess
import sys
import textwrap

import pytest

from skstruct._kernels._cache_stamp import STAMP, drop_stale_kernels, sources_digest

#: A process where no cache location is writable, as on a read-only install run by a
#: user without a writable home: numba probes each candidate directory by creating a
#: temporary file in it, and here every such attempt fails as on a read-only file
#: system. (Tests run as root cannot make a directory unwritable by permissions.)
READ_ONLY = textwrap.dedent(
    """
    import tempfile

    def read_only(*args, dir=None, **kwargs):
        raise PermissionError(13, "Read-only file system", dir)

    tempfile.TemporaryFile = read_only
    """
)

#: Imports skstruct, decodes with a kernel (compiled now, in memory or into the
#: cache), and prints that kernel's path, where kernels are kept and the warnings.
IMPORT_AND_DECODE = textwrap.dedent(
    """
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import skstruct
        from skstruct.decoders import viterbi

        print(viterbi([[2.0, 0.0], [0.0, 1.0]], [[0.0, -5.0], [-5.0, 0.0]])[0].tolist())
    from skstruct._kernels._config import NoKernelCacheWarning

    messages = [str(w.message) for w in caught if w.category is NoKernelCacheWarning]
    print(skstruct.kernel_cache_dir())
    print(len(messages))
    print(messages[0] if messages else "no warning")
    """
)


def _run(code, **env):
    environ = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    environ.update(env)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-4:]


def test_import_and_decode_without_a_writable_cache_location():
    path, where, n_warnings, message = _run(READ_ONLY + IMPORT_AND_DECODE, HOME="/nonexistent")
    assert path == "[0, 0]"  # the kernel compiled, in memory
    assert where == "None"
    assert n_warnings == "1"
    assert "NUMBA_CACHE_DIR" in message and "in memory" in message


def test_a_writable_cache_directory_is_used_without_a_warning(tmp_path):
    path, where, n_warnings, _ = _run(
        IMPORT_AND_DECODE, HOME="/nonexistent", NUMBA_CACHE_DIR=str(tmp_path)
    )
    assert path == "[0, 0]"
    assert where.startswith(str(tmp_path))
    assert n_warnings == "0"
    assert any(tmp_path.rglob("chain.viterbi-*.nbi"))  # the kernel went to the directory


#: A package of two numba kernels in two files, the caller's cache kept beside it as
#: skstruct's is, and stamped by ``_cache_stamp`` as skstruct's ``_kernels`` are.
TOY_INIT = textwrap.dedent(
    """
    import os

    from skstruct._kernels._cache_stamp import drop_stale_kernels, sources_digest

    here = os.path.dirname(os.path.abspath(__file__))
    drop_stale_kernels(os.path.join(here, "__pycache__"), sources_digest(here))
    """
)
TOY_HELPER = "from numba import njit\n\n@njit(cache=True)\ndef helper(x):\n    return x + 1\n"
TOY_KERNEL = textwrap.dedent(
    """
    from numba import njit

    from .helper import helper

    @njit(cache=True)
    def kernel(x):
        return helper(x) * 2
    """
)
#: The caller's result, and how many of its compiled versions came from the cache.
TOY_RUN = textwrap.dedent(
    """
    from toy.kernel import kernel

    print(kernel(1))
    print(sum(kernel.stats.cache_hits.values()))
    """
)


def test_a_changed_helper_is_compiled_again_not_loaded_stale(tmp_path):
    toy = tmp_path / "toy"
    toy.mkdir()
    (toy / "__init__.py").write_text(TOY_INIT)
    (toy / "helper.py").write_text(TOY_HELPER)
    (toy / "kernel.py").write_text(TOY_KERNEL)

    def run():
        return _run(TOY_RUN, PYTHONPATH=str(tmp_path))[-2:]

    assert run() == ["4", "0"]  # compiled
    assert run() == ["4", "1"]  # the same sources: loaded from the cache
    # the helper changes (to a file of the same size), its caller's file does not:
    # numba alone would load the caller compiled with the old helper and print 4
    (toy / "helper.py").write_text(TOY_HELPER.replace("x + 1", "x + 2"))
    assert run() == ["6", "0"]
    assert run() == ["6", "1"]


def test_kernels_compiled_from_other_sources_are_deleted_and_the_rest_kept(tmp_path):
    compiled = ["chain.viterbi-10.py311.nbi", "chain.viterbi-10.py311.1.nbc"]
    kept = ["chain.cpython-311.pyc", "notes.txt"]
    for name in compiled + kept:
        (tmp_path / name).write_text("x")
    assert drop_stale_kernels(tmp_path, "a" * 40)  # no stamp yet: compiled elsewhere
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*kept, STAMP])
    assert (tmp_path / STAMP).read_text() == "a" * 40 + "\n"
    for name in compiled:
        (tmp_path / name).write_text("x")
    assert not drop_stale_kernels(tmp_path, "a" * 40)  # the same sources: all kept
    assert all((tmp_path / name).exists() for name in compiled)
    assert drop_stale_kernels(tmp_path, "b" * 40)  # other sources: deleted
    assert not any((tmp_path / name).exists() for name in compiled)
    assert (tmp_path / STAMP).read_text() == "b" * 40 + "\n"
    assert not drop_stale_kernels(tmp_path / "new", "b" * 40)  # made, and stamped
    assert (tmp_path / "new" / STAMP).read_text() == "b" * 40 + "\n"


def test_skstructs_kernel_cache_is_stamped_with_its_sources():
    from skstruct._kernels import _config

    assert _config.CACHE  # the suite runs where numba can write
    stamp = os.path.join(_config.kernel_cache_dir(), STAMP)
    with open(stamp) as f:
        assert f.read().strip() == sources_digest(os.path.dirname(_config.__file__))


def test_a_cache_that_cannot_be_cleared_means_compiling_in_memory(monkeypatch):
    from skstruct._kernels import _config

    def fails(cache_dir, digest):
        raise PermissionError(13, "Permission denied", cache_dir)

    monkeypatch.setattr(_config, "drop_stale_kernels", fails)
    with pytest.warns(_config.NoKernelCacheWarning, match="could not clear.*in memory"):
        assert not _config._disk_cache()
