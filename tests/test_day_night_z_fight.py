"""Day Night Z's kill chance per AP and exact one-tile fight (``day_night_z.fight``).

Oracles written apart from the code they check:

* the kill chance and the expected AP to kill against a brute force that enumerates every
  roll (``itertools.product`` over the faces of ``dice.toml``) with the attack rules
  written out again here, the expected AP as the series sum over P(alive after n AP)
  (the module solves a recursion instead);
* the fight against hand-computable cases (one AP against a one-health Walker: P(hit));
* the fight's optimal policy against a Monte Carlo simulation of that policy with the
  rules written out again here (numpy's Generator, fixed seeds), within 4 binomial
  standard deviations;
* order properties: more health, more SP, a longer horizon never lower the value, more
  enemies never raise it, every value is a probability.
"""
from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from simlib.games.day_night_z import exact as X
from simlib.games.day_night_z import fight as F
from simlib.games.day_night_z.ruleset import load_ruleset

RS = load_ruleset()


# =========================================================================== brute force
def die(rs=RS):
    """The die as this test reads dice.toml: one dict a face."""
    return [{"star": rs.get(f"dice.{f}.star"), "target": rs.get(f"dice.{f}.target"),
             "skull": rs.get(f"dice.{f}.skull"), "infection": rs.get(f"dice.{f}.infection"),
             "noise": rs.get(f"dice.{f}.noise")} for f in rs.face_names]


_ROLLS: dict = {}


def bf_roll(pool, health, rs=RS):
    """{(hit, star): p} of one attack of ``pool`` dice, every roll enumerated."""
    key = (pool, health)
    if key not in _ROLLS:
        ok = rs.get(f"colours.attack.{health}")
        faces = die(rs)
        out: dict = {}
        for roll in product(faces, repeat=pool):
            k = (any(f["target"] in ok for f in roll), any(f["star"] != "none" for f in roll))
            out[k] = out.get(k, Fraction(0)) + Fraction(1, len(faces) ** pool)
        _ROLLS[key] = out
    return _ROLLS[key]


def melee_damage(weapon, strength, rs=RS):
    col = "weak"
    if strength >= rs.get("combat.strength_high"):
        col = "strong"
    elif strength >= rs.get("combat.strength_mid"):
        col = "mid"
    return rs.get(f"weapons.{weapon}.damage_{col}")


def band_strength(label):
    """A strength in the band the table's label names."""
    if label == "any":
        return 0
    rest = label.removeprefix("strength").strip()
    for prefix in ("<=", ">="):
        if rest.startswith(prefix):
            return int(rest[len(prefix):])
    return int(rest.split("-")[0])


def bf_ap_damage(weapon, dice, strength, enemy, night, health, sp, rs=RS):
    """{damage: p} of one AP, the rules written out here."""
    side = "night" if night else "day"
    e = lambda s: rs.get(f"enemies.{enemy}.{side}.{s}")  # noqa: E731
    pool = max(rs.get("survivor.min_pool"), dice + sp - e("defense"))
    dmg = melee_damage(weapon, strength, rs)
    assert rs.get("combat.star_trait_rule") == "any_star"  # this oracle's star: any star
    one: dict = {}
    for (hit, star), p in bf_roll(pool, health, rs).items():
        pierce = rs.get(f"weapons.{weapon}.pierce") or (star and rs.get(f"weapons.{weapon}.star_trait") == "pierce")
        d = max(0, dmg - (0 if pierce else e("resistance"))) if hit else 0
        one[d] = one.get(d, Fraction(0)) + p
    total = {0: Fraction(1)}
    for _ in range(rs.get(f"weapons.{weapon}.attacks_per_ap")):
        total2: dict = {}
        for (a, p), (b, q) in product(total.items(), one.items()):
            total2[a + b] = total2.get(a + b, Fraction(0)) + p * q
        total = total2
    return total, pool, e("health")


