"""Mort de la lumière du jour's speed benchmarks (what the speed guard, ``simlib bench``,
watches for this game).  ``BENCH_FACTORIES`` is found through the registry
(``GameInfo.benches``)."""
from __future__ import annotations

from typing import Callable

from simlib.core.benchkit import SEED, Bench, alternating_ratio, distilled_note, games_bench

GAMES_PER_BLOCK = 1024  # the same games in every block: games differ in length


def game_bench(killer: str = "heuristic", survivors: str = "heuristic") -> Bench:
    """Full games (``killer`` against ``survivors``) through the batch kernel on one
    thread: games ``0 .. n-1`` of a fixed seed.  The note gives decisions per second, and
    times the distilled player on both sides beside the heuristic on both."""
    from . import api
    from .ruleset import load_ruleset

    rules = load_ruleset()
    table = api.parse_seats(f"killer={killer},survivors={survivors}", rules)

    def batch(n, seats=table):
        pol, par = api.seat_arrays(seats, n)
        out = api.run_kernel(rules, SEED, 0, pol, par, threads=1)
        return out, int(out[:, api.K.REC_DECISIONS].sum())

    def distilled(ctx):
        # issue 43's speed target: at least 1/5 of the heuristic players' games
        both = api.parse_seats("killer=distilled,survivors=distilled", rules)
        base = api.parse_seats("killer=heuristic,survivors=heuristic", rules)
        return distilled_note(
            "Mort de la lumière du jour", lambda rounds: alternating_ratio(
                lambda n: batch(n, both), lambda n: batch(n, base), GAMES_PER_BLOCK, rounds),
            ctx.quick, "with the distilled player on both sides", "for the heuristic on both")

    return games_bench("mort_game", f"one full Mort de la lumière du jour game (killer "
                       f"{killer}, survivors {survivors}, 1 thread)", batch, game="Mort de la lumière du jour",
                       unit=("game", "full games"),
                       setup=f"killer {killer}, survivors {survivors}, 1 thread",
                       min_n=8, fixed_n=GAMES_PER_BLOCK, pure_n=16,
                       extra_note=distilled)


BENCH_FACTORIES: dict[str, Callable[[], Bench]] = {
    "mort_game": game_bench,
}
