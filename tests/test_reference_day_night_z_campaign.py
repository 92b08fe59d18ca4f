"""The Day Night Z campaign reference engine (tests/reference/day_night_z_campaign.py): hand-
worked cases from the docs page and the data, played with scripted chance, and invariants
over many random travels and shelter days."""
from __future__ import annotations

import copy
import random

import pytest

from simlib.games.day_night_z.ruleset import load_ruleset
from tests.reference.chance import RandomChance, ScriptedChance
from tests.reference.day_night_z_campaign import SHELTER_DEFAULTS, Campaign, new_survivor

RULES = load_ruleset(None)
R = {k: RULES.get(k) for k in RULES.keys()}
KINDS = {"check_die", "travel_die", "travel_card", "shelter_event", "ally_card"}


def campaign(names, queues=None, **shelter) -> Campaign:
    c = Campaign(R, {**SHELTER_DEFAULTS, **shelter}, ScriptedChance(queues or {}))
    c.team = [new_survivor(R, n) for n in names]
    return c


def done(c: Campaign):
    assert c.chance.left() == {}, c.chance.left()


# ---------------------------------------------------------------- start of a campaign
def test_start():
    c = campaign(["swift"])
    assert c.levels == {"rest_zone": 1, "warehouse": 1, "infirmary": 0, "workshop": 0,
                        "training_zone": 0, "supply_zone": 0, "fence": 0}
    assert c.vp == 0 and c.spent == c.joined == c.bought == c.sp_on_skills == 0
    assert c.skills_left == {k: 2 for k in c.skill_names}
    assert c.allies_left == c.ally_names and len(c.allies_left) == 10
    assert c.travel_left == ["quiet_road"] * 4 + ["rough_going"] * 3 + ["stragglers"] * 3 + ["looters"] * 2


# ---------------------------------------------------------------- travel
def test_known_path_failures_hit_everyone():
    # plain: rough_going's Will check (Lebeu 3 and Kenji 3: the first, Lebeu), no star -> +1
    # stress each; wood: stragglers' Perception check (Lebeu 3), no star -> 1 damage and an
    # infection level each; plain: quiet road.
    q = {"travel_card": ["rough_going", "stragglers", "quiet_road"],
         "check_die": ["f4", "f6", "f4", "f6", "f6", "f4"]}
    c = campaign(["swift", "lebeu", "kenji"], q, unknown_path=0)
    assert c.travel(14) == 0
    done(c)
    for sv in c.team:
        assert (sv["health"], sv["stress"], sv["infection"], sv["sp"]) == (8, 1, 1, 3)
    assert len(c.travel_left) == 12 - 3
    assert c.travel_left.count("rough_going") == 2 and c.travel_left.count("quiet_road") == 3


def test_travel_check_at_night_pass_earns_sp():
    # 22:00 is night: Perception at night Swift 1, Lebeu 2, Kenji 1 -> Lebeu rolls 2 dice;
    # a gold star passes at green stress: +1 SP, nobody hurt.
    q = {"travel_card": ["stragglers", "quiet_road", "quiet_road"], "check_die": ["f4", "f3"]}
    c = campaign(["swift", "lebeu", "kenji"], q, unknown_path=0)
    c.travel(22)
    done(c)
    assert [sv["sp"] for sv in c.team] == [3, 4, 3]
    assert all(sv["health"] == 9 for sv in c.team)


def test_travel_lit_and_bonus_pick_the_checker():
    # at night a lit Swift has his day Perception 2, + the teenager's 1 = 3: he beats Lebeu's 2
    q = {"travel_card": ["stragglers", "quiet_road", "quiet_road"], "check_die": ["f6", "f6", "f6"]}
    c = campaign(["swift", "lebeu"], q, unknown_path=0)
    c.team[0]["lit"] = True
    c.team[0]["allies"] = ["teenager"]
    c.travel(23)
    done(c)
    assert [sv["health"] for sv in c.team] == [8, 8]


def test_unknown_path_a_card_a_skull_and_death_on_the_road():
    # wood: 2 dice, one skull -> one card (looters: Will, fail: a supply and +1 stress);
    # mountain: 1 die, a skull -> rough_going (Agility, fail: 1 damage) kills Swift at 1.
    q = {"travel_die": ["f2", "f1", "f5"], "travel_card": ["looters", "rough_going"],
         "check_die": ["f6", "f6", "f4", "f6"]}   # Will 2, Agility 2: two dice each
    c = campaign(["swift"], q)
    c.team[0].update(health=1, supplies=0)
    assert c.travel(14) == 1
    done(c)
    sv = c.team[0]
    assert (sv["alive"], sv["cause"], sv["health"], sv["supplies"], sv["stress"]) == (False, "travel", 0, 0, 1)


def test_dead_team_draws_nothing_and_empty_deck_refills():
    c = campaign(["swift"])
    c.team[0].update(alive=False, cause="damage", health=0)
    assert c.travel(14) == 0 and c.shelter_days() == 0
    done(c)
    c = campaign(["swift"], {"travel_card": ["quiet_road"] * 3}, unknown_path=0)
    c.travel_left = ["quiet_road"]
    c.travel(14)
    done(c)
    assert len(c.travel_left) == 12 - 2


