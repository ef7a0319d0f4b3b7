"""The local dask cluster of the mixing benchmarks."""

import contextlib

import joblib


@contextlib.contextmanager
def local_dask(n_workers):
    """Inside: joblib's dask backend on a ``LocalCluster`` of ``n_workers`` processes of one
    thread each (no dashboard), with its client."""
    import distributed

    with (
        distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, host="127.0.0.1",
                                 dashboard_address=":0") as cluster,
        distributed.Client(cluster),
        joblib.parallel_config(backend="dask"),
    ):  # fmt: skip
        yield
