"""Until the World Ends' speed benchmarks (what the speed guard, :mod:`simlib.core.bench`,
watches for this game).  ``BENCH_FACTORIES`` is found through the registry."""
from __future__ import annotations

from typing import Callable

import numpy as np

from simlib.core.benchkit import SEED, Bench, games_bench

GAMES_PER_BLOCK = 512  # the same games in every block: games differ in length


def game_bench(players: int = 4, policy: str = "greedy") -> Bench:
    """Full games of ``policy`` at every seat through the batch kernel on one thread
    (games ``0 .. n-1`` of a fixed seed).  The note gives decisions per second."""
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

    return games_bench("until_the_world_ends_game", f"one full Until the World Ends game "
                       f"({players} players, {policy}, 1 thread)", batch, game="Until the World Ends",
                       unit=("game", "full games"),
                       setup=f"{policy} at every seat, {players} players, 1 thread",
                       min_n=8, fixed_n=GAMES_PER_BLOCK)


BENCH_FACTORIES: dict[str, Callable[[], Bench]] = {
    "until_the_world_ends_game": game_bench,
}
