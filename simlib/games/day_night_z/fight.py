"""Day Night Z: the kill chance of one action point, and the exact one-tile fight.

Two tools, both computed from the dice law of :mod:`~simlib.games.day_night_z.exact`
(enumerated, never sampled), every number read from the ruleset:

* :func:`kill_chance_table` (and :func:`kit_kill_chance_table`): for each weapon (and
  strength band, where the weapon's damage depends on strength), attack dice, enemy kind,
  day and night, health colour of the attacker and survival points (SP) on each roll, the
  probability that **one action point** kills the enemy from full health and the
  **expected AP to kill it** (rolling on until it dies);
* :func:`fight_optimal`: the exact Markov decision process of one survivor engaged with
  up to ``map.engaged_cap`` enemies on one tile, solved for the probability of killing
  them all before he dies, with its optimal policy; :func:`fight_table` solves it for the
  reference enemies and each survivor with his kit weapon.

The fight (spec §2, §4; rulebook §2, §3.3-3.7, §3.14, §4.12, §4.14, §5)
----------------------------------------------------------------------
A turn is the survivor's activation, then the zombies' activation (``enemies_first``
starts with the zombies, as after an ambush).

* **Activation.** ``rules.action_points(health)`` AP (health at the start of the
  activation; nothing hurts him during it). An AP buys one attack on a living engaged
  enemy with the kit weapon (while it has ammo; a slow weapon once a turn) or with the
  backup weapon (``fists``), or a defensive position (+``combat.defend_bonus`` Defense
  until the end of the turn, once a turn; ``defend=False`` leaves it out), or ends the
  activation (spare AP wait; they are of no use in the fight). Each roll may carry 0 to
  ``survivor.max_sp_per_roll`` SP, decided before that roll, within the SP he has.
  A weapon with ``attacks_per_ap`` > 1 (rapid fire) makes its further attacks of the AP
  at the same target, each a roll with its own SP decision and ammo, and may stop; they
  end when the target dies. A star on a killing roll of a ``sweep`` weapon gives a free
  attack (one roll, SP allowed) on another engaged enemy, which may chain.
* **An attack** (``exact.attack_pool``, ``exact.attack_outcome``): attribute (hand to
  hand or ranged) + SP − the enemy's defense, at least ``survivor.min_pool`` dice; a hit
  is a target of the **health** colour; the weapon's damage (melee: by strength) less
  resistance unless pierce (always, or fired by a star); damage adds up on the enemy; a
  kill earns its SP (cap ``survivor.sp_cap``); with ``variants.attacks_earn_sp`` a hit
  earns ``survivor.sp_per_passed_check``. Stress never changes the attack's colour
  (checks use stress, attacks health); it enters only through the star, when
  ``combat.star_trait_rule`` makes the star depend on it: the solver then carries stress
  in its state, else it leaves it out (the law is checked, not assumed).
* **Zombies' activation** (``exact.enemy_pool``, ``exact.enemy_attack_outcome``): every
  living engaged enemy spends each of its ``actions`` attacking him (side A of the threat
  card: the first true line for an engaged enemy is its attack); on a turn whose threat
  card is a fury card (probability ``threat.side_a.fury / threat.cards``, each turn
  independently: a fight lasts a few of the deck's 50 cards, so the draws are taken with
  replacement) each acts ``threat.side_a.fury_actions`` more times (``fury=False``: never).
  Each attack: pool attack − Defense (+ defend bonus), at least the minimum; a skull deals
  the damage, +``survivor.stress_per_damaging_attack`` stress (cap ``survivor.stress_max``)
  and infection level 1 from an infection icon if he is not infected. The enemies act by
  initiative (highest first) but nothing they do changes another's attack, so the phase's
  law is the convolution of their attacks and the order does not change the value.
* **The end.** He wins when the last enemy dies (at once, before any zombie acts); he
  loses at health 0 or infection ``survivor.infection_death``. In a fight infection only
  goes from 0 to 1 (an infected survivor ignores the icon, §3.7), so it is carried in
  the state only when level 1 kills; otherwise it cannot change the value.

The player here may do more than the engine's players (``kernels/engine_nb.py``), as a
bound should: SP on every rapid-fire roll (the engine: the first only), the sweep's free
attack on any enemy with SP, chaining on a star (the engine: the least-hurt-left enemy,
no SP, no chain). The threat deck is drawn with replacement here, without in the engine.

Out of the fight, on purpose: moving and fleeing (the value is the chance to kill them
all, not to survive), supplies and search cards, side B of the threat card (its clock,
infection cards and the red-stress condition), noise and threat (they cost nothing inside
the fight), cover, high ground and armour (off on the reference map), far enemies.

The value
---------
``horizon=None`` (default): the probability of killing every enemy before dying, with no
limit on the turns. ``horizon=T``: within ``T`` turns (``T`` activations; the zombies'
activation after the last one does not matter). Solved by backward induction over the
finite state (health, stress if it matters, infection if it matters, SP, ammo, the
living enemies' damage, and within an activation: AP left, defending, slow weapon used,
a pending rapid-fire roll or sweep). Every transition lowers (total enemy health, health,
SP, ammo) lexicographically except a turn in which nothing changes, which returns to the
same state; that self-loop is solved exactly, per state, by policy iteration on its one
unknown (Newton's method on a convex piecewise-linear map, started below the root, ends
in finitely many steps). ``exact=True`` computes in :class:`fractions.Fraction`; the
default float64 agrees to rounding (the tests compare the two; the float stop is a change
below ``1e-13``).
"""
from __future__ import annotations

