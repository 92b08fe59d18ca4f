"""Day Night Z's exact dice module against brute force and the specification's cases.

The brute force here enumerates every outcome of the dice (``itertools.product`` over the
faces of ``dice.toml``) and applies the rules written out again in this file, in
Fractions, without calling the dynamic programme of ``exact``; the specification's
verification cases 1-5 are checked as printed numbers.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simlib.games.day_night_z import exact as X
from simlib.games.day_night_z.ruleset import load_ruleset

RS = load_ruleset()
STAR_COLOURS = ("green", "gold", "red")
TARGET_COLOURS = ("green", "yellow", "red")
LEVELS = ("green", "yellow", "red")


# =========================================================================== brute force
def die(rs=RS):
    """The die as the test reads dice.toml: one dict a face, straight from the values."""
    return [{"star": rs.get(f"dice.{f}.star"), "target": rs.get(f"dice.{f}.target"),
             "skull": rs.get(f"dice.{f}.skull"), "infection": rs.get(f"dice.{f}.infection"),
             "noise": rs.get(f"dice.{f}.noise")} for f in rs.face_names]


def enumerate_rolls(n, rs=RS):
    """Every roll of ``n`` dice with its probability."""
    faces = die(rs)
    p = Fraction(1, len(faces) ** n)
    for roll in product(faces, repeat=n):
        yield roll, p


def bf_check(n, stress, rs=RS):
    ok = rs.get(f"colours.check.{stress}")
    return sum((p for roll, p in enumerate_rolls(n, rs) if any(f["star"] in ok for f in roll)), Fraction(0))


def bf_attack(n, health, rs=RS):
    """{(hit, star): p}; any star fires the trait (the reference star_trait_rule)."""
    ok = rs.get(f"colours.attack.{health}")
    out = {}
    for roll, p in enumerate_rolls(n, rs):
        k = (any(f["target"] in ok for f in roll), any(f["star"] != "none" for f in roll))
        out[k] = out.get(k, 0) + p
    return out


def bf_enemy(n, infected, rs=RS):
    """{(hit, stress, infection, noise): p} for a damaging enemy."""
    out = {}
    for roll, p in enumerate_rolls(n, rs):
        hit = any(f["skull"] for f in roll)
        k = (int(hit), int(hit), int(hit and not infected and any(f["infection"] for f in roll)),
             int(any(f["noise"] for f in roll)))
        out[k] = out.get(k, 0) + p
    return out


def bf_kill(survivor, weapon, enemy, night, health, aps, rs=RS):
    """P(kill) enumerating every die of every attack of ``aps`` AP together."""
    side = "night" if night else "day"
    w = f"weapons.{weapon}."
    attr = "hth" if rs.get(w + "kind") == "melee" else "ranged"
    pool = max(1, rs.get(f"survivors.{survivor}.{side}.{attr}") - rs.get(f"enemies.{enemy}.{side}.defense"))
    strength = rs.get(f"survivors.{survivor}.{side}.strength")
    dmg = rs.get(w + ("damage_strong" if strength >= 4 else "damage_mid" if strength == 3 else "damage_weak"))
    res, health_e = rs.get(f"enemies.{enemy}.{side}.resistance"), rs.get(f"enemies.{enemy}.{side}.health")
    n_att = aps * rs.get(w + "attacks_per_ap")
    ok = rs.get(f"colours.attack.{health}")
    total = Fraction(0)
    for roll, p in enumerate_rolls(pool * n_att, rs):
        done = 0
        for a in range(n_att):
            dice = roll[a * pool:(a + 1) * pool]
            if any(f["target"] in ok for f in dice):
                pierce = rs.get(w + "pierce") or (rs.get(w + "star_trait") == "pierce"
                                                 and any(f["star"] != "none" for f in dice))
                done += max(0, dmg - (0 if pierce else res))
        if done >= health_e:
            total += p
    return total


# =========================================================================== the specification's cases
def test_case1_minimum_die_after_survival_points():
    # Aid 2, -2, 1 SP -> 1 die, as with no SP; Aid 2 + 1 SP -> 3 dice
    assert X.check_pool(2, sp=1, modifier=-2) == 1 == X.check_pool(2, sp=0, modifier=-2)
    assert X.check_pool(2, sp=1) == 3
    assert X.check_probability(2, "green", sp=1, modifier=-2, exact=True) == Fraction(1, 2)
    # a red star passes at red stress; 3 dice at red: 1 - (5/6)^3
    red_star = [f for f in RS.face_names if RS.get(f"dice.{f}.star") == "red"]
    assert X.check_roll([RS.face_names.index(red_star[0])], "red")
    assert X.check_probability(2, "red", sp=1, exact=True) == Fraction(91, 216)


def face(star=None, target=None):
    for i, f in enumerate(RS.face_names):
        if (star is None or RS.get(f"dice.{f}.star") == star) and \
                (target is None or RS.get(f"dice.{f}.target") == target):
            return i
    raise LookupError((star, target))


def test_case2_colours_are_not_nested():
    g, gold, r = face(star="green"), face(star="gold"), face(star="red")
    assert X.check_roll([g, g, gold], "yellow")
    assert not X.check_roll([g, g], "yellow")
    assert not X.check_roll([r], "green")
    assert X.check_roll([r], "red") and not X.check_roll([gold], "red")
    assert X.check_success(3, "yellow", exact=True) == Fraction(19, 27)


def test_case3_swift_shoots_at_night():
    pool = X.attack_pool(RS.attribute("swift", "ranged", night=True),
                         RS.enemy("walker", night=True)["defense"], high_ground=True)
    assert pool == 4  # 3 ranged + 1 high ground - 0 (the rulebook's "3" is a slip)
    out = X.attack_outcome(pool, "yellow", exact=True)
    assert sum(p for (hit, _), p in out.items() if hit) == Fraction(65, 81)
    # a red target hits at yellow health, a green one does not
    assert X.attack_roll([face(target="red")], "yellow")[0]
    assert not X.attack_roll([face(target="green")], "yellow")[0]


def test_case4_bulker_on_lebeu():
    bulker = RS.enemy("bulker", night=True)
    pool = X.enemy_pool(bulker["attack"], RS.attribute("lebeu", "defense", night=True), cover=True,
                        defending=True, armour=True)
    assert pool == 1
    res = X.enemy_attack("bulker", "lebeu", night=True, cover=True, defending=True, armour=True, exact=True)
    assert res["hit"] == Fraction(1, 2) and res["damage"] == 5
    skull_inf = [i for i, f in enumerate(die()) if f["skull"] and f["infection"]][0]
    skull_noise = [i for i, f in enumerate(die()) if f["skull"] and f["noise"]][0]
    assert X.enemy_roll([skull_inf], damage=5) == (5, 1, 1, 0)
    assert X.enemy_roll([skull_noise], damage=5) == (5, 1, 0, 1)


def test_case5_crawler_and_stress():
    si = [i for i, f in enumerate(die()) if f["skull"] and f["infection"]][0]
    sn = [i for i, f in enumerate(die()) if f["skull"] and f["noise"]][0]
    crawler = RS.enemy("crawler")
    assert X.enemy_roll([si, sn, si], infected=False, damage=crawler["damage"]) == (2, 1, 1, 1)
    assert X.enemy_roll([si, sn, si], infected=True, damage=crawler["damage"]) == (2, 1, 0, 1)
    # Walker miss, Walker hit, Bulker hit: +2 stress (one a damaging attack)
    miss = [i for i, f in enumerate(die()) if not f["skull"]][0]
    stress = [X.enemy_roll(r, damage=d)[1] for r, d in (([miss], 1), ([si], 1), ([sn], 5))]
    assert sum(stress) == 2
    out = X.enemy_attack_outcome(3, exact=True)
    marg = {name: sum(p for k, p in out.items() if k[i]) for i, name in enumerate(out.index.names)}
    assert marg["hit"] == Fraction(7, 8)
    assert marg["infection"] == Fraction(91, 216)
    assert marg["noise"] == Fraction(19, 27)


# =========================================================================== brute force
@pytest.mark.parametrize("stress", LEVELS)
def test_check_matches_brute_force(stress):
    for n in range(0, 5):
        assert X.check_success(n, stress, exact=True) == bf_check(n, stress), n


@pytest.mark.parametrize("health", LEVELS)
def test_attack_matches_brute_force(health):
    for n in range(1, 5):
        got = X.attack_outcome(n, health, exact=True)
        want = bf_attack(n, health)
        assert dict(got.items()) == {k: v for k, v in want.items() if v}, n


@pytest.mark.parametrize("infected", [False, True])
def test_enemy_attack_matches_brute_force(infected):
    for n in range(1, 5):
        got = X.enemy_attack_outcome(n, infected, exact=True)
        assert dict(got.items()) == bf_enemy(n, infected), n
        assert sum(got) == 1


@pytest.mark.parametrize("survivor,weapon,enemy,night,health,aps", [
    ("lebeu", "colt", "walker", False, "green", 1),     # rapid fire: 2 attacks of 2 dice
    ("lebeu", "colt", "leader", False, "yellow", 2),    # resistance 1: only a star's pierce hurts
    ("kenji", "bat", "crawler", True, "green", 2),      # night: 3 health, damage adds up over 2 AP
    ("olsson", "rifle", "bulker", True, "red", 2),      # pierce always; red health
    ("swift", "axe", "howler", False, "yellow", 1),
])
def test_kill_matches_brute_force(survivor, weapon, enemy, night, health, aps):
    got = X.kill_probability(survivor, weapon, enemy, night, health, aps=aps, exact=True)
    assert got == bf_kill(survivor, weapon, enemy, night, health, aps)


def test_corpse_and_hiding():
    for n in range(1, 4):
        want = sum((p for roll, p in enumerate_rolls(n) if any(f["infection"] for f in roll)), Fraction(0))
        assert X.corpse_infection(n, exact=True) == want
    assert X.corpse_table(exact=True).loc["hiding", "infection"] == Fraction(91, 216)


def test_stress_from_attacks_is_a_convolution():
    # two Walkers (2 dice) and a Bulker (1 die): independent hits, one stress each
    got = X.stress_from_attacks([2, 2, 1], [1, 1, 5], exact=True)
    p2, p1 = bf_check_skull(2), bf_check_skull(1)
    want = {0: (1 - p2) ** 2 * (1 - p1),
            3: p2 * p2 * p1}
    assert got[0] == want[0] and got[3] == want[3] and sum(got) == 1
    assert X.stress_from_attacks([3], [0], exact=True)[0] == 1  # no damage, no stress


def bf_check_skull(n):
    return sum((p for roll, p in enumerate_rolls(n) if any(f["skull"] for f in roll)), Fraction(0))


# =========================================================================== survival points and data
def test_survival_points_cap_per_roll():
    with pytest.raises(ValueError, match="max_sp_per_roll"):
        X.check_pool(2, sp=2)
    rs3 = RS.override({"survivor.max_sp_per_roll": 3})
    assert X.check_pool(2, sp=3, ruleset=rs3) == 5
    t = X.check_table(ruleset=rs3, exact=True)
    assert list(t.columns.get_level_values("sp").unique()) == [0, 1, 2, 3]
    assert t.loc[2, ("yellow", 3)] == bf_check(5, "yellow")


def test_check_table_values():
    t = X.check_table(exact=True)
    assert list(t.index) == list(range(0, 9))
    assert t.loc[0, ("red", 0)] == Fraction(1, 6)          # minimum one die
    assert t.loc[3, ("yellow", 0)] == Fraction(19, 27)
    assert t.loc[2, ("yellow", 1)] == Fraction(19, 27)     # 2 dice + 1 SP
    for (stress, sp), col in t.items():
        for dice, p in col.items():
            assert p == bf_check(max(1, dice + sp), stress) if dice + sp <= 4 else p > 0


def test_enemy_table_values():
    t = X.enemy_attack_table(range(1, 4), exact=True)
    for n in range(1, 4):
        want = bf_enemy(n, False)
        assert t.loc[n, "hit"] == sum(p for k, p in want.items() if k[0])
        assert t.loc[n, "infection"] == sum(p for k, p in want.items() if k[2])
        assert t.loc[n, "noise"] == sum(p for k, p in want.items() if k[3])


def test_exact_tables_shapes():
    tabs = X.exact_tables()
    assert set(tabs) == {"check", "enemy_attack", "kill_1ap", "kill_3ap", "corpse"}
    k = tabs["kill_1ap"]
    assert ("day", "hunter") not in k.columns and ("night", "hunter") in k.columns
    assert len(k) == len(RS.survivor_names) * len(RS.weapon_names)
    assert ((k >= 0) & (k <= 1)).all().all()
    assert (tabs["kill_3ap"] >= k - 1e-12).all().all()    # more AP never kill less


def test_rules_follow_the_data():
    # a nested colour rule (yellow accepts green too) changes the yellow check
    nested = RS.override({"colours.check.yellow": ["green", "gold", "red"]})
    assert X.check_success(1, "yellow", nested, exact=True) == bf_check(1, "yellow", nested) == Fraction(2, 3)
    # a die with infection on every skull face raises the infection chance
    rs = RS.override({f"dice.{f}.infection": True for f in RS.face_names if RS.get(f"dice.{f}.skull")})
    got = X.enemy_attack_outcome(2, ruleset=rs, exact=True)
    assert dict(got.items()) == bf_enemy(2, False, rs)
    assert sum(p for k, p in got.items() if k[2]) == Fraction(3, 4)
    # the star rule "stress_star": only a star the stress colour accepts pierces
    strict = RS.override({"combat.star_trait_rule": "stress_star"})
    assert 0 < X.kill_probability("lebeu", "colt", "leader", aps=2, ruleset=strict, exact=True) < \
        X.kill_probability("lebeu", "colt", "leader", aps=2, exact=True)


# =========================================================================== the plain layer
SYMBOLS = ["a", "b", "c", "d"]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(faces=st.lists(st.frozensets(st.sampled_from(SYMBOLS)), min_size=1, max_size=6),
       events=st.lists(st.frozensets(st.sampled_from(SYMBOLS), min_size=1), min_size=1, max_size=3),
       n=st.integers(0, 4))
def test_joint_any_matches_enumeration(faces, events, n):
    want = {}
    p = Fraction(1, len(faces) ** n)
    for roll in product(faces, repeat=n):
        k = tuple(any(s in f for f in roll for s in e) for e in events)
        want[k] = want.get(k, 0) + p
    assert X.joint_any(n, faces, events) == want


def test_plain_layer_errors():
    with pytest.raises(ValueError, match=">= 0 dice"):
        X.joint_any(-1, [{"a"}], [{"a"}])
    with pytest.raises(ValueError, match="at least one face"):
        X.joint_any(1, [], [{"a"}])
    with pytest.raises(ValueError, match="unknown colour"):
        X.check_success(1, "blue")
    with pytest.raises(ValueError, match="face index"):
        X.check_roll([6])


# =========================================================================== the docs page
def test_docs_page_tables_are_the_module_s():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "games" / "day-night-z.md").read_text()
    for table in (X.check_table(range(1, 9), [0, 1]), X.enemy_attack_table(), X.corpse_table()):
        assert X.markdown(table) in page
    for aps in (1, 3):
        assert X.markdown(X.kit_kill_table(aps=aps), 2) in page
    assert "shared/" not in page
