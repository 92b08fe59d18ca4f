"""One scenario test per rule of Until Daylight's engine rules (docs/games/until-daylight.md) and the rulebook.

Each test sets a position up by hand, fixes the dice where the outcome depends on them
(a combat die made of one face only), plays the rule's step of the engine and asserts the
outcome the rule's text gives.  tests/RULES.md maps every rule to its test.

Two ways to build a position:
* ``GameState`` + a phase kernel (``gs.run``, ``attack_nb``, ...): the baseline policy takes
  the decisions (deterministic), edits of the state persist;
* ``step.position`` + ``Game.apply``: every decision is taken by the test, by name.
"""
from __future__ import annotations

import numpy as np
import pytest

from simlib.games.until_daylight.codes import STREAM_DICE
from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.kernels.game_nb import (
    attack_nb,
    draw_action_nb,
    horde_release_nb,
    resolve_event_nb,
)
from simlib.games.until_daylight.kernels.state_nb import xp_nb
from simlib.games.until_daylight.ruleset import load_ruleset
from simlib.games.until_daylight.state import GameState
from simlib.games.until_daylight.position import position

# no Pillar (absorbs for neighbours) and no Drifter (ignores damage): damage is plain
TEAM = ["hipster", "trigger", "haggler", "psycho"]
HIP, TRI, HAG, PSY = range(4)
AMMO = ("gun_ammo", "shotgun_shells", "arrows")  # the stacking cards
NO_EVENTS = {"rubble.noise.count": 0, "rubble.injury.count": 0, "rubble.lost_item.count": 0}


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("reference")


def die(rules, face, **extra):
    """The ruleset with a combat die showing ``face`` on every side (no red cards in the
    rubble deck, so reward draws never trigger an event)."""
    return rules.override({"dice.combat.faces": {face: 6}, **NO_EVENTS, **extra})


def new(rules, team=TEAM):
    return GameState.new(rules, players=len(team), characters=team)


def hold(gs, seat, cards):
    """``seat`` holds exactly ``cards`` (name -> count): its inventory goes back to the deck."""
    n = int(gs.g[K.G_RDECK_N])
    for c in np.flatnonzero(gs.inv[seat]):
        for _ in range(int(gs.inv[seat, c])):
            gs.rdeck[n] = c
            n += 1
        gs.inv[seat, c] = 0
    gs.g[K.G_RDECK_N] = n
    for name, k in cards.items():
        gs.give(seat, name, k)


def rig_deck(gs, names):
    """The rubble deck holds only ``names`` (the rest is set aside): the next draws are these."""
    gs.g[K.G_RDECK_N] = 0
    for i, name in enumerate(names):
        gs.rdeck[i] = gs.ruleset.card_id(name)
    gs.g[K.G_RDECK_N] = len(names)


def attack(gs, seat, area, weapon):
    """One attack by ``seat`` on ``area``'s area (baseline choices: all useful ammo, every
    bonus card, after-roll cards that help)."""
    attack_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp, seat, area, gs.ruleset.card_id(weapon))


def inv(gs, seat):
    r = gs.ruleset
    return {r.card_names[c]: int(k) for c, k in enumerate(gs.inv[seat]) if k > 0}


def xp(gs, seat):
    return int(xp_nb(gs.array, gs.rs, seat))


def table(**seats):
    """Step-mode seats of TEAM: ``table(psycho={...})`` overrides a seat's description."""
    return [dict({"character": c}, **seats.get(c, {})) for c in TEAM]


def choose(g, text):
    """Take the legal action named ``text`` (exactly one must match)."""
    acts = g.legal_actions()
    hits = [i for i, a in enumerate(acts) if a == text]
    assert len(hits) == 1, (text, acts)
    return g.apply(hits[0])


def choose_attack(g, area, weapon):
    cands = g.candidates()
    w = g.rules.card_id(weapon)
    hits = [i for i, row in enumerate(cands) if row[0] == K.A_ATTACK and row[1] == area and row[2] == w]
    assert len(hits) == 1, g.legal_actions()
    return g.apply(hits[0])


def attacks_offered(g):
    """(area, weapon name) of every attack candidate of the pending decision."""
    return {(int(r[1]), g.rules.card_names[int(r[2])]) for r in g.candidates() if r[0] == K.A_ATTACK}


def events(gs, kind):
    return [r for r in gs.events if r[0] == kind]


# =========================================================================== 1-2 setup
def test_setup_characters_weapons_health_xp_and_unpicked_weapons_in_rubble(rules):
    """2.1 'Each player picks a character, takes its basic weapon, health = character health,
    XP 0. Remaining basic weapons go into the rubble deck. No leader yet.'  1: 'Basic
    weapons of characters nobody picked are shuffled into the rubble deck at setup.'"""
    gs = new(rules)
    for s, name in enumerate(TEAM):
        weapon = rules.get(f"characters.{name}.basic_weapon")
        assert inv(gs, s) == {weapon: 1}
        assert gs.pl[s, K.PL_HEALTH] == rules.get(f"characters.{name}.health")
        assert xp(gs, s) == 0
    assert gs.g[K.G_LEADER] == -1
    deck = [rules.card_names[c] for c in gs.rdeck[:int(gs.g[K.G_RDECK_N])]]
    assert deck.count("crowbar") == 1 and deck.count("drifter_machete") == 1  # Pillar, Drifter unpicked
    for name in ("bow", "trigger_pistol", "knife", "baseball_bat"):
        assert deck.count(name) == 0
    assert len(deck) == 185 + 2


@pytest.mark.parametrize("players", [2, 7])
def test_player_counts_outside_3_to_6_are_an_error(rules, players):
    """1: 'Supported counts: 3-6. Any other count is a clear error.'"""
    seats = [{"character": c} for c in rules.character_names] + [{"character": "pillar"}]
    with pytest.raises(ValueError, match="players must be an integer from 3 to 6"):
        position(seats[:players], round=1, ruleset=rules)


# =========================================================================== 2.3 search phase
def test_search_timer_allows_2n_plus_or_minus_2_actions_at_least_1(rules):
    """2.3 'K = 2 * players + U{-2..2}, at least 1'."""
    seen = set()
    for seed in range(60):
        gs = GameState.new(rules, players=4, characters=TEAM, seed=seed)
        gs.run(K.PC_SEARCH_BEGIN, K.PC_SEARCH_TURN)
        seen.add(int(gs.g[K.G_SEARCH_K]))
    assert seen == {6, 7, 8, 9, 10}
    short = rules.override({"constants.search_timer.offset": -20})
    gs = GameState.new(short, players=4, characters=TEAM)
    gs.run(K.PC_SEARCH_BEGIN, K.PC_SEARCH_TURN)
    assert gs.g[K.G_SEARCH_K] == 1


def test_search_turns_go_clockwise_then_the_caught_player_starts_the_combat(rules):
    """2.3 'Players act one at a time, clockwise from the round's first player; one action
    each time.'  2.5 'Clockwise from the caught player, each player takes one action.'"""
    r = rules.override({"constants.search_timer.spread": 0, "dice.fate.faces": {"heal": 6}})
    g = position(table(), round=2, phase="search", first=2, ruleset=r)
    seats = []
    while g.decision == "search action":
        seats.append(g.to_move)
        choose(g, "do nothing")
    assert seats == [2, 3, 0, 1, 2, 3, 0, 1]  # K = 8 actions
    assert len(g.view.area_cards(2)) == 4 + 2  # the 9th actor (seat 2) is caught: the wave
    combat = []
    while g.decision == "combat action":
        combat.append(g.to_move)
        choose(g, "do nothing")
    assert combat == [2, 3, 0, 1]  # the caught player starts the combat


def test_the_next_round_starts_with_the_player_after_the_caught_one(rules):
    """2.3 'The next round's first player is the one after the caught player.'  K = 6 from
    seat 2 catches seat 0, so the answer (seat 1) differs from every near miss: the caught
    player (0), the same first player again (2), the one after the first (3)."""
    r = die(rules, "X", **{"constants.search_timer.spread": 0, "constants.search_timer.offset": -2,
                           "dice.fate.faces": {"heal": 6}})
    g = position(table(), round=2, phase="search", first=2, ruleset=r)
    seats = []
    while g.decision == "search action":
        seats.append(g.to_move)
        choose(g, "do nothing")
    assert seats == [2, 3, 0, 1, 2, 3] and g.view.g[K.G_CAUGHT] == 0
    while g.decision == "combat action":
        choose(g, "do nothing")
    assert g.decision == "search action" and g.view.g[K.G_ROUND] == 3
    seats = []
    while g.decision == "search action":
        seats.append(g.to_move)
        choose(g, "do nothing")
    assert seats == [1, 2, 3, 0, 1, 2]


def test_rounds_before_the_last_are_search_then_combat(rules):
    """2.2 'Rounds 1-9: search phase, then combat phase' - round 9 is not a final fight:
    one combat turn each, then round 10 begins with its search phase."""
    r = die(rules, "X", **{"constants.search_timer.spread": 0, "dice.fate.faces": {"heal": 6}})
    g = position(table(), round=9, phase="search", first=0, ruleset=r)
    phases = []
    for _ in range(8 + 4 + 1):
        phases.append(g.decision)
        choose(g, "do nothing")
    assert phases == ["search action"] * 8 + ["combat action"] * 4 + ["search action"]
    assert g.view.g[K.G_ROUND] == 10 and g.view.g[K.G_EXCHANGES] == 0


