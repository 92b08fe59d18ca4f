"""Till Dawn rulesets: the source-tagged TOML files of ``data/till_dawn`` as a validated,
immutable :class:`TillDawnRules`, packed into the kernels' int64 array.

Files and dotted keys (``<file>.<field>``, ``<file>.<entry>.<field>``):

* ``constants.toml``: ``constants.nights``, ``constants.track_length``,
  ``constants.grounds``, ... and ``constants.variants.<name>``;
* ``hunt.toml``: card groups, ``hunt.<group>.kind|value|ground|moons|event_icons|payoff|
  payoff_hunting|penalty|returns`` (``moons`` and ``event_icons`` are tables
  ``{ blood, blue, hunting }``);
* ``characters.toml``: ``characters.<name>.max_health|ground``;
* ``powers.toml`` / ``events.toml``: ``powers.<name>.kind|count``, ``events.<name>.kind|
  count|amount``.

>>> rules = load_ruleset()
>>> rules.override({"hunt.werewolf.value": 2}).get("hunt.werewolf.value")
2
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...core.ruleset import Field, FileSchema, RulesetError, TaggedRuleset, error
from . import codes as K

__all__ = ["TillDawnRules", "RulesetError", "load_ruleset", "default_ruleset_dir"]

_MOONS = Field("counts", 0, None, True, None, K.MOONS)

SCHEMAS = (
    FileSchema("constants", fields={
        "nights": Field("int", 1, 20),
        "track_length": Field("int", 1, 100),
        "min_players": Field("int", 1, K.MAX_SEATS),
        "max_players": Field("int", 1, K.MAX_SEATS),
        "favourite_bonus": Field("int", 0, 100),
        "refuse_cost": Field("int", 0, 100),
        "points_per_blood": Field("int", 1, 100),
        "blood_supply": Field("int", 1),
        "coffin_supply": Field("int", 1),
        "grounds": Field("names"),
    }, tables={"variants": {"unlimited_tokens": Field("bool"),
                            "reshuffle_when_empty": Field("bool")}}),
    FileSchema("hunt", entities={
        "kind": Field("choice", choices=K.KINDS),
        "value": Field("int", 0, 100, False, 0),
        "ground": Field("str", required=False, default=""),
        "moons": _MOONS,
        "event_icons": _MOONS,
        "payoff": Field("int", 0, 100, False, 0),
        "payoff_hunting": Field("int", 0, 100, False, 0),
        "penalty": Field("int", 0, 100, False, 0),
        "returns": Field("bool", required=False, default=False),
    }),
    FileSchema("characters", entities={
        "max_health": Field("int", 1, 100),
        "ground": Field("str"),
    }),
    FileSchema("powers", entities={
        "kind": Field("choice", choices=K.POWER_KINDS),
        "count": Field("int", 0, K.MAX_POWERS),
    }),
    FileSchema("events", entities={
        "kind": Field("choice", choices=K.EVENT_KINDS),
        "count": Field("int", 0, K.MAX_EVENTS),
        "amount": Field("int", 0, 100, False, 0),
    }),
)


class TillDawnRules(TaggedRuleset):
    """A validated Till Dawn ruleset (immutable; ``override`` returns a new one)."""

    SCHEMAS = SCHEMAS
    SOURCES = ("rulebook", "inferred", "assumed")
    GAME = "Till Dawn"
    DATA_FOLDER = "till_dawn"

    # ------------------------------------------------------------------ names
    @property
    def character_names(self) -> tuple[str, ...]:
        return self.names("characters")

    @property
    def group_names(self) -> tuple[str, ...]:
        return self.names("hunt")

    @property
    def grounds(self) -> tuple[str, ...]:
        return tuple(self.get("constants.grounds"))

    def character_id(self, name: str) -> int:
        names = self.character_names
        if name not in names:
            raise ValueError(f"unknown character {name!r}; allowed: {', '.join(names)}")
        return names.index(name)

    # ------------------------------------------------------------------ checks
    def _validate(self) -> None:
        g = self.grounds
        lo, hi = self.get("constants.min_players"), self.get("constants.max_players")
        cfile = self.file_of("constants")
        if lo > hi:
            raise error(cfile, "constants.min_players", f"{lo} is above max_players {hi}")
        if hi > len(self.character_names):
            raise error(cfile, "constants.max_players", f"{hi} players need {hi} characters; "
                        f"characters.toml has {len(self.character_names)}")
        if len(self.character_names) > K.MAX_CHARS:
            raise error(self.file_of("characters"), "characters",
                        f"at most {K.MAX_CHARS} characters (layout bound); got {len(self.character_names)}")
        for c in self.character_names:
            if self.get(f"characters.{c}.ground") not in g:
                raise error(self.file_of("characters"), f"characters.{c}.ground",
                            f"unknown ground {self.get(f'characters.{c}.ground')!r}", g)
        hfile = self.file_of("hunt")
        n_cards = n_types = 0
        invites = set()
        for grp in self.group_names:
            kind = self.get(f"hunt.{grp}.kind")
            moons = self.get(f"hunt.{grp}.moons")
            icons = self.get(f"hunt.{grp}.event_icons")
            for m in K.MOONS:
                if icons[m] > moons[m]:
                    raise error(hfile, f"hunt.{grp}.event_icons.{m}", f"{icons[m]} icons on "
                                f"{moons[m]} cards with that moon")
                n_types += (icons[m] > 0) + (moons[m] - icons[m] > 0)
            n_cards += sum(moons.values())
            ground = self.get(f"hunt.{grp}.ground")
            if kind == "feeding":
                if ground not in g:
                    raise error(hfile, f"hunt.{grp}.ground", f"a feeding card needs a ground; "
                                f"got {ground!r}", g)
            elif ground:
                raise error(hfile, f"hunt.{grp}.ground", f"only feeding cards show a ground ({kind})")
            if kind == "invitation":
                invites.add((self.get(f"hunt.{grp}.payoff"), self.get(f"hunt.{grp}.payoff_hunting"),
                             self.get(f"hunt.{grp}.penalty")))
            else:
                for f in ("payoff", "payoff_hunting", "penalty"):
                    if self.get(f"hunt.{grp}.{f}"):
                        raise error(hfile, f"hunt.{grp}.{f}", f"only invitations have a {f} ({kind})")
            if kind in ("sun_rising", "vampire_slayer", "werewolf") and self.get(f"hunt.{grp}.value") < 1:
                raise error(hfile, f"hunt.{grp}.value", "value too small: 0; must be >= 1 for "
                            f"a {kind} card")
        if n_cards == 0:
            raise error(hfile, "hunt", "the hunt deck is empty")
        if n_cards > K.MAX_HUNT:
            raise error(hfile, "hunt", f"at most {K.MAX_HUNT} hunt cards (layout bound); got {n_cards}")
        if n_types > K.MAX_TYPES:
            raise error(hfile, "hunt", f"at most {K.MAX_TYPES} distinct card types; got {n_types}")
        if len(invites) > K.MAX_INVITES:
            raise error(hfile, "hunt", f"at most {K.MAX_INVITES} distinct invitation payoff/"
                        f"penalty combinations; got {len(invites)}")
        for stem, cap in (("powers", K.MAX_POWERS), ("events", K.MAX_EVENTS)):
            total = sum(self.get(f"{stem}.{n}.count") for n in self.names(stem))
            if total > cap:
                raise error(self.file_of(stem), stem, f"at most {cap} cards (layout bound); got {total}")
        if sum(self.get(f"powers.{n}.count") for n in self.names("powers")) < hi:
            raise error(self.file_of("powers"), "powers", f"{hi} players need at least {hi} power "
                        "cards (one is dealt to each player every night)")

    # ------------------------------------------------------------------ packing
    def card_types(self) -> list[dict]:
        """The distinct hunt card types: one per (group, moon, event icon) present."""
        if "types" not in self._cache:
            grounds = self.grounds
            out = []
            for gi, grp in enumerate(self.group_names):
                kind = K.KINDS.index(self.get(f"hunt.{grp}.kind"))
                ground = self.get(f"hunt.{grp}.ground")
                moons = self.get(f"hunt.{grp}.moons")
                icons = self.get(f"hunt.{grp}.event_icons")
                for mi, m in enumerate(K.MOONS):
                    for icon, n in ((0, moons[m] - icons[m]), (1, icons[m])):
                        if n > 0:
                            out.append({"group": gi, "name": grp, "kind": kind, "moon": mi,
                                        "icon": icon, "count": n,
                                        "value": self.get(f"hunt.{grp}.value"),
                                        "ground": grounds.index(ground) if ground else -1,
                                        "payoff": self.get(f"hunt.{grp}.payoff"),
                                        "payoff_hunting": self.get(f"hunt.{grp}.payoff_hunting"),
                                        "penalty": self.get(f"hunt.{grp}.penalty"),
                                        "returns": int(self.get(f"hunt.{grp}.returns"))})
            self._cache["types"] = out
        return self._cache["types"]

    def flat(self) -> np.ndarray:
        """The ruleset as the kernels' int64 array (layout ``codes.RULES``; read-only, cached)."""
        if "flat" in self._cache:
            return self._cache["flat"]
        r = np.zeros(K.R_SIZE, dtype=np.int64)
        p = r[K.R_PARAMS:K.R_PARAMS + len(K.PARAMS)]
        c = "constants."
        p[K.P_NIGHTS] = self.get(c + "nights")
        p[K.P_TRACK] = self.get(c + "track_length")
        p[K.P_MIN_PLAYERS] = self.get(c + "min_players")
        p[K.P_MAX_PLAYERS] = self.get(c + "max_players")
        p[K.P_FAV_BONUS] = self.get(c + "favourite_bonus")
        p[K.P_REFUSE_COST] = self.get(c + "refuse_cost")
        p[K.P_POINTS_PER_BLOOD] = self.get(c + "points_per_blood")
        p[K.P_BLOOD_SUPPLY] = self.get(c + "blood_supply")
        p[K.P_COFFIN_SUPPLY] = self.get(c + "coffin_supply")
        p[K.P_UNLIMITED] = int(self.get(c + "variants.unlimited_tokens"))
        p[K.P_RESHUFFLE] = int(self.get(c + "variants.reshuffle_when_empty"))
        p[K.P_N_GROUNDS] = len(self.grounds)
        types = self.card_types()
        tt = r[K.R_TYPES:K.R_TYPES + K.MAX_TYPES * K.CT_N].reshape(K.MAX_TYPES, K.CT_N)
        deck = []
        for t, ct in enumerate(types):
            tt[t, K.CT_KIND], tt[t, K.CT_VALUE], tt[t, K.CT_GROUND] = ct["kind"], ct["value"], ct["ground"]
            tt[t, K.CT_MOON], tt[t, K.CT_ICON], tt[t, K.CT_COUNT] = ct["moon"], ct["icon"], ct["count"]
            tt[t, K.CT_PAYOFF], tt[t, K.CT_PAYOFF_HUNTING] = ct["payoff"], ct["payoff_hunting"]
            tt[t, K.CT_PENALTY], tt[t, K.CT_RETURNS], tt[t, K.CT_GROUP] = ct["penalty"], ct["returns"], ct["group"]
            deck += [t] * ct["count"]
        p[K.P_N_TYPES], p[K.P_N_HUNT] = len(types), len(deck)
        r[K.R_DECK:K.R_DECK + len(deck)] = deck
        chars = self.character_names
        p[K.P_N_CHARS] = len(chars)
        for i, n in enumerate(chars):
            r[K.R_CHAR_HEALTH + i] = self.get(f"characters.{n}.max_health")
            r[K.R_CHAR_GROUND + i] = self.grounds.index(self.get(f"characters.{n}.ground"))
        i = 0
        for n in self.names("events"):
            for _ in range(self.get(f"events.{n}.count")):
                r[K.R_EVENT_KIND + i] = K.EVENT_KINDS.index(self.get(f"events.{n}.kind"))
                r[K.R_EVENT_AMOUNT + i] = self.get(f"events.{n}.amount")
                i += 1
        p[K.P_N_EVENTS] = i
        i = 0
        for n in self.names("powers"):
            for _ in range(self.get(f"powers.{n}.count")):
                r[K.R_POWER_KIND + i] = K.POWER_KINDS.index(self.get(f"powers.{n}.kind"))
                i += 1
        p[K.P_N_POWERS] = i
        r.setflags(write=False)
        self._cache["flat"] = r
        return r

    def min_players(self) -> int:
        return int(self.get("constants.min_players"))

    def max_players(self) -> int:
        return int(self.get("constants.max_players"))


def default_ruleset_dir() -> Path:
    """The reference ruleset shipped with simlib (package ``simlib._data``, or <repo>/data)."""
    return TillDawnRules.shipped_dir()


DEFAULT_RULESET = "reference"  # what ruleset=None means everywhere


def load_ruleset(spec=None) -> TillDawnRules:
    """The Till Dawn ruleset ``spec`` names: ``None`` or ``"reference"`` (the declared
    default, the reference ruleset), a ruleset folder, a ``.toml`` tweak over the ruleset
    its ``base = "..."`` names (default: the reference; tables named after the files,
    ``[hunt.werewolf]``, or a file named like a ruleset file, e.g. ``hunt.toml`` with
    ``[werewolf]``), ``"reference+tweak.toml"``, or a :class:`TillDawnRules` (itself)."""
    return TillDawnRules.load(spec)