def series_expected_ap(law, need):
    """E[AP to kill] = sum over n >= 0 of P(still alive after n AP), in floats, until the
    tail is negligible; inf when no AP can hurt."""
    if law.get(0, 0) == 1:
        return math.inf
    alive = {0: 1.0}  # damage so far, below need
    total, n = 0.0, 0
    while alive and n < 100000:
        mass = sum(alive.values())
        total += mass
        if mass < 1e-16:
            break
        new: dict = {}
        for a, p in alive.items():
            for d, q in law.items():
                if a + d < need:
                    new[a + d] = new.get(a + d, 0.0) + p * float(q)
        alive, n = new, n + 1
    return total


# =========================================================================== kill chance
@pytest.fixture(scope="module")
def kill_exact():
    return F.kill_chance_table(exact=True)


def test_kill_chance_matches_brute_force(kill_exact):
    assert len(kill_exact) > 0
    for (w, band, dice, enemy, time_, health, sp), row in kill_exact.iterrows():
        law, pool, hp = bf_ap_damage(w, dice, band_strength(band), enemy, time_ == "night", health, sp)
        assert row["pool"] == pool and row["enemy_health"] == hp
        want = sum((p for d, p in law.items() if d >= hp), Fraction(0))
        assert row["p_kill_1ap"] == want, (w, band, dice, enemy, time_, health, sp)
        assert row["p_hit"] == sum((p for (h, _), p in bf_roll(pool, health).items() if h), Fraction(0))
        eap = series_expected_ap(law, hp)
        if math.isinf(eap):
            assert row["expected_ap"] is None
        else:
            assert float(row["expected_ap"]) == pytest.approx(eap, rel=1e-9)


def test_kill_chance_table_layout_follows_the_data(kill_exact):
    idx = kill_exact.index
    assert set(idx.get_level_values("weapon")) == set(RS.weapon_names)
    assert set(idx.get_level_values("sp")) == set(range(RS.get("survivor.max_sp_per_roll") + 1))
    night_only = [e for e in ("walker", "howler", "crawler", "leader", "bulker", "hunter")
                  if RS.get(f"enemies.{e}.night_only")]
    assert night_only and not kill_exact.xs("day", level="time").index.isin(night_only, level="enemy").any()
    # a weapon whose damage does not depend on strength has one band
    for w in RS.weapon_names:
        bands = set(kill_exact.xs(w, level="weapon").index.get_level_values("band"))
        same = len({RS.get(f"weapons.{w}.damage_{c}") for c in ("weak", "mid", "strong")}) == 1
        assert (bands == {"any"}) == same, (w, bands)
    # floats agree with the Fractions
    flt = F.kill_chance_table()
    assert np.allclose(flt["p_kill_1ap"].to_numpy(float), kill_exact["p_kill_1ap"].to_numpy(float), atol=1e-15)


def test_kit_kill_chance_agrees_with_the_dice_module():
    t = F.kit_kill_chance_table(exact=True)
    for (s, w, enemy, time_, health, sp), row in t.iterrows():
        assert row["p_kill_1ap"] == X.kill_probability(s, w, enemy, time_ == "night", health, sp=sp, ruleset=RS,
                                                       exact=True)
    # with a changed ruleset the table follows (two SP a roll: a second SP column)
    t3 = F.kit_kill_chance_table(RS.override({"survivor.max_sp_per_roll": 2}))
    assert set(t3.index.get_level_values("sp")) == {0, 1, 2}


# =========================================================================== fight: hand cases
def p_hit(pool, health, rs=RS):
    """1 - (1 - q)^pool, q the share of faces whose target hits at that health colour."""
    ok = rs.get(f"colours.attack.{health}")
    q = Fraction(sum(f["target"] in ok for f in die(rs)), len(die(rs)))
    return 1 - (1 - q) ** pool


def one_health_walker():
    """A day Walker with one health point left (damage_taken)."""
    return [RS.get("enemies.walker.day.health") - 1]