import time
from itertools import product
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple, Sequence

import pandas as pd

from . import codes as K
from . import exact as X

__all__ = ["kill_chance_table", "kit_kill_chance_table", "kill_chance", "expected_ap_to_kill",
           "FightState", "FightSolution", "fight_optimal", "fight_table", "REFERENCE_SETUPS",
           "BACKUP_WEAPON"]

#: The brief's reference fights: name -> enemy kinds engaged with the survivor.
REFERENCE_SETUPS: dict[str, tuple[str, ...]] = {
    "1 walker": ("walker",), "2 walkers": ("walker", "walker"), "3 walkers": ("walker", "walker", "walker"),
    "crawler": ("crawler",), "leader": ("leader",), "bulker": ("bulker",),
}
#: The weapon always at hand (``weapons.toml``: "Bare hands, always available").
BACKUP_WEAPON = "fists"


def _rs(ruleset):
    if ruleset is None:
        from .ruleset import load_ruleset

        return load_ruleset()
    return ruleset


def _num(x, exact: bool):
    return x if exact else float(x)


# =========================================================================== one roll, one AP
def _roll_law(rs, pool: int, damage: int, resistance: int, pierce: bool, star_pierce: bool,
              health: str, stress: str, cache: dict | None = None) -> dict[tuple[bool, bool, int], Fraction]:
    """{(hit, star, damage dealt): p} of one attack roll (``exact.attack_outcome``);
    ``cache`` keeps the (hit, star) laws by (pool, health, stress)."""
    key = (pool, health, stress)
    if cache is None or key not in cache:
        law = list(X.attack_outcome(pool, health, stress, rs, exact=True).items())
        if cache is None:
            cache = {}
        cache[key] = law
    out: dict[tuple[bool, bool, int], Fraction] = {}
    for (hit, star), p in cache[key]:
        hit, star = bool(hit), bool(star)
        res = 0 if (pierce or (star and star_pierce)) else resistance
        key2 = (hit, star, max(0, damage - res) if hit else 0)
        out[key2] = out.get(key2, Fraction(0)) + p
    return out


def _ap_damage(rs, weapon: str, pool: int, damage: int, resistance: int, health: str,
               stress: str, cache: dict | None = None) -> dict[int, Fraction]:
    """Law of the damage one AP deals (``attacks_per_ap`` rolls, adding up)."""
    one: dict[int, Fraction] = {}
    for (_, _, d), p in _roll_law(rs, pool, damage, resistance, rs.get(f"weapons.{weapon}.pierce"),
                                  rs.get(f"weapons.{weapon}.star_trait") == "pierce", health, stress, cache).items():
        one[d] = one.get(d, Fraction(0)) + p
    total = {0: Fraction(1)}
    for _ in range(rs.get(f"weapons.{weapon}.attacks_per_ap")):
        new: dict[int, Fraction] = {}
        for a, p in total.items():
            for b, q in one.items():
                new[a + b] = new.get(a + b, Fraction(0)) + p * q
        total = new
    return total


def kill_chance(ap_law: dict[int, Fraction], need: int) -> Fraction:
    """P(one AP of damage law ``ap_law`` deals at least ``need``)."""
    return sum((p for d, p in ap_law.items() if d >= need), Fraction(0))


