"""Mort de la lumière du jour: the specification's verification cases, exact probabilities
against independent computations, invariants, determinism, the step model.

Rules are checked on crafted states: a game is dealt and set up by the heuristics, then
the seat to move, positions, hands and the board are written into its state array, and
the test plays the actions the rule is about (``Game.apply_code``).  Dice are made sure
(a die of one face) where a test needs a known roll, and varied through the dice
stream where a test counts frequencies against an exact fraction (fixed seeds, 4.5
standard errors).
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product
from math import comb

import numpy as np
import pytest

from simlib.core.rng import mix64_nb
from simlib.games.mort import codes as K
from simlib.games.mort import exact
from simlib.games.mort.api import parse_seats, play_games
from simlib.games.mort.step import Game
from simlib.games.mort.ruleset import RulesetError, load_ruleset

R = load_ruleset()
ALWAYS = {"dice.white": [1], "dice.black": [1]}
NEVER = {"dice.white": [0], "dice.black": [0]}


# =========================================================================== crafting
def at_first_turn(ruleset=None, seed=0, game=0) -> Game:
    """A game dealt and set up by the heuristics, at the killer's first turn."""
    g = Game(seed=seed, game=game, ruleset=ruleset)
    while g.phase != "turn":
        g.apply(g.policy_choice())
    return g


def clear(g: Game) -> None:
    """Empty every hand (the cards back to the decks), the killer far from everyone."""
    st = g.state
    for s in range(K.MAX_SEATS):
        for v in range(K.HAND_W):
            st[K.S_ENERGY_DECK + v] += st[K.S_HAND + s * K.HAND_W + v]
            st[K.S_HAND + s * K.HAND_W + v] = 0
        for k in range(K.MAX_K):
            deck = K.S_KDECK if s == 0 else K.S_SDECK
            st[deck + k] += st[K.S_CARDS + s * K.MAX_K + k]
            st[K.S_CARDS + s * K.MAX_K + k] = 0
    put(g, 0, 14, 14)
    for s in range(1, 5):
        put(g, s, 0, 14)  # far from everything that matters below


def put(g: Game, s: int, x: int, y: int) -> None:
    g.state[K.S_S_X + s], g.state[K.S_S_Y + s] = x, y


def give(g: Game, s: int, energy: dict | None = None, cards: dict | None = None) -> None:
    """Set seat ``s``'s hand: ``energy`` {value: count}, ``cards`` {kind name: count}
    (taken from the decks)."""
    st = g.state
    names = g.rules.names("killer_cards" if s == 0 else "survivor_cards")
    deck = K.S_KDECK if s == 0 else K.S_SDECK
    for v, c in (energy or {}).items():
        st[K.S_ENERGY_DECK + v] -= c
        st[K.S_HAND + s * K.HAND_W + v] += c
    for name, c in (cards or {}).items():
        k = names.index(name)
        st[deck + k] -= c
        st[K.S_CARDS + s * K.MAX_K + k] += c


def to_move(g: Game, s: int) -> None:
    """Seat ``s``'s turn, nothing committed."""
    st = g.state
    st[K.S_CURRENT] = s
    st[K.S_DECIDER] = s
    st[K.S_PHASE] = K.PH_TURN
    st[K.S_BUDGET] = 0


def commit(q: int, v: int) -> int:
    return K.A_COMMIT + q * K.MAX_V + v - 1


def gen_square(g: Game, gi: int) -> tuple[int, int]:
    return g.rules.tokens()[g.state[K.S_GEN_TOKEN + gi]]


def reseed_dice(g: Game, i: int) -> None:
    g.state[K.S_STREAMS + K.STREAM_DICE] = np.uint64(mix64_nb(np.uint64(i * 7919 + 1))).view(np.int64)


def near(x: int, y: int) -> tuple[int, int]:
    """A square at distance 1 from (x, y) on the board."""
    return (x + 1, y) if x + 1 < 15 else (x - 1, y)


def within(freq: float, p: Fraction, n: int) -> bool:
    p = float(p)
    return abs(freq - p) <= 4.5 * (p * (1 - p) / n) ** 0.5 + 1e-12


# =========================================================================== case 1: setup
def test_setup_pieces_and_hands():
    g = Game(seed=0, game=3, trace=True)
    while g.phase != "turn":
        g.apply(g.policy_choice())
    st = g.state
    log = g.log[1:1 + g.log[0, 0]]
    places = log[log[:, 0] == K.LG_PLACE]
    assert list(np.bincount(places[:, 2], minlength=5)) == [4, 3, 3, 3, 3]
    assert st[K.S_N_GENS] == 6 and st[K.S_N_CHESTS] == 4 and st[K.S_N_SHORTCUTS] == 2
    assert st[K.S_N_PALLETS] == 8
    toks = [st[K.S_GEN_TOKEN + i] for i in range(6)] + [st[K.S_CHEST_TOKEN + i] for i in range(4)] \
        + [st[K.S_SHORTCUT_TOKEN + i] for i in range(2)]
    assert len(set(toks)) == 12  # tokens drawn without replacement
    assert sum(st[K.S_HAND + v] for v in range(K.HAND_W)) == 5
    assert sum(st[K.S_CARDS + k] for k in range(K.MAX_K)) == 5
    for s in range(1, 5):
        assert sum(st[K.S_HAND + s * K.HAND_W + v] for v in range(K.HAND_W)) == 5
        assert sum(st[K.S_CARDS + s * K.MAX_K + k] for k in range(K.MAX_K)) == 2
        assert (st[K.S_S_X + s], st[K.S_S_Y + s]) in R.tokens()
    assert (st[K.S_S_X], st[K.S_S_Y]) == (7, 7)  # the lair
    sides = {st[K.S_GATE_SIDE], st[K.S_GATE_SIDE + 1]}
    assert len(sides) == 2  # two different sides


