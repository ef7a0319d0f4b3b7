"""Shared fixtures: the real corpora under SKSTRUCT_DATA (failing loudly when missing)."""

import os
from pathlib import Path

import pytest


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
