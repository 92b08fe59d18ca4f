"""The one place that sets numba options for every kernel of simlib.

``njit_nb``
    ``numba.njit`` with ``cache=True`` (compile once per machine, reuse from
    ``__pycache__``), ``nogil=True`` (threads of the Dask backend run kernels in
    parallel) and **no NRT** (``_nrt=False``): these kernels never allocate, and without
    the runtime numba does not reference-count the arrays passed to every call.  Game
    kernels pass the game's state as a tuple of arrays to hundreds of small functions per
    game; with reference counting each call cost ~250 ns of atomic operations (and the
    shared ruleset arrays' counters made threads contend), without it ~2 ns.
``njit_alloc_nb``
    The same with the runtime on: for the few kernels that allocate arrays (a game's
    state, a batch's buffers).
``njit_parallel_nb``
    ``njit_alloc_nb`` with ``parallel=True`` for batch kernels that use ``prange``.

Compiled kernels are cached on disk in ``~/.cache/simlib/numba/<hash of the kernel
sources>`` (or ``$NUMBA_CACHE_DIR`` when set); see ``_set_cache_dir``.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

_PACKAGE = Path(__file__).resolve().parent.parent


def kernel_source_hash() -> str:
    """Hash of every source file kernels are compiled from (``*_nb.py``, jit, rng, codes)."""
    files = sorted(_PACKAGE.rglob("*_nb.py")) + [_PACKAGE / "core" / "jit.py",
                                                  _PACKAGE / "core" / "rng.py"]
    files += sorted(_PACKAGE.glob("*/codes.py"))
    h = hashlib.sha256()
    for f in files:
        h.update(f.relative_to(_PACKAGE).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _set_cache_dir() -> None:
    """numba's on-disk cache checks only the file a kernel is defined in, not the kernels
    it calls in other files: an edited policy would run with a stale game kernel.  Unless
    the user chose NUMBA_CACHE_DIR, keep the cache in a folder named by the hash of all
    kernel sources, so any edit compiles afresh."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "simlib" / "numba"
    numba.config.CACHE_DIR = str(base / kernel_source_hash())


_set_cache_dir()

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")


def _jit(fn, opts, kwargs):
    opts = dict(opts)
    opts.update(kwargs)
    if fn is not None:
        return numba.njit(**opts)(fn)
    return numba.njit(**opts)


def njit_nb(fn=None, **kwargs):
    """``numba.njit`` for kernels that never allocate (no reference counting)."""
    return _jit(fn, dict(JIT_OPTIONS, _nrt=False), kwargs)


def njit_alloc_nb(fn=None, **kwargs):
    """``numba.njit`` for kernels that allocate arrays (runtime on)."""
    return _jit(fn, JIT_OPTIONS, kwargs)


def njit_parallel_nb(fn=None, **kwargs):
    """``njit_alloc_nb`` with ``parallel=True`` (batch kernels with ``prange``)."""
    return _jit(fn, dict(JIT_OPTIONS, parallel=True), kwargs)