def test_pallets_never_against_a_generator():
    for game in range(5):
        g = at_first_turn(game=game)
        st = g.state
        gens = {gen_square(g, i) for i in range(st[K.S_N_GENS])}
        for p in range(st[K.S_N_PALLETS]):
            px, py = st[K.S_PALLET_X + p], st[K.S_PALLET_Y + p]
            token = (px - 1, py)  # pallet_dx = 1
            assert token in R.tokens() and token not in gens


# =========================================================================== case 2: refill
def test_refill_killer_back_to_five_survivor_draws_one():
    g = at_first_turn()
    clear(g)
    to_move(g, 0)
    give(g, 0, {1: 2, 2: 2, 3: 1}, {"sprint": 1, "blocage": 1})
    g.apply_code(commit(K.Q_MOVE, 3))
    g.apply_code(K.A_NORTH)
    g.apply_code(K.A_STOP)
    g.apply_code(commit(K.Q_MOVE, 2))
    g.apply_code(K.A_STOP)
    g.apply_code(K.A_END_TURN)
    st = g.state
    assert sum(st[K.S_HAND + v] for v in range(K.HAND_W)) == 5
    assert sum(st[K.S_CARDS + k] for k in range(K.MAX_K)) == 5
    # a survivor who plays 3 of 5 cards holds 3 after drawing one
    g = at_first_turn()
    clear(g)
    to_move(g, 1)
    put(g, 1, 7, 7)
    give(g, 1, {1: 3, 2: 2})
    for _ in range(3):
        g.apply_code(commit(K.Q_MOVE, 1))
        g.apply_code(K.A_NORTH)
    assert g.to_move == 1
    g.apply_code(K.A_END_TURN)
    assert sum(g.state[K.S_HAND + 1 * K.HAND_W + v] for v in range(K.HAND_W)) == 3


def test_one_card_one_purpose_leftover_lost_and_pooled_kept():
    g = at_first_turn()
    clear(g)
    to_move(g, 1)
    put(g, 1, 7, 7)
    give(g, 1, {3: 1, 1: 1})
    g.apply_code(commit(K.Q_MOVE, 3))
    g.apply_code(K.A_NORTH)
    g.apply_code(K.A_STOP)          # 2 points lost
    assert g.state[K.S_POOL] == 0 and g.state[K.S_BUDGET] == 0
    gp = at_first_turn(ruleset=R.override({"rules.variants.pooled_energy": True}))
    clear(gp)
    to_move(gp, 1)
    put(gp, 1, 7, 7)
    give(gp, 1, {3: 1, 1: 1})
    gp.apply_code(commit(K.Q_MOVE, 3))
    gp.apply_code(K.A_NORTH)
    gp.apply_code(K.A_STOP)
    assert gp.state[K.S_POOL] == 2
    assert K.A_POOL + K.Q_MOVE in gp.legal_codes()
    gp.apply_code(commit(K.Q_MOVE, 1))  # the pool joins the next card
    assert gp.state[K.S_BUDGET] == 3


# =========================================================================== case 3: repairs
def _beside_gen(rules, gi=0, lamps=0, energy=None, cards=None, game=0):
    g = at_first_turn(ruleset=rules, game=game)
    clear(g)
    to_move(g, 1)
    x, y = gen_square(g, gi)
    put(g, 1, *near(x, y))
    g.state[K.S_GEN_LAMPS + gi] = lamps
    give(g, 1, energy, cards)
    return g


def test_toolbox_lights_a_lamp_without_a_roll():
    g = _beside_gen(R, lamps=1, energy={2: 1}, cards={"boite_a_outils": 1})
    rolls, dice = g.state[K.S_ROLLS], g.state[K.S_STREAMS + K.STREAM_DICE]
    g.apply_code(commit(K.Q_CARDS, 2))
    g.apply_code(K.A_TOOLBOX + 0)
    assert g.state[K.S_GEN_LAMPS] == 2
    assert g.state[K.S_ROLLS] == rolls and g.state[K.S_STREAMS + K.STREAM_DICE] == dice
    # no other card lights a lamp (variant any_card_repairs: any card does)
    g = _beside_gen(R, lamps=1, energy={2: 1}, cards={"lampe": 1})
    assert K.A_COMMIT + K.Q_CARDS * K.MAX_V + 1 not in g.legal_codes()
    g = _beside_gen(R.override({"rules.variants.any_card_repairs": True}), lamps=1, energy={2: 1},
                    cards={"lampe": 1})
    g.apply_code(commit(K.Q_CARDS, 2))
    g.apply_code(K.A_TOOLBOX + 0)
    assert g.state[K.S_GEN_LAMPS] == 2


def test_failed_roll_feeds_the_killer_next_turn():
    g = _beside_gen(R.override(NEVER), lamps=0, energy={2: 1, 1: 1})
    g.apply_code(commit(K.Q_REPAIR, 2))
    g.apply_code(K.A_REPAIR + 0)
    st = g.state
    assert st[K.S_GEN_LAMPS] == 0
    assert st[K.S_ADJ_NEXT] == 1 and st[K.S_KILLER_GAIN] == 1
    # the other survivors hold nothing: ending this turn brings the killer's, whose first
    # card is worth one more
    give(g, 0, {2: 2})
    g.apply_code(K.A_END_TURN)
    assert g.to_move == 0 and st[K.S_ADJ_NOW] == 1 and st[K.S_ADJ_NEXT] == 0
    v = next(v for v in range(1, K.MAX_V + 1) if st[K.S_HAND + v])
    g.apply_code(commit(K.Q_MOVE, v))
    assert st[K.S_BUDGET] == v + 1 and st[K.S_ADJ_NOW] == 0


