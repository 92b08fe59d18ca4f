"""The reference engine of Until Daylight (tests/reference/until_daylight.py).

(a) whole games with random chance and random legal actions, checking the rules'
invariants; (b) the rulebook's worked examples and the docs page's rules as scripted
scenarios.
"""
from __future__ import annotations

import random

import pytest

from simlib.games.until_daylight.ruleset import load_ruleset
from tests.reference.chance import RandomChance, ScriptedChance
from tests.reference.until_daylight import Reference


def _rules(preset: str = "reference", **over) -> dict:
    rs = load_ruleset(preset)
    if over:
        rs = rs.override(over)
    return {k: rs.get(k) for k in rs.keys()}


REF = _rules("reference")
CAL = _rules("calibrated")
# one decision at a time from the first round's combat: no search actions (K = 0), so seat
# 0 is caught and acts first; wave_per_player 0 and the Die of Fate's remove_enemy in round
# 1 make an empty wave, so only the cards a scenario places are on the table
QUIET = dict(**{"constants.search_timer.per_player": 0, "constants.search_timer.spread": 0,
                "constants.search_timer.offset": 0, "constants.search_timer.min": 0,
                "constants.wave_per_player": 0})


class _Later(RandomChance):
    """Answers only the next round's opening (its timer, Die of Fate and wave): a scenario
    scripts every other outcome, so any other unscripted draw fails the test."""

    def draw(self, kind, options):
        assert kind in ("search_timer", "horde_deck"), f"unscripted {kind!r}"
        return super().draw(kind, options)


def _scenario(setup, queues, rules=None, **over):
    rules = rules if rules is not None else _rules("reference", **{**QUIET, **over})
    q = {"search_timer": [0], "fate_die": ["remove_enemy", "heal"]}
    q.update(queues)
    chance = ScriptedChance(q, fallback=_Later(0))
    return Reference(rules, setup, chance), chance


def _left(ch):
    """Outcomes scripted but not drawn, but for round 2's harmless Die of Fate."""
    left = ch.left()
    if left.get("fate_die") == ["heal"]:
        del left["fate_die"]
    return left


def _timer(k: int) -> dict:
    """A search phase of exactly k completed actions."""
    return {"constants.search_timer.per_player": 0, "constants.search_timer.spread": 0,
            "constants.search_timer.offset": k, "constants.search_timer.min": 0}


def _pass_until(g, seat):
    """Every other seat passes its turn until `seat` has the turn."""
    while g.to_move() != seat or g.observation()["decision"] != "turn":
        assert g.observation()["decision"] == "turn", g.observation()["decision"]
        g.apply(("pass",))


# ------------------------------------------------------------------ (a) random games
def _totals(g: Reference):
    rubble = sum(g.rubble_deck.values()) + sum(g.rubble_discard.values()) + sum(
        sum(s.inv.values()) for s in g.seats) + len(g.looking)
    horde = sum(g.horde_deck.values()) + sum(g.horde_discard.values()) + sum(
        len(a) for a in g.areas) + sum(s.saved + len(s.kept) for s in g.seats)
    traps = g.trap_supply + sum(s.traps for s in g.seats)
    barricades = g.barricade_supply + sum(s.barricades for s in g.seats)
    return rubble, horde, traps, barricades


def _check_state(g: Reference, start, rules):
    assert _totals(g) == start
    lim = rules["constants.token_limit"]
    for i, s in enumerate(g.seats):
        assert all(v > 0 for v in s.inv.values())
        assert 0 <= s.traps and 0 <= s.barricades and s.traps + s.barricades <= lim
        assert s.health <= s.max_health
        assert s.saved >= 0
        if not g.is_over():
            assert s.health > 0
            assert g.slots_used(i) <= s.slots or g.observation()["decision"] == "discard"
    assert g.trap_supply >= 0 and g.barricade_supply >= 0
    # the leader changes as soon as somebody holds strictly more XP
    if g.leader is None:
        assert all(g.xp(i) <= 0 for i in range(g.n))
    else:
        assert all(g.xp(i) <= g.xp(g.leader) for i in range(g.n))


