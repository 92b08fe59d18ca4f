"""Speed of every registered game's kernels, and the speed guard that CI runs.

Usage (``simlib bench`` calls :func:`main` with the same flags)::

    simlib bench                  # the table: ops/s, JIT speed-up, compile times
    simlib bench --quick          # the same in a few seconds of measuring
    simlib bench --full           # more repeats + the cold compile of each game's kernels
                                  # (minutes: each game compiled from scratch in a subprocess)
    simlib bench --guard          # quick ratios vs benchmarks/floors.toml; exit 1
    simlib bench --update-floors  # re-measure and rewrite benchmarks/floors.toml

(``python -m simlib.core.bench`` is the same.)  The table and its figures work wherever
simlib is installed; the guard and ``--update-floors`` need the source tree's
``benchmarks/`` folder (the floors and the frozen kernel copies): elsewhere they say so in
one line and exit with status 2.

What is measured
----------------
Each registered game declares its benchmarks (``GameInfo.benches``, a ``{name: factory}``
mapping; :mod:`simlib.core.benchkit`): functions ``run(n)`` performing ``n`` operations
(a roll of dice, one full game, games through the runner).  Each is timed on blocks of
~``target`` seconds after a warm-up call outside the timed region; ops/s is the best block
(noise on a shared machine only ever slows a block down).  JIT compile time is never
inside a timed block; it is a figure of its own (below).  A benchmark may add lines
under the table (its ``note``: a game's headline, for instance); in a source checkout,
``benchmarks/<game>_speed.py`` adds a game's developer figures after them
(:func:`checkout_notes`: speed experiments that do not ship in the wheel).

The speed guard
---------------
Absolute times mean nothing across machines or even across minutes on a shared one, so
the guard compares **ratios measured in one process**: a kernel's operations per second
divided by the operations per second of a reference timed in the same windows
(:class:`Measurement`, :func:`measure_all`).  The reference is either a fixed
calibration loop (:func:`calibration`, independent of simlib's code) or, for a benchmark
marked ``calibration = "self"``, a frozen copy of the kernel itself and everything it
calls (``benchmarks/frozen/``, written with the floors), whose speed moves with the
machine's load exactly as the kernel's does: unchanged code measures ~1.0, a kernel made
k times slower 1/k.  ``benchmarks/floors.toml`` holds, per kernel, the median ratio of
several fresh processes and its floor = ratio / ``MARGIN``.  A kernel below its floor is
measured again, a few times and spread over a minute, before the guard fails, with a
message naming the kernel, its ratio and the floor (:func:`check_ratio`).

Compile times
-------------
* small kernels (a ``compile_case``): the first call of a fresh, non-cached copy of the
  kernel in this process (its callees already compiled);
* the others: the cached load (a subprocess times each benchmark's first call, which
  reads numba's on-disk cache) always; the cold compile (a subprocess per game with
  ``NUMBA_CACHE_DIR`` set to an empty temporary folder) with ``--full`` only, in the
  order the game declares them (its first figure: everything that benchmark needs).

The JIT speed-up is the same benchmark run with ``NUMBA_DISABLE_JIT=1`` in a subprocess
(every kernel is then plain Python) on a small count; it is reported, never guarded.
"""
from __future__ import annotations

import argparse
import ast
import dataclasses
import datetime
import hashlib
import importlib.util
import inspect
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

import numba
import numpy as np

from simlib.core.benchkit import Bench, ReportContext, jit_driver

MARGIN = 1.6  # floor = measured ratio / MARGIN
RETRIES = 5  # re-measurements of a kernel found below its floor (best one kept)
RETRY_PAUSE = 12.0  # seconds before each: a shared machine's slow phases (a co-tenant
# on the sibling hyperthread) last seconds to a minute and slow a game kernel more than a
# latency-bound loop, so back-to-back re-measurements would all fall inside the same
# phase; spread over a minute they need not
CAL_BLOCK = 1024  # splitmix64 steps in one calibration operation ...
CAL_BRANCHY = 2048  # ... and steps of the branchy table-driven loop
CAL_MIXED_DESCRIPTION = (f"{CAL_BLOCK} dependent splitmix64 steps + {CAL_BRANCHY} steps of a "
                         "branchy table-driven loop")
CAL_DESCRIPTION = (f"{CAL_MIXED_DESCRIPTION} (simlib.core.bench.calibration; kernels marked "
                   "calibration = \"chain\": the splitmix64 steps alone)")
CAL_CHAIN_DESCRIPTION = f"{CAL_BLOCK} splitmix64 steps"


FLOORS_ENV = "SIMLIB_FLOORS"  # a floors file of your own (its frozen/ beside it)


def source_tree(package: Path | None = None) -> Path | None:
    """The source checkout simlib is imported from (the folder holding ``pyproject.toml``
    and ``benchmarks/`` above the package), or ``None`` for an installed simlib."""
    pkg = Path(__file__).resolve().parents[1] if package is None else Path(package)
    root = pkg.parent
    if (root / "pyproject.toml").is_file() and (root / "benchmarks").is_dir():
        return root
    return None


def _default_floors() -> Path | None:
    """``$SIMLIB_FLOORS``, else ``benchmarks/floors.toml`` of the source tree simlib is
    imported from; ``None`` for an installed simlib (no floors to compare with)."""
    env = os.environ.get(FLOORS_ENV)
    if env:
        return Path(env)
    tree = source_tree()
    return None if tree is None else tree / "benchmarks" / "floors.toml"


DEFAULT_FLOORS = _default_floors()
NO_TREE = ("simlib bench {flag}: needs the source tree's benchmarks/ folder (floors.toml and "
           "frozen/), {why}; run it in a source checkout (pip install -e .) or give "
           "--floors FILE")


def game_bench_factories() -> dict[str, Callable[[], Bench]]:
    """Every registered game's benchmark factories (``GameInfo.benches``), by name, in
    the registry's order of games and each game's order of declaration."""
    return {name: f for _game, fs in game_benches().items() for name, f in fs.items()}


def game_benches() -> dict[str, dict[str, Callable[[], Bench]]]:
    """``{game: {benchmark: factory}}`` of every registered game that declares benches."""
    from simlib.core.games import game_names, get_game, load_ref

    out: dict[str, dict[str, Callable[[], Bench]]] = {}
    seen: dict[str, str] = {}
    for game in game_names():
        ref = get_game(game).benches
        if not ref:
            continue
        fs = dict(load_ref(ref))
        for name in fs:
            if name in seen:
                raise ValueError(f"benchmark {name!r} declared twice (games {seen[name]} "
                                 f"and {game})")
            seen[name] = game
        out[game] = fs
    return out


BENCH_FACTORIES = game_bench_factories()
GUARDED = tuple(BENCH_FACTORIES)  # every declared benchmark is guarded

def checkout_module(game: str):
    """``benchmarks/<game>_speed.py`` of the source checkout simlib is imported from (a
    game's speed experiments: developer tooling, not part of the wheel), loaded once by
    path; ``None`` for an installed simlib or a game without one."""
    tree = source_tree()
    path = None if tree is None else tree / "benchmarks" / f"{game}_speed.py"
    if path is None or not path.is_file():
        return None
    name = f"simlib_benchmarks_{game}_speed"  # benchmarks/ is a folder, not a package
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return sys.modules[name]