def test_draw_action_puts_the_card_in_the_inventory(rules):
    """2.3 'Actions: draw a rubble card' (rulebook: 'put the card in his inventory')."""
    gs = new(rules)
    rig_deck(gs, ["helmet"])
    draw_action_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp, HAG)
    assert inv(gs, HAG) == {"knife": 1, "helmet": 1}
    assert gs.g[K.G_RDECK_N] == 0


def test_inventory_over_its_limit_is_discarded_at_once_and_ammo_stacks(rules):
    """2.3 'Inventory over its limit must be discarded at once (not an action). Same-type
    ammo stacks in one slot.'"""
    gs = new(rules)
    full = {"baseball_bat": 1, "pistol": 1, "helmet": 4, "vest": 3, "gun_ammo": 5}  # 10 slots
    hold(gs, PSY, full)
    rig_deck(gs, ["gun_ammo"])
    draw_action_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp, PSY)
    assert inv(gs, PSY) == dict(full, gun_ammo=6) and gs.rdisc.sum() == 0  # stacked: no discard
    rig_deck(gs, ["canned_food"])
    draw_action_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp, PSY)
    # 11 slots: cards of the player's choice are discarded at once, back to 10 slots
    held = inv(gs, PSY)
    assert sum(1 if c in AMMO else k for c, k in held.items()) == 10
    gone = {rules.card_names[c]: int(k) for c, k in enumerate(gs.rdisc) if k > 0}
    assert {c: held.get(c, 0) + gone.get(c, 0) for c in set(held) | set(gone)} == \
        dict(full, gun_ammo=6, canned_food=1)


def test_a_player_may_give_part_of_an_ammo_stack(rules):
    """Rulebook: 'When a player gives some rubble card ammo, he may give the amount of
    ammunition cards he wishes, as long as they are of the same nature and in the same slot.'"""
    g = position(table(trigger={"inventory": {"trigger_pistol": 1, "gun_ammo": 4}}), round=3,
                 first=TRI, ruleset=rules)
    ammo = rules.card_id("gun_ammo")
    before = int(g.view.inv[HAG, ammo])
    choose(g, "give gun_ammo to haggler (seat 2)")
    assert g.decision == "cards of the stack" and g.to_move == TRI
    assert g.legal_actions() == ["1 card of the stack"] + [f"{k} cards of the stack" for k in (2, 3, 4)]
    choose(g, "3 cards of the stack")
    assert g.view.inv[TRI, ammo] == 1 and g.view.inv[HAG, ammo] == before + 3


def test_a_stack_longer_than_the_candidate_rows_offers_every_amount_it_can_and_all(rules):
    """A stack of more cards than the decision's rows (``codes.MAX_CANDS``): 1 to
    ``MAX_CANDS - 1`` cards, then the whole stack; every row used, none past them."""
    n = K.MAX_CANDS + 88
    g = position(table(trigger={"inventory": {"trigger_pistol": 1, "gun_ammo": n}}), round=3,
                 first=TRI, ruleset=rules.override({"rubble.gun_ammo.count": n + 10}))
    choose(g, "give gun_ammo to haggler (seat 2)")
    assert g.decision == "cards of the stack"
    amounts = [int(row[1]) for row in g.candidates()]
    assert amounts == list(range(1, K.MAX_CANDS)) + [n]
    choose(g, f"{n} cards of the stack")
    assert g.view.inv[TRI, rules.card_id("gun_ammo")] == 0


def test_the_baseline_gives_a_whole_stack_and_one_card_asks_no_amount(rules):
    """The amount is a decision only for a stack of 2 or more; the baseline gives it all."""
    g = position(table(trigger={"inventory": {"trigger_pistol": 1, "gun_ammo": 1}}), round=3,
                 first=TRI, ruleset=rules)
    choose(g, "give gun_ammo to haggler (seat 2)")
    assert g.decision != "cards of the stack" and g.view.inv[TRI, rules.card_id("gun_ammo")] == 0
    g = position(table(trigger={"inventory": {"trigger_pistol": 1, "gun_ammo": 3}}), round=3,
                 first=TRI, ruleset=rules)
    choose(g, "give gun_ammo to haggler (seat 2)")
    assert g.legal_actions()[g.policy_choice("baseline")] == "3 cards of the stack"


def test_give_and_take_move_one_card_between_players(rules):
    """2.3/2.5 'give a card; take a card (with agreement)' - one card from one player to
    another, one action each."""
    g = position(table(trigger={"inventory": {"trigger_pistol": 1, "helmet": 1}}), round=3,
                 first=TRI, ruleset=rules)
    choose(g, "give helmet to haggler (seat 2)")
    v = g.view
    assert v.inv[TRI, rules.card_id("helmet")] == 0 and v.inv[HAG, rules.card_id("helmet")] == 1
    assert g.to_move == HAG  # the give was the Trigger's action
    choose(g, "do nothing")  # the haggler
    choose(g, "take knife from haggler (seat 2)")  # the psycho takes, with agreement
    v = g.view
    assert v.inv[PSY, rules.card_id("knife")] == 1 and v.inv[HAG, rules.card_id("knife")] == 0
    assert g.to_move == HIP


def test_red_cards_resolve_at_once_when_drawn(rules):
    """2.3 'Red (event) cards resolve at once when drawn' (they never enter the inventory)."""
    gs = new(rules)
    rig_deck(gs, ["noise"])
    before = inv(gs, HAG)
    draw_action_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp, HAG)
    assert inv(gs, HAG) == before
    assert gs.rdisc[rules.card_id("noise")] == 1
    assert gs.pl[HAG, K.PL_AREA_N] == 1


# =========================================================================== 8 events
def test_event_noise_draws_a_horde_card_into_your_area(rules):
    """8 'noise 7 (draw 1 horde card into your area)'."""
    gs = new(rules)
    gs.set_area(HAG, ["brute"])
    deck = int(gs.g[K.G_HDECK_N])
    resolve_event_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp, HAG, rules.card_id("noise"))
    assert gs.pl[HAG, K.PL_AREA_N] == 2 and gs.area_cards(HAG)[0] == "brute"
    assert gs.g[K.G_HDECK_N] == deck - 1
    assert gs.pl[:4, K.PL_AREA_N].sum() == 2


def test_event_injury_deals_one_damage(rules):
    """8 'injury 4 (take 1 damage)'."""
    gs = new(rules)
    gs.give(HAG, "helmet")
    resolve_event_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp, HAG, rules.card_id("injury"))
    assert gs.pl[HAG, K.PL_HEALTH] == 4 - 1
    assert inv(gs, HAG) == {"knife": 1, "helmet": 1}  # a protection card is for enemy attacks


def test_event_lost_item_discards_one_card(rules):
    """8 'lost item 3 (discard 1)'."""
    gs = new(rules)
    hold(gs, HAG, {"knife": 1, "helmet": 1, "canned_food": 1})
    resolve_event_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp, HAG, rules.card_id("lost_item"))
    assert sum(inv(gs, HAG).values()) == 2
    assert gs.pl[HAG, K.PL_HEALTH] == 4


# =========================================================================== 2.4 horde release
@pytest.mark.parametrize("face", ["discard_card", "draw_card", "heal", "damage"])
def test_die_of_fate_faces_act_on_the_caught_player(rules, face):
    """8 'Die of Fate: ... active player discards 1 rubble card; draws 1 rubble card; heals
    1; takes 1 damage (rulebook)'."""
    gs = new(rules.override({"dice.fate.faces": {face: 6}, **NO_EVENTS}))
    gs.g[K.G_ROUND] = 3
    gs.g[K.G_CAUGHT] = PSY
    hold(gs, PSY, {"baseball_bat": 1, "helmet": 1})
    gs.pl[PSY, K.PL_HEALTH] = 4
    drawn = int(gs.g[K.G_RUBBLE_DRAWN])
    horde_release_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp)
    cards = sum(inv(gs, PSY).values())
    expect = {"discard_card": (1, 0, 4), "draw_card": (3, 1, 4), "heal": (2, 0, 5),
              "damage": (2, 0, 3)}[face]
    assert (cards, int(gs.g[K.G_RUBBLE_DRAWN]) - drawn, int(gs.pl[PSY, K.PL_HEALTH])) == expect
    assert gs.pl[PSY, K.PL_AREA_N] == 4 + 3  # the wave itself is not changed by these faces
    for s in (HIP, TRI, HAG):
        assert gs.pl[s, K.PL_HEALTH] == rules.get(f"characters.{TEAM[s]}.health")


@pytest.mark.parametrize("face, change", [("remove_enemy", -1), ("add_enemy", +1), ("heal", 0)])
def test_die_of_fate_removes_or_adds_one_enemy_to_the_wave(rules, face, change):
    """2.4 'Wave size = players + round number, then the caught player rolls the Die of
    Fate'; 8 'remove 1 enemy from the wave; add 1 enemy'.  Round 5, 4 players: 9 cards, 8
    after 'remove', 10 after 'add', 9 for the faces that do not touch the wave."""
    gs = new(rules.override({"dice.fate.faces": {face: 6}, **NO_EVENTS}))
    gs.g[K.G_ROUND] = 5
    gs.g[K.G_CAUGHT] = TRI
    deck = int(gs.g[K.G_HDECK_N])
    horde_release_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp)
    assert gs.pl[TRI, K.PL_AREA_N] == 4 + 5 + change
    assert deck - int(gs.g[K.G_HDECK_N]) == 4 + 5 + change