def _play_random(rules, players, seed, max_decisions=20000):
    g = Reference(rules, {"players": players}, RandomChance(seed))
    rng = random.Random(seed * 7 + 1)
    start = _totals(g)
    decisions = 0
    while not g.is_over():
        acts = g.legal_actions()
        assert acts and len(set(acts)) == len(acts)
        assert g.to_move() in range(players)
        obs = g.observation()
        assert obs["to_move"] == g.to_move() and len(obs["seats"]) == players
        g.apply(rng.choice(acts))
        decisions += 1
        assert decisions < max_decisions
        _check_state(g, start, rules)
    assert g.to_move() is None and g.legal_actions() == []
    return g


@pytest.mark.parametrize("preset", ["reference", "calibrated"])
def test_random_games_keep_the_invariants(preset):
    rules = REF if preset == "reference" else CAL
    causes = set()
    for seed in range(40):
        players = 3 + seed % 4
        g = _play_random(rules, players, seed)
        rec = g.record()
        causes.add(rec["cause"])
        assert rec["won"] == (rec["cause"] == "win")
        assert 1 <= rec["rounds_played"] <= rules["constants.rounds"]
        assert rec["exchanges"] <= rules["constants.stalemate_cap"]
        if rec["cause"] == "character_died":
            assert rec["health"][rec["died_seat"]] <= 0
            assert rec["died_round"] == rec["rounds_played"]
            assert sum(h <= 0 for h in rec["health"]) == 1
        else:
            assert rec["died_seat"] is None and all(h > 0 for h in rec["health"])
        if rec["cause"] == "win":
            assert rec["enemies_left"] == 0 and sum(rec["survivors_saved"]) >= 1
        # trap kills are credited to the owner (trap_rewards), so every elimination of a
        # raider or infected is some seat's kill
        enemy_kills = sum(v for e, v in rec["killed"].items()
                          if rules[f"horde.{e}.kind"] != "survivor")
        assert sum(rec["kills"]) == enemy_kills
        assert rec["monsters_kept"] == [len(s.kept) for s in g.seats]
        assert len(rec["characters"]) == players
    assert "character_died" in causes


def _greedy(g: Reference, rng: random.Random) -> tuple:
    """A crude fighter (attack, craft, heal, spend what helps the roll) to reach late
    rounds, where random play dies early."""
    seat = g.to_move()

    def score(a):
        k = a[0]
        if k == "attack":
            return 10 - 3 * (a[1] != seat)
        if k in ("ammo", "move"):
            return a[1]
        if k in ("boost", "focus", "energy_shot", "lucky"):
            return 5
        if k == "sacrifice":
            return 1 if g.seats[seat].health <= 2 else -1
        if k in ("give", "take", "pickpocket"):
            return -5
        return {"craft": 9, "use": 8, "draw": 6}.get(k, 0)

    acts = g.legal_actions()
    best = max(score(a) for a in acts)
    return rng.choice([a for a in acts if score(a) == best])


def test_greedy_games_reach_the_final_fight_and_keep_the_invariants():
    last = 0
    for seed in range(25):
        g = Reference(CAL, {"players": 3 + seed % 4}, RandomChance(seed))
        rng = random.Random(seed)
        start = _totals(g)
        while not g.is_over():
            g.apply(_greedy(g, rng))
            _check_state(g, start, CAL)
        rec = g.record()
        assert rec["won"] == (rec["cause"] == "win")
        last = max(last, rec["rounds_played"])
    assert last == CAL["constants.rounds"]


def test_short_games_reach_every_end():
    """Two rounds, light waves: the final fight ends in each of its ways."""
    rules = _rules("calibrated", **{"constants.rounds": 1, "constants.wave_per_player": 0,
                                    "constants.stalemate_cap": 2})
    causes = set()
    for seed in range(150):
        g = _play_random(rules, 3 + seed % 4, seed)
        rec = g.record()
        causes.add(rec["cause"])
        assert rec["rounds_played"] == 1
        if rec["cause"] == "stalemate":
            assert rec["exchanges"] == 2 and rec["enemies_left"] > 0
    assert {"win", "stalemate", "no_survivor_saved"} <= causes, causes