def test_one_ap_against_a_one_health_walker_is_p_hit():
    red = RS.get("survivor.health_red_at")
    assert RS.get("survivor.ap_red") == 1
    for sp in (0, 1):
        sol = F.fight_optimal("kenji", ["walker"], health=red, sp=sp, horizon=1,
                              damage_taken=one_health_walker(), exact=True)
        pool = RS.get("survivors.kenji.day.hth") + sp - RS.get("enemies.walker.day.defense")
        assert sol.value == p_hit(pool, "red")
        assert sol.action(sol.start) == ("attack", "bat", ("walker", one_health_walker()[0]), sp)


def test_three_ap_with_one_sp_spend_it_once():
    """Green health, 3 AP, 1 SP, one turn: 1 - (1-p(n+1)) (1-p(n))^2."""
    top = RS.get("survivor.health_max")
    assert RS.get("survivor.ap_green") == 3
    n = RS.get("survivors.kenji.day.hth") - RS.get("enemies.walker.day.defense")
    sol = F.fight_optimal("kenji", ["walker"], health=top, sp=1, horizon=1, damage_taken=one_health_walker(),
                          exact=True)
    assert sol.value == 1 - (1 - p_hit(n + 1, "green")) * (1 - p_hit(n, "green")) ** 2
    # two one-health Walkers, no SP: two hits in three rolls, the first kill's SP spent
    # on the next roll (p: no SP, q: one SP)
    assert RS.get("enemies.walker.day.sp") >= 1 and RS.get("survivor.max_sp_per_roll") == 1
    p, q = p_hit(n, "green"), p_hit(n + 1, "green")
    sol2 = F.fight_optimal("kenji", ["walker", "walker"], health=top, sp=0, horizon=1,
                           damage_taken=one_health_walker() * 2, exact=True)
    assert sol2.value == p * (1 - (1 - q) * (1 - p)) + (1 - p) * p * q
    assert sol2.value > p ** 3 + 3 * p ** 2 * (1 - p)  # what it would be without the SP


def test_a_fight_that_cannot_be_won_is_zero():
    # Lebeu's knife (and fists) deal no more than a Leader's resistance, no pierce
    s = RS.get("survivors.lebeu.day.strength")
    res = RS.get("enemies.leader.day.resistance")
    assert max(melee_damage("knife", s), melee_damage("fists", s)) <= res
    assert not RS.get("weapons.knife.pierce") and RS.get("weapons.knife.star_trait") != "pierce"
    assert F.fight_optimal("lebeu", ["leader"]).value == 0


def test_exact_and_float_agree():
    a = F.fight_optimal("olsson", ["walker", "walker"], night=True, health=6, exact=True)
    b = F.fight_optimal("olsson", ["walker", "walker"], night=True, health=6)
    assert isinstance(a.value, Fraction) and 0 < a.value < 1
    assert float(a.value) == pytest.approx(b.value, abs=1e-12)


# =========================================================================== fight: order
def test_value_rises_with_health_and_sp_and_falls_with_enemies():
    top = RS.get("survivor.health_max")
    for surv in ("swift", "olsson"):
        # one solve holds every turn-start state below its start: read them off
        sol = F.fight_optimal(surv, ["walker", "walker"], night=True, sp=4)
        s0 = sol.start

        def at(h, sp, sol=sol, s0=s0):
            return sol.state_value(s0._replace(health=h, sp=sp, ap=RS.action_points(h)))

        grid = [[at(h, sp) for sp in range(0, 5)] for h in range(1, top + 1)]
        assert all(0 <= v <= 1 for row in grid for v in row)
        for row in grid:  # more SP never hurts
            assert all(a <= b + 1e-12 for a, b in zip(row, row[1:])), (surv, row)
        for sp in range(0, 5):  # more health never hurts
            col = [row[sp] for row in grid]
            assert all(a <= b + 1e-12 for a, b in zip(col, col[1:])), (surv, sp, col)
            assert col[0] < col[-1]
        assert at(6, 2) == pytest.approx(F.fight_optimal(surv, ["walker", "walker"], night=True, health=6,
                                                         sp=2).value, abs=1e-12)
        more = [F.fight_optimal(surv, ["walker"] * k, night=True).value for k in (1, 2, 3)]
        assert more[0] >= more[1] >= more[2] and more[0] > more[2], (surv, more)


