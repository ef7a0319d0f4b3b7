"""The kernels' stable argsort against numpy's."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from skstruct._kernels.sorting import _RUN, stable_argsort

argsort = njit(stable_argsort.py_func)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=3 * _RUN + 5), st.booleans())
def test_stable_argsort_is_numpys_stable_argsort(keys, as_float):
    # few distinct keys: most of them tie, where stability shows
    keys = np.array(keys, dtype=np.float64 if as_float else np.int64)
    np.testing.assert_array_equal(argsort(keys), np.argsort(keys, kind="stable"))


@pytest.mark.parametrize("n", [0, 1, _RUN - 1, _RUN, _RUN + 1, 4 * _RUN, 4 * _RUN + 3, 5000])
def test_every_run_and_merge_width(n):
    rng = np.random.default_rng(n)
    for keys in (rng.integers(0, max(n // 4, 1), n), rng.normal(size=n), -np.arange(n)):
        np.testing.assert_array_equal(argsort(keys), np.argsort(keys, kind="stable"))


def test_infinite_keys_sort_as_numbers():
    keys = np.array([0.0, -np.inf, 3.0, np.inf, -np.inf, 0.0])
    np.testing.assert_array_equal(argsort(keys), np.argsort(keys, kind="stable"))