def checkout_notes(games: Iterable[str]) -> dict[str, list[Callable]]:
    """``{benchmark: [note, ...]}``: the developer figures a source checkout adds to the
    report, the ``NOTES`` of each game's :func:`checkout_module`; empty for an installed
    simlib."""
    out: dict[str, list[Callable]] = {}
    for game in games:
        mod = checkout_module(game)
        for bench, note in (getattr(mod, "NOTES", None) or {}).items():
            out.setdefault(bench, []).append(note)
    return out


# --------------------------------------------------------------------------- calibration
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def _calib_py(n, seed):
    """``n`` dependent splitmix64 steps and a float accumulation (latency bound, no SIMD)."""
    z = np.uint64(seed)
    acc = 0.0
    for _ in range(n):
        z = z + _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _MIX1
        z = (z ^ (z >> np.uint64(27))) * _MIX2
        z = z ^ (z >> np.uint64(31))
        acc = acc * 0.5 + np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    return acc + np.float64(z & np.uint64(1))


def _branchy_py(n, prog, mem, regs):
    """``n`` steps of a small table-driven interpreter: a random program of 16 opcodes,
    data-dependent jumps, loads and stores over a 128 KB table (the kernels' profile:
    unpredictable branches and cache traffic)."""
    regs[0] = np.uint64(12345)
    pc = 0
    m = mem.shape[0] - 1
    last = prog.shape[0] - 1
    acc = 0.0
    for _ in range(n):
        op = prog[pc]
        a = regs[op & 7]
        if op < 4:
            regs[(op + 1) & 7] = a * _GOLDEN + np.uint64(op)
        elif op < 6:
            regs[(op + 3) & 7] = a ^ (a >> np.uint64(29))
        elif op < 8:
            regs[op & 7] = mem[np.int64(a & np.uint64(m))]
        elif op < 10:
            mem[np.int64((a >> np.uint64(7)) & np.uint64(m))] = a + regs[(op + 5) & 7]
        elif op < 11:
            acc = acc * 0.5 + np.float64(a >> np.uint64(40))
        elif op < 13:
            if a & np.uint64(1):
                pc = np.int64(a & np.uint64(last))
                continue
            regs[2] += np.uint64(1)
        elif op < 14:
            regs[(op + 6) & 7] = regs[(op + 2) & 7] - a
        else:
            regs[op & 7] = (a << np.uint64(3)) | (a >> np.uint64(61))
        pc = (pc + 1) & last
    return acc + np.float64(regs[0] & np.uint64(1)) + np.float64(mem[3] & np.uint64(1))


_calib_nb = None
_branchy_nb = None


def calibration(profile: str = "mixed") -> "Bench":
    """The calibration loop as a benchmark: one operation = ``CAL_BLOCK`` dependent hash
    steps + ``CAL_BRANCHY`` steps of a branchy table-driven loop (``profile="chain"``:
    the hash steps alone, for tight arithmetic kernels such as the dice roll, which keep
    their speed in the slow phases described below).

    Why both: on a shared machine a co-tenant on the sibling hyperthread slows a game
    kernel for seconds to minutes while a dependent hash chain (latency bound) keeps its
    speed and a branchy loop slows more than the game; the mix of the two slows about
    like a game, so the ratio mostly cancels the phase (benchmarks/README.md)."""
    global _calib_nb, _branchy_nb
    if _calib_nb is None:
        _calib_nb = jit_driver(_calib_py)
        _branchy_nb = jit_driver(_branchy_py)
    fn, br = _calib_nb, _branchy_nb

    def chain(n):
        return fn(np.int64(n * CAL_BLOCK), np.int64(12345))

    if profile == "chain":
        return Bench("calibration", CAL_CHAIN_DESCRIPTION, chain, guarded=False)
    rng = np.random.default_rng(20261130)  # fixed: the same program and table everywhere
    prog = rng.integers(0, 16, 4096).astype(np.int64)
    mem0 = rng.integers(0, 2 ** 62, 16384).astype(np.uint64)
    mem = mem0.copy()
    regs = np.zeros(8, dtype=np.uint64)

    def run(n):
        mem[:] = mem0  # every block starts from the same table
        return chain(n) + br(np.int64(n * CAL_BRANCHY), prog, mem, regs)

    return Bench("calibration", CAL_MIXED_DESCRIPTION, run, guarded=False)


# --------------------------------------------------------------------------- frozen copies
# A kernel's speed relative to an outside loop moves with the load of the machine (a
# neighbour on the sibling hyperthread slows a game and the calibration loops unequally),
# so kernels marked ``calibration = "self"`` are measured against a frozen copy of
# themselves: their source and that of every kernel they call, written next to the floors
# by ``--update-floors`` and compiled in the guard's process the way today's kernel is
# (:func:`current_bench`).  Unchanged code then measures ~1.0 whatever the neighbours do,
# and a kernel made k times slower 1/k.  (What such a ratio cannot see is a slowdown of
# the toolchain itself, which slows the copy too: the kernels measured against the
# calibration loops guard that.)
FROZEN_DIR_NAME = "frozen"  # beside the floors file: benchmarks/frozen/<benchmark>.py
FROZEN_ENV = "SIMLIB_FROZEN_DIR"  # where --update-floors' sessions find the new copies


def default_frozen_dir() -> Path | None:
    """``$SIMLIB_FROZEN_DIR``, else ``frozen/`` beside the default floors file (``None``:
    an installed simlib has none)."""
    env = os.environ.get(FROZEN_ENV)
    if env:
        return Path(env)
    return None if DEFAULT_FLOORS is None else DEFAULT_FLOORS.parent / FROZEN_DIR_NAME


def _code_names(code) -> set[str]:
    out = set(code.co_names)
    for c in code.co_consts:
        if hasattr(c, "co_names"):
            out |= _code_names(c)
    return out


def kernel_tree(kernel) -> list:
    """The jitted functions ``kernel`` reaches through global names: itself first, then
    its callees depth first."""
    from numba.core.dispatcher import Dispatcher

    seen: dict[tuple[str, str], object] = {}

    def visit(d):
        f = d.py_func
        key = (f.__module__, f.__qualname__)
        if key in seen:
            return
        seen[key] = d
        for name in sorted(_code_names(f.__code__)):
            g = f.__globals__.get(name)
            if isinstance(g, Dispatcher):
                visit(g)

    visit(kernel)
    return list(seen.values())


def _options(d, cache: bool) -> dict:
    """The options ``d`` was compiled with (simlib's decorators record them), ``cache`` set."""
    from simlib.core.jit import JIT_OPTIONS

    opts = dict(getattr(d, "_simlib_options", None) or dict(JIT_OPTIONS, _nrt=False))
    opts["cache"] = bool(cache)
    return dict(sorted(opts.items()))


