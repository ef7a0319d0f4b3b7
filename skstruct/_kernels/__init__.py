"""All numba code of skstruct: loops over plain arrays, no Python objects inside.

Kernels take arrays and scalars and return arrays. Each has a pure-Python twin in
``tests/naive.py`` that the test suite checks it against.
"""
