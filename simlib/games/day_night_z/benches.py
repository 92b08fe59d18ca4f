"""Day Night Z's speed benchmarks (what the speed guard, :mod:`simlib.core.bench`, watches
for this game).  ``BENCH_FACTORIES`` is found through the registry."""
from __future__ import annotations

from typing import Callable

import numpy as np

from simlib.core.benchkit import SEED, Bench

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
    decisions = {}

    def run(n):
        out = play.play_games(n, ruleset=rules, seed=SEED, team_size=team_size, policy=policy,
                              threads=1)
        decisions[n] = int(np.asarray(out["records"])[:, col].sum())
        return out

    def note(m, _ctx):
        per = max(decisions.values()) / max(decisions) if decisions else float("nan")
        return [f"Day Night Z: {m.ops_per_s:,.0f} adventures per second per core, "
                f"{m.ops_per_s * per:,.0f} decisions per second ({per:.0f} an adventure; "
                f"{policy}, a team of {team_size}, 1 thread)"]

    return Bench("day_night_z_game", f"one whole Day Night Z adventure (a team of {team_size}, "
                 f"{policy}, 1 thread)", run, min_n=8, fixed_n=GAMES_PER_BLOCK, note=note)


BENCH_FACTORIES: dict[str, Callable[[], Bench]] = {
    "day_night_z_game": game_bench,
}