def test_player_counts_outside_the_rules_are_refused():
    for n in (1, 2, 7):
        with pytest.raises(ValueError):
            Reference(REF, {"players": n}, RandomChance(0))
    with pytest.raises(ValueError):
        Reference(REF, {"players": 3, "characters": ["pillar", "pillar", "psycho"]},
                  RandomChance(0))


def test_setup_unpicked_basic_weapons_join_the_rubble_deck():
    g = Reference(REF, {"players": 3, "characters": ["pillar", "hipster", "trigger"]},
                  RandomChance(0))
    # the first decision is seat 0's first search action: no card has moved yet
    assert g.to_move() == 0 and g.observation()["decision"] == "turn"
    box = sum(v for k, v in REF.items() if k.startswith("rubble.") and k.endswith(".count"))
    assert sum(g.rubble_deck.values()) == box + 3
    for w in ("knife", "drifter_machete", "baseball_bat"):
        assert g.rubble_deck[w] == 1
    assert [s.inv for s in g.seats] == [{"crowbar": 1}, {"bow": 1}, {"trigger_pistol": 1}]
    assert [s.health for s in g.seats] == [7, 5, 5] and g.leader is None


# ------------------------------------------------------------------ (b) worked examples
PLAIN = ["haggler", "hipster", "psycho"]  # no distance modifier on seat 0


def test_rulebook_attack_example_ordered_damage():
    """Raider, Wanderer, Wanderer, Monster; 6 gun ammo rolls X, H, H, B, B, B: the raider
    takes 2 B, each wanderer 1 H, the last B lands on the monster."""
    g, ch = _scenario({"players": 3, "characters": PLAIN,
                       "inventories": [{"pistol": 1, "gun_ammo": 7}, None, None],
                       "areas": [["raider", "wanderer", "wanderer", "monster"], None, None]},
                      {"attack_die": ["X", "H", "H", "B", "B", "B"], "rubble_deck": ["nails"]})
    assert g.to_move() == 0 and ("attack", 0, "pistol") in g.legal_actions()
    g.apply(("attack", 0, "pistol"))
    # 7 gun ammo give only 6 dice: the 7th card is never spent
    assert g.legal_actions() == [("ammo", m) for m in range(1, 7)]
    g.apply(("ammo", 6))
    assert g.areas[0] == ["monster"]
    assert g.seats[0].kills == 3
    assert g.seats[0].inv == {"knife": 1, "pistol": 1, "gun_ammo": 1, "nails": 1}
    assert g.seats[0].health == 4  # own area: no collateral
    assert _left(ch) == {}


def test_rulebook_second_attack_example_stops_at_the_brute():
    line = ["raider", "brute", "wanderer", "wanderer", "monster", "raider", "raider",
            "wanderer", "monster", "brute"]
    g, ch = _scenario({"players": 3, "characters": PLAIN,
                       "inventories": [{"pistol": 1, "gun_ammo": 5}, None, None],
                       "areas": [line, None, None]},
                      {"attack_die": ["B"] * 5, "rubble_deck": ["wire"]})
    g.apply(("attack", 0, "pistol"))
    g.apply(("ammo", 5))
    assert g.areas[0] == line[1:]
    assert g.killed["raider"] == 1 and g.seats[0].inv.get("gun_ammo", 0) == 0
    assert _left(ch) == {}


def test_rulebook_taming_example_and_collateral():
    """Seat 1 shoots 6 infected in seat 0's area, eliminates 2: 2 of the 4 left move to
    seat 1's area; the X costs seat 0 one health."""
    g, ch = _scenario({"players": 3, "characters": PLAIN,
                       "inventories": [None, {"pistol": 1, "gun_ammo": 3}, None],
                       "areas": [["wanderer"] * 6, None, None]},
                      {"attack_die": ["H", "H", "X"]}, **{"characters.hipster.drawback.kind": "none"})
    _pass_until(g, 1)
    g.apply(("attack", 0, "pistol"))
    g.apply(("ammo", 3))
    assert g.areas[0] == ["wanderer"] * 2 and g.areas[1] == ["wanderer"] * 2
    assert g.seats[0].health == 3
    assert _left(ch) == {}


