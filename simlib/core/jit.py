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

Each takes ``entry=True`` for a hot kernel that Python calls *and* other kernels call
(the batch entries): it is always compiled with LLVM's module optimisation (see
"compile time" below).

Compiled kernels are cached on disk in ``~/.cache/simlib/numba/<game>-<hash of that game's
kernel sources>`` (or ``$NUMBA_CACHE_DIR`` when set); see ``_set_cache_dir``.
"""
from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

import numba
import numpy as np
from numba.core import cgutils, types
from numba.core.errors import TypingError
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

_PACKAGE = Path(__file__).resolve().parent.parent


def kernel_source_hash(group: str | None = None) -> str:
    """Hash of the source files kernels are compiled from.

    ``group`` is a game package's folder relative to ``simlib/`` (``"games/until_daylight"``,
    ``"games/till_dawn"``): the hash covers that package's ``*_nb.py`` and ``codes.py`` plus
    the core's jit and rng modules.  ``None``: every kernel source of simlib.
    """
    core = [_PACKAGE / "core" / "jit.py", _PACKAGE / "core" / "rng.py"]
    if group is None:
        files = sorted(_PACKAGE.rglob("*_nb.py")) + core
        files += sorted(_PACKAGE.glob("*/codes.py"))
    else:
        d = _PACKAGE / group
        files = sorted(d.rglob("*_nb.py")) + core + sorted(d.rglob("codes.py"))
    h = hashlib.sha256()
    for f in files:
        h.update(f.relative_to(_PACKAGE).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _group_of(module: str | None) -> str | None:
    """The game package a kernel's module belongs to (``None``: the core)."""
    parts = (module or "").split(".")
    if len(parts) >= 3 and parts[:2] == ["simlib", "games"]:
        return "games/" + parts[2]
    if len(parts) >= 2 and parts[0] == "simlib" and parts[1] not in ("core", "games"):
        return parts[1]
    return None


_GROUP_DIRS: dict[str | None, str] = {}


def _cache_base() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "simlib" / "numba"