def test_horizon_rises_to_the_unlimited_value():
    inf = F.fight_optimal("olsson", ["walker", "walker"], night=True, health=5).value
    sol = F.fight_optimal("olsson", ["walker", "walker"], night=True, health=5, horizon=20)
    vals = [sol.state_value(sol.start._replace(turns_left=t)) for t in (1, 2, 3, 6, 20)]
    assert vals[-1] == sol.value
    assert vals[0] == F.fight_optimal("olsson", ["walker", "walker"], night=True, health=5, horizon=1).value
    assert all(a <= b + 1e-12 for a, b in zip(vals, vals[1:]))
    assert vals[0] < vals[-1]
    assert vals[-1] == pytest.approx(inf, abs=1e-9)
    # zombies first (an ambush) never helps; a fury card never helps
    inf = F.fight_optimal("swift", ["walker", "walker"], night=True).value
    assert F.fight_optimal("swift", ["walker", "walker"], night=True, enemies_first=True).value <= inf
    assert F.fight_optimal("swift", ["walker", "walker"], night=True, fury=False).value >= inf


def test_fight_table_shape_and_range():
    t = F.fight_table(survivors=["kenji"], setups={"2 walkers": ["walker", "walker"], "bulker": ["bulker"]})
    assert list(t.columns) == [("day", "2 walkers"), ("day", "bulker"), ("night", "2 walkers"), ("night", "bulker")]
    assert ((t >= 0) & (t <= 1)).all().all()
    assert t.loc["kenji (bat)", ("night", "bulker")] <= t.loc["kenji (bat)", ("day", "bulker")]


def test_bad_arguments():
    cap = RS.get("map.engaged_cap")
    with pytest.raises(ValueError, match="engaged_cap"):
        F.fight_optimal("kenji", ["walker"] * (cap + 1))
    with pytest.raises(ValueError, match="unknown enemy"):
        F.fight_optimal("kenji", ["ghoul"])
    with pytest.raises(ValueError, match="health"):
        F.fight_optimal("kenji", ["walker"], health=0)


