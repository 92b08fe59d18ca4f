"""Reference engine of Day Night Z's **campaign phases** (``day-night-z --campaign N``): the
travel between the shelter and the city (§6), the shelter's days (§7: facility visits by
day and by night, the shelter event, the allies, the feeding check, skill purchases), the
build order and the adventure's victory points. The adventures themselves are not played
here (``tests/reference/day_night_z.py`` plays one); a differential test sets the team
between adventures and calls the phases one by one.

Written apart from the kernels, from the docs page (``docs/games/day-night-z.md``, "The
campaign (``--campaign N``)", its table and "The shelter player" paragraph, and the general
rules there), the data (``data/day_night_z/*.toml``, their comments included) and the
rulebook (§6 travel, §7 shelter). Plain, slow and obvious on purpose.

Every number is read from ``rules`` (the flat dotted-key dict of a loaded ruleset:
``rules = {k: r.get(k) for k in r.keys()}``). Every random outcome comes from
``chance.draw(kind, options)`` (``tests/reference/chance.py``).

State (plain attributes, read and set directly by the tests)
------------------------------------------------------------
- ``team``: list by seat of survivor dicts: ``name``, ``alive``, ``cause``, ``health``,
  ``stress``, ``infection``, ``sp``, ``supplies``, ``ammo``, ``ranged``, ``lit``,
  ``skills`` (names owned), ``allies`` (names following him). ``new_survivor(rules, name)``
  makes one as an adventure starts him.
- ``levels`` (facility -> 0/1/2), ``vp`` (pooled, unspent), ``skills_left`` (skill ->
  copies in the box), ``allies_left`` (the ally deck, names repeated by ``count``, data
  order), ``travel_left`` (the travel deck, likewise), counters ``spent``, ``joined``,
  ``bought``, ``sp_on_skills``.

Chance kinds
------------
- ``"check_die"``: a die of an attribute check (travel card, facility); options the face
  names of ``dice`` in data order; every die of the pool is drawn, in order.
- ``"travel_die"``: a die rolled at an icon of the unknown path; the same face names.
- ``"travel_card"``: options ``travel_left`` (refilled complete first when empty).
- ``"shelter_event"``: options the shelter event names, each repeated ``count`` times.
- ``"ally_card"``: options ``allies_left``; asked only when an ally joins someone.

Readings (where the docs, the data and the rulebook are silent; numbered to be cited)
------------------------------------------------------------------------------------
1. Attribute: the sheet's night value when the hour is night (``clock.night_start`` up to
   ``clock.day_start``, as in an adventure) and the survivor is not ``lit``, else the day
   value; plus the ``bonus`` of every skill he owns and of every ally following him.
2. A check (travel card, facility visit): a pool of attribute + modifier dice (the
   facility's ``advanced_dice`` at the advanced level), at least ``survivor.min_pool``;
   the shelter player spends **no SP** on these checks; every die is drawn (``check_die``)
   even after a success; a success is a star of a colour the checker's stress colour
   accepts (``colours.check``); a pass earns ``survivor.sp_per_passed_check`` SP (capped at
   ``survivor.sp_cap``), as every check does.
3. A travel card's check is taken by the living survivor with the highest attribute value
   of Reading 1 at the trip's hour (ties: the lowest seat), with his own stress colour.
4. A failed check (or a section whose attribute is ``"none"``) hits every living survivor,
   in seat order, each in this order: ``fail_damage`` (health, death at 0), then
   ``fail_stress`` (capped at ``survivor.stress_max``), ``fail_supplies`` (lost, down to 0
   at most), ``fail_infection`` (levels added, even to an infected survivor; death at
   ``survivor.infection_death``); a survivor killed by one effect takes no later one.
   Deaths in the travel have cause ``"travel"``.
5. The known path draws one card at each icon of ``campaign.travel.known_route``; the
   unknown path, at each icon of ``unknown_route``, first rolls all its ``unknown_dice``
   dice (``travel_die``) and then draws one card a skull (``dice.<f>.skull``), each resolved
   before the next is drawn. A trip with no living survivor draws nothing; a trip whose
   team dies on the way stops there (no further die or card). A card drawn is out of
   ``travel_left``; a draw finding it empty first refills it complete.
6. The build order's steps: every facility of ``campaign.shelter.build_order`` to its basic
   level (``build_cost``), in order, then every one of them to its advanced level
   (``upgrade_cost``), in order, except a facility with ``fence`` true (one level). The next
   step is the first not yet reached (a facility already at or above that level skips it).
   The pooled VP buy the next step while they cover its cost; when short they are saved
   (no later, cheaper step is bought instead). ``build`` 0: nothing is bought.
7. Victory points: ``scenario.vp_base`` - ``scenario.vp_per_dead`` x (alive at start -
   alive at end), never below 0, on a success; 0 on a failure.
8. A shelter day, in this order: the day visits (every living survivor in seat order), the
   night visits (likewise), the shelter event, the allies' help, the feeding check, the
   skill purchases. Day visits are checked at hour ``clock.day_start``, night visits at
   ``clock.night_start`` (a day hour and a night hour read from the clock keys). A day
   finding no living survivor is not played (nothing drawn); the event is not drawn if the
   whole team is dead (it cannot be: visits do not hurt). Deaths in the shelter have cause
   ``"shelter"``.
9. The shelter player's visit (the docs page's "The shelter player", which states the order;
   the same choice by day and by night; a facility "stands" at level 1 or more; the fence
   is never visited), the first that applies:
   a. infected (infection > 0) and the infirmary stands: the infirmary;
   b. health missing (``survivor.health_max`` - health) >= ``heal_missing``: the infirmary
      if it stands and ``infirmary_wounds`` is 1 or no rest zone stands, else the rest zone
      if it stands;
   c. stress yellow or red (>= ``survivor.stress_yellow_from``) and the rest zone stands:
      the rest zone;
   d. supplies < his sheet's ``eats`` + ``supplies_reserve``: the supply zone if it stands,
      else the warehouse if it stands;
   e. he carries a ranged weapon (``ranged``), ammo < ``supplies_reserve`` and the
      workshop stands: the workshop;
   f. the training zone if it stands; else the rest zone if it stands; else no visit.
   (First written from the docs as "the facility giving most supplies", ammo below the
   meal plus the reserve, stress > 0 and the training zone only below the SP cap; the
   docs did not say, and now state the order above.)
10. A visit: the facility's ``check`` if it has one (a failure does nothing), then its
    level's effects (index level - 1 of each pair): ``health`` healed (capped at
    ``health_max``), ``stress`` removed (down to 0), ``infection`` cured (down to 0),
    ``supplies`` and ``ammo`` gained (no cap), ``sp`` gained (capped at ``sp_cap``).
11. The shelter event: one draw a day. With the fence built (a facility with ``fence``
    true at level >= 1) an event with ``fence_blocks`` does nothing. Otherwise each living
    survivor in seat order takes ``damage``, ``stress``, ``supplies`` lost and
    ``infection`` levels, as in Reading 4; an ``ally`` event draws an ally card
    (``ally_card``) if the deck holds one and someone lives, and the ally follows the
    living survivor with the fewest allies (ties: the lowest seat); ``joined`` + 1. The ally
    deck is never refilled.
12. The allies' help, after the event (an ally who joined that day helps that day): each
    ally of a living survivor heals him ``allies.<a>.heal`` (capped) and brings him
    ``allies.<a>.supplies``; an ally's ``bonus`` counts in every attribute (Reading 1). A
    dead survivor's allies stay listed on him and do nothing.
13. Feeding (when ``campaign.shelter.feeding``): the 15:00 meal of an adventure: he eats
    min(``eats``, supplies); health - the missing ones + the eaten ones x
    ``survivor.supply_heals`` (the eaten ones count 0 under
    ``variants.eating_only_prevents_loss``), as one net change, capped at ``health_max``;
    at 0 he dies.
14. Skills (when ``skills``): each living survivor in seat order buys, one at a time, while
    some skill is open to him: a copy left in the box, not owned by him, its ``requires``
    owned, and cost <= SP - ``sp_keep``. Of those he takes the one with the highest score,
    sum over attributes of bonus x **his sheet's day value** of it (the docs page: "adds
    most to his strongest day attributes", the sheet's values, without what skills and
    allies add; first read with them), ties in skills.toml order. A purchase: SP - cost,
    the copy out of the box, ``bought`` + 1, ``sp_on_skills`` + cost.
15. The travel deck and the ally deck are decks (a card drawn is out until the travel deck
    is made complete again; the ally deck never is); the shelter events table is rolled,
    so its options are always the whole table.
16. The dead never change: every rule above skips them (no visit, no effect, no ally).
17. ``lit`` is taken as the team dict gives it: the travel and the shelter spend no
    battery unit and burn no light.
"""
from __future__ import annotations

