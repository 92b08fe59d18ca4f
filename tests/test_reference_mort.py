"""The Mort de la lumière du jour reference engine (tests/reference/mort.py) on its own: whole
games under random play with the rules' invariants, and the verification cases of
the game's engine specification §6 as scripted scenarios."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from simlib.games.mort.ruleset import load_ruleset
from tests.reference.chance import RandomChance, ScriptedChance
from tests.reference.mort import KILLER, Reference


def flat(overrides=None) -> dict:
    r = load_ruleset("reference")
    if overrides:
        r = r.override(overrides)
    return {k: r.get(k) for k in r.keys()}


REF = flat()


def busy_choice(g: Reference, rng: random.Random):
    """A random player that mostly acts (ending and passing rarely), to reach every rule."""
    legal = g.legal_actions()
    acts = [a for a in legal if a[0] not in ("end", "pass", "spend", "purpose")]
    if acts and rng.random() < 0.9:
        return rng.choice(acts)
    spends = [a for a in legal if a[0] == "spend"]
    if spends and rng.random() < 0.9:
        return rng.choice(spends)
    return rng.choice(legal)


def seeker_choice(g: Reference, rng: random.Random):
    """Survivors head for work (an unrepaired generator, then a gate) and do it; the killer
    plays at random: a player that reaches repairs, levers and gate escapes."""
    legal = g.legal_actions()
    seat = g.to_move()
    if seat == KILLER or g.phase != "play" or g.pending is not None:
        return busy_choice(g, rng)
    for kind in ("hatch", "escape", "lever", "repair"):
        acts = [a for a in legal if a[0] == kind]
        if acts:
            return acts[0]
    for purpose in ("escape", "lever", "repair", "move"):
        acts = [a for a in legal if a[0] == "spend" and a[2] == purpose]
        if acts and g.purpose is None:
            return acts[-1]
    steps = [a for a in legal if a[0] == "move"]
    goals = [sq for sq, gen in g.gens.items() if not gen["repaired"]] if not g._powered() \
        else list(g.gates)
    if steps and goals:
        return min(steps, key=lambda a: min(abs(a[1] - x) + abs(a[2] - y) for x, y in goals))
    return ("end",)


def deck_total(rules, deck):
    return sum(v for k, v in rules.items() if k.startswith(deck + ".") and k.endswith(".count"))


def check_invariants(g: Reference, rules: dict) -> None:
    S = g.S
    if not hasattr(g, "_totals"):
        g._totals = {f: deck_total(rules, f) for f in ("energy", "killer_cards", "survivor_cards")}
    for deck, file in (("energy", "energy"), ("killer", "killer_cards"),
                       ("survivor", "survivor_cards")):
        held = sum(len(h) for h in g.energy.values()) if deck == "energy" else \
            len(g.cards[KILLER]) if deck == "killer" else \
            sum(len(g.cards[s]) for s in range(1, S + 1))
        assert len(g.pile[deck]) + len(g.discard[deck]) + held == g._totals[file], deck
    assert all(len(g.cards[s]) <= rules["rules.survivor_card_limit"] for s in range(1, S + 1)
               if not (g.pending and g.pending["kind"] == "discard" and g.turn_seat == s))
    assert all(len(g.energy[s]) <= max(rules["rules.survivor_energy_limit"],
                                       rules["rules.survivor_energy_hand"]) for s in range(1, S + 1))
    assert g.pallets.get(g.pos[KILLER]) != "dropped", "the killer never stands on a dropped pallet"
    assert 0 <= g.pos[KILLER][0] < g.w and 0 <= g.pos[KILLER][1] < g.h
    for s in range(1, S + 1):
        assert 0 <= g.wounds[s] < rules["rules.hits_to_kill"] or g.status[s] == "killed"
        if g.status[s] != "in_play":
            assert not g.energy[s] and not g.cards[s], "a survivor who left holds nothing"
    for gen in g.gens.values():
        assert 0 <= gen["lamps"] <= rules["board.lamps"]
        assert gen["repaired"] == (gen["lamps"] == rules["board.lamps"])
    assert g.points >= 0 and g.sprint >= 0 and g.deficit >= 0 and g.bonus >= 0
    assert g.round <= rules["rules.timeout"]
    if g.phase == "play" and g.turn_seat not in (None, KILLER):
        # the killer's refill happened at the end of his turn (the decks are far from empty)
        assert len(g.energy[KILLER]) == rules["rules.killer_energy_hand"]
        assert len(g.cards[KILLER]) == rules["rules.killer_card_hand"]


def play_out(rules: dict, seed: int, check=True, player=busy_choice) -> Reference:
    g = Reference(rules, {}, RandomChance(seed))
    rng = random.Random(1000 + seed)
    bound = 200 * (rules["rules.timeout"] + 5)
    n = 0
    while not g.is_over():
        legal = g.legal_actions()
        assert legal and g.to_move() is not None
        obs = g.observation()
        assert obs["seat"] == g.to_move()
        g.apply(player(g, rng))
        if check:
            check_invariants(g, rules)
        n += 1
        assert n < bound, "the game must end within its round limit"
    assert g.to_move() is None and g.legal_actions() == []
    return g


def check_record(g: Reference, rules: dict) -> None:
    rec = g.record()
    S = g.S
    assert rec["kills"] == rec["status"].count("killed")
    assert rec["escapes"] == rec["status"].count("escaped") == rec["gate_escapes"] + rec["hatch_escapes"]
    assert rec["kills"] + rec["escapes"] + rec["status"].count("in_play") == S
    if rec["cause"] == "all_out":
        assert rec["status"].count("in_play") == 0
    else:
        assert rec["cause"] == "timeout" and rec["rounds"] == rules["rules.timeout"]
    assert rec["killer_win"] == (rec["kills"] >= rules["rules.killer_win_kills"])
    assert rec["scores"] == [int(rec["killer_win"])] + [int(not rec["killer_win"])] * S
    assert rec["rounds"] == len(rec["repaired_by_round"]) == len(rec["killed_by_round"])
    assert rec["repaired_by_round"] == sorted(rec["repaired_by_round"])
    assert rec["killed_by_round"] == sorted(rec["killed_by_round"])
    assert rec["killed_by_round"][-1] == rec["kills"] and rec["repaired_by_round"][-1] == rec["repaired"]
    assert rec["landed_hits"] >= rec["kills"] * rules["rules.hits_to_kill"]  # heals only add hits
    assert rec["killer_gain"] % max(1, rules["rules.failed_repair_gain"]) == 0


@pytest.mark.parametrize("seed", range(4))
def test_random_games_keep_the_invariants(seed):
    g = play_out(REF, seed)
    check_record(g, REF)


@pytest.mark.parametrize("overrides", [
    {"rules.variants.pooled_energy": True, "rules.timeout": 12},
    {"rules.variants.one_strike_per_target": True, "rules.timeout": 12},
    {"rules.variants.any_card_repairs": True, "rules.timeout": 12},
    {"rules.hits_to_kill": 1, "rules.strike_cost": 1, "rules.timeout": 25},
    {"board.lamps": 1, "board.gate_successes": 1, "rules.repair_cost": 1, "rules.gate_cost": 1,
     "rules.timeout": 25},
])
def test_variants_and_tweaks_keep_the_invariants(overrides):
    rules = flat(overrides)
    for seed in range(1):
        g = play_out(rules, seed)
        check_record(g, rules)


def test_games_reach_the_rules_ends():
    """Kills end games and gates open under easy tweaks: the rare paths are played."""
    deadly = flat({"rules.hits_to_kill": 1, "rules.strike_cost": 1, "dice.black": [1],
                   "rules.timeout": 30})
    ends = [play_out(deadly, s, check=False).record() for s in range(2)]
    assert any(r["kills"] >= 2 for r in ends)
    easy = flat({"board.lamps": 1, "board.gate_successes": 1, "rules.repair_cost": 1,
                 "rules.gate_cost": 1, "dice.white": [1], "rules.timeout": 30})
    gates = [play_out(easy, s, player=seeker_choice).record() for s in range(2)]
    assert any(r["repaired"] >= 4 for r in gates)
    assert any(r["gate_escapes"] >= 1 for r in gates)


# ---------------------------------------------------------------------- scenarios
def scenario(overrides=None, *, seed=0) -> Reference:
    """A game past its setup (random choices), at the killer's first turn, board cleared:
    the test places what it needs."""
    rules = flat(overrides)
    g = Reference(rules, {}, RandomChance(seed))
    rng = random.Random(seed)
    while g.phase != "play":
        g.apply(rng.choice(g.legal_actions()))
    assert g.turn_seat == KILLER and g.round == 1
    g.gens, g.chests, g.pallets, g.shortcuts = {}, set(), {}, []
    g.gates = {g.gate_sites[0]: {"successes": 0, "open": False},
               g.gate_sites[2]: {"successes": 0, "open": False}}
    g.hatch = None
    for s in range(g.S + 1):               # hands back to the piles: the test deals by hand
        g.pile["energy"] += g.energy[s]
        g.energy[s] = []
        deck = "killer" if s == KILLER else "survivor"
        g.pile[deck] += g.cards[s]
        g.cards[s] = []
    for s in range(1, g.S + 1):            # survivors far from each other and the killer
        g.pos[s] = (0, 2 * s)
    g.pos[KILLER] = (14, 14)
    return g


def script(g, **queues):
    """Scripted outcomes for the kinds a test is about; the refills' draws stay random."""
    g.chance = ScriptedChance(queues, fallback=RandomChance(99))