# ---------------------------------------------------------------- VP and building
def test_vp_and_build_order_saving_up():
    c = campaign(["swift"])
    assert c.adventure_vp(False, 4, 4) == 0 and c.vp == 0
    assert c.adventure_vp(True, 4, 2) == 2 and c.vp == 2
    assert c.build() == 0 and c.vp == 2            # infirmary costs 3: saved
    c.adventure_vp(True, 3, 3)                       # 6
    assert c.build() == 5 and c.vp == 1              # infirmary 3, fence 2; supply zone 2 short
    assert c.levels["infirmary"] == 1 and c.levels["fence"] == 1 and c.levels["supply_zone"] == 0
    c.vp += 9                                        # 10
    assert c.build() == 10 and c.vp == 0             # supply 2, training 2, workshop 2, infirmary+ 4
    assert c.levels["infirmary"] == 2 and c.levels["workshop"] == 1
    assert c.spent == 15
    c.vp = 100
    c.build()
    assert c.levels["fence"] == 1 and all(v == 2 for f, v in c.levels.items() if f != "fence")
    assert c.next_step() is None
    c2 = campaign(["swift"], build=0)
    c2.vp = 50
    assert c2.build() == 0 and c2.vp == 50


# ---------------------------------------------------------------- the shelter
def test_infirmary_at_level_two_by_night():
    # an infected Lebeu at night: Aid 3 (night) + 1 advanced die = 4 dice; a green star
    # passes: +3 health, -1 infection, +1 SP
    c = campaign(["lebeu"], {"check_die": ["f6", "f6", "f6", "f1"]})
    c.levels["infirmary"] = 2
    c.team[0].update(health=4, infection=2)
    assert c.choose_visit(0) == "infirmary"
    assert c.visit(0, "infirmary", R["clock.night_start"])
    done(c)
    assert (c.team[0]["health"], c.team[0]["infection"], c.team[0]["sp"]) == (7, 1, 4)


def test_rest_zone_level_two_and_visit_choices():
    c = campaign(["olsson"])
    c.levels["rest_zone"] = 2
    c.team[0].update(health=5, stress=5)
    assert c.choose_visit(0) == "rest_zone"
    c.visit(0, "rest_zone", 6)
    assert (c.team[0]["health"], c.team[0]["stress"]) == (7, 2)
    c.team[0].update(health=9, stress=0, supplies=3)   # eats 2 + reserve 2 = 4 > 3
    assert c.choose_visit(0) == "warehouse"
    c.levels["supply_zone"] = 1                        # 2 > the warehouse's 1
    assert c.choose_visit(0) == "supply_zone"
    c.team[0]["supplies"] = 4
    assert c.choose_visit(0) == "rest_zone"            # nothing needed, no training zone
    c.levels["training_zone"] = 1
    assert c.choose_visit(0) == "training_zone"
    c.team[0]["health"] = 7
    assert c.choose_visit(0) == "rest_zone"
    c2 = campaign(["swift"], heal_missing=9, infirmary_wounds=1)
    c2.levels["infirmary"] = 1
    c2.team[0].update(health=2, supplies=9, ammo=0)
    assert c2.choose_visit(0) == "rest_zone"           # no visit for wounds; no workshop
    c2.levels["workshop"] = 1
    assert c2.choose_visit(0) == "workshop"            # Swift's Colt, ammo 0 < the reserve 2
    c2.shelter["heal_missing"] = 2
    assert c2.choose_visit(0) == "infirmary"           # wounds to the infirmary


def test_skill_bought_leaving_sp_keep():
    c = campaign(["kenji"])
    c.team[0]["sp"] = 8
    c._buy_skills()
    assert c.team[0]["skills"] == ["brawler"] and c.team[0]["sp"] == 4
    assert c.skills_left["brawler"] == 1 and c.bought == 1 and c.sp_on_skills == 4
    c = campaign(["kenji"])
    c.team[0]["sp"] = 13
    c._buy_skills()
    assert c.team[0]["skills"] == ["brawler", "brawler_2"] and c.team[0]["sp"] == 3
    c = campaign(["lebeu"], sp_keep=0)
    c.team[0]["sp"] = 3                                # four of his day values tie at 3
    c._buy_skills()
    assert c.team[0]["skills"] == ["nimble"] and c.team[0]["sp"] == 0


def test_ally_joins_the_survivor_with_the_fewest_and_helps():
    q = {"shelter_event": ["stranger"], "ally_card": ["cook"]}
    c = campaign(["swift", "lebeu", "kenji"], q, build=0, skills=0)
    for sv in c.team:
        sv.update(supplies=9)
    c.levels["rest_zone"] = c.levels["warehouse"] = 0  # no visits
    c.team[0]["allies"] = ["teenager"]
    c.allies_left.remove("teenager")
    c.team[1].update(alive=False, cause="damage", health=0)
    assert c.shelter_days() == 0
    done(c)
    assert c.team[2]["allies"] == ["cook"] and c.joined == 1
    assert "cook" not in c.allies_left
    assert c.team[2]["supplies"] == 9 + 1 - 1 and c.team[0]["supplies"] == 8
    assert c.team[1]["allies"] == []


