"""Till Dawn's speed benchmarks (what the speed guard, :mod:`simlib.core.bench`, watches for
this game).  ``BENCH_FACTORIES`` is found through the registry (``GameInfo.benches``)."""
from __future__ import annotations

from typing import Callable

import numpy as np

from simlib.core.benchkit import SEED, Bench

GAMES_PER_BLOCK = 1024  # the same games in every block: games differ in length


def game_bench(players: int = 4, policy: str = "threshold") -> Bench:
    """Full games of ``policy`` at every seat through the batch kernel on one thread
    (games ``0 .. n-1`` of a fixed seed, random characters)."""
    from . import api
    from .policies import POLICIES, make_seat
    from .ruleset import load_ruleset

    rules = load_ruleset()
    seat = make_seat(policy)
    wsize = api.work_size(rules, [seat])

    def run(n):
        npl = np.full(n, players, dtype=np.int64)
        chars = np.full((n, api.K.MAX_SEATS), -1, dtype=np.int64)
        pol = np.zeros((n, api.K.MAX_SEATS), dtype=np.int64)
        pol[:, :players] = POLICIES[policy].id
        par = np.zeros((n, api.K.MAX_SEATS, 3), dtype=np.float64)
        par[:, :players, :len(seat.params)] = seat.params
        return api.run_kernel(rules, SEED, 0, npl, chars, pol, par, wsize, threads=1)

    def note(m, _ctx):
        return [f"Till Dawn: {m.ops_per_s:,.0f} full games per second per core ({policy} "
                f"at every seat, {players} players, random characters, 1 thread)"]

    return Bench("till_dawn_game", f"one full Till Dawn game ({players} players, {policy}, "
                 "1 thread)", run, min_n=8, fixed_n=GAMES_PER_BLOCK, pure_n=64, note=note)


BENCH_FACTORIES: dict[str, Callable[[], Bench]] = {
    "till_dawn_game": game_bench,
}