def give(g, seat, energy=(), cards=()):
    names = {v: n for n, v in g.evalue.items()}
    for v in energy:
        n = names[v]
        g.pile["energy"].remove(n)
        g.energy[seat].append(n)
    deck = "killer" if seat == KILLER else "survivor"
    for c in cards:
        g.pile[deck].remove(c)
        g.cards[seat].append(c)


def at_turn(g, seat):
    """Make it ``seat``'s turn in the current round (no purpose open)."""
    g.turn_seat = seat
    g.turn_queue = [s for s in range(seat + 1, g.S + 1)]
    g.purpose, g.points, g.opened = None, 0, False
    g.pending = None


def test_setup_pieces_and_hands():
    g = Reference(REF, {}, RandomChance(3))
    rng = random.Random(3)
    asked = []
    while g.phase != "play":
        asked.append(g.to_move())
        g.apply(rng.choice(g.legal_actions()))
    assert len(g.gens) == 6 and len(g.chests) == 4 and len(g.shortcuts) == 2
    assert len(g.pallets) == 8 and all(st == "standing" for st in g.pallets.values())
    for sq in g.pallets:                        # next to a token without a generator
        assert (sq[0] - 1, sq[1]) in g.tokens and (sq[0] - 1, sq[1]) not in g.gens
    assert len(g.gates) == 2 and g.pos[KILLER] == (7, 7)
    assert all(g.pos[s] in g.tokens for s in range(1, 5))
    assert len(set(g.gens) | g.chests | set(g.shortcuts) | {g.pos[s] for s in range(1, 5)}) == 16
    assert len(g.energy[KILLER]) == 5 and len(g.cards[KILLER]) == 5
    assert all(len(g.energy[s]) == 5 and len(g.cards[s]) == 2 for s in range(1, 5))
    # the killer's 4th piece is forced: he is asked 3 times for placements, then for the gates
    assert 2 <= asked.count(KILLER) <= 4