def test_fourth_lamp_repairs_and_three_repairs_leave_gates_shut():
    g = _beside_gen(R.override(ALWAYS), lamps=3, energy={2: 1})
    rnd = g.state[K.S_ROUND]
    g.apply_code(commit(K.Q_REPAIR, 2))
    g.apply_code(K.A_REPAIR + 0)
    assert g.state[K.S_GEN_LAMPS] == 4 and g.state[K.S_REPAIRED] == 1
    assert g.state[K.S_GEN_ROUND] == rnd
    # beside a gate with 3 repaired generators: no roll at the lever; with 4, one
    for repaired, legal in ((3, False), (4, True)):
        g = at_first_turn(ruleset=R.override(ALWAYS))
        clear(g)
        to_move(g, 1)
        side = g.state[K.S_GATE_SIDE]
        put(g, 1, *R.gate_sites()[side])
        give(g, 1, {2: 1})
        g.state[K.S_REPAIRED] = repaired
        assert (commit(K.Q_GATE, 2) in g.legal_codes()) is legal


def test_blocked_generator_gains_no_lamp():
    g = _beside_gen(R, lamps=1, energy={2: 2}, cards={"boite_a_outils": 1})
    g.state[K.S_BLOCKED] = 1 << 0   # one bit per generator
    legal = g.legal_codes()
    assert commit(K.Q_REPAIR, 2) not in legal and commit(K.Q_CARDS, 2) not in legal


def test_chest_gives_a_card_moves_and_the_limit_asks_a_discard():
    g = at_first_turn(ruleset=R.override(ALWAYS))
    clear(g)
    to_move(g, 1)
    st = g.state
    t0 = st[K.S_CHEST_TOKEN]
    put(g, 1, *near(*R.tokens()[t0]))
    give(g, 1, {2: 2}, {"lampe": 1})
    g.apply_code(commit(K.Q_CHEST, 2))
    g.apply_code(K.A_CHEST + 0)
    assert sum(st[K.S_CARDS + K.MAX_K + k] for k in range(K.MAX_K)) == 2
    t1 = st[K.S_CHEST_TOKEN]
    assert t1 != t0 and 0 <= t1 < len(R.tokens())
    gens = {st[K.S_GEN_TOKEN + i] for i in range(st[K.S_N_GENS])}
    assert t1 not in gens  # a free token: no generator, chest, shortcut or hatch
    # a third card: the survivor discards one (the limit is 2)
    put(g, 1, *near(*R.tokens()[t1]))
    g.apply_code(commit(K.Q_CHEST, 2))
    g.apply_code(K.A_CHEST + 0)
    assert g.phase == "discard" and g.to_move == 1
    g.apply(0)
    assert sum(st[K.S_CARDS + K.MAX_K + k] for k in range(K.MAX_K)) == 2
    # a failed roll opens nothing
    g = at_first_turn(ruleset=R.override(NEVER))
    clear(g)
    to_move(g, 1)
    put(g, 1, *near(*R.tokens()[g.state[K.S_CHEST_TOKEN]]))
    give(g, 1, {2: 1, 1: 1})
    t0 = g.state[K.S_CHEST_TOKEN]
    g.apply_code(commit(K.Q_CHEST, 2))
    g.apply_code(K.A_CHEST + 0)
    assert g.state[K.S_CHEST_TOKEN] == t0
    assert sum(g.state[K.S_CARDS + K.MAX_K + k] for k in range(K.MAX_K)) == 0


def test_sprint_and_shortcut_move_the_killer():
    g = at_first_turn()
    clear(g)
    to_move(g, 0)
    st = g.state
    a, b = st[K.S_SHORTCUT_TOKEN], st[K.S_SHORTCUT_TOKEN + 1]
    put(g, 0, *R.tokens()[a])
    give(g, 0, {1: 2}, {"sprint": 1})
    g.apply_code(commit(K.Q_MOVE, 1))
    g.apply_code(K.A_SHORTCUT)
    assert (st[K.S_S_X], st[K.S_S_Y]) == R.tokens()[b]
    g.apply_code(commit(K.Q_CARDS, 1))
    g.apply_code(K.A_PLAY_SPRINT)
    assert st[K.S_SPRINT] == 3  # the rulebook's sprint: +3 squares of movement
    g.apply_code(K.A_SPRINT_MOVE)
    assert st[K.S_BUDGET] == 3 and st[K.S_SPRINT] == 0


def test_blocage_blocks_until_the_killer_s_next_turn():
    g = at_first_turn()
    clear(g)
    to_move(g, 0)
    give(g, 0, {1: 1, 2: 1}, {"blocage": 1})
    g.apply_code(commit(K.Q_CARDS, 1))
    g.apply_code(K.A_BLOCK + 2)
    assert g.state[K.S_BLOCKED] == 1 << 2
    if g.phase == "commit":  # the card's point is left: stop
        g.apply_code(K.A_STOP)
    g.apply_code(K.A_END_TURN)
    # the survivors hold nothing: the killer's next turn comes and lifts the block
    assert g.to_move == 0 and g.state[K.S_BLOCKED] == 0


