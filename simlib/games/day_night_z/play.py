"""Day Night Z's batch API: play games of the city adventure ("Supply run") and get their
records.

>>> out = play_games(200, seed=1)
>>> out["records"].shape[1] == len(codes.RECORD_FIELDS)
True

``play_games(n_games, *, ruleset=None, seed=0, start=0, team_size=None, start_hour=None,
policy="baseline", params=None, threads=None)`` plays games ``start .. start + n_games - 1``,
each a pure function of (seed, game index): never of ``n_games``, ``start`` or
``threads``.  Returns ``{"records": int64 (n, len(RECORD_FIELDS)), "threat_by_turn": int16
(n, turn_limit + 1), "alive_by_turn": int8 (n, turn_limit + 1)}``: threat units (1 to 3 x
units a level) and living survivors at the start (column 0) and at the end of each turn
(the end of the game for its last turn), -1 after the game ended.

What the engine plays (``kernels/engine_nb.py`` documents each rule and its choices):
the turn's three phases; AP by health and the reserve; moves through city zones and
location tiles (alleys' STOP and city encounters, surprise zones, exploration and
re-entry spawns); leaving engaged enemies (Agility check, worst evasion); zone and item
searches (Perception, the card's and the tile's modifiers, a card kept); melee and ranged
attacks with the colour rules, SP, damage less resistance, pierce, sweep, rapid fire,
slow, ammo and noise, the suppressor, the flashlight; eating, painkillers, first-aid kits,
vaccines, the defensive position, rest; the enemies' attacks (Defense, armour on the
struck location, biker gloves, stress, infection, noise); the threat card (side A by
initiative with fury and excitement; side B's noisy-weapon, ambush and red-stress
conditions, hourglasses, the Hunter icon, the infection icon); the noise adjustment; the
threat rise when the last survivor leaves enemies behind and SP lowering the threat; the
clock's hours (dawn SP and the Hunter's leaving, infection tests, eating, threat); spawns
with finite miniatures; the Hunter's stalk area, spawn with a random survivor in a city
zone, return to the stalk area with its damage; deaths by damage, infection and hunger;
the goal (``searches_needed`` successful searches, then every living survivor on an exit
zone) within ``turn_limit`` turns; VP as the shelter counts them; corpse markers left by
kills, searched (ammo, supplies, infection x1-x3) or hidden among (the hiding dice, no
enemy's target while hidden); set traps (a Mechanisms check; a marker on the tile that
hits the first enemy to engage a survivor there) and combine card (the ``traps``
preset deals their cards).

``decisions`` counts the decisions a player took: a decision with one legal action (an
activation that can only end, the last survivor to activate) is taken by the engine.

Not in: subzones and line of sight, enemies' special abilities, the campaign's
discard piles (an exhausted deck is shuffled anew); skills and allies only in a campaign
(``campaign.py``).
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from ...core.parallel import run_ranges
from ...core.seats import check_games
from . import codes as K
from .kernels.play_nb import batch_nb
from .kernels.search_nb import search_batch
from .policies import POLICIES, check_ruleset, param_array, require_available
from .ruleset import DayNightZRules, load_rules

__all__ = ["play_games", "check_team", "check_hour", "rules_of", "packed"]


def rules_of(ruleset) -> DayNightZRules:
    """``None``: the default ruleset; a DayNightZRules as it is; a preset name, a folder or
    a tweak as every game reads them (:func:`simlib.games.day_night_z.ruleset.load_rules`)."""
    if isinstance(ruleset, DayNightZRules):
        return ruleset
    return load_rules(ruleset)


def packed(rules: DayNightZRules) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The four rule arrays the kernels read: dice, tracks, spawn, engine."""
    return rules.pack_dice(), rules.pack_tracks(), rules.pack_spawn(), rules.pack_engine()


def check_team(team_size, rules: DayNightZRules) -> int:
    lo, hi = rules.get("scenario.min_team"), min(rules.get("scenario.max_team"), K.MAX_SURV)
    if team_size is None:
        return hi
    if isinstance(team_size, bool) or not isinstance(team_size, (int, np.integer)) or not lo <= team_size <= hi:
        raise ValueError(f"team_size must be an integer from {lo} to {hi}; got {team_size!r}")
    return int(team_size)


def check_hour(start_hour, rules: DayNightZRules) -> int:
    if start_hour is None:
        return int(rules.get("scenario.start_hour"))
    if isinstance(start_hour, bool) or not isinstance(start_hour, (int, np.integer)) or not 0 <= start_hour <= 23:
        raise ValueError(f"start_hour must be an integer from 0 to 23; got {start_hour!r}")
    return int(start_hour)


def play_games(n_games: int, *, ruleset=None, seed: int = 0, start: int = 0, team_size: int | None = None,
               start_hour: int | None = None, policy: str = "baseline",
               params: Mapping[str, float] | None = None, threads: int | None = None) -> dict:
    """Play ``n_games`` adventures; see the module docstring for the arrays returned."""
    rules = rules_of(ruleset)
    team = check_team(team_size, rules)
    hour = check_hour(start_hour, rules)
    require_available(policy)
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; allowed: {', '.join(POLICIES)}")
    par = param_array(policy, params)
    check_ruleset(policy, par, rules)
    n = check_games(n_games)
    if int(seed) < 0 or int(start) < 0:
        raise ValueError(f"seed and start must be >= 0; got {seed}, {start}")
    cols = int(rules.get("scenario.turn_limit")) + 1
    out = np.zeros((n, K.REC_SIZE), dtype=np.int64)
    tbt = np.zeros((n, cols), dtype=np.int64)
    abt = np.zeros((n, cols), dtype=np.int64)
    dice, tr, spn, rl = packed(rules)
    args = (dice, tr, spn, rl, np.int64(seed), np.int64(start), np.int64(team), np.int64(hour),
            np.int64(POLICIES[policy].id), par, out, tbt, abt)
    # the search players (rollout, clairvoyant) have their own batch kernel, compiled only
    # when one plays: the baseline's compile does not pay for it
    run_ranges(search_batch if POLICIES[policy].search else batch_nb, args, n, threads)
    return {"records": out, "threat_by_turn": tbt.astype(np.int16), "alive_by_turn": abt.astype(np.int8)}
