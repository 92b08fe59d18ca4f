"""What a game's speed benchmarks are made of.

A game declares its guarded benchmarks as ``GameInfo.benches``: the ``"module:attribute"``
of a ``{name: factory}`` mapping, each factory returning a :class:`Bench` (for example
``simlib/games/until_daylight/benches.py``).  ``simlib.core.bench`` (``simlib bench``)
times every registered game's benchmarks, prints them, and guards their floors; it knows
no game by name.  The first benchmark a game declares is its headline (the one
``simlib bench --anchor`` sets beside an outside yardstick).
"""
from __future__ import annotations

import dataclasses
import statistics
import time
from typing import Callable

import numba

from simlib.core.jit import JIT_OPTIONS

SEED = 20240611  # fixed games: every block of a benchmark does the same work

# simlib.core.jit.njit_nb's options but never cached: numba's cache check sees only the
# driver's own file (and this file is not part of the kernel-source hash that names
# simlib's cache folder), so a cached driver could time a stale copy of a kernel.
DRIVER_OPTS = dict(JIT_OPTIONS, cache=False, _nrt=False)


def jit_driver(fn):
    """A benchmark's jitted driver loop: compiled fresh in every process, never cached."""
    return numba.njit(**DRIVER_OPTS)(fn)


@dataclasses.dataclass
class ReportContext:
    """What a benchmark's ``note`` sees: every measurement of the report by name, the
    calibration loops (to measure more, interleaved), the block target in seconds and
    whether the report is ``--quick``."""

    measurements: dict
    calibrator: object
    target: float
    quick: bool = False


@dataclasses.dataclass
class Bench:
    """A benchmark: ``run(n)`` performs ``n`` operations of ``title``."""

    name: str
    title: str
    run: Callable[[int], object]
    guarded: bool = True
    min_n: int = 1
    compile_case: tuple | None = None  # (kernel dispatcher, call args) for compile_seconds
    fixed_n: int | None = None  # operations per block, whatever the machine's speed
    # the calibration loop it is measured against (``simlib.core.bench.calibration``):
    # "mixed" (hash chain + branchy loop: kernels with branches and memory traffic) or
    # "chain" (the hash chain alone: a tight arithmetic loop like the dice roll) or
    # "self" (a frozen copy of the kernel itself, see ``simlib.core.bench.frozen_source``)
    calibration: str = "mixed"
    kernel: Callable | None = None  # "self": the jitted kernel the benchmark times ...
    rebuild: Callable[[Callable], "Bench"] | None = None  # ... and the same benchmark of another kernel
    # "self" copies compiled into numba's disk cache (whole games: a fresh compile of a
    # copy costs as much as the game's cold compile); small kernels are compiled fresh
    cache_copies: bool = False
    entry: Callable | None = None  # the dispatcher ``run`` calls first (cache statistics)
    pure_n: int | None = None  # operations of the NUMBA_DISABLE_JIT figure (default min_n)
    # False when those operations are not like the benchmark's (the search's plain-Python run
    # plays one early decision of a spread whose late ones cost far more): no speed-up shown
    pure_comparable: bool = True
    # lines the report prints after its table, from this benchmark's measurement
    note: Callable[["object", ReportContext], list[str]] | None = None


def alternating_ratio(a: Callable[[int], object], b: Callable[[int], object], n: int,
                      rounds: int = 3) -> tuple[float, float, float]:
    """``(a's ops per CPU-second, b's, a's / b's)``: ``a(n)`` and ``b(n)`` timed in
    alternating rounds of this process (process CPU time, so another job on the machine
    does not count; the median of each and of the rounds' ratios), after one small call
    of each outside the timing (compile or cache load)."""
    a(4), b(4)
    ra, rb, r = [], [], []
    for _ in range(rounds):
        for run, out in ((a, ra), (b, rb)):
            t = time.process_time()
            run(n)
            out.append(n / (time.process_time() - t))
        r.append(ra[-1] / rb[-1])
    return statistics.median(ra), statistics.median(rb), statistics.median(r)


def distilled_note(game: str, ratio: Callable[[int], tuple[float, float, float]], quick: bool,
                   what: str, base: str) -> list[str]:
    """The line a game's headline benchmark adds for its distilled player: ``ratio(rounds)``
    gives :func:`alternating_ratio`'s figures of ``what`` (the distilled player's games)
    against ``base`` (the default player's); the issue's target is at least 1/5."""
    try:
        d, t, r = ratio(2 if quick else 3)
    except ValueError as exc:  # no weights file: the player is not available
        return [f"{game} distilled: not measured ({exc})"]
    return [f"{game} distilled: {d:,.0f} games per CPU-second {what}, beside {t:,.0f} {base} "
            f"(alternating rounds, medians): 1/{1 / r:,.1f} of their speed (target: at "
            "least 1/5)"]


def games_bench(name: str, title: str, play: Callable[[int], tuple[object, int]], *,
                game: str, unit: tuple[str, str], setup: str,
                extra_note: Callable[[ReportContext], list[str]] | None = None,
                **bench_kw) -> Bench:
    """A benchmark of whole games that also counts their decisions: ``play(n)`` plays
    ``n`` games and returns ``(output, decisions)``; its note gives games and decisions per
    second per core.  ``unit``: the game's word for one game and for many (``("game",
    "full games")``); ``setup``: the players and threads, as the note says them."""
    decisions = {}

    def run(n):
        out, decisions[n] = play(n)
        return out

    def note(m, ctx):
        per = max(decisions.values()) / max(decisions) if decisions else float("nan")
        article = "an" if unit[0][0] in "aeiou" else "a"
        return [f"{game}: {m.ops_per_s:,.0f} {unit[1]} per second per core, "
                f"{m.ops_per_s * per:,.0f} decisions per second ({per:.0f} {article} {unit[0]}; "
                f"{setup})"] + (extra_note(ctx) if extra_note else [])

    return Bench(name, title, run, note=note, **bench_kw)