def expected_ap_to_kill(ap_law: dict[int, Fraction], need: int):
    """Expected AP until the damage adds up to ``need`` (each AP an independent draw of
    ``ap_law``); ``None`` when no AP can deal damage."""
    p0 = ap_law.get(0, Fraction(0))
    if p0 == 1:
        return None
    e = [Fraction(0)] * (need + 1)
    for r in range(1, need + 1):
        e[r] = (1 + sum((p * e[max(0, r - d)] for d, p in ap_law.items() if d > 0), Fraction(0))) / (1 - p0)
    return e[need]


def _bands(rs, weapon: str) -> list[tuple[str, int]]:
    """Strength bands of a weapon: (label, a strength in the band), consecutive bands with
    the same damage merged; one band ``any`` when strength does not change the damage."""
    mid, high = rs.get("combat.strength_mid"), rs.get("combat.strength_high")
    raw = []  # (lo, hi or None, representative strength)
    if mid > 0:
        raw.append((0, mid - 1, mid - 1))
    if high > mid:
        raw.append((mid, high - 1, mid))
    raw.append((high, None, high))
    merged: list[list] = []
    for lo, hi, s in raw:
        d = rs.weapon_damage(weapon, s)
        if merged and merged[-1][3] == d:
            merged[-1][1] = hi
        else:
            merged.append([lo, hi, s, d])
    if len(merged) == 1:
        return [("any", merged[0][2])]
    out = []
    for lo, hi, s, _ in merged:
        label = f"strength <= {hi}" if lo == 0 else (f"strength >= {lo}" if hi is None else
                                                    (f"strength {lo}" if lo == hi else f"strength {lo}-{hi}"))
        out.append((label, s))
    return out


def _sides(rs) -> list[tuple[str, str]]:
    return [(side, e) for side in ("day", "night") for e in K.ENEMIES
            if not (side == "day" and rs.get(f"enemies.{e}.night_only"))]


def _kill_row(rs, weapon: str, dice: int, strength: int, enemy: str, night: bool, health: str, sp: int,
              exact: bool, cache: dict) -> dict[str, Any]:
    e = rs.enemy(enemy, night)
    pool = X.attack_pool(dice, e["defense"], sp, ruleset=rs)
    dmg = rs.weapon_damage(weapon, strength)
    law = _ap_damage(rs, weapon, pool, dmg, e["resistance"], health, "green", cache)
    p_hit = sum((p for (h, _), p in cache[(pool, health, "green")] if h), Fraction(0))
    eap = expected_ap_to_kill(law, e["health"])
    per_hit = 0 if not dmg else (dmg if rs.get(f"weapons.{weapon}.pierce") else max(0, dmg - e["resistance"]))
    return {"pool": pool, "damage": per_hit, "enemy_health": e["health"],
            "p_hit": _num(p_hit, exact), "p_kill_1ap": _num(kill_chance(law, e["health"]), exact),
            "expected_ap": (float("inf") if not exact else None) if eap is None else _num(eap, exact)}


def kill_chance_table(ruleset=None, exact: bool = False, dice: Sequence[int] | None = None) -> pd.DataFrame:
    """The chance that ONE AP kills an enemy from full health, and the expected AP to kill it.

    Rows (a long table): ``weapon``, ``band`` (strength band; ``any`` where strength does
    not change the damage), ``dice`` (the attack attribute, hand to hand for melee and
    ranged for ranged weapons, before SP; default: every value from the lowest to the
    highest the ruleset's survivors have, day or night), ``enemy``, ``time`` (day/night;
    night-only enemies have no day rows), ``health`` (the attacker's health colour: the
    target colours that hit) and ``sp`` (survival points on each roll, 0 to
    ``survivor.max_sp_per_roll``).  Columns: ``pool`` (dice rolled), ``damage`` (a hit's
    damage after resistance, without a star), ``enemy_health``, ``p_hit`` (one roll),
    ``p_kill_1ap`` (one AP: ``attacks_per_ap`` rolls adding up; a slow weapon's AP is its
    once-a-turn attack), ``expected_ap`` (AP until it dies, attacking on; inf when no hit
    can hurt it, ``None`` with ``exact``).  Stress does not enter: a star fires the weapon's
    trait whatever the stress under the reference ``combat.star_trait_rule``; under
    ``stress_star`` this table takes green stress.  ``exact=True``: Fractions.
    """
    rs = _rs(ruleset)
    rows, cache = [], {}
    sps = range(rs.get("survivor.max_sp_per_roll") + 1)
    for w in rs.weapon_names:
        attr = "hth" if rs.get(f"weapons.{w}.kind") == "melee" else "ranged"
        if dice is None:
            vals = [rs.attribute(s, attr, n) for s in rs.survivor_names for n in (False, True)]
            ds = range(min(vals), max(vals) + 1)
        else:
            ds = dice
        for band, strength in _bands(rs, w):
            for d in ds:
                for side, enemy in _sides(rs):
                    for health in K.LEVELS:
                        for sp in sps:
                            r = _kill_row(rs, w, d, strength, enemy, side == "night", health, sp, exact, cache)
                            rows.append({"weapon": w, "band": band, "dice": d, "enemy": enemy, "time": side,
                                         "health": health, "sp": sp, **r})
    return pd.DataFrame(rows).set_index(["weapon", "band", "dice", "enemy", "time", "health", "sp"])