# =========================================================================== case 4 (exact)
def test_exact_three_cards_two_lamps_repair_half():
    p = exact.die_p(R.get("dice.white"))
    # an independent count: every sequence of three white faces
    faces = R.get("dice.white")
    wins = sum(1 for roll in product(faces, repeat=3) if sum(roll) >= 2)
    brute = Fraction(wins, len(faces) ** 3)
    assert exact.repair_this_turn([2, 2, 2], 2, 2, p) == brute == Fraction(1, 2)
    base = _beside_gen(R, lamps=2, energy={2: 3})
    n, done = 3000, 0
    for i in range(n):
        g = base.clone()
        reseed_dice(g, i)
        for _ in range(3):
            if g.state[K.S_GEN_LAMPS] == 4:
                break
            g.apply_code(commit(K.Q_REPAIR, 2))
            g.apply_code(K.A_REPAIR + 0)
        done += g.state[K.S_GEN_LAMPS] == 4
    assert within(done / n, brute, n)


# =========================================================================== case 5: answers
def _strike_setup(rules, target_cards=None, helper_cards=None, helper_dist=4, energy=None):
    g = at_first_turn(ruleset=rules)
    clear(g)
    to_move(g, 0)
    put(g, 1, 3, 3)
    put(g, 0, 3, 4)
    if helper_cards is not None:
        put(g, 2, 3 + helper_dist, 3)
        give(g, 2, None, helper_cards)
    give(g, 1, None, target_cards or {})
    give(g, 0, energy or {2: 2})  # a spare card: the killer's turn goes on after one strike
    # no pallet near the target
    for p in range(g.state[K.S_N_PALLETS]):
        g.state[K.S_PALLET_STATE + p] = K.PAL_BROKEN
    return g


def test_reflex_cancels_a_landed_strike():
    g = _strike_setup(R.override(ALWAYS), target_cards={"lampe": 1})
    g.apply_code(commit(K.Q_STRIKE, 2))
    g.apply_code(K.A_STRIKE + 1)
    assert g.phase == "reflex" and g.to_move == 1
    assert g.legal_codes() == [K.A_PASS, K.A_REFLEX]
    g.apply_code(K.A_REFLEX)
    st = g.state
    assert st[K.S_S_WOUNDS + 1] == 0 and st[K.S_ADJ_NEXT] == 0 and st[K.S_HITS] == 0
    assert st[K.S_CARDS + 1 * K.MAX_K + 0] == 0 and st[K.S_SDISCARD + 0] == 1


def test_helper_within_four_cancels_beyond_four_hit_lands():
    g = _strike_setup(R.override(ALWAYS), helper_cards={"feux_d_artifice": 1}, helper_dist=4)
    g.apply_code(commit(K.Q_STRIKE, 2))
    g.apply_code(K.A_STRIKE + 1)
    assert g.phase == "help" and g.to_move == 2
    g.apply_code(K.A_HELP)
    assert g.state[K.S_S_WOUNDS + 1] == 0 and g.state[K.S_ADJ_NEXT] == 0
    g = _strike_setup(R.override(ALWAYS), helper_cards={"feux_d_artifice": 1}, helper_dist=5)
    g.apply_code(commit(K.Q_STRIKE, 2))
    g.apply_code(K.A_STRIKE + 1)
    assert g.state[K.S_S_WOUNDS + 1] == 1
    assert g.state[K.S_ADJ_NEXT] == -2 and g.state[K.S_FIRST_HIT] == g.state[K.S_ROUND]
    # only a reflex card helps: a toolbox does not
    g = _strike_setup(R.override(ALWAYS), helper_cards={"boite_a_outils": 1}, helper_dist=1)
    g.apply_code(commit(K.Q_STRIKE, 2))
    g.apply_code(K.A_STRIKE + 1)
    assert g.state[K.S_S_WOUNDS + 1] == 1


def test_missed_strike_does_nothing_and_exhaustion_reaches_next_turn():
    g = _strike_setup(R.override(NEVER))
    g.apply_code(commit(K.Q_STRIKE, 2))
    g.apply_code(K.A_STRIKE + 1)
    assert g.state[K.S_S_WOUNDS + 1] == 0 and g.state[K.S_ADJ_NEXT] == 0
    # -2 next turn: the first card of 1 is swallowed whole, the next loses the rest
    g = _strike_setup(R.override(ALWAYS), energy={2: 2})
    g.apply_code(commit(K.Q_STRIKE, 2))
    g.apply_code(K.A_STRIKE + 1)
    st = g.state
    assert st[K.S_ADJ_NEXT] == -2
    to_move(g, 0)
    st[K.S_ADJ_NOW], st[K.S_ADJ_NEXT] = -2, 0
    clear(g)
    give(g, 0, {1: 1, 3: 1})
    legal = g.legal_codes()
    assert commit(K.Q_REST, 1) in legal and commit(K.Q_MOVE, 1) not in legal
    g.apply_code(commit(K.Q_REST, 1))
    assert st[K.S_ADJ_NOW] == -1
    g.apply_code(commit(K.Q_MOVE, 3))
    assert st[K.S_BUDGET] == 2 and st[K.S_ADJ_NOW] == 0


def test_second_hit_kills_and_medkit_heals():
    g = _strike_setup(R.override(ALWAYS), energy={2: 2})
    g.apply_code(commit(K.Q_STRIKE, 2))
    g.apply_code(K.A_STRIKE + 1)
    g.apply_code(commit(K.Q_STRIKE, 2))
    g.apply_code(K.A_STRIKE + 1)
    assert g.state[K.S_S_STATUS + 1] == K.ST_KILLED and g.state[K.S_KILLS] == 1
    g = at_first_turn()
    clear(g)
    to_move(g, 2)
    put(g, 1, 3, 3)
    put(g, 2, 3, 4)
    g.state[K.S_S_WOUNDS + 1] = 1
    give(g, 2, {2: 1}, {"trousse_de_soins": 1})
    g.apply_code(commit(K.Q_CARDS, 2))
    g.apply_code(K.A_MEDKIT + 1)
    assert g.state[K.S_S_WOUNDS + 1] == 0


