"""Changes to numba's compile pipeline that shorten simlib's cold compile.

They replace a few methods of numba's internals, so they are checked against numba's
version: inside :data:`TESTED` they are installed when :mod:`simlib.core.jit` is imported;
outside it (or with ``SIMLIB_NUMBA_PATCHES=0``, or with ``NUMBA_DISABLE_JIT=1``) numba is
left as it is, with a :class:`NumbaPatchesOff` warning when the version is the reason.
The compiled kernels compute the same results either way (``tests/test_numba_patches.py``
compares the records of a study with and without them); without them the first compile
is slower.  :data:`STATE` says which applies and why.

What they change (each is explained where it is installed):

* **module optimisation once per entry**: a kernel compiled only because a caller is
  being typed (an *intermediate*) skips LLVM's module optimisation, machine code and the
  Python/C wrappers; the kernel Python calls (or one declared ``entry=True``) links what it
  calls as private copies, optimises and emits the whole once, and only such kernels go
  to the disk cache;
* **compile flags compared cheaply**: numba's ``TargetConfig`` hash, values and equality,
  the same answers without building a dict of every option at each of the overload
  cache's lookups;
* **quiet lowering probes**: three lookups the lowering expects to miss no longer refresh
  numba's registries, and numba's error text is built without re-initialising colorama
  around each piece.
"""
from __future__ import annotations

import os
import threading
import warnings

import numba

ENV = "SIMLIB_NUMBA_PATCHES"  # "0" (or "off", "false", "no"): leave numba as it is
TESTED = ((0, 68), (0, 69))  # numba versions the patches are tested with: [0.68, 0.69)


class NumbaPatchesOff(UserWarning):
    """numba's version is outside the range simlib's compile patches were tested with."""


def _version(text: str) -> tuple[int, int]:
    parts = text.split(".")
    try:
        return int(parts[0]), int("".join(c for c in parts[1] if c.isdigit()) or 0)
    except (IndexError, ValueError):
        return (0, 0)


def decide(version: str | None = None, env: str | None = None,
           disable_jit: bool | None = None) -> tuple[bool, str]:
    """``(on, reason)``: whether the patches apply, for numba ``version``, the value of
    ``$SIMLIB_NUMBA_PATCHES`` and ``NUMBA_DISABLE_JIT`` (defaults: this process's)."""
    version = numba.__version__ if version is None else version
    env = os.environ.get(ENV, "") if env is None else env
    disable_jit = bool(numba.config.DISABLE_JIT) if disable_jit is None else disable_jit
    if env.strip().lower() in ("0", "off", "false", "no"):
        return False, f"off: {ENV}={env}"
    if disable_jit:
        return False, "off: NUMBA_DISABLE_JIT=1 (nothing is compiled)"
    lo, hi = TESTED
    if not lo <= _version(version) < hi:
        return False, (f"off: numba {version} is outside the tested range "
                       f">={lo[0]}.{lo[1]},<{hi[0]}.{hi[1]}")
    return True, f"on: numba {version}"


STATE = {"on": False, "reason": "not installed yet"}

# --------------------------------------------------------------------------- entries
# numba compiles every jitted function into its own LLVM library and, when it is
# finalised, links in everything it calls and runs LLVM's module optimisation over the
# whole, then emits machine code for it.  A kernel called only from other kernels is
# therefore optimised on its own and again inside every caller, and its machine code is
# emitted at each level of a deep call tree.  Here a library compiled *because a caller
# is being typed* (an intermediate) skips the module optimisation, the wrappers and the
# machine code; the kernel called from Python (or declared ``entry=True``: a batch entry
# that other kernels also call) optimises and emits the whole linked module once, and
# only such kernels go to the disk cache, self-contained.
#
# An entry's own copies.  What an entry links in arrives ``linkonce_odr`` (numba's
# sharing linkage); if left so, the execution engine of the process that compiled the
# entry resolves those weak names to definitions it already holds (the intermediates'
# code, not optimised as a module), and the same kernel runs slower in the process that
# compiled it than in the next one, which loads it from the disk cache.  An entry makes
# what it linked in ``private`` before its module optimisation, so its calls stay in its
# own optimised code in every process.  Private, not internal: an internal function keeps
# its name in the machine code, the engine finds it by that name for a kernel compiled
# later that calls the same function, and LLVM may have changed its calling convention.
#
# An intermediate without machine code.  Its own compiled code would run only if Python
# called that very copy, so it is lowered without numba's CPython and C wrappers, and its
# library is finalised (linkable by callers) without entering the execution engine; its
# dispatcher lists the signature without a callable entry point.  When Python calls such
# a kernel, ``Dispatcher.compile`` (no caller being typed) drops that overload and
# compiles the kernel anew as a kernel Python calls.
COMPILING = threading.local()  # .stack: "optimise the module" flags, one per nested compile


