"""Golden records: games of the engine as it stood before a kernel restructure.

``python tests/golden/make_goldens.py`` writes ``records.npz``: for each player count 3-6,
policy ``random`` and ``baseline`` and seeds 11 and 2026, the records of games 0-1999
(random teams), on the reference ruleset and on a light one (5 rounds, waves of `round`
cards: games are won, so the final fight and the win paths are covered too).  ``tests/test_golden.py`` replays them bit for bit.
Regenerate only in a commit that changes the rules on purpose and says why.
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

    return load_ruleset().override(RULESETS[name]) if RULESETS[name] else load_ruleset()


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


if __name__ == "__main__":
    t = time.perf_counter()
    recs = compute()
    np.savez_compressed(PATH, **{k: v.astype(np.int32) for k, v in recs.items()},
                        fields=np.array(_fields()))
    print(f"wrote {PATH} ({PATH.stat().st_size / 1e6:.2f} MB) in {time.perf_counter() - t:.1f} s",
          file=sys.stderr)
