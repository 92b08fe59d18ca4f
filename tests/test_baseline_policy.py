"""Unit tests of the baseline policy's choices on constructed positions (issue #14 item 3).

Each position is built with ``step.position``; ``Game.policy_choice("baseline")`` is the
candidate the baseline takes at the pending decision.  Dice are fixed (a combat die of
one face) where the position needs a roll.
"""
from __future__ import annotations

import pytest

from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.ruleset import load_ruleset
from simlib.games.until_daylight.position import position

TEAM = ["hipster", "trigger", "haggler", "psycho"]
HIP, TRI, HAG, PSY = range(4)


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("reference")


def table(**seats):
    return [dict({"character": c}, **seats.get(c, {})) for c in TEAM]


def baseline(g):
    """The baseline's choice at the pending decision, in words."""
    return g.legal_actions()[g.policy_choice("baseline")]


def choose(g, text):
    acts = g.legal_actions()
    assert acts.count(text) == 1, (text, acts)
    return g.apply(acts.index(text))


def test_prefers_the_attack_that_saves_the_most_damage(rules):
    """Two lines the bat kills equally well (Wanderers and Raiders both die to 1H or 2B):
    the Raiders roll 2 dice each, the Wanderers 1 - the baseline attacks the Raiders,
    whichever area they are in (both teammates at 4 health)."""
    for raiders_at in (TRI, HAG):
        areas = {TRI: ["wanderer", "wanderer"], HAG: ["wanderer", "wanderer"]}
        areas[raiders_at] = ["raider", "raider"]
        g = position(table(trigger={"health": 4, "area": areas[TRI]}, haggler={"area": areas[HAG]}),
                     round=3, first=PSY, ruleset=rules)
        name = TEAM[raiders_at]
        assert baseline(g) == f"attack {name}'s area (raider, raider) with baseball_bat"


def test_prefers_killing_a_monster_it_can_kill_to_wanderers(rules):
    """A Monster (3 dice) that 2 heads kill is worth more than a Wanderer (1 die):
    with an always-head die the chainsaw (4 + 1 dice) kills either line whole."""
    r = rules.override({"dice.combat.faces": {"H": 6}})
    g = position(table(psycho={"inventory": {"chainsaw": 1}},
                       trigger={"area": ["wanderer", "wanderer"]}, haggler={"area": ["monster"]}),
                 round=3, first=PSY, ruleset=r)
    assert baseline(g) == "attack haggler's area (monster) with chainsaw"


@pytest.mark.parametrize("shooter, weapon, target, health, shoots", [
    ("hipster", {"bow": 1, "arrows": 2}, "haggler", 2, False),  # 2 dice: 2 X could kill
    ("hipster", {"bow": 1, "arrows": 2}, "haggler", 3, True),
    ("trigger", {"trigger_pistol": 1, "gun_ammo": 1}, "haggler", 4, False),  # 2 dice x 2
    ("trigger", {"trigger_pistol": 1, "gun_ammo": 1}, "psycho", 5, True),
])
def test_never_shoots_into_a_teammate_area_when_the_collateral_could_kill(rules, shooter, weapon,
                                                                          target, health, shoots):
    """A distance attack into another area deals 1 damage per X (2 for the Trigger): the
    baseline does not shoot when every die missing would kill the teammate."""
    seats = {shooter: {"inventory": weapon},
             target: {"health": health, "area": ["wanderer", "wanderer"]}}
    g = position(table(**seats), round=3, first=TEAM.index(shooter), ruleset=rules)
    choice = baseline(g)
    attack = [a for a in g.legal_actions() if a.startswith("attack")]
    assert len(attack) == 1  # the shot is legal
    assert (choice == attack[0]) == shoots, choice
    if not shoots:
        assert choice == "do nothing"


def test_melee_into_a_badly_hurt_teammate_area_is_safe(rules):
    """Melee never causes collateral: the Psycho's bat goes into a 1-health teammate's area."""
    g = position(table(haggler={"health": 1, "area": ["wanderer", "wanderer"]}), round=3,
                 first=PSY, ruleset=rules)
    assert baseline(g) == "attack haggler's area (wanderer, wanderer) with baseball_bat"