def test_wave_is_appended_after_the_enemies_left_in_the_area(rules):
    """2.4 'Cards are drawn in order and appended to the caught player's area.'  2.7
    'Enemies left stay and add to the next wave.'"""
    gs = new(rules.override({"dice.fate.faces": {"heal": 6}}))
    gs.g[K.G_ROUND] = 2
    gs.g[K.G_CAUGHT] = TRI
    gs.set_area(TRI, ["monster", "raider"])
    horde_release_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp)
    cards = gs.area_cards(TRI)
    assert len(cards) == 2 + 4 + 2 and cards[:2] == ["monster", "raider"]


# =========================================================================== 2.5 actions
def test_heal_cards_canned_food_medkit_and_bandage(rules):
    """8 'canned food 14 (heal 1, action), medkit 6 (heal 2, action), bandage 4 (heal 1, no
    action)'; never above the character's health."""
    g = position(table(psycho={"health": 2, "inventory": {"baseball_bat": 1, "bandage": 1,
                                                           "medkit": 1, "canned_food": 1}}),
                 round=3, first=PSY, ruleset=rules)
    choose(g, "use bandage")
    assert g.view.pl[PSY, K.PL_HEALTH] == 3 and g.to_move == PSY  # no action used: still its turn
    choose(g, "use medkit")
    assert g.view.pl[PSY, K.PL_HEALTH] == 5 and g.to_move == HIP  # the turn's action
    for _ in range(3):
        choose(g, "do nothing")
    while g.to_move != PSY:  # no enemy: the next round's search phase, up to the Psycho's turn
        assert g.decision == "search action"
        choose(g, "do nothing")
    choose(g, "use canned_food")
    assert g.view.pl[PSY, K.PL_HEALTH] == 6 and g.to_move != PSY
    assert g.view.inv[PSY].sum() == 1  # only the bat is left


def test_heal_never_goes_above_the_character_health(rules):
    """Heal restores lost health only: 'health = character health' is the maximum; a
    character at full health is not offered a heal."""
    g = position(table(psycho={"health": 5, "inventory": {"baseball_bat": 1, "medkit": 1}}),
                 round=3, first=PSY, ruleset=rules)
    choose(g, "use medkit")
    assert g.view.pl[PSY, K.PL_HEALTH] == 6
    g = position(table(psycho={"inventory": {"baseball_bat": 1, "medkit": 1}}), round=3,
                 first=PSY, ruleset=rules)
    assert "use medkit" not in g.legal_actions()


def test_craft_a_trap_and_a_barricade_spends_the_ingredients(rules):
    """2.3/8 'craft a trap or barricade ... trap: wire + blade; barricade: planks + nails'."""
    g = position(table(psycho={"inventory": {"baseball_bat": 1, "wire": 1, "blade": 1}},
                       haggler={"inventory": {"knife": 1, "planks": 1, "nails": 1}}),
                 round=3, first=HAG, ruleset=rules)
    choose(g, "craft a barricade from planks + nails")
    choose(g, "craft a trap from wire + blade")
    v = g.view
    assert v.pl[HAG, K.PL_BARRICADES] == 1 and inv(v, HAG) == {"knife": 1}
    assert v.pl[PSY, K.PL_TRAPS] == 1 and inv(v, PSY) == {"baseball_bat": 1}
    assert v.g[K.G_TRAP_SUPPLY] == 5 and v.g[K.G_BARR_SUPPLY] == 11


def test_at_most_two_protection_tokens_per_player(rules):
    """4 'Each player may hold at most 2 protection tokens (traps + barricades together).'"""
    mats = {"baseball_bat": 1, "wire": 1, "blade": 1, "planks": 1, "nails": 1}
    g = position(table(psycho={"inventory": mats, "traps": 1, "barricades": 1}), round=3,
                 first=PSY, ruleset=rules)
    assert not [a for a in g.legal_actions() if a.startswith("craft")]
    g = position(table(psycho={"inventory": mats, "traps": 1}), round=3, first=PSY, ruleset=rules)
    assert {a for a in g.legal_actions() if a.startswith("craft")} == {
        "craft a trap from wire + blade", "craft a barricade from planks + nails"}


def test_no_trap_can_be_crafted_when_the_supply_of_6_is_used_up(rules):
    """4 'Supply: 6 trap tokens, 12 barricade tokens.'"""
    mats = {"baseball_bat": 1, "wire": 1, "blade": 1, "planks": 1, "nails": 1}
    g = position(table(hipster={"traps": 2}, trigger={"traps": 2}, haggler={"traps": 2},
                       psycho={"inventory": mats}), round=3, first=PSY, ruleset=rules)
    assert [a for a in g.legal_actions() if a.startswith("craft")] == [
        "craft a barricade from planks + nails"]


def test_the_last_barricade_of_the_supply_can_be_crafted_and_then_none(rules):
    """4 'Supply: ... 12 barricade tokens': with one token left in the box a barricade can
    still be crafted; with none left, only the trap."""
    mats = {"baseball_bat": 1, "wire": 1, "blade": 1, "planks": 1, "nails": 1}
    for supply, held, crafts in ((2, 1, {"barricade", "trap"}), (1, 1, {"trap"})):
        g = position(table(hipster={"barricades": held}, psycho={"inventory": mats}), round=3, first=PSY,
                     ruleset=rules.override({"constants.barricade_supply": supply}))
        offered = {a.split()[2] for a in g.legal_actions() if a.startswith("craft")}
        assert offered == crafts, (supply, g.legal_actions())


def test_melee_into_another_area_is_forbidden_while_your_own_area_holds_an_enemy(rules):
    """3 'Melee into another player's area is not allowed while the attacker's own area holds
    any enemy.' (distance weapons may; a survivor is not an enemy)."""
    psy = {"inventory": {"baseball_bat": 1, "pistol": 1, "gun_ammo": 2}, "area": ["wanderer"]}
    g = position(table(psycho=psy, haggler={"area": ["brute"]}), round=3, first=PSY, ruleset=rules)
    assert attacks_offered(g) == {(PSY, "baseball_bat"), (PSY, "pistol"), (HAG, "pistol")}
    psy["area"] = ["survivor"]
    g = position(table(psycho=psy, haggler={"area": ["brute"]}), round=3, first=PSY, ruleset=rules)
    assert attacks_offered(g) == {(HAG, "baseball_bat"), (HAG, "pistol")}


# =========================================================================== 3 attacks
def test_six_dice_rule_ammo_beyond_six_dice_is_not_spent(rules):
    """3 'never more than 6 (the 6-dice rule). Ammo spent beyond 6 dice is not spent.'
    Rulebook: '7 gun ammo will only give you 6 attack dice.'"""
    g = position(table(haggler={"inventory": {"pistol": 1, "gun_ammo": 7}, "area": ["wanderer"] * 8}),
                 round=3, first=HAG, ruleset=die(rules, "H"))
    choose_attack(g, HAG, "pistol")
    assert g.legal_actions() == [f"spend {k} ammo card{'s' if k > 1 else ''}" for k in range(1, 7)]
    choose(g, "spend 6 ammo cards")
    v = g.view
    assert inv(v, HAG) == {"pistol": 1, "gun_ammo": 1}
    assert v.area_cards(HAG) == ["wanderer"] * 2  # 6 heads, 6 kills


def test_six_dice_cap_holds_with_bonus_cards(rules):
    """8 'bloodlust (+2 dice, melee only) - the 6-dice cap still holds': chainsaw 4 +
    Psycho 1 + bloodlust 2 = 7 dice, rolled as 6."""
    gs = new(die(rules, "H"))
    hold(gs, PSY, {"chainsaw": 1, "bloodlust": 1})
    gs.set_area(PSY, ["wanderer"] * 8)
    attack(gs, PSY, PSY, "chainsaw")
    assert gs.area_cards(PSY) == ["wanderer"] * 2
    assert inv(gs, PSY) == {"chainsaw": 1}  # bloodlust discarded after the attack


def test_vitality_adds_a_die_to_any_weapon_bloodlust_only_to_melee(rules):
    """8 'vitality! 4 (+1 die), bloodlust 4 (+2 dice, melee only)'."""
    gs = new(die(rules, "H"))
    hold(gs, HAG, {"pistol": 1, "gun_ammo": 1, "vitality": 1, "bloodlust": 1})
    gs.set_area(HAG, ["wanderer"] * 5)
    attack(gs, HAG, HAG, "pistol")
    assert len(gs.area_cards(HAG)) == 5 - 2  # 1 ammo + vitality
    assert inv(gs, HAG) == {"pistol": 1, "bloodlust": 1}  # bloodlust was not playable
    hold(gs, HAG, {"knife": 1, "bloodlust": 1})
    attack(gs, HAG, HAG, "knife")
    assert len(gs.area_cards(HAG)) == 3 - 3  # knife 1 + bloodlust 2


