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
READ_ONLY_PROCESS = textwrap.dedent(
    """
    import tempfile
    import warnings

    def read_only(*args, dir=None, **kwargs):
        raise PermissionError(13, "Read-only file system", dir)

    tempfile.TemporaryFile = read_only
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import skstruct
        from skstruct import StructuredPerceptron

        X, y = [[{"w": "a"}, {"w": "b"}], [{"w": "b"}]], [["A", "B"], ["B"]]
        model = StructuredPerceptron(max_iter=3, random_state=0).fit(X, y)
        print(model.predict(X))
    from skstruct._kernels._config import NoKernelCacheWarning

    messages = [str(w.message) for w in caught if w.category is NoKernelCacheWarning]
    print(len(messages))
    print(messages[0])
    """
)


def _run(code, **env):
    environ = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=600
    )


def test_import_and_fit_without_a_writable_cache_location():
    done = _run(READ_ONLY_PROCESS, HOME="/nonexistent")
    assert done.returncode == 0, done.stderr
    predicted, n_warnings, message = done.stdout.strip().splitlines()[-3:]
    assert predicted == "[['A', 'B'], ['B']]"
    assert n_warnings == "1"
    assert "NUMBA_CACHE_DIR" in message and "in memory" in message


def test_a_writable_cache_directory_is_used_without_a_warning(tmp_path):
    code = READ_ONLY_PROCESS.replace("tempfile.TemporaryFile = read_only", "pass").replace(
        "print(messages[0])", ""
    )
    done = _run(code, HOME="/nonexistent", NUMBA_CACHE_DIR=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "0"
    assert any(tmp_path.rglob("*.nbi"))  # the kernels went to the directory given
