"""The Day Night Z reference engine (tests/reference/day_night_z.py): whole games played
at random and by a simple greedy player keep the rules' invariants, and the verification
cases of the game's engine specification §5 play as the texts say."""
from __future__ import annotations

import random

import pytest

from simlib.games.day_night_z.ruleset import load_ruleset
from tests.reference.chance import RandomChance, ScriptedChance
from tests.reference.day_night_z import Reference

RULES = load_ruleset()
CHANCE_KINDS = {"check_die", "attack_die", "enemy_die", "infection_die", "search_deck", "spawn_deck",
                "exploration_deck", "encounter_deck", "surprise_deck", "corpse_pile", "threat_a",
                "threat_hourglasses", "threat_hunter", "threat_infection", "threat_condition",
                "threat_location", "hunter_target", "ambush_target"}


def flat(over=None) -> dict:
    r = RULES.override(over) if over else RULES
    return {k: r.get(k) for k in r.keys()}


R = flat()
UPL = R["threat_track.units_per_level"]


def game(players=1, queues=None, over=None, seed=99, **setup) -> Reference:
    chance = ScriptedChance(queues or {}, fallback=RandomChance(seed))
    return Reference(flat(over), {"players": players, **setup}, chance)


def invariants(g: Reference):
    R = g.R
    top = 3 * UPL
    assert 1 <= g.threat <= top
    assert g.noise_red >= 0 and g.noise_yellow >= 0
    for sv in g.sv:
        assert 0 <= sv["health"] <= R["survivor.health_max"]
        assert 0 <= sv["stress"] <= R["survivor.stress_max"]
        assert 0 <= sv["infection"] <= R["survivor.infection_death"]
        assert 0 <= sv["sp"] <= R["survivor.sp_cap"]
        assert sv["supplies"] >= 0 and sv["ammo"] >= 0 and sv["battery"] >= 0
        assert 0 <= sv["exchange"] < max(1, R["combat.exchange_items"])
        assert sv["alive"] == (sv["cause"] is None)
        if sv["alive"]:
            assert sv["health"] > 0 and sv["infection"] < R["survivor.infection_death"]
            assert sv["tile"] is None or sv["tile"] in g.tiles
    on_board = {k: 0 for k in g.box}
    for t in g.tiles.values():
        assert len(t["enemies"]) <= R["map.tile_capacity"]
        assert t["corpses"] >= 0 and t["markers"] >= 0
        for e in t["enemies"]:
            on_board[e["kind"]] += 1
            if e["engaged"] is not None:
                sv = g.sv[e["engaged"]]
                assert sv["alive"] and sv["tile"] == t["id"] and not sv["hidden"]
        for s in range(g.n):
            assert sum(1 for e in t["enemies"] if e["engaged"] == s) <= R["map.engaged_cap"]
    for k in g.box:
        if k == "hunter":
            assert on_board[k] <= 1
            continue
        assert g.box[k] >= 0
        if not R["variants.unlimited_miniatures"]:
            assert g.box[k] + on_board[k] == R[f"enemies.{k}.miniatures"], k
    for p in g.piles.values():
        assert all(v >= 0 for v in p.left.values())


def check_record(g: Reference, start_threat: int):
    rec = g.record()
    assert rec["result"] in ("success", "all_dead", "out_of_turns")
    assert 1 <= rec["turns"] <= R["scenario.turn_limit"]
    assert rec["alive"] + sum(rec["deaths"].values()) == g.n
    assert rec["alive"] == len(rec["alive_seats"])
    assert rec["success"] == (rec["result"] == "success")
    if rec["result"] == "all_dead":
        assert rec["alive"] == 0 and rec["vp"] == 0
    if rec["success"]:
        assert rec["searches"] >= R["scenario.searches_needed"]
        assert rec["vp"] == max(0, R["scenario.vp_base"] - R["scenario.vp_per_dead"] * (g.n - rec["alive"]))
        for s in rec["alive_seats"]:
            sv = rec["survivors"][s]
            assert tuple(sv["zone"]) in g.exits and (sv["tile"] is None or sv["tile"].startswith("city:"))
    else:
        assert rec["vp"] == 0
    if rec["result"] == "out_of_turns":
        assert rec["turns"] == R["scenario.turn_limit"]
    assert start_threat + sum(rec["threat_from"].values()) - rec["threat_lowered"] == rec["threat"]
    assert rec["sp_on_threat"] >= rec["threat_lowered"] * min(R["threat_track.cost_green"], R["threat_track.cost_yellow"])
    assert rec["hunter_spawns"] >= (rec["hunter"] != "absent")
    assert g.to_move() is None and g.legal_actions() == []
    return rec


def greedy(g: Reference, rng: random.Random) -> tuple:
    """Search the locations, then walk to an exit; fight what is engaged."""
    legal = g.legal_actions()
    kind = g.pending[0]
    if kind in ("activate", "hidden", "sweep"):
        return legal[-1] if kind == "hidden" else legal[0]
    if kind in ("keep", "roll"):
        return max(legal, key=lambda a: a[-1])
    s = g.to_move()
    sv = g.sv[s]
    by = {}
    for a in legal:
        by.setdefault(a[0], []).append(a)
    if "eat" in by and sv["health"] <= 5:
        return by["eat"][0]
    if "attack" in by:
        engaged = [a for a in by["attack"] if any(e["id"] == a[2] and e["engaged"] == s
                                                   for e in g.tiles[sv["tile"]]["enemies"])]
        return max(engaged or by["attack"], key=lambda a: a[-1])
    if "evade" in by:
        return by["evade"][-1]
    for k in ("search_zone", "search_item"):
        if k in by:
            return by[k][-1]
    done = g.searches >= R["scenario.searches_needed"]
    loc = g._in_location(s)
    if loc is not None:
        i = int(sv["tile"].split(":")[1])
        loc_done = all(f"{loc}:{j}" in g.searched for j in range(R[f"locations.{loc}.tiles"]))
        if done or loc_done or g.tiles[sv["tile"]]["enemies"]:
            back = by.get("exit_location") or [a for a in by.get("tile", []) if a[1] < i]
        else:
            back = ([a for a in by.get("tile", []) if a[1] > i] or by.get("exit_location")
                    or [a for a in by.get("tile", []) if a[1] < i])
        if back:
            return back[0]
        return ("end",)
    if not done and "enter" in by and not all(f"{by['enter'][0][1]}:{j}" in g.searched
                                              for j in range(R[f"locations.{by['enter'][0][1]}.tiles"])):
        return by["enter"][0]
    if "move" in by:
        if done:
            goals = g.exits
        else:
            goals = [tuple(R[f"locations.{L}.access"]) for L in g.locations
                     if not all(f"{L}:{j}" in g.searched for j in range(R[f"locations.{L}.tiles"]))] or g.exits
        if sv["zone"] not in goals or not done:
            return min(by["move"], key=lambda a: (min(abs(a[1] - z[0]) + abs(a[2] - z[1]) for z in goals),
                                                  rng.random()))
    return ("end",)


