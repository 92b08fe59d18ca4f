"""Mort de la lumière du jour's speed benchmarks (what the speed guard, ``simlib bench``,
watches for this game).  ``BENCH_FACTORIES`` is found through the registry
(``GameInfo.benches``)."""
from __future__ import annotations

from typing import Callable

from simlib.core.benchkit import SEED, Bench

GAMES_PER_BLOCK = 1024  # the same games in every block: games differ in length


def game_bench(killer: str = "heuristic", survivors: str = "heuristic") -> Bench:
    """Full games (``killer`` against ``survivors``) through the batch kernel on one
    thread: games ``0 .. n-1`` of a fixed seed.  The note gives decisions per second."""
    from . import api
    from .ruleset import load_ruleset

    rules = load_ruleset()
    table = api.parse_seats(f"killer={killer},survivors={survivors}", rules)
    decisions = {}

    def run(n):
        pol, par = api.seat_arrays(table, n)
        out = api.run_kernel(rules, SEED, 0, pol, par, threads=1)
        decisions[n] = int(out[:, api.K.REC_DECISIONS].sum())
        return out

    def note(m, _ctx):
        per = max(decisions.values()) / max(decisions) if decisions else float("nan")
        return [f"Mort de la lumière du jour: {m.ops_per_s:,.0f} full games per second per core, "
                f"{m.ops_per_s * per:,.0f} decisions per second ({per:.0f} a game; killer "
                f"{killer}, survivors {survivors}, 1 thread)"]

    return Bench("mort_game", f"one full Mort de la lumière du jour game (killer {killer}, "
                 f"survivors {survivors}, 1 thread)", run, min_n=8, fixed_n=GAMES_PER_BLOCK,
                 pure_n=16, note=note)


BENCH_FACTORIES: dict[str, Callable[[], Bench]] = {
    "mort_game": game_bench,
}