def test_heals_when_badly_hurt_even_with_an_attack_available(rules):
    g = position(table(psycho={"health": 2, "inventory": {"baseball_bat": 1, "canned_food": 1},
                               "area": ["wanderer"]}), round=3, first=PSY, ruleset=rules)
    assert "attack own area (wanderer) with baseball_bat" in g.legal_actions()
    assert baseline(g) == "use canned_food"


def test_heals_when_hurt_and_there_is_nothing_to_attack(rules):
    g = position(table(psycho={"health": 5, "inventory": {"baseball_bat": 1, "canned_food": 1}}),
                 round=3, first=PSY, ruleset=rules)
    assert baseline(g) == "use canned_food"


def test_does_not_waste_a_medkit_on_one_missing_health(rules):
    """A medkit heals 2: with 1 health missing the baseline keeps it."""
    g = position(table(psycho={"health": 5, "inventory": {"baseball_bat": 1, "medkit": 1}}),
                 round=3, first=PSY, ruleset=rules)
    assert "use medkit" in g.legal_actions()
    assert baseline(g) == "do nothing"


@pytest.mark.parametrize("health, sacrifices", [(1, True), (3, False)])
def test_sacrifices_a_saved_survivor_only_to_avoid_dying(rules, health, sacrifices):
    g = position(table(haggler={"health": health, "area": ["wanderer"], "saved": {"survivor": 1}}),
                 round=3, first=HAG, ruleset=rules.override({"dice.combat.faces": {"H": 6}}))
    for _ in range(4):
        choose(g, "do nothing")
    assert g.decision == "sacrifice a saved survivor?"
    assert baseline(g) == ("sacrifice a saved survivor" if sacrifices else "take the damage")


@pytest.mark.parametrize("line, plays", [(["wanderer", "brute"], True), (["wanderer"], False)])
def test_plays_focus_only_when_it_adds_a_kill(rules, line, plays):
    """Bat + Psycho = 3 bodies: 1 Wanderer dies either way; a Brute behind it needs the head."""
    g = position(table(psycho={"inventory": {"baseball_bat": 1, "focus": 1}, "area": line}),
                 round=3, first=PSY, ruleset=rules.override({"dice.combat.faces": {"B": 6}}))
    choose(g, f"attack own area ({', '.join(line)}) with baseball_bat")
    assert g.decision == "card after the roll"
    assert baseline(g) == ("play focus" if plays else "keep the roll")


def test_spends_the_ammo_that_reaches_six_dice(rules):
    g = position(table(haggler={"inventory": {"pistol": 1, "gun_ammo": 8}, "area": ["monster"] * 3}),
                 round=3, first=HAG, ruleset=rules)
    choose(g, "attack own area (monster, monster, monster) with pistol")
    assert baseline(g) == "spend 6 ammo cards"


def test_discards_the_least_useful_card_to_a_raider(rules):
    """Raider damage discards a card of the player's choice: the baseline keeps its weapon
    and food and throws the craft material away."""
    g = position(table(psycho={"inventory": {"baseball_bat": 1, "canned_food": 1, "wire": 1},
                               "area": ["raider"]}),
                 round=3, first=PSY, ruleset=rules.override({"dice.combat.faces": {"H": 6}}))
    for _ in range(4):
        choose(g, "do nothing")
    assert g.decision == "card to discard" and g.to_move == PSY
    assert baseline(g) == "discard wire"


def test_gives_ammo_to_the_teammate_with_the_matching_weapon(rules):
    g = position(table(haggler={"inventory": {"knife": 1, "gun_ammo": 3}}), round=3, first=HAG,
                 ruleset=rules)
    assert baseline(g) == "give gun_ammo to trigger (seat 1)"


def test_search_phase_draws_and_crafts_a_barricade_first(rules):
    """In the search phase the baseline crafts a barricade when it can (score 100), else
    draws (50)."""
    g = position(table(psycho={"inventory": {"baseball_bat": 1, "planks": 1, "nails": 1}}), round=3,
                 phase="search", first=PSY, ruleset=rules)
    assert baseline(g) == "craft a barricade from planks + nails"
    g = position(table(), round=3, phase="search", first=PSY, ruleset=rules)
    assert baseline(g) == "draw a rubble card"
    assert g.view.g[K.G_PHASE] == K.PHASE_SEARCH