def play(players, seed, policy="random", over=None, start_hour=None):
    setup = {"players": players}
    if start_hour is not None:
        setup["start_hour"] = start_hour
    chance = RandomChance(seed)
    g = Reference(flat(over), setup, chance)
    start = g.threat
    rng = random.Random(seed * 31 + players)
    steps = 0
    while not g.is_over():
        legal = g.legal_actions()
        assert legal and g.to_move() is not None
        assert len(set(legal)) == len(legal)
        obs = g.observation()
        assert obs["to_move"] == g.to_move() and obs["pending"] == g.pending[0]
        a = rng.choice(legal) if policy == "random" else greedy(g, rng)
        g.apply(a)
        invariants(g)
        steps += 1
        assert steps < 5000
    assert {k for k, _ in chance.history} <= CHANCE_KINDS
    return check_record(g, start)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_keep_the_invariants(players):
    for seed in range(8):
        play(players, seed)


def test_greedy_games_end_every_way_and_keep_the_invariants():
    results = {}
    for seed in range(15):
        for players in (1, 2, 4):
            rec = play(players, seed, "greedy", start_hour=(8, 14, 20)[seed % 3])
            results[rec["result"]] = results.get(rec["result"], 0) + 1
    assert results.get("success", 0) > 0 and results.get("all_dead", 0) > 0, results


def test_variants_and_other_rulesets_play_to_the_end():
    over = {"variants.unlimited_miniatures": True, "variants.attacks_earn_sp": True,
            "variants.eating_only_prevents_loss": True, "variants.red_units_block_entry": True,
            "survivor.max_sp_per_roll": 3, "threat_track.start_unit": 14}
    for seed in range(6):
        play(2, seed, "greedy", over=over)
        play(3, seed, "random", over=over)


def test_illegal_action_is_refused():
    g = game(1)
    with pytest.raises(ValueError):
        g.apply(("fly",))


# ---------------------------------------------------------------- verification cases (§5)

def swift_on_a_tile(players=1, queues=None, over=None, hour=14, enemies=(), engaged=True):
    g = game(players, queues, over)
    g.hour = hour
    t = g._city_tile_at(g.sv[0]["zone"])
    ids = []
    for k in enemies:
        e = g._place(t, k, engaged=0 if engaged else None)
        ids.append(e["id"])
    return g, ids


def test_case1_pool_minimum_die_after_sp_and_passed_check_earns_sp():
    g = game(1, {"check_die": ["f6"]})
    sp = g.sv[0]["sp"]
    assert not g._check(0, "aid", -2, 1)              # Aid 2 - 2 + 1 SP: 1 die, as with no SP
    assert [k for k, _ in g.chance.history] == ["check_die"]
    assert g.sv[0]["sp"] == sp - 1
    g = game(1, {"check_die": ["f6", "f4", "f5"]})
    g.sv[0]["stress"] = R["survivor.stress_red_from"]
    sp = g.sv[0]["sp"]
    assert g._check(0, "aid", 0, 1)                   # Aid 2 + 1 SP: 3 dice; a red star at red stress
    assert len(g.chance.history) == 3
    assert g.sv[0]["sp"] == sp - 1 + R["survivor.sp_per_passed_check"]


def test_case2_check_colours_are_not_nested():
    g = game(1, {"check_die": ["f1", "f2", "f3"]})
    g.sv[0]["stress"] = R["survivor.stress_yellow_from"]
    assert g._check(0, "aid", 1, 0)                   # [green, green, gold] at yellow: pass
    g = game(1, {"check_die": ["f1", "f2"]})
    g.sv[0]["stress"] = R["survivor.stress_yellow_from"]
    assert not g._check(0, "aid", 0, 0)               # [green, green] at yellow: fail
    g = game(1, {"check_die": ["f5"]})
    assert not g._check(0, "aid", -1, 0)              # [red] at green: fail


def test_case3_swift_shoots_at_night_rapid_fire_ammo_and_noise():
    # night, ranged 3 + 0 SP - Walker defense 0: 3 dice a roll (the high-ground tiles are off);
    # rapid fire: two rolls for the AP, a shot each
    g, (w,) = swift_on_a_tile(queues={"attack_die": ["f1", "f1", "f1", "f6", "f6", "f2"]},
                              hour=22, enemies=["walker"])
    ammo, ap = g.sv[0]["ammo"], g.sv[0]["ap"]
    g.apply(("attack", "colt", w, 0))
    assert [k for k, _ in g.chance.history] == ["attack_die"] * 6
    assert g.sv[0]["ammo"] == ammo - 2 and g.sv[0]["ap"] == ap - R["combat.attack_ap"]
    assert g.noise_red == 2 and g.sv[0]["noisy_used"]
    e = next(e for e in g.tiles["city:0,0"]["enemies"] if e["id"] == w)
    assert e["wounds"] == 1                           # the second roll's green target hits once