def test_bow_is_silent_no_taming_and_melee_blocked_when_own_area_busy():
    g, ch = _scenario({"players": 3, "characters": ["haggler", "hipster", "psycho"],
                       "inventories": [None, {"arrows": 2}, None],
                       "areas": [["wanderer"] * 4, None, ["wanderer"]]},
                      {"attack_die": ["H", "H"]})
    _pass_until(g, 1)
    acts = g.legal_actions()
    assert ("attack", 0, "bow") in acts and ("attack", 2, "bow") in acts
    g.apply(("attack", 0, "bow"))
    g.apply(("ammo", 2))
    assert g.areas[0] == ["wanderer"] * 2 and g.areas[1] == []
    # the Psycho's own area holds an enemy: his bat reaches only his own area
    assert g.to_move() == 2
    assert [a for a in g.legal_actions() if a[0] == "attack"] == [("attack", 2, "baseball_bat")]


def test_trigger_collateral_costs_two_per_x():
    g, ch = _scenario({"players": 3, "characters": ["haggler", "trigger", "psycho"],
                       "inventories": [None, {"gun_ammo": 1}, None],
                       "areas": [["brute"], None, None]},
                      {"attack_die": ["X", "X"]})
    _pass_until(g, 1)
    g.apply(("attack", 0, "trigger_pistol"))
    assert g.seats[0].health == 4 - 4  # 2 X, 2 each
    assert g.is_over() and g.record()["cause"] == "character_died"
    assert g.record()["died_seat"] == 0


def test_rulebook_trap_example_brute_and_monster():
    g, ch = _scenario({"players": 3, "characters": PLAIN, "traps": [1, 1, 2],
                       "areas": [["brute", "wanderer"], ["monster"], ["monster", "raider"]]},
                      {"enemy_die": ["X"] * 6, "rubble_deck": ["wire", "blade", "nails"]})
    for _ in range(3):
        g.apply(("pass",))
    # seat 0: the trap kills the Brute; seat 1: 1 head on the Monster is not enough, the
    # trap is spent anyway; seat 2: two traps add up and kill the Monster
    assert g.killed["brute"] == 1 and g.killed["monster"] == 1
    assert g.seats[1].traps == 0 and g.trap_supply == REF["constants.trap_supply"]
    # (round 2's wave has joined seat 1's area behind the monster)
    assert g.areas[0] == ["wanderer"] and g.areas[1][0] == "monster" and g.areas[2] == ["raider"]
    assert g.seats[2].kept == ["monster"] and g.seats[2].kills == 1
    assert g.seats[0].inv.get("wire") == 1   # a Brute's reward card to the trap's owner
    assert sorted(g.seats[2].inv) == ["baseball_bat", "blade", "nails"]


def test_rulebook_barricade_example():
    """Monster and Brute roll X + 4 B: two bodies each destroy both barricades."""
    g, ch = _scenario({"players": 3, "characters": PLAIN, "barricades": [2, 0, 0],
                       "areas": [["monster", "brute"], None, None]},
                      {"enemy_die": ["X", "B", "B", "B", "B"]})
    for _ in range(3):
        g.apply(("pass",))
    assert g.seats[0].barricades == 0 and g.seats[0].health == 4
    assert g.barricade_supply == REF["constants.barricade_supply"]
    assert _left(ch) == {}


def test_rulebook_raider_example():
    """4 raiders, 2 survivors: 3 X + 3 B kill both survivors and deal 1 damage (the odd
    body is lost); then H + B deals 1 more; each damage discards a card."""
    g, ch = _scenario({"players": 3, "characters": ["psycho", "hipster", "trigger"],
                       "inventories": [{"canned_food": 1, "wire": 1}, None, None],
                       "areas": [["raider", "survivor", "raider", "survivor", "raider",
                                  "raider"], None, None]},
                      {"enemy_die": ["X", "X", "X", "B", "B", "B", "H", "B"]})
    for _ in range(3):
        g.apply(("pass",))
    assert g.observation()["decision"] == "discard" and g.to_move() == 0
    g.apply(("discard", "wire"))
    assert g.observation()["decision"] == "discard"
    g.apply(("discard", "canned_food"))
    assert g.seats[0].health == 6 - 2
    assert g.seats[0].inv == {"baseball_bat": 1}
    assert "survivor" not in g.areas[0] and g.horde_discard.get("survivor") == 2
    assert _left(ch) == {}