# =========================================================================== case 6 (exact)
def _strike_turn_outcomes(rules, n=3000):
    base = _strike_setup(rules, energy={2: 5})
    out = {"killed": 0, "injured": 0, "unhurt": 0}
    for i in range(n):
        g = base.clone()
        reseed_dice(g, 10_000 + i)
        for _ in range(5):
            if g.state[K.S_S_STATUS + 1] != K.ST_IN or g.to_move != 0:
                break
            if commit(K.Q_STRIKE, 2) not in g.legal_codes():
                break
            g.apply_code(commit(K.Q_STRIKE, 2))
            g.apply_code(K.A_STRIKE + 1)
        w = g.state[K.S_S_WOUNDS + 1]
        out["killed" if w >= 2 else ("injured" if w == 1 else "unhurt")] += 1
    return out, n


def test_exact_five_strikes_kill_thirteen_sixteenths():
    p = exact.die_p(R.get("dice.black"))
    # independent: every sequence of five black faces with at least two hits
    faces = R.get("dice.black")
    brute = Fraction(sum(1 for roll in product(faces, repeat=5) if sum(roll) >= 2), len(faces) ** 5)
    sub = exact.strike_subgame([2] * 5, 2, p)
    assert sub["killed"] == brute == Fraction(13, 16)
    out, n = _strike_turn_outcomes(R)
    assert within(out["killed"] / n, brute, n)
    # one strike per target: never killed, injured half the time
    sub1 = exact.strike_subgame([2] * 5, 2, p, one_strike=True)
    assert sub1["killed"] == 0 and sub1["injured"] == Fraction(1, 2)
    out, n = _strike_turn_outcomes(R.override({"rules.variants.one_strike_per_target": True}))
    assert out["killed"] == 0 and within(out["injured"] / n, sub1["injured"], n)


def test_strike_subgame_against_brute_force():
    # reflexes absorb the first landed strikes: enumerate every roll sequence
    for strikes, shield in ((4, 1), (5, 2), (3, 0)):
        faces = (0, 1)
        counts = {"killed": 0, "injured": 0, "unhurt": 0}
        for roll in product(faces, repeat=strikes):
            left, wounds = shield, 0
            for hit in roll:
                if hit and left:
                    left -= 1
                elif hit:
                    wounds += 1
            counts["killed" if wounds >= 2 else ("injured" if wounds else "unhurt")] += 1
        sub = exact.strike_subgame([2] * strikes, 2, Fraction(1, 2), reflexes=shield)
        for k in counts:
            assert sub[k] == Fraction(counts[k], 2 ** strikes)


# =========================================================================== case 7: pallets
def _pallet_setup(rules, energy, kcards=None):
    g = _strike_setup(rules, energy=energy)
    st = g.state
    st[K.S_PALLET_STATE + 0] = K.PAL_DROPPED
    st[K.S_PALLET_X + 0], st[K.S_PALLET_Y + 0] = 2, 3  # beside the target at (3, 3)
    if kcards:
        give(g, 0, None, kcards)
    return g


def test_guarded_survivor_cannot_be_struck():
    g = _pallet_setup(R, {2: 1, 3: 1})
    assert all(not (K.A_COMMIT + K.Q_STRIKE * K.MAX_V <= a < K.A_COMMIT + (K.Q_STRIKE + 1) * K.MAX_V)
               for a in g.legal_codes())


def test_pallet_card_breaks_without_a_roll():
    g = _pallet_setup(R, {1: 1, 2: 1}, {"casse_palette": 1})
    put(g, 0, 2, 4)  # next to the pallet
    rolls = g.state[K.S_ROLLS]
    g.apply_code(commit(K.Q_CARDS, 1))
    g.apply_code(K.A_CASSE + 0)
    assert g.state[K.S_PALLET_STATE] == K.PAL_BROKEN and g.state[K.S_ROLLS] == rolls
    put(g, 0, 3, 4)  # back beside the target, unguarded now
    assert commit(K.Q_STRIKE, 2) in g.legal_codes()


def test_failed_break_roll_leaves_the_pallet_and_detour_unguards():
    g = _pallet_setup(R.override(NEVER), {3: 2})
    put(g, 0, 2, 4)
    g.apply_code(commit(K.Q_BREAK, 3))
    g.apply_code(K.A_BREAK + 0)
    assert g.state[K.S_PALLET_STATE] == K.PAL_DROPPED and g.state[K.S_PALLET_SPEND] == 3
    g = _pallet_setup(R, {3: 1, 2: 1})
    g.apply_code(commit(K.Q_DETOUR, 3))
    g.apply_code(K.A_DETOUR + 0)
    assert commit(K.Q_STRIKE, 2) in g.legal_codes()
    # the detour lasts the killer's turn only
    g.state[K.S_CURRENT] = 0
    g.state[K.S_PHASE] = K.PH_START_TURN
    g.advance()
    assert g.state[K.S_PALLET_DETOUR] == 0