def kit_kill_chance_table(ruleset=None, exact: bool = False) -> pd.DataFrame:
    """:func:`kill_chance_table`'s columns for each survivor with his kit weapon, his own
    attack dice and strength, by day and night (rows: ``survivor``, ``weapon``, ``enemy``,
    ``time``, ``health``, ``sp``)."""
    rs = _rs(ruleset)
    rows, cache = [], {}
    for s in rs.survivor_names:
        w = rs.get(f"survivors.{s}.weapon")
        attr = "hth" if rs.get(f"weapons.{w}.kind") == "melee" else "ranged"
        for side, enemy in _sides(rs):
            night = side == "night"
            for health in K.LEVELS:
                for sp in range(rs.get("survivor.max_sp_per_roll") + 1):
                    r = _kill_row(rs, w, rs.attribute(s, attr, night), rs.attribute(s, "strength", night),
                                  enemy, night, health, sp, exact, cache)
                    rows.append({"survivor": s, "weapon": w, "enemy": enemy, "time": side, "health": health,
                                 "sp": sp, **r})
    return pd.DataFrame(rows).set_index(["survivor", "weapon", "enemy", "time", "health", "sp"])


# =========================================================================== the fight
class FightState(NamedTuple):
    """A decision point of the fight (what a player of the policy must know).

    ``enemies``: the living engaged enemies as a sorted tuple of ``(kind, damage taken)``;
    ``ap``: AP left in this activation; ``defending``: a defensive position taken this
    turn; ``slow_used``: a slow weapon fired this turn; ``pending``: ``()``, or
    ``("rapid", weapon, (kind, damage taken), rolls left)`` (the next rapid-fire roll of
    the AP, at that target; may be skipped), or ``("sweep", weapon)`` (a free attack after
    a kill with a star; may be skipped); ``turns_left``: ``None`` without a horizon.
    """
    health: int
    stress: int
    infection: int
    sp: int
    ammo: int
    enemies: tuple
    ap: int
    defending: bool = False
    slow_used: bool = False
    pending: tuple = ()
    turns_left: int | None = None


@dataclass(frozen=True)
class _Weapon:
    name: str
    dice: int
    damage: int
    ammo: int
    per_ap: int
    slow: bool
    pierce: bool
    star_pierce: bool
    sweep: bool


