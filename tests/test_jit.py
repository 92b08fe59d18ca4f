"""The numba options of simlib's kernels (``simlib.core.jit``)."""
from __future__ import annotations

from simlib.core.jit import njit_nb


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