def test_survivor_drops_and_vaults_and_killer_cannot_cross():
    g = at_first_turn()
    clear(g)
    to_move(g, 1)
    st = g.state
    put(g, 1, 5, 5)
    st[K.S_PALLET_X], st[K.S_PALLET_Y], st[K.S_PALLET_STATE] = 6, 5, K.PAL_STANDING
    give(g, 1, {1: 1, 2: 1})
    g.apply_code(commit(K.Q_PALLET, 1))
    g.apply_code(K.A_DROP + 0)
    assert st[K.S_PALLET_STATE] == K.PAL_DROPPED
    g.apply_code(commit(K.Q_MOVE, 2))
    g.apply_code(K.A_EAST)  # vault: 1 + 1
    assert (st[K.S_S_X + 1], st[K.S_BUDGET]) == (6, 0)
    # dropping costs 1 point: two standing pallets beside it, a card of 2, one drop leaves 1
    h = at_first_turn()
    clear(h)
    to_move(h, 1)
    put(h, 1, 5, 5)
    for p, (x, y) in enumerate(((6, 5), (4, 5))):
        h.state[K.S_PALLET_X + p], h.state[K.S_PALLET_Y + p] = x, y
        h.state[K.S_PALLET_STATE + p] = K.PAL_STANDING
    give(h, 1, {2: 1, 1: 1})
    h.apply_code(commit(K.Q_PALLET, 2))
    h.apply_code(K.A_DROP + 0)
    assert h.state[K.S_BUDGET] == 1 and K.A_DROP + 1 in h.legal_codes()
    to_move(g, 0)
    put(g, 0, 7, 5)
    give(g, 0, {2: 1})
    g.apply_code(commit(K.Q_MOVE, 2))
    assert K.A_WEST not in g.legal_codes()


# =========================================================================== case 8: hatch
def test_hatch_opens_for_the_last_survivor():
    g = _strike_setup(R.override(ALWAYS), energy={2: 2})
    st = g.state
    st[K.S_S_STATUS + 2] = st[K.S_S_STATUS + 3] = K.ST_KILLED
    st[K.S_KILLS] = 2
    assert st[K.S_HATCH] == K.HATCH_HIDDEN
    g.apply_code(commit(K.Q_STRIKE, 2))
    g.apply_code(K.A_STRIKE + 1)
    g.apply_code(commit(K.Q_STRIKE, 2))
    g.apply_code(K.A_STRIKE + 1)
    assert st[K.S_KILLS] == 3 and st[K.S_HATCH] == K.HATCH_OPEN
    t = st[K.S_HATCH_TOKEN]
    assert 0 <= t < len(R.tokens())
    # the last survivor on the hatch escapes for nothing; the survivors win with 3 kills
    to_move(g, 4)
    put(g, 4, *R.tokens()[t])
    # with no energy in hand at all: the hatch asks for none (a gate asks for 1)
    st[K.S_HAND + 4 * K.HAND_W:K.S_HAND + 5 * K.HAND_W] = 0
    discard = st[K.S_ENERGY_DISCARD:K.S_ENERGY_DISCARD + K.HAND_W].copy()
    assert K.A_HATCH in g.legal_codes()
    g.apply_code(K.A_HATCH)
    assert g.over and st[K.S_END_CAUSE] == K.END_MIXED
    assert (st[K.S_ENERGY_DISCARD:K.S_ENERGY_DISCARD + K.HAND_W] == discard).all()  # nothing paid
    r = g.result
    assert r["killer_win"] is False and r["survivors_win"] is True
    assert r["escapes"] == 1 and r["hatch_escapes"] == 1 and r["outcome_4"] == "hatch"


def test_map_shows_a_shut_hatch_and_the_key_opens_it():
    g = at_first_turn()
    clear(g)
    to_move(g, 1)
    give(g, 1, {2: 2, 3: 1}, {"carte": 1, "cle": 1})
    put(g, 1, 7, 6)
    g.apply_code(commit(K.Q_CARDS, 2))
    g.apply_code(K.A_PLAY_MAP)
    st = g.state
    assert st[K.S_HATCH] == K.HATCH_SHUT
    t = st[K.S_HATCH_TOKEN]
    put(g, 1, *R.tokens()[t])
    assert K.A_HATCH not in g.legal_codes()
    g.apply_code(commit(K.Q_CARDS, 2))
    g.apply_code(K.A_PLAY_KEY)
    assert st[K.S_HATCH] == K.HATCH_OPEN and K.A_HATCH in g.legal_codes()


def test_last_survivor_opens_a_shut_hatch():
    g = _strike_setup(R.override(ALWAYS), energy={2: 2})
    st = g.state
    st[K.S_HATCH], st[K.S_HATCH_TOKEN] = K.HATCH_SHUT, 5
    st[K.S_S_STATUS + 2] = st[K.S_S_STATUS + 3] = K.ST_ESCAPED
    st[K.S_ESCAPES] = 2
    for _ in range(2):
        g.apply_code(commit(K.Q_STRIKE, 2))
        g.apply_code(K.A_STRIKE + 1)
    assert st[K.S_HATCH] == K.HATCH_OPEN and st[K.S_HATCH_TOKEN] == 5


# =========================================================================== case 9: gates, end
def test_gate_opens_after_two_successes_and_each_escapes_for_one():
    g = at_first_turn(ruleset=R.override(ALWAYS))
    clear(g)
    st = g.state
    st[K.S_REPAIRED] = 4
    side = st[K.S_GATE_SIDE]
    gx, gy = R.gate_sites()[side]
    to_move(g, 1)
    put(g, 1, gx, gy)
    put(g, 2, gx, gy)
    give(g, 1, {2: 2, 1: 1})
    g.apply_code(commit(K.Q_GATE, 2))
    g.apply_code(K.A_GATE + 0)
    assert st[K.S_GATE_PROGRESS] == 1 and commit(K.Q_ESCAPE, 1) not in g.legal_codes()
    g.apply_code(commit(K.Q_GATE, 2))
    g.apply_code(K.A_GATE + 0)
    assert st[K.S_GATE_PROGRESS] == 2
    g.apply_code(commit(K.Q_ESCAPE, 1))
    g.apply_code(K.A_ESCAPE + 0)
    assert st[K.S_S_STATUS + 1] == K.ST_ESCAPED and st[K.S_ESCAPES] == 1
    assert g.to_move == 2  # escaping ends the turn
    give(g, 2, {1: 1})
    g.apply_code(commit(K.Q_ESCAPE, 1))
    g.apply_code(K.A_ESCAPE + 0)
    assert st[K.S_ESCAPES] == 2