def test_rulebook_infected_example():
    """6 wanderers, 2 survivors, a monster, 2 brutes: 13 dice in batches 6, 6, 1."""
    g, ch = _scenario({"players": 3, "characters": ["psycho", "hipster", "trigger"],
                       "areas": [["wanderer"] * 6 + ["survivor"] * 2 + ["monster"]
                                 + ["brute"] * 2, None, None]},
                      {"enemy_die": ["X", "X", "H", "H", "B", "B",
                                     "X", "X", "B", "B", "B", "B", "X"]})
    for _ in range(3):
        g.apply(("pass",))
    assert g.seats[0].health == 6 - 3
    assert g.areas[0].count("survivor") == 0
    assert _left(ch) == {}
    assert g.round == 2  # the round ended; round 2's search begins


def test_all_raiders_first_variant_and_area_order():
    """Areas attack clockwise from the caught player; each area's raiders first, or (the
    variant) every area's raiders before any infected."""
    for variant in (False, True):
        g, ch = _scenario({"players": 3, "characters": ["psycho", "hipster", "drifter"],
                           "saved": [5, 5, 0],
                           "areas": [["wanderer", "raider"], ["wanderer", "raider"], None]},
                          {"enemy_die": ["H", "H", "H", "H", "H", "H"]},
                          **{"variants.all_raiders_first": variant})
        hits: list[int] = []
        for _ in range(3):
            g.apply(("pass",))
        while g.observation()["decision"] == "sacrifice":
            hits.append(g.to_move())
            g.apply(("sacrifice",))
        # a raider's batch (2 dice: 2 H) asks 2 sacrifices, a wanderer's (1 die) 1
        assert hits == ([0, 0, 1, 1, 0, 1] if variant else [0, 0, 0, 1, 1, 1])
        assert _left(ch) == {}


def test_sacrifice_drifter_and_pillar_absorb():
    g, ch = _scenario({"players": 3, "characters": ["drifter", "pillar", "psycho"],
                       "saved": [1, 0, 0],
                       "areas": [["monster"], None, ["wanderer"]]},
                      {"enemy_die": ["H", "H", "H", "H"]})
    for _ in range(3):
        g.apply(("pass",))
    # the Drifter ignores the first damage, the adjacent Pillar absorbs the second, then
    # the decision whether a saved survivor takes the third
    assert g.observation()["decision"] == "sacrifice" and g.to_move() == 0
    g.apply(("sacrifice",))
    assert g.seats[0].health == 6 and g.seats[0].saved == 0
    # the Psycho's wanderer: the Pillar's absorb is spent for the round
    assert g.seats[2].health == 5 and g.round == 2


def test_die_of_fate_adds_an_enemy_and_search_timer_catches_the_next_player():
    rules = _rules("reference", **_timer(2))
    ch = ScriptedChance({"search_timer": [2], "fate_die": ["add_enemy"],
                         "horde_deck": ["wanderer"] * 5, "rubble_deck": ["wire", "blade"]})
    g = Reference(rules, {"players": 3, "characters": ["haggler", "trigger", "psycho"]}, ch)
    g.apply(("draw",))
    g.apply(("draw",))
    # two actions done: seat 2 is caught and receives 1*3 + 1 + 1 cards
    obs = g.observation()
    assert obs["caught"] == 2 and obs["phase"] == "combat" and g.to_move() == 2
    assert g.areas[2] == ["wanderer"] * 5
    assert g.seats[0].inv.get("wire") == 1 and g.seats[1].inv.get("blade") == 1
    assert _left(ch) == {}