def test_case3_star_fires_pierce_and_a_kill_earns_sp():
    # day Leader (defense 1: 4 - 1 = 3 dice): resistance 1 absorbs the Colt's 1 unless a star
    # fires pierce
    g, (leader,) = swift_on_a_tile(queues={"attack_die": ["f4", "f6", "f6",    # hit, no star: 0 damage
                                                    "f2", "f6", "f6"]},  # hit + star: pierce, 1
                              enemies=["leader"])
    g.apply(("attack", "colt", leader, 0))
    assert len(g.chance.history) == 6
    e = next(e for e in g.tiles["city:0,0"]["enemies"] if e["id"] == leader)
    assert e["wounds"] == 1
    # a kill earns the enemy's SP and leaves a corpse; its miniature goes back to the box
    g, (w,) = swift_on_a_tile(queues={"attack_die": ["f4", "f6", "f6", "f6"]}, enemies=["walker"])
    sp, box = g.sv[0]["sp"], g.box["walker"]
    g.apply(("attack", "colt", w, 0))
    assert len(g.chance.history) == 4                 # day: 4 dice; the Walker dies, no second shot
    assert g.sv[0]["sp"] == sp + R["enemies.walker.day.sp"] and g.stats["kills"] == 1
    assert g.tiles["city:0,0"]["corpses"] == 1 and g.box["walker"] == box + 1
    assert g.sv[0]["ammo"] == R["survivors.swift.ammo"] - 1


def test_case4_bulker_at_night_on_lebeu():
    over = {}
    g = game(2, over=over)
    g.hour = 22
    t = g._city_tile_at(g.sv[1]["zone"])
    b = g._place(t, "bulker", engaged=1)
    g.sv[1]["defending"] = True
    g.sv[1]["cards"].append("biker_gloves")
    g.chance.queues["enemy_die"] = __import__("collections").deque(["f3"])
    g._enemy_attack(b, 1, "arms")                     # 3 - Defense 1 - defend 1 - gloves 1: 1 die
    assert [k for k, _ in g.chance.history] == ["enemy_die"]
    assert g.sv[1]["health"] == R["survivor.health_max"]   # the gloves cancel the hit, and go
    assert "biker_gloves" not in g.sv[1]["cards"]
    g.chance.queues["enemy_die"].append("f3")         # no gloves now: 3 - 1 - 1 = 1 die
    g._enemy_attack(b, 1, "arms")
    assert g.sv[1]["health"] == R["survivor.health_max"] - 5
    assert g.sv[1]["stress"] == 1 and g.sv[1]["infection"] == 1 and g.noise_red == 0
    g.chance.queues["enemy_die"].append("f5")
    g._enemy_attack(b, 1, "head")
    assert g.sv[1]["stress"] == 2 and g.sv[1]["infection"] == 1 and g.noise_red == 1


def test_case5_crawler_and_stress_once_an_attack():
    g = game(1)
    t = g._city_tile_at(g.sv[0]["zone"])
    c = g._place(t, "crawler", engaged=0)
    g.chance.queues["enemy_die"] = __import__("collections").deque(["f3", "f5", "f3"])
    g._enemy_attack(c, 0, "head")
    sv = g.sv[0]
    assert sv["health"] == R["survivor.health_max"] - R["enemies.crawler.day.damage"]
    assert sv["stress"] == 1 and sv["infection"] == 1 and g.noise_red == 1
    g.chance.queues["enemy_die"].extend(["f3", "f3", "f3"])
    g._enemy_attack(c, 0, "head")
    assert sv["infection"] == 1                       # already infected: the icon is ignored
    g = game(1)
    t = g._city_tile_at(g.sv[0]["zone"])
    w1, w2, b = (g._place(t, k, engaged=0) for k in ("walker", "walker", "bulker"))
    g.chance.queues["enemy_die"] = __import__("collections").deque(["f1", "f4", "f2", "f6", "f2"])
    for e in (w1, w2, b):
        g._enemy_attack(e, 0, "head")
    assert g.sv[0]["stress"] == 2


def test_case6_noise_adjustment():
    g = game(1)
    start = g.threat
    g.noise_red, g.noise_yellow = 5, 2                # 3 shots + 2 noisy zombie attacks, 2 old
    g._noise_adjustment()
    assert g.threat == start + 1 and (g.noise_red, g.noise_yellow) == (0, 5)
    g._noise_adjustment()
    assert g.threat == start + 2 and (g.noise_red, g.noise_yellow) == (0, 0)
    g._noise_adjustment()
    assert g.threat == start + 2


def test_case7_threat_leave_behind_and_lowering():
    g = game(1)
    g.threat = 14
    g._leave_rise([{"kind": "walker"}] * 5)           # SP 5: +2, green 14 -> yellow 1
    assert g.threat == UPL + 1 and g._level() == 1
    # Swift leaves a location with enemies while Lebeu stays: no rise
    g = game(2)
    g.sv[0]["tile"] = g.sv[1]["tile"] = "garage:0"
    g._open_location_tile("garage", 0)
    g._place(g.tiles["garage:0"], "walker")
    before = g.threat
    g._leave(0, whole_location=True)
    assert g.threat == before and "garage:0" in g.tiles
    g._leave(1, whole_location=True)
    assert g.threat == before + 1 and "garage:0" not in g.tiles
    # yellow 5 -> 3 costs 6 SP, then stops at the locked unit
    g = game(1)
    g.threat = UPL + 5
    g.sv[0]["sp"] = 15
    while ("lower_threat",) in g.legal_actions():
        g.apply(("lower_threat",))
    assert g.threat == UPL + 3 and g.sv[0]["sp"] == 15 - 2 * R["threat_track.cost_yellow"]


def test_case7_thirteen_sp_left_raise_three():
    g = game(1)
    g.threat = 1
    g._leave_rise([{"kind": "walker"}] * 4 + [{"kind": "howler"}, {"kind": "crawler"}, {"kind": "crawler"},
                                               {"kind": "leader"}])   # 4 + 2 + 4 + 3 = 13
    assert g.threat == 4


