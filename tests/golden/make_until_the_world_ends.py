"""Write the Until the World Ends golden records (``until_the_world_ends.npz``).

Run ``python tests/golden/make_until_the_world_ends.py`` only for a deliberate rules fix
(in its own commit, saying why): ``tests/test_until_the_world_ends_golden.py`` compares
today's engine with these records field by field.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

PATH = Path(__file__).with_name("until_the_world_ends.npz")
GAMES = 150
TABLES = {  # name -> (seats, ruleset overrides)
    "greedy2": (["greedy", "greedy"], {}),
    "mixed4": (["greedy", "random", "greedy:end_margin=12:challenge_margin=2", "random"], {}),
    "random7": (["random"] * 7, {}),
    "greedy5_additive_dealall": (["greedy"] * 5, {"constants.variants.additive_escalation": True,
                                                  "constants.variants.deal_all": True,
                                                  "constants.variants.draw_again_after_instant": True}),
    "greedy3_target150": (["greedy"] * 3, {"constants.target": 150}),
}
SEED = 20261201


def records(name: str) -> np.ndarray:
    from simlib.games.until_the_world_ends import codes as K
    from simlib.games.until_the_world_ends.api import run_kernel, seat_arrays
    from simlib.games.until_the_world_ends.policies import parse_seat
    from simlib.games.until_the_world_ends.ruleset import load_ruleset

    seats, over = TABLES[name]
    rules = load_ruleset().override(over) if over else load_ruleset()
    seats = [parse_seat(s) for s in seats]
    pol, par = seat_arrays(seats, GAMES)
    out = run_kernel(rules, SEED, 0, np.full(GAMES, len(seats), np.int64), pol, par)
    assert out.shape[1] == K.REC_SIZE
    return out


def main() -> None:
    from simlib.games.until_the_world_ends import codes as K

    data = {name: records(name).astype(np.int32) for name in TABLES}
    data["fields"] = np.array(K.record_names())
    np.savez_compressed(PATH, **data)
    print(f"wrote {PATH} ({', '.join(TABLES)}; {GAMES} games each)")


if __name__ == "__main__":
    main()
