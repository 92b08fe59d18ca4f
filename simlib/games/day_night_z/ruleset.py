"""Day Night Z rulesets: the source-tagged TOML files of ``data/day_night_z`` as a
validated, immutable :class:`DayNightZRules`.

Files and dotted keys (``<file>.<field>``, ``<file>.<entry>.<field>``, the tables of
``constants.toml`` without the file name):

* ``constants.toml``: ``survivor.*`` (tracks, SP), ``threat_track.*`` (units, costs,
  locked units, leave-behind bands), ``clock.*``, ``combat.*`` (pool modifiers, hiding),
  ``map.*`` (the zone-level abstraction: ``tile_capacity``, ``engaged_cap``,
  ``leave_tile_ap``...), ``variants.*``;
* ``dice.toml``: ``dice.<face>.star|target|skull|infection|noise``;
* ``colours.toml``: ``colours.check.<stress colour>``, ``colours.attack.<health colour>``
  (the symbols that succeed);
* ``survivors.toml``: ``survivors.<name>.eats|weapon|ammo``, ``survivors.<name>.day.<attr>``,
  ``survivors.<name>.night.<attr>``;
* ``enemies.toml``: ``enemies.<kind>.miniatures|night_only|city_only``,
  ``enemies.<kind>.day.<stat>``, ``enemies.<kind>.night.<stat>``;
* ``weapons.toml``, ``search.toml``, ``spawn.toml``, ``threat.toml``, ``encounters.toml``,
  ``surprises.toml``, ``exploration.toml``, ``corpses.toml``: the weapons and the decks (and
  the corpse markers) with their counts;
* ``city.toml``, ``locations.toml``, ``scenario.toml``: the city graph and the adventure.

>>> rules = load_ruleset()
>>> rules.override({"survivor.max_sp_per_roll": 3}).get("survivor.max_sp_per_roll")
3
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ...core.ruleset import shipped_ruleset_dir
from ...core.ruleset import (Entities, Field, FileSchema, RulesetError, TaggedRuleset, check_value,
                             error, load_tagged, resolve_ruleset)
from . import codes as K

__all__ = ["DayNightZRules", "RulesetError", "load_ruleset", "load_rules", "reference_ruleset",
           "default_ruleset_dir", "DEFAULT_HOURS", "parse_hours"]


def _int(lo: int | None = 0, hi: int | None = None, required: bool = True, default: Any = None) -> Field:
    return Field("int", lo, hi, required, default)


_BOOL = Field("bool")
_HOUR = Field("ints", 0, 23)
_CELL = Field("cell", 0, 99)

SCHEMAS = (
    FileSchema("constants", tables={
        "survivor": {
            "health_max": _int(1, 50), "health_yellow_at": _int(1, 50), "health_red_at": _int(1, 50),
            "ap_green": _int(0, 10), "ap_yellow": _int(0, 10), "ap_red": _int(0, 10),
            "stress_max": _int(1, 50), "stress_yellow_from": _int(1, 50), "stress_red_from": _int(1, 50),
            "infection_death": _int(1, 20), "sp_start": _int(0, 99), "sp_cap": _int(1, 99),
            "max_sp_per_roll": _int(0, 20), "min_pool": _int(0, 20),
            "sp_per_passed_check": _int(0, 10), "stress_per_damaging_attack": _int(0, 10),
            "supply_heals": _int(0, 10), "rest_stress": _int(0, 10), "start_supplies": _int(0, 20),
            "start_battery": _int(0, 20),
        },
        "threat_track": {
            "units_per_level": _int(1, 99), "start_level": Field("choice", choices=K.LEVELS),
            "start_unit": _int(1, 99), "cost_green": _int(0, 99), "cost_yellow": _int(0, 99),
            "red_capped": _BOOL, "locked_green": Field("ints", 1, 99), "locked_yellow": Field("ints", 1, 99),
            "noise_rise": _int(0, 10),
            "leave_band_1_from": _int(1, 999), "leave_band_2_from": _int(1, 999),
            "leave_band_3_from": _int(1, 999), "leave_band_4_from": _int(1, 999),
        },
        "clock": {
            "night_start": _int(0, 23), "day_start": _int(0, 23), "dawn_hour": _int(0, 23),
            "dawn_sp": _int(0, 10), "infection_hours": _HOUR, "eat_hour": _int(0, 23),
            "threat_hours": _HOUR, "threat_hour_rise": _int(0, 10),
        },
        "combat": {
            "high_ground_bonus": _int(0, 10), "defend_bonus": _int(0, 10), "cover_penalty": _int(0, 10),
            "armour_penalty": _int(0, 10), "strength_mid": _int(0, 20), "strength_high": _int(0, 20),
            "star_trait_rule": Field("choice", choices=K.STAR_TRAIT_RULES),
            "hide_dice": _int(0, 20), "corpse_dice_max": _int(0, 20),
            "target_priority": Field("choice", choices=K.TARGET_PRIORITIES),
            # an attack and a move cost at least 1 AP: at 0 a player could act forever in a turn
            "attack_ap": _int(1, 10), "defend_ap": _int(0, 10), "search_item_ap": _int(0, 10),
            "hide_ap": _int(0, 10), "exchange_ap": _int(1, 10), "exchange_items": _int(1, 20),
            "trap_ap": _int(1, 10), "combine_ap": _int(1, 10),
        },
        "map": {
            "tile_capacity": _int(1, 64), "engaged_cap": _int(1, 16), "subzone_capacity": _int(1, 16),
            "leave_tile_ap": _int(0, 10), "ranged_reaches_tile": _BOOL, "high_ground_tiles": _BOOL,
            "cover_tiles": _BOOL, "flooded_extra_ap": _int(0, 10), "fire_damage": _int(0, 10),
            "jump_ap": _int(1, 10), "jump_penalty": _int(0, 10),
        },
        "variants": {
            "attacks_earn_sp": _BOOL, "red_units_block_entry": _BOOL,
            "eating_only_prevents_loss": _BOOL, "unlimited_miniatures": _BOOL,
        },
    }, top_level=("survivor", "threat_track", "clock", "combat", "map", "variants")),
    FileSchema("dice", entities=Entities({
        "star": Field("choice", choices=(K.NONE,) + K.STAR_COLOURS),
        "target": Field("choice", choices=(K.NONE,) + K.TARGET_COLOURS),
        "skull": _BOOL, "infection": _BOOL, "noise": _BOOL,
        "text": Field("text", required=False, default=""),
    }, what="face")),
    FileSchema("colours", tables={
        "check": {c: Field("names") for c in K.LEVELS},
        "attack": {c: Field("names") for c in K.LEVELS},
    }),
    FileSchema("survivors", entities=Entities({
        "eats": _int(0, 10), "weapon": Field("str"), "ammo": _int(0, 99),
        "text": Field("text", required=False, default=""),
    }, tables={"day": {a: _int(0, 20) for a in K.ATTRIBUTES},
               "night": {a: _int(0, 20) for a in K.ATTRIBUTES}}, what="survivor")),
    FileSchema("enemies", entities=Entities({
        "miniatures": _int(0, 99), "night_only": _BOOL, "city_only": _BOOL,
        "text": Field("text", required=False, default=""),
    }, tables={side: {"initiative": _int(0, 20), "actions": _int(0, 10), "health": _int(1, 50),
                      "attack": _int(0, 20), "damage": _int(0, 20), "defense": _int(0, 10),
                      "evasion": _int(-10, 0), "resistance": _int(0, 20), "sp": _int(0, 15)}
               for side in ("day", "night")},
        what="enemy", allowed=K.ENEMIES, allowed_what="enemy")),
    FileSchema("weapons", entities=Entities({
        "kind": Field("choice", choices=K.WEAPON_KINDS),
        "damage_weak": _int(0, 20), "damage_mid": _int(0, 20), "damage_strong": _int(0, 20),
        "noisy": _BOOL, "ammo": _int(0, 5), "attacks_per_ap": _int(1, 5), "slow": _BOOL,
        "pierce": _BOOL, "star_trait": Field("choice", choices=K.STAR_TRAITS), "suppressible": _BOOL,
        "trap_damage": _int(0, 20, False, 0),
        "text": Field("text", required=False, default=""),
    }, what="weapon")),
    FileSchema("search", entities=Entities({
        "kind": Field("choice", choices=K.SEARCH_KINDS), "count": _int(0, 99),
        "modifier": _int(-10, 10), "amount": _int(0, 20, False, 0),
        "weapon": Field("str", required=False, default=""),
        "location": Field("choice", required=False, default=K.NONE, choices=(K.NONE,) + K.BODY_LOCATIONS),
        "check": Field("choice", required=False, default=K.NONE, choices=(K.NONE,) + K.CHECK_ATTRIBUTES),
        "cancels_attack": Field("bool", required=False, default=False),
        "turns": _int(0, 20, False, 0),
        "capacity": _int(0, 10, False, 0),
        "components": Field("names", required=False, default=()),
        "text": Field("text", required=False, default=""),
    }, what="search card")),
    FileSchema("spawn", entities=Entities({
        "count": _int(0, 99),
        **{c: Field("counts", 0, 20, True, None, K.ENEMIES) for c in K.LEVELS},
        "text": Field("text", required=False, default=""),
    }, what="spawn card")),
    FileSchema("threat", fields={
        "cards": _int(1, 200), "combination": Field("choice", choices=K.THREAT_COMBINATIONS),
    }, tables={
        "side_a": {"normal": _int(0, 200), "fury": _int(0, 200), "excitement": _int(0, 200),
                   "fury_actions": _int(0, 5)},
        "hourglasses": {"zero": _int(0, 200), "one": _int(0, 200), "two": _int(0, 200)},
        "icons": {"hunter": _int(0, 200), "infection": _int(0, 200), "no_hunter": _int(0, 200),
                  "no_infection": _int(0, 200)},
        "conditions": {"noisy_weapon": _int(0, 200), "ambush": _int(0, 200), "red_stress": _int(0, 200),
                       "nothing": _int(0, 200)},
        "effects": {"noisy_weapon_threat": _int(0, 10), "ambush_spawn_per_survivor": _int(0, 10),
                    "red_stress_health": _int(0, 10)},
        "infection_card": {"level_1_stress": _int(0, 10), "level_2_health": _int(0, 10),
                           "level_3_health": _int(0, 10)},
    }),
    FileSchema("encounters", entities=Entities({
        "kind": Field("choice", choices=K.ENCOUNTER_KINDS), "count": _int(0, 99),
        "spawn_per_survivor": _int(0, 10, False, 0), "spawn_extra_red": _int(0, 10, False, 0),
        "attribute": Field("choice", required=False, default=K.NONE, choices=(K.NONE,) + K.CHECK_ATTRIBUTES),
        "fail_stress": _int(0, 10, False, 0), "fail_damage": _int(0, 10, False, 0),
        "text": Field("text", required=False, default=""),
    }, what="encounter card")),
    FileSchema("surprises", entities=Entities({
        "kind": Field("choice", choices=K.SURPRISE_KINDS), "count": _int(0, 99),
        "spawn_cards": _int(0, 10, False, 0),
        "enemy": Field("choice", required=False, default=K.NONE, choices=(K.NONE,) + K.ENEMIES),
        "amount": _int(0, 20, False, 0),
        "text": Field("text", required=False, default=""),
    }, what="surprise card")),
    FileSchema("exploration", entities=Entities({
        "kind": Field("choice", choices=K.EXPLORATION_KINDS), "count": _int(0, 99),
        "text": Field("text", required=False, default=""),
    }, what="exploration card")),
    FileSchema("corpses", entities=Entities({
        "kind": Field("choice", choices=K.CORPSE_KINDS), "count": _int(0, 99),
        "amount": _int(0, 20, False, 0), "dice": _int(0, 20, False, 0),
        "text": Field("text", required=False, default=""),
    }, what="corpse marker")),
    FileSchema("city", fields={
        "rows": _int(1, 20), "cols": _int(1, 20), "exit_a": _CELL, "exit_b": _CELL, "exit_c": _CELL,
        "alleys": Field("cells", 0, 99), "surprises": Field("cells", 0, 99),
        "move_ap": _int(1, 10), "enter_location_ap": _int(0, 10),
    }),
    FileSchema("locations", entities=Entities({
        "access": _CELL, "tiles": _int(1, 10), "search_modifier": _int(-10, 10),
        "terrain": Field("tile_terrains"), "jump_tiles": Field("ints", 1, 10),
        "spawn_small": _int(0, 10), "spawn_large": _int(0, 10), "small_team": _int(0, 4),
        "text": Field("text", required=False, default=""),
    }, what="location")),
    # the campaign (§6, §7): the travel, the shelter and its facilities, the shelter events
    FileSchema("campaign", fields={"travel_before_first": _BOOL, "shelter_days": _int(0, 30)}, tables={
        "travel": {"known_route": Field("terrains"), "unknown_route": Field("terrains"),
                   "unknown_dice": Field("ints", 0, 10)},
        "shelter": {"build_order": Field("names"), "feeding": _BOOL},
    }),
    FileSchema("travel", entities=Entities({
        "count": _int(0, 99), "text": Field("text", required=False, default=""),
    }, tables={t: {"attribute": Field("choice", choices=(K.NONE,) + K.CHECK_ATTRIBUTES),
                   "fail_damage": _int(0, 20, False, 0), "fail_stress": _int(0, 20, False, 0),
                   "fail_supplies": _int(0, 20, False, 0), "fail_infection": _int(0, 10, False, 0)}
               for t in K.TERRAINS}, what="travel card")),
    FileSchema("facilities", entities=Entities({
        "start_level": _int(0, 2), "build_cost": _int(0, 99), "upgrade_cost": _int(0, 99),
        "check": Field("choice", required=False, default=K.NONE, choices=(K.NONE,) + K.CHECK_ATTRIBUTES),
        "advanced_dice": _int(0, 10, False, 0),
        **{e: Field("ints", 0, 20, False, (0, 0)) for e in K.FACILITY_EFFECTS},
        "fence": Field("bool", required=False, default=False),
        "text": Field("text", required=False, default=""),
    }, what="facility", allowed=K.FACILITIES, allowed_what="facility")),
    FileSchema("skills", entities=Entities({
        "level": _int(1, 2), "cost": _int(0, 99), "count": _int(0, 99),
        "requires": Field("str", required=False, default=""),
        "bonus": Field("counts", 0, 10, True, None, K.ATTRIBUTES),
        "text": Field("text", required=False, default=""),
    }, what="skill")),
    FileSchema("allies", entities=Entities({
        "count": _int(0, 9), "leadership": _int(0, 10), "heal": _int(0, 10, False, 0),
        "supplies": _int(0, 10, False, 0), "bonus": Field("counts", 0, 10, True, None, K.ATTRIBUTES),
        "text": Field("text", required=False, default=""),
    }, what="ally")),
    FileSchema("shelter_events", entities=Entities({
        "count": _int(0, 99), "damage": _int(0, 20, False, 0), "stress": _int(0, 20, False, 0),
        "supplies": _int(0, 20, False, 0), "infection": _int(0, 10, False, 0),
        "fence_blocks": Field("bool", required=False, default=False),
        "ally": Field("bool", required=False, default=False),
        "text": Field("text", required=False, default=""),
    }, what="shelter event")),
    FileSchema("scenario", fields={
        "name": Field("str"), "start_hour": _int(0, 23), "start_exit": Field("choice", choices=K.EXITS),
        "searches_needed": _int(0, 20), "turn_limit": _int(1, 200), "vp_base": _int(0, 20),
        "vp_per_dead": _int(0, 20), "min_team": _int(1, 4), "max_team": _int(1, 4),
        "team": Field("names"),
    }),
)


class DayNightZRules(TaggedRuleset):
    """A validated Day Night Z ruleset (immutable; ``override`` returns a new one)."""

    SCHEMAS = SCHEMAS
    SOURCES = ("rulebook", "inferred", "publisher", "assumed")
    GAME = "Day Night Z"
    DATA_FOLDER = "day_night_z"  # the shipped folder's name: its lineage reads "reference"

    # ------------------------------------------------------------------ value types
    @classmethod
    def _check_value(cls, file: str, key: str, f: Field, value: Any) -> Any:
        """Adds ``ints`` (a list of integers in [min, max], possibly empty), ``cell`` (a
        ``[row, column]`` pair) and ``cells`` (a list of cells)."""
        if f.type == "ints":
            if not isinstance(value, (list, tuple)):
                raise error(file, key, f"expected a list of integers, got {type(value).__name__} {value!r}")
            return tuple(check_value(file, f"{key}[{i}]", Field("int", f.min, f.max), v)
                         for i, v in enumerate(value))
        # name lists in order, repeats allowed: a location's tiles' terrain (one a tile) and
        # a travel route's terrain icons
        lists = {"tile_terrains": ("tile terrain", K.TILE_TERRAINS), "terrains": ("terrain", K.TERRAINS)}
        if f.type in lists:
            what, allowed = lists[f.type]
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
                raise error(file, key, f"expected a list of {what} names, got {value!r}")
            for v in value:
                if v not in allowed:
                    raise error(file, key, f"unknown {what} {v!r}", allowed)
            return tuple(value)
        if f.type == "cell":
            if not isinstance(value, (list, tuple)) or len(value) != 2:
                raise error(file, key, f"expected a cell [row, column], got {value!r}")
            return tuple(check_value(file, key, Field("int", f.min, f.max), v) for v in value)
        if f.type == "cells":
            if not isinstance(value, (list, tuple)):
                raise error(file, key, f"expected a list of cells [[row, column], ...], got {value!r}")
            return tuple(cls._check_value(file, f"{key}[{i}]", Field("cell", f.min, f.max), v)
                         for i, v in enumerate(value))
        return check_value(file, key, f, value)

    # ------------------------------------------------------------------ names
    @property
    def face_names(self) -> tuple[str, ...]:
        return self.names("dice")

    @property
    def survivor_names(self) -> tuple[str, ...]:
        return self.names("survivors")

    @property
    def weapon_names(self) -> tuple[str, ...]:
        return self.names("weapons")

    def min_players(self) -> int:
        """The smallest team (a player is a survivor)."""
        return int(self.get("scenario.min_team"))

    def max_players(self) -> int:
        """The largest team: the scenario's, at most the kernel's ``MAX_SURV``."""
        return min(int(self.get("scenario.max_team")), K.MAX_SURV)

    # ------------------------------------------------------------------ checks
    def _bad(self, key: str, msg: str, allowed=None) -> RulesetError:
        return error(self.file_of(key), key, msg, allowed)

    def _validate(self) -> None:
        g = self.get
        # the die
        faces = self.face_names
        if len(faces) > K.MAX_FACES:
            raise self._bad("dice", f"at most {K.MAX_FACES} faces (layout bound); got {len(faces)}")
        # colour rules: only symbol colours that exist
        for roll, allowed in (("check", K.STAR_COLOURS), ("attack", K.TARGET_COLOURS)):
            for lvl in K.LEVELS:
                key = f"colours.{roll}.{lvl}"
                for c in g(key):
                    if c not in allowed:
                        raise self._bad(key, f"unknown colour {c!r}", allowed)
        # tracks
        s = "survivor."
        if not g(s + "health_red_at") < g(s + "health_yellow_at") < g(s + "health_max"):
            raise self._bad(s + "health_yellow_at", "need health_red_at < health_yellow_at < health_max "
                            f"(got {g(s + 'health_red_at')}, {g(s + 'health_yellow_at')}, {g(s + 'health_max')})")
        if not g(s + "stress_yellow_from") < g(s + "stress_red_from") <= g(s + "stress_max"):
            raise self._bad(s + "stress_red_from", "need stress_yellow_from < stress_red_from <= stress_max "
                            f"(got {g(s + 'stress_yellow_from')}, {g(s + 'stress_red_from')}, "
                            f"{g(s + 'stress_max')})")
        if g(s + "sp_start") > g(s + "sp_cap"):
            raise self._bad(s + "sp_start", f"{g(s + 'sp_start')} is above sp_cap {g(s + 'sp_cap')}")
        t = "threat_track."
        units = g(t + "units_per_level")
        if units > K.MAX_UNITS:
            raise self._bad(t + "units_per_level", f"at most {K.MAX_UNITS} units a level (layout bound); got {units}")
        if g(t + "start_unit") > units:
            raise self._bad(t + "start_unit", f"{g(t + 'start_unit')} is above units_per_level {units}")
        for lvl in ("green", "yellow"):
            key = f"{t}locked_{lvl}"
            v = g(key)
            if list(v) != sorted(set(v)) or any(u > units for u in v):
                raise self._bad(key, f"expected distinct increasing units within 1-{units}, got {list(v)}")
        bands = [g(f"{t}leave_band_{i}_from") for i in range(1, 5)]
        if bands != sorted(set(bands)):
            raise self._bad(t + "leave_band_2_from", f"the leave bands must start at increasing SP sums, got {bands}")
        c = "clock."
        if g(c + "night_start") == g(c + "day_start"):
            raise self._bad(c + "day_start", "night and day cannot start at the same hour")
        if g("combat.strength_mid") > g("combat.strength_high"):
            raise self._bad("combat.strength_mid", "must be <= combat.strength_high")
        # survivors, enemies, weapons
        weapons = self.weapon_names
        for n in self.survivor_names:
            w = g(f"survivors.{n}.weapon")
            if w not in weapons:
                raise self._bad(f"survivors.{n}.weapon", f"unknown weapon {w!r}", weapons)
        enemies = self.names("enemies")
        missing = [e for e in K.ENEMIES if e not in enemies]
        if missing:
            raise self._bad("enemies", f"missing enemy {missing[0]!r}; enemies.toml lists every kind", K.ENEMIES)
        # decks
        for n in self.names("search"):
            kind, w = g(f"search.{n}.kind"), g(f"search.{n}.weapon")
            if kind == "weapon" and w not in weapons:
                raise self._bad(f"search.{n}.weapon", f"a weapon card needs a weapon; got {w!r}", weapons)
            if kind != "weapon" and w:
                raise self._bad(f"search.{n}.weapon", f"only weapon cards name a weapon ({kind})")
            if (kind == "armour") != (g(f"search.{n}.location") != K.NONE):
                raise self._bad(f"search.{n}.location", "an armour card, and only one, covers a body location",
                                K.BODY_LOCATIONS)
            if (kind == "trap_stuff") != (g(f"search.{n}.capacity") > 0):
                raise self._bad(f"search.{n}.capacity", "a trap_stuff card, and only one, has a capacity "
                                "(1 or more: the trap-combinable cards it takes, §4.4)")
            parts = list(g(f"search.{n}.components"))
            if parts:
                if kind != "weapon":
                    raise self._bad(f"search.{n}.components", f"a combined card is a weapon card ({kind})")
                if len(parts) < 2 or len(set(parts)) != len(parts):
                    raise self._bad(f"search.{n}.components", f"two or more distinct cards; got {parts}")
                names = self.names("search")
                for c in parts:
                    if c not in names:
                        raise self._bad(f"search.{n}.components", f"unknown search card {c!r}", names)
                    if g(f"search.{c}.kind") not in ("weapon", "component"):
                        raise self._bad(f"search.{n}.components", f"{c!r} is neither a weapon nor a "
                                        "component card")
                    if g(f"search.{c}.components"):
                        raise self._bad(f"search.{n}.components", f"{c!r} is itself a combined card")
                if sum(g(f"search.{c}.kind") == "weapon" for c in parts) > 1:
                    raise self._bad(f"search.{n}.components", "at most one weapon card among the "
                                    "components (a survivor carries one weapon of a kind)")
        if sum(g(f"search.{n}.kind") == "trap_stuff" for n in self.names("search")) > 1:
            raise self._bad("search", "at most one trap_stuff card kind")
        spawn = self.names("spawn")
        if len(spawn) > K.MAX_SPAWN_KINDS:
            raise self._bad("spawn", f"at most {K.MAX_SPAWN_KINDS} kinds of spawn card (layout bound); "
                            f"got {len(spawn)}")
        n_spawn = sum(g(f"spawn.{n}.count") for n in spawn)
        if n_spawn > K.MAX_SPAWN_CARDS:
            raise self._bad("spawn", f"at most {K.MAX_SPAWN_CARDS} spawn cards (layout bound); got {n_spawn}")
        for stem in ("search", "spawn", "encounters", "surprises", "exploration", "corpses"):
            if sum(g(f"{stem}.{n}.count") for n in self.names(stem)) < 1:
                raise self._bad(stem, "the deck is empty")
        for n in self.names("encounters"):
            if (g(f"encounters.{n}.kind") == "check") != (g(f"encounters.{n}.attribute") != K.NONE):
                raise self._bad(f"encounters.{n}.attribute", "a check card, and only one, names an attribute",
                                K.CHECK_ATTRIBUTES)
        for n in self.names("surprises"):
            if (g(f"surprises.{n}.kind") == "enemy_ambush") != (g(f"surprises.{n}.enemy") != K.NONE):
                raise self._bad(f"surprises.{n}.enemy", "an enemy_ambush card, and only one, names an enemy",
                                K.ENEMIES)
        cards = g("threat.cards")
        for table, parts in (("side_a", ("normal", "fury", "excitement")),
                             ("hourglasses", ("zero", "one", "two")),
                             ("icons", ("hunter", "no_hunter")), ("icons", ("infection", "no_infection")),
                             ("conditions", ("noisy_weapon", "ambush", "red_stress", "nothing"))):
            total = sum(g(f"threat.{table}.{p}") for p in parts)
            if total != cards:
                raise self._bad(f"threat.{table}.{parts[0]}", f"{' + '.join(parts)} = {total}; "
                                f"each column of the threat deck counts its {cards} cards (threat.cards)")
        # the city
        rows, cols = g("city.rows"), g("city.cols")
        seen: dict[tuple, str] = {}
        cells = [(f"city.exit_{e}", g(f"city.exit_{e}")) for e in K.EXITS]
        cells += [("city.alleys", x) for x in g("city.alleys")]
        cells += [("city.surprises", x) for x in g("city.surprises")]
        for key, cell in cells + [(f"locations.{n}.access", g(f"locations.{n}.access"))
                                  for n in self.names("locations")]:
            if not (0 <= cell[0] < rows and 0 <= cell[1] < cols):
                raise self._bad(key, f"cell {list(cell)} is off the {rows} x {cols} grid")
        for key, cell in cells:
            if cell in seen:
                raise self._bad(key, f"cell {list(cell)} is already {seen[cell]}")
            seen[cell] = key
        # the scenario
        team = g("scenario.team")
        for n in team:
            if n not in self.survivor_names:
                raise self._bad("scenario.team", f"unknown survivor {n!r}", self.survivor_names)
        if not g("scenario.min_team") <= g("scenario.max_team") <= len(team):
            raise self._bad("scenario.max_team", f"need min_team <= max_team <= {len(team)} (the team list)")
        for n in self.names("locations"):
            tiles, terrain = g(f"locations.{n}.tiles"), g(f"locations.{n}.terrain")
            if len(terrain) != tiles:
                raise self._bad(f"locations.{n}.terrain", f"one terrain a tile: {tiles} tiles, got {len(terrain)}")
            jumps = g(f"locations.{n}.jump_tiles")
            if list(jumps) != sorted(set(jumps)) or any(t > tiles for t in jumps):
                raise self._bad(f"locations.{n}.jump_tiles", f"distinct increasing tile numbers from 1 to "
                                f"{tiles}; got {list(jumps)}")
        # the campaign
        if len(g("campaign.travel.unknown_dice")) != len(g("campaign.travel.unknown_route")):
            raise self._bad("campaign.travel.unknown_dice", "one number of dice a terrain icon of "
                            f"campaign.travel.unknown_route ({len(g('campaign.travel.unknown_route'))}); "
                            f"got {len(g('campaign.travel.unknown_dice'))}")
        for key in ("campaign.travel.known_route", "campaign.travel.unknown_route"):
            if len(g(key)) > K.MAX_ROUTE:
                raise self._bad(key, f"at most {K.MAX_ROUTE} terrain icons (layout bound); got {len(g(key))}")
        facs = self.names("facilities")
        for n in g("campaign.shelter.build_order"):
            if n not in facs:
                raise self._bad("campaign.shelter.build_order", f"unknown facility {n!r}", facs)
        for n in facs:
            fence = g(f"facilities.{n}.fence")
            if fence != (n == "fence"):
                raise self._bad(f"facilities.{n}.fence", "the fence, and only the fence, is a fence")
            if fence and g(f"facilities.{n}.start_level") > 1:
                raise self._bad(f"facilities.{n}.start_level", "the fence has one level (0 or 1)")
            for e in K.FACILITY_EFFECTS:
                if len(g(f"facilities.{n}.{e}")) != 2:
                    raise self._bad(f"facilities.{n}.{e}", "expected [basic, advanced]")
        for stem, bound in (("travel", K.MAX_TRAVEL_CARDS), ("shelter_events", K.MAX_SHELTER_CARDS)):
            total = sum(g(f"{stem}.{n}.count") for n in self.names(stem))
            if total < 1:
                raise self._bad(stem, "the deck is empty")
            if total > bound:
                raise self._bad(stem, f"at most {bound} cards (layout bound); got {total}")
        skills = self.names("skills")
        if len(skills) > K.MAX_SKILLS:
            raise self._bad("skills", f"at most {K.MAX_SKILLS} skills (layout bound); got {len(skills)}")
        for n in skills:
            req = g(f"skills.{n}.requires")
            if req and (req not in skills or skills.index(req) >= skills.index(n)):
                raise self._bad(f"skills.{n}.requires", f"{req!r} is not a skill listed before {n!r}",
                                skills[:skills.index(n)])
            if (g(f"skills.{n}.level") == 2) != bool(req):
                raise self._bad(f"skills.{n}.requires", "a level-2 skill, and only one, requires "
                                "a level-1 skill")
        n_allies = sum(g(f"allies.{n}.count") for n in self.names("allies"))
        if n_allies > K.MAX_ALLIES:
            raise self._bad("allies", f"at most {K.MAX_ALLIES} ally cards (layout bound); got {n_allies}")
        for stem, bound in (("travel", K.MAX_TRAVEL_KINDS), ("shelter_events", K.MAX_SHELTER_KINDS)):
            if len(self.names(stem)) > bound:
                raise self._bad(stem, f"at most {bound} kinds (layout bound); got {len(self.names(stem))}")

    # ------------------------------------------------------------------ derived values
    def faces(self) -> np.ndarray:
        """The die as an int64 array, one row a face, columns ``codes.F_*``: star colour
        (index in ``STAR_COLOURS``, -1 none), target colour (``TARGET_COLOURS``, -1),
        skull, infection, noise (0/1).  Read-only, cached."""
        if "faces" not in self._cache:
            rows = []
            for f in self.face_names:
                star, target = self.get(f"dice.{f}.star"), self.get(f"dice.{f}.target")
                rows.append([K.STAR_COLOURS.index(star) if star != K.NONE else -1,
                             K.TARGET_COLOURS.index(target) if target != K.NONE else -1,
                             int(self.get(f"dice.{f}.skull")), int(self.get(f"dice.{f}.infection")),
                             int(self.get(f"dice.{f}.noise"))])
            a = np.array(rows, dtype=np.int64).reshape(len(rows), K.F_N)
            a.setflags(write=False)
            self._cache["faces"] = a
        return self._cache["faces"]

    def pack_dice(self) -> np.ndarray:
        """The dice rules as the kernels' int64 array (layout ``codes.DICE_PARTS``;
        read-only, cached)."""
        if "dice" not in self._cache:
            d = np.zeros(K.D_SIZE, dtype=np.int64)
            p = d[K.D_PARAMS:K.D_PARAMS + len(K.DICE_PARAMS)]
            faces = self.faces()
            p[K.DP_N_FACES] = len(faces)
            p[K.DP_MIN_POOL] = self.get("survivor.min_pool")
            p[K.DP_MAX_SP] = self.get("survivor.max_sp_per_roll")
            p[K.DP_STAR_ANY] = int(self.get("combat.star_trait_rule") == "any_star")
            p[K.DP_STRESS_PER_HIT] = self.get("survivor.stress_per_damaging_attack")
            d[K.D_FACES:K.D_FACES + faces.size] = faces.ravel()
            for li, lvl in enumerate(K.LEVELS):
                for ci, c in enumerate(K.STAR_COLOURS):
                    d[K.D_CHECK_OK + li * len(K.STAR_COLOURS) + ci] = int(c in self.accepted("check", lvl))
                for ci, c in enumerate(K.TARGET_COLOURS):
                    d[K.D_ATTACK_OK + li * len(K.TARGET_COLOURS) + ci] = int(c in self.accepted("attack", lvl))
            d.setflags(write=False)
            self._cache["dice"] = d
        return self._cache["dice"]

    def threat_index(self, level: str, unit: int) -> int:
        """The threat track's index of ``unit`` (1-based) of a colour (see ``codes``)."""
        return K.LEVELS.index(_level_name(level)) * self.get("threat_track.units_per_level") + unit - 1

    def threat_of(self, t: int) -> tuple[str, int]:
        """(colour, unit) of a threat index."""
        u = self.get("threat_track.units_per_level")
        return K.LEVELS[t // u], t % u + 1

    def pack_tracks(self) -> np.ndarray:
        """The threat track, noise, clock, SP cap and eating rules as the kernels' int64
        array (layout ``codes.TRACK_PARTS``; read-only, cached)."""
        if "tracks" not in self._cache:
            g = self.get
            d = np.zeros(K.T_SIZE, dtype=np.int64)
            p = d[K.T_PARAMS:K.T_PARAMS + len(K.TRACK_PARAMS)]
            t = "threat_track."
            units = g(t + "units_per_level")
            p[K.TP_UNITS] = units
            p[K.TP_START] = self.threat_index(g(t + "start_level"), g(t + "start_unit"))
            p[K.TP_COST_GREEN], p[K.TP_COST_YELLOW] = g(t + "cost_green"), g(t + "cost_yellow")
            p[K.TP_RED_CAPPED], p[K.TP_NOISE_RISE] = int(g(t + "red_capped")), g(t + "noise_rise")
            for i in range(4):
                p[K.TP_BAND_1 + i] = g(f"{t}leave_band_{i + 1}_from")
            p[K.TP_BLOCK_ENTRY] = int(g("variants.red_units_block_entry"))
            p[K.TP_NIGHT_START], p[K.TP_DAY_START] = g("clock.night_start"), g("clock.day_start")
            p[K.TP_DAWN_SP], p[K.TP_THREAT_HOUR_RISE] = g("clock.dawn_sp"), g("clock.threat_hour_rise")
            p[K.TP_SP_CAP], p[K.TP_SUPPLY_HEALS] = g("survivor.sp_cap"), g("survivor.supply_heals")
            p[K.TP_EAT_ONLY_PREVENTS] = int(g("variants.eating_only_prevents_loss"))
            p[K.TP_HEALTH_MAX] = g("survivor.health_max")
            for li, lvl in enumerate(K.LEVELS):
                for u in range(1, units + 1):
                    locked = lvl == "red" or u in g(f"{t}locked_{lvl}")
                    d[K.T_LOCKED + li * K.MAX_UNITS + u - 1] = int(locked)
            hours = d[K.T_HOURS:K.T_HOURS + 24]
            hours[g("clock.dawn_hour")] |= K.EV_DAWN
            for h in g("clock.infection_hours"):
                hours[h] |= K.EV_INFECTION
            hours[g("clock.eat_hour")] |= K.EV_EAT
            for h in g("clock.threat_hours"):
                hours[h] |= K.EV_THREAT
            d.setflags(write=False)
            self._cache["tracks"] = d
        return self._cache["tracks"]

    def pack_spawn(self) -> np.ndarray:
        """The spawn deck and placement rules as the kernels' int64 array (layout
        ``codes.SPAWN_PARTS``; read-only, cached)."""
        if "spawn" not in self._cache:
            d = np.zeros(K.X_SIZE, dtype=np.int64)
            kinds = self.names("spawn")
            deck = [i for i, n in enumerate(kinds) for _ in range(self.get(f"spawn.{n}.count"))]
            p = d[K.X_PARAMS:K.X_PARAMS + len(K.SPAWN_PARAMS)]
            p[K.SP_N_KINDS], p[K.SP_N_CARDS] = len(kinds), len(deck)
            p[K.SP_UNLIMITED] = int(self.get("variants.unlimited_miniatures"))
            p[K.SP_TILE_CAPACITY] = self.get("map.tile_capacity")
            d[K.X_DECK:K.X_DECK + len(deck)] = deck
            for i, n in enumerate(kinds):
                for li, lvl in enumerate(K.LEVELS):
                    row = self.get(f"spawn.{n}.{lvl}")
                    for e, enemy in enumerate(K.ENEMIES):
                        d[K.X_ROWS + (i * len(K.LEVELS) + li) * K.N_ENEMIES + e] = row[enemy]
            for night in (0, 1):
                ini = [self.enemy(e, bool(night))["initiative"] for e in K.ENEMIES]
                order = sorted(range(K.N_ENEMIES), key=lambda e: (-ini[e], e))
                d[K.X_ORDER + night * K.N_ENEMIES:K.X_ORDER + (night + 1) * K.N_ENEMIES] = order
            for e, enemy in enumerate(K.ENEMIES):
                d[K.X_MINIS + e] = self.get(f"enemies.{enemy}.miniatures")
            d.setflags(write=False)
            self._cache["spawn"] = d
        return self._cache["spawn"]

    def pack_engine(self) -> np.ndarray:
        """Everything the turn engine reads besides the dice, tracks and spawn arrays, as one
        int64 array (layout ``codes.ENGINE_PARTS``; read-only, cached): the survivors of the
        scenario's team by team slot, the enemies by day and night, the weapons, the decks
        (one entry a physical card; the threat deck as one column a side, see threat.toml's
        ``combination``), the city graph (places: city zones ``row * cols + col``, then
        ``MAX_ZONES + location * MAX_TILES + tile``; neighbours; moves between places)."""
        if "engine" in self._cache:
            return self._cache["engine"]
        g = self.get
        d = np.zeros(K.R_SIZE, dtype=np.int64)
        p = d[K.R_PARAMS:K.R_PARAMS + len(K.ENGINE_PARAMS)]
        s = "survivor."
        for name, key in (("HEALTH_MAX", "health_max"), ("HEALTH_YELLOW_AT", "health_yellow_at"),
                          ("HEALTH_RED_AT", "health_red_at"), ("AP_GREEN", "ap_green"),
                          ("AP_YELLOW", "ap_yellow"), ("AP_RED", "ap_red"), ("STRESS_MAX", "stress_max"),
                          ("STRESS_YELLOW_FROM", "stress_yellow_from"), ("STRESS_RED_FROM", "stress_red_from"),
                          ("INFECTION_DEATH", "infection_death"), ("SP_START", "sp_start"),
                          ("SP_CAP", "sp_cap"), ("MAX_SP", "max_sp_per_roll"),
                          ("SP_PER_CHECK", "sp_per_passed_check"), ("REST_STRESS", "rest_stress"),
                          ("START_SUPPLIES", "start_supplies"), ("SUPPLY_HEALS", "supply_heals"),
                          ("START_BATTERY", "start_battery")):
            p[getattr(K, "RP_" + name)] = g(s + key)
        c = "combat."
        p[K.RP_HIGH_GROUND], p[K.RP_DEFEND_BONUS] = g(c + "high_ground_bonus"), g(c + "defend_bonus")
        p[K.RP_COVER_PENALTY], p[K.RP_ARMOUR_PENALTY] = g(c + "cover_penalty"), g(c + "armour_penalty")
        p[K.RP_STRENGTH_MID], p[K.RP_STRENGTH_HIGH] = g(c + "strength_mid"), g(c + "strength_high")
        p[K.RP_TARGET_PRIORITY] = K.TARGET_PRIORITIES.index(g(c + "target_priority"))
        p[K.RP_ATTACK_AP], p[K.RP_DEFEND_AP] = g(c + "attack_ap"), g(c + "defend_ap")
        p[K.RP_SEARCH_ITEM_AP] = g(c + "search_item_ap")
        p[K.RP_HIDE_AP], p[K.RP_HIDE_DICE] = g(c + "hide_ap"), g(c + "hide_dice")
        p[K.RP_EXCHANGE_AP], p[K.RP_EXCHANGE_ITEMS] = g(c + "exchange_ap"), g(c + "exchange_items")
        p[K.RP_TRAP_AP], p[K.RP_COMBINE_AP] = g(c + "trap_ap"), g(c + "combine_ap")
        p[K.RP_FLOODED_AP], p[K.RP_FIRE_DAMAGE] = g("map.flooded_extra_ap"), g("map.fire_damage")
        p[K.RP_JUMP_AP], p[K.RP_JUMP_PENALTY] = g("map.jump_ap"), g("map.jump_penalty")
        m = "map."
        p[K.RP_TILE_CAPACITY], p[K.RP_ENGAGED_CAP] = g(m + "tile_capacity"), g(m + "engaged_cap")
        p[K.RP_LEAVE_TILE_AP] = g(m + "leave_tile_ap")
        p[K.RP_RANGED_REACHES_TILE] = int(g(m + "ranged_reaches_tile"))
        p[K.RP_HIGH_GROUND_TILES], p[K.RP_COVER_TILES] = int(g(m + "high_ground_tiles")), int(g(m + "cover_tiles"))
        p[K.RP_ATTACKS_EARN_SP] = int(g("variants.attacks_earn_sp"))
        p[K.RP_UNLIMITED] = int(g("variants.unlimited_miniatures"))
        t = "threat."
        p[K.RP_FURY_ACTIONS] = g(t + "side_a.fury_actions")
        p[K.RP_NOISY_WEAPON_THREAT] = g(t + "effects.noisy_weapon_threat")
        p[K.RP_AMBUSH_PER_SURVIVOR] = g(t + "effects.ambush_spawn_per_survivor")
        p[K.RP_RED_STRESS_HEALTH] = g(t + "effects.red_stress_health")
        p[K.RP_INF_L1_STRESS] = g(t + "infection_card.level_1_stress")
        p[K.RP_INF_L2_HEALTH] = g(t + "infection_card.level_2_health")
        p[K.RP_INF_L3_HEALTH] = g(t + "infection_card.level_3_health")
        rows, cols = g("city.rows"), g("city.cols")
        if rows * cols > K.MAX_ZONES:
            raise self._bad("city.rows", f"at most {K.MAX_ZONES} city zones (layout bound); got {rows * cols}")
        locs = self.names("locations")
        if len(locs) > K.MAX_LOCS:
            raise self._bad("locations", f"at most {K.MAX_LOCS} locations (layout bound); got {len(locs)}")
        p[K.RP_ROWS], p[K.RP_COLS], p[K.RP_N_LOCS] = rows, cols, len(locs)
        p[K.RP_MOVE_AP], p[K.RP_ENTER_LOCATION_AP] = g("city.move_ap"), g("city.enter_location_ap")
        sc = "scenario."
        ex = g(f"city.exit_{g(sc + 'start_exit')}")
        p[K.RP_START_HOUR], p[K.RP_START_ZONE] = g(sc + "start_hour"), ex[0] * cols + ex[1]
        p[K.RP_SEARCHES_NEEDED], p[K.RP_TURN_LIMIT] = g(sc + "searches_needed"), g(sc + "turn_limit")
        p[K.RP_VP_BASE], p[K.RP_VP_PER_DEAD] = g(sc + "vp_base"), g(sc + "vp_per_dead")
        p[K.RP_MIN_TEAM], p[K.RP_MAX_TEAM] = g(sc + "min_team"), min(g(sc + "max_team"), K.MAX_SURV)
        # survivors by team slot
        weapons = self.weapon_names
        if len(weapons) > K.MAX_WEAPONS:
            raise self._bad("weapons", f"at most {K.MAX_WEAPONS} weapons (layout bound); got {len(weapons)}")
        for i, n in enumerate(g(sc + "team")[:K.MAX_SURV]):
            r = K.R_SURV + i * K.SV_W
            for a, attr in enumerate(K.ATTRIBUTES):
                d[r + K.SV_DAY + a] = g(f"survivors.{n}.day.{attr}")
                d[r + K.SV_NIGHT + a] = g(f"survivors.{n}.night.{attr}")
            d[r + K.SV_EATS] = g(f"survivors.{n}.eats")
            d[r + K.SV_WEAPON] = weapons.index(g(f"survivors.{n}.weapon"))
            d[r + K.SV_AMMO] = g(f"survivors.{n}.ammo")
        for e, kind in enumerate(K.ENEMIES):
            for night in (0, 1):
                prof = self.enemy(kind, bool(night))
                for si, st in enumerate(K.ENEMY_STATS):
                    d[K.R_ENEMY + (e * 2 + night) * K.N_ESTAT + si] = prof[st]
        for i, w in enumerate(weapons):
            r = K.R_WEAPONS + i * K.W_W
            pre = f"weapons.{w}."
            d[r + K.W_RANGED] = int(g(pre + "kind") == "ranged")
            d[r + K.W_DMG_WEAK], d[r + K.W_DMG_MID] = g(pre + "damage_weak"), g(pre + "damage_mid")
            d[r + K.W_DMG_STRONG], d[r + K.W_NOISY] = g(pre + "damage_strong"), int(g(pre + "noisy"))
            d[r + K.W_AMMO], d[r + K.W_PER_AP] = g(pre + "ammo"), g(pre + "attacks_per_ap")
            d[r + K.W_SLOW], d[r + K.W_PIERCE] = int(g(pre + "slow")), int(g(pre + "pierce"))
            d[r + K.W_STAR] = K.STAR_TRAITS.index(g(pre + "star_trait"))
            d[r + K.W_SUPPRESSIBLE] = int(g(pre + "suppressible"))
            d[r + K.W_TRAP] = g(pre + "trap_damage")
        # the fists: the melee weapon a survivor always has (the weaponless melee attack)
        p[K.RP_FISTS] = weapons.index("fists") if "fists" in weapons else -1

        def deck(stem, kinds_at, width, row_of, max_kinds, deck_at, max_cards):
            names = self.names(stem)
            if len(names) > max_kinds:
                raise self._bad(stem, f"at most {max_kinds} kinds of card (layout bound); got {len(names)}")
            cards = [i for i, n in enumerate(names) for _ in range(g(f"{stem}.{n}.count"))]
            if len(cards) > max_cards:
                raise self._bad(stem, f"at most {max_cards} cards (layout bound); got {len(cards)}")
            for i, n in enumerate(names):
                if kinds_at is not None:
                    d[kinds_at + i * width:kinds_at + (i + 1) * width] = row_of(n)
            d[deck_at:deck_at + len(cards)] = cards
            return len(cards)

        snames = self.names("search")

        def skind(n):
            pre = f"search.{n}."
            w, loc, chk = g(pre + "weapon"), g(pre + "location"), g(pre + "check")
            parts = list(g(pre + "components"))
            pw = [weapons.index(g(f"search.{c}.weapon")) for c in parts if g(f"search.{c}.kind") == "weapon"]
            mask = sum(1 << snames.index(c) for c in parts if g(f"search.{c}.kind") == "component")
            return [K.SEARCH_KINDS.index(g(pre + "kind")), g(pre + "modifier"), g(pre + "amount"),
                    weapons.index(w) if w else -1, K.BODY_LOCATIONS.index(loc) if loc != K.NONE else -1,
                    K.ATTRIBUTES.index(chk) if chk != K.NONE else -1, int(g(pre + "cancels_attack")),
                    g(pre + "turns"), g(pre + "capacity"), mask, pw[0] if pw else -1]

        def ekind(n):
            pre = f"encounters.{n}."
            a = g(pre + "attribute")
            return [K.ENCOUNTER_KINDS.index(g(pre + "kind")), g(pre + "spawn_per_survivor"),
                    g(pre + "spawn_extra_red"), K.ATTRIBUTES.index(a) if a != K.NONE else -1,
                    g(pre + "fail_stress"), g(pre + "fail_damage")]

        def ukind(n):
            pre = f"surprises.{n}."
            e = g(pre + "enemy")
            return [K.SURPRISE_KINDS.index(g(pre + "kind")), g(pre + "spawn_cards"),
                    K.ENEMIES.index(e) if e != K.NONE else -1, g(pre + "amount")]

        # the body location of the armour that may be discarded to cancel an attack (biker
        # gloves: the arms); -1 when no card cancels
        cancel = [g(f"search.{n}.location") for n in self.names("search") if g(f"search.{n}.cancels_attack")]
        if len(set(cancel)) > 1:
            raise self._bad("search", f"the cards that cancel an attack cover one body location; got {cancel}")
        p[K.RP_CANCEL_LOCATION] = K.BODY_LOCATIONS.index(cancel[0]) if cancel else -1
        p[K.RP_N_SEARCH] = deck("search", K.R_SKINDS, K.SK_W, skind, K.MAX_SEARCH_KINDS, K.R_SDECK,
                                K.MAX_SEARCH_CARDS)
        p[K.RP_N_ENC] = deck("encounters", K.R_EKINDS, K.EK_W, ekind, K.MAX_ENC_KINDS, K.R_EDECK, K.MAX_ENC_CARDS)
        p[K.RP_N_SUR] = deck("surprises", K.R_UKINDS, K.UK_W, ukind, K.MAX_SUR_KINDS, K.R_UDECK, K.MAX_SUR_CARDS)
        def ckind(n):
            pre = f"corpses.{n}."
            return [K.CORPSE_KINDS.index(g(pre + "kind")), g(pre + "amount"), g(pre + "dice")]

        p[K.RP_N_CORPSE] = deck("corpses", K.R_CKINDS, K.CK_W, ckind, K.MAX_CORPSE_KINDS, K.R_CDECK,
                                K.MAX_CORPSE_CARDS)
        xn = self.names("exploration")
        xcards = [K.EXPLORATION_KINDS.index(g(f"exploration.{n}.kind")) for n in xn
                  for _ in range(g(f"exploration.{n}.count"))]
        if len(xcards) > K.MAX_EXP_CARDS:
            raise self._bad("exploration", f"at most {K.MAX_EXP_CARDS} cards (layout bound); got {len(xcards)}")
        d[K.R_XDECK:K.R_XDECK + len(xcards)] = xcards
        p[K.RP_N_EXP] = len(xcards)
        n_threat = g("threat.cards")
        if n_threat > K.MAX_THREAT_CARDS:
            raise self._bad("threat.cards", f"at most {K.MAX_THREAT_CARDS} cards (layout bound); got {n_threat}")
        p[K.RP_N_THREAT] = n_threat
        for at, table, parts in ((K.R_T_SIDE, "side_a", ("normal", "fury", "excitement")),
                                 (K.R_T_HOURS, "hourglasses", ("zero", "one", "two")),
                                 (K.R_T_HUNTER, "icons", ("no_hunter", "hunter")),
                                 (K.R_T_INF, "icons", ("no_infection", "infection")),
                                 (K.R_T_COND, "conditions", ("noisy_weapon", "ambush", "red_stress", "nothing"))):
            col = [v for v, part in enumerate(parts) for _ in range(g(f"threat.{table}.{part}"))]
            d[at:at + len(col)] = col
        # the city graph
        kinds = [K.Z_STREET] * (rows * cols)
        for e in K.EXITS:
            r, cc = g(f"city.exit_{e}")
            kinds[r * cols + cc] = K.Z_EXIT
        for r, cc in g("city.alleys"):
            kinds[r * cols + cc] = K.Z_ALLEY
        for r, cc in g("city.surprises"):
            kinds[r * cols + cc] = K.Z_SURPRISE
        d[K.R_ZONES:K.R_ZONES + rows * cols] = kinds
        d[K.R_ZONE_LOC:K.R_ZONE_LOC + K.MAX_ZONES] = -1
        nbs: dict[int, list[int]] = {}
        for z in range(rows * cols):
            r, cc = divmod(z, cols)
            nbs[z] = [(r + dr) * cols + cc + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                      if 0 <= r + dr < rows and 0 <= cc + dc < cols]
        for li, n in enumerate(locs):
            pre = f"locations.{n}."
            r, cc = g(pre + "access")
            z = r * cols + cc
            tiles = g(pre + "tiles")
            if tiles > K.MAX_TILES:
                raise self._bad(pre + "tiles", f"at most {K.MAX_TILES} tiles a location (layout bound); got {tiles}")
            terrain = g(pre + "terrain")
            first_place = K.MAX_ZONES + li * K.MAX_TILES
            d[K.R_TERRAIN + first_place:K.R_TERRAIN + first_place + tiles] = [
                K.TILE_TERRAINS.index(t) for t in terrain]
            for t in g(pre + "jump_tiles"):
                d[K.R_JUMP + first_place + t - 1] = 1
            if d[K.R_ZONE_LOC + z] >= 0:
                raise self._bad(pre + "access", f"zone {[r, cc]} already gives access to a location")
            d[K.R_ZONE_LOC + z] = li
            d[K.R_LOCS + li * K.LK_W:K.R_LOCS + (li + 1) * K.LK_W] = [
                z, tiles, g(pre + "search_modifier"), g(pre + "spawn_small"), g(pre + "spawn_large"),
                g(pre + "small_team")]
            first = K.MAX_ZONES + li * K.MAX_TILES
            nbs[z].append(first)
            for ti in range(tiles):
                pl = first + ti
                nbs[pl] = ([z] if ti == 0 else [pl - 1]) + ([pl + 1] if ti + 1 < tiles else [])
        d[K.R_NB:K.R_NB + K.MAX_PLACES * K.MAX_NB] = -1
        for pl, nb in nbs.items():
            d[K.R_NB + pl * K.MAX_NB:K.R_NB + pl * K.MAX_NB + len(nb)] = nb
        big = 999
        dist = np.full((K.MAX_PLACES, K.MAX_PLACES), big, dtype=np.int64)
        for src in nbs:
            dist[src, src] = 0
            frontier = [src]
            while frontier:
                nxt = []
                for a in frontier:
                    for b in nbs[a]:
                        if dist[src, b] == big:
                            dist[src, b] = dist[src, a] + 1
                            nxt.append(b)
                frontier = nxt
        d[K.R_DIST:K.R_DIST + dist.size] = dist.ravel()
        exits = [z for z in range(rows * cols) if kinds[z] == K.Z_EXIT]
        d[K.R_EXIT_DIST:K.R_EXIT_DIST + K.MAX_PLACES] = dist[:, exits].min(axis=1)
        d.setflags(write=False)
        self._cache["engine"] = d
        return d

    def pack_campaign(self) -> np.ndarray:
        """The campaign's travel, facilities, shelter events and build order as one int64
        array (layout ``codes.CAMPAIGN_PARTS``; read-only, cached)."""
        if "campaign" in self._cache:
            return self._cache["campaign"]
        g = self.get
        d = np.zeros(K.C_SIZE, dtype=np.int64)
        p = d[K.C_PARAMS:K.C_PARAMS + len(K.CAMPAIGN_PARAMS)]
        p[K.CP_TRAVEL_FIRST] = int(g("campaign.travel_before_first"))
        p[K.CP_DAYS] = g("campaign.shelter_days")
        p[K.CP_FEEDING] = int(g("campaign.shelter.feeding"))
        known = [K.TERRAINS.index(t) for t in g("campaign.travel.known_route")]
        unknown = [K.TERRAINS.index(t) for t in g("campaign.travel.unknown_route")]
        p[K.CP_N_KNOWN], p[K.CP_N_UNKNOWN] = len(known), len(unknown)
        d[K.C_KNOWN:K.C_KNOWN + len(known)] = known
        d[K.C_UNKNOWN:K.C_UNKNOWN + len(unknown)] = unknown
        d[K.C_UNKNOWN_DICE:K.C_UNKNOWN_DICE + len(unknown)] = g("campaign.travel.unknown_dice")
        attr = {a: i for i, a in enumerate(K.ATTRIBUTES)}
        cards = []
        for ki, n in enumerate(self.names("travel")):
            for ti, t in enumerate(K.TERRAINS):
                pre = f"travel.{n}.{t}."
                at = K.C_TKINDS + (ki * len(K.TERRAINS) + ti) * K.TV_W
                d[at:at + K.TV_W] = [attr.get(g(pre + "attribute"), -1), g(pre + "fail_damage"),
                                     g(pre + "fail_stress"), g(pre + "fail_supplies"),
                                     g(pre + "fail_infection")]
            cards += [ki] * g(f"travel.{n}.count")
        d[K.C_TDECK:K.C_TDECK + len(cards)] = cards
        p[K.CP_N_TRAVEL] = len(cards)
        for n in self.names("facilities"):
            f = K.FACILITIES.index(n)
            pre = f"facilities.{n}."
            at = K.C_FAC + f * K.FA_W
            d[at:at + K.FA_EFFECTS] = [1, g(pre + "start_level"), g(pre + "build_cost"),
                                       g(pre + "upgrade_cost"), attr.get(g(pre + "check"), -1),
                                       g(pre + "advanced_dice"), int(g(pre + "fence"))]
            for e, name in enumerate(K.FACILITY_EFFECTS):
                basic, adv = g(pre + name)
                d[at + K.FA_EFFECTS + e] = basic
                d[at + K.FA_EFFECTS + K.N_FX + e] = adv
        cards = []
        for ki, n in enumerate(self.names("shelter_events")):
            pre = f"shelter_events.{n}."
            at = K.C_SKINDS + ki * K.SE_W
            d[at:at + K.SE_W] = [g(pre + "damage"), g(pre + "stress"), g(pre + "supplies"),
                                 g(pre + "infection"), int(g(pre + "fence_blocks")), int(g(pre + "ally"))]
            cards += [ki] * g(pre + "count")
        d[K.C_SDECK:K.C_SDECK + len(cards)] = cards
        p[K.CP_N_SHELTER] = len(cards)
        # building steps: every facility's basic level in the build order, then the advanced
        # ones (the fence has one level)
        skills = self.names("skills")
        for i, n in enumerate(skills):
            pre = f"skills.{n}."
            at = K.C_SKILLS + i * K.SKL_W
            req = g(pre + "requires")
            bonus = g(pre + "bonus")
            d[at:at + K.SKL_W] = [g(pre + "cost"), skills.index(req) if req else -1, g(pre + "count"),
                                  *[bonus.get(a, 0) for a in K.ATTRIBUTES]]
        p[K.CP_N_SKILLS] = len(skills)
        allies = [n for n in self.names("allies") for _ in range(g(f"allies.{n}.count"))]
        for i, n in enumerate(allies):
            pre = f"allies.{n}."
            bonus = g(pre + "bonus")
            d[K.C_ALLIES + i * K.AL_W:K.C_ALLIES + (i + 1) * K.AL_W] = [
                g(pre + "leadership"), g(pre + "heal"), g(pre + "supplies"),
                *[bonus.get(a, 0) for a in K.ATTRIBUTES]]
        p[K.CP_N_ALLIES] = len(allies)
        order = [K.FACILITIES.index(n) for n in g("campaign.shelter.build_order")]
        steps = [f * 2 for f in order] + [f * 2 + 1 for f in order if f != K.F_FENCE]
        d[K.C_BUILD:K.C_BUILD + len(steps)] = steps
        p[K.CP_N_BUILD] = len(steps)
        d.setflags(write=False)
        self._cache["campaign"] = d
        return d

    def accepted(self, roll: str, level: str) -> tuple[str, ...]:
        """Symbol colours that succeed: ``roll`` ``"check"`` (stars at a stress colour) or
        ``"attack"`` (targets at a health colour)."""
        if roll not in ("check", "attack"):
            raise ValueError(f"unknown roll {roll!r}; allowed: check, attack")
        if level not in K.LEVELS:
            raise ValueError(f"unknown colour {level!r}; allowed: {', '.join(K.LEVELS)}")
        return tuple(self.get(f"colours.{roll}.{level}"))

    def success_faces(self, roll: str, level: str) -> np.ndarray:
        """0/1 per face: does this face succeed for ``roll`` at ``level``."""
        acc = self.accepted(roll, level)
        col, names = (K.F_STAR, K.STAR_COLOURS) if roll == "check" else (K.F_TARGET, K.TARGET_COLOURS)
        return np.array([int(c >= 0 and names[c] in acc) for c in self.faces()[:, col]], dtype=np.int64)

    def stress_level(self, stress: int) -> str:
        """The stress colour of a stress value."""
        if stress >= self.get("survivor.stress_red_from"):
            return "red"
        return "yellow" if stress >= self.get("survivor.stress_yellow_from") else "green"

    def health_level(self, health: int) -> str:
        """The health colour of a health value (>= 1)."""
        if health <= self.get("survivor.health_red_at"):
            return "red"
        return "yellow" if health <= self.get("survivor.health_yellow_at") else "green"

    def action_points(self, health: int) -> int:
        """AP of a survivor at ``health`` (0 when dead)."""
        return 0 if health <= 0 else int(self.get(f"survivor.ap_{self.health_level(health)}"))

    def attribute(self, survivor: str, attribute: str, night: bool = False) -> int:
        """A survivor's attribute by day or by night."""
        if survivor not in self.survivor_names:
            raise ValueError(f"unknown survivor {survivor!r}; allowed: {', '.join(self.survivor_names)}")
        if attribute not in K.ATTRIBUTES:
            raise ValueError(f"unknown attribute {attribute!r}; allowed: {', '.join(K.ATTRIBUTES)}")
        return int(self.get(f"survivors.{survivor}.{'night' if night else 'day'}.{attribute}"))

    def enemy(self, kind: str, night: bool = False) -> dict[str, int]:
        """An enemy's profile card side: ``{stat: value}`` (``codes.ENEMY_STATS``)."""
        if kind not in K.ENEMIES:
            raise ValueError(f"unknown enemy {kind!r}; allowed: {', '.join(K.ENEMIES)}")
        side = "night" if night else "day"
        return {s: int(self.get(f"enemies.{kind}.{side}.{s}")) for s in K.ENEMY_STATS}

    def weapon_damage(self, weapon: str, strength: int) -> int:
        """A weapon's damage in the hands of a survivor of ``strength``."""
        if weapon not in self.weapon_names:
            raise ValueError(f"unknown weapon {weapon!r}; allowed: {', '.join(self.weapon_names)}")
        col = "weak"
        if strength >= self.get("combat.strength_high"):
            col = "strong"
        elif strength >= self.get("combat.strength_mid"):
            col = "mid"
        return int(self.get(f"weapons.{weapon}.damage_{col}"))

    def leave_threat_rise(self, sp_sum: int) -> int:
        """Threat units added when the last survivor leaves enemies worth ``sp_sum`` SP."""
        return sum(sp_sum >= self.get(f"threat_track.leave_band_{i}_from") for i in range(1, 5))

    def spawn_mean(self, level: str) -> float:
        """Mean number of enemies a spawn card places at a threat colour."""
        n = [self.get(f"spawn.{c}.count") for c in self.names("spawn")]
        e = [sum(self.get(f"spawn.{c}.{level}").values()) for c in self.names("spawn")]
        return sum(a * b for a, b in zip(n, e)) / sum(n)


def _level_name(level: str) -> str:
    if level not in K.LEVELS:
        raise ValueError(f"unknown colour {level!r}; allowed: {', '.join(K.LEVELS)}")
    return level


def default_ruleset_dir() -> Path:
    """The reference ruleset shipped with simlib (package ``simlib._data``, or <repo>/data)."""
    return shipped_ruleset_dir("day_night_z", "constants.toml", "Day Night Z")


_DEFAULT: DayNightZRules | None = None


def reference_ruleset() -> DayNightZRules:
    """The reference ruleset shipped with simlib (loaded once)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_tagged(default_ruleset_dir(), DayNightZRules)
    return _DEFAULT


PRESETS = ("reference", "tiles", "traps")
DEFAULT_RULESET = "reference"
_PRESET_CACHE: dict[str, DayNightZRules] = {}


def preset_path(name: str) -> Path:
    """The file of a named preset (``tiles``) shipped with simlib: the checkout's data/
    first (a development tree), then the package data."""
    local = Path(__file__).resolve().parents[3] / "data" / "day_night_z" / "presets" / f"{name}.toml"
    path = local if local.is_file() else default_ruleset_dir() / "presets" / f"{name}.toml"
    if not path.is_file():
        raise RulesetError(f"{path}: missing preset file of ruleset {name!r}")
    return path


def _preset(name: str) -> DayNightZRules:
    if name not in _PRESET_CACHE:
        _PRESET_CACHE[name] = load_tagged(preset_path(name), DayNightZRules, base=reference_ruleset())
    return _PRESET_CACHE[name]


def load_ruleset(spec=None) -> DayNightZRules:
    """The ruleset ``spec`` names, as every game resolves it
    (:func:`simlib.core.ruleset.resolve_ruleset`): ``None`` or ``"reference"``, ``"tiles"``
    (the reference with assumed tile terrain, ``presets/tiles.toml``), ``"traps"`` (the
    reference with the trap and combined cards dealt, ``presets/traps.toml``), a ruleset
    folder, a ``.toml`` tweak over the ruleset its ``base = "..."`` names (default the
    reference; tables named after the files, ``[enemies.walker.night]``, or the top-level
    tables of constants.toml, ``[survivor]``), ``"reference+tweak.toml"``, or a ruleset
    (itself)."""
    return resolve_ruleset(spec, DayNightZRules,
                           presets={"reference": reference_ruleset,
                                    "tiles": lambda: _preset("tiles"),
                                    "traps": lambda: _preset("traps")},
                           default=DEFAULT_RULESET)


load_rules = load_ruleset  # the name the study and the step model import


# ---------------------------------------------------------------------- start hours
# a study's cells are team sizes x start hours (the scenario has no characters to choose)
DEFAULT_HOURS = (8, 14, 20)   # morning, the scenario's 14:00, an hour before night falls


def parse_hours(characters) -> tuple[int, ...]:
    """Start hours from ``characters`` (the command line's ``--characters``): ``None`` /
    ``"random"`` the defaults, ``"all"`` every hour, or hours (``14``, ``"14:00"``,
    a list or a comma-separated text)."""
    if characters is None or (isinstance(characters, str) and characters.strip() == "random"):
        return DEFAULT_HOURS
    if isinstance(characters, str) and characters.strip() == "all":
        return tuple(range(24))
    items = [characters] if isinstance(characters, (str, int, np.integer)) else list(characters)
    flat = []
    for x in items:
        flat.extend(str(x).split(",") if isinstance(x, str) else [x])
    hours = []
    for x in flat:
        text = str(x).strip()
        hh, sep, mm = text.partition(":")
        try:
            h = int(hh)
            if sep and int(mm) != 0:
                raise ValueError
        except ValueError:
            raise ValueError(f"Day Night Z has no characters to choose (the team is the "
                             f"scenario's): --characters gives start hours 0-23 (e.g. 8,14,20); "
                             f"got {text!r}") from None
        if isinstance(x, bool) or not 0 <= h <= 23:
            raise ValueError(f"a start hour is 0-23; got {text!r}")
        hours.append(h)
    if not hours:
        raise ValueError("start hours: give at least one (e.g. --characters 14)")
    if len(set(hours)) != len(hours):
        raise ValueError(f"duplicate start hour in {hours}")
    return tuple(hours)