@pytest.mark.parametrize("weapon, ammo, dice", [
    ("pistol", {"gun_ammo": 6}, 6), ("rifle", {"gun_ammo": 2}, 3), ("shotgun", {"shotgun_shells": 2}, 4),
    ("machete", {}, 2), ("axe", {}, 3), ("chainsaw", {}, 4), ("knife", {}, 1),
    ("crowbar", {}, 2), ("bow", {"arrows": 3}, 3), ("trigger_pistol", {"gun_ammo": 2}, 2),
    ("drifter_machete", {}, 2), ("baseball_bat", {}, 2)])
def test_each_weapon_rolls_its_dice(rules, weapon, ammo, dice):
    """8 weapons: 'pistol 3, shotgun 2 (shells), rifle 2 (gun ammo, +1 die), machete 3 (2
    dice), axe 2 (3 dice), chainsaw 1 (4 dice)'; ammo: 'gun ammo (1 die each), shotgun
    shells (2 dice each), arrows (1 die)'; the basic weapons of section 8's table.  Rolled
    by the Haggler (no dice modifier), all heads, into 8 Wanderers."""
    gs = new(die(rules, "H"))
    seat = HAG
    for s in range(4):
        hold(gs, s, {})  # the other basic weapons back to the deck
    hold(gs, seat, {weapon: 1, **ammo})
    gs.set_area(seat, ["wanderer"] * 8)
    attack(gs, seat, seat, weapon)
    assert len(gs.area_cards(seat)) == 8 - dice
    assert inv(gs, seat) == {weapon: 1}  # the weapon is kept, the ammo spent


def test_ordered_damage_five_bodies_stop_at_the_brute(rules):
    """3 'The first enemy must be eliminated before any damage passes to the next; once the
    available damage cannot eliminate the current enemy, it all lands there and the attack
    stops.'  Rulebook example: 5 body damage on Raider, Brute, ... - only the Raider dies."""
    line = ["raider", "brute", "wanderer", "wanderer", "monster", "raider", "raider", "wanderer",
            "monster", "brute"]
    gs = new(die(rules, "B"))
    hold(gs, HAG, {"pistol": 1, "gun_ammo": 5})
    gs.set_area(HAG, line)
    attack(gs, HAG, HAG, "pistol")
    assert gs.area_cards(HAG) == line[1:]
    assert gs.killed[rules.enemy_id("raider")] == 1


def test_body_pairs_never_make_a_head(rules):
    """3 'Kill needs: Raider and Wanderer 1H or 2B; Brute 1H; Monster 2H. Body pairs never
    make a head.'"""
    gs = new(die(rules, "B"))
    hold(gs, HAG, {"pistol": 1, "gun_ammo": 6})
    gs.set_area(HAG, ["monster", "wanderer"])
    attack(gs, HAG, HAG, "pistol")
    assert gs.area_cards(HAG) == ["monster", "wanderer"]
    gs.set_area(HAG, ["wanderer", "raider", "brute"])
    hold(gs, HAG, {"pistol": 1, "gun_ammo": 6})
    attack(gs, HAG, HAG, "pistol")
    assert gs.area_cards(HAG) == ["brute"]  # 2B + 2B, then 2B cannot kill the Brute


def test_a_monster_needs_two_heads(rules):
    """3 'Kill needs: ... Monster 2H.'  One head (a knife) lands on the Monster and the
    attack stops; two heads in one attack (a bat) kill it, a third kills the Wanderer."""
    gs = new(die(rules, "H"))
    gs.set_area(HAG, ["monster", "wanderer"])
    attack(gs, HAG, HAG, "knife")
    assert gs.area_cards(HAG) == ["monster", "wanderer"]
    gs.set_area(PSY, ["monster", "wanderer", "wanderer"])
    attack(gs, PSY, PSY, "baseball_bat")  # the Psycho: 2 + 1 dice
    assert gs.area_cards(PSY) == ["wanderer"]
    assert gs.kept[PSY, rules.enemy_id("monster")] == 1


def test_assignment_keeps_heads_for_what_only_heads_kill_and_focus_turns_b_into_h(rules):
    """3 'on a Raider/Wanderer spend 2B if available, else 1H ... A focus card turns one B
    into one H.'  Bat 2 + Psycho 1 = 3 bodies, focus: 1H 2B kill Wanderer (2B) and Brute (H)."""
    gs = new(die(rules, "B"))
    hold(gs, PSY, {"baseball_bat": 1, "focus": 1})
    gs.set_area(PSY, ["wanderer", "brute", "wanderer"])
    attack(gs, PSY, PSY, "baseball_bat")
    assert gs.area_cards(PSY) == ["wanderer"]
    assert "focus" not in inv(gs, PSY)


def test_energy_shot_turns_an_x_into_a_b(rules):
    """8 'energy shot 5 (one X becomes B)' - two energy shots on 3 misses: 2B kill a Wanderer."""
    gs = new(die(rules, "X"))
    hold(gs, PSY, {"baseball_bat": 1, "energy_shot": 2})
    gs.set_area(PSY, ["wanderer", "wanderer"])
    attack(gs, PSY, PSY, "baseball_bat")
    assert gs.area_cards(PSY) == ["wanderer"]
    assert inv(gs, PSY) == {"baseball_bat": 1}


def test_lucky_rerolls_each_x_once(rules):
    """8 'lucky 5 (reroll each of your X once)': the Psycho's bat rolls 3 X; lucky rerolls
    the 3 dice - the dice stream moves exactly as for one roll of 6 dice (chainsaw 4 +
    Psycho 1 + vitality 1), and the card is spent."""
    r = die(rules, "X")
    streams = {}
    for cards in ({"baseball_bat": 1, "lucky": 1}, {"chainsaw": 1, "vitality": 1}, {"baseball_bat": 1}):
        gs = new(r)
        hold(gs, PSY, cards)
        gs.set_area(PSY, ["wanderer", "wanderer"])
        attack(gs, PSY, PSY, next(iter(cards)))
        assert inv(gs, PSY) == {next(iter(cards)): 1} and gs.area_cards(PSY) == ["wanderer"] * 2
        streams[len(streams)] = int(gs.rng[STREAM_DICE])
    assert streams[0] == streams[1] != streams[2]


def test_lucky_is_offered_after_the_roll_while_x_are_showing(rules):
    """8 'combat, after the roll: ... lucky 5 (reroll each of your X once)'."""
    g = position(table(psycho={"inventory": {"baseball_bat": 1, "lucky": 1}, "area": ["wanderer"] * 2}),
                 round=3, first=PSY, ruleset=die(rules, "X"))
    choose_attack(g, PSY, "baseball_bat")
    assert g.decision == "card after the roll" and g.legal_actions() == ["keep the roll", "play lucky"]
    assert g.view.g[K.G_CUR_X] == 3
    choose(g, "play lucky")
    assert g.view.inv[PSY, rules.card_id("lucky")] == 0 and g.to_move == HIP


def test_each_x_is_rerolled_once_so_a_second_lucky_card_waits_for_another_attack(rules):
    """8 'lucky 5 (reroll each of your X once)'.  The rulebook lets a player use every
    lucky card held during the turn ('You can use all energy shots, vitality!, focus and
    lucky cards that you have, but only during your turn'); the engine reads the card's
    'each of your X once' as a limit per attack: the X of one roll are rerolled at most
    once, so with two lucky cards and X still showing after the first reroll, the second
    card is not offered in this attack and stays in hand for a later one (a choice of this
    engine where the two texts meet; see tests/RULES.md)."""
    g = position(table(psycho={"inventory": {"baseball_bat": 1, "lucky": 2}, "area": ["wanderer"] * 2}),
                 round=3, first=PSY, ruleset=die(rules, "X"))
    choose_attack(g, PSY, "baseball_bat")
    choose(g, "play lucky")
    assert g.view.g[K.G_CUR_X] == 3  # the reroll showed X again (an all-X die)
    assert "play lucky" not in (g.legal_actions() if g.decision == "card after the roll" else [])
    assert g.view.inv[PSY, rules.card_id("lucky")] == 1


def test_adrenaline_gives_one_more_attack_and_damage_resets_between_attacks(rules):
    """8 'adrenaline 3 (one more attack this turn, with new cards)'; 3 'Damage resets after
    each attack.'  Knife: 1 head per attack on a Monster (2H) - two attacks never kill it."""
    g = position(table(haggler={"inventory": {"knife": 1, "adrenaline": 1}, "area": ["monster"]}),
                 round=3, first=HAG, ruleset=die(rules, "H"))
    choose_attack(g, HAG, "knife")
    assert g.decision == "adrenaline attack"
    choose(g, "attack own area (monster) with knife (adrenaline)")
    v = g.view
    assert v.area_cards(HAG) == ["monster"]  # 1H + 1H in two attacks: not 2H
    assert inv(v, HAG) == {"knife": 1} and g.to_move == PSY


def test_survivors_are_skipped_by_player_attacks_by_default(rules):
    """3 'default: player attacks skip survivors (they are not enemies)'."""
    gs = new(die(rules, "H"))
    gs.set_area(HAG, ["survivor", "wanderer", "wanderer"])
    attack(gs, HAG, HAG, "knife")
    assert gs.area_cards(HAG) == ["survivor", "wanderer"]