def test_case8_clock():
    g = game(1)
    g.hour = 20
    list(g._clock(1))
    assert g.hour == 21 and g._night() and g.record()["threat_from"]["clock"] == 1
    g = game(1, {"check_die": ["f6", "f6"]})
    g.hour = 23
    g.sv[0]["infection"] = 1
    gen = g._clock(2)
    assert next(gen) == ("roll", 0)                   # 00:00 fires: the infected test Strength
    with pytest.raises(StopIteration):
        gen.send(("roll", 0))
    assert g.hour == 1 and g.sv[0]["infection"] == 2
    for variant, health in ((False, 5), (True, 4)):
        g = game(4, over={"variants.eating_only_prevents_loss": variant})
        g.hour = 14
        o = g.sv[3]                                    # Olsson eats 2
        o["health"], o["supplies"] = 5, 1
        list(g._clock(1))
        assert o["health"] == health and o["supplies"] == 0
    g = game(1)
    g.hour = 6
    g.sv[0]["sp"] = R["survivor.sp_cap"]
    list(g._clock(1))
    assert g.sv[0]["sp"] == R["survivor.sp_cap"]
    g.sv[0]["sp"] = 3
    g.hour = 6
    list(g._clock(1))
    assert g.sv[0]["sp"] == 4


def test_case9_spawn_order_and_room():
    g = game(1, {"spawn_deck": ["walkers", "crawler_pack"]})
    g.threat = UPL + 1                                # yellow
    t = g._city_tile_at(g.sv[0]["zone"])
    g._spawn(t, 2)
    assert [e["kind"] for e in t["enemies"]] == ["walker", "walker", "crawler", "walker"]
    g = game(1, {"spawn_deck": ["walkers", "walkers", "walkers"]}, over={"map.tile_capacity": 3})
    g.threat = 2 * UPL + 1                            # red: 3 Walkers a card
    t = g._city_tile_at(g.sv[0]["zone"])
    g._spawn(t, 2)                                    # 6 into room for 3: 3 lost
    assert len(t["enemies"]) == 3 and g.box["walker"] == R["enemies.walker.miniatures"] - 3


# ---------------------------------------------------------------- scenes of the actions

def test_zone_search_draws_perception_cards_keeps_one_and_counts():
    g = game(1, {"exploration_deck": ["search"], "search_deck": ["colt", "supplies"],
                 "check_die": ["f1", "f6"]})
    g.sv[0]["tile"] = "garage:0"
    g._open_location_tile("garage", 0)
    assert g.tiles["garage:0"]["markers"] == 1 and not g.tiles["garage:0"]["enemies"]
    assert ("search_zone",) in g.legal_actions()
    g.apply(("search_zone",))
    assert g.pending[0] == "keep" and g.observation()["drawn"] == ["colt", "supplies"]
    assert ("keep", "supplies", 1) in g.legal_actions()
    supplies = g.sv[0]["supplies"]
    g.apply(("keep", "supplies", 1))                  # Perception 2 + 0 - 1 + 1 SP: 2 dice
    assert [o for k, o in g.chance.history if k == "check_die"][:2] == ["f1", "f6"]
    assert g.searches == 1 and "garage:0" in g.searched
    assert g.sv[0]["supplies"] >= supplies + R["search.supplies.amount"] - 1
    assert g.record()["sp_on_rolls"] >= 1


def test_a_search_zone_needs_a_fresh_activation_and_no_enemy():
    g = game(1, {"exploration_deck": ["spawn_and_search"], "spawn_deck": ["walkers", "walkers"]})
    g.sv[0]["tile"] = "garage:0"
    g._open_location_tile("garage", 0)
    assert len(g.tiles["garage:0"]["enemies"]) == 2 and g.tiles["garage:0"]["markers"] == 1
    legal = g.legal_actions()
    assert ("search_zone",) not in legal and ("search_item", 0) not in legal   # §4.7: no enemy
    assert all(a[0] != "attack" or a[1] == "colt" for a in legal)   # far enemies: shots only


def test_hiding_among_corpses():
    g = game(1, {"infection_die": ["f1", "f2", "f4"]})
    t = g._city_tile_at(g.sv[0]["zone"])
    t["corpses"] = 1
    g._place(t, "walker")
    g.apply(("hide",))
    assert g.sv[0]["hidden"] and t["corpses"] == 0 and g.sv[0]["infection"] == 0
    g = game(1, {"infection_die": ["f1", "f3", "f4"]})
    t = g._city_tile_at(g.sv[0]["zone"])
    t["corpses"] = 1
    g.sv[0]["infection"] = 1
    g.apply(("hide",))
    assert g.sv[0]["infection"] == 2                  # +1 even if infected
    g.sv[0]["hidden"] = True
    w = g._place(t, "walker")
    g._zombies("fury", "head")
    assert w["engaged"] is None                       # the hidden survivor is not a target


def test_alley_stops_the_activation_and_the_encounter_uses_the_reserve():
    g = game(1, {"encounter_deck": ["nerves"], "check_die": ["f6", "f6"]})
    g.apply(("move", 0, 1))
    g.apply(("move", 0, 2))                           # an alley: the activation ends, 1 AP kept
    assert g.phase == "encounters" and g.pending == ("roll", 0)
    assert g.sv[0]["reserve"] == R["survivor.ap_green"] - 2
    g.apply(("roll", 0))                              # Will 2: [red, red] at green stress fails
    assert g.sv[0]["stress"] == R["encounters.nerves.fail_stress"]
    assert g.pending[0] == "reserve" and g.sv[0]["ap"] == 1
    g.apply(("end",))
    assert g.phase != "encounters" or g.is_over()


# a threat card that brings nothing onto the board and leaves the clock (no ambush, no Hunter)
QUIET_THREAT = {"threat_a": ["normal"], "threat_hourglasses": ["zero"], "threat_hunter": ["no_hunter"],
                "threat_infection": ["no_infection"], "threat_condition": ["nothing"]}


def encounters_drawn(g: Reference) -> int:
    return sum(1 for k, _ in g.chance.history if k == "encounter_deck")


def test_an_encounter_card_needs_a_move_into_a_free_street_zone():
    g = game(2)
    g.apply(("activate", 0))
    g.apply(("end",))                                 # Swift stays: no card
    assert g.chance.history == []
    g.apply(("move", 1, 0))                           # Lebeu ends alone in a street zone
    assert g.chance.history == []                     # the card waits for his activation's end
    g.apply(("end",))
    assert g.chance.history[0][0] == "encounter_deck"
    assert encounters_drawn(g) == 1