def test_refill_killer_back_to_five_survivor_draws_one():
    g = scenario()
    give(g, KILLER, energy=[2, 1, 3, 2, 2], cards=["sprint"])
    give(g, 1, energy=[1, 1, 1, 2, 3])
    g.apply(("spend", 2, "move"))
    g.apply(("move", 13, 14))
    g.apply(("move", 12, 14))
    assert g.pos[KILLER] == (12, 14) and g.purpose is None    # 2 points, 2 squares
    g.apply(("end",))
    assert len(g.energy[KILLER]) == 5 and len(g.cards[KILLER]) == 5
    assert g.turn_seat == 1
    for _ in range(3):
        g.apply(("spend", 1, "move"))
        g.apply(("move",) + (g.pos[1][0] + 1, g.pos[1][1]))
    g.apply(("end",))
    assert len(g.energy[1]) == 3          # 2 kept + 1 drawn
    assert g.pos[1] == (3, 2)


def test_one_card_one_purpose_leftover_lost_and_pooled_kept():
    g = scenario()
    give(g, KILLER, energy=[3, 2])
    g.apply(("spend", 3, "move"))
    g.apply(("move", 13, 14))
    g.apply(("spend", 2, "move"))         # the 3-card's 2 points left are lost
    assert g.points == 2
    p = scenario({"rules.variants.pooled_energy": True})
    give(p, KILLER, energy=[3, 2])
    p.apply(("spend", 3, "move"))
    p.apply(("move", 13, 14))
    p.apply(("spend", 2, "move"))
    assert p.points == 4