from typing import Any, Mapping

from tests.reference.day_night_z import _names

# the shelter player's defaults as the docs page gives them ("The shelter player"); a key
# missing from ``shelter`` takes its default here
SHELTER_DEFAULTS = {"heal_missing": 2, "infirmary_wounds": 0, "supplies_reserve": 2,
                    "unknown_path": 1, "build": 1, "skills": 1, "sp_keep": 3}

# the effects a facility's level may have (facilities.toml's comment)
EFFECTS = ("health", "stress", "infection", "supplies", "ammo", "sp")


def new_survivor(rules: Mapping[str, Any], name: str) -> dict:
    """A survivor as an adventure starts him (a convenience for tests)."""
    R = rules
    w = R[f"survivors.{name}.weapon"]
    return {"name": name, "alive": True, "cause": None,
            "health": R["survivor.health_max"], "stress": 0, "infection": 0,
            "sp": min(R["survivor.sp_start"], R["survivor.sp_cap"]),
            "supplies": R["survivor.start_supplies"], "ammo": R[f"survivors.{name}.ammo"],
            "ranged": R.get(f"weapons.{w}.kind") == "ranged", "lit": False,
            "skills": [], "allies": []}


class Campaign:
    def __init__(self, rules: Mapping[str, Any], shelter: Mapping[str, int], chance):
        self.R = dict(rules)
        self.shelter = {**SHELTER_DEFAULTS, **{k: int(v) for k, v in shelter.items()}}
        self.chance = chance
        R = self.R
        self.faces = _names(R, "dice")
        self.facilities = _names(R, "facilities")
        self.skill_names = _names(R, "skills")
        self.ally_names = _names(R, "allies")
        self.travel_names = _names(R, "travel")
        self.event_names = _names(R, "shelter_events")
        self.levels = {f: int(R[f"facilities.{f}.start_level"]) for f in self.facilities}
        self.vp = 0
        self.skills_left = {k: int(R[f"skills.{k}.count"]) for k in self.skill_names}
        self.allies_left = [a for a in self.ally_names for _ in range(int(R[f"allies.{a}.count"]))]
        self.travel_left: list[str] = []
        self.new_travel_deck()
        self.spent = 0
        self.joined = 0
        self.bought = 0
        self.sp_on_skills = 0
        self.team: list[dict] = []

    # ------------------------------------------------------------------ small rules
    def _night(self, hour: int) -> bool:
        a, b = self.R["clock.night_start"], self.R["clock.day_start"]
        return hour >= a or hour < b if a > b else a <= hour < b

    def _attr(self, s: int, attr: str, hour: int | None) -> int:
        """Reading 1 (``hour`` None: the day value)."""
        sv = self.team[s]
        night = hour is not None and self._night(hour) and not sv["lit"]
        v = self.R[f"survivors.{sv['name']}.{'night' if night else 'day'}.{attr}"]
        for k in sv["skills"]:
            v += (self.R.get(f"skills.{k}.bonus") or {}).get(attr, 0)
        for a in sv["allies"]:
            v += (self.R.get(f"allies.{a}.bonus") or {}).get(attr, 0)
        return v

    def _stress_level(self, st: int) -> str:
        if st >= self.R["survivor.stress_red_from"]:
            return "red"
        return "yellow" if st >= self.R["survivor.stress_yellow_from"] else "green"

    def _living(self) -> list[int]:
        return [i for i, sv in enumerate(self.team) if sv["alive"]]

    def _gain_sp(self, s: int, n: int) -> None:
        sv = self.team[s]
        sv["sp"] = min(self.R["survivor.sp_cap"], sv["sp"] + n)

    def _roll(self, kind: str, n: int) -> list[str]:
        return [self.chance.draw(kind, list(self.faces)) for _ in range(n)]

    def _check(self, s: int, attr: str, modifier: int, hour: int) -> bool:
        """Reading 2."""
        sv = self.team[s]
        pool = max(self.R["survivor.min_pool"], self._attr(s, attr, hour) + modifier)
        ok_colours = self.R[f"colours.check.{self._stress_level(sv['stress'])}"]
        faces = self._roll("check_die", pool)
        ok = any(self.R[f"dice.{f}.star"] in ok_colours for f in faces)
        if ok:
            self._gain_sp(s, self.R["survivor.sp_per_passed_check"])
        return ok

    def _die(self, s: int, cause: str) -> None:
        sv = self.team[s]
        if sv["alive"]:
            sv["alive"] = False
            sv["cause"] = cause

    def _harm(self, s: int, damage: int, stress: int, supplies: int, infection: int,
              cause: str) -> None:
        """Reading 4's order: damage, stress, supplies lost, infection levels."""
        R = self.R
        sv = self.team[s]
        if not sv["alive"]:
            return
        if damage:
            sv["health"] = max(0, sv["health"] - damage)
            if sv["health"] <= 0:
                self._die(s, cause)
                return
        if stress:
            sv["stress"] = max(0, min(R["survivor.stress_max"], sv["stress"] + stress))
        if supplies:
            sv["supplies"] = max(0, sv["supplies"] - supplies)
        if infection:
            sv["infection"] += infection
            if sv["infection"] >= R["survivor.infection_death"]:
                self._die(s, cause)

    # ------------------------------------------------------------------ travel (§6)
    def new_travel_deck(self) -> None:
        self.travel_left = [c for c in self.travel_names
                            for _ in range(int(self.R[f"travel.{c}.count"]))]

    def _draw_travel_card(self) -> str:
        if not self.travel_left:
            self.new_travel_deck()
        card = self.chance.draw("travel_card", list(self.travel_left))
        self.travel_left.remove(card)
        return card

    def _resolve_section(self, card: str, terrain: str, hour: int) -> None:
        """Readings 3 and 4."""
        R = self.R
        pre = f"travel.{card}.{terrain}."
        attr = R.get(pre + "attribute", "none")
        living = self._living()
        if not living:
            return
        if attr != "none":
            best = max(living, key=lambda s: (self._attr(s, attr, hour), -s))
            if self._check(best, attr, 0, hour):
                return
        for s in living:
            self._harm(s, int(R.get(pre + "fail_damage", 0)), int(R.get(pre + "fail_stress", 0)),
                       int(R.get(pre + "fail_supplies", 0)), int(R.get(pre + "fail_infection", 0)),
                       "travel")

    def travel(self, hour: int) -> int:
        """One trip along the route (Reading 5); returns the deaths."""
        R = self.R
        before = len(self._living())
        if before == 0:
            return 0
        if self.shelter["unknown_path"]:
            for terrain, n in zip(R["campaign.travel.unknown_route"], R["campaign.travel.unknown_dice"]):
                if not self._living():
                    break
                faces = self._roll("travel_die", int(n))
                skulls = sum(1 for f in faces if R[f"dice.{f}.skull"])
                for _ in range(skulls):
                    if not self._living():
                        break
                    self._resolve_section(self._draw_travel_card(), terrain, hour)
        else:
            for terrain in R["campaign.travel.known_route"]:
                if not self._living():
                    break
                self._resolve_section(self._draw_travel_card(), terrain, hour)
        return before - len(self._living())

    # ------------------------------------------------------------------ building (§7)
    def _one_level(self, f: str) -> bool:
        return bool(self.R.get(f"facilities.{f}.fence", False))

    def build_steps(self) -> list[tuple[str, int]]:
        """Reading 6: the build order's steps (facility, level reached)."""
        order = list(self.R["campaign.shelter.build_order"])
        return [(f, 1) for f in order] + [(f, 2) for f in order if not self._one_level(f)]

    def next_step(self) -> tuple[str, int, int] | None:
        """The next step not yet reached: (facility, level, cost), or None."""
        for f, lvl in self.build_steps():
            if self.levels[f] < lvl:
                key = "build_cost" if lvl == 1 else "upgrade_cost"
                return f, lvl, int(self.R[f"facilities.{f}.{key}"])
        return None

    def build(self) -> int:
        if not self.shelter["build"]:
            return 0
        spent = 0
        while True:
            step = self.next_step()
            if step is None:
                break
            f, lvl, cost = step
            if self.vp < cost:
                break          # saving up
            self.vp -= cost
            spent += cost
            self.levels[f] = lvl
        self.spent += spent
        return spent

    # ------------------------------------------------------------------ victory points
    def adventure_vp(self, success: bool, alive_at_start: int, alive_at_end: int) -> int:
        """Reading 7."""
        if not success:
            return 0
        vp = max(0, int(self.R["scenario.vp_base"])
                 - int(self.R["scenario.vp_per_dead"]) * (alive_at_start - alive_at_end))
        self.vp += vp
        return vp

    # ------------------------------------------------------------------ the shelter (§7)
    def _stands(self, f: str) -> bool:
        return f in self.levels and self.levels[f] >= 1 and not self._one_level(f)

    def _amount(self, f: str, effect: str) -> int:
        v = self.R.get(f"facilities.{f}.{effect}")
        if v is None or self.levels.get(f, 0) < 1:
            return 0
        return int(v[self.levels[f] - 1])

    def choose_visit(self, s: int) -> str | None:
        """Reading 9: the shelter player's visit for survivor ``s``."""
        R, P = self.R, self.shelter
        sv = self.team[s]
        eats = int(R[f"survivors.{sv['name']}.eats"])
        if sv["infection"] > 0 and self._stands("infirmary"):
            return "infirmary"
        if R["survivor.health_max"] - sv["health"] >= P["heal_missing"]:
            if self._stands("infirmary") and (P["infirmary_wounds"] or not self._stands("rest_zone")):
                return "infirmary"
            if self._stands("rest_zone"):
                return "rest_zone"
        if sv["stress"] >= R["survivor.stress_yellow_from"] and self._stands("rest_zone"):
            return "rest_zone"
        if sv["supplies"] < eats + P["supplies_reserve"]:
            for f in ("supply_zone", "warehouse"):
                if self._stands(f):
                    return f
        if sv["ranged"] and sv["ammo"] < P["supplies_reserve"] and self._stands("workshop"):
            return "workshop"
        for f in ("training_zone", "rest_zone"):
            if self._stands(f):
                return f
        return None

    def visit(self, s: int, f: str, hour: int) -> bool:
        """Reading 10: one visit; returns whether its effects were applied."""
        R = self.R
        sv = self.team[s]
        lvl = self.levels[f]
        check = R.get(f"facilities.{f}.check")
        if check is not None and check != "none":
            extra = int(R.get(f"facilities.{f}.advanced_dice", 0)) if lvl >= 2 else 0
            if not self._check(s, check, extra, hour):
                return False
        a = {e: self._amount(f, e) for e in EFFECTS}
        sv["health"] = min(R["survivor.health_max"], sv["health"] + a["health"])
        sv["stress"] = max(0, sv["stress"] - a["stress"])
        sv["infection"] = max(0, sv["infection"] - a["infection"])
        sv["supplies"] += a["supplies"]
        sv["ammo"] += a["ammo"]
        self._gain_sp(s, a["sp"])
        return True

    def _visits(self, hour: int) -> None:
        for s in self._living():
            f = self.choose_visit(s)
            if f is not None:
                self.visit(s, f, hour)

    def _fence(self) -> bool:
        return any(self.levels[f] >= 1 for f in self.facilities if self._one_level(f))

    def _event(self) -> None:
        """Reading 11."""
        R = self.R
        opts = [e for e in self.event_names for _ in range(int(R[f"shelter_events.{e}.count"]))]
        ev = self.chance.draw("shelter_event", opts)
        pre = f"shelter_events.{ev}."
        if R.get(pre + "fence_blocks", False) and self._fence():
            return
        for s in self._living():
            self._harm(s, int(R.get(pre + "damage", 0)), int(R.get(pre + "stress", 0)),
                       int(R.get(pre + "supplies", 0)), int(R.get(pre + "infection", 0)),
                       "shelter")
        if R.get(pre + "ally", False):
            living = self._living()
            if living and self.allies_left:
                who = min(living, key=lambda s: (len(self.team[s]["allies"]), s))
                card = self.chance.draw("ally_card", list(self.allies_left))
                self.allies_left.remove(card)
                self.team[who]["allies"].append(card)
                self.joined += 1

    def _allies_help(self) -> None:
        """Reading 12."""
        R = self.R
        for s in self._living():
            sv = self.team[s]
            for a in sv["allies"]:
                sv["health"] = min(R["survivor.health_max"],
                                   sv["health"] + int(R.get(f"allies.{a}.heal", 0)))
                sv["supplies"] += int(R.get(f"allies.{a}.supplies", 0))

    def _feed(self) -> None:
        """Reading 13."""
        R = self.R
        for s in self._living():
            sv = self.team[s]
            need = int(R[f"survivors.{sv['name']}.eats"])
            eaten = min(need, sv["supplies"])
            sv["supplies"] -= eaten
            net = -(need - eaten) + (0 if R["variants.eating_only_prevents_loss"]
                                     else eaten * R["survivor.supply_heals"])
            if net > 0:
                sv["health"] = min(R["survivor.health_max"], sv["health"] + net)
            elif net < 0:
                self._harm(s, -net, 0, 0, 0, "shelter")

    def _skill_open(self, s: int, k: str) -> bool:
        sv = self.team[s]
        req = self.R.get(f"skills.{k}.requires")
        return (self.skills_left[k] > 0 and k not in sv["skills"]
                and (not req or req == "none" or req in sv["skills"])
                and int(self.R[f"skills.{k}.cost"]) <= sv["sp"] - self.shelter["sp_keep"])

    def _skill_score(self, s: int, k: str) -> int:
        bonus = self.R.get(f"skills.{k}.bonus") or {}
        day = f"survivors.{self.team[s]['name']}.day."
        return sum(b * int(self.R[day + a]) for a, b in bonus.items() if b)

    def _buy_skills(self) -> None:
        """Reading 14."""
        for s in self._living():
            sv = self.team[s]
            while True:
                open_ = [k for k in self.skill_names if self._skill_open(s, k)]
                if not open_:
                    break
                best = open_[0]
                for k in open_[1:]:
                    if self._skill_score(s, k) > self._skill_score(s, best):
                        best = k
                cost = int(self.R[f"skills.{best}.cost"])
                sv["sp"] -= cost
                sv["skills"].append(best)
                self.skills_left[best] -= 1
                self.bought += 1
                self.sp_on_skills += cost

    def shelter_day(self) -> int:
        """One day (Reading 8); returns the deaths."""
        R = self.R
        before = len(self._living())
        if before == 0:
            return 0
        self._visits(R["clock.day_start"])
        self._visits(R["clock.night_start"])
        if self._living():
            self._event()
        self._allies_help()
        if R["campaign.shelter.feeding"]:
            self._feed()
        if self.shelter["skills"]:
            self._buy_skills()
        return before - len(self._living())

    def shelter_days(self) -> int:
        deaths = 0
        for _ in range(int(self.R["campaign.shelter_days"])):
            deaths += self.shelter_day()
        return deaths