def test_no_street_card_where_another_survivor_stands():
    g = game(2, {"encounter_deck": ["quiet"]})
    g.apply(("activate", 0))
    g.apply(("move", 1, 0))
    g.apply(("move", 0, 0))                           # back to the exit where Lebeu stands
    g.apply(("end",))
    assert encounters_drawn(g) == 0 and g.sv[0]["encounter"] is None
    g.apply(("move", 0, 1))                           # Lebeu ends alone: his card
    g.apply(("end",))
    assert [k for k, _ in g.chance.history][:1] == ["encounter_deck"] and encounters_drawn(g) == 1


def test_no_street_card_without_a_move_in_that_activation():
    g = game(1, {"encounter_deck": ["quiet"], **QUIET_THREAT})
    g.apply(("move", 1, 0))
    g.apply(("end",))                                 # turn 1: moved, alone: a card
    assert encounters_drawn(g) == 1
    assert g.phase == "encounters" and g.pending == ("reserve", 0)
    g.apply(("end",))                                 # his reserve, no move: no card
    assert g.turn == 2 and g.pending == ("act", 0) and encounters_drawn(g) == 1
    g.sv[0]["stress"] = 1
    g.apply(("rest",))                                # turn 2: rests where he stands
    if g.pending == ("act", 0):
        g.apply(("end",))
    assert encounters_drawn(g) == 1 and g.sv[0]["encounter"] is None


def test_a_walk_through_street_zones_draws_one_card_at_its_end():
    g = game(1, {"encounter_deck": ["quiet"]})
    g.apply(("move", 1, 0))
    g.apply(("move", 2, 0))
    assert encounters_drawn(g) == 0                   # no card on the way
    g.apply(("move", 2, 1))                           # the last AP: the activation ends
    assert encounters_drawn(g) == 1
    assert g.sv[0]["encounter"] is None and (g.turn == 2 or g.is_over())   # resolved in its phase


def test_one_card_at_a_time_and_a_reserve_card_waits():
    # an alley's card held: the street zone reached at the reserve's end draws no second one
    g = game(1, {"encounter_deck": ["quiet", "quiet"]})
    g.apply(("move", 0, 1))
    g.apply(("move", 0, 2))                           # the alley: STOP, its card
    assert encounters_drawn(g) == 1 and g.pending == ("reserve", 0)
    g.apply(("move", 0, 1))                           # out of the alley: STOP, its card again
    assert encounters_drawn(g) == 2 and g.sv[0]["encounter"] == "quiet"
    assert g.turn == 2 or g.phase == "threat" or g.is_over()
    # a street card drawn at the end of a reserve waits for the next encounter phase, and
    # holding it he draws no other on the next turn
    g = game(1, {"encounter_deck": ["quiet", "ambush"], **QUIET_THREAT})
    g.apply(("move", 1, 0))
    g.apply(("end",))
    assert g.pending == ("reserve", 0) and g.sv[0]["encounter"] is None
    g.apply(("move", 2, 0))
    g.apply(("end",))                                 # the reserve ends alone in a street zone
    assert encounters_drawn(g) == 2 and g.sv[0]["encounter"] == "ambush"
    assert g.turn == 2 and g.pending == ("act", 0) and not g.tiles   # not resolved this turn
    g.apply(("move", 1, 0))
    g.apply(("end",))                                 # he holds the ambush: no second card
    assert encounters_drawn(g) == 2
    assert g.tiles and g.sv[0]["tile"] == "city:1,0"  # the ambush played in turn 2's phase


def test_surprise_crawler_ambush_attacks_at_once():
    g = game(1, {"surprise_deck": ["crawler_ambush"], "threat_location": ["head"],
                 "enemy_die": ["f6", "f6", "f6"]})
    g.sv[0]["zone"] = (2, 3)
    g.apply(("move", 2, 2))
    t = g.tiles["city:2,2"]
    assert g.sv[0]["tile"] == "city:2,2" and [e["kind"] for e in t["enemies"]] == ["crawler"]
    assert t["enemies"][0]["engaged"] == 0 and g.sv[0]["health"] == R["survivor.health_max"]
    assert [k for k, _ in g.chance.history] == ["surprise_deck", "threat_location"] + ["enemy_die"] * 3
    assert (2, 2) not in g.surprises_left
    legal = g.legal_actions()
    # a move away from the engaged Crawler carries the Agility check's SP (Reading 7)
    assert all(len(a) == 4 for a in legal if a[0] == "move") and ("move", 1, 2, 0) in legal


def test_the_hunter_stalks_spawns_and_leaves_at_dawn():
    q = {"threat_a": ["normal"], "threat_hourglasses": ["zero"], "threat_hunter": ["hunter"],
         "threat_infection": ["no_infection"], "threat_condition": ["nothing"],
         "threat_location": ["legs"]}
    g = game(2, dict(q))
    g.hour = 22
    list(g._threat_phase())
    assert g.hunter == "stalk" and g.stats["hunter_spawns"] == 0
    for k, v in q.items():
        g.chance.queues[k].extend(v)
    g.chance.queues["hunter_target"] = __import__("collections").deque([1])
    list(g._threat_phase())
    t = g.tiles["city:0,0"]
    assert g.hunter == "board" and [e["kind"] for e in t["enemies"]] == ["hunter"]
    assert g.sv[0]["tile"] == g.sv[1]["tile"] == "city:0,0" and g.stats["hunter_spawns"] == 1
    t["enemies"][0]["wounds"] = 3
    g.hour = R["clock.dawn_hour"] - 1
    list(g._clock(1))
    assert g.hunter == "box" and not t["enemies"] and g.hunter_wounds == 3


def test_the_hunter_by_day_never_comes():
    q = {"threat_a": ["normal"], "threat_hourglasses": ["zero"], "threat_hunter": ["hunter"],
         "threat_infection": ["no_infection"], "threat_condition": ["nothing"]}
    g = game(1, q)
    g.hour = 12
    list(g._threat_phase())
    assert g.hunter == "box"


# ---------------------------------------------------------------- batteries (§4.2)

