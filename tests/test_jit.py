"""The numba options of simlib's kernels (``simlib.core.jit``)."""
from __future__ import annotations

import numpy as np
import pytest

from simlib.core import numba_patches
from simlib.core.jit import at, njit_nb, packed_part

patched = pytest.mark.skipif(not numba_patches.STATE["on"],
                             reason=f"numba patches {numba_patches.STATE['reason']}")


@njit_nb(cache=False)
def _add(a, k, flag):
    return a + k if flag else a - k


@njit_nb(cache=False)
def _caller(a):
    # constants: numba types them as literals (Literal[int](3), Literal[bool](True))
    return _add(a, 3, True) + _add(a, 4, True) + _add(a, 5, False) + _add(a, a, a > 0)


def test_a_kernel_called_with_different_constants_is_compiled_once():
    """Each literal pattern would compile (and optimise, with all it calls) its own copy
    of the callee."""
    assert _caller(10) == 13 + 14 + 5 + 20
    assert len(_add.signatures) == 1, _add.signatures
    (sig,) = _add.signatures
    assert [str(t) for t in sig] == ["int64", "int64", "bool"]


_head = packed_part("_head", 0, 3)  # a[a[0]:a[0] + 3]
_grid = packed_part("_grid", 1, at(2), 4)  # (a[2], 4) from a[1]
_words = packed_part("_words", 0, at(3), dtype=np.uint64)


@njit_nb(cache=False)
def _write_parts(a):
    g = _grid(a)
    g[g.shape[0] - 1, 3] = -1
    return g.shape[0] * 100 + g.shape[1], g[0, 0], _head(a)[2], _words(a)[0]


@njit_nb(cache=False)
def _sum_grid(a):
    return _grid(a).sum()


def test_a_packed_part_is_a_view_of_the_part_it_names():
    a = np.arange(20, dtype=np.int64)
    a[:4] = [6, 5, 3, 2]  # head at 6 (3 long), grid at 5 (3 x 4), words at 6 (2 long)
    assert _write_parts(a) == (304, 5, 8, np.uint64(6))
    assert a[5 + 3 * 4 - 1] == -1 and a[5 + 3 * 4] == 17  # written through, nothing past it
    ro = a.copy()
    ro.flags.writeable = False
    assert _sum_grid(ro) == a[5:17].sum()  # read-only arrays give read-only views


@pytest.mark.parametrize("offset, rows", [(15, 2), (-1, 1), (0, 7), (0, -1)])
def test_a_packed_part_that_does_not_fit_is_an_index_error(offset, rows):
    a = np.zeros(20, dtype=np.int64)
    a[1], a[2] = offset, rows  # the grid: (rows, 4) from a[offset]
    with pytest.raises(IndexError, match="_grid: the part does not fit"):
        _sum_grid(a)


def test_a_packed_part_reads_no_slot_past_the_end():
    with pytest.raises(IndexError, match="_grid: the part does not fit"):
        _sum_grid(np.zeros(2, dtype=np.int64))  # a[2] (its rows) is past the end


@njit_nb(cache=False)
def _fib(n):
    if n < 2:
        return n
    return _fib(n - 1) + _fib(n - 2)  # recursive: LLVM cannot inline it away


@njit_nb(cache=False)
def _uses_fib(n):
    return _fib(n) + 1


@njit_nb(cache=False)
def _fib_plus(n, k):
    return _fib(n) + k


@njit_nb(cache=False)
def _uses_fib_plus(n):
    return _fib_plus(n, 2)


@patched
def test_a_kernel_called_from_python_runs_its_own_optimised_copies():
    """What a Python-called kernel links in must be private to it: left ``linkonce_odr``,
    the execution engine of the compiling process would resolve those names to the
    callees' own code, compiled without the module optimisation (the game ran slower in
    the process that compiled it; simlib.core.numba_patches, "an entry's own copies").
    And private, not internal: an internal copy keeps its name in the machine code, and a
    kernel compiled later and called from Python would resolve its callee's name to that
    copy, which LLVM had been free to change (a crash in ``Game.result``)."""
    import llvmlite.binding as ll

    assert _uses_fib(10) == 56
    lib = _uses_fib.overloads[_uses_fib.signatures[0]].library
    defined = {fn.name: fn.linkage for fn in lib._final_module.functions if not fn.is_declaration}
    fib = [name for name in defined if "_fib" in name and "_uses_fib" not in name]
    assert fib, sorted(defined)  # the callee's copy is in the caller's module ...
    assert all(defined[name] == ll.Linkage.private for name in fib), defined  # ... its own
    assert not [n for n, k in defined.items() if k == ll.Linkage.linkonce_odr], defined
    # a kernel compiled as a callee of another (its callee _fib resolved by name), then
    # called from Python, runs _fib's own code
    assert _uses_fib_plus(10) == 57
    assert _fib_plus(12, 1) == 145