def frozen_source(kernel, note: str = "", cache: bool = False) -> str:
    """Python source of a frozen copy of ``kernel`` and every jitted function it calls,
    each compiled with its own options (``cache``: into numba's disk cache, else never
    cached); other global names (codes, ``np``) are imported from the kernels' modules, so
    the copy reads today's data layouts.  ``KERNEL`` is the copy of ``kernel``."""
    funcs = kernel_tree(kernel)
    names = {d.py_func.__name__ for d in funcs}
    if len(names) != len(funcs):
        raise ValueError(f"cannot freeze {kernel.py_func.__name__}: two kernels it calls "
                         "share a name")
    imports: dict[str, set[str]] = {}
    origin: dict[str, object] = {}
    bodies = []
    for d in funcs:
        f = d.py_func
        for name in sorted(_code_names(f.__code__)):
            if name in names or name not in f.__globals__:
                continue
            obj = f.__globals__[name]
            if name in origin and origin[name] is not obj:
                raise ValueError(f"cannot freeze {kernel.py_func.__name__}: the global "
                                 f"{name!r} means two things in its kernels")
            origin[name] = obj
            imports.setdefault(f.__module__, set()).add(name)
        src = textwrap.dedent(inspect.getsource(f))
        node = ast.parse(src).body[0]
        opts = ", ".join(f"{k}={v!r}" for k, v in _options(d, cache).items())
        bodies.append(f"@njit_with({opts})\n" + "\n".join(src.splitlines()[node.lineno - 1:]))
    head = [f'"""Frozen copy of ``{kernel.py_func.__module__}.{kernel.py_func.__name__}`` and '
            "the kernels it calls,", "written by `simlib bench --update-floors`"
            + (f" ({note})" if note else "") + ".", "",
            "The speed guard measures the kernel against this copy (see simlib.core.bench, "
            '"frozen copies"): do not edit; re-measure the floors instead.', '"""',
            "from simlib.core.jit import njit_with"]
    head += [f"from {mod} import {', '.join(sorted(ns))}" for mod, ns in sorted(imports.items())]
    return "\n".join(head) + "\n\n\n" + "\n\n\n".join(bodies) + \
        f"\n\n\nKERNEL = {kernel.py_func.__name__}\n"


def frozen_path(name: str, frozen_dir: Path | str) -> Path:
    """The frozen copy of benchmark ``name``'s kernel."""
    return Path(frozen_dir) / f"{name}.py"


def file_sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def write_frozen(benches: Sequence[Bench], frozen_dir: Path | str, note: str = "") -> dict[str, str]:
    """Write the frozen copy of every ``calibration = "self"`` benchmark's kernel into
    ``frozen_dir``; returns ``{benchmark: sha256 of its file}``."""
    out = {}
    Path(frozen_dir).mkdir(parents=True, exist_ok=True)
    for b in benches:
        if b.calibration == "self":
            path = frozen_path(b.name, frozen_dir)
            path.write_text(frozen_source(b.kernel, note, cache=b.cache_copies))
            out[b.name] = file_sha(path)
    return out


class FrozenMissing(RuntimeError):
    """A benchmark measured against its frozen copy has none (or it cannot run)."""


def frozen_bench(bench: Bench, frozen_dir: Path | str | None) -> Bench:
    """``bench`` timing the frozen copy of its kernel (the reference of ``"self"``)."""
    if frozen_dir is None:
        raise FrozenMissing(f"speed guard: no frozen copy of the {bench.name!r} kernel: an installed "
                            "simlib has no benchmarks/frozen/ folder (give --floors FILE with "
                            "frozen/ beside it, or run in a source checkout)")
    path = frozen_path(bench.name, frozen_dir)
    if bench.kernel is None or bench.rebuild is None:
        raise ValueError(f"benchmark {bench.name!r} has no kernel to freeze")
    if not path.is_file():
        raise FrozenMissing(f"speed guard: {path}: no frozen copy of the {bench.name!r} "
                            "kernel. Run `simlib bench --update-floors`.")
    try:
        ref = _load_copy(path, bench, _copy_module(bench, "frozen"))
    except Exception as exc:  # noqa: BLE001 - any failure of the copy means: re-freeze
        raise FrozenMissing(f"speed guard: {path}: the frozen copy of {bench.name!r} does "
                            f"not run with today's code ({type(exc).__name__}: {exc}). "
                            "Run `simlib bench --update-floors`.") from None
    return dataclasses.replace(ref, name=f"{bench.name}@frozen", guarded=False)


def _copy_module(bench: Bench, label: str) -> str:
    """The module name of a copy of ``bench``'s kernel: beside the kernel's own module, so
    its compiled code is cached in the kernel's game folder (``simlib.core.jit.cache_dir``:
    recompiled when that game's kernel sources change, not another game's)."""
    return f"{bench.kernel.py_func.__module__}__{label}_{bench.name}"


def _load_copy(path: Path, bench: Bench, module_name: str) -> Bench:
    """``bench`` rebuilt on the ``KERNEL`` of the copy at ``path``, compiled (one call)."""
    spec = importlib.util.spec_from_file_location(module_name, path)
    mod = importlib.util.module_from_spec(spec)
    # registered: numba names a cached kernel's module, and a process loading the kernel
    # from the cache looks the module up by that name
    sys.modules[module_name] = mod
    spec.loader.exec_module(mod)
    if not hasattr(getattr(mod, "KERNEL", None), "py_func"):
        raise TypeError("KERNEL is not a jitted kernel")
    ref = bench.rebuild(mod.KERNEL)
    ref.run(1)  # compile; a copy older than today's data layout fails here
    return ref


def current_bench(bench: Bench) -> Bench:
    """``bench`` timing today's kernel tree compiled in this process, written and loaded
    exactly as its frozen copy is, so a "self" ratio compares two compiles made the same
    way (the kernel numba's disk cache holds was compiled by whichever process came
    first, in another context).  Small kernels are compiled fresh from a temporary file;
    a benchmark with ``cache_copies`` (a whole game) writes its copy once per content into
    the kernels' cache folder, so its compile, like its frozen copy's, is reused by the
    next guard until a kernel source changes."""
    from simlib.core.jit import group_of, cache_dir

    text = frozen_source(bench.kernel, "today's kernel, compiled by the guard",
                         cache=bench.cache_copies)
    if bench.cache_copies:
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        folder = cache_dir(group_of(bench.kernel.py_func.__module__))
        path = Path(folder) / "bench-copies" / f"{bench.name}_{digest}.py"
        if not path.is_file():  # written once: numba's cache index checks its time stamp
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(text)
            os.replace(tmp, path)
    else:
        path = Path(tempfile.mkdtemp(prefix="simlib-current-")) / f"{bench.name}.py"
        path.write_text(text)
    ref = _load_copy(path, bench, _copy_module(bench, "current"))
    return dataclasses.replace(ref, name=bench.name, title=bench.title, guarded=bench.guarded,
                               kernel=bench.kernel, rebuild=bench.rebuild, note=bench.note,
                               entry=bench.entry, pure_n=bench.pure_n)


# --------------------------------------------------------------------------- benchmarks
def fresh_copy(kernel):
    """A fresh, non-cached, not yet compiled dispatcher of ``kernel``'s Python code."""
    return jit_driver(kernel.py_func)


def compile_seconds(bench: Bench) -> float | None:
    """Seconds of the first call of a fresh non-cached copy of the benchmark's kernel
    (its callees are already compiled); ``None`` for benchmarks without a compile case."""
    if bench.compile_case is None:
        return None
    kernel, args = bench.compile_case
    fresh = fresh_copy(kernel)
    t0 = time.perf_counter()
    fresh(*args)
    return time.perf_counter() - t0


SLOWDOWN_ENV = "SIMLIB_BENCH_SLOWDOWN"  # tests of the guard: "game=3,roll_dice=2"


def slowdowns() -> dict[str, int]:
    """``{benchmark: k}`` from ``$SIMLIB_BENCH_SLOWDOWN`` (tests of the guard only)."""
    out = {}
    for item in filter(None, os.environ.get(SLOWDOWN_ENV, "").split(",")):
        name, _, k = item.partition("=")
        out[name.strip()] = int(k)
    return out