class _Solver:
    """Backward induction over the fight's states (see the module docstring)."""

    def __init__(self, rs, survivor, weapon, kinds, night, horizon, fury, defend, exact, backup,
                 stress0, infection0):
        g = rs.get
        self.rs, self.night, self.horizon, self.defend, self.exact = rs, night, horizon, defend, exact
        self.one, self.zero = (Fraction(1), Fraction(0)) if exact else (1.0, 0.0)
        self.weapons = []
        for w in [weapon] + ([backup] if backup and backup != weapon and backup in rs.weapon_names else []):
            attr = "hth" if g(f"weapons.{w}.kind") == "melee" else "ranged"
            self.weapons.append(_Weapon(
                w, rs.attribute(survivor, attr, night), rs.weapon_damage(w, rs.attribute(survivor, "strength", night)),
                g(f"weapons.{w}.ammo"), g(f"weapons.{w}.attacks_per_ap"), g(f"weapons.{w}.slow"),
                g(f"weapons.{w}.pierce"), g(f"weapons.{w}.star_trait") == "pierce",
                g(f"weapons.{w}.star_trait") == "sweep"))
        self.wmap = {w.name: w for w in self.weapons}
        self.prof = {k: rs.enemy(k, night) for k in set(kinds)}
        self.defense = rs.attribute(survivor, "defense", night)
        self.max_sp = g("survivor.max_sp_per_roll")
        self.sp_cap = g("survivor.sp_cap")
        self.stress_max = g("survivor.stress_max")
        self.inf_death = g("survivor.infection_death")
        self.earn = g("survivor.sp_per_passed_check") if g("variants.attacks_earn_sp") else 0
        self.p_fury = Fraction(g("threat.side_a.fury"), g("threat.cards")) if fury else Fraction(0)
        self.fury_actions = g("threat.side_a.fury_actions")
        self.stress0, self.infection0 = stress0, infection0
        # Stress matters only if a star trait's star depends on the stress colour.
        self.track_stress = any(
            (w.star_pierce or w.sweep) and len({tuple(sorted(X.attack_outcome(n, h, s, rs, exact=True).items()))
                                                 for s in K.LEVELS}) > 1
            for w in self.weapons for n in range(1, w.dice + self.max_sp + 2) for h in K.LEVELS)
        # Infection only goes 0 -> 1 in a fight: it matters only if level 1 kills.
        self.track_inf = infection0 == 0 and self.inf_death <= 1
        self._roll_cache: dict = {}
        self._enemy_cache: dict = {}
        self.V: dict = {}
        self.U: dict = {}
        self._local: dict = {}
        self._cur = None
        self.policy_iterations = 0

    # ------------------------------------------------------------------ laws
    def roll(self, w: _Weapon, kind: str, health: int, stress: int, sp: int):
        hcol = self.rs.health_level(health)
        scol = self.rs.stress_level(stress) if self.track_stress else self.rs.stress_level(self.stress0)
        key = (w.name, kind, hcol, scol, sp)
        if key not in self._roll_cache:
            e = self.prof[kind]
            pool = X.attack_pool(w.dice, e["defense"], sp, ruleset=self.rs)
            law = _roll_law(self.rs, pool, w.damage, e["resistance"], w.pierce, w.star_pierce, hcol, scol)
            self._roll_cache[key] = [(h, s, d, _num(p, self.exact)) for (h, s, d), p in sorted(law.items())]
        return self._roll_cache[key]

    def enemy_phase(self, kinds: tuple, defending: bool, infected: bool):
        """[((damage, stress gained, infection gained), p)] of the zombies' activation."""
        key = (kinds, defending, infected)
        if key not in self._enemy_cache:
            rs = self.rs
            mix = [(0, 1 - self.p_fury)] + ([(self.fury_actions, self.p_fury)] if self.p_fury else [])
            out: dict[tuple, Fraction] = {}
            per = {}
            for k in set(kinds):
                e = self.prof[k]
                pool = X.enemy_pool(e["attack"], self.defense, defending=defending, ruleset=rs)
                s = X.enemy_attack_outcome(pool, infected, e["damage"], rs, exact=True)
                one: dict[tuple, Fraction] = {}
                for (hit, stress, inf, _noise), p in s.items():
                    k2 = (e["damage"] if hit else 0, int(stress), int(inf))
                    one[k2] = one.get(k2, Fraction(0)) + p
                per[k] = one
            for extra, pm in mix:
                dist = {(0, 0, 0): Fraction(1)}
                for k in kinds:
                    for _ in range(self.prof[k]["actions"] + extra):
                        new: dict[tuple, Fraction] = {}
                        for (d, st, i), p in dist.items():
                            for (d2, st2, i2), q in per[k].items():
                                key2 = (d + d2, st + st2, min(1, i + i2))
                                new[key2] = new.get(key2, Fraction(0)) + p * q
                        dist = new
                for k2, p in dist.items():
                    out[k2] = out.get(k2, Fraction(0)) + pm * p
            self._enemy_cache[key] = [(k2, _num(p, self.exact)) for k2, p in sorted(out.items()) if p]
        return self._enemy_cache[key]

    # ------------------------------------------------------------------ values
    def after_enemies(self, layer, t, sp, ammo, E, defending):
        """(a, b): the value after the zombies' activation, a + b * x where x is the value
        of the state being solved (b > 0 only for its own no-change turn)."""
        h, st, inf = layer
        infected = (inf if self.track_inf else self.infection0) > 0
        a = b = self.zero
        nt = None if t is None else t - 1
        if nt == 0:
            return a, b
        for (d, sg, ig), p in self.enemy_phase(tuple(k for k, _ in E), defending, infected):
            h2 = h - d
            if h2 <= 0:
                continue
            inf2 = inf + ig if self.track_inf else inf
            if self.track_inf and inf2 >= self.inf_death:
                continue
            st2 = min(self.stress_max, st + sg) if self.track_stress else st
            key = ((h2, st2, inf2), sp, ammo, E, nt)
            if t is None and key[0] == layer and self._cur == (sp, ammo, E):
                b += p
            else:
                v = self.V.get(key)
                if v is None:
                    raise RuntimeError(f"fight state {key} needed before it is solved: this ruleset lets a turn "
                                       "gain SP without progress (variants.attacks_earn_sp with zero-damage "
                                       "hits?); use a horizon")
                a += p * v
        return a, b

    def node(self, layer, t, sp, ammo, E, ap, dfd, slow, pend, x):
        """(a, b, action) of a decision point in the activation."""
        if not E:
            return self.one, self.zero, None
        cur = t is None and self._cur == (sp, ammo, E)
        key = (layer, t, sp, ammo, E, ap, dfd, slow, pend)
        memo = self._local if cur else self.U
        got = memo.get(key)
        if got is not None:
            return got
        best = None

        def consider(action, ab):
            nonlocal best
            val = ab[0] + ab[1] * x
            if best is None or val > best[0]:
                best = (val, ab[0], ab[1], action)

        sps = range(min(self.max_sp, sp) + 1)
        if pend:
            w = self.wmap[pend[1]]
            if pend[0] == "rapid":
                target, left = pend[2], pend[3]
                if ammo >= w.ammo:
                    for s in sps:
                        consider(("attack", w.name, target, s),
                                 self.attack(layer, t, sp, ammo, E, ap, dfd, slow, w, target, s, left - 1, x))
            else:  # sweep: a free attack on any living engaged enemy
                for target in sorted(set(E)):
                    for s in sps:
                        consider(("attack", w.name, target, s),
                                 self.attack(layer, t, sp, ammo, E, ap, dfd, slow, w, target, s, 0, x))
            consider(("skip",), self.node(layer, t, sp, ammo, E, ap, dfd, slow, (), x)[:2])
        elif ap == 0:
            consider(("end",), self.after_enemies(layer, t, sp, ammo, E, dfd))
        else:
            for w in self.weapons:
                if ammo < w.ammo or (w.slow and slow):
                    continue
                for target in sorted(set(E)):
                    for s in sps:
                        consider(("attack", w.name, target, s),
                                 self.attack(layer, t, sp, ammo, E, ap - 1, dfd, slow or w.slow, w, target, s,
                                             w.per_ap - 1, x))
            if self.defend and not dfd:
                consider(("defend",), self.node(layer, t, sp, ammo, E, ap - 1, True, slow, (), x)[:2])
            consider(("end",), self.after_enemies(layer, t, sp, ammo, E, dfd))
        out = (best[1], best[2], best[3])
        memo[key] = out
        return out

    def attack(self, layer, t, sp, ammo, E, ap, dfd, slow, w, target, s, left, x):
        """(a, b) of one attack roll at ``target`` with ``s`` SP, ``left`` rapid rolls after it."""
        kind, taken = target
        health = self.prof[kind]["health"]
        rest = list(E)
        rest.remove(target)
        a = b = self.zero
        for hit, star, d, p in self.roll(w, kind, layer[0], layer[1], s):
            sp2 = sp - s
            if hit and self.earn:
                sp2 = min(self.sp_cap, sp2 + self.earn)
            if taken + d >= health:
                E2 = tuple(rest)
                sp2 = min(self.sp_cap, sp2 + self.prof[kind]["sp"])
                pend = ("sweep", w.name) if (star and w.sweep and E2) else ()
            else:
                new = (kind, taken + d)
                E2 = tuple(sorted(rest + [new]))
                pend = ("rapid", w.name, new, left) if left > 0 else ()
            va, vb, _ = self.node(layer, t, sp2, ammo - w.ammo, E2, ap, dfd, slow, pend, x)
            a += p * va
            b += p * vb
        return a, b

    def solve_state(self, layer, sp, ammo, E, t):
        """V of a turn-start state (all states it can reach being solved)."""
        ap = self.rs.action_points(layer[0])
        if t is not None:
            self._cur = None
            a, _, _ = self.node(layer, t, sp, ammo, E, ap, False, False, (), self.zero)
            self.V[(layer, sp, ammo, E, t)] = a
            return
        self._cur = (sp, ammo, E)
        x = self.zero
        for _ in range(1000):
            self._local = {}
            self.policy_iterations += 1
            a, b, _ = self.node(layer, t, sp, ammo, E, ap, False, False, (), x)
            xn = a / (1 - b) if b != 1 else self.zero
            done = xn == x if self.exact else xn <= x + 1e-13
            x = xn if (self.exact or xn > x) else x
            if done:
                break
        else:  # pragma: no cover - Newton ends in finitely many steps
            raise RuntimeError("policy iteration did not settle")
        for key, (va, vb, act) in self._local.items():
            self.U[key] = (va + vb * x, self.zero, act)
        self._local = {}
        self._cur = None
        self.V[(layer, sp, ammo, E, t)] = x

    def solve(self, h0, st0, inf0, sp0, ammo0, E0):
        # every configuration of the living enemies at or below the start (each one dead
        # or at least as hurt as it starts)
        options = [[None] + [(kind, d) for d in range(taken, self.prof[kind]["health"])] for kind, taken in E0]
        configs = {tuple(sorted(e for e in combo if e is not None)) for combo in product(*options)}
        # SP: at most the start plus the SP of the enemies already killed (or the cap,
        # when hits earn SP)
        all_sp = sum(self.prof[k]["sp"] for k, _ in E0)

        def top_sp(c):
            if self.earn:
                return self.sp_cap
            return max(sp0, min(self.sp_cap, sp0 + all_sp - sum(self.prof[k]["sp"] for k, _ in c)))

        remaining = {c: sum(self.prof[k]["health"] - d for k, d in c) for c in configs}
        stresses = range(st0, self.stress_max + 1) if self.track_stress else [st0]
        infs = [0, 1] if self.track_inf else [inf0]
        layers = sorted(((h, st, i) for h in range(1, h0 + 1) for st in stresses for i in infs),
                        key=lambda L: (L[0], -L[1], -L[2]))
        order = sorted(((c, s, a) for c in configs if c for s in range(top_sp(c) + 1) for a in range(ammo0 + 1)),
                       key=lambda k: (remaining[k[0]], k[1], k[2]))
        turns = [None] if self.horizon is None else range(1, self.horizon + 1)
        for t in turns:
            for layer in layers:
                for c, s, a in order:
                    self.solve_state(layer, s, a, c, t)
        self.n_states = len(self.V)


