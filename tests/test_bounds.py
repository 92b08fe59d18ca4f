"""Bounds: hostile but valid rulesets play within the kernels' arrays (numba's bounds checks
on, in a subprocess), capacities are checked when a ruleset loads, and random valid
overrides of every numeric field play clean games (hypothesis).

The bounds-checked kernels are a compilation of their own (about 2 min once per machine
and kernel version on a 2-core machine, since kernels compile once per argument types,
see ``simlib.core.jit``): they are cached in ``~/.cache/simlib/boundscheck-<kernel hash>``.
Both tests that play under bounds checks run in the default test command.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from simlib.core.jit import kernel_source_hash
from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.capacities import INT_RANGES, MAX_HORDE_TOTAL, int_range
from simlib.games.until_daylight.ruleset import RulesetError, load_ruleset

WORKER = Path(__file__).with_name("boundscheck_worker.py")
RULES = load_ruleset("reference")
DECK = [n for n in RULES.card_names if n not in RULES.basic_weapon_names]
ENEMIES = RULES.enemy_names
CHARS = RULES.character_names


def _all(prefix_fmt: str, names, value) -> dict:
    return {prefix_fmt.format(n): value for n in names}


# hostile but valid rulesets (each must load: the test checks it before the subprocess)
HOSTILE = [
    # the invariant checks walk every area after every step: a 50 000-card horde is slow
    # to check, so few games and rounds
    {"name": "huge horde", "players": [6], "games": 2,
     "override": {"horde.wanderer.count": MAX_HORDE_TOTAL - 100, "constants.wave_per_player": 1000,
                  **_all("characters.{}.health", CHARS, 100_000), "constants.rounds": 12}},
    {"name": "500 survivors", "players": [3, 6], "games": 16,
     "override": {"horde.survivor.count": 500}},
    {"name": "200 rounds, characters that do not die", "players": [3, 6], "games": 4,
     "override": {"constants.rounds": 200, **_all("characters.{}.health", CHARS, 100_000)}},
    {"name": "an all-miss die", "players": [4], "games": 16, "policy": "random",
     "override": {"dice.combat.faces": {"X": 6}}},
    {"name": "an all-miss die (baseline)", "players": [4], "games": 16,
     "override": {"dice.combat.faces": {"X": 6}}},
    {"name": "50 attack dice", "players": [3, 6], "games": 16,
     "override": {**_all("horde.{}.attack_dice", ENEMIES, 50),
                  **_all("characters.{}.health", CHARS, 1000)}},
    {"name": "tiny decks", "players": [3, 6], "games": 16,
     "override": {**_all("rubble.{}.count", DECK, 1), **_all("horde.{}.count", ENEMIES, 1),
                  "constants.rounds": 12}},
    {"name": "no rubble deck, one horde card", "players": [3, 6], "games": 16,
     "override": {**_all("rubble.{}.count", DECK, 0),
                  **_all("horde.{}.count", ENEMIES, 0), "horde.wanderer.count": 1}},
    {"name": "one card type only", "players": [3, 4, 5, 6], "games": 16, "policy": "random",
     "override": {**_all("rubble.{}.count", DECK, 0), "rubble.pistol.count": 40,
                  **_all("horde.{}.count", ENEMIES, 0), "horde.brute.count": 30}},
    {"name": "one card type only (ammo, baseline)", "players": [3, 6], "games": 16,
     "override": {**_all("rubble.{}.count", DECK, 0), "rubble.gun_ammo.count": 500,
                  **_all("horde.{}.count", ENEMIES, 0), "horde.monster.count": 30}},
    {"name": "dice cap 14, 100-die weapons and bonuses", "players": [3, 6], "games": 16,
     "override": {"constants.dice_cap": 14, **_all("rubble.{}.dice", ["machete", "axe", "chainsaw",
                                                                        "vitality", "bloodlust"], 100),
                  "rubble.rifle.weapon_bonus": 100, "dice.combat.faces": {"H": 1}, "dice.combat.size": 1}},
    {"name": "every slot, every card, longest timer, max draw_extra", "players": [6], "games": 4,
     "policy": "random",
     "override": {**_all("characters.{}.slots", CHARS, 1000), **_all("rubble.{}.count", DECK, 200),
                  "constants.search_timer.per_player": 100, "constants.search_timer.offset": 1000,
                  "constants.search_timer.spread": 100, "characters.hipster.advantage.amount": 100,
                  **_all("characters.{}.health", CHARS, 300), "constants.rounds": 6}},
    {"name": "a long final fight", "players": [3], "games": 4,
     "override": {"constants.rounds": 1, "constants.stalemate_cap": 10_000,
                  **_all("horde.{}.attack_dice", ENEMIES, 0),
                  **_all("horde.{}.kill_heads", ENEMIES, 1000)}},
    {"name": "a tiny event buffer", "players": [3, 6], "games": 4, "trace_capacity": 1,
     "override": {}},
]


def _boundscheck_env() -> dict:
    env = dict(os.environ)
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "simlib" / \
        f"boundscheck-{kernel_source_hash()}"
    env.update(NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(cache))
    root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def test_hostile_rulesets_load():
    for case in HOSTILE:
        RULES.override(case["override"])  # valid: the engine must hold them


@pytest.mark.parametrize("case", HOSTILE, ids=[c["name"] for c in HOSTILE])
def test_hostile_rulesets_keep_the_invariants(case):
    """The same hostile rulesets and the same checks as the bounds-checked worker
    (``boundscheck_worker.play_case``), with the normal kernels in this process: no
    violation, one record per game, a traced game.  (A firearm whose own dice reach the
    cap used to spend a stale count of ammo it did not hold: "dice cap 14, 100-die
    weapons" left -5 gun_ammo.)"""
    from boundscheck_worker import play_case

    from simlib.games.until_daylight.api import TraceTruncatedWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TraceTruncatedWarning)  # small buffers on purpose
        rows = play_case(RULES.override(case["override"]), case["players"], case["games"],
                         case.get("policy", "baseline"), case.get("seed", 3),
                         case.get("trace_capacity", 64))
    assert [r["players"] for r in rows] == case["players"]
    for r in rows:
        assert r["problems"] == [], r