# =========================================================================== Monte Carlo
class Sim:
    """The fight's rules written out again, playing the solution's policy."""

    def __init__(self, sol, rs=RS):
        self.sol, self.rs, self.faces = sol, rs, die(rs)
        self.side = "night" if sol.night else "day"
        g = rs.get
        self.p_fury = g("threat.side_a.fury") / g("threat.cards")

    def e(self, kind, stat):
        return self.rs.get(f"enemies.{kind}.{self.side}.{stat}")

    def colour(self, health):
        g = self.rs.get
        if health <= g("survivor.health_red_at"):
            return "red"
        return "yellow" if health <= g("survivor.health_yellow_at") else "green"

    def roll(self, rng, n):
        return [self.faces[i] for i in rng.integers(0, len(self.faces), size=max(self.rs.get("survivor.min_pool"), n))]

    def zombies(self, rng, st, defending):
        g = self.rs.get
        extra = g("threat.side_a.fury_actions") if rng.random() < self.p_fury else 0
        defense = g(f"survivors.{self.sol.survivor}.{self.side}.defense") + (g("combat.defend_bonus") if defending else 0)
        for kind, _ in st["enemies"]:
            for _ in range(self.e(kind, "actions") + extra):
                roll = self.roll(rng, self.e(kind, "attack") - defense)
                if any(f["skull"] for f in roll) and self.e(kind, "damage") > 0:
                    st["health"] -= self.e(kind, "damage")
                    st["stress"] = min(g("survivor.stress_max"), st["stress"] + g("survivor.stress_per_damaging_attack"))
                    if st["infection"] == 0 and any(f["infection"] for f in roll):
                        st["infection"] = 1
        return st["health"] > 0 and st["infection"] < g("survivor.infection_death")

    def play(self, rng):
        g, sol = self.rs.get, self.sol
        s0 = sol.start
        st = {"health": s0.health, "stress": s0.stress, "infection": s0.infection, "sp": s0.sp, "ammo": s0.ammo,
              "enemies": list(s0.enemies)}
        turns = sol.horizon
        if sol.enemies_first and not self.zombies(rng, st, False):
            return 0
        while True:
            if turns == 0:
                return 0
            col = self.colour(st["health"])
            ap = g(f"survivor.ap_{col}")
            defending = slow_used = False
            pending = ()
            while True:
                if not st["enemies"]:
                    return 1
                if not pending and ap == 0:
                    break
                state = F.FightState(st["health"], st["stress"], st["infection"], st["sp"], st["ammo"],
                                     tuple(sorted(st["enemies"])), ap, defending, slow_used, pending, turns)
                act = sol.action(state)
                if act[0] == "end":
                    break
                if act[0] == "skip":
                    pending = ()
                    continue
                if act[0] == "defend":
                    ap, defending = ap - 1, True
                    continue
                _, w, (kind, taken), sp = act
                wg = lambda k, w=w: g(f"weapons.{w}.{k}")  # noqa: E731
                if pending:
                    left = pending[3] - 1 if pending[0] == "rapid" else 0
                else:
                    ap -= 1
                    left = wg("attacks_per_ap") - 1
                    slow_used = slow_used or wg("slow")
                attr = "hth" if wg("kind") == "melee" else "ranged"
                dice = g(f"survivors.{sol.survivor}.{self.side}.{attr}")
                roll = self.roll(rng, dice + sp - self.e(kind, "defense"))
                ok = g(f"colours.attack.{col}")
                hit = any(f["target"] in ok for f in roll)
                star = any(f["star"] != "none" for f in roll)
                dmg = melee_damage(w, g(f"survivors.{sol.survivor}.{self.side}.strength"))
                pierce = wg("pierce") or (star and wg("star_trait") == "pierce")
                dealt = max(0, dmg - (0 if pierce else self.e(kind, "resistance"))) if hit else 0
                st["sp"] -= sp
                st["ammo"] -= wg("ammo")
                st["enemies"].remove((kind, taken))
                if taken + dealt >= self.e(kind, "health"):
                    st["sp"] = min(g("survivor.sp_cap"), st["sp"] + self.e(kind, "sp"))
                    pending = ("sweep", w) if (star and wg("star_trait") == "sweep" and st["enemies"]) else ()
                else:
                    st["enemies"].append((kind, taken + dealt))
                    pending = ("rapid", w, (kind, taken + dealt), left) if left > 0 else ()
            if not self.zombies(rng, st, defending):
                return 0
            if turns is not None:
                turns -= 1


MC_CASES = [
    dict(survivor="lebeu", enemies=["walker"] * 3, night=True),            # knife, fists backup
    dict(survivor="swift", enemies=["leader"], night=True),                # rapid fire, ammo, pierce star
    dict(survivor="olsson", enemies=["walker"] * 3, night=True, health=4),  # sweep
    dict(survivor="kenji", enemies=["bulker"], night=True),                # defend matters
    dict(survivor="swift", enemies=["walker", "walker"], night=True, horizon=2, enemies_first=True, health=8),
]


@pytest.mark.parametrize("case", MC_CASES, ids=lambda c: f"{c['survivor']}-{len(c['enemies'])}{c['enemies'][0]}")
def test_policy_value_matches_monte_carlo(case):
    sol = F.fight_optimal(**case)
    n = 3000
    rng = np.random.default_rng(20261201)
    sim = Sim(sol)
    wins = sum(sim.play(rng) for _ in range(n))
    v = sol.value
    sd = math.sqrt(max(v * (1 - v), 1e-4) / n)
    assert abs(wins / n - v) <= 4 * sd, (case, wins / n, v)