def slowed(bench: Bench, k: int) -> Bench:
    """The benchmark with ``k`` times the work per operation: each block runs the very same
    operations ``k`` times (a stand-in for a kernel ``k`` times slower, measured through
    the guard's own path)."""
    run = bench.run

    def run_k(n):
        for _ in range(k):
            out = run(n)
        return out

    return dataclasses.replace(bench, run=run_k, title=f"{bench.title} [x{k} work]")


def make_benches(names: Iterable[str] = GUARDED) -> list[Bench]:
    slow = slowdowns()
    benches = [BENCH_FACTORIES[n]() for n in names]
    benches = [current_bench(b) if b.calibration == "self" else b for b in benches]
    return [slowed(b, slow[b.name]) if slow.get(b.name, 1) != 1 else b for b in benches]


# --------------------------------------------------------------------------- timing
def _cpu_clock() -> Callable[[], float]:
    """The process's CPU time (every thread), if the platform has a fine one: time the
    process spends descheduled (other processes on a busy machine) is not counted, so a
    block preempted half-way is not 'slow'.  Wall time otherwise."""
    try:
        info = time.get_clock_info("process_time")
        if info.resolution <= 1e-6:
            time.process_time()
            return time.process_time
    except (AttributeError, ValueError, OSError):  # pragma: no cover
        pass
    return time.perf_counter  # pragma: no cover


CLOCK = _cpu_clock()


def time_block(run: Callable[[int], object], n: int) -> float:
    """CPU seconds (see :func:`_cpu_clock`) of ``run(n)``."""
    t0 = CLOCK()
    run(n)
    return CLOCK() - t0


def paired_speedup(base: Bench, other: Bench, n: int, rounds: int) -> float:
    """Wall-time speed of ``other`` over ``base`` doing the same ``n`` operations:
    ``rounds`` rounds of a ``base`` block then an ``other`` block, the median of the
    rounds' ratios (paired, because a shared machine's speed drifts between rounds).  Wall
    time, not CPU time: for a block on several threads, CPU time counts every thread."""
    base.run(base.min_n)
    other.run(other.min_n)  # warm-up: compile or cache load
    ratios = []
    for _ in range(rounds):
        t = []
        for b in (base, other):
            t0 = time.perf_counter()
            b.run(n)
            t.append(time.perf_counter() - t0)
        ratios.append(t[0] / t[1])
    return float(np.median(ratios))


def block_size(bench: Bench, target: float) -> int:
    """Operations in a block of about ``target`` seconds, or the benchmark's ``fixed_n``
    (the first call warms up: compile or cache load, outside any timed region)."""
    n = bench.min_n
    run = bench.run
    run(n)  # warm-up: compile / load, outside any timed region
    if bench.fixed_n:
        run(bench.fixed_n)
        return bench.fixed_n
    while True:
        t = min(time_block(run, n), time_block(run, n))
        if t >= target / 4:
            return max(bench.min_n, int(n * target / t))
        n = n * 8 if t < target / 64 else n * 2


@dataclasses.dataclass
class Measurement:
    """Timing of one benchmark interleaved with the calibration loop.

    The measurement is made of ``windows`` windows, taken round-robin over the benchmarks
    of a session (so a benchmark's windows are spread over the session).  In a window,
    ``blocks_per_window`` kernel blocks alternate with calibration blocks (one before each
    kernel block, one after the last); the window's ratio is best kernel ops/s over best
    calibration ops/s *of that window*: both come from the same fraction of a second, so
    the machine's current speed (co-tenants, frequency) cancels, and best-of discards
    blocks slowed by noise.  ``ratio`` is the median of the windows' ratios, so one
    window where the co-tenants hit the kernel and the calibration unequally does not
    count.  ``ops_per_s`` and ``cal_ops_per_s`` are the best blocks overall."""

    name: str
    title: str
    ops_per_s: float
    cal_ops_per_s: float
    ratio: float
    window_ratios: list[float]
    block: int
    blocks_per_window: int
    calibration: str = "mixed"  # the calibration loop's profile (``calibration()``)


class Calibrator:
    """The calibration loops, timed between kernel blocks; keeps the session's best.

    ``tick(bench)`` times one block of the loop ``bench`` is measured against (its
    ``calibration`` profile, :func:`calibration`; for ``"self"`` its frozen copy from
    ``frozen_dir``, :func:`frozen_bench`); ``tick("mixed")`` / ``tick("chain")`` a loop by
    name.  ``ops_per_s`` is the "mixed" loop's best."""

    def __init__(self, target: float, frozen_dir: Path | str | None = None):
        self.target = target
        self.frozen_dir = Path(frozen_dir) if frozen_dir is not None else default_frozen_dir()
        self._loops: dict[str, tuple[Bench, int, list[float]]] = {}
        self._loop("mixed")

    def _loop(self, profile: str, bench: Bench | None = None) -> tuple[Bench, int, list[float]]:
        key = f"self:{bench.name}" if profile == "self" else profile
        if key not in self._loops:
            if profile == "self":
                b = frozen_bench(bench, self.frozen_dir)
            elif profile in ("mixed", "chain"):
                b = calibration(profile)
            else:
                raise ValueError(f"calibration profile {profile!r}: 'mixed', 'chain' or 'self'")
            self._loops[key] = (b, block_size(b, self.target), [float("inf")])
        return self._loops[key]

    def tick(self, what: "Bench | str" = "mixed") -> float:
        """Time one calibration block; return its seconds per operation."""
        if isinstance(what, str):
            b, n, best = self._loop(what)
        else:
            b, n, best = self._loop(what.calibration, what)
        t = time_block(b.run, n) / n
        best[0] = min(best[0], t)
        return t

    @property
    def ops_per_s(self) -> float:
        return 1.0 / self._loops["mixed"][2][0]


def measure_all(benches: Sequence[Bench], target: float = 0.01, blocks: int = 3,
                windows: int = 3, cal: Calibrator | None = None,
                sizes: Sequence[int] | None = None) -> list[Measurement]:
    """Measure the benchmarks round-robin: ``windows`` windows of ``blocks`` blocks of
    about ``target`` seconds each; see :class:`Measurement`."""
    cal = Calibrator(target / 2) if cal is None else cal
    if sizes is None:
        sizes = [block_size(b, target) for b in benches]
    wr: list[list[float]] = [[] for _ in benches]
    best = [float("inf")] * len(benches)
    cbest = [float("inf")] * len(benches)
    for _w in range(windows):
        for i, (b, n) in enumerate(zip(benches, sizes)):
            kb = float("inf")
            cb = cal.tick(b)
            for _ in range(blocks):
                kb = min(kb, time_block(b.run, n) / n)
                cb = min(cb, cal.tick(b))
            wr[i].append(cb / kb)
            best[i] = min(best[i], kb)
            cbest[i] = min(cbest[i], cb)
    return [Measurement(b.name, b.title, 1.0 / best[i], 1.0 / cbest[i],
                        statistics.median(wr[i]), wr[i], sizes[i], blocks, b.calibration)
            for i, b in enumerate(benches)]


def measure(bench: Bench, cal: Calibrator | None = None, target: float = 0.01,
            blocks: int = 3, windows: int = 3, n: int | None = None) -> Measurement:
    """:func:`measure_all` of one benchmark."""
    return measure_all([bench], target, blocks, windows, cal,
                       None if n is None else [n])[0]