@dataclass
class FightSolution:
    """The solved fight: ``value`` of the start, ``action(state)`` the optimal policy at
    any :class:`FightState`, ``state_value(state)``; ``n_states`` turn-start states
    solved, ``n_decisions`` decision points, ``seconds`` the solve time."""
    value: Any
    start: FightState
    survivor: str
    weapon: str
    enemies: tuple
    night: bool
    horizon: int | None
    enemies_first: bool
    n_states: int
    n_decisions: int
    seconds: float
    tracks_stress: bool
    tracks_infection: bool
    _solver: _Solver = field(repr=False)

    def _key(self, s: FightState):
        sv = self._solver
        layer = (s.health, s.stress if sv.track_stress else sv.stress0,
                 s.infection if sv.track_inf else sv.infection0)
        return layer, s.turns_left, s.sp, s.ammo, tuple(sorted(s.enemies)), s.ap, bool(s.defending), \
            bool(s.slow_used), tuple(s.pending)

    def action(self, state: FightState):
        """The optimal action: ``("attack", weapon, (kind, damage taken), sp)``,
        ``("defend",)``, ``("end",)`` (end the activation) or ``("skip",)`` (pass a pending
        rapid-fire roll or sweep); ``None`` when no enemy is left."""
        layer, t, sp, ammo, E, ap, dfd, slow, pend = self._key(state)
        return self._solver.node(layer, t, sp, ammo, E, ap, dfd, slow, pend, self._solver.zero)[2]

    def state_value(self, state: FightState):
        """P(win) from a decision point, playing optimally."""
        layer, t, sp, ammo, E, ap, dfd, slow, pend = self._key(state)
        return self._solver.node(layer, t, sp, ammo, E, ap, dfd, slow, pend, self._solver.zero)[0]


