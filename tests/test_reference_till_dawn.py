"""The Till Dawn reference engine (tests/reference/till_dawn.py): whole random games keep
the rules' invariants, and scripted scenes from the rulebook and the docs page play as the
texts say."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from simlib.games.till_dawn.ruleset import load_ruleset
from tests.reference.chance import RandomChance, ScriptedChance
from tests.reference.till_dawn import Reference

RULES = load_ruleset("reference")
CHANCE_KINDS = {"character_deal", "first_player", "power_deal", "hunt_deck", "event_deck"}
STATUSES = {"active", "retired", "dead", "caught"}


def flat(over=None) -> dict:
    r = RULES.override(over) if over else RULES
    return {k: r.get(k) for k in r.keys()}


def scripted(players=3, chars=("vlad", "carmilla", "selene"), powers=(), hunt=(), events=(),
             over=None, first=0, supply_rule="partial"):
    """A game whose first power deal, hunt cards and event cards are given; anything after
    them is drawn at random."""
    queues = {"hunt_deck": list(hunt), "event_deck": list(events), "power_deal": list(powers)}
    chance = ScriptedChance(queues, fallback=RandomChance(12345))
    g = Reference(flat(over), {"players": players, "characters": list(chars[:players]),
                               "first_player": first, "supply_rule": supply_rule}, chance)
    return g, chance


def blood(g):
    return [p["blood"] for p in g.observation()["players"]]


def health(g):
    return [p["health"] for p in g.observation()["players"]]


def stay_all(g, rounds=1):
    """Everyone stays through ``rounds`` decision phases (each ends at the next hunt draw,
    or at another kind of decision)."""
    for _ in range(rounds):
        drawn = g.record()["cards_drawn"]
        while (not g.is_over() and g.observation()["decision"] == "decide"
               and g.record()["cards_drawn"] == drawn):
            g.apply(("stay",))


# --------------------------------------------------------------------- random games

VARIANTS = {
    "reference": None,
    "unlimited": {"constants.variants.unlimited_tokens": True},
    "no_reshuffle": {"constants.variants.reshuffle_when_empty": False},
    "small_supplies": {"constants.blood_supply": 30, "constants.coffin_supply": 40},
    "short_track": {"constants.track_length": 3, "constants.nights": 2},
    "long_night": {"constants.track_length": 60, "constants.variants.reshuffle_when_empty": False},
}


def _check_state(g, rules, n):
    obs = g.observation()
    players = obs["players"]
    assert len(players) == n
    unlimited = rules["constants.variants.unlimited_tokens"]
    total_blood = sum(p["blood"] for p in players)
    total_coffin = sum(p["coffin"] for p in players)
    # tokens are conserved: every blood token is in a hand or in the supply
    assert obs["blood_supply"] + total_blood == rules["constants.blood_supply"]
    assert obs["coffin_supply"] + total_coffin == rules["constants.coffin_supply"]
    if not unlimited:
        assert obs["blood_supply"] >= 0 and obs["coffin_supply"] >= 0
    for p in players:
        assert p["blood"] >= 0 and p["coffin"] >= 0
        assert 0 <= p["health"] <= p["max_health"]
        assert p["status"] in STATUSES
        assert (p["status"] == "dead") == (p["health"] == 0)
        if p["status"] != "active" and not g.is_over():
            assert p["blood"] == 0          # banked, lost at death or lost at sunrise
    assert 0 <= obs["track"] < obs["track_length"] or not any(
        p["status"] == "active" for p in players)
    # hunt cards: the draw pile and the discards (plus the card in play) are the deck
    n_deck = len(g.full_deck)
    if obs["decision"] == "decide":
        assert Counter(g.pile) + Counter(g.discards) == Counter(g.full_deck)
    else:
        assert obs["draw_pile"] + obs["discards"] in (n_deck - 1, n_deck)
    # event cards: held, in the deck or discarded this night
    held = [e for e in g.event if e is not None] + ([obs["drawn_event"]] if obs["drawn_event"] else [])
    assert Counter(held) + Counter(g.event_deck) + Counter(g.event_discards) == Counter(g.full_events)
    # powers: one per seat per night, held or played face up
    for s in range(n):
        assert len(g.powers_played[s]) + (g.power[s] is not None) <= 1
    # the seat to move sees its own cards only
    if obs["seat"] is not None:
        assert obs["power"] == g.power[obs["seat"]] and obs["event"] == g.event[obs["seat"]]
        assert players[obs["seat"]]["status"] == "active" or obs["decision"] == "keep_event"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_games_keep_the_invariants(variant):
    rules = flat(VARIANTS[variant])
    causes = Counter()
    for seed in range(32):
        n = 2 + seed % 7
        chance = RandomChance(seed)
        setup = {"players": n, "supply_rule": ("partial", "all_or_nothing", "whole_card")[(seed // 3) % 3]}
        if seed % 2:
            setup["first_player"] = "random"
        g = Reference(rules, setup, chance)
        rng = random.Random(1000 + seed)
        retire_p = (0.05, 0.2, 0.5)[seed % 3]
        steps = 0
        while not g.is_over():
            acts = g.legal_actions()
            assert len(acts) >= 2 and len(set(acts)) == len(acts)
            assert g.to_move() is not None
            _check_state(g, rules, n)
            if ("retire",) in acts and rng.random() >= retire_p:
                a = ("stay",) if rng.random() < 0.8 or ("heal",) not in acts else ("heal",)
            elif ("retire",) in acts:
                a = ("retire",)
            else:
                a = rng.choice(acts)
            g.apply(a)
            steps += 1
            assert steps < 20000, "the game does not end"
        assert g.to_move() is None and g.legal_actions() == []
        with pytest.raises(ValueError):
            g.apply(("stay",))
        rec = g.record()
        causes[rec["cause"]] += 1
        ppb = rules["constants.points_per_blood"]
        assert rec["scores"] == [c + b * ppb for c, b in zip(rec["coffin"], rec["blood_in_hand"])]
        assert rec["winners"] == [s for s in range(n) if rec["scores"][s] == max(rec["scores"])]
        assert len(rec["characters"]) == n == len(set(rec["characters"]))
        assert rec["cause"] in ("nights", "blood_supply", "coffin_supply")
        if rec["cause"] == "nights":
            assert rec["nights"] == rules["constants.nights"]
            assert rec["blood_in_hand"] == [0] * n
        else:
            assert not rules["constants.variants.unlimited_tokens"]
            assert 1 <= rec["nights"] <= rules["constants.nights"]
        assert sum(rec["retirements"]) + sum(rec["deaths"]) <= n * rec["nights"]
        assert sum(rec["blood_lost_death"]) >= 0 and sum(rec["blood_lost_sunrise"]) >= 0
        assert rec["cards_drawn"] == sum(1 for k, _ in chance.history if k == "hunt_deck")
        assert {k for k, _ in chance.history} <= CHANCE_KINDS
        assert sum(1 for k, _ in chance.history if k == "power_deal") == n * rec["nights"]
    if variant == "small_supplies":
        assert causes["blood_supply"] + causes["coffin_supply"] > 0
    if variant == "unlimited":
        assert causes == Counter({"nights": 32})


# --------------------------------------------------------------------- scripted scenes

def test_doubling_doubles_the_number_not_the_bonus():
    # Rulebook, "Powers that double feeding values": a 3 doubled to 6, +1 bonus = 7.
    g, _ = scripted(powers=["double_feeding", "protection", "protection"],
                    hunt=[("feed_3_castle", "blood", 0)])
    obs = g.observation()
    assert (obs["seat"], obs["decision"], obs["window"]) == (0, "play", "double_feeding")
    assert g.legal_actions() == [("play", "power"), ("pass",)]
    g.apply(("play", "power"))
    assert blood(g) == [7, 3, 3]           # vlad's castle; carmilla and selene 3 each
    obs = g.observation()
    assert obs["decision"] == "decide" and obs["seat"] == 1   # the deck passed left
    assert obs["played_kinds"] == ["double_feeding"]
    assert obs["players"][0]["powers_played"] == ["double_feeding"]
    assert obs["players"][0]["has_power"] is False


def test_the_favourite_bonus_without_a_double():
    g, _ = scripted(powers=["protection"] * 3, hunt=[("feed_2_village", "blood", 0)])
    assert blood(g) == [2, 3, 2]


def test_a_cancel_voids_the_play_and_both_cards_are_spent():
    g, _ = scripted(powers=["double_feeding", "cancel", "protection"],
                    hunt=[("feed_3_castle", "blood", 0)])
    g.apply(("play", "power"))
    obs = g.observation()
    assert (obs["seat"], obs["decision"]) == (1, "cancel")
    assert obs["play"] == {"seat": 0, "source": "power", "as": "double_feeding"}
    g.apply(("cancel",))
    assert blood(g) == [4, 3, 3]
    obs = g.observation()
    assert obs["played_kinds"] == ["cancel", "double_feeding"]
    assert not obs["players"][0]["has_power"] and not obs["players"][1]["has_power"]


def test_a_pass_on_the_cancel_lets_the_play_stand():
    g, _ = scripted(powers=["double_feeding", "cancel", "protection"],
                    hunt=[("feed_3_castle", "blood", 0)])
    g.apply(("play", "power"))
    g.apply(("pass",))
    assert blood(g) == [7, 3, 3]
    assert g.observation()["players"][1]["has_power"]


def test_copy_acts_as_a_power_played_this_night():
    g, _ = scripted(powers=["double_feeding", "protection", "copy"],
                    hunt=[("feed_3_castle", "blood", 0), ("feed_2_forest", "blood", 0)])
    g.apply(("play", "power"))              # seat 0 doubles
    obs = g.observation()                   # seat 2's copy now fits: a double was played
    assert (obs["seat"], obs["decision"]) == (2, "play")
    g.apply(("pass",))
    assert blood(g) == [7, 3, 3]
    stay_all(g)                             # seat 1 draws the forest 2
    obs = g.observation()
    assert (obs["seat"], obs["decision"], obs["window"]) == (2, "play", "double_feeding")
    g.apply(("play", "power"))
    assert blood(g) == [7 + 2, 3 + 2, 3 + 2 * 2 + 1]   # selene's forest


def test_copy_cannot_act_before_its_kind_is_played():
    g, _ = scripted(powers=["protection", "protection", "copy"],
                    hunt=[("feed_3_castle", "blood", 0)])
    # nobody can double: straight to the decisions
    obs = g.observation()
    assert obs["decision"] == "decide" and blood(g) == [4, 3, 3]


def test_the_invitation_votes_payoffs_penalties_and_refusal():
    g, _ = scripted(powers=["double_feeding"] * 3,
                    hunt=[("feed_2_forest", "blood", 0), ("invitation", "blue", 0),
                          ("feed_3_village", "hunting", 0)])
    for _ in range(3):                      # nobody doubles the first feeding
        assert g.observation()["decision"] == "play"
        g.apply(("pass",))
    assert blood(g) == [2, 2, 3]
    stay_all(g)
    obs = g.observation()                   # seat 1 drew the invitation; votes from seat 1
    assert (obs["seat"], obs["decision"]) == (1, "vote")
    assert obs["invitation"] == {"payoff": 3, "payoff_hunting": 6, "penalty": 1}
    assert g.legal_actions() == [("vote", "blood"), ("vote", "blue"), ("vote", "hunting"),
                                 ("vote", "refuse")]
    g.apply(("vote", "hunting"))
    assert g.observation()["seat"] == 2
    g.apply(("vote", "refuse"))
    assert g.observation()["seat"] == 0
    assert g.observation()["my_vote"] is None
    g.apply(("vote", "blood"))
    # nobody decides while the invitation is pending: seat 2 draws at once, the hunting
    # moon pays 6 to seat 1, seat 2 pays 1 to refuse, seat 0 takes 1 injury; then the feeding
    obs = g.observation()
    assert obs["invitation"] is None and obs["current"] == 2
    assert obs["decision"] == "play"        # the village 3 opens a window (doubles held)
    for _ in range(3):
        g.apply(("pass",))
    assert blood(g) == [2 + 3, 2 + 6 + 3 + 1, 3 - 1 + 3]
    assert health(g) == [4, 5, 5]
    assert g.observation()["seat"] == 0     # the decisions start left of the drawer


def test_refusing_needs_blood():
    g, _ = scripted(powers=["protection"] * 3, hunt=[("invitation", "blood", 0)])
    assert g.observation()["decision"] == "vote"
    assert ("vote", "refuse") not in g.legal_actions() and len(g.legal_actions()) == 3


def test_the_werewolf_hurts_the_drawer_and_goes_back_into_the_pile():
    g, _ = scripted(powers=["protection"] * 3, hunt=[("werewolf", "blood", 0)])
    obs = g.observation()
    assert health(g) == [2, 5, 5]
    assert obs["draw_pile"] == len(g.full_deck) and obs["discards"] == 0
    assert ("werewolf", "blood", 0) in g.pile


def test_the_sunrise_takes_unbanked_blood_and_the_next_night_starts_left_of_the_drawer():
    g, chance = scripted(powers=["protection"] * 3, over={"constants.track_length": 2},
                         hunt=[("feed_2_forest", "blood", 0), ("sun_rising_2", "blue", 0)])
    assert blood(g) == [2, 2, 3]
    g.apply(("retire",))                    # seat 1 banks 2
    g.apply(("stay",))                      # seat 2
    g.apply(("stay",))                      # seat 0
    # seat 1 retired, so seat 2 draws the sunrise
    obs = g.observation()
    assert obs["night"] == 2 and obs["current"] == 0 and obs["track"] == 0
    assert [p["coffin"] for p in obs["players"]] == [0, 2, 0] and blood(g) == [0, 0, 0]
    assert obs["blood_supply"] == 120 and obs["coffin_supply"] == 370 - 2
    assert all(p["status"] == "active" for p in obs["players"])
    rec = g.record()
    assert rec["blood_lost_sunrise"] == [2, 0, 3] and rec["sunrises"] == 1
    assert rec["retirements"] == [0, 1, 0]
    assert sum(1 for k, _ in chance.history if k == "power_deal") == 6


def test_night_lingers_never_moves_before_dusk():
    g, _ = scripted(powers=["protection"] * 3,
                    hunt=[("night_lingers_1", "blood", 0), ("sun_rising_1", "blood", 0),
                          ("night_lingers_2", "blood", 0)])
    assert g.observation()["track"] == 0
    stay_all(g)
    assert g.observation()["track"] == 1
    stay_all(g)
    assert g.observation()["track"] == 0


def test_protection_from_an_event_and_the_slayer_hurts_the_others():
    g, _ = scripted(powers=["protection", "double_feeding", "double_feeding"],
                    hunt=[("feed_1_forest", "blood", 1), ("vampire_slayer_2", "blood", 0)],
                    events=["protection"])
    # the feeding 1 opens a window for the two doubles (seats 1 and 2): both pass
    while g.observation()["decision"] == "play":
        g.apply(("pass",))
    assert g.event[0] == "protection" and g.observation()["players"][0]["has_event"]
    stay_all(g)
    obs = g.observation()                   # seat 1 drew the slayer: only seat 0 can protect
    assert (obs["seat"], obs["decision"], obs["window"]) == (0, "play", "protection")
    assert g.legal_actions() == [("play", "power"), ("play", "event"), ("pass",)]
    g.apply(("play", "event"))
    assert health(g) == [5, 3, 3]
    assert g.event[0] is None and g.power[0] == "protection"


def test_death_loses_the_nights_blood():
    g, _ = scripted(powers=["protection", "protection", "copy"],
                    over={"characters.carmilla.max_health": 2},
                    hunt=[("feed_3_village", "blood", 0), ("vampire_slayer_2", "blood", 0)])
    assert blood(g) == [3, 4, 3]
    stay_all(g)
    while g.observation()["decision"] == "play":   # nobody protects
        g.apply(("pass",))
    obs = g.observation()
    assert obs["players"][1]["status"] == "dead" and obs["players"][1]["health"] == 0
    assert blood(g) == [3, 0, 3] and health(g) == [3, 0, 3]
    assert obs["blood_supply"] == 120 - 6
    rec = g.record()
    assert rec["deaths"] == [0, 1, 0] and rec["blood_lost_death"] == [0, 4, 0]


def test_a_second_event_keeps_one_of_two_and_heal_is_played_in_the_decisions():
    g, _ = scripted(players=2, powers=["protection", "protection"],
                    hunt=[("feed_1_forest", "blood", 1), ("feed_2_castle", "blue", 0),
                          ("sun_rising_2", "blood", 1), ("vampire_slayer_2", "blood", 0)],
                    events=["heal", "protection"])
    assert g.event[0] == "heal"
    assert (g.observation()["seat"], g.legal_actions()) == (1, [("stay",), ("retire",)])
    g.apply(("stay",))
    assert g.legal_actions() == [("stay",), ("retire",)]   # full health: no heal offered
    g.apply(("stay",))
    stay_all(g, 2)                          # seat 1 draws the castle 2; seat 0 the sun 2
    obs = g.observation()
    assert (obs["seat"], obs["decision"], obs["drawn_event"]) == (0, "keep_event", "protection")
    assert g.legal_actions() == [("keep_event", "heal"), ("keep_event", "protection")]
    g.apply(("keep_event", "heal"))
    assert g.event[0] == "heal" and obs["track"] == 2
    assert g.event_discards == ["protection"]
    stay_all(g)                             # seat 1 draws the slayer: both pass protection
    for _ in range(2):
        assert g.observation()["decision"] == "play"
        g.apply(("pass",))
    assert health(g) == [3, 3]
    obs = g.observation()
    assert (obs["seat"], obs["decision"]) == (0, "decide")
    g.apply(("heal",))
    assert health(g) == [5, 3] and g.event[0] is None
    assert g.legal_actions() == [("stay",), ("retire",)] and g.to_move() == 0


def test_running_out_of_blood_ends_the_game_and_blood_in_hand_counts():
    g, _ = scripted(powers=["protection"] * 3, over={"constants.blood_supply": 10},
                    hunt=[("feed_4_graveyard", "blood", 0)])
    assert g.is_over()
    rec = g.record()
    assert rec["cause"] == "blood_supply" and rec["nights"] == 1
    assert rec["scores"] == [4, 4, 2] and rec["winners"] == [0, 1]   # tied: both win
    assert g.observation()["blood_supply"] == 0


@pytest.mark.parametrize("rule,scores", [("all_or_nothing", [4, 4, 0]),
                                         ("whole_card", [0, 0, 0])])
def test_the_other_supply_rules_pay_less(rule, scores):
    g, _ = scripted(powers=["protection"] * 3, over={"constants.blood_supply": 10},
                    hunt=[("feed_4_graveyard", "blood", 0)], supply_rule=rule)
    rec = g.record()
    assert g.is_over() and rec["cause"] == "blood_supply" and rec["scores"] == scores
    assert g.observation()["blood_supply"] == 10 - sum(scores)


def test_whole_card_pays_an_invitation_all_or_none():
    g, _ = scripted(powers=["protection"] * 3, over={"constants.blood_supply": 8},
                    hunt=[("invitation", "blood", 0), ("feed_1_village", "blood", 0)],
                    supply_rule="whole_card")
    for _ in range(3):                      # all right: 3 x 3 blood owed, 8 in the box
        g.apply(("vote", "blood"))
    assert g.is_over() and g.record()["scores"] == [0, 0, 0]


def test_a_supply_left_at_zero_ends_the_game_only_at_the_next_payment():
    g, _ = scripted(powers=["protection"] * 3, over={"constants.blood_supply": 12},
                    hunt=[("feed_4_graveyard", "blood", 0), ("feed_1_village", "blood", 0)])
    assert not g.is_over() and g.observation()["blood_supply"] == 0
    stay_all(g)
    assert g.is_over() and g.record()["cause"] == "blood_supply"
    assert g.record()["scores"] == [4, 4, 4]


def test_running_out_of_coffin_points_ends_the_game():
    g, _ = scripted(powers=["protection"] * 3, over={"constants.coffin_supply": 3},
                    hunt=[("feed_4_graveyard", "blood", 0)])
    g.apply(("retire",))                    # seat 1: 4 points, the box holds 3
    assert g.is_over()
    rec = g.record()
    assert rec["cause"] == "coffin_supply" and rec["scores"] == [4, 4, 4]
    assert rec["winners"] == [0, 1, 2]


def test_unlimited_tokens_never_end_the_game():
    g, _ = scripted(powers=["protection"] * 3,
                    over={"constants.blood_supply": 5,
                          "constants.variants.unlimited_tokens": True},
                    hunt=[("feed_4_graveyard", "blood", 0)])
    assert not g.is_over() and blood(g) == [4, 4, 4]
    assert g.observation()["blood_supply"] == 5 - 12


def _tiny_deck(extra):
    over = {}
    for grp in RULES.names("hunt"):
        over[f"hunt.{grp}.moons"] = {"blood": 0, "blue": 0, "hunting": 0}
        over[f"hunt.{grp}.event_icons"] = {"blood": 0, "blue": 0, "hunting": 0}
    over["hunt.feed_1_village.moons"] = {"blood": 1, "blue": 0, "hunting": 0}
    over["hunt.feed_2_forest.moons"] = {"blood": 1, "blue": 0, "hunting": 0}
    over.update(extra)
    return over


def test_an_empty_deck_reshuffles_its_discards():
    g, chance = scripted(players=2, powers=["protection"] * 2, over=_tiny_deck({}))
    for _ in range(3):
        stay_all(g)
    assert g.record()["cards_drawn"] == 4 and g.observation()["night"] == 1
    assert g.record()["sunrises"] == 0


def test_without_the_reshuffle_an_empty_deck_raises_the_sun():
    g, _ = scripted(players=2, powers=["protection"] * 2,
                    over=_tiny_deck({"constants.variants.reshuffle_when_empty": False}),
                    hunt=[("feed_1_village", "blood", 0), ("feed_2_forest", "blood", 0)])
    assert blood(g) == [1, 2]
    stay_all(g)
    assert blood(g) == [3, 4]
    stay_all(g)                             # the third draw finds the pile empty
    obs = g.observation()
    assert obs["night"] == 2 and obs["players"][0]["coffin"] == 0
    rec = g.record()
    assert rec["sunrises"] == 1 and rec["blood_lost_sunrise"] == [3, 4]


def test_every_chance_outcome_is_offered_from_the_piles():
    g, chance = scripted(players=2, powers=["protection", "cancel"], hunt=[])
    before = len(g.pile)
    stay_all(g)
    assert len(g.pile) + len(g.discards) == before + 1 or g.observation()["night"] > 1
    with pytest.raises(AssertionError):     # a card not in the draw pile cannot be drawn
        bad = ScriptedChance({"hunt_deck": [("feed_9_nowhere", "blood", 0)]},
                             fallback=RandomChance(0))
        Reference(flat(), {"players": 2, "characters": ["vlad", "orlok"]}, bad)