def test_toolbox_failed_roll_fourth_lamp_and_three_repairs_leave_gates_shut():
    g = scenario()
    gens = [(1, 1), (4, 1), (10, 1), (13, 1)]
    for i, sq in enumerate(gens):
        g.gens[sq] = {"lamps": 4 if i < 2 else 3, "repaired": i < 2, "blocked": False}
    at_turn(g, 1)
    g.pos[1] = (10, 2)
    give(g, 1, energy=[2, 2, 3], cards=["boite_a_outils"])
    script(g, repair_roll=[0])
    g.apply(("spend", 2, "cards"))
    g.apply(("play", "boite_a_outils", (10, 1)))          # no roll
    assert g.gens[(10, 1)]["repaired"] and g._repaired() == 3 and not g._powered()
    g.pos[1] = (13, 2)
    g.apply(("spend", 2, "repair"))
    g.apply(("repair", 13, 1))                            # a failed roll: noise
    assert g.next_bonus == 1 and g.gens[(13, 1)]["lamps"] == 3
    assert ("lever",) + g.gate_sites[0] not in g.legal_actions()
    assert g.chance.left() == {}
    # the killer's next turn: his first card carries the +1
    g.turn_queue = []
    give(g, KILLER, energy=[1])
    g.apply(("end",))
    assert g.turn_seat == KILLER and g.round == 2
    assert g.bonus == 1 and g.next_bonus == 0
    g.apply(("spend", 1, "move"))
    assert g.points == 2
    # the fourth lamp repairs and powers the gates
    at_turn(g, 2)
    g.pos[2] = (13, 2)
    give(g, 2, energy=[2])
    script(g, repair_roll=[1])
    g.apply(("spend", 2, "repair"))
    g.apply(("repair", 13, 1))
    assert g.gens[(13, 1)]["repaired"] and g._powered()


def test_exact_three_cards_two_lamps_repair_half():
    total = Fraction(0)
    for rolls in itertools.product([0, 1], repeat=3):
        g = scenario()
        g.gens[(1, 1)] = {"lamps": 2, "repaired": False, "blocked": False}
        at_turn(g, 1)
        g.pos[1] = (1, 2)
        give(g, 1, energy=[2, 2, 2])
        script(g, repair_roll=list(rolls))
        while g.round == 1 and g.turn_seat == 1 and ("spend", 2, "repair") in g.legal_actions():
            g.apply(("spend", 2, "repair"))
            g.apply(("repair", 1, 1))
        total += Fraction(1, 8) * g.gens[(1, 1)]["repaired"]
    assert total == Fraction(1, 2)


def strike_setup(overrides=None):
    g = scenario(overrides)
    g.pos[KILLER] = (7, 7)
    g.pos[1] = (7, 8)
    return g


def test_reflex_cancels_a_landed_strike():
    g = strike_setup()
    give(g, KILLER, energy=[2])
    give(g, 1, cards=["lampe"])
    script(g, strike_roll=[1])
    g.apply(("spend", 2, "strike"))
    g.apply(("strike", 1))
    assert g.to_move() == 1 and g.legal_actions() == [("answer", "lampe"), ("pass",)]
    g.apply(("answer", "lampe"))
    assert g.wounds[1] == 0 and g.next_deficit == 0 and g.cards[1] == []
    assert "lampe" in g.discard["survivor"]