# --------------------------------------------------------------------------- floors
def machine_description() -> str:
    """CPU model (``/proc/cpuinfo``), core count, OS; "virtual machine" under a hypervisor."""
    model = platform.processor() or platform.machine()
    vm = False
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
        for line in text.splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        vm = any(line.startswith("flags") and " hypervisor" in line for line in text.splitlines())
    except OSError:
        pass
    return (f"{model}, {os.cpu_count()} cores ({platform.system()} {platform.machine()}"
            f"{', virtual machine' if vm else ''})")


def load_floors(path: Path | str = DEFAULT_FLOORS) -> tuple[dict, dict[str, dict]]:
    """``(meta, {kernel: {"ratio", "floor", ...}})`` from a floors TOML file."""
    import tomllib

    with open(path, "rb") as f:
        data = tomllib.load(f)
    return data.get("meta", {}), data.get("kernels", {})


def check_ratio(name: str, ratio: float, floor: float | None,
                measured: float | None = None, self_ref: bool = False) -> str | None:
    """``None`` when ``ratio`` meets ``floor``; else the guard's readable failure message
    (``self_ref``: the ratio is to the kernel's frozen copy)."""
    if floor is None:
        return (f"speed guard: kernel {name!r} has no floor in benchmarks/floors.toml; "
                f"measured ratio {ratio:.4g}. Run `simlib bench --update-floors`.")
    if ratio >= floor:
        return None
    msg = (f"speed guard: kernel {name!r} is too slow: ratio to "
           f"{'its frozen copy' if self_ref else 'the calibration loop'} {ratio:.4g} < floor {floor:.4g}")
    if measured:
        msg += f" (committed measurement {measured:.4g}: now {measured / ratio:.2f}x slower)"
    return msg + "."


def frozen_problem(name: str, floor: Mapping, frozen_dir: Path | str) -> str | None:
    """Why kernel ``name``'s frozen copy cannot be its reference (missing, or not the copy
    its ``floor`` entry was measured against), else ``None``."""
    path = frozen_path(name, frozen_dir)
    if path.is_file() and file_sha(path) == floor.get("frozen"):
        return None
    return (f"speed guard: {path}: the frozen copy of {name!r} is missing or not the one its "
            "floor was measured against. Run `simlib bench --update-floors`.")


def guard(measurements: Sequence[Measurement], floors: dict[str, dict]) -> list[str]:
    """Failure messages of the measurements below their floors (empty: all pass).  (A
    ``"self"`` kernel whose frozen copy is not the floors' one is refused before it is
    measured: :func:`run_guard`, :func:`frozen_problem`.)"""
    out = []
    for m in measurements:
        f = floors.get(m.name)
        if f is not None and f.get("calibration", "mixed") != m.calibration:
            out.append(f"speed guard: kernel {m.name!r} is measured against the "
                       f"{m.calibration!r} calibration loop but its floor against "
                       f"{f.get('calibration', 'mixed')!r}. Run `simlib bench "
                       "--update-floors`.")
            continue
        msg = check_ratio(m.name, m.ratio, None if f is None else float(f["floor"]),
                          None if f is None else float(f.get("ratio", 0)) or None,
                          m.calibration == "self")
        if msg:
            out.append(msg)
    return out


def run_guard(floors_path: Path | str = DEFAULT_FLOORS, names: Sequence[str] = GUARDED,
              target: float = 0.01, blocks: int = 3, windows: int = 3,
              echo: Callable[[str], None] | None = print, pause: float = RETRY_PAUSE
              ) -> tuple[list[Measurement], list[str]]:
    """The quick guard: measure, compare with the floors, re-measure a failure up to
    ``RETRIES`` times (three times the windows, ``pause`` seconds apart) and keep the best
    measurement.

    Returns ``(measurements, failure messages)``."""
    _meta, floors = load_floors(floors_path)
    frozen_dir = Path(floors_path).parent / FROZEN_DIR_NAME
    benches = {b.name: b for b in make_benches(names)}
    cal = Calibrator(target / 2, frozen_dir)
    early = []  # "self" kernels whose frozen copy is missing, changed or does not run
    for b in list(benches.values()):
        if b.calibration != "self":
            continue
        f = floors.get(b.name)
        msg = frozen_problem(b.name, f, frozen_dir) if f and f.get("calibration") == "self" else None
        if msg:
            early.append(msg)
        else:
            try:
                cal.tick(b)  # loads and compiles the copy
                continue
            except FrozenMissing as exc:
                early.append(str(exc))
        del benches[b.name]
    ms = {m.name: m for m in measure_all(list(benches.values()), target, blocks, windows, cal)}
    for name in list(ms):
        f = floors.get(name)
        # below the floor: a slow phase of the machine? up to RETRIES more goes, ``pause``
        # seconds apart, with three times the windows, keeping the best (noise lowers a
        # ratio far more often than it raises it: a 2x slower kernel would need +25 % of
        # luck in the median of 9 windows to pass)
        for _ in range(RETRIES):
            if f is None or ms[name].ratio >= float(f["floor"]) or \
                    f.get("calibration", "mixed") != ms[name].calibration:  # no use re-measuring
                break
            time.sleep(pause)
            again = measure(benches[name], cal, target, blocks, 3 * windows, n=ms[name].block)
            if again.ratio > ms[name].ratio:
                ms[name] = again
    result = [ms[n] for n in names if n in ms]
    fails = early + guard(result, floors)
    if echo:
        echo(f"speed guard: ratio = kernel ops/s / its reference's ops/s (calibration loop or "
             f"frozen copy, same process), "
             f"floors from {floors_path}")
        for m in result:
            f = floors.get(m.name)
            fl = float(f["floor"]) if f else float("nan")
            state = "ok" if f and m.ratio >= fl else "FAIL"
            echo(f"  {m.name:<14} ratio {m.ratio:>11.4g}   floor {fl:>11.4g}   "
                 f"{m.ratio / fl:5.2f}x floor   {state}")
        for msg in fails:
            echo(msg)
    return result, fails


def _fmt_toml_str(s: str) -> str:
    return json.dumps(s)  # a JSON string is a valid TOML basic string