def test_feeding_with_too_few_supplies_and_the_fence():
    q = {"shelter_event": ["zombie_attack"]}
    c = campaign(["swift", "olsson"], q, skills=0)
    c.levels["rest_zone"] = c.levels["warehouse"] = 0  # no visits
    c.levels["fence"] = 1                              # turns the zombies away
    c.team[0].update(health=1, supplies=0)             # eats 1, has none: -1, dies
    c.team[1].update(health=1, supplies=1)             # eats 2, has 1: -1 + 1, stays 1
    assert c.shelter_days() == 1
    done(c)
    assert (c.team[0]["alive"], c.team[0]["cause"], c.team[0]["health"]) == (False, "shelter", 0)
    assert (c.team[1]["alive"], c.team[1]["health"], c.team[1]["supplies"]) == (True, 1, 0)


def test_zombie_attack_without_fence_and_shelter_days_setting():
    c = campaign(["swift"], {"shelter_event": ["zombie_attack", "bad_night"]}, skills=0)
    c.R["campaign.shelter_days"] = 2
    c.levels["rest_zone"] = c.levels["warehouse"] = 0
    c.team[0].update(supplies=5)
    c.shelter_days()
    done(c)
    # -1 damage, then eats (+1) each day; +1 stress the second day
    assert (c.team[0]["health"], c.team[0]["stress"], c.team[0]["supplies"]) == (9, 1, 3)


# ---------------------------------------------------------------- invariants, random play
def snapshot_dead(c):
    return {i: copy.deepcopy(sv) for i, sv in enumerate(c.team) if not sv["alive"]}


def check(c, dead_before, alive_before, deaths):
    assert len(c.team) and deaths == alive_before - sum(sv["alive"] for sv in c.team)
    for i, sv in dead_before.items():          # the dead never change
        assert c.team[i] == sv
    for sv in c.team:
        assert 0 <= sv["health"] <= R["survivor.health_max"]
        assert 0 <= sv["stress"] <= R["survivor.stress_max"]
        assert sv["supplies"] >= 0 and sv["ammo"] >= 0
        assert 0 <= sv["sp"] <= R["survivor.sp_cap"]
        if sv["alive"]:
            assert sv["health"] > 0 and sv["infection"] < R["survivor.infection_death"]
            assert sv["cause"] is None
        else:
            assert sv["cause"] is not None
    assert all(v >= 0 for v in c.skills_left.values())
    assert c.vp >= 0 and c.spent >= 0
    assert c.joined == sum(len(sv["allies"]) for sv in c.team)
    assert c.bought == sum(len(sv["skills"]) for sv in c.team)
    assert c.bought == sum(R[f"skills.{k}.count"] - n for k, n in c.skills_left.items())
    assert len(c.allies_left) + c.joined == 10


@pytest.mark.parametrize("seed", range(40))
def test_random_campaign_invariants(seed):
    rng = random.Random(seed)
    shelter = {"heal_missing": rng.choice([1, 2, 4, 9]), "infirmary_wounds": rng.randint(0, 1),
               "supplies_reserve": rng.randint(0, 3), "unknown_path": rng.randint(0, 1),
               "build": rng.randint(0, 1), "skills": rng.randint(0, 1), "sp_keep": rng.randint(0, 6)}
    chance = RandomChance(seed)
    c = Campaign(R, shelter, chance)
    names = list(R["scenario.team"])[:rng.randint(1, 4)]
    c.team = [new_survivor(R, n) for n in names]
    for sv in c.team:
        sv["lit"] = rng.random() < 0.3
    for _adventure in range(4):
        c.new_travel_deck()
        for phase in ("out", "adventure", "back", "build", "shelter"):
            dead, alive = snapshot_dead(c), sum(sv["alive"] for sv in c.team)
            if phase in ("out", "back"):
                deaths = c.travel(rng.randrange(24))
            elif phase == "adventure":       # the adventure's wear, crudely
                for sv in c.team:
                    if sv["alive"]:
                        sv["health"] = rng.randint(1, R["survivor.health_max"])
                        sv["stress"] = rng.randint(0, R["survivor.stress_max"])
                        sv["infection"] = rng.randint(0, R["survivor.infection_death"] - 1)
                        sv["sp"] = rng.randint(0, R["survivor.sp_cap"])
                        sv["supplies"] = rng.randint(0, 4)
                        sv["ammo"] = rng.randint(0, 4)
                alive_end = sum(sv["alive"] for sv in c.team)
                vp = c.adventure_vp(rng.random() < 0.5, alive, alive_end)
                assert 0 <= vp <= R["scenario.vp_base"]
                deaths = 0
            elif phase == "build":
                vp0 = c.vp
                spent = c.build()
                assert spent == vp0 - c.vp and spent >= 0
                deaths = 0
            else:
                deaths = c.shelter_days()
            check(c, dead, alive, deaths)
    assert {k for k, _ in chance.history} <= KINDS