@pytest.mark.parametrize("distance,cancelled", [(4, True), (5, False)])
def test_helper_within_four_cancels_beyond_four_hit_lands(distance, cancelled):
    g = strike_setup()
    g.pos[2] = (7, 8 + distance)
    give(g, KILLER, energy=[2, 1])
    give(g, 2, cards=["feux_d_artifice"])
    give(g, 1, cards=["boite_a_outils"])          # not a reflex: the target is not asked
    script(g, strike_roll=[1])
    g.apply(("spend", 2, "strike"))
    g.apply(("strike", 1))
    if cancelled:
        assert g.to_move() == 2
        g.apply(("answer", "feux_d_artifice"))
        assert g.wounds[1] == 0 and g.next_deficit == 0
    else:
        assert g.wounds[1] == 1 and g.next_deficit == 2 and g.landed_hits == 1
        # exhaustion: a 2-card is swallowed whole next turn, a 3-card then brings 3
        g.apply(("end",))                     # the survivors have nothing to do
        assert g.turn_seat == KILLER and g.round == 2 and g.deficit == 2 and g.next_deficit == 0
        g.pile["energy"] += g.energy[KILLER]
        g.energy[KILLER] = []
        give(g, KILLER, energy=[2, 3])
        assert ("spend", 2, "exhaustion") in g.legal_actions()
        assert not any(a[:2] == ("spend", 3) and a[2] == "exhaustion" for a in g.legal_actions())
        g.apply(("spend", 2, "exhaustion"))
        assert g.deficit == 0 and g.purpose is None
        g.apply(("spend", 3, "move"))
        assert g.points == 3


def test_missed_strike_does_nothing():
    g = strike_setup()
    give(g, KILLER, energy=[2, 1])
    script(g, strike_roll=[0])
    g.apply(("spend", 2, "strike"))
    g.apply(("strike", 1))
    assert g.wounds[1] == 0 and g.next_deficit == 0 and g.landed_hits == 0
    assert g.turn_seat == KILLER and g.purpose is None and g.chance.left() == {}


@pytest.mark.parametrize("one_strike", [False, True])
def test_exact_five_strikes_kill_thirteen_sixteenths(one_strike):
    killed = injured = Fraction(0)
    for rolls in itertools.product([0, 1], repeat=5):
        g = strike_setup({"rules.variants.one_strike_per_target": one_strike})
        give(g, KILLER, energy=[2] * 5)
        script(g, strike_roll=list(rolls))
        while g.round == 1 and g.turn_seat == KILLER and ("spend", 2, "strike") in g.legal_actions():
            g.apply(("spend", 2, "strike"))
            g.apply(("strike", 1))
        killed += Fraction(1, 32) * (g.status[1] == "killed")
        injured += Fraction(1, 32) * (g.wounds[1] == 1)
    if one_strike:
        assert killed == 0 and injured == Fraction(1, 2)
    else:
        assert killed == Fraction(13, 16)


def test_guarded_survivor_pallet_card_failed_break_and_detour():
    g = strike_setup()
    g.pallets[(7, 8)] = "dropped"          # under the survivor: within reach of both
    give(g, KILLER, energy=[3, 3, 2], cards=["casse_palette"])
    assert ("spend", 2, "strike") not in g.legal_actions()     # guarded: no strike
    script(g, break_roll=[0])
    g.apply(("spend", 3, "break"))
    g.apply(("break", 7, 8))
    assert g.pallets[(7, 8)] == "dropped" and g.pallet_energy == 3
    g.apply(("spend", 3, "detour"))
    g.apply(("detour", 7, 8))
    assert ("spend", 2, "strike") in g.legal_actions()        # unguarded this turn
    g.apply(("spend", 2, "cards"))
    g.apply(("play", "casse_palette", (7, 8)))                # no roll
    assert (7, 8) not in g.pallets and g.chance.left() == {}


