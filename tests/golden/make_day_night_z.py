"""Write the Day Night Z golden records (``day_night_z.npz``).

Run ``python tests/golden/make_day_night_z.py`` only for a deliberate rules fix (in its own
commit, saying why): ``tests/test_day_night_z_golden.py`` compares today's engine with these
records field by field (the records and the threat and survivor paths by turn).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

PATH = Path(__file__).with_name("day_night_z.npz")
GAMES = 150
TABLES = {  # name -> (team size, start hour, policy, params, ruleset overrides)
    "baseline4": (4, None, "baseline", {}, {}),
    "baseline1_night": (1, 20, "baseline", {}, {}),
    "random2": (2, None, "random", {}, {}),
    "baseline3_params": (3, 8, "baseline", {"heal_at": 7, "sp_gain": 4, "noisy_below": 40}, {}),
    "baseline2_variants": (2, 2, "baseline", {}, {"variants.attacks_earn_sp": True,
                                                  "variants.eating_only_prevents_loss": True,
                                                  "variants.unlimited_miniatures": True,
                                                  "variants.red_units_block_entry": True,
                                                  "survivor.max_sp_per_roll": 3}),
}
SEED = 20261201


def arrays(name: str) -> dict:
    from simlib.games.day_night_z.play import play_games
    from simlib.games.day_night_z.ruleset import load_ruleset

    team, hour, policy, params, over = TABLES[name]
    rules = load_ruleset().override(over) if over else load_ruleset()
    return play_games(GAMES, ruleset=rules, seed=SEED, team_size=team, start_hour=hour, policy=policy,
                      params=params)


def main() -> None:
    from simlib.games.day_night_z import codes as K

    data = {}
    for name in TABLES:
        out = arrays(name)
        data[name] = out["records"].astype(np.int32)
        data[name + "__threat"] = out["threat_by_turn"]
        data[name + "__alive"] = out["alive_by_turn"]
    data["fields"] = np.array(K.RECORD_FIELDS)
    np.savez_compressed(PATH, **data)
    print(f"wrote {PATH} ({', '.join(TABLES)}; {GAMES} games each)")


if __name__ == "__main__":
    main()
