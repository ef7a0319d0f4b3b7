"""numba's disk cache is never a requirement: with no writable location for it,
``import skstruct`` works, warns once, and the kernels compile in memory."""

import os
import subprocess
import sys
import textwrap

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
