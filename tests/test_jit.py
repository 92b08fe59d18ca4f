"""The numba options of simlib's kernels (``simlib.core.jit``)."""
from __future__ import annotations

import numpy as np
import pytest

from simlib.core.jit import njit_nb, view2d


@njit_nb(cache=False)
def _add(a, k, flag):
    return a + k if flag else a - k


@njit_nb(cache=False)
def _caller(a):
    # constants: numba types them as literals (Literal[int](3), Literal[bool](True))
    return _add(a, 3, True) + _add(a, 4, True) + _add(a, 5, False) + _add(a, a, a > 0)


def test_a_kernel_called_with_different_constants_is_compiled_once():
    """Each literal pattern used to compile (and optimise, with all it calls) its own copy
    of the callee: 275 signatures for the engine's ~130 functions, twice the compile time."""
    assert _caller(10) == 13 + 14 + 5 + 20
    assert len(_add.signatures) == 1, _add.signatures
    (sig,) = _add.signatures
    assert [str(t) for t in sig] == ["int64", "int64", "bool"]


@njit_nb(cache=False)
def _write_view(a, o, rows, cols):
    v = view2d(a, o, rows, cols)
    v[rows - 1, cols - 1] = -1
    return v.shape[0] * 100 + v.shape[1], v[0, 0]


@njit_nb(cache=False)
def _sum_view(a, o, rows, cols):
    return view2d(a, o, rows, cols).sum()


def test_view2d_is_a_view_of_the_part_it_names():
    a = np.arange(20, dtype=np.int64)
    assert _write_view(a, 5, 3, 4) == (304, 5)
    assert a[5 + 3 * 4 - 1] == -1 and a[5 + 3 * 4] == 17  # written through, nothing past it
    ro = np.arange(6, dtype=np.int64)
    ro.flags.writeable = False
    assert _sum_view(ro, 0, 2, 3) == 15  # read-only arrays give read-only views


@pytest.mark.parametrize("o, rows, cols", [(15, 2, 3), (-1, 1, 1), (0, 3, 7), (0, -1, 2)])
def test_view2d_that_does_not_fit_is_an_index_error(o, rows, cols):
    with pytest.raises(IndexError, match="does not fit"):
        _sum_view(np.zeros(20, dtype=np.int64), o, rows, cols)