def _set_cache_dir(group: str | None = None) -> None:
    """numba's on-disk cache checks only the file a kernel is defined in, not the kernels
    it calls in other files: an edited policy would run with a stale game kernel.  Unless
    the user chose NUMBA_CACHE_DIR, keep the cache in a folder named by the hash of the
    kernel sources of the kernel's game package (and the core), so any edit of that game
    compiles afresh while an edit of another game leaves its cache alone.  numba fixes a
    kernel's cache path when it is decorated, so this runs before each decoration."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    if group not in _GROUP_DIRS:
        name = kernel_source_hash() if group is None else \
            group.replace("/", "-") + "-" + kernel_source_hash(group)
        _GROUP_DIRS[group] = str(_cache_base() / name)
    numba.config.CACHE_DIR = _GROUP_DIRS[group]


_set_cache_dir()

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")

# --------------------------------------------------------------------------- compile time
# numba compiles every jitted function into its own LLVM library and, when it is
# finalised, links in everything it calls and runs LLVM's module optimisation over the
# whole (and then emits machine code for it).  A kernel called only from other kernels
# is therefore optimised once on its own and again inside every caller: with about 30
# engine functions stacked above the policies, the module optimisation of a cold
# ``play_games`` took ~27 s of its ~90 s, almost all of it re-optimising the same code
# at each level, and its machine code emitted again at each level.  Here a library
# compiled *because a caller is being typed* (an "intermediate") skips the module
# optimisation (its functions keep numba's function-level passes; see
# ``_optimize_final_module`` below); the kernel called from Python (or a kernel declared
# ``entry=True``: the hot batch entries that other kernels also call) optimises and emits
# the whole linked module once, and only such kernels go to the disk cache,
# self-contained.  Measured: cold ``play_games`` 94 -> 52 s on the same machine, the same
# games and games per second (benchmarks/README.md).  An intermediate gets no machine
# code at all ("intermediates without machine code or wrappers" below).
#
# The entry's own copies.  What an entry links in arrives ``linkonce_odr`` (numba's
# sharing linkage); whatever LLVM does not inline stays a weak definition, and when the
# entry's machine code was added to numba's execution engine in the process that compiled
# it, the engine resolved those weak names to the definitions it already held: the
# intermediates' code, compiled without the module optimisation (and, loaded from the
# disk cache instead, to the entry's own copies).  The same kernel then ran 1.6-3.9x
# slower in the process that compiled it than in the next one.  An entry now makes what
# it linked in ``private`` before its module optimisation: its calls stay in its own
# optimised code in every process, and LLVM may also inline and specialise the private
# functions across the whole game.  Private, not internal: an internal function keeps its
# name in the machine code, the engine found it by that name for a kernel compiled later
# that calls the same function, and LLVM may have changed its calling convention (a
# segfault when that kernel was then called from Python).  Measured (benchmarks/README.md, "The entry's own
# copies"): reference 4-player games on one thread 8.5-9.6 k/s -> 13.3-13.7 k/s from the
# cache, 3.3 k/s -> 12.9 k/s in the compiling process; golden records identical; the
# cold compile 5-8 s longer.
#
# Intermediates without machine code or wrappers.  Since the entries run their own
# private copies, an intermediate's own compiled code would run only if Python called
# that very copy.  So an intermediate is lowered without the wrappers Python and C call
# through (numba's ``no_cpython_wrapper`` / ``no_cfunc_wrapper``: about a fifth of the
# lowering), its library is finalised (linked, linkable by callers) without entering
# numba's execution engine (no machine code), and its dispatcher lists the signature
# without a callable entry point.  When Python calls such a kernel (tests, a step kernel
# first compiled inside another's typing), ``Dispatcher.compile`` with no caller being
# typed drops that overload and compiles the kernel anew as a kernel Python calls (from
# the disk cache when there).  Measured: machine code emitted for 2 libraries instead of
# 111 in a cold ``play_games`` (7.1 s -> 2.7 s), and lowering ~25 % shorter without the
# wrappers (benchmarks/README.md, "Intermediates without machine code or wrappers").
_COMPILING = threading.local()  # stack of "optimise the module" flags, one per nested compile


def _module_optimisation_wanted() -> bool:
    stack = getattr(_COMPILING, "stack", None)
    return not stack or stack[-1]


def _install_module_optimisation_policy() -> None:
    import llvmlite.binding as ll
    from numba._dynfunc import make_function
    from numba.core import caching, codegen, cpu, sigutils, typed_passes
    from numba.core import dispatcher as nb_dispatcher
    from numba.core.compiler_lock import global_compiler_lock

    lib = codegen.CPUCodeLibrary
    if getattr(lib, "_simlib_policy", False):
        return
    full = lib._optimize_final_module
    finalize_final = lib._finalize_final_module
    save = caching.Cache._save_overload
    add_overload = nb_dispatcher.Dispatcher.add_overload
    get_executable = cpu.CPUContext.get_executable
    compile_sig = nb_dispatcher.Dispatcher.compile
    native_lowering = typed_passes.NativeLowering.run_pass

    def _optimize_final_module(self):
        if _module_optimisation_wanted():
            # a kernel Python calls: what it linked in becomes private to it, so its calls
            # stay inside this module's optimised code, and no other module can reach
            # these copies by name (see "the entry's own copies" above)
            for fn in self._final_module.functions:
                if not fn.is_declaration and fn.linkage == ll.Linkage.linkonce_odr:
                    fn.linkage = "private"
            full(self)
            return
        # an intermediate: its callers link it whole (numba's linkonce_odr copy) and
        # optimise it in their own module; it needs neither that optimisation nor
        # machine code of its own (``_finalize_final_module``)
        self._simlib_no_code = True

    def _save_overload(self, sig, data):
        # an intermediate has no machine code: not for the disk cache (the kernels
        # Python calls are cached whole)
        if getattr(getattr(data, "library", None), "_simlib_no_code", False):
            return None
        return save(self, sig, data)

    def _lower(self, state):
        if not _module_optimisation_wanted():
            # an intermediate: its callers link their own copies, and Python never calls
            # this compiled copy (a call from Python compiles the kernel anew, ``_compile``),
            # so it needs neither the wrappers Python and C call through nor machine code
            state.flags.no_cpython_wrapper = True
            state.flags.no_cfunc_wrapper = True
        return native_lowering(self, state)

    def _finalize_final_module(self):
        # an intermediate never enters numba's execution engine: no machine code
        if getattr(self, "_simlib_no_code", False):
            self._finalized = True
            return
        finalize_final(self)

    def _get_executable(self, library, fndesc, env):
        library._ensure_finalized()
        if not getattr(library, "_simlib_no_code", False):
            return get_executable(self, library, fndesc, env)
        # a placeholder the dispatcher never calls (``_add_overload``)
        return make_function(fndesc.lookup_module(), fndesc.qualname.split(".")[-1],
                             "an intermediate: no machine code", 0, env, (library,))

    def _add_overload(self, cres):
        if getattr(cres.library, "_simlib_no_code", False):
            # typed and linkable by callers, not callable from Python (``_compile``)
            self.overloads[tuple(cres.signature.args)] = cres
            self.__dict__.setdefault("_simlib_uncallable", set()).add(tuple(cres.signature.args))
            return
        add_overload(self, cres)

    def _compile(self, sig):
        waiting = self.__dict__.get("_simlib_uncallable")
        if waiting and not getattr(_COMPILING, "stack", None):  # Python wants to call it
            args = tuple(sigutils.normalize_signature(sig)[0])
            with global_compiler_lock:
                if args in waiting:  # compiled anew, as a kernel Python calls
                    del self.overloads[args]
                    waiting.discard(args)
        return compile_sig(self, sig)

    lib._optimize_final_module = _optimize_final_module
    lib._finalize_final_module = _finalize_final_module
    caching.Cache._save_overload = _save_overload
    nb_dispatcher.Dispatcher.add_overload = _add_overload
    cpu.CPUContext.get_executable = _get_executable
    nb_dispatcher.Dispatcher.compile = _compile
    typed_passes.NativeLowering.run_pass = _lower
    lib._simlib_policy = True


# Comparing compile flags.  numba caches the implementation of every ``@overload`` it
# types (``len``, ``min``, array methods: ~54 000 lookups in a cold ``play_games``) under
# a key that holds the compile's ``Flags``; each lookup hashes the flags and each hit
# compares them, and numba's ``TargetConfig`` builds a dict of all 22 options through
# their properties for each (11 us a hash, 17 us a comparison on this machine: ~2 s of a
# cold compile).  The same answers, cheaper: the hash numba computes is that of the
# sorted option *names* (it sorts the dict, i.e. its keys), the same for every instance
# of a class, so it is computed once per class; the values are the class's defaults
# updated with what was set.  ``tests/test_jit.py`` checks both against numba's own.
_TC_DEFAULTS: dict = {}
_TC_HASHES: dict = {}


def _target_config_values(self) -> dict:
    cls = type(self)
    out = _TC_DEFAULTS.get(cls)
    if out is None:
        out = _TC_DEFAULTS[cls] = {k: opt.default for k, opt in cls.options.items()}
    out = dict(out)
    for k, v in self._values.items():
        if k in out:
            out[k] = v
    return out


def _target_config_hash(self) -> int:
    cls = type(self)
    h = _TC_HASHES.get(cls)
    if h is None:
        h = _TC_HASHES[cls] = hash(tuple(sorted(_target_config_values(self))))
    return h


def _target_config_eq(self, other):
    from numba.core.targetconfig import TargetConfig
    if not isinstance(other, TargetConfig):
        return NotImplemented
    if self is other or (type(self) is type(other) and self._values == other._values):
        return True  # the same class with the same options set: the same values
    return _target_config_values(self) == _target_config_values(other)


def _install_fast_target_config() -> None:
    from numba.core.targetconfig import TargetConfig
    if getattr(TargetConfig, "_simlib_fast", False):
        return
    TargetConfig._simlib_numba = (TargetConfig.values, TargetConfig.__hash__,
                                  TargetConfig.__eq__)
    TargetConfig.values = _target_config_values
    TargetConfig.__hash__ = _target_config_hash
    TargetConfig.__eq__ = _target_config_eq
    TargetConfig._simlib_fast = True


# Lowering probes.  numba's lowering asks the target for an implementation it expects not
# to find, then falls back: ``make_array`` asks for ``__array__`` of every array struct it
# builds, and each constant-index item read or write asks for ``static_getitem`` /
# ``static_setitem`` before the generic one.  On a miss ``BaseContext.get_function``
# refreshes the registries (re-runs some 20 imports and re-installs 8 registries) and
# asks again: ~2 000 refreshes in a cold ``play_games``, ~1.2 s.  The compile pipeline
# already refreshes the registries when each function's compile starts
# (``CompilerBase.__init__``), so for these three probes the miss is answered at once;
# every other lookup keeps numba's refresh.  And numba formats each error message it
# builds (~23 000 in a cold compile, most of them typing attempts it discards) through
# colorama, initialising and restoring the terminal streams around each piece of text
# (~1 s); the same text is built here without touching the streams.
_LOWERING_PROBES = frozenset(("__array__", "static_getitem", "static_setitem"))


def _install_quiet_probes() -> None:
    from numba.core import base, errors
    ctx = base.BaseContext
    if getattr(ctx, "_simlib_probes", False):
        return
    get_function = ctx.get_function

    def _get_function(self, fn, sig, _firstcall=True):
        if _firstcall and isinstance(fn, str) and fn in _LOWERING_PROBES:
            _firstcall = False  # no refresh: this compile's pipeline has just done it
        return get_function(self, fn, sig, _firstcall)

    ctx.get_function = _get_function
    ctx._simlib_probes = True
    scheme = getattr(errors, "HighlightColorScheme", None)
    if scheme is not None and not getattr(scheme, "_simlib_markup", False):
        from colorama import Style
        scheme._simlib_numba_markup = scheme._markup

        def _markup(self, msg, color=None, style=Style.BRIGHT):
            # numba's text: the colour, the style, the message, then the reset
            return (color or "") + (style or "") + msg + Style.RESET_ALL

        scheme._markup = _markup
        scheme._simlib_markup = True


if not numba.config.DISABLE_JIT:
    _install_module_optimisation_policy()
    _install_fast_target_config()
    _install_quiet_probes()


def _one_signature_per_type(disp, entry: bool = False):
    """Compile ``disp`` once per argument *types* when jitted code calls it, not once per
    constant: numba types a constant argument (``decide_nb(st, rs, seat, pp, D_KEEP, ...)``,
    ``emit_nb(..., EV_DRAW, ...)``) as a literal and, left alone, compiles and optimises a
    separate copy of the callee and of everything it calls for each distinct constant.
    The engine had 275 compiled signatures for about 130 functions (``emit_nb`` 51,
    ``choose_nb`` and ``decide_nb`` 18 each); the constants are no faster as literals
    (LLVM propagates them after inlining), so the call is typed with the constants'
    plain types.  Calls from Python are typed by value and unaffected."""
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


def _jit(fn, opts, kwargs):
    opts = dict(opts)
    opts.update(kwargs)
    entry = bool(opts.pop("entry", False))
    if fn is not None:
        _set_cache_dir(_group_of(getattr(fn, "__module__", None)))
        return _one_signature_per_type(numba.njit(**opts)(fn), entry)

    def decorate(f):
        _set_cache_dir(_group_of(getattr(f, "__module__", None)))
        return _one_signature_per_type(numba.njit(**opts)(f), entry)

    return decorate


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

    Why not a kernel ``inline="always"`` (what the game's accessors were): numba inlines
    such a kernel by copying its IR into each of ~180 call sites and types and lowers the
    copy again at each (~15 statements a site, a tenth of the engine's IR; the inlining
    itself deep-copies the IR each time).  This is one typed call a site whose code is
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
