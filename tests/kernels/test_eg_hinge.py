"""The EG hinge kernels' sums: numpy's pairwise summation, bit for bit."""

import numpy as np
import pytest

from skstruct._kernels.eg_hinge import pairwise_sum


@pytest.mark.parametrize("seed", range(3))
def test_pairwise_sum_equals_numpy_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    # every path of the summation: < 8 values, one block of 8 accumulators with and
    # without a rest, and the halving above 128 (at lengths not a multiple of 8)
    for n in [*range(0, 140), 255, 256, 257, 520, 1000, 1023, 5003]:
        values = rng.normal(size=n) * 10.0 ** rng.uniform(-8, 8, size=n)
        assert pairwise_sum(values, 0, n) == values.sum(), n
        if n > 3:
            assert pairwise_sum(values, 3, n - 3) == values[3:].sum(), n


def test_pairwise_sum_keeps_infinities_and_signed_zeros():
    assert pairwise_sum(np.array([-np.inf, 1.0, 2.0]), 0, 3) == -np.inf
    assert pairwise_sum(np.zeros(0), 0, 0) == 0.0
    assert np.signbit(pairwise_sum(np.array([-0.0]), 0, 1)) == np.signbit(np.array([-0.0]).sum())
