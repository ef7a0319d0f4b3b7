"""Small array helpers shared across layers."""

import numpy as np


def concat_ranges(starts, stops):
    """``np.concatenate([np.arange(a, b) for a, b in zip(starts, stops)])``, vectorised."""
    lengths = stops - starts
    firsts = np.zeros(lengths.size, dtype=np.int64)
    np.cumsum(lengths[:-1], out=firsts[1:])
    return np.repeat(starts - firsts, lengths) + np.arange(lengths.sum(), dtype=np.int64)