def write_floors(path: Path | str, sessions: list[list[Measurement]], margin: float = MARGIN,
                 note: str = "", frozen: Mapping[str, str] | None = None,
                 keep: Mapping[str, Mapping] | None = None) -> dict[str, dict]:
    """Write the floors file from several measurement sessions (median ratio / margin);
    ``keep``: earlier kernels' entries written again as they were (``--only``)."""
    # by name: a kernel measured in every session (a game registered while the sessions
    # ran is left out, and the guard then asks for new floors)
    by_name = [{m.name: m for m in s} for s in sessions]
    names = [m.name for m in sessions[0] if all(m.name in b for b in by_name)]
    sessions = [[b[n] for n in names] for b in by_name]
    lines = [
        "# Speed floors of simlib's kernels, written by `simlib bench --update-floors`.",
        "# ratio: a kernel's operations per second divided by the calibration loop's, both",
        "# best-of blocks of the same windows in one process, median of 3 windows (what the",
        "# quick guard measures); here the median over `sessions` fresh processes.",
        "# floor = ratio / margin; the guard (tests/test_speed_guard.py, `simlib bench",
        "# --guard`) fails when a kernel's ratio falls below its floor.  A kernel with",
        "# calibration = \"self\" is measured against its frozen copy in frozen/<kernel>.py",
        "# (written with this file; `frozen` is that file's sha256).",
        "",
        "[meta]",
        f"date = {_fmt_toml_str(datetime.date.today().isoformat())}",
        f"machine = {_fmt_toml_str(machine_description())}",
        f"python = {_fmt_toml_str(platform.python_version())}",
        f"numba = {_fmt_toml_str(numba.__version__)}",
        f"numpy = {_fmt_toml_str(np.__version__)}",
        f"margin = {margin}",
        f"sessions = {len(sessions)}",
        f"calibration = {_fmt_toml_str(CAL_DESCRIPTION)}",
    ]
    mixed = [i for i, m in enumerate(sessions[0]) if m.calibration == "mixed"]
    if mixed:  # the mixed loop's speed, as measured beside the first kernel timed against it
        lines.append("calibration_ops_per_s = "
                     f"{statistics.median(s[mixed[0]].cal_ops_per_s for s in sessions):.6g}")
    if note:
        lines.append(f"note = {_fmt_toml_str(note)}")
    out = {}
    for i, name in enumerate(names):
        ratios = [s[i].ratio for s in sessions]
        med = statistics.median(ratios)
        floor = med / margin
        out[name] = {"ratio": med, "floor": floor}
        lines += [
            "",
            f"[kernels.{name}]",
            f"operation = {_fmt_toml_str(sessions[0][i].title)}",
            f"calibration = {_fmt_toml_str(sessions[0][i].calibration)}",
        ]
        if frozen and name in frozen:
            lines.append(f"frozen = {_fmt_toml_str(frozen[name])}")
        lines += [
            f"ops_per_s = {statistics.median(s[i].ops_per_s for s in sessions):.6g}",
            f"ratio = {med:.6g}",
            f"floor = {floor:.6g}",
            "session_ratios = [" + ", ".join(f"{r:.6g}" for r in ratios) + "]",
        ]
    for name, f in (keep or {}).items():
        lines += ["", f"[kernels.{name}]"]
        for k, v in f.items():
            if isinstance(v, str):
                lines.append(f"{k} = {_fmt_toml_str(v)}")
            elif isinstance(v, list):
                lines.append(f"{k} = [" + ", ".join(f"{x:.6g}" for x in v) + "]")
            else:
                lines.append(f"{k} = {v:.6g}")
    Path(path).write_text("\n".join(lines) + "\n")
    return out


