"""Until the World Ends' speed benchmarks (what the speed guard, :mod:`simlib.core.bench`,
watches for this game).  ``BENCH_FACTORIES`` is found through the registry."""
from __future__ import annotations

from typing import Callable

import numpy as np

from simlib.core.benchkit import SEED, Bench, alternating_ratio, distilled_note, games_bench

GAMES_PER_BLOCK = 512  # the same games in every block: games differ in length


def game_bench(players: int = 4, policy: str = "greedy") -> Bench:
    """Full games of ``policy`` at every seat through the batch kernel on one thread
    (games ``0 .. n-1`` of a fixed seed).  The note gives decisions per second, and times
    the distilled player in one seat among greedy players beside them."""
    from . import api
    from . import codes as K
    from .policies import make_seat
    from .ruleset import load_ruleset

    rules = load_ruleset()
    seat = make_seat(policy)

    def batch(n, seats=None):
        pol, par = api.seat_arrays(seats or [seat] * players, n)
        out = api.run_kernel(rules, SEED, 0, np.full(n, players, dtype=np.int64), pol, par, threads=1)
        return out, int(out[:, K.REC_DECISIONS].sum())

    def distilled(ctx):
        # issue 43's speed target: at least 1/5 of the greedy players' games
        greedy = [make_seat("greedy")] * players
        focal = [make_seat("distilled")] + greedy[1:]
        return distilled_note(
            "Until the World Ends", lambda rounds: alternating_ratio(
                lambda n: batch(n, focal), lambda n: batch(n, greedy), GAMES_PER_BLOCK, rounds),
            ctx.quick, f"with the distilled player in one seat and {players - 1} greedy players",
            f"for {players} greedy players")

    return games_bench("until_the_world_ends_game", f"one full Until the World Ends game "
                       f"({players} players, {policy}, 1 thread)", batch, game="Until the World Ends",
                       unit=("game", "full games"),
                       setup=f"{policy} at every seat, {players} players, 1 thread",
                       min_n=8, fixed_n=GAMES_PER_BLOCK, extra_note=distilled)


BENCH_FACTORIES: dict[str, Callable[[], Bench]] = {
    "until_the_world_ends_game": game_bench,
}
