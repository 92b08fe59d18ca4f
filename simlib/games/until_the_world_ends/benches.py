"""Until the World Ends' speed benchmarks (what the speed guard, :mod:`simlib.core.bench`,
watches for this game).  ``BENCH_FACTORIES`` is found through the registry."""
from __future__ import annotations

from typing import Callable

import numpy as np

from simlib.core.benchkit import SEED, Bench

GAMES_PER_BLOCK = 512  # the same games in every block: games differ in length


def game_bench(players: int = 4, policy: str = "greedy") -> Bench:
    """Full games of ``policy`` at every seat through the batch kernel on one thread
    (games ``0 .. n-1`` of a fixed seed)."""
    from . import api
    from .policies import make_seat
    from .ruleset import load_ruleset

    rules = load_ruleset()
    seat = make_seat(policy)

    def run(n):
        pol, par = api.seat_arrays([seat] * players, n)
        return api.run_kernel(rules, SEED, 0, np.full(n, players, dtype=np.int64), pol, par, threads=1)

    return Bench("until_the_world_ends_game", f"one full Until the World Ends game ({players} players, "
                 f"{policy}, 1 thread)", run, min_n=8, fixed_n=GAMES_PER_BLOCK)


BENCH_FACTORIES: dict[str, Callable[[], Bench]] = {
    "until_the_world_ends_game": game_bench,
}