# --------------------------------------------------------------------------- subprocesses
def _subprocess_json(mode: str, env_extra: dict[str, str], timeout: float):
    env = dict(os.environ)
    env.update(env_extra)
    root = str(Path(__file__).resolve().parents[2])  # the folder holding this simlib
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    p = subprocess.run([sys.executable, "-W", "ignore", "-m", "simlib.core.bench", "--worker",
                        mode], capture_output=True, text=True, env=env, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"bench worker {mode!r} failed:\n{p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def _worker_pure(names: Sequence[str] = GUARDED) -> dict:
    """Under NUMBA_DISABLE_JIT=1: ops/s of each benchmark in plain Python (``pure_n``
    operations a block, best of two)."""
    out = {}
    for name in names:
        b = BENCH_FACTORIES[name]()
        n = max(b.min_n, b.pure_n or b.min_n)
        out[name] = n / min(time_block(b.run, n) for _ in range(2))
    return out


def _first_call_times(game: str, names: Sequence[str] | None = None) -> dict:
    """Seconds of the first call of each of ``game``'s benchmarks in this process, in the
    order the game declares them: a load from numba's disk cache, or a compile when the
    cache is empty or stale (``cache``: hits and misses).  On an empty cache the first
    figure is everything that benchmark needs, each later one what it adds.  ``names``:
    only those of the game's benchmarks."""
    factories = game_benches()[game]
    benches = {name: f() for name, f in factories.items()  # ruleset loading is outside
               if names is None or name in names}
    out: dict = {}
    dispatchers = {}
    t0 = time.perf_counter()
    for name, b in benches.items():
        if b.compile_case is not None:
            kernel, args = b.compile_case
            t = time.perf_counter()
            kernel(*args)
            dispatchers[name] = kernel
        else:
            t = time.perf_counter()
            b.run(b.min_n)  # a few operations: ~1 ms of work beside the compile or load
            if b.entry is not None:
                dispatchers[name] = b.entry
        out[name] = time.perf_counter() - t
    out["total"] = time.perf_counter() - t0
    out["cache"] = {name: {"hits": sum(d.stats.cache_hits.values()),
                           "misses": sum(d.stats.cache_misses.values())}
                    for name, d in dispatchers.items() if hasattr(d, "stats")}
    return out


def _worker(mode: str) -> int:
    kind, _, game = mode.partition(":")
    game, _, only = game.partition("@")  # "load:<game>@k1,k2": only those benchmarks
    names = [n for n in only.split(",") if n] or None
    if kind == "pure":
        res = _worker_pure([n for n in game.split(",") if n] or GUARDED)
    elif kind == "ratios":  # the frozen copies: $SIMLIB_FROZEN_DIR (default_frozen_dir)
        names = [n for n in game.split(",") if n] or GUARDED
        res = [dataclasses.asdict(m) for m in measure_all(make_benches(names))]
    elif kind in ("load", "cold") and game:
        t = time.perf_counter()
        from simlib.core.games import get_game

        get_game(game)
        res = _first_call_times(game, names)
        res["import"] = time.perf_counter() - t - res["total"]
    else:
        raise SystemExit(f"unknown worker mode {mode!r}")
    print(json.dumps(res))
    return 0


def _games_of(names: Sequence[str] | None) -> dict[str, str]:
    """``{game: "@k1,k2"}`` of the games holding ``names`` (``None``: every game, "")."""
    out = {}
    for g, fs in game_benches().items():
        mine = [n for n in fs if names is None or n in names]
        if mine:
            out[g] = "" if names is None else "@" + ",".join(mine)
    return out


def cached_load_times(timeout: float = 1800, names: Sequence[str] | None = None) -> dict:
    """``{game: first-call seconds}`` of each game's benchmarks (``names``: only those),
    each game in a fresh process reading numba's disk cache."""
    return {g: _subprocess_json(f"load:{g}{o}", {}, timeout) for g, o in _games_of(names).items()}


def cold_compile_times(timeout: float = 3600, names: Sequence[str] | None = None) -> dict:
    """``{game: first-call seconds}`` of each game's benchmarks (``names``: only those),
    each game in a fresh process with an empty numba cache."""
    out = {}
    for g, o in _games_of(names).items():
        with tempfile.TemporaryDirectory(prefix="simlib-cold-") as d:
            out[g] = _subprocess_json(f"cold:{g}{o}", {"NUMBA_CACHE_DIR": d}, timeout)
    return out


def pure_python_rates(timeout: float = 600, names: Sequence[str] | None = None) -> dict:
    """Ops/s of each benchmark (``names``: only those) with the JIT disabled (subprocess,
    NUMBA_DISABLE_JIT=1)."""
    return _subprocess_json("pure:" + ",".join(names or ()), {"NUMBA_DISABLE_JIT": "1"}, timeout)


# --------------------------------------------------------------------------- report
def si(x: float) -> str:
    """``x`` with three significant digits and a k / M / G suffix."""
    if x != x:
        return "-"
    for unit, f in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= f:
            return f"{x / f:.3g} {unit}"
    return f"{x:.3g}"


def _secs(x) -> str:
    if x is None:
        return "-"
    return f"{x * 1000:.1f} ms" if x < 0.1 else f"{x:.2f} s"


def _without_frozen(b: Bench) -> Bench:
    """A "self" benchmark measured against the mixed loop (no frozen copies here)."""
    return dataclasses.replace(b, calibration="mixed") if b.calibration == "self" else b


def report(args) -> int:
    quick = args.quick
    target, windows = (0.01, 3) if quick else ((0.02, 9) if args.full else (0.02, 5))
    blocks = 3
    say = print
    names = [n for n in args.only.split(",") if n] if args.only else list(GUARDED)
    games = {g: {n: f for n, f in fs.items() if n in names} for g, fs in game_benches().items()}
    games = {g: fs for g, fs in games.items() if fs}
    extra = checkout_notes(games)  # before measuring: a broken file fails in seconds
    say(f"simlib bench{' --quick' if quick else ''}{' --full' if args.full else ''}: kernels "
        f"of {', '.join(games)}, {datetime.date.today().isoformat()}")
    say(f"machine: {machine_description()}; Python {platform.python_version()}, "
        f"numba {numba.__version__}, numpy {np.__version__}")
    frozen_dir = default_frozen_dir()
    have_frozen = frozen_dir is not None and frozen_dir.is_dir()
    t_load = None
    if not args.no_subprocess:
        say("cached load: timing first calls in a fresh process per game ...")
        t_load = cached_load_times(names=None if not args.only else names)
    say("compiling the benchmarks' own copies ...")
    benches = []
    for name in names:
        b = BENCH_FACTORIES[name]()
        if b.calibration == "self":  # against its frozen copy where there is one
            has_copy = have_frozen and frozen_path(name, frozen_dir).is_file()
            b = current_bench(b) if has_copy else _without_frozen(b)
        benches.append(b)
    compile_fresh = {b.name: (min(compile_seconds(b) for _ in range(2))
                              if b.compile_case else None) for b in benches}
    say("measuring ...")
    cal = Calibrator(target / 2, frozen_dir)
    ms = measure_all(benches, target, blocks, windows, cal)
    pure = cold = None
    if not args.no_subprocess:
        say("JIT disabled: timing plain Python in a subprocess ...")
        pure = pure_python_rates(names=None if not args.only else names)
        if args.full:
            say("cold compile: a fresh process per game with an empty numba cache (minutes) ...")
            cold = cold_compile_times(names=None if not args.only else names)
    game_of = {name: g for g, fs in games.items() for name in fs}
    say("")
    ref = ("ratio of a kernel marked * : to its frozen copy (benchmarks/frozen/)" if have_frozen
           else "no frozen kernel copies here (they live in a source checkout's benchmarks/): "
                "every ratio is to a calibration loop")
    say(f"calibration loop: {si(cal.ops_per_s)} ops/s (1 op = {CAL_MIXED_DESCRIPTION}); {ref}")
    w = max([14] + [len(m.name) for m in ms]) + 1  # the name and its star
    hdr = (f"{'kernel':<{w}} {'operation':<44} {'ops/s':>10} {'ratio':>10} {'JIT speed-up':>13} "
           f"{'compile':>10} {'cached load':>12} {'cold compile':>13}")
    say(hdr)
    say("-" * len(hdr))
    by_name = {b.name: b for b in benches}
    for m in ms:
        g = game_of.get(m.name)
        part = not by_name[m.name].pure_comparable  # no like-for-like plain-Python figure
        r = m.ops_per_s / pure[m.name] if pure and m.name in pure and not part else None
        sp = ("n/a" if part else "-") if r is None else f"{r:.0f}x" if r >= 10 else f"{r:.2g}x"
        comp = _secs(compile_fresh.get(m.name))
        load = _secs(t_load[g].get(m.name)) if t_load and g in t_load else "-"
        cc = _secs(cold[g].get(m.name)) if cold and g in cold else "(--full)"
        star = "*" if m.calibration == "self" else ""
        say(f"{m.name + star:<{w}} {m.title[:44]:<44} {si(m.ops_per_s):>10} {m.ratio:>10.4g} "
            f"{sp:>13} {comp:>10} {load:>12} {cc:>13}")
    say("")
    say("ops/s: best of %d blocks of ~%.0f ms after a warm-up; ratio: ops/s over the "
        "reference's in the same windows, median of %d windows (what the guard compares);"
        % (blocks * windows, target * 1000, windows))
    say("JIT speed-up: over the same code with NUMBA_DISABLE_JIT=1 (n/a: its plain-Python "
        "run plays only part of the benchmark's work); compile: first call of a "
        "fresh non-cached copy (callees already compiled);")
    say("cached load: first call in a fresh process per game (numba disk cache); cold "
        "compile: the same with an empty cache, in each game's order (its first kernel: "
        "everything that kernel needs; each later one: what it adds).")
    if t_load:
        for g, t in t_load.items():
            miss = sum(v.get("misses", 0) for v in t.get("cache", {}).values())
            if miss:
                say(f"note: {g}'s cached-load process missed numba's cache {miss} time(s): "
                    "its figures are compile times (the cache held no copy of those kernels "
                    "as they are now: never compiled on this machine with this numba, or "
                    "their sources changed since).")
            say(f"import of {g}: {_secs(t.get('import'))}")
    if cold:
        for g, t in cold.items():
            first = next(iter(games[g]))
            say(f"cold compile of {g}'s {first} (first, in a fresh process with an empty "
                f"cache): {_secs(t.get(first))}; with every kernel of {g}: {_secs(t.get('total'))}")
    ctx = ReportContext({m.name: m for m in ms}, cal, target, quick)
    for m, b in zip(ms, benches):
        notes = ([b.note] if b.note is not None else []) + extra.get(b.name, [])
        if notes:
            say("")
        for note in notes:
            for line in note(m, ctx):
                say(line)
    return 0


# --------------------------------------------------------------------------- anchor
ANCHOR_INSTALL = "python -m pip install 'simlib[bench]'"


class AnchorUnavailable(RuntimeError):
    """OpenSpiel (the outside anchor) is not installed."""


def anchor_bench() -> Bench:
    """The outside anchor: OpenSpiel's C++-driven random play of connect four, one game per
    operation (``pyspiel.evaluate_bots`` with two uniform random bots, the game's seed
    ``SEED + i``).  Not guarded: a yardstick from outside simlib, printed beside our own
    full game so the figures of different machines and days can be compared."""
    from simlib.core.benchkit import SEED

    try:
        import pyspiel
    except ImportError as exc:
        raise AnchorUnavailable(
            f"simlib bench --anchor needs OpenSpiel (the package open_spiel): {ANCHOR_INSTALL}"
        ) from exc
    from importlib.metadata import version

    game = pyspiel.load_game("connect_four")
    bots = [pyspiel.make_uniform_random_bot(p, SEED + p) for p in range(2)]

    def run(n):
        for i in range(n):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, SEED + i)

    return Bench("anchor", f"OpenSpiel {version('open_spiel')}: connect four, uniform random "
                 "bots (evaluate_bots)", run,
                 guarded=False, fixed_n=512)