def test_four_kills_win_for_the_killer():
    g = _strike_setup(R.override(ALWAYS), energy={2: 2})
    st = g.state
    for s in (2, 3, 4):
        st[K.S_S_STATUS + s] = K.ST_KILLED
    st[K.S_KILLS] = 3
    for _ in range(2):
        g.apply_code(commit(K.Q_STRIKE, 2))
        g.apply_code(K.A_STRIKE + 1)
    assert g.over and st[K.S_END_CAUSE] == K.END_KILLED
    assert g.result["killer_win"] is True and g.result["kills"] == 4


def test_timeout_ends_the_game():
    df = play_games(20, seats="killer=random,survivors=random", seed=1,
                    ruleset=R.override({"rules.timeout": 3}))
    assert (df.rounds <= 3).all() and (df.end_cause == "timeout").any()


# =========================================================================== case 10 (exact)
def test_exact_reflex_in_starting_hand_and_rolls_per_lamp():
    deck = {n: R.get(f"survivor_cards.{n}.count") for n in R.names("survivor_cards")}
    reflex = [n for n in deck if R.get(f"survivor_cards.{n}.effect") == "reflex"]
    ex = exact.p_reflex_in_hand(deck, reflex, 2)
    cards = [n for n, c in deck.items() for _ in range(c)]
    pairs = list(combinations(range(len(cards)), 2))
    brute = Fraction(sum(1 for i, j in pairs if cards[i] in reflex or cards[j] in reflex), len(pairs))
    assert ex == brute == 1 - Fraction(comb(11, 2), comb(20, 2)) == Fraction(27, 38)
    # the kernel's deal: survivors' starting hands over many games
    n = hits = 0
    for game in range(300):
        g = at_first_turn(game=game)
        for s in range(1, 5):
            n += 1
            hits += any(g.state[K.S_CARDS + s * K.MAX_K + k] for k in range(2))
    assert within(hits / n, ex, n)
    # 16 lamps at 1/2: 32 rolls on average, 64 energy
    p = exact.die_p(R.get("dice.white"))
    assert exact.mean_rolls(16, p) == 32 and 2 * exact.mean_rolls(16, p) == 64
    # the mean of a negative binomial by summing its series (independent of the formula)
    series = sum(k * comb(k - 1, 15) * Fraction(1, 2) ** k for k in range(16, 400))
    assert abs(float(series) - 32) < 1e-9


# =========================================================================== invariants
def _check(g: Game) -> None:
    st, r = g.state, g.rules
    ns = 4
    total_e = sum(r.get(f"energy.{n}.count") for n in r.names("energy"))
    held = sum(st[K.S_HAND + s * K.HAND_W + v] for s in range(K.MAX_SEATS) for v in range(K.HAND_W))
    assert held + st[K.S_ENERGY_DECK:K.S_ENERGY_DECK + K.HAND_W].sum() + \
        st[K.S_ENERGY_DISCARD:K.S_ENERGY_DISCARD + K.HAND_W].sum() == total_e
    for deck, disc, fname, seats in ((K.S_KDECK, K.S_KDISCARD, "killer_cards", [0]),
                                     (K.S_SDECK, K.S_SDISCARD, "survivor_cards", range(1, 5))):
        total = sum(r.get(f"{fname}.{n}.count") for n in r.names(fname))
        held = sum(st[K.S_CARDS + s * K.MAX_K + k] for s in seats for k in range(K.MAX_K))
        assert held + st[deck:deck + K.MAX_K].sum() + st[disc:disc + K.MAX_K].sum() == total
        assert (st[deck:deck + K.MAX_K] >= 0).all()
    assert st[K.S_REPAIRED] == sum(st[K.S_GEN_LAMPS + i] >= 4 for i in range(st[K.S_N_GENS]))
    assert all(0 <= st[K.S_GEN_LAMPS + i] <= 4 for i in range(K.MAX_GENS))
    status = [st[K.S_S_STATUS + s] for s in range(1, ns + 1)]
    assert st[K.S_KILLS] == status.count(K.ST_KILLED) and st[K.S_ESCAPES] == status.count(K.ST_ESCAPED)
    for s in range(K.MAX_SEATS):
        assert 0 <= st[K.S_S_X + s] < 15 and 0 <= st[K.S_S_Y + s] < 15
    assert st[K.S_BUDGET] >= 0 and st[K.S_ADJ_NOW] <= 0 or st[K.S_PHASE] != K.PH_COMMIT
    for s in range(1, ns + 1):
        assert 0 <= st[K.S_S_WOUNDS + s] <= 2
        assert sum(st[K.S_CARDS + s * K.MAX_K + k] for k in range(K.MAX_K)) <= 2 or \
            st[K.S_PHASE] == K.PH_DISCARD
        assert sum(st[K.S_HAND + s * K.HAND_W + v] for v in range(K.HAND_W)) <= 5
    if not g.over and st[K.S_PHASE] >= K.PH_TURN:
        assert not any(st[K.S_PALLET_STATE + p] == K.PAL_DROPPED and st[K.S_PALLET_X + p] == st[K.S_S_X]
                       and st[K.S_PALLET_Y + p] == st[K.S_S_Y] for p in range(st[K.S_N_PALLETS]))


@pytest.mark.parametrize("seats", ["killer=random,survivors=random",
                                   "killer=heuristic,survivors=random",
                                   "killer=random,survivors=heuristic"])
