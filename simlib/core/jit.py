"""The one place that sets numba options for every kernel of simlib.

``njit_nb``
    ``numba.njit`` with ``cache=True`` (compile once per machine, reuse from the disk
    cache), ``nogil=True`` (threads of the Dask backend run kernels in parallel) and **no
    NRT** (``_nrt=False``): these kernels never allocate, and without the runtime numba
    does not reference-count the arrays passed to every call (game kernels pass the
    game's state as a tuple of arrays to hundreds of small functions per game, and the
    shared ruleset arrays' counters would make threads contend).
``njit_alloc_nb``
    The same with the runtime on: for the few kernels that allocate arrays (a game's
    state, a batch's buffers).
``njit_parallel_nb``
    ``njit_alloc_nb`` with ``parallel=True`` for batch kernels that use ``prange``.

Each takes ``entry=True`` for a hot kernel that Python calls *and* other kernels call
(the batch entries): it is always compiled with LLVM's module optimisation
(:mod:`simlib.core.numba_patches`, installed when this module is imported).

Compiled kernels are cached on disk in ``<base>/<game>-<hash of that game's kernel
sources>``, where ``<base>`` is ``$NUMBA_CACHE_DIR`` when set, else
``~/.cache/simlib/numba``; see :func:`cache_dir`.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba
import numpy as np
from numba.core import cgutils, types
from numba.core.errors import TypingError
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from . import numba_patches
from .numba_patches import COMPILING as _COMPILING

_PACKAGE = Path(__file__).resolve().parent.parent
# core modules every game's kernels are compiled with (their edits recompile every game)
_CORE_SOURCES = ("core/jit.py", "core/rng.py", "core/gamelog_nb.py", "core/numba_patches.py")


def kernel_source_hash(group: str | None = None) -> str:
    """Hash of the source files kernels are compiled from.

    ``group`` is a game package's folder relative to ``simlib/`` (``"games/until_daylight"``,
    ``"games/till_dawn"``): the hash covers that package's ``*_nb.py``, every module of its
    ``kernels/`` folder and ``codes.py``, plus the core's modules in ``_CORE_SOURCES``.
    ``None``: every kernel source of simlib.
    """
    core = [_PACKAGE / c for c in _CORE_SOURCES]
    d = _PACKAGE if group is None else _PACKAGE / group
    files = set(d.rglob("*_nb.py")) | set(d.rglob("kernels/*.py")) | set(d.rglob("codes.py"))
    h = hashlib.sha256()
    for f in sorted(files) + core:
        h.update(f.relative_to(_PACKAGE).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def group_of(module: str | None) -> str | None:
    """The game package a kernel's module belongs to (``None``: the core)."""
    parts = (module or "").split(".")
    if len(parts) >= 3 and parts[:2] == ["simlib", "games"]:
        return "games/" + parts[2]
    if len(parts) >= 2 and parts[0] == "simlib" and parts[1] not in ("core", "games"):
        return parts[1]
    return None


_GROUP_DIRS: dict[tuple[str, str | None], str] = {}


