"""The one place that sets numba options for every kernel of simlib.

``njit_nb`` is ``numba.njit`` with ``cache=True`` (compile once per machine, reuse from
``__pycache__``) and ``nogil=True`` (threads of the Dask backend run kernels in
parallel).  ``njit_parallel_nb`` adds ``parallel=True`` for the batch kernels that use
``prange``.  Any opt-out carries its reason where it is used.
"""
from __future__ import annotations

import numba

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")


def njit_nb(*args, **kwargs):
    """``numba.njit`` with simlib's defaults; works as ``@njit_nb`` or ``@njit_nb(...)``."""
    opts = dict(JIT_OPTIONS)
    opts.update(kwargs)
    if args and callable(args[0]):
        return numba.njit(**opts)(args[0])
    return numba.njit(*args, **opts)


def njit_parallel_nb(fn=None, **kwargs):
    """``njit_nb`` with ``parallel=True`` (for batch kernels with ``prange``)."""
    opts = dict(JIT_OPTIONS, parallel=True)
    opts.update(kwargs)
    if fn is not None:
        return numba.njit(**opts)(fn)
    return numba.njit(**opts)