TURNS = R["search.flashlight.turns"]
DAY_RANGED, NIGHT_RANGED = R["survivors.swift.day.ranged"], R["survivors.swift.night.ranged"]


# threat cards that hold the clock and bring no enemy (no Hunter icon, no ambush), and a
# quiet encounter deck: a survivor who stays put sees only his light change
HELD_CLOCK = {"threat.hourglasses.zero": 49, "threat.hourglasses.one": 1, "threat.hourglasses.two": 0,
              "threat.icons.hunter": 0, "threat.icons.no_hunter": 50,
              "threat.conditions.ambush": 0, "threat.conditions.nothing": 28,
              "encounters.ambush.count": 0, "encounters.nerves.count": 0, "encounters.fall.count": 0}


def held(queues=None, **over) -> Reference:
    """Swift alone under HELD_CLOCK (its one card of an hourglass only when queued)."""
    q = {"threat_hourglasses": ["zero"] * 49}
    q.update(queues or {})
    return game(1, q, over={**HELD_CLOCK, **over})


def lamp(g: Reference) -> tuple:
    """Swift's battery units, light left and ranged value now."""
    sv = g.sv[0]
    return sv["battery"], sv["light"], g._attr(0, "ranged")


def test_a_unit_lasts_its_turns_from_a_night_activation_then_the_next():
    """At 22:00 (the clock held) Swift finds a flashlight with two units in his backpack,
    in the middle of an activation: dark until his next activation takes a unit, which
    lights TURNS turns (the turn taken included); then the next unit; then dark."""
    assert DAY_RANGED != NIGHT_RANGED and TURNS > 0
    g = held()
    g.hour = 22
    assert lamp(g) == (R["survivor.start_battery"], 0, NIGHT_RANGED)
    g.sv[0]["cards"].append("flashlight")
    g.sv[0]["battery"] = 2
    assert lamp(g) == (2, 0, NIGHT_RANGED)            # no unit is taken mid-activation
    seen = []
    for _ in range(2 * TURNS + 2):
        g.apply(("end",))                             # the next turn's activation starts
        assert g.pending == ("act", 0) and not g.is_over()
        seen.append(lamp(g))
    want = ([(1, TURNS - k, DAY_RANGED) for k in range(TURNS)] + [(0, TURNS - k, DAY_RANGED) for k in range(TURNS)]
            + [(0, 0, NIGHT_RANGED)] * 2)
    assert seen == want
    assert g.observation()["survivors"][0]["battery"] == 0 and g.observation()["survivors"][0]["light"] == 0


def test_no_unit_by_day_nor_in_a_reserve_and_a_night_begun_in_the_threat_phase_is_dark():
    # by day: no unit is taken, the day value anyway
    g = held()
    g.hour = 9
    g.sv[0]["cards"].append("flashlight")
    g.apply(("end",))
    assert g.pending == ("act", 0) and lamp(g) == (1, 0, DAY_RANGED)
    # 20:00 -> 21:00 in the threat phase: the night finds him in the dark until he next
    # activates, and his activation takes the unit
    g = held({"threat_hourglasses": ["one"] + ["zero"] * 49})
    g.hour = 20
    g.sv[0]["cards"].append("flashlight")
    assert lamp(g) == (1, 0, DAY_RANGED)
    list(g._threat_phase())                           # its hourglass: 21:00, night
    assert g.hour == 21 and g._night() and lamp(g) == (1, 0, NIGHT_RANGED)
    g.apply(("end",))                                 # the turn's own threat card holds the clock
    assert g.turn == 2 and g.pending == ("act", 0) and lamp(g) == (0, TURNS, DAY_RANGED)
    # at night, a reserve activation after his encounter card takes no unit
    g = held()
    g.hour = 22
    g.sv[0]["cards"].append("flashlight")             # found after his activation began
    g.apply(("move", 0, 1))
    g.apply(("move", 0, 2))                           # an alley: STOP, a card, the AP kept
    assert g.pending == ("reserve", 0) and lamp(g) == (1, 0, NIGHT_RANGED)
    g.apply(("end",))
    assert g.turn == 2 and g.pending == ("act", 0) and lamp(g) == (0, TURNS, DAY_RANGED)


def test_a_flashlight_of_zero_turns_needs_no_battery():
    g = held(**{"search.flashlight.turns": 0})
    g.hour = 22
    g.sv[0]["cards"].append("flashlight")
    g.sv[0]["battery"] = 0
    assert lamp(g) == (0, 0, DAY_RANGED)              # lit at once, no unit
    g.apply(("end",))
    g.apply(("end",))
    assert g.turn == 3 and lamp(g) == (0, 0, DAY_RANGED)
    g = held(**{"search.flashlight.turns": 0})
    g.hour = 22
    g.sv[0]["cards"].append("flashlight")
    g.apply(("end",))
    assert lamp(g) == (R["survivor.start_battery"], 0, DAY_RANGED)   # his unit stays in the backpack


def test_a_battery_corpse_marker_adds_a_unit_to_the_backpack():
    assert R["corpses.battery.kind"] == "battery"
    g = game(1, {"corpse_pile": ["battery"]})
    t = g._city_tile_at(g.sv[0]["zone"])
    t["corpses"] = 1
    ap, supplies, ammo = g.sv[0]["ap"], g.sv[0]["supplies"], g.sv[0]["ammo"]
    g.apply(("search_corpse",))
    assert g.sv[0]["battery"] == R["survivor.start_battery"] + R["corpses.battery.amount"]
    assert (g.sv[0]["supplies"], g.sv[0]["ammo"]) == (supplies, ammo) and t["corpses"] == 0
    assert g.sv[0]["ap"] == ap - R["combat.search_item_ap"]
    assert g.observation()["survivors"][0]["battery"] == g.sv[0]["battery"]


# ---------------------------------------------------------------- exchanges (§4.6)

XAP, ITEMS = R["combat.exchange_ap"], R["combat.exchange_items"]


def pair(over=None, hour=None) -> Reference:
    """Swift (the Colt, his fists) and Lebeu (a knife) on exit A; Swift activated."""
    g = game(2, over=over)
    if hour is not None:
        g.hour = hour
    g.apply(("activate", 0))
    assert g.pending == ("act", 0) and g.sv[0]["zone"] == g.sv[1]["zone"]
    return g


