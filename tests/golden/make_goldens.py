"""Golden records: games of the engines as they stood before a kernel restructure.

``python tests/golden/make_goldens.py [until_daylight|till_dawn]`` writes (default: both)

* ``records.npz`` (Until Daylight): for each player count 3-6, policy ``random`` and
  ``baseline`` and seeds 11 and 2026, the records of games 0-1999 (random teams), on the
  reference ruleset and on a light one (5 rounds, waves of `round` cards: games are won,
  so the final fight and the win paths are covered too);
* ``till_dawn_records.npz`` (Till Dawn): for four tables (4 ``threshold`` players, 5
  ``random``, 8 mixed, and ``optimal`` + ``threshold`` + ``random``) and seeds 11 and
  2026, games 0-1999 (0-249 with the slower ``optimal`` player; random teams), on the
  reference ruleset and on a tight one (40 blood tokens, no reshuffle of an empty hunt
  deck: games that end when the supply runs out are covered too).

``tests/test_golden.py`` replays them bit for bit.  Regenerate a game's file only in a
commit that changes that game's rules on purpose and says why.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

GAMES = 2000
SEEDS = (11, 2026)
POLICIES = ("random", "baseline")
PLAYERS = (3, 4, 5, 6)
RULESETS = {"reference": {}, "light": {"constants.rounds": 5, "constants.wave_per_player": 0}}
PATH = Path(__file__).with_name("records.npz")


def key(rules: str, policy: str, players: int, seed: int) -> str:
    return f"{rules}_{policy}_{players}p_seed{seed}"


def combos():
    for rules in RULESETS:
        for policy in POLICIES:
            for p in PLAYERS:
                for s in SEEDS:
                    yield rules, policy, p, s


def ruleset(name: str):
    from simlib.games.until_daylight.ruleset import load_ruleset

    return load_ruleset("reference").override(RULESETS[name]) if RULESETS[name] else load_ruleset("reference")


def records(rules: str, policy: str, players: int, seed: int, games: int = GAMES) -> np.ndarray:
    """The records as a plain (games, fields) int64 array."""
    from numpy.lib.recfunctions import structured_to_unstructured

    from simlib.games.until_daylight.api import play_games

    rec = play_games(games, players=players, seed=seed, policy=policy, ruleset=ruleset(rules))
    return structured_to_unstructured(np.asarray(rec)).astype(np.int64)


def compute() -> dict[str, np.ndarray]:
    return {key(*c): records(*c) for c in combos()}


def _fields():
    from simlib.games.until_daylight.api import play_games

    return list(np.asarray(play_games(1, players=4)).dtype.names)


# --------------------------------------------------------------------------- Till Dawn
TD_PATH = Path(__file__).with_name("till_dawn_records.npz")
TD_GAMES = 2000
TD_OPTIMAL_GAMES = 250
TD_TABLES = {"threshold4": ["threshold"] * 4, "random5": ["random"] * 5,
             "mixed8": ["threshold", "random", "threshold:t=4", "random", "threshold:t=9",
                        "threshold", "random", "threshold:t=6"],
             "optimal3": ["optimal", "threshold", "random"]}
TD_RULESETS = {"reference": {}, "tight": {"constants.blood_supply": 40,
                                          "constants.variants.reshuffle_when_empty": False}}


def td_key(rules: str, table: str, seed: int) -> str:
    return f"{rules}_{table}_seed{seed}"


def td_combos():
    for rules in TD_RULESETS:
        for table in TD_TABLES:
            for s in SEEDS:
                yield rules, table, s


def td_games(table: str) -> int:
    return TD_OPTIMAL_GAMES if "optimal" in TD_TABLES[table] else TD_GAMES


def td_ruleset(name: str):
    from simlib.games.till_dawn.ruleset import default_ruleset_dir, load_ruleset

    ref = load_ruleset(default_ruleset_dir())  # the reference, whatever the declared default
    return ref.override(TD_RULESETS[name]) if TD_RULESETS[name] else ref


def td_records(rules: str, table: str, seed: int) -> np.ndarray:
    """The records as a plain (games, REC_SIZE) int64 array (codes, as the kernel writes them)."""
    from simlib.games.till_dawn import codes as K
    from simlib.games.till_dawn.api import as_seat, run_kernel, team_codes, work_size
    from simlib.games.till_dawn.kernels.policies_nb import N_PARAMS
    from simlib.games.till_dawn.policies import POLICIES

    r = td_ruleset(rules)
    seats = [as_seat(x) for x in TD_TABLES[table]]
    n, p = td_games(table), len(seats)
    pol = np.zeros((n, K.MAX_SEATS), dtype=np.int64)
    par = np.zeros((n, K.MAX_SEATS, N_PARAMS), dtype=np.float64)
    for s, seat in enumerate(seats):
        pol[:, s] = POLICIES[seat.policy].id
        par[:, s, :] = seat.vector()
    chars = np.tile(team_codes(None, p, r), (n, 1))
    return run_kernel(r, seed, 0, np.full(n, p, np.int64), chars, pol, par, work_size(r, seats))


def td_fields() -> list[str]:
    from simlib.games.till_dawn import codes as K

    return K.record_names()


if __name__ == "__main__":
    which = sys.argv[1:] or ["until_daylight", "till_dawn"]
    for game in which:
        t = time.perf_counter()
        if game == "until_daylight":
            recs, path, fields = compute(), PATH, _fields()
        elif game == "till_dawn":
            recs = {td_key(*c): td_records(*c) for c in td_combos()}
            path, fields = TD_PATH, td_fields()
        else:
            raise SystemExit(f"unknown game {game!r}: until_daylight or till_dawn")
        np.savez_compressed(path, **{k: v.astype(np.int32) for k, v in recs.items()},
                            fields=np.array(fields))
        print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB) in "
              f"{time.perf_counter() - t:.1f} s", file=sys.stderr)
