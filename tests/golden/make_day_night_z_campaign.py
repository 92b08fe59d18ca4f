"""Write the Day Night Z campaign golden records (``day_night_z_campaign.npz``).

Run ``python tests/golden/make_day_night_z_campaign.py`` only for a deliberate rules fix
(in its own commit, saying why): ``tests/test_day_night_z_golden.py`` compares today's
campaigns with these records field by field (each campaign's record and each adventure's).
The tables cover the travel's two paths, the shelter player's switches, the `tiles`
preset's terrain and a night start.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

PATH = Path(__file__).with_name("day_night_z_campaign.npz")
CAMPAIGNS = 60
TABLES = {  # name -> (team size, start hour, adventures, ruleset, shelter player)
    "team4_defaults": (4, None, 3, None, {}),
    "team2_known_path_no_build": (2, None, 4, None, {"unknown_path": 0, "build": 0}),
    "team3_tiles_night": (3, 20, 3, "tiles", {"skills": 0, "heal_missing": 4}),
    "team1_two_days": (1, 8, 2, {"campaign.shelter_days": 2}, {"sp_keep": 0}),
    # three shelter days a stay: a death in the shelter (rare: 5 campaigns in 300)
    "team4_three_days": (4, None, 3, {"campaign.shelter_days": 3}, {}),
}
SEED = 20261207


def arrays(name: str) -> dict:
    from simlib.games.day_night_z.campaign import play_campaigns
    from simlib.games.day_night_z.ruleset import load_rules

    team, hour, adventures, rules, shelter = TABLES[name]
    ruleset = load_rules().override(rules) if isinstance(rules, dict) else load_rules(rules)
    res = play_campaigns(CAMPAIGNS, adventures=adventures, team_size=team, start_hour=hour,
                         ruleset=ruleset, seed=SEED, shelter=shelter)
    return {"campaigns": res["campaigns"].to_numpy(np.int64),
            "adventures": res["adventures"].to_numpy(np.int64)}


def main() -> None:
    from simlib.games.day_night_z.campaign import play_campaigns

    data = {}
    for name in TABLES:
        out = arrays(name)
        data[name + "__campaigns"] = out["campaigns"].astype(np.int32)
        data[name + "__adventures"] = out["adventures"].astype(np.int32)
    res = play_campaigns(1, adventures=1)
    data["campaign_fields"] = np.array(list(res["campaigns"].columns))
    data["adventure_fields"] = np.array(list(res["adventures"].columns))
    np.savez_compressed(PATH, **data)
    print(f"wrote {PATH} ({', '.join(TABLES)}; {CAMPAIGNS} campaigns each)")


if __name__ == "__main__":
    main()
