"""Till Dawn's speed benchmarks (what the speed guard, :mod:`simlib.core.bench`, watches for
this game).  ``BENCH_FACTORIES`` is found through the registry (``GameInfo.benches``)."""
from __future__ import annotations

import statistics
import time
from typing import Callable, Sequence

import numpy as np

from simlib.core.benchkit import SEED, Bench, alternating_ratio, distilled_note

GAMES_PER_BLOCK = 1024  # the same games in every block: games differ in length
OPTIMAL_GAMES_PER_BLOCK = 64  # heads-up games of the optimal player (about 1 ms each)


def _runner(seats: Sequence[str], threads: int = 1):
    """``run(n)``: games ``0 .. n-1`` of a fixed seed with ``seats`` (seat specs), random
    characters, through the batch kernel."""
    from ...core.seats import seat_arrays
    from . import api
    from .policies import parse_seat
    from .ruleset import load_ruleset

    rules = load_ruleset()
    ss = [parse_seat(s) for s in seats]
    wsize = api.work_size(rules, ss)

    def run(n):
        npl = np.full(n, len(ss), dtype=np.int64)
        chars = np.full((n, api.K.MAX_SEATS), -1, dtype=np.int64)
        pol, par = seat_arrays(ss, n, api.K.MAX_SEATS)
        return api.run_kernel(rules, SEED, 0, npl, chars, pol, par, wsize, threads=threads)

    return run


def distilled_ratio(rounds: int = 3, games: int = 4 * GAMES_PER_BLOCK, players: int = 4,
                    threads: int = 1) -> tuple:
    """``(distilled games/s, threshold games/s, ratio)``: games with the distilled player in
    one seat and threshold players in the others, and games of threshold players only
    (:func:`simlib.core.benchkit.alternating_ratio`).  The issue's target: at least 1/5."""
    return alternating_ratio(_runner(["distilled"] + ["threshold"] * (players - 1), threads),
                             _runner(["threshold"] * players, threads), games, rounds)


def game_bench(players: int = 4, policy: str = "threshold") -> Bench:
    """Full games of ``policy`` at every seat through the batch kernel on one thread
    (games ``0 .. n-1`` of a fixed seed, random characters); its note times the distilled
    player beside them (:func:`distilled_ratio`)."""
    run = _runner([policy] * players)

    def note(m, ctx):
        lines = [f"Till Dawn: {m.ops_per_s:,.0f} full games per second per core ({policy} "
                 f"at every seat, {players} players, random characters, 1 thread)"]
        return lines + distilled_note(
            "Till Dawn", lambda rounds: distilled_ratio(rounds, players=players), ctx.quick,
            f"with the distilled player in one seat and {players - 1} threshold players",
            f"for {players} threshold players")

    return Bench("till_dawn_game", f"one full Till Dawn game ({players} players, {policy}, "
                 "1 thread)", run, min_n=8, fixed_n=GAMES_PER_BLOCK, pure_n=64, note=note)


def headsup_ratio(rounds: int = 5, optimal_games: int = OPTIMAL_GAMES_PER_BLOCK,
                  threshold_games: int = 8 * GAMES_PER_BLOCK, threads: int = 1) -> tuple:
    """``(optimal games/s, threshold games/s, ratio)``: heads-up games of the optimal
    player against a threshold player and of two threshold players, timed in alternating
    rounds of one process (the median of each, and the median of the rounds' ratios), so
    that a busy machine slows both alike."""
    opt, thr = _runner(["optimal", "threshold"], threads), _runner(["threshold", "threshold"], threads)
    opt(4), thr(4)  # compile or load, outside the timing
    a, b, r = [], [], []
    for _ in range(rounds):
        t = time.perf_counter()
        opt(optimal_games)
        a.append(optimal_games / (time.perf_counter() - t))
        t = time.perf_counter()
        thr(threshold_games)
        b.append(threshold_games / (time.perf_counter() - t))
        r.append(a[-1] / b[-1])
    return statistics.median(a), statistics.median(b), statistics.median(r)


def optimal_bench() -> Bench:
    """Heads-up games of the optimal-stopping player against a threshold player through
    the batch kernel on one thread (games ``0 .. n-1`` of a fixed seed); its note times
    two threshold players in the same process and prints the ratio."""
    run = _runner(["optimal", "threshold"])

    def note(m, ctx):
        rounds = 3 if ctx.quick else 5
        opt, thr, ratio = headsup_ratio(rounds)
        return [f"Till Dawn optimal: {m.ops_per_s:,.0f} heads-up games per second per core "
                f"against a threshold player (1 thread); beside two threshold players in "
                f"alternating rounds ({rounds}, medians): {opt:,.0f} against {thr:,.0f} "
                f"games/s, 1/{1 / ratio:,.0f} of their speed"]

    return Bench("till_dawn_optimal", "one heads-up Till Dawn game (optimal against "
                 "threshold, 1 thread)", run, min_n=4, fixed_n=OPTIMAL_GAMES_PER_BLOCK,
                 pure_n=1, note=note)


BENCH_FACTORIES: dict[str, Callable[[], Bench]] = {
    "till_dawn_game": game_bench,
    "till_dawn_optimal": optimal_bench,
}