def test_hostile_rulesets_play_within_bounds():
    """Every hostile ruleset: bounds-checked kernels, invariant checks on; no IndexError,
    no violation, one record per game."""
    proc = subprocess.run([sys.executable, str(WORKER), "cases"], input=json.dumps(HOSTILE),
                          capture_output=True, text=True, env=_boundscheck_env(), timeout=1500)
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")]
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    played = {(r["name"], r["players"]) for r in lines}
    assert played == {(c["name"], p) for c in HOSTILE for p in c["players"]}
    for r in lines:
        assert r["problems"] == [], r
    by = {(r["name"], r["players"]): r for r in lines}
    # the rulesets did what they were meant to: long games really were long
    assert by[("200 rounds, characters that do not die", 3)]["max_round"] > 100


def test_random_valid_overrides_play_within_bounds():
    """hypothesis: random valid overrides of every numeric field (within its allowed range),
    a few games each, bounds-checked, invariant checks on."""
    proc = subprocess.run([sys.executable, str(WORKER), "property", "40", "2026"],
                          capture_output=True, text=True, env=_boundscheck_env(), timeout=1500)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-6000:]
    stats = [json.loads(x) for x in proc.stdout.splitlines() if x.startswith('{"property"')]
    assert stats and stats[0]["property"]["valid"] >= 20, proc.stdout[-2000:]


# --------------------------------------------------------------------------- load-time checks
def test_every_integer_field_has_an_allowed_range():
    for key in RULES.keys():
        v = RULES.get(key)
        if isinstance(v, int) and not isinstance(v, bool):
            lo, hi = int_range(key)
            assert lo <= v <= hi, key
    assert int_range("dice.combat.faces.H") == INT_RANGES["dice.faces"]


