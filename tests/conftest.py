"""Shared fixtures: the real corpora under SKSTRUCT_DATA (failing loudly when missing)."""

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Kernels compile (or load from numba's cache) on their first call, inside a test
# example: wall-clock deadlines would flag that, not a slow algorithm.
settings.register_profile("skstruct", deadline=None)
settings.load_profile("skstruct")


@pytest.fixture(scope="session")
def data_home():
    """The folder of the real corpora; a test that needs it fails when it is missing."""
    home = os.environ.get("SKSTRUCT_DATA")
    if not home or not (Path(home) / "conll2000" / "train.txt").is_file():
        pytest.fail(
            "This test needs the real corpora: set SKSTRUCT_DATA to the data folder "
            f"(../shared/data in CI); SKSTRUCT_DATA={home!r} does not hold conll2000/train.txt.",
            pytrace=False,
        )
    return Path(home)


def pytest_collection_modifyitems(items):
    """Every test that reads the real corpora carries the ``data`` marker, so that
    ``-m "not data"`` (e.g. the slow NUMBA_DISABLE_JIT coverage run) leaves all of them out."""
    for item in items:
        if "data_home" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.data)
