"""Until the World Ends' speed benchmarks (what the speed guard, :mod:`simlib.core.bench`,
watches for this game).  ``BENCH_FACTORIES`` is found through the registry."""
from __future__ import annotations

import statistics
import time
from typing import Callable

import numpy as np

from simlib.core.benchkit import SEED, Bench, games_bench

GAMES_PER_BLOCK = 512  # the same games in every block: games differ in length


def distilled_ratio(rounds: int = 3, games: int = GAMES_PER_BLOCK, players: int = 4,
                    threads: int = 1) -> tuple:
    """``(distilled games/s, greedy games/s, ratio)``: games with the distilled player in
    one seat and greedy players in the others, and games of greedy players only, timed in
    alternating rounds of one process (process CPU time; the median of each and of the
    rounds' ratios).  The issue's target: a ratio of at least 1/5."""
    from . import api
    from .policies import make_seat
    from .ruleset import load_ruleset

    rules = load_ruleset()
    seats = {"distilled": [make_seat("distilled")] + [make_seat("greedy")] * (players - 1),
             "greedy": [make_seat("greedy")] * players}

    def run(which, n):
        pol, par = api.seat_arrays(seats[which], n)
        t = time.process_time()
        api.run_kernel(rules, SEED, 0, np.full(n, players, dtype=np.int64), pol, par, threads)
        return n / (time.process_time() - t)

    run("distilled", 4), run("greedy", 4)  # compile or load, outside the timing
    a, b, r = [], [], []
    for _ in range(rounds):
        a.append(run("distilled", games))
        b.append(run("greedy", games))
        r.append(a[-1] / b[-1])
    return statistics.median(a), statistics.median(b), statistics.median(r)


def game_bench(players: int = 4, policy: str = "greedy") -> Bench:
    """Full games of ``policy`` at every seat through the batch kernel on one thread
    (games ``0 .. n-1`` of a fixed seed).  The note gives decisions per second, and times
    the distilled player beside them (:func:`distilled_ratio`)."""
    from . import api
    from . import codes as K
    from .policies import make_seat
    from .ruleset import load_ruleset

    rules = load_ruleset()
    seat = make_seat(policy)

    def batch(n):
        pol, par = api.seat_arrays([seat] * players, n)
        out = api.run_kernel(rules, SEED, 0, np.full(n, players, dtype=np.int64), pol, par, threads=1)
        return out, int(out[:, K.REC_DECISIONS].sum())

    bench = games_bench("until_the_world_ends_game", f"one full Until the World Ends game "
                        f"({players} players, {policy}, 1 thread)", batch,
                        game="Until the World Ends", unit=("game", "full games"),
                        setup=f"{policy} at every seat, {players} players, 1 thread",
                        min_n=8, fixed_n=GAMES_PER_BLOCK)
    games_note = bench.note

    def note(m, ctx):
        lines = games_note(m, ctx)
        try:
            d, g, ratio = distilled_ratio(2 if ctx.quick else 3, players=players)
        except ValueError as exc:  # no weights file: the player is not available
            return lines + [f"Until the World Ends distilled: not measured ({exc})"]
        return lines + [f"Until the World Ends distilled: {d:,.0f} games per CPU-second with "
                        f"the distilled player in one seat and {players - 1} greedy players, "
                        f"beside {g:,.0f} for {players} greedy players (alternating rounds, "
                        f"medians): 1/{1 / ratio:,.2f} of their speed (target: at least 1/5)"]

    bench.note = note
    return bench


BENCH_FACTORIES: dict[str, Callable[[], Bench]] = {
    "until_the_world_ends_game": game_bench,
}