def test_survivor_drops_and_vaults_and_killer_cannot_cross():
    g = scenario()
    g.pallets[(3, 2)] = "standing"
    at_turn(g, 1)
    g.pos[1] = (2, 2)
    give(g, 1, energy=[1, 2])
    give(g, KILLER, energy=[1])
    g.apply(("spend", 1, "drop"))
    g.apply(("drop", 3, 2))
    assert g.pallets[(3, 2)] == "dropped"
    g.apply(("spend", 2, "move"))
    g.apply(("move", 3, 2))                   # 1 square + 1 vault
    assert g.pos[1] == (3, 2) and g.turn_seat == KILLER and g.round == 2   # 2 points: spent
    k = scenario()
    k.pallets[(13, 14)] = "dropped"
    give(k, KILLER, energy=[3])
    k.apply(("spend", 3, "move"))
    assert ("move", 13, 14) not in k.legal_actions() and ("move", 14, 13) in k.legal_actions()


def test_sprint_and_shortcut_move_the_killer():
    g = scenario()
    g.shortcuts = [(13, 13), (1, 1)]
    g.pos[KILLER] = (13, 13)
    give(g, KILLER, energy=[1, 1], cards=["sprint", "blocage"])
    give(g, 1, energy=[2, 2], cards=["boite_a_outils"])
    g.gens[(4, 4)] = {"lamps": 1, "repaired": False, "blocked": False}
    g.apply(("spend", 1, "cards"))
    g.apply(("play", "sprint", None))
    g.apply(("play", "blocage", (4, 4)))      # one card pays for any number of killer cards
    assert g.sprint == 3 and g.gens[(4, 4)]["blocked"]
    g.apply(("spend", 1, "move"))
    g.apply(("shortcut", 1, 1))
    assert g.pos[KILLER] == (1, 1)
    for sq in ((1, 2), (1, 3), (1, 4)):
        g.apply(("sprint",) + sq)
    assert g.pos[KILLER] == (1, 4) and g.sprint == 0
    # the blocked generator takes neither a roll nor a toolbox until his next turn
    assert g.turn_seat == 1                   # his turn ended with nothing left to do
    g.pos[1] = (4, 5)
    assert not any(a[0] == "spend" and a[2] in ("repair", "cards") for a in g.legal_actions())
    g.turn_queue = []
    g.apply(("end",))
    assert g.turn_seat == KILLER and not g.gens[(4, 4)]["blocked"]


def test_chest_gives_a_card_moves_and_the_limit_asks_a_discard():
    g = scenario()
    g.chests = {(1, 4)}
    at_turn(g, 1)
    g.pos[1] = (1, 5)
    give(g, 1, energy=[2], cards=["lampe", "cle"])
    script(g, chest_roll=[1], survivor_deck=["trousse_de_soins"], chest_token=[(10, 10)])
    g.apply(("spend", 2, "chest"))
    g.apply(("chest", 1, 4))
    assert g.to_move() == 1 and g.pending["kind"] == "discard"
    assert set(g.legal_actions()) == {("discard", "lampe"), ("discard", "cle"),
                                      ("discard", "trousse_de_soins")}
    g.apply(("discard", "cle"))
    assert sorted(g.cards[1]) == ["lampe", "trousse_de_soins"] and g.chests == {(10, 10)}
    assert g.chance.left() == {}


def test_medkit_heals_and_second_hit_kills():
    g = strike_setup()
    give(g, KILLER, energy=[2, 2])
    script(g, strike_roll=[1, 1])
    g.apply(("spend", 2, "strike"))
    g.apply(("strike", 1))
    assert g.wounds[1] == 1
    g.apply(("spend", 2, "strike"))
    g.apply(("strike", 1))
    assert g.status[1] == "killed" and g.kills == 1
    h = strike_setup()
    h.wounds[1] = 1
    at_turn(h, 2)
    h.pos[2] = (7, 9)
    give(h, 2, energy=[2], cards=["trousse_de_soins"])
    assert ("spend", 2, "cards") in h.legal_actions()
    h.apply(("spend", 2, "cards"))
    h.apply(("play", "trousse_de_soins", 1))
    assert h.wounds[1] == 0