@njit_nb(cache=False)
def _checked_twice(a, i):
    if i >= a.shape[0]:
        raise IndexError("past the end")
    return a[i] * 2


@njit_nb(cache=False)
def _uses_checked_twice(a, i):
    return _checked_twice(a, i) + 1


@patched
def test_a_callee_has_no_code_of_its_own_until_python_calls_it():
    """A kernel compiled because a caller was typed (an intermediate) is linked into the
    caller, which runs its own private copy; the intermediate's own compiled copy has no
    machine code and no wrappers (simlib.core.numba_patches, "an intermediate without
    machine code": a shorter cold compile).  Called from Python, the kernel is compiled anew
    as a kernel Python calls: it runs and raises, and callers, old and new, still work."""
    a = np.arange(5, dtype=np.int64)
    assert _uses_checked_twice(a, 3) == 7
    lib = _checked_twice.overloads[_checked_twice.signatures[0]].library
    assert lib._simlib_no_code  # typed and linked, never emitted
    assert not any("cpython" in fn.name for fn in lib._final_module.functions
                   if not fn.is_declaration)  # no Python wrapper lowered
    assert _checked_twice(a, 4) == 8  # Python calls it: compiled anew, with its wrapper
    new = _checked_twice.overloads[_checked_twice.signatures[0]].library
    assert new is not lib and not getattr(new, "_simlib_no_code", False)
    with pytest.raises(IndexError, match="past the end"):
        _checked_twice(a, 5)
    with pytest.raises(IndexError, match="past the end"):
        _uses_checked_twice(a, 7)
    assert len(_checked_twice.signatures) == 1  # replaced, not added
    # a kernel typed afterwards links the new copy
    assert _uses_checked_twice_later(a, 2) == 5


@njit_nb(cache=False)
def _uses_checked_twice_later(a, i):
    return _checked_twice(a, i) + 1


@patched
def test_compile_flags_compare_and_hash_as_numba_does():
    """``simlib.core.numba_patches`` replaces numba's ``TargetConfig`` values, hash and
    equality by cheaper ones; they must give numba's own answers."""
    from numba.core.compiler import Flags
    from numba.core.targetconfig import TargetConfig

    values, hash_, eq = TargetConfig._simlib_numba  # numba's originals
    a, b, c = Flags(), Flags(), Flags()
    a.nrt = True
    b.nrt = True
    c.nrt = True
    c.boundscheck = False  # explicitly set to its default: still equal to b
    d = Flags()
    d.nrt = False
    for x in (a, b, c, d, Flags()):
        assert x.values() == values(x)
        assert list(x.values()) == list(values(x))  # same order
        assert hash(x) == hash_(x)
        for y in (a, b, c, d, Flags()):
            assert (x == y) == eq(x, y)
    assert a == b == c and a != d
    assert (a == object()) is False
    cache = {(1, a): "x"}
    assert cache[(1, c)] == "x"  # a dict key as numba's overload cache uses it


@patched
def test_lowering_probes_do_not_refresh_the_registries():
    """An ``__array__`` / ``static_getitem`` probe that misses is answered without a
    registry refresh; other lookups keep numba's refresh; and
    numba's error text is the same as numba builds it."""
    from numba.core import errors, types
    from numba.core.registry import cpu_target
    from numba.core.typing import signature

    ctx = cpu_target.target_context
    calls = []
    refresh = type(ctx).refresh
    try:
        type(ctx).refresh = lambda self: calls.append(1) or refresh(self)
        arr = types.Array(types.int64, 1, "C")
        with pytest.raises(NotImplementedError):
            ctx.get_function("__array__", signature(arr, arr))
        assert calls == []
        with pytest.raises(NotImplementedError):
            ctx.get_function("no such function", signature(arr, arr))
        assert calls == [1]  # any other miss still refreshes once
    finally:
        type(ctx).refresh = refresh
    scheme = getattr(errors, "HighlightColorScheme", None)
    if scheme is not None:
        s = scheme()
        for msg in ("plain", "Cannot determine Numba type of <class 'object'>", "é ü"):
            for m in ("code", "errmsg", "filename", "indicate", "highlight", "reset"):
                ours = getattr(s, m)(msg)
                theirs = scheme._simlib_numba_markup(s, msg, getattr(s, "_" + m))
                assert ours == theirs


@njit_nb(cache=False)
def _static_items(a, t):
    a[1] = t[0] + t[1]  # constant indices: static_setitem / static_getitem probes
    return a[1] + t[2]


def test_kernels_with_constant_indices_still_compile_and_run():
    a = np.zeros(3, dtype=np.int64)
    assert _static_items(a, (1, 2, 3)) == 6
    assert a[1] == 3