def test_survivors_block_attacks_variant(rules):
    """3 'Variant survivors_block_attacks: a survivor counts as a target that dies to any
    damage.'"""
    gs = new(die(rules, "B", **{"variants.survivors_block_attacks": True}))
    hold(gs, PSY, {"baseball_bat": 1})
    gs.set_area(PSY, ["survivor", "wanderer", "wanderer"])
    attack(gs, PSY, PSY, "baseball_bat")  # 3 bodies: 1B on the survivor, 2B on a Wanderer
    assert gs.area_cards(PSY) == ["wanderer"]


def test_collateral_each_x_into_another_area_deals_one_damage_straight_to_health(rules):
    """3 'Each X rolled with a distance weapon into another player's area deals 1 damage to
    that player. default: straight to health.'"""
    gs = new(die(rules, "X"))
    hold(gs, HAG, {"pistol": 1, "gun_ammo": 3})
    gs.give(PSY, "helmet")
    gs.set_area(PSY, ["wanderer"])
    attack(gs, HAG, PSY, "pistol")
    assert gs.pl[PSY, K.PL_HEALTH] == 6 - 3
    assert gs.inv[PSY, rules.card_id("helmet")] == 1  # not through protection cards
    assert gs.pl[HAG, K.PL_HEALTH] == 4 and gs.pl[HAG, K.PL_COLLATERAL] == 3


def test_collateral_is_not_absorbed_by_a_saved_survivor(rules):
    """3 'default: straight to health': the target is not asked to sacrifice a saved
    survivor (rulebook p. 200 lets a survivor absorb damage; collateral goes past it)."""
    g = position(table(haggler={"inventory": {"pistol": 1, "gun_ammo": 2}},
                       psycho={"area": ["wanderer"], "saved": {"survivor": 1}}),
                 round=3, first=HAG, ruleset=die(rules, "X"))
    health = int(g.view.pl[PSY, K.PL_HEALTH])
    choose_attack(g, PSY, "pistol")
    while g.decision in ("ammo to spend", "card before the roll", "card after the roll",
                         "sacrifice a saved survivor?"):
        assert g.decision != "sacrifice a saved survivor?", g.describe()
        g.apply(len(g.legal_actions()) - 1)  # all the ammo
    assert g.view.pl[PSY, K.PL_HEALTH] == health - 2
    assert g.view.kept[PSY, rules.enemy_id("survivor")] == 1


def test_collateral_that_ends_the_game_stops_the_attack_there(rules):
    """3 The game ends when a player dies: collateral that kills the area's owner ends the
    attack there, the infected it killed are not tamed (game 1 of this die: 2 B and 1 X;
    with the owner's health above 1 the same roll tames one Wanderer, the control)."""
    rs = rules.override({"dice.combat.faces": {"B": 4, "X": 2}, **NO_EVENTS})
    for health, over, tamed in ((6, 0, ["wanderer"]), (1, 1, [])):
        gs = GameState.new(rs, players=len(TEAM), characters=TEAM, game=1)
        hold(gs, HAG, {"pistol": 1, "gun_ammo": 3})
        gs.set_area(PSY, ["wanderer"] * 4)
        gs.set_area(HAG, [])
        gs.pl[PSY, K.PL_HEALTH] = health
        attack(gs, HAG, PSY, "pistol")
        assert gs.pl[PSY, K.PL_HEALTH] == health - 1 and gs.area_cards(PSY) == ["wanderer"] * (3 - len(tamed))
        assert (gs.g[K.G_OVER] != 0) == bool(over) and gs.area_cards(HAG) == tamed, health


def test_collateral_into_your_own_area_and_melee_collateral_do_not_exist(rules):
    """3 'Melee never causes collateral'; collateral is for another player's area only."""
    gs = new(die(rules, "X"))
    hold(gs, PSY, {"baseball_bat": 1, "pistol": 1, "gun_ammo": 3})
    gs.set_area(HAG, ["wanderer"])
    attack(gs, PSY, HAG, "baseball_bat")
    assert gs.pl[HAG, K.PL_HEALTH] == 4
    gs.set_area(PSY, ["wanderer"])
    attack(gs, PSY, PSY, "pistol")
    assert gs.pl[PSY, K.PL_HEALTH] == 6
    assert gs.pl[PSY, K.PL_COLLATERAL] == 0


def test_taming_firearm_moves_as_many_infected_as_were_eliminated(rules):
    """3 'After attacking another player's area with a firearm ... move as many infected as
    were eliminated, taken from the front of what remains there, to the end of the
    attacker's area. Raiders and survivors do not move.'"""
    gs = new(die(rules, "H"))
    hold(gs, HAG, {"pistol": 1, "gun_ammo": 2})
    gs.set_area(HAG, ["raider"])
    gs.set_area(PSY, ["wanderer", "brute", "raider", "survivor", "wanderer", "monster", "brute"])
    attack(gs, HAG, PSY, "pistol")  # 2 heads: the first Wanderer and the Brute die
    assert gs.area_cards(PSY) == ["raider", "survivor", "brute"]
    assert gs.area_cards(HAG) == ["raider", "wanderer", "monster"]


def test_taming_melee_into_another_area(rules):
    """3 'with a firearm or melee weapon': the Psycho's bat (3 heads) kills 3 Wanderers in
    the Haggler's area; 3 infected follow it home."""
    gs = new(die(rules, "H"))
    gs.set_area(HAG, ["wanderer"] * 3 + ["raider", "brute", "monster", "wanderer", "wanderer"])
    attack(gs, PSY, HAG, "baseball_bat")
    assert gs.area_cards(HAG) == ["raider", "wanderer"]
    assert gs.area_cards(PSY) == ["brute", "monster", "wanderer"]


def test_a_silent_weapon_does_not_tame_the_horde(rules):
    """3 'After attacking another player's area with a firearm or melee weapon (not a
    silent weapon such as a bow), move as many infected as were eliminated'.  The bow is
    neither, so the silent flag decides only for a silent melee weapon or firearm: the
    Psycho's bat made silent kills the 3 Wanderers of test_taming_melee_into_another_area,
    and none follows it home."""
    gs = new(die(rules, "H"))
    hold(gs, HIP, {"bow": 1, "arrows": 1})
    gs.set_area(PSY, ["wanderer", "brute"])
    attack(gs, HIP, PSY, "bow")
    assert gs.area_cards(PSY) == ["brute"] and gs.area_cards(HIP) == []
    gs = new(die(rules, "H", **{"rubble.basic_weapons.baseball_bat.silent": True}))
    gs.set_area(HAG, ["wanderer"] * 3 + ["raider", "brute", "monster", "wanderer", "wanderer"])
    attack(gs, PSY, HAG, "baseball_bat")
    assert gs.area_cards(HAG) == ["raider", "brute", "monster", "wanderer", "wanderer"]
    assert gs.area_cards(PSY) == []


def test_killed_raiders_do_not_tame_the_horde(rules):
    """3 'move as many infected as were eliminated' - a Raider is not infected."""
    gs = new(die(rules, "H"))
    hold(gs, HAG, {"pistol": 1, "gun_ammo": 1})
    gs.set_area(PSY, ["raider", "wanderer"])
    attack(gs, HAG, PSY, "pistol")
    assert gs.area_cards(PSY) == ["wanderer"] and gs.area_cards(HAG) == []


def test_kill_rewards_rubble_cards_xp_and_kept_monster(rules):
    """3 'Eliminated: Raider +1 rubble card, Brute +1 rubble card, Monster +2 rubble cards
    and +1 XP (card kept). Wanderer nothing.'  6 'The leader is whoever first holds
    strictly more XP' - the Monster's XP makes its killer the leader."""
    gs = new(die(rules, "H"))
    hold(gs, HAG, {"pistol": 1, "gun_ammo": 6})
    gs.set_area(HAG, ["wanderer", "raider", "brute", "monster", "wanderer"])
    drawn = int(gs.g[K.G_RUBBLE_DRAWN])
    disc = gs.hdisc.copy()
    attack(gs, HAG, HAG, "pistol")
    assert gs.area_cards(HAG) == []
    assert int(gs.g[K.G_RUBBLE_DRAWN]) - drawn == 1 + 1 + 2
    assert sum(inv(gs, HAG).values()) == 1 + 4  # the pistol and the four rewards
    monster = rules.enemy_id("monster")
    assert gs.kept[HAG, monster] == 1 and gs.hdisc[monster] == disc[monster]
    assert (gs.hdisc - disc)[[rules.enemy_id(e) for e in ("wanderer", "raider", "brute")]].tolist() == [2, 1, 1]
    assert xp(gs, HAG) == 1 + inv(gs, HAG).get("symbol", 0) and gs.g[K.G_LEADER] == HAG


# =========================================================================== 4 traps, barricades
def test_traps_fire_before_the_enemies_attack(rules):
    """2.6 'Traps fire, then enemies attack'; 4 'each trap in an area with at least one enemy
    deals 1H to the first enemy ... and returns to the supply'.  Rulebook: the Brute is
    eliminated by the trap before it attacks."""
    gs = new(die(rules, "H"))
    gs.g[K.G_CAUGHT] = PSY
    gs.pl[PSY, K.PL_TRAPS] = 1
    gs.g[K.G_TRAP_SUPPLY] -= 1
    gs.set_area(PSY, ["brute", "wanderer"])
    gs.run(K.PC_TRAPS, K.PC_SAVE)
    assert gs.area_cards(PSY) == ["wanderer"]
    assert gs.pl[PSY, K.PL_HEALTH] == 6 - 1  # only the Wanderer attacked
    assert gs.pl[PSY, K.PL_TRAPS] == 0 and gs.g[K.G_TRAP_SUPPLY] == 6