def test_gate_opens_after_two_successes_and_each_escapes_for_one():
    g = scenario()
    for sq in [(1, 1), (4, 1), (10, 1), (13, 1)]:
        g.gens[sq] = {"lamps": 4, "repaired": True, "blocked": False}
    gate = g.gate_sites[0]
    at_turn(g, 1)
    g.pos[1] = (gate[0], gate[1] + 1)
    g.pos[2] = (gate[0] + 1, gate[1])
    give(g, 1, energy=[2, 2, 1])
    give(g, 2, energy=[1])
    script(g, lever_roll=[1, 0])
    g.apply(("spend", 2, "lever"))
    g.apply(("lever",) + gate)
    g.apply(("spend", 2, "lever"))
    g.apply(("lever",) + gate)
    assert g.gates[gate] == {"successes": 1, "open": False}
    g.apply(("end",))
    script(g, lever_roll=[1])
    give(g, 2, energy=[2])
    g.apply(("spend", 2, "lever"))
    g.apply(("lever",) + gate)                # the successes add up across survivors
    assert g.gates[gate]["open"]
    g.apply(("spend", 1, "escape"))
    g.apply(("escape",) + gate)
    assert g.status[2] == "escaped" and g.gate_escapes == 1 and g.turn_seat != 2


def test_hatch_for_the_last_survivor_and_survivors_win():
    g = strike_setup({"rules.hits_to_kill": 1})
    for s in (2, 3):
        g.status[s] = "killed"
        g.kills += 1
    g.pos[4] = (4, 4)                      # where the hatch will appear
    give(g, KILLER, energy=[2])
    script(g, strike_roll=[1], hatch_token=[(4, 4)])
    g.apply(("spend", 2, "strike"))
    g.apply(("strike", 1))
    assert g.status[1] == "killed" and g.hatch == {"pos": (4, 4), "open": True}
    assert g.turn_seat == 4 and g.round == 1
    assert ("hatch",) in g.legal_actions()
    g.apply(("hatch",))
    rec = g.record()
    assert g.is_over() and rec["cause"] == "all_out" and rec["kills"] == 3
    assert rec["hatch_escapes"] == 1 and not rec["killer_win"] and rec["winner"] == "survivors"


def test_four_kills_win_for_the_killer():
    g = strike_setup({"rules.hits_to_kill": 1})
    for s in (2, 3, 4):
        g.status[s] = "killed"
        g.kills += 1
    g.hatch = {"pos": (4, 4), "open": True}
    give(g, KILLER, energy=[2])
    script(g, strike_roll=[1])
    g.apply(("spend", 2, "strike"))
    g.apply(("strike", 1))
    rec = g.record()
    assert g.is_over() and rec["killer_win"] and rec["kills"] == 4 and rec["rounds"] == 1


def test_map_shows_a_shut_hatch_and_the_key_opens_it():
    g = scenario()
    at_turn(g, 1)
    give(g, 1, energy=[2, 2], cards=["carte", "cle"])
    script(g, hatch_token=[(1, 1)])
    g.pos[1] = (1, 2)
    g.apply(("spend", 2, "cards"))
    g.apply(("play", "carte", None))
    assert g.hatch == {"pos": (1, 1), "open": False}
    g.apply(("spend", 2, "cards"))
    g.apply(("play", "cle", None))
    assert g.hatch["open"] and g.chance.left() == {}


def test_timeout_ends_the_game_survivors_win():
    rules = flat({"rules.timeout": 2})
    g = Reference(rules, {}, RandomChance(5))
    while not g.is_over():
        legal = g.legal_actions()
        g.apply(("end",) if ("end",) in legal else legal[0])
    rec = g.record()
    assert rec["cause"] == "timeout" and rec["rounds"] == 2 and not rec["killer_win"]


