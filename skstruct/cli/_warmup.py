"""``skstruct warmup``: compile the kernels ahead of the first fit."""

from ..compilation import FAMILIES, cache_summary, warmup
from ._common import info


def run_warmup(args):
    """Compile the kernels of the families named (all by default) and print where
    compiled kernels are kept."""
    families = list(FAMILIES) if "all" in args.families else args.families
    seconds = warmup(families)
    for name, took in seconds.items():
        info(args, f"{name}: {took:.1f} s ({FAMILIES[name]})")
    print(cache_summary())
    return 0
