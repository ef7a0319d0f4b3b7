"""pytest plugin: run only the tests whose node id is in ``$KEEP_IDS`` (one id a line).

Loaded with ``-p baseline_subset`` (this folder on ``PYTHONPATH``), it leaves pytest's
arguments alone, so the suite still starts from its test paths and runs the kernel
warm-up of ``tests/conftest.py`` as the README's command does; the other tests are
deselected."""

import os


def _kept():
    with open(os.environ["KEEP_IDS"]) as f:
        return {line.strip() for line in f if line.strip()}


def pytest_collection_modifyitems(config, items):
    keep = _kept()
    dropped = [item for item in items if item.nodeid not in keep]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item.nodeid in keep]