def module_optimisation_wanted() -> bool:
    """False while a kernel is compiled because a caller is typed (an intermediate)."""
    stack = getattr(COMPILING, "stack", None)
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
        if module_optimisation_wanted():
            # a kernel Python calls: what it linked in becomes private to it
            for fn in self._final_module.functions:
                if not fn.is_declaration and fn.linkage == ll.Linkage.linkonce_odr:
                    fn.linkage = "private"
            full(self)
            return
        # an intermediate: its callers link it whole and optimise it in their own module
        self._simlib_no_code = True

    def _save_overload(self, sig, data):
        # an intermediate has no machine code: not for the disk cache
        if getattr(getattr(data, "library", None), "_simlib_no_code", False):
            return None
        return save(self, sig, data)

    def _lower(self, state):
        if not module_optimisation_wanted():
            # an intermediate: Python never calls this compiled copy, so no wrappers
            state.flags.no_cpython_wrapper = True
            state.flags.no_cfunc_wrapper = True
        return native_lowering(self, state)

    def _finalize_final_module(self):
        if getattr(self, "_simlib_no_code", False):  # never enters the execution engine
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
        if waiting and not getattr(COMPILING, "stack", None):  # Python wants to call it
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


# --------------------------------------------------------------------------- flags
# numba caches the implementation of every ``@overload`` it types under a key that holds
# the compile's ``Flags``; each lookup hashes the flags and each hit compares them, and
# ``TargetConfig`` builds a dict of all its options through their properties for each.
# The same answers, cheaper: numba's hash is that of the sorted option *names* (it sorts
# the dict, i.e. its keys), the same for every instance of a class, so it is computed once
# per class; the values are the class's defaults updated with what was set.
# ``tests/test_jit.py`` checks both against numba's own.
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


# --------------------------------------------------------------------------- probes
# numba's lowering asks the target for an implementation it expects not to find, then
# falls back: ``make_array`` asks for ``__array__`` of every array struct it builds, and
# each constant-index item read or write asks for ``static_getitem`` / ``static_setitem``
# before the generic one.  On a miss ``BaseContext.get_function`` refreshes the registries
# and asks again.  The compile pipeline already refreshes them when each function's
# compile starts (``CompilerBase.__init__``), so for these three probes the miss is
# answered at once; every other lookup keeps numba's refresh.  And numba formats each
# error message it builds (most are typing attempts it discards) through colorama,
# initialising and restoring the terminal streams around each piece of text; the same
# text is built here without touching the streams.
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


def install() -> bool:
    """Install the patches if :func:`decide` allows (once per process); returns whether
    they are on.  A numba outside :data:`TESTED` gives a :class:`NumbaPatchesOff`
    warning."""
    if STATE["reason"] != "not installed yet":
        return STATE["on"]
    on, reason = decide()
    STATE.update(on=on, reason=reason)
    if on:
        _install_module_optimisation_policy()
        _install_fast_target_config()
        _install_quiet_probes()
    elif "tested range" in reason:
        warnings.warn(f"simlib's numba compile patches are {reason}: kernels compile "
                      "without them (same results, slower first compile)",
                      NumbaPatchesOff, stacklevel=2)
    return on
