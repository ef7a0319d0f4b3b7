"""The local dask cluster of the mixing benchmarks."""

import contextlib
import os

import joblib

#: glibc's setting that dask's nannies put in every worker's environment by default.
TRIM = "MALLOC_TRIM_THRESHOLD_"


@contextlib.contextmanager
def local_dask(n_workers, glibc_malloc=False):
    """Inside: joblib's dask backend on a ``LocalCluster`` of ``n_workers`` processes of one
    thread each (no dashboard), with its client.

    ``glibc_malloc``: start the workers without the ``MALLOC_TRIM_THRESHOLD_=65536`` that
    dask's nannies set (dask's way to hand freed memory back to the system). Setting it
    also fixes glibc's mmap threshold at 128 KiB, so that every larger block a task
    allocates is a fresh mapping, faulted in page by page; unset, glibc's defaults hold,
    as in loky's workers (see ``docs/guide/mixing.md``).

    The nannies of a ``LocalCluster`` run in this process and copy their workers'
    settings into ``os.environ`` before starting them, where every process started later
    would inherit them (loky's workers too): they are put back as they were on the way
    out, and with ``glibc_malloc`` the variable is also left out while the workers start.
    """
    import dask
    import distributed  # noqa: F401 (its settings join dask's config on import)

    names = {*dask.config.get("distributed.nanny.pre-spawn-environ"), "PYTHONHASHSEED"}
    before = {name: os.environ.get(name) for name in names}
    settings = {}
    if glibc_malloc:
        settings[f"distributed.nanny.pre-spawn-environ.{TRIM}"] = None
        os.environ.pop(TRIM, None)
    try:
        with _cluster(n_workers, settings):
            yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextlib.contextmanager
def _cluster(n_workers, settings):
    import dask
    import distributed

    with (
        dask.config.set(settings),
        distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, host="127.0.0.1",
                                 dashboard_address=":0") as cluster,
        distributed.Client(cluster),
        joblib.parallel_config(backend="dask"),
    ):  # fmt: skip
        yield