@pytest.mark.parametrize("override, pattern", [
    ({"horde.wanderer.count": MAX_HORDE_TOTAL + 1}, r"^override: horde\.wanderer\.count: .* exceeds the engine's limit 50000; allowed: 0\.\.50000$"),
    ({"horde.wanderer.count": 30_000, "horde.raider.count": 30_000}, r"^override: horde: 600\d\d horde cards in all exceed the engine's limit 50000"),
    ({"constants.dice_cap": K.MAX_DICE_CAP + 1}, r"constants\.dice_cap: 15 exceeds"),
    ({"constants.rounds": 1001}, r"constants\.rounds: 1001 exceeds the engine's limit 1000"),
    ({"constants.search_timer.offset": -1001}, r"search_timer\.offset: -1001 is below the lowest allowed value -1000"),
    ({"characters.pillar.health": 10 ** 12}, r"characters\.pillar\.health: 1000000000000 exceeds"),
    ({"characters.hipster.advantage.amount": 100, "characters.hipster.advantage.kind": "draw_extra"},
     None),  # 100 <= 255: valid
    ({"characters.trigger.drawback.amount": -5}, r"characters\.trigger\.drawback\.amount: collateral damage per X would be -4"),
    ({"dice.combat.faces": {"X": 1001}, "dice.combat.size": 1001}, r"dice\.combat\.faces\.X: 1001 exceeds"),
])
def test_capacity_errors_name_the_key_and_limit(override, pattern):
    if pattern is None:
        RULES.override(override)
        return
    with pytest.raises(RulesetError, match=pattern):
        RULES.override(override)


def test_more_players_than_characters_is_refused(tmp_path):
    rs = RULES.to_toml_dir(tmp_path / "r")
    text = (rs / "characters.toml").read_text()
    # keep three characters: drop the tables of the others (and their basic weapons)
    keep = CHARS[:3]
    blocks = text.split("\n[")
    kept = [b for b in blocks[1:] if b.split("]")[0].split(".")[0] in keep]
    (rs / "characters.toml").write_text(blocks[0] + "".join("\n[" + b for b in kept))
    rub = (rs / "rubble.toml").read_text()
    owners = {RULES.get(f"characters.{c}.basic_weapon") for c in keep}
    rb = rub.split("\n[")
    rb = [rb[0]] + [b for b in rb[1:] if not b.startswith("basic_weapons.")
                    or b.split("]")[0].split(".")[1] in owners]
    (rs / "rubble.toml").write_text("\n[".join(rb))
    with pytest.raises(RulesetError, match=r"constants\.max_players: 6 players need 6 different "
                                           r"characters; the ruleset has 3; allowed: 1\.\.3"):
        load_ruleset(rs)


def test_too_many_enemy_types_is_refused(tmp_path):
    rs = RULES.to_toml_dir(tmp_path / "r")
    extra = "".join(f'\n[extra{i}]\nkind = {{ value = "infected", source = "assumed" }}\n'
                    f'count = {{ value = 1, source = "assumed" }}\n'
                    f'kill_heads = {{ value = 1, source = "assumed" }}\n'
                    f'kill_bodies = {{ value = 2, source = "assumed" }}\n'
                    f'attack_dice = {{ value = 1, source = "assumed" }}\n'
                    for i in range(K.MAX_ENEMY_TYPES - len(ENEMIES) + 1))
    with open(rs / "horde.toml", "a") as fh:
        fh.write(extra)
    with pytest.raises(RulesetError, match=r"horde\.toml: horde: 9 enemy types exceed the records' "
                                           r"capacity 8"):
        load_ruleset(rs)


def test_too_many_card_types_for_the_candidates_is_refused(tmp_path):
    rs = RULES.to_toml_dir(tmp_path / "r")
    extra = "".join(f'\n[food{i}]\nkind = {{ value = "heal", source = "assumed" }}\n'
                    f'count = {{ value = 1, source = "assumed" }}\n'
                    f'amount = {{ value = 1, source = "assumed" }}\n' for i in range(30))
    text = (rs / "rubble.toml").read_text()
    head, sep, basics = text.partition("\n[basic_weapons.")
    (rs / "rubble.toml").write_text(head + extra + sep + basics)
    many = load_ruleset(rs)  # 65 card types, 10 slots: a seat holds at most 11 types
    with pytest.raises(RulesetError, match=r"rubble\.toml: rubble: 65 card types with 100 inventory "
                                           r"slots and 6 players allow 760 choices in one turn, "
                                           r"over the engine's capacity 512"):
        many.override(_all("characters.{}.slots", CHARS, 100))