def test_two_traps_in_one_area_kill_a_monster(rules):
    """1 'Two traps in one area kill a Monster (each trap deals 1 head; damage from traps of
    the same trap step adds up).'"""
    gs = new(die(rules, "H"))
    gs.g[K.G_CAUGHT] = PSY
    gs.pl[PSY, K.PL_TRAPS] = 2
    gs.g[K.G_TRAP_SUPPLY] -= 2
    gs.set_area(PSY, ["monster"])
    gs.run(K.PC_TRAPS, K.PC_SAVE)
    assert gs.area_cards(PSY) == [] and gs.pl[PSY, K.PL_HEALTH] == 6
    assert gs.killed[rules.enemy_id("monster")] == 1 and gs.g[K.G_TRAP_SUPPLY] == 6


def test_one_trap_does_not_kill_a_monster_but_is_spent(rules):
    """Rulebook: 'If the enemy had been a Monster, the trap would have caused it only 1 head
    damage ... The trap is discarded nonetheless.'"""
    gs = new(die(rules, "X"))
    gs.g[K.G_CAUGHT] = PSY
    gs.pl[PSY, K.PL_TRAPS] = 1
    gs.g[K.G_TRAP_SUPPLY] -= 1
    gs.set_area(PSY, ["survivor", "monster"])
    gs.run(K.PC_TRAPS, K.PC_SAVE)
    assert gs.area_cards(PSY) == ["survivor", "monster"]
    assert gs.pl[PSY, K.PL_TRAPS] == 0 and gs.g[K.G_TRAP_SUPPLY] == 6


def test_barricade_is_hit_after_survivors_and_destroyed_by_two_bodies(rules):
    """4 'A barricade absorbs enemy damage after survivors: destroyed by 1H or 2B.'"""
    gs = new(die(rules, "B"))
    gs.g[K.G_CAUGHT] = PSY
    gs.pl[PSY, K.PL_BARRICADES] = 1
    gs.g[K.G_BARR_SUPPLY] -= 1
    gs.set_area(PSY, ["survivor", "wanderer", "wanderer", "wanderer"])
    gs.run(K.PC_ENEMIES, K.PC_SAVE)  # 3 bodies: the survivor, then 2 on the barricade
    assert gs.area_cards(PSY) == ["wanderer"] * 3
    assert gs.pl[PSY, K.PL_BARRICADES] == 0 and gs.g[K.G_BARR_SUPPLY] == 12
    assert gs.pl[PSY, K.PL_HEALTH] == 6


def test_one_body_does_not_break_a_barricade_two_do(rules):
    """4 'A barricade absorbs enemy damage after survivors: destroyed by 1H or 2B.'  One B
    leaves it standing (and is lost: odd bodies); 3 B on two barricades break one and lose
    the third B - not two barricades, and no damage to the character."""
    gs = new(die(rules, "B"))
    gs.g[K.G_CAUGHT] = PSY
    gs.pl[PSY, K.PL_BARRICADES] = 1
    gs.g[K.G_BARR_SUPPLY] -= 1
    gs.set_area(PSY, ["wanderer"])  # 1 die: one body
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.pl[PSY, K.PL_BARRICADES] == 1 and gs.g[K.G_BARR_SUPPLY] == 11
    assert gs.pl[PSY, K.PL_HEALTH] == 6
    gs.pl[PSY, K.PL_BARRICADES] = 2
    gs.g[K.G_BARR_SUPPLY] -= 1
    gs.set_area(PSY, ["wanderer"] * 3)  # 3 bodies in one batch
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.pl[PSY, K.PL_BARRICADES] == 1 and gs.g[K.G_BARR_SUPPLY] == 11
    assert gs.pl[PSY, K.PL_HEALTH] == 6


# =========================================================================== 5 enemies' attack
def test_each_enemy_rolls_its_dice(rules):
    """5 'Dice per enemy: Raider 2, Wanderer 1, Brute 2, Monster 3.' (all heads: 1 damage per
    die)"""
    gs = new(die(rules, "H"))
    for s, enemy in enumerate(["brute", "raider", "wanderer", "monster"]):
        gs.set_area(s, [enemy])
    hold(gs, TRI, {})
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    lost = [rules.get(f"characters.{c}.health") - int(gs.pl[s, K.PL_HEALTH]) for s, c in enumerate(TEAM)]
    assert lost == [2, 2, 1, 3]


def test_enemy_dice_are_rolled_in_batches_of_six_in_card_order(rules):
    """5 'Dice are rolled in batches of at most 6, in card order, each batch resolved at
    once; odd B results are lost at the end of a batch.'  Rulebook's infected example:
    6 Wanderers, 2 Survivors, 1 Monster, 2 Brutes = 13 dice: batches 6, 6, 1."""
    gs = new(die(rules, "B"))
    gs.set_area(PSY, ["wanderer"] * 6 + ["survivor"] * 2 + ["monster", "brute", "brute"])
    gs.g[K.G_CAUGHT] = PSY
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    rolls = events(gs, K.EV_ENEMY_ROLL)
    assert [int(r[5]) for r in rolls] == [6, 6, 1]  # bodies per batch
    # batch 1: 2 bodies kill the survivors, 4 make 2 damage; batch 2: 3; batch 3: 1 B lost
    assert gs.pl[PSY, K.PL_HEALTH] == 6 - 5
    assert "survivor" not in gs.area_cards(PSY)


def test_odd_bodies_in_one_batch_are_lost(rules):
    """1 'Odd body results in an enemy batch are lost (3 body in one batch = 1 damage).'"""
    gs = new(die(rules, "B"))
    gs.set_area(PSY, ["wanderer"] * 3)
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.pl[PSY, K.PL_HEALTH] == 6 - 1


def test_infected_hit_survivors_first_raiders_do_not(rules):
    """5 'Survivor: dies to 1H or 1B (any damage). Infected hit survivors; raiders do not.'"""
    gs = new(die(rules, "H"))
    gs.set_area(PSY, ["survivor", "wanderer", "survivor", "wanderer", "wanderer"])
    gs.set_area(HAG, ["survivor", "raider"])
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.area_cards(PSY) == ["wanderer"] * 3 and gs.pl[PSY, K.PL_HEALTH] == 6 - 1
    assert gs.area_cards(HAG) == ["survivor", "raider"] and gs.pl[HAG, K.PL_HEALTH] == 4 - 2


def test_a_raider_x_kills_a_survivor_in_its_area(rules):
    """5 'Raider X: kills one survivor in that area (collateral), if any.'"""
    gs = new(die(rules, "X"))
    gs.set_area(HAG, ["survivor", "survivor", "survivor", "raider"])
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.area_cards(HAG) == ["survivor", "raider"] and gs.pl[HAG, K.PL_HEALTH] == 4


def test_each_damage_from_a_raider_discards_a_rubble_card(rules):
    """5 'Character: 1 damage per H and per 2B. Each damage from a raider also discards one
    rubble card of the player's choice.'  (Infected damage does not.)"""
    gs = new(die(rules, "H"))
    hold(gs, PSY, {"baseball_bat": 1, "canned_food": 1, "wire": 1})
    hold(gs, HIP, {"bow": 1, "canned_food": 1, "wire": 1})
    gs.set_area(PSY, ["raider"])
    gs.set_area(HIP, ["brute"])
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.pl[PSY, K.PL_HEALTH] == 6 - 2 and sum(inv(gs, PSY).values()) == 1
    assert gs.pl[HIP, K.PL_HEALTH] == 5 - 2 and sum(inv(gs, HIP).values()) == 3


@pytest.mark.parametrize("card", ["helmet", "vest"])
def test_protection_card_absorbs_one_damage_then_is_discarded(rules, card):
    """5 'Protection card: absorbs 1 damage, then discarded'; 8 'helmet 4, vest 4 (absorb 1,
    discarded)'."""
    gs = new(die(rules, "H"))
    gs.give(PSY, card)
    gs.set_area(PSY, ["brute"])
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.pl[PSY, K.PL_HEALTH] == 6 - 1 and inv(gs, PSY) == {"baseball_bat": 1}


def test_a_saved_survivor_can_be_sacrificed_to_absorb_one_damage(rules):
    """5 'A player may sacrifice a saved survivor to absorb 1 damage (policy decision).'"""
    g = position(table(haggler={"area": ["wanderer"], "saved": {"survivor": 1}}), round=3,
                 first=HAG, ruleset=die(rules, "H"))
    assert g.view.g[K.G_LEADER] == HAG and xp(g.view, HAG) == 1  # 6 '+1 XP per survivor saved'
    for _ in range(4):
        choose(g, "do nothing")
    assert g.decision == "sacrifice a saved survivor?" and g.to_move == HAG
    choose(g, "sacrifice a saved survivor")
    v = g.view
    assert v.pl[HAG, K.PL_HEALTH] == 4 and v.kept[HAG].sum() == 0 and v.pl[HAG, K.PL_SACRIFICED] == 1
    assert xp(v, HAG) == 0


