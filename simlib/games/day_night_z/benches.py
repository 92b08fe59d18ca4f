"""Day Night Z's speed benchmarks (what the speed guard, :mod:`simlib.core.bench`, watches
for this game).  ``BENCH_FACTORIES`` is found through the registry."""
from __future__ import annotations

from typing import Callable

import numpy as np

from simlib.core.benchkit import SEED, Bench, alternating_ratio, distilled_note, games_bench

GAMES_PER_BLOCK = 256  # the same adventures in every block: adventures differ in length


def game_bench(team_size: int = 4, policy: str = "baseline") -> Bench:
    """Whole adventures of ``policy`` through the batch API on one thread (games
    ``0 .. n-1`` of a fixed seed, the scenario's start hour).  The note gives decisions
    per second."""
    from . import play
    from .ruleset import load_ruleset
    from .study import ENGINE_FIELDS

    rules = load_ruleset()
    col = ENGINE_FIELDS.index("decisions")

    def batch(n, who=policy):
        out = play.play_games(n, ruleset=rules, seed=SEED, team_size=team_size, policy=who,
                              threads=1)
        return out, int(np.asarray(out["records"])[:, col].sum())

    def distilled(ctx):
        # the distilled player's adventures beside the baseline's (issue 43: at least 1/5)
        return distilled_note(
            "Day Night Z", lambda rounds: alternating_ratio(
                lambda n: batch(n, "distilled"), lambda n: batch(n, "baseline"),
                GAMES_PER_BLOCK, rounds), ctx.quick,
            f"(adventures of a team of {team_size})", "for the baseline's")

    return games_bench("day_night_z_game", f"one whole Day Night Z adventure (a team of "
                       f"{team_size}, {policy}, 1 thread)", batch, game="Day Night Z",
                       unit=("adventure", "adventures"),
                       setup=f"{policy}, a team of {team_size}, 1 thread",
                       min_n=8, fixed_n=GAMES_PER_BLOCK, extra_note=distilled)


BENCH_FACTORIES: dict[str, Callable[[], Bench]] = {
    "day_night_z_game": game_bench,
}