def test_every_chance_kind_is_a_documented_one_and_games_replay():
    import tests.reference.mort as mod
    documented = {"setup_token", "chest_token", "hatch_token", "energy_deck", "killer_deck",
                  "survivor_deck", "repair_roll", "chest_roll", "lever_roll", "strike_roll",
                  "break_roll"}
    assert all(f'"{k}"' in mod.__doc__ for k in documented)
    easy = flat({"board.lamps": 1, "board.gate_successes": 1, "rules.repair_cost": 1,
                 "rules.gate_cost": 1, "rules.timeout": 15})
    a = play_out(easy, 7, check=False, player=seeker_choice)
    kinds = {k for k, _ in a.chance.history}
    assert kinds <= documented and {"setup_token", "energy_deck", "repair_roll"} <= kinds
    b = play_out(easy, 7, check=False, player=seeker_choice)
    assert a.record() == b.record() and a.chance.history == b.chance.history


def test_observation_shows_only_the_mover_s_hand():
    g = Reference(REF, {}, RandomChance(2))
    rng = random.Random(2)
    while g.phase != "play":
        g.apply(rng.choice(g.legal_actions()))
    obs = g.observation()
    assert obs["seat"] == KILLER and obs["hand_cards"] == sorted(g.cards[KILLER])
    assert obs["hand_energy"] == sorted(g.evalue[n] for n in g.energy[KILLER])
    text = repr({k: v for k, v in obs.items() if k not in ("hand_cards", "hand_energy")})
    assert not any(name in text for name in g.seffect), "no survivor card is named"
    assert [s["card_count"] for s in obs["survivors"]] == [2, 2, 2, 2]


class _NoReflexChance(RandomChance):
    """Deals survivor 1's starting cards from the non-reflex ones, keeping the odds it had."""

    def __init__(self, seed, reflex):
        super().__init__(seed)
        self.reflex, self.p, self.dealt = reflex, Fraction(1), 0

    def draw(self, kind, options):
        if kind == "survivor_deck" and self.dealt < 2:
            self.dealt += 1
            others = [o for o in options if o not in self.reflex]
            self.p *= Fraction(len(others), len(options))
            return others[0]
        return super().draw(kind, options)


def test_exact_reflex_in_a_starting_hand_twenty_seven_thirty_eighths():
    reflex = {"lampe", "feux_d_artifice"}
    ch = _NoReflexChance(4, reflex)
    g = Reference(REF, {}, ch)
    rng = random.Random(4)
    while g.phase != "play":
        g.apply(rng.choice(g.legal_actions()))
    assert ch.dealt == 2 and not set(g.cards[1]) & reflex
    assert 1 - ch.p == Fraction(27, 38)


def test_pooled_purpose_switch_and_any_card_repairs():
    g = scenario({"rules.variants.pooled_energy": True})
    g.gens[(13, 13)] = {"lamps": 0, "repaired": False, "blocked": False}
    at_turn(g, 1)
    g.pos[1] = (12, 12)
    give(g, 1, energy=[3])
    g.apply(("spend", 3, "move"))
    g.apply(("move", 13, 12))                      # beside the generator, 2 points left
    assert ("purpose", "repair") in g.legal_actions()
    script(g, repair_roll=[1])
    g.apply(("purpose", "repair"))
    g.apply(("repair", 13, 13))
    assert g.gens[(13, 13)]["lamps"] == 1 and g.points == 0
    a = scenario({"rules.variants.any_card_repairs": True})
    a.gens[(1, 1)] = {"lamps": 0, "repaired": False, "blocked": False}
    at_turn(a, 1)
    a.pos[1] = (1, 2)
    give(a, 1, energy=[2], cards=["lampe"])
    a.apply(("spend", 2, "cards"))
    a.apply(("play", "lampe", (1, 1)))
    assert a.gens[(1, 1)]["lamps"] == 1
    plain = scenario()
    plain.gens[(1, 1)] = {"lamps": 0, "repaired": False, "blocked": False}
    at_turn(plain, 1)
    plain.pos[1] = (1, 2)
    give(plain, 1, energy=[2], cards=["lampe"])
    assert ("spend", 2, "cards") not in plain.legal_actions()
