"""What the stamp check costs each process that imports skstruct's kernels: the digest
of the kernel sources and the stamp's comparison, the cache valid (the usual case)."""

import os
import timeit

from skstruct._kernels import _config
from skstruct._kernels._cache_stamp import drop_stale_kernels, sources_digest

folder = os.path.dirname(_config.__file__)
where = _config.kernel_cache_dir()
sources = [os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".py")]
size = sum(os.path.getsize(path) for path in sources)
n = 200
seconds = timeit.timeit(lambda: drop_stale_kernels(where, sources_digest(folder)), number=n) / n
print(f"kernel sources: {size / 1024:.0f} KiB; digest and stamp check: {seconds * 1e3:.2f} ms")