def cache_base() -> Path:
    """``$NUMBA_CACHE_DIR`` when set, else ``~/.cache/simlib/numba`` (``$XDG_CACHE_HOME``)."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "simlib" / "numba"


def cache_dir(group: str | None = None) -> str:
    """The folder the kernels of ``group`` (see :func:`kernel_source_hash`) are cached in.

    numba's on-disk cache checks only the file a kernel is defined in, not the kernels it
    calls from other files: an edited policy would run under a stale game kernel.  So each
    game's kernels live in a subfolder of :func:`cache_base` named by the hash of that
    game's kernel sources (and the core's): any edit of them compiles afresh, while an
    edit of another game leaves its cache alone.  Kernels compiled without the numba
    patches (:mod:`simlib.core.numba_patches`) are cached apart (``-plain``): with the
    patches only the entries are cached, whole."""
    base = str(cache_base())
    key = (base, group)
    if key not in _GROUP_DIRS:
        name = kernel_source_hash() if group is None else \
            group.replace("/", "-") + "-" + kernel_source_hash(group)
        if not numba_patches.STATE["on"]:
            name += "-plain"
        _GROUP_DIRS[key] = str(Path(base) / name)
    return _GROUP_DIRS[key]


def kernels_cached(game: str) -> bool | None:
    """Whether the kernels of the game package ``simlib.games.<game>`` are in the disk cache
    as its sources are now (their folder, named by the sources' hash, holds compiled
    entries); ``None`` for a game outside simlib (its kernels' folder is not ours to know)."""
    pkg = _PACKAGE / "games" / game
    if not pkg.is_dir():
        return None
    folder = Path(cache_dir(f"games/{game}"))
    return folder.is_dir() and any(folder.rglob("*.nbi"))


def compile_notice(game: str, name: str) -> str | None:
    """The line a study prints before its first chunk when the kernels of the game package
    ``simlib.games.<game>`` are not in the disk cache as their sources are now (first run on
    this machine, or after an update); ``None`` when they are, or for a game outside simlib.
    ``name``: the game as the progress lines name it."""
    if kernels_cached(game) is not False:
        return None
    return (f"compiling the {name} kernels (the first run on this machine or after an update; "
            "later runs load them from the cache in seconds) ...")


numba_patches.install()

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")

def _one_signature_per_type(disp, entry: bool = False):
    """Compile ``disp`` once per argument *types* when jitted code calls it, not once per
    constant: numba types a constant argument (``decide_nb(st, rs, seat, pp, D_KEEP, ...)``,
    ``emit_nb(..., EV_DRAW, ...)``) as a literal and, left alone, compiles and optimises a
    separate copy of the callee and of everything it calls for each distinct constant
    (``emit_nb``, called with a different event code at each site, would be compiled
    once per code).  The constants are no faster as literals (LLVM propagates them after
    inlining), so the call is typed with the constants' plain types.  Calls from Python
    are typed by value and unaffected."""
    resolve = getattr(disp, "get_call_template", None)
    if resolve is None:  # NUMBA_DISABLE_JIT=1: a plain Python function
        return disp

    def get_call_template(args, kws):
        stack = getattr(_COMPILING, "stack", None)
        if stack is None:
            stack = _COMPILING.stack = []
        stack.append(entry)  # a compile triggered here is an intermediate (unless entry)
        try:
            return resolve(tuple(types.unliteral(a) for a in args),
                           {k: types.unliteral(v) for k, v in kws.items()})
        finally:
            stack.pop()

    disp.get_call_template = get_call_template
    return disp


def _decorate(f, opts, entry):
    # numba fixes a kernel's cache folder when it is decorated (its cache locator reads
    # numba.config.CACHE_DIR then): point it at the kernel's game folder for that moment
    # only, so numba functions of other code keep the user's folder
    saved = numba.config.CACHE_DIR
    if opts.get("cache"):
        numba.config.CACHE_DIR = cache_dir(group_of(getattr(f, "__module__", None)))
    try:
        disp = numba.njit(**opts)(f)
    finally:
        numba.config.CACHE_DIR = saved
    if hasattr(disp, "py_func"):
        disp._simlib_options = dict(opts, entry=entry)  # what a frozen copy is compiled with
    return _one_signature_per_type(disp, entry)


def _jit(fn, opts, kwargs):
    opts = dict(opts)
    opts.update(kwargs)
    entry = bool(opts.pop("entry", False))
    if fn is not None:
        return _decorate(fn, opts, entry)
    return lambda f: _decorate(f, opts, entry)


def njit_with(**options):
    """A decorator with exactly ``options`` (numba's, plus ``entry``) through simlib's
    wrapper: what a frozen copy of a kernel (``simlib.core.bench.frozen_source``) is
    compiled with."""
    return _jit(None, {}, options)


def njit_nb(fn=None, **kwargs):
    """``numba.njit`` for kernels that never allocate (no reference counting)."""
    return _jit(fn, dict(JIT_OPTIONS, _nrt=False), kwargs)


def njit_alloc_nb(fn=None, **kwargs):
    """``numba.njit`` for kernels that allocate arrays (runtime on)."""
    return _jit(fn, JIT_OPTIONS, kwargs)


def njit_parallel_nb(fn=None, **kwargs):
    """``njit_alloc_nb`` with ``parallel=True`` (batch kernels with ``prange``)."""
    return _jit(fn, dict(JIT_OPTIONS, parallel=True), kwargs)


# --------------------------------------------------------------------------- parts
def at(slot: int) -> tuple:
    """A dimension of ``packed_part`` read from the packed array itself: ``a[slot]``."""
    return ("at", int(slot))


def packed_part(name: str, offset_slot: int, *dims, dtype=None):
    """An accessor kernel for one part of a packed 1-D C-contiguous int64 array ``a``: the
    part starts at ``a[offset_slot]`` and has ``dims`` (1 or 2; each an ``int``, or
    ``at(slot)`` for one read from ``a[slot]``); ``dtype`` views it as another 8-byte
    type (``np.uint64``).  ``name(a)`` is the C-contiguous view; a part that does not fit
    in ``a`` raises ``IndexError``.

    Why not a kernel ``inline="always"``: numba inlines such a kernel by copying its IR
    into each call site and types and lowers the copy again at each (the accessors are
    called from a great many sites; the inlining itself deep-copies the IR each time).
    This is one typed call a site whose code is
    the pointer arithmetic directly; the engine's machine code is the same loads after
    LLVM inlines either.  A kernel without NRT may not return a view it did not receive,
    so a plain kernel would not do."""
    if len(dims) not in (1, 2):
        raise ValueError(f"{name}: 1 or 2 dimensions, not {len(dims)}")
    for d in dims:
        if not (isinstance(d, int) and d >= 0) and not (isinstance(d, tuple) and d[:1] == ("at",)):
            raise ValueError(f"{name}: a dimension is a non-negative int or at(slot), not {d!r}")
    view_dtype = None if dtype is None else np.dtype(dtype)
    if view_dtype is not None and view_dtype.itemsize != 8:
        raise ValueError(f"{name}: a view of int64 as an 8-byte type, not {view_dtype}")
    slots = [offset_slot] + [d[1] for d in dims if isinstance(d, tuple)]
    need = max(slots) + 1  # the array must hold the slots read
    message = f"{name}: the part does not fit in the array"

    if numba.config.DISABLE_JIT:  # plain Python (NUMBA_DISABLE_JIT=1): the same view, checked
        def part(a):
            if a.shape[0] < need:
                raise IndexError(message)
            o = int(a[offset_slot])
            shape = tuple(int(a[d[1]]) if isinstance(d, tuple) else d for d in dims)
            n = int(np.prod(shape))
            if o < 0 or n < 0 or o + n > a.shape[0]:
                raise IndexError(message)
            v = a[o:o + n]
            if view_dtype is not None:
                v = v.view(view_dtype)
            return v.reshape(shape)

        part.__name__ = part.__qualname__ = name
        return part

    def typer(typingctx, a):
        if not (isinstance(a, types.Array) and a.ndim == 1 and a.layout == "C"
                and a.dtype == types.int64):
            raise TypingError(f"{name}: a 1-D C-contiguous int64 array")
        dt = a.dtype if view_dtype is None else numba.from_dtype(view_dtype)
        ret = types.Array(dt, len(dims), "C", readonly=not a.mutable, aligned=a.aligned)

        def codegen(context, builder, sig, args):
            intp = types.intp
            src = make_array(sig.args[0])(context, builder, args[0])
            (length,) = cgutils.unpack_tuple(builder, src.shape, 1)
            with builder.if_then(builder.icmp_signed(
                    "<", length, context.get_constant(intp, need)), likely=False):
                context.call_conv.return_user_exc(builder, IndexError, (message,))

            def read(slot):
                v = builder.load(cgutils.gep_inbounds(
                    builder, src.data, context.get_constant(intp, slot)))
                return context.cast(builder, v, types.int64, intp)

            o = read(offset_slot)
            shape = [read(d[1]) if isinstance(d, tuple) else context.get_constant(intp, d)
                     for d in dims]
            n = shape[0] if len(shape) == 1 else builder.mul(shape[0], shape[1])
            zero = context.get_constant(intp, 0)
            bad = builder.or_(builder.or_(builder.icmp_signed("<", o, zero),
                                          builder.icmp_signed("<", n, zero)),
                              builder.icmp_signed(">", builder.add(o, n), length))
            with builder.if_then(bad, likely=False):
                context.call_conv.return_user_exc(builder, IndexError, (message,))
            itemsize = context.get_constant(intp, 8)
            data = cgutils.gep_inbounds(builder, src.data, o)
            data = builder.bitcast(data, context.get_data_type(ret.dtype).as_pointer())
            strides = [itemsize] if len(shape) == 1 else [builder.mul(shape[1], itemsize),
                                                          itemsize]
            out = make_array(ret)(context, builder)
            populate_array(out, data=data, shape=cgutils.pack_array(builder, shape),
                           strides=cgutils.pack_array(builder, strides), itemsize=itemsize,
                           meminfo=src.meminfo, parent=src.parent)
            return impl_ret_borrowed(context, builder, ret, out._getvalue())

        return ret(a), codegen

    typer.__name__ = typer.__qualname__ = name
    return intrinsic(typer)