def test_leader_doubles_the_psycho_advantage():
    """The rulebook's leader example: a symbol card makes the Psycho leader, 2 extra dice."""
    g, ch = _scenario({"players": 3, "characters": ["psycho", "hipster", "haggler"],
                       "inventories": [{"symbol": 1}, None, None],
                       "areas": [["monster"], None, None]},
                      {"attack_die": ["B", "B", "B", "B"]})
    assert g.leader == 0 and g.xp(0) == 1
    g.apply(("attack", 0, "baseball_bat"))
    # 2 + 1*2 = 4 dice, all rolled; four bodies never kill a monster
    assert [k for k, _ in ch.history].count("attack_die") == 4
    assert g.areas[0] == ["monster"] and g.to_move() == 1
    assert _left(ch) == {}


def test_focus_lucky_energy_shot_and_bloodlust():
    g, ch = _scenario({"players": 3, "characters": ["psycho", "hipster", "trigger"],
                       "inventories": [{"bloodlust": 1, "focus": 1, "lucky": 1,
                                        "energy_shot": 1}, None, None],
                       "areas": [["monster", "brute"], None, None]},
                      {"attack_die": ["B", "X", "X", "X", "X"], "reroll_die": ["H", "X", "X", "X"],
                       "rubble_deck": ["wire", "blade"]})
    g.apply(("attack", 0, "baseball_bat"))
    assert g.observation()["decision"] == "boost"
    g.apply(("boost", "bloodlust"))  # 3 + 2 = 5 dice
    assert g.observation()["attack"]["dice"] == 5
    assert set(g.legal_actions()) == {("focus",), ("energy_shot",), ("lucky",), ("resolve",)}
    g.apply(("lucky",))           # rerolls the 4 X once: H, X, X, X
    assert ("lucky",) not in g.legal_actions()
    g.apply(("focus",))           # B -> H: two heads now
    g.apply(("energy_shot",))     # X -> B
    # H H B X X: 2 H kill the monster, the brute needs a head: stop
    assert g.killed["monster"] == 1 and g.areas[0] == ["brute"]
    assert g.seats[0].kept == ["monster"] and g.xp(0) == 1 and g.leader == 0
    assert _left(ch) == {}


def test_stack_trade_moves_the_chosen_amount_and_haggler_trades_free():
    ch = ScriptedChance({"search_timer": [3], "fate_die": ["heal"],
                         "horde_deck": ["wanderer"] * 4})
    g = Reference(_rules("reference", **_timer(3)), {"players": 3, "characters": ["haggler", "hipster", "trigger"],
                        "inventories": [{"gun_ammo": 4}, None, None]}, ch)
    g.apply(("give", "gun_ammo", 2))
    assert g.legal_actions() == [("move", m) for m in range(1, 5)]
    g.apply(("move", 3))
    # the Haggler's first trade is free: still his turn
    assert g.to_move() == 0 and g.observation()["search_actions"] == 0
    g.apply(("give", "gun_ammo", 2))   # a single card: no "move" decision; ends the turn
    assert g.seats[2].inv["gun_ammo"] == 4 and "gun_ammo" not in g.seats[0].inv
    assert g.to_move() == 1 and g.observation()["search_actions"] == 1


def test_hipster_looks_at_two_keeps_one_and_events_resolve():
    ch = ScriptedChance({"search_timer": [2], "fate_die": ["heal"],
                         "horde_deck": ["wanderer"] * 4,
                         "rubble_deck": ["axe", "medkit", "injury", "wire"]})
    g = Reference(_rules("reference", **_timer(2)), {"players": 3, "characters": ["hipster", "haggler", "trigger"]}, ch)
    g.apply(("draw",))
    assert g.legal_actions() == [("keep", "axe"), ("keep", "medkit")]
    g.apply(("keep", "axe"))
    assert g.seats[0].inv == {"bow": 1, "axe": 1} and g.rubble_discard == {"medkit": 1}
    g.apply(("draw",))   # the Haggler draws an injury: 1 damage at once
    assert g.seats[1].health == 3 and g.rubble_discard.get("injury") == 1