def fight_optimal(survivor: str, enemies: Sequence[str], *, night: bool = False, weapon: str | None = None,
                  health: int | None = None, stress: int = 0, infection: int = 0, sp: int | None = None,
                  ammo: int | None = None, damage_taken: Sequence[int] | None = None,
                  horizon: int | None = None, fury: bool = True, defend: bool = True,
                  enemies_first: bool = False, backup: str | None = BACKUP_WEAPON, ruleset=None,
                  exact: bool = False) -> FightSolution:
    """Solve one survivor's fight against ``enemies`` (kinds, at most ``map.engaged_cap``)
    engaged with him on one tile; see the module docstring for the rules and the value.

    Defaults come from the ruleset: ``weapon`` his kit weapon, ``health``
    ``survivor.health_max``, ``sp`` ``survivor.sp_start``, ``ammo`` his kit ammo (the pool
    every ammo-using weapon draws on), enemies undamaged.  ``backup``: the weapon always
    at hand (``None``: none).  ``horizon``: ``None`` (until one side is dead) or a number
    of turns.  ``exact=True``: Fractions.
    """
    rs = _rs(ruleset)
    g = rs.get
    if survivor not in rs.survivor_names:
        raise ValueError(f"unknown survivor {survivor!r}; allowed: {', '.join(rs.survivor_names)}")
    kinds = tuple(enemies)
    if not 1 <= len(kinds) <= g("map.engaged_cap"):
        raise ValueError(f"a survivor is engaged with 1 to {g('map.engaged_cap')} enemies (map.engaged_cap); "
                         f"got {len(kinds)}")
    for k in kinds:
        if k not in K.ENEMIES:
            raise ValueError(f"unknown enemy {k!r}; allowed: {', '.join(K.ENEMIES)}")
    weapon = g(f"survivors.{survivor}.weapon") if weapon is None else weapon
    if weapon not in rs.weapon_names:
        raise ValueError(f"unknown weapon {weapon!r}; allowed: {', '.join(rs.weapon_names)}")
    health = g("survivor.health_max") if health is None else health
    sp = g("survivor.sp_start") if sp is None else sp
    ammo = g(f"survivors.{survivor}.ammo") if ammo is None else ammo
    taken = [0] * len(kinds) if damage_taken is None else list(damage_taken)
    if len(taken) != len(kinds):
        raise ValueError("damage_taken: one value an enemy")
    if not 1 <= health <= g("survivor.health_max"):
        raise ValueError(f"health must be 1-{g('survivor.health_max')}; got {health}")
    if not 0 <= stress <= g("survivor.stress_max"):
        raise ValueError(f"stress must be 0-{g('survivor.stress_max')}; got {stress}")
    if not 0 <= infection < g("survivor.infection_death"):
        raise ValueError(f"infection must be 0-{g('survivor.infection_death') - 1}; got {infection}")
    if not 0 <= sp <= g("survivor.sp_cap"):
        raise ValueError(f"sp must be 0-{g('survivor.sp_cap')}; got {sp}")
    if ammo < 0 or (horizon is not None and horizon < 1):
        raise ValueError("ammo must be >= 0 and horizon None or >= 1")
    t0 = time.perf_counter()
    solver = _Solver(rs, survivor, weapon, kinds, night, horizon, fury, defend, exact, backup, stress, infection)
    for k, d in zip(kinds, taken):
        if not 0 <= d < solver.prof[k]["health"]:
            raise ValueError(f"damage_taken of a {k} must be 0-{solver.prof[k]['health'] - 1}; got {d}")
    E0 = tuple(sorted(zip(kinds, taken)))
    solver.solve(health, stress, infection, sp, ammo, E0)
    start = FightState(health, stress, infection, sp, ammo, E0, rs.action_points(health), turns_left=horizon)
    sol = FightSolution(None, start, survivor, weapon, kinds, night, horizon, enemies_first, solver.n_states, 0,
                        0.0, solver.track_stress, solver.track_inf, solver)
    if enemies_first:
        layer = (health, stress, infection)
        a, _ = solver.after_enemies(layer, None if horizon is None else horizon + 1, sp, ammo, E0, False)
        sol.value = a
    else:
        sol.value = sol.state_value(start)
    sol.n_decisions = len(solver.U)
    sol.seconds = time.perf_counter() - t0
    return sol


def fight_table(ruleset=None, setups: dict[str, Sequence[str]] | None = None,
                survivors: Sequence[str] | None = None, horizon: int | None = None, fury: bool = True,
                exact: bool = False) -> pd.DataFrame:
    """P(a survivor with his kit weapon, full health and his starting SP and ammo kills
    every enemy of a setup before he dies, playing optimally) by survivor (rows) and
    day/night and setup (columns; default :data:`REFERENCE_SETUPS`)."""
    rs = _rs(ruleset)
    setups = REFERENCE_SETUPS if setups is None else setups
    survivors = list(rs.survivor_names if survivors is None else survivors)
    cols = [(side, name) for side in ("day", "night") for name in setups]
    data: dict = {c: [] for c in cols}
    for s in survivors:
        for side, name in cols:
            sol = fight_optimal(s, setups[name], night=side == "night", horizon=horizon, fury=fury, ruleset=rs,
                                exact=exact)
            data[(side, name)].append(sol.value)
    idx = pd.Index([f"{s} ({rs.get(f'survivors.{s}.weapon')})" for s in survivors], name="survivor (weapon)")
    return pd.DataFrame(data, index=idx, columns=pd.MultiIndex.from_tuples(cols, names=["time", "setup"]))