# =========================================================================== 6 XP
def test_symbol_gives_xp_while_held_and_it_is_lost_when_the_card_leaves(rules):
    """6 '+1 XP per symbol card held (lost when the card leaves)'."""
    g = position(table(trigger={"inventory": {"trigger_pistol": 1, "symbol": 1}}), round=3,
                 first=TRI, ruleset=rules)
    assert xp(g.view, TRI) == 1 and g.view.g[K.G_LEADER] == TRI
    choose(g, "give symbol to haggler (seat 2)")
    v = g.view
    assert xp(v, TRI) == 0 and xp(v, HAG) == 1
    assert v.g[K.G_LEADER] == HAG  # strictly more than the leader's XP (now 0)


def test_pickpocket_takes_a_card_from_a_player_and_gives_xp(rules):
    """8 'pickpocket 3 (take a card from a player, +1 XP)'."""
    g = position(table(psycho={"inventory": {"baseball_bat": 1, "pickpocket": 1}},
                       haggler={"inventory": {"knife": 1, "helmet": 1}}), round=3, first=PSY,
                 ruleset=rules)
    choose(g, "use pickpocket")
    assert g.decision == "card to pickpocket"
    choose(g, "take helmet from haggler (seat 2)")
    v = g.view
    assert inv(v, PSY) == {"baseball_bat": 1, "helmet": 1} and inv(v, HAG) == {"knife": 1}
    assert xp(v, PSY) == 1 and v.g[K.G_LEADER] == PSY


# =========================================================================== characters
def test_pillar_absorbs_one_damage_per_round_and_two_as_leader(rules):
    """8 Pillar: 'absorbs 1 damage per round for an adjacent player' (advantage doubled while
    leader)."""
    team = ["pillar", "hipster", "trigger", "haggler"]
    for leader, absorbed in ((-1, 1), (0, 2)):
        gs = GameState.new(die(rules, "H"), players=4, characters=team)
        gs.g[K.G_LEADER] = leader
        gs.set_area(1, ["wanderer"] * 3)  # the Hipster, next to the Pillar
        gs.set_area(3, ["wanderer"])  # the Haggler, also next to the Pillar
        gs.run(K.PC_ENEMIES, K.PC_SAVE)
        lost = 5 - int(gs.pl[1, K.PL_HEALTH]) + 4 - int(gs.pl[3, K.PL_HEALTH])
        assert lost == 4 - absorbed and gs.pl[0, K.PL_ABSORBED] == absorbed


@pytest.mark.parametrize("seat, absorbed", [(1, 1), (3, 1), (2, 0)])
def test_pillar_absorbs_for_either_neighbour_not_across_the_table(rules, seat, absorbed):
    """8 Pillar: 'absorbs 1 damage per round for an adjacent player' - the player on its
    left and the one on its right (seats 1 and 3 next to the Pillar in seat 0), not the
    player across the table (seat 2)."""
    team = ["pillar", "hipster", "trigger", "haggler"]
    gs = GameState.new(die(rules, "H"), players=4, characters=team)
    gs.set_area(seat, ["wanderer"])  # one head
    health = int(gs.pl[seat, K.PL_HEALTH])
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.pl[seat, K.PL_HEALTH] == health - 1 + absorbed
    assert gs.pl[0, K.PL_ABSORBED] == absorbed


def test_pillar_rolls_one_die_less_with_distance_weapons(rules):
    """8 Pillar drawback: '-1 die with distance weapons'."""
    gs = GameState.new(die(rules, "H"), players=3, characters=["pillar", "hipster", "trigger"])
    hold(gs, 0, {"pistol": 1, "gun_ammo": 3})
    gs.set_area(0, ["wanderer"] * 5)
    attack(gs, 0, 0, "pistol")
    assert len(gs.area_cards(0)) == 5 - 2


@pytest.mark.parametrize("leader, looked", [(False, 2), (True, 3)])
def test_hipster_looks_at_two_rubble_cards_and_keeps_one(rules, leader, looked):
    """8 Hipster: 'draws 2 rubble cards, keeps 1, on a draw action' (3 as leader)."""
    gs = new(rules)
    gs.g[K.G_LEADER] = HIP if leader else -1
    rig_deck(gs, ["wire", "symbol", "helmet", "canned_food"])
    draw_action_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp, HIP)
    assert gs.g[K.G_RDECK_N] == 4 - looked
    assert sum(inv(gs, HIP).values()) == 2  # the bow and one kept card
    assert gs.rdisc.sum() == looked - 1


def test_hipster_cannot_use_firearms(rules):
    """1 'The Hipster refuses firearms'; 8 'cannot use firearms (dized)'."""
    g = position(table(hipster={"inventory": {"bow": 1, "arrows": 1, "pistol": 1, "gun_ammo": 2},
                                "area": ["wanderer"]}), round=3, first=HIP, ruleset=rules)
    assert attacks_offered(g) == {(HIP, "bow")}


@pytest.mark.parametrize("leader, dice", [(False, 3), (True, 4)])
def test_trigger_rolls_one_more_die_with_distance_weapons(rules, leader, dice):
    """8 Trigger: '+1 die with distance weapons' (+2 as leader)."""
    gs = new(die(rules, "H"))
    gs.g[K.G_LEADER] = TRI if leader else -1
    hold(gs, TRI, {"trigger_pistol": 1, "gun_ammo": 2})
    gs.set_area(TRI, ["wanderer"] * 6)
    attack(gs, TRI, TRI, "trigger_pistol")
    assert len(gs.area_cards(TRI)) == 6 - dice


def test_trigger_collateral_costs_two_per_x(rules):
    """8 Trigger drawback: 'each X in another area costs 2 collateral, not 1'."""
    gs = new(die(rules, "X"))
    hold(gs, TRI, {"trigger_pistol": 1, "gun_ammo": 1})
    gs.set_area(PSY, ["wanderer"])
    attack(gs, TRI, PSY, "trigger_pistol")  # 1 ammo + 1 = 2 dice, 2 X
    assert gs.pl[PSY, K.PL_HEALTH] == 6 - 4


@pytest.mark.parametrize("leader, free", [(False, 1), (True, 2)])
def test_haggler_give_and_take_are_free_once_per_turn(rules, leader, free):
    """8 Haggler: 'give/take actions are free once per turn' (twice as leader)."""
    h = {"inventory": {"knife": 1, "helmet": 1, "vest": 1, "wire": 1}}
    if leader:
        h["inventory"]["symbol"] = 1
    g = position(table(haggler=h), round=3, first=HAG, ruleset=rules)
    assert (g.view.g[K.G_LEADER] == HAG) == leader
    cards = ["helmet", "vest", "wire"]
    for card in cards[:free]:
        choose(g, f"give {card} to psycho (seat 3)")
        assert g.to_move == HAG  # free: still the Haggler's turn
    choose(g, f"give {cards[free]} to psycho (seat 3)")
    assert g.to_move == PSY  # this one was the turn's action
    assert g.view.inv[PSY, [rules.card_id(c) for c in cards[:free + 1]]].tolist() == [1] * (free + 1)


def test_haggler_holds_14_cards_others_10(rules):
    """8 slots: Haggler 14, others 10 (rulebook: 'up to 10 rubble cards (except the
    Haggler)')."""
    gs = new(rules)
    hold(gs, HAG, {"knife": 1, "helmet": 4, "vest": 4, "canned_food": 5})  # 14 slots
    rig_deck(gs, ["medkit"])
    draw_action_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp, HAG)
    assert sum(inv(gs, HAG).values()) == 14 and gs.rdisc.sum() == 1
    gs = new(rules)
    hold(gs, PSY, {"baseball_bat": 1, "canned_food": 8})  # 9 slots
    rig_deck(gs, ["medkit"])
    draw_action_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp, PSY)
    assert sum(inv(gs, PSY).values()) == 10 and gs.rdisc.sum() == 0
    rig_deck(gs, ["medkit"])
    draw_action_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp, PSY)
    assert sum(inv(gs, PSY).values()) == 10 and gs.rdisc.sum() == 1


@pytest.mark.parametrize("leader, ignored", [(False, 1), (True, 2)])
def test_drifter_ignores_the_first_damage_each_round(rules, leader, ignored):
    """8 Drifter: 'ignores the first damage each round' (the first 2 as leader)."""
    team = ["drifter", "hipster", "trigger", "haggler"]
    gs = GameState.new(die(rules, "H"), players=4, characters=team)
    gs.g[K.G_LEADER] = 0 if leader else -1
    gs.set_area(0, ["wanderer"] * 3)
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.pl[0, K.PL_HEALTH] == 6 - 3 + ignored
    gs.run(K.PC_ROUND_BEGIN, K.PC_SEARCH_BEGIN)  # a new round: the ability is fresh
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.pl[0, K.PL_HEALTH] == 6 - 2 * (3 - ignored)


def test_drifter_cannot_build_barricades(rules):
    """8 Drifter drawback: 'cannot build barricades'."""
    mats = {"drifter_machete": 1, "wire": 1, "blade": 1, "planks": 1, "nails": 1}
    seats = [{"character": "drifter", "inventory": mats}, {"character": "hipster"},
             {"character": "trigger"}]
    g = position(seats, round=3, first=0, ruleset=rules)
    assert [a for a in g.legal_actions() if a.startswith("craft")] == ["craft a trap from wire + blade"]


