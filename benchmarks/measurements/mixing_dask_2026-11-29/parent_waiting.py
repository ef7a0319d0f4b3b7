"""Issue 38: what the parent process spends while dask workers compute, through
joblib's dask backend and through the client itself: two 1-second busy tasks on a
``LocalCluster`` of N one-thread workers; the wall clock, the parent's CPU time, and
where the tasks ran.

Run: ``python parent_waiting.py N`` (1 or 2).
"""

import os
import sys
import time

import distributed
import joblib


def busy(seconds):
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        pass
    return os.getpid()


def main():
    n_workers = int(sys.argv[1])
    with (
        distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, host="127.0.0.1",
                                 dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        client.submit(busy, 0.1).result()
        for how in ("joblib", "client", "joblib", "client"):
            used, start = time.process_time(), time.perf_counter()
            if how == "joblib":
                with joblib.parallel_config(backend="dask"):
                    pids = joblib.Parallel(n_jobs=2)(joblib.delayed(busy)(1.0) for _ in range(2))
            else:
                pids = client.gather([client.submit(busy, 1.0, pure=False) for _ in range(2)])
            where = "in the parent" if set(pids) == {os.getpid()} else "on the workers"
            print(f"{n_workers} worker(s), {how}: wall {time.perf_counter() - start:.2f} s, "
                  f"parent CPU {time.process_time() - used:.2f} s, tasks ran {where}",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