def gives(g: Reference) -> set:
    return {a for a in g.legal_actions() if a[0] == "give"}


def test_an_exchange_costs_its_ap_once_then_its_gives_are_free_up_to_the_bound():
    """Reading 33: the first give declares the exchange (its AP, an action: no rest or zone
    search after it); the next are free, up to combat.exchange_items in all, also at 0 AP
    (Reading 34); then a give declares a new exchange, its AP again."""
    assert (XAP, ITEMS) == (1, 4)
    g = pair()
    ap, s0, s1 = g.sv[0]["ap"], g.sv[0]["supplies"], g.sv[1]["supplies"]
    g.sv[0]["stress"] = 2                             # rest would be legal before acting
    assert ("rest",) in g.legal_actions()
    g.apply(("give", 1, 0, "supplies"))
    assert g.sv[0]["ap"] == ap - XAP and g.sv[0]["exchange"] == ITEMS - 1
    assert (g.sv[0]["supplies"], g.sv[1]["supplies"]) == (s0 - 1, s1 + 1)
    assert ("rest",) not in g.legal_actions() and g.sv[0]["acted"]
    g.sv[0]["ap"] = 0                                 # the open exchange goes on at 0 AP
    g.apply(("give", 1, 1, "supplies"))
    g.apply(("give", 1, 1, "supplies"))
    assert g.pending == ("act", 0) and g.sv[0]["ap"] == 0
    assert (g.sv[0]["supplies"], g.sv[1]["supplies"]) == (s0 + 1, s1 - 1)
    assert g.observation()["survivors"][0]["exchange"] == 1
    g.apply(("give", 1, 0, "ammo"))                   # the exchange's last give
    assert g.sv[0]["exchange"] == 0 and g.sv[1]["ammo"] == 1
    # no AP for a new exchange, no other action: only the end is left, taken by itself
    assert g.pending == ("act", 1) and g.sv[0]["reserve"] == 0
    g = pair()
    for _ in range(ITEMS):
        g.apply(("give", 1, 0, "battery") if g.sv[0]["battery"] else ("give", 1, 1, "battery"))
    assert g.sv[0]["ap"] == ap - XAP and g.sv[0]["exchange"] == 0
    g.apply(("give", 1, 0, "supplies"))               # a new exchange: its AP again
    assert g.sv[0]["ap"] == ap - 2 * XAP and g.sv[0]["exchange"] == ITEMS - 1


def test_another_action_or_a_new_activation_closes_the_exchange_and_none_apart():
    """Reading 33: any other action (a free one too) closes the exchange; ending it closes
    it, so a reserve activation opens none. Reading 31: no give with a teammate on another
    place, a dead one, nor without the AP to declare one."""
    g = pair()
    g.sv[0]["health"] -= 2
    g.apply(("give", 1, 0, "supplies"))
    g.apply(("eat",))                                 # free, but another action
    assert g.sv[0]["exchange"] == 0
    ap = g.sv[0]["ap"]
    g.apply(("give", 1, 1, "supplies"))               # he takes one back: a new exchange
    assert g.sv[0]["ap"] == ap - XAP
    g.apply(("end",))
    assert g.sv[0]["exchange"] == 0 and g.sv[0]["reserve"] == ap - XAP
    g = pair(over={"combat.exchange_ap": 2})
    g.sv[0]["ap"] = 1
    assert not gives(g)                               # short of the exchange's AP
    g = pair()
    g.sv[1]["zone"] = (0, 1)
    assert not gives(g)                               # apart
    g = pair()
    g._city_tile_at(g.sv[0]["zone"])                  # both on the city tile there: together
    assert g.sv[1]["tile"] == g.sv[0]["tile"] and gives(g)
    g = pair()
    access = tuple(R["locations.fire_station.access"])
    a, b = g.sv
    a["zone"] = b["zone"] = access
    g._deploy("fire_station:0", access)
    b["tile"] = "fire_station:0"                      # in the location at his zone: elsewhere
    assert not gives(g)
    a["tile"] = "fire_station:0"                      # on its tile together
    assert gives(g)
    g = pair()
    g.sv[1].update(alive=False, cause="damage")
    assert not gives(g)


def test_what_can_be_given_and_the_flashlight_goes_with_its_light():
    """Reading 32: a counter unit, a kit, the flashlight or the suppressor to one without,
    a weapon swapped (never fists); the flashlight takes its light left along: at night the
    receiver sees by day values, the giver by night ones."""
    g = pair(hour=22)
    a, b = g.sv
    a.update(supplies=1, ammo=1, battery=1, light=2)
    b.update(supplies=0, ammo=0, battery=0)
    a["cards"] += ["painkillers", "first_aid_kit", "vaccine", "suppressor", "flashlight"]
    assert g._attr(0, "ranged") == R["survivors.swift.day.ranged"]
    assert gives(g) == {("give", 1, 0, good) for good in ("supplies", "ammo", "battery", "painkillers",
                                                          "first_aid", "vaccine", "flashlight", "suppressor",
                                                          "ranged")} | {("give", 1, 1, "melee")}
    g.apply(("give", 1, 0, "flashlight"))
    assert "flashlight" in b["cards"] and "flashlight" not in a["cards"]
    assert (a["light"], b["light"]) == (0, 2) and (a["battery"], b["battery"]) == (1, 0)
    assert g._attr(0, "ranged") == R["survivors.swift.night.ranged"]
    assert g._attr(1, "ranged") == R["survivors.lebeu.day.ranged"]
    assert ("give", 1, 0, "flashlight") not in gives(g) and ("give", 1, 1, "flashlight") in gives(g)
    g.apply(("give", 1, 0, "vaccine"))
    g.apply(("give", 1, 0, "suppressor"))
    assert b["cards"] == ["flashlight", "vaccine", "suppressor"]
    assert ("give", 1, 1, "suppressor") in gives(g) and ("give", 1, 0, "suppressor") not in gives(g)
    b["cards"].append("suppressor")                   # Swift holds none: one may go back
    a["cards"].append("suppressor")                   # now both hold one: none may go
    assert not {x for x in gives(g) if x[3] == "suppressor"}
    assert g.observation()["survivors"][1]["items"] == ["flashlight", "vaccine", "suppressor", "suppressor"]