def headline_bench(game: str | None = None) -> tuple[str, Bench]:
    """``(game's display name, its headline benchmark)``: the first benchmark the game
    (default: the registry's default game) declares."""
    from simlib.core.games import get_game, load_ref

    info = get_game(game)
    factory = next(iter(load_ref(info.benches).values()))
    return info.display_name, factory()


def measure_anchor(target: float = 0.02, windows: int = 5, blocks: int = 3) -> dict:
    """The default game's headline benchmark and the anchor measured interleaved in this
    process; ``ratio`` = our games/s over the anchor's."""
    anchor = anchor_bench()
    name, ours = headline_bench()
    # only the two games/s figures count here: against the mixed loop, so an installed simlib
    # (no frozen kernel copies beside it) measures the same way as a source checkout
    mo, ma = measure_all([_without_frozen(ours), anchor], target, blocks, windows)
    return {"simlib_games_per_s": mo.ops_per_s, "anchor_games_per_s": ma.ops_per_s,
            "ratio": mo.ops_per_s / ma.ops_per_s, "simlib": f"{name}, {mo.title}",
            "anchor": ma.title}


def anchor_report(args) -> int:
    try:
        r = measure_anchor(windows=9 if args.full else (3 if args.quick else 5))
    except AnchorUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"simlib bench --anchor: {datetime.date.today().isoformat()}, {machine_description()}")
    a = r["anchor"]
    o = f"simlib: {r['simlib']}"
    w = max(len(a), len(o))
    print(f"  {a:<{w}}  {r['anchor_games_per_s']:>10,.0f} games/s")
    print(f"  {o:<{w}}  {r['simlib_games_per_s']:>10,.0f} games/s")
    print(f"  ratio simlib / anchor: {r['ratio']:.3f}  (interleaved in this process: best "
          "block of each window, median of the windows)")
    return 0


def measure_session(frozen_dir: Path | str | None = None,
                    names: Sequence[str] | None = None) -> list[Measurement]:
    """One guard-settings measurement of every guarded kernel (or of ``names``) in a fresh
    process."""
    env = {FROZEN_ENV: str(frozen_dir)} if frozen_dir is not None else {}
    rows = _subprocess_json("ratios:" + ",".join(names or ()), env, timeout=3600)
    return [Measurement(**r) for r in rows]


def _git_head() -> str:
    try:
        p = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                           text=True, timeout=10, cwd=Path(__file__).resolve().parent)
        return p.stdout.strip() if p.returncode == 0 else ""
    except OSError:
        return ""


def update_floors(args) -> int:
    """Median ratio of ``--sessions`` fresh processes (each measures like the quick
    guard), floor = median / margin, written to the floors file; the frozen copies of the
    ``"self"`` kernels are written first to a temporary folder (the sessions measure
    against them) and moved beside the floors file with it (nothing partial on failure)."""
    import shutil

    path = Path(args.floors)
    frozen_dir = path.parent / FROZEN_DIR_NAME
    head = _git_head()
    note = f"{datetime.date.today().isoformat()}" + (f", commit {head}" if head else "")
    names = list(GUARDED) if not args.only else [n for n in args.only.split(",") if n]
    keep: dict[str, dict] = {}
    if args.only and path.is_file():  # the other kernels' floors stay as they are
        old_meta, old = load_floors(path)
        keep = {n: f for n, f in old.items() if n not in names}
        note += (f"; re-measured {', '.join(names)}; the other kernels' floors kept from "
                 f"{old_meta.get('date', 'an earlier run')}")
    sessions = []
    with tempfile.TemporaryDirectory(prefix="simlib-frozen-") as tmp:
        shas = write_frozen([BENCH_FACTORIES[n]() for n in names], tmp, note)
        for s in range(args.sessions):
            ms = measure_session(tmp, names if args.only else None)
            sessions.append(ms)
            print(f"session {s + 1}/{args.sessions}: " +
                  ", ".join(f"{m.name} {m.ratio:.4g}" for m in ms), flush=True)
        frozen_dir.mkdir(parents=True, exist_ok=True)
        for name in shas:
            shutil.copyfile(frozen_path(name, tmp), frozen_path(name, frozen_dir))
    floors = write_floors(path, sessions, args.margin, frozen=shas, keep=keep,
                          note=note if args.only else "")
    for name, f in floors.items():
        rs = [m.ratio for s in sessions for m in s if m.name == name]
        print(f"  {name:<15} ratio {f['ratio']:.4g}  floor {f['floor']:.4g}  "
              f"(sessions spread {max(rs) / min(rs):.2f}x)")
    print(f"wrote {path}" + (f" and {len(shas)} frozen kernel copies in {frozen_dir}" if shas else ""))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="simlib bench",
        description="Speed of every registered game's kernels: a table (default), the "
                    "speed guard (--guard) or new floors (--update-floors; both need the "
                    "source tree's benchmarks/ folder).")
    ap.add_argument("--quick", action="store_true", help="a few seconds of measuring")
    ap.add_argument("--full", action="store_true",
                    help="more repeats and the cold compile of every kernel (minutes)")
    ap.add_argument("--guard", action="store_true",
                    help="compare quick ratios with the floors; exit status 1 on failure")
    ap.add_argument("--update-floors", action="store_true",
                    help="measure several sessions and rewrite the floors file")
    ap.add_argument("--floors", default=None if DEFAULT_FLOORS is None else str(DEFAULT_FLOORS),
                    help="floors file (TOML; default: benchmarks/floors.toml of the source "
                         f"tree, or ${FLOORS_ENV})")
    ap.add_argument("--only", metavar="K1,K2",
                    help="only these kernels (the table, --guard); --update-floors: re-measure "
                         "only these and keep the others' floors (default: every declared "
                         "benchmark)")
    ap.add_argument("--sessions", type=int, default=5, help="sessions for --update-floors")
    ap.add_argument("--margin", type=float, default=MARGIN,
                    help="floor = median ratio / margin (--update-floors)")
    ap.add_argument("--no-subprocess", action="store_true",
                    help="skip the subprocess figures (cached load, JIT disabled, cold)")
    ap.add_argument("--anchor", action="store_true",
                    help="our full game beside OpenSpiel's random connect four (an outside "
                         "anchor; needs the bench extra)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return _worker(args.worker)
    if args.guard or args.update_floors:
        flag = "--guard" if args.guard else "--update-floors"
        why = None
        if args.floors is None:
            why = "not found beside this installed simlib"
        elif args.guard and not Path(args.floors).is_file():
            why = f"{args.floors} does not exist"
        elif not Path(args.floors).parent.is_dir():
            why = f"{Path(args.floors).parent} does not exist"
        if why:
            print(NO_TREE.format(flag=flag, why=why), file=sys.stderr)
            return 2
    if args.only:
        unknown = [n for n in args.only.split(",") if n and n not in BENCH_FACTORIES]
        if unknown:
            print(f"simlib bench: error: unknown kernels {', '.join(unknown)} "
                  f"(declared: {', '.join(GUARDED)})", file=sys.stderr)
            return 2
    if args.update_floors:
        return update_floors(args)
    if args.guard:
        names = tuple(n for n in args.only.split(",") if n) if args.only else GUARDED
        _ms, fails = run_guard(args.floors, names)
        return 1 if fails else 0
    if args.anchor:
        return anchor_report(args)
    return report(args)


if __name__ == "__main__":
    sys.exit(main())