def test_inventory_limit_forces_a_discard():
    ch = ScriptedChance({"search_timer": [1], "fate_die": ["heal"],
                         "horde_deck": ["wanderer"] * 4, "rubble_deck": ["helmet"]})
    hand = {"wire": 3, "blade": 3, "planks": 3}   # 9 + the bow: 10 slots used
    g = Reference(_rules("reference", **_timer(1)),
                  {"players": 3, "characters": ["trigger", "haggler", "psycho"],
                        "inventories": [hand, None, None]}, ch)
    g.apply(("draw",))
    assert g.observation()["decision"] == "discard" and g.to_move() == 0
    g.apply(("discard", "helmet"))
    assert g.slots_used(0) == 10 and g.observation()["decision"] == "turn"


def test_final_fight_win_and_losses():
    # one round: a survivor alone in seat 1's area is saved, no enemy: a win
    g, ch = _scenario({"players": 3, "characters": PLAIN,
                       "areas": [None, ["survivor"], None]}, {},
                      **{"constants.rounds": 1})
    assert g.is_over()
    rec = g.record()
    assert rec["won"] and rec["cause"] == "win" and rec["survivors_saved"] == [0, 1, 0]
    assert rec["xp"][1] == 1 and rec["leader"] == 1
    # no survivor at all: lost
    g, ch = _scenario({"players": 3, "characters": PLAIN}, {}, **{"constants.rounds": 1})
    assert g.record()["cause"] == "no_survivor_saved" and not g.record()["won"]
    # a monster nobody can hurt, cap 2 exchanges: a stalemate
    g, ch = _scenario({"players": 3, "characters": PLAIN, "saved": [1, 0, 0],
                       "areas": [None, ["monster"], None]},
                      {"enemy_die": ["X"] * 6},
                      **{"constants.rounds": 1, "constants.stalemate_cap": 2})
    while not g.is_over():
        g.apply(("pass",))
    rec = g.record()
    assert rec["cause"] == "stalemate" and rec["exchanges"] == 2 and rec["enemies_left"] == 1


def test_character_drawbacks_limit_the_actions():
    g, ch = _scenario({"players": 3, "characters": ["hipster", "drifter", "psycho"],
                       "inventories": [{"pistol": 1, "gun_ammo": 2, "arrows": 1},
                                       {"planks": 1, "nails": 1, "wire": 1, "blade": 1},
                                       {"wire": 1}],
                       "areas": [["wanderer"], None, None]},
                      {"attack_die": ["X"]})
    attacks = [a for a in g.legal_actions() if a[0] == "attack"]
    assert attacks == [("attack", 0, "bow")]          # the Hipster refuses firearms
    g.apply(("pass",))
    crafts = [a for a in g.legal_actions() if a[0] == "craft"]
    assert crafts == [("craft", "trap")]              # the Drifter builds no barricade
    g.apply(("craft", "trap"))
    assert g.seats[1].traps == 1 and g.trap_supply == REF["constants.trap_supply"] - 1
    assert not [a for a in g.legal_actions() if a[0] == "give"]   # the Psycho gives nothing
    assert ("take", "planks", 1) in g.legal_actions()              # but takes


def test_pillar_loses_a_die_at_distance_and_collateral_skips_the_damage_path():
    """The Pillar shoots 2 gun ammo with a pistol: 2 - 1 = 1 die; its X costs the Drifter 1
    health straight away (his ignore_damage does not apply to collateral)."""
    g, ch = _scenario({"players": 3, "characters": ["drifter", "pillar", "psycho"],
                       "inventories": [None, {"pistol": 1, "gun_ammo": 2}, None],
                       "areas": [["wanderer"], None, None]},
                      {"attack_die": ["X"]})
    _pass_until(g, 1)
    g.apply(("attack", 0, "pistol"))
    assert g.legal_actions() == [("ammo", 1), ("ammo", 2)]
    g.apply(("ammo", 2))
    assert [k for k, _ in ch.history].count("attack_die") == 1
    assert g.seats[0].health == 5 and g.seats[0].ignored == 0