def test_weapons_are_swapped_fists_stay_and_a_slow_shot_stays_with_the_weapon():
    """Reading 32: the ranged weapons swap (Lebeu has none: Swift is left without); a melee
    weapon given away leaves its giver his fists; fists are never handed over. §5 SLOW
    ("you can only shoot this weapon once per turn"): a shotgun shot this turn cannot be
    shot again by the teammate it goes to, and a rifle not shot can be."""
    g = pair()
    a, b = g.sv
    assert (a["weapons"], b["weapons"]) == (["colt"], ["knife"])
    assert ("give", 1, 0, "melee") not in gives(g)    # Swift's fists stay his
    g.apply(("give", 1, 0, "ranged"))
    assert (a["weapons"], b["weapons"]) == ([], ["knife", "colt"])
    assert g._carried(0, "ranged") is None and g._carried(1, "ranged") == "colt"
    g.apply(("give", 1, 1, "melee"))                  # Lebeu's knife for Swift's fists
    assert (a["weapons"], b["weapons"]) == (["knife"], ["colt"]) and g._carried(1, "melee") == "fists"
    assert ("give", 1, 1, "melee") not in gives(g) and ("give", 1, 0, "melee") in gives(g)
    # slow guns: Swift shoots the shotgun at a far Walker, then swaps it for Lebeu's rifle
    g, (w,) = swift_on_a_tile(players=2, queues={"attack_die": ["f6"] * 10}, enemies=["walker"], engaged=False)
    a, b = g.sv
    a["weapons"], b["weapons"], b["ammo"] = ["shotgun"], ["knife", "rifle"], 3
    g.apply(("activate", 0))
    assert b["tile"] == a["tile"]
    g.apply(("attack", "shotgun", w, 0))
    assert not [x for x in g.legal_actions() if x[0] == "attack" and x[1] == "shotgun"]
    g.apply(("give", 1, 0, "ranged"))
    assert (a["weapons"], b["weapons"]) == (["rifle"], ["knife", "shotgun"])
    assert ("attack", "rifle", w, 0) in g.legal_actions()
    assert a["slow_used"] == set() and b["slow_used"] == {"shotgun"}


# ------------------------------------------------------------------ traps (§4.4) and combined cards (§4.5)
def lebeu_on_a_location_tile(queues=None, over=None) -> tuple[Reference, dict]:
    """Lebeu (seat 1, her knife: trap damage 1) on the access tile of the first location,
    holding a stuff for traps card, with 3 AP."""
    g = game(2, queues, over)
    loc = g.locations[0]
    t = g._deploy(f"{loc}:0", tuple(R[f"locations.{loc}.access"]))
    sv = g.sv[1]
    sv.update(tile=t["id"], zone=t["zone"], ap=3)
    sv["cards"].append("stuff_for_traps")
    return g, t


def test_a_trap_is_set_with_a_mechanisms_check_and_its_weapons_go():
    g, t = lebeu_on_a_location_tile({"check_die": ["f6", "f6", "f1"]})
    assert g._trap_legal(1) == [("set_trap", 1, p) for p in range(min(R["survivor.max_sp_per_roll"], g.sv[1]["sp"]) + 1)]
    sp = g.sv[1]["sp"]
    g._set_trap(1, 1, 0)                      # Mechanisms 2: two dice, no star of green
    assert t["trap"] == 0 and g.sv[1]["weapons"] == ["knife"] and g.sv[1]["ap"] == 3 - R["combat.trap_ap"]
    assert g.stats["traps_set"] == 0 and g.sv[1]["sp"] == sp
    g._set_trap(1, 1, 1)                      # 3 dice; the third a star
    amount, knife = R["search.stuff_for_traps.amount"], R["weapons.knife.trap_damage"]
    assert t["trap"] == amount + knife and g.sv[1]["weapons"] == [] and "stuff_for_traps" not in g.sv[1]["cards"]
    assert g._carried(1, "melee") == "fists" and g.stats["traps_set"] == 1
    assert g._trap_legal(1) == []             # one marker a tile; no stuff left either


def test_a_trap_fires_on_the_first_enemy_to_engage_without_resistance_and_kills_for_no_sp():
    g, t = lebeu_on_a_location_tile()
    t["trap"] = 2
    far = g._place(t, "walker")
    other = g._place(t, "walker")
    sp, kills = g.sv[1]["sp"], g.stats["kills"]
    g.hour = 14                               # a walker by day: health 1
    assert g._advance_enemy(t, far)
    assert far not in t["enemies"] and t["corpses"] == 1 and t["trap"] == 0
    assert g.stats["trap_kills"] == 1 and g.stats["kills"] == kills and g.sv[1]["sp"] == sp
    assert g._advance_enemy(t, other) and other["engaged"] == 1 and other["wounds"] == 0   # walks in free


def test_an_enemy_surviving_the_trap_stays_engaged_with_its_wounds():
    g, t = lebeu_on_a_location_tile()
    t["trap"] = 1
    e = g._place(t, "walker")
    g.hour = 22                               # a walker by night: health 2
    assert g._advance_enemy(t, e)
    assert e["engaged"] == 1 and e["wounds"] == 1 and t["trap"] == 0 and g.stats["trap_kills"] == 0


def test_combine_makes_a_nailed_bat_from_a_bat_in_hand_and_nails():
    g = game(3)
    kenji = g.sv[2]
    kenji["ap"] = 2
    assert g._combine_legal(2) == []
    kenji["cards"].append("nails")
    g._gain_card(2, "nails")                  # a second copy is lost
    assert kenji["cards"].count("nails") == 1
    assert g._combine_legal(2) == [("combine", "nailed_bat")]
    g._combine(2, "nailed_bat")
    assert kenji["weapons"] == ["nailed_bat"] and "nails" not in kenji["cards"]
    assert kenji["ap"] == 2 - R["combat.combine_ap"] and g.stats["cards_combined"] == 1
    assert g._combine_legal(2) == []