def test_invariants_under_play(seats):
    for game in range(4):
        g = Game(seed=11, game=game, seats=seats)
        steps = 0
        while not g.over:
            legal = g.legal_codes()
            assert 2 <= len(legal) <= K.MAX_LEGAL and len(set(legal)) == len(legal)
            g.apply(g.policy_choice())
            _check(g)
            steps += 1
        assert steps == g.result["decisions"]
        r = g.result
        assert r["kills"] + r["escapes"] == 4 or r["end_cause"] == "timeout"


def test_step_model_equals_batch_and_clone_replays():
    df = play_games(6, seats="killer=heuristic,survivors=random", seed=5)
    for game in (0, 3):
        g = Game(seed=5, game=game, seats="killer=heuristic,survivors=random")
        g.play()
        assert g.result == df.iloc[game].to_dict()
    g = Game(seed=2, game=1, seats="killer=random,survivors=heuristic")
    for _ in range(40):
        g.apply(g.policy_choice())
    c = g.clone()
    c2 = g.clone()
    rng = np.random.default_rng(0)
    while not c.over:
        i = int(rng.integers(len(c.legal_actions())))
        c.apply(i)
        c2.apply(i)
    assert c.result == c2.result and not g.over
    assert isinstance(g.describe(), str) and all(isinstance(a, str) for a in g.legal_actions())


def test_batch_search_games_equal_the_step_model_seat_by_seat():
    """The batch kernel's search games (``play_game_search_nb``) give each seat its own
    parameters, as the step model does: a search killer and survivors whose parameters
    differ seat by seat play the same games both ways."""
    seats = ("rollout:rollouts=2:horizon=1,heuristic:work_radius=9,heuristic,"
             "heuristic:flee_radius=2,heuristic:guard_lamps=3")
    df = play_games(2, seats=seats, seed=8)
    for game in (0, 1):
        g = Game(seed=8, game=game, seats=seats)
        g.play()
        assert g.result == df.iloc[game].to_dict()


def test_batch_search_games_each_play_their_own_table():
    """The batch search kernel plays each game with its own row of seats (a study's games
    rotate pairings): three games whose tables differ, played in one batch, equal the step
    model's games of those tables one by one."""
    from simlib.games.mort.api import run_kernel, seat_arrays

    tables = ["killer=rollout:rollouts=2:horizon=1,survivors=heuristic",
              "killer=heuristic,survivors=random",
              "killer=random,survivors=rollout:rollouts=2:horizon=1"]
    rows = [seat_arrays(parse_seats(t, R), 1) for t in tables]
    pol = np.concatenate([r[0] for r in rows])
    par = np.concatenate([r[1] for r in rows])
    out = run_kernel(R, 6, 0, pol, par, threads=1)
    for game, t in enumerate(tables):
        g = Game(seed=6, game=game, seats=t)
        g.play()
        assert np.array_equal(out[game], g.record_array()), t


def test_threads_and_chunks_do_not_change_games():
    a = play_games(64, seed=9, threads=1)
    b = play_games(64, seed=9, threads=2)
    c = play_games(24, seed=9, start=40, threads=2)
    assert a.equals(b)
    assert a.iloc[40:].reset_index(drop=True).drop(columns="game").equals(c.drop(columns="game"))
    assert not a.equals(play_games(64, seed=10, threads=1))


def test_seats_syntax():
    t = parse_seats("killer=rollout,survivors=baseline", R)
    assert [s.policy for s in t] == ["rollout"] + ["baseline"] * 4
    t = parse_seats("heuristic,random,random,heuristic:work_radius=9,random", R)
    assert t[3].params[2] == 9
    with pytest.raises(ValueError, match="allowed: killer, survivors"):
        parse_seats("hunter=random", R)
    with pytest.raises(ValueError, match="5 seats"):
        parse_seats("random,random", R)
    with pytest.raises(ValueError, match="unknown policy"):
        parse_seats("killer=clever", R)


def test_ruleset_refuses_bad_values():
    with pytest.raises(RulesetError, match="board.lamps"):
        R.override({"board.lamps": 0})
    with pytest.raises(RulesetError, match="killer_generators"):
        R.override({"board.killer_generators": 3})
    with pytest.raises(RulesetError, match="dice.white"):
        R.override({"dice.white": [0, 2]})
    with pytest.raises(RulesetError):
        R.override({"rules.variants.pooled": True})
    # the hatch costs no energy in the rulebook and no kernel read a cost for it: no such key
    with pytest.raises(RulesetError, match="escape_hatch_cost.*unknown key.*escape_gate_cost"):
        R.override({"rules.escape_hatch_cost": 1})
    for key in R.keys():
        assert R.source(key) in ("rulebook", "inferred", "assumed")


def test_the_kernels_own_apply_takes_every_legal_action_and_refuses_the_rest():
    """``OP_APPLY`` (the kernel's checked step, ``apply_action_nb``) at the decisions of a
    few games: each legal action is taken exactly as the unchecked step takes it, and a code
    that is not legal now is refused with the state unchanged (the step API checks in
    Python first, so only this test reads the kernel's own check)."""
    from simlib.games.mort.kernels import play_nb as PN

    seen = 0
    for game in range(3):
        g = Game(5, game, seats="killer=random,survivors=random")
        for _ in range(40):
            if g.over:
                break
            codes = g.legal_codes()
            for code in codes:
                a, b = g.clone(), g.clone()
                assert a._k(PN.OP_APPLY, a=code, log=a.log) == 1
                b._k(PN.OP_STEP, a=code, log=b.log)
                assert np.array_equal(a.state, b.state)
                seen += 1
            bad = max(codes) + 1
            c = g.clone()
            assert c._k(PN.OP_APPLY, a=bad, log=c.log) == 0
            assert np.array_equal(c.state, g.state)
            g.apply(int(np.random.default_rng(game).integers(len(codes))))
    assert seen > 100