def test_psycho_rolls_one_more_die_with_melee_weapons(rules):
    """8 Psycho: '+1 die with melee weapons (rulebook)' (+2 as leader: rulebook example)."""
    for leader, dice in ((-1, 3), (PSY, 4)):
        gs = new(die(rules, "H"))
        gs.g[K.G_LEADER] = leader
        gs.set_area(PSY, ["wanderer"] * 6)
        attack(gs, PSY, PSY, "baseball_bat")
        assert len(gs.area_cards(PSY)) == 6 - dice


def test_psycho_cannot_give_cards_but_can_take(rules):
    """8 Psycho drawback: 'cannot give cards'."""
    g = position(table(psycho={"inventory": {"baseball_bat": 1, "helmet": 1}}), round=3,
                 first=PSY, ruleset=rules)
    acts = g.legal_actions()
    assert not [a for a in acts if a.startswith("give")]
    assert "take knife from haggler (seat 2)" in acts


# =========================================================================== 7 final fight
def test_final_fight_repeats_exchanges_until_every_enemy_is_eliminated(rules):
    """7 'After the search phase and horde release, repeat: every player acts once, traps
    fire, enemies attack; until all enemies revealed are eliminated ... Win = all
    characters alive, at least one survivor saved, no enemy left.'  Only the Haggler can
    attack (knife, 1 head): three exchanges for three harmless Wanderers."""
    r = die(rules, "H", **{"horde.wanderer.attack_dice": 0})
    gs = new(r)
    for s in (HIP, TRI, PSY):
        hold(gs, s, {})
    gs.g[K.G_ROUND] = 10
    gs.set_area(HAG, ["wanderer"] * 3)
    gs.kept[PSY, rules.enemy_id("survivor")] = 1
    gs.g[K.G_CAUGHT] = HAG
    gs.run(K.PC_EXCHANGE, K.PC_OVER)
    assert gs.g[K.G_EXCHANGES] == 3
    assert gs.g[K.G_OUTCOME] == K.OUT_WIN and gs.g[K.G_CAUSE] == K.CAUSE_NONE


def test_round_10_is_search_then_horde_then_the_final_fight(rules):
    """2.2 'Round 10: search phase, horde, then the final fight' - no second search phase."""
    r = rules.override({"constants.search_timer.spread": 0, "dice.fate.faces": {"heal": 6},
                        **{f"horde.{e}.attack_dice": 0 for e in ("wanderer", "raider", "brute", "monster")}})
    g = position(table(), round=10, phase="search", first=0, ruleset=r)
    phases = []
    for _ in range(8 + 4 * 3):
        phases.append(g.decision)
        choose(g, "do nothing")
    assert phases == ["search action"] * 8 + ["combat action"] * 12  # 3 exchanges, no search
    assert g.view.g[K.G_EXCHANGES] == 4 and g.view.g[K.G_PHASE] != K.PHASE_SEARCH


# =========================================================================== more turn order
def test_areas_attack_clockwise_from_the_caught_player(rules):
    """5 'Areas attack clockwise from the caught player. In each area raiders attack first,
    then infected.'"""
    gs = new(die(rules, "X"))
    gs.g[K.G_CAUGHT] = HAG
    for s in range(4):
        gs.set_area(s, ["wanderer", "raider"])
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    order = [(int(r[7]), int(r[3])) for r in events(gs, K.EV_ENEMY_ROLL)]
    ra, inf = K.ENEMY_RAIDER, K.ENEMY_INFECTED
    assert order == [(HAG, ra), (HAG, inf), (PSY, ra), (PSY, inf), (HIP, ra), (HIP, inf),
                     (TRI, ra), (TRI, inf)]


def test_the_first_player_acting_as_leader_has_no_doubled_advantage(rules):
    """2.1 'No leader yet; until there is one the first player acts as leader' - acting
    (rolling the enemies' dice) is all: only a real leader's advantage is doubled.  The
    Psycho in seat 0 with no leader rolls bat 2 + 1 dice."""
    gs = GameState.new(die(rules, "H"), players=3, characters=["psycho", "hipster", "trigger"])
    assert gs.g[K.G_LEADER] == -1
    gs.set_area(0, ["wanderer"] * 6)
    attack(gs, 0, 0, "baseball_bat")
    assert len(gs.area_cards(0)) == 6 - 3


# =========================================================================== 8 reference data
def test_reference_ruleset_matches_the_spec_tables(rules):
    """8 'Reference ruleset': combat die 1 H 3 B 2 X; Die of Fate one face each; the
    characters' table; horde deck 95 (Wanderer 45, Raider 20, Brute 12, Monster 8,
    Survivor 10); rubble deck 185 with the listed counts."""
    assert rules.get("dice.combat.faces") == {"H": 1, "B": 3, "X": 2}
    assert rules.get("dice.fate.faces") == {f: 1 for f in ("remove_enemy", "add_enemy", "discard_card",
                                                           "draw_card", "heal", "damage")}
    chars = {"pillar": (7, 10, "crowbar", "absorb_adjacent", 1, "distance_dice", -1),
             "hipster": (5, 10, "bow", "draw_extra", 1, "no_firearms", 1),
             "trigger": (5, 10, "trigger_pistol", "distance_dice", 1, "extra_collateral", 1),
             "haggler": (4, 14, "knife", "free_trades", 1, "none", 0),
             "drifter": (6, 10, "drifter_machete", "ignore_damage", 1, "no_barricades", 1),
             "psycho": (6, 10, "baseball_bat", "melee_dice", 1, "no_give", 1)}
    for name, want in chars.items():
        got = tuple(rules.get(f"characters.{name}.{k}") for k in
                    ("health", "slots", "basic_weapon", "advantage.kind", "advantage.amount",
                     "drawback.kind", "drawback.amount"))
        assert got == want, name
    horde = {"wanderer": 45, "raider": 20, "brute": 12, "monster": 8, "survivor": 10}
    assert {e: rules.get(f"horde.{e}.count") for e in horde} == horde
    rubble = {"gun_ammo": 30, "shotgun_shells": 10, "arrows": 10, "pistol": 3, "shotgun": 2,
              "rifle": 2, "machete": 3, "axe": 2, "chainsaw": 1, "canned_food": 14, "medkit": 6,
              "bandage": 4, "wire": 8, "blade": 8, "planks": 10, "nails": 10, "helmet": 4,
              "vest": 4, "vitality": 4, "bloodlust": 4, "focus": 6, "lucky": 5, "energy_shot": 5,
              "adrenaline": 3, "symbol": 10, "pickpocket": 3, "noise": 7, "injury": 4, "lost_item": 3}
    assert {c: rules.get(f"rubble.{c}.count") for c in rubble} == rubble
    assert sum(rubble.values()) == 185


@pytest.mark.parametrize("team, target", [(["drifter", "hipster", "trigger", "haggler"], 0),
                                          (["hipster", "pillar", "trigger", "haggler"], 0)])
def test_collateral_goes_straight_to_health_past_character_abilities(rules, team, target):
    """3 'Collateral. Each X rolled with a distance weapon into another player's area deals 1
    damage to that player. default: straight to health.'  Target: a Drifter (ignores the
    first damage each round) / the Pillar's neighbour (the Pillar absorbs 1 per round)."""
    gs = GameState.new(die(rules, "X"), players=4, characters=team)
    shooter = 3  # the Haggler
    hold(gs, shooter, {"pistol": 1, "gun_ammo": 2})
    gs.set_area(target, ["wanderer"])
    health = int(gs.pl[target, K.PL_HEALTH])
    attack(gs, shooter, target, "pistol")
    assert gs.pl[target, K.PL_HEALTH] == health - 2


# =========================================================================== the table
TABLES = sorted(p.name for p in __import__("pathlib").Path(__file__).parent.glob("RULES*.md"))


@pytest.mark.parametrize("table", TABLES)
def test_rules_table_names_existing_tests(table):
    """tests/RULES*.md (one table per game, every one found is checked): every row names
    at least one test, and every test it names exists; the uncovered rules are listed with
    the reason."""
    import ast
    import re
    from pathlib import Path

    here = Path(__file__).parent
    assert {"RULES.md", "RULES_till_dawn.md"} <= set(TABLES)
    least = 100 if table == "RULES.md" else 15
    text = (here / table).read_text()
    body, _, uncovered = text.partition("## Not yet covered")
    defined = {}
    rows = 0
    for line in body.splitlines():
        if not line.startswith("|") or line.startswith("|---") or line.startswith(("| rule ", "| behaviour ")):
            continue
        rows += 1
        refs = re.findall(r"(test_\w+\.py)::(\w+)", line.split("|")[-2])
        assert refs, f"a row without a test: {line}"
        for fname, name in refs:
            if fname not in defined:
                tree = ast.parse((here / fname).read_text())
                # a test is a function, or a name bound at module level to one a factory
                # made (tests/transcription.py's test_reference_value)
                defined[fname] = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
                defined[fname] |= {t.id for n in tree.body if isinstance(n, ast.Assign)
                                   for tgt in n.targets
                                   for t in (tgt.elts if isinstance(tgt, ast.Tuple) else [tgt])
                                   if isinstance(t, ast.Name) and t.id.startswith("test_")}
            assert name in defined[fname], f"{fname}::{name} does not exist"
    assert rows >= least
    assert uncovered.count("\n|") >= 2  # the uncovered rules are listed, with the reason
    assert "shared/" not in text  # the project's own words, not its authors' notes
