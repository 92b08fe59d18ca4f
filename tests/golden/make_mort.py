"""Write ``tests/golden/mort.npz``: Mort de la lumière du jour game records that
``tests/test_mort_golden.py`` compares field by field.

Combinations: the reference ruleset and a variant one (pooled energy, one strike per
target, any card repairs, 3 lamps a generator), four tables (heuristic on both sides,
a random killer, random survivors, a searching killer), two seeds.  Run from the
repository root: ``python tests/golden/make_mort.py`` (only for a deliberate rules fix,
in its own commit).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

PATH = Path(__file__).with_name("mort.npz")
VARIANT = {"rules.variants.pooled_energy": True, "rules.variants.one_strike_per_target": True,
           "rules.variants.any_card_repairs": True, "board.lamps": 3}
TABLES = {"heur": "killer=heuristic,survivors=heuristic",
          "rndk": "killer=random,survivors=heuristic",
          "rnds": "killer=heuristic,survivors=random",
          "roll": "killer=rollout:rollouts=2:horizon=2,survivors=heuristic"}
GAMES = {"heur": 400, "rndk": 60, "rnds": 100, "roll": 3}
SEEDS = (0, 20261201)


def combos():
    for rules in ("reference", "variant"):
        for table in TABLES:
            for seed in SEEDS:
                yield rules, table, seed


def key(rules: str, table: str, seed: int) -> str:
    return f"{rules}_{table}_{seed}"


def records(rules: str, table: str, seed: int) -> np.ndarray:
    from simlib.games.mort import api
    from simlib.games.mort.ruleset import load_ruleset

    r = load_ruleset()
    if rules == "variant":
        r = r.override(VARIANT)
    seats = api.parse_seats(TABLES[table], r)
    if table == "roll":  # through the step model's kernel (the same games; one compile less)
        return np.stack([api.trace_game(seed, g, seats, r, capacity=2)[0] for g in range(GAMES[table])])
    pol, par = api.seat_arrays(seats, GAMES[table])
    return api.run_kernel(r, seed, 0, pol, par, threads=1)


def main() -> None:
    from simlib.games.mort import codes as K

    out = {key(*c): records(*c) for c in combos()}
    np.savez_compressed(PATH, fields=np.array(K.record_names()), **out)
    print(f"wrote {PATH} ({sum(len(v) for v in out.values())} games)")


if __name__ == "__main__":
    main()