def test_adrenaline_gives_a_second_attack():
    g, ch = _scenario({"players": 3, "characters": ["psycho", "hipster", "trigger"],
                       "inventories": [{"adrenaline": 1}, None, None],
                       "areas": [["wanderer", "wanderer"], None, None]},
                      {"attack_die": ["X", "X", "X", "H", "X", "X"]})
    g.apply(("attack", 0, "baseball_bat"))
    assert g.observation()["decision"] == "adrenaline"
    assert set(g.legal_actions()) == {("attack", 0, "baseball_bat"), ("done",)}
    g.apply(("attack", 0, "baseball_bat"))
    assert g.areas[0] == ["wanderer"] and "adrenaline" not in g.seats[0].inv
    assert g.to_move() == 1


def test_survivors_block_attacks_variant():
    for block, left in ((False, ["survivor"]), (True, ["wanderer"])):
        g, ch = _scenario({"players": 3, "characters": ["psycho", "hipster", "trigger"],
                           "areas": [["survivor", "wanderer"], None, None]},
                          {"attack_die": ["B", "B", "X"]},
                          **{"variants.survivors_block_attacks": block})
        g.apply(("attack", 0, "baseball_bat"))
        # default: the survivor is skipped and 2 B kill the wanderer; the variant: the
        # survivor takes a body and dies, 1 B cannot kill the wanderer
        assert g.areas[0] == left
        assert g.seats[0].kills == 1  # the survivor shot counts in the record's kills too


def test_trap_rewards_variant_off():
    g, ch = _scenario({"players": 3, "characters": PLAIN, "traps": [1, 0, 0],
                       "areas": [["raider"], None, None]}, {},
                      **{"variants.trap_rewards": False})
    for _ in range(3):
        g.apply(("pass",))
    assert g.killed["raider"] == 1 and g.seats[0].kills == 0
    assert g.seats[0].inv == {"knife": 1}     # no reward card
    assert g.horde_discard.get("raider") == 1


def test_horde_reshuffle_variant():
    """An empty horde deck takes its discards back (default) or stays empty (variant off)."""
    for reshuffle in (True, False):
        rules = _rules("reference", **{**QUIET, "variants.horde_reshuffle": reshuffle,
                                       "horde.wanderer.count": 1, "horde.raider.count": 0,
                                       "horde.brute.count": 0, "horde.monster.count": 0,
                                       "horde.survivor.count": 0})
        ch = ScriptedChance({"search_timer": [0, 0], "fate_die": ["add_enemy", "heal"],
                             "horde_deck": ["wanderer", "wanderer"], "attack_die": ["H"]})
        g = Reference(rules, {"players": 3, "characters": ["psycho", "hipster", "trigger"],
                              "inventories": [None, {"arrows": 1}, None]}, ch)
        # wave = 0*3 + 1 + 1 = 2 cards from a one-card deck: one card comes
        assert g.areas[0] == ["wanderer"] and sum(g.horde_deck.values()) == 0
        g.apply(("pass",))
        g.apply(("attack", 0, "bow"))      # the kill goes to the horde discards
        assert g.horde_discard == {"wanderer": 1}
        g.apply(("pass",))
        # round 2: seat 1 is caught (no search actions); its wave of 2 finds the deck empty
        assert g.round == 2 and g.observation()["caught"] == 1
        if reshuffle:
            assert g.areas[1] == ["wanderer"] and g.horde_discard == {}
            assert ch.left() == {}
        else:
            assert g.areas[1] == [] and g.horde_discard == {"wanderer": 1}
            assert ch.left() == {"horde_deck": ["wanderer"]}


def test_pickpocket_takes_the_stack_and_gives_xp():
    ch = ScriptedChance({"search_timer": [1], "fate_die": ["heal"], "horde_deck": ["wanderer"] * 4})
    g = Reference(_rules("reference", **_timer(1)),
                  {"players": 3, "characters": ["psycho", "hipster", "trigger"],
                   "inventories": [{"pickpocket": 1}, None, {"gun_ammo": 3}]}, ch)
    assert ("pickpocket", 2, "gun_ammo") in g.legal_actions()
    g.apply(("pickpocket", 2, "gun_ammo"))
    assert g.seats[0].inv == {"baseball_bat": 1, "gun_ammo": 3} and g.xp(0) == 1
    assert g.leader == 0 and "pickpocket" not in g.seats[0].inv
