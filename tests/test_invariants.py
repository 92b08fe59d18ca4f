"""Each invariant code (codes.VIOL_*) is what the checker returns for a state corrupted in
exactly the way that code describes.

The checker is ``kernels.game_nb.invariant_violation_nb(st, rs)``; it returns the first
invariant a state breaks.  Each corruption below breaks one invariant only (the other
counts are kept consistent), on two valid states: a game right after setup with a
hand-made position, and a game played by the baseline into round 3.
"""
from __future__ import annotations

import numpy as np
import pytest

from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.kernels.game_nb import invariant_violation_nb
from simlib.games.until_daylight.ruleset import load_ruleset
from simlib.games.until_daylight.state import GameState

TEAM = ["pillar", "hipster", "haggler", "psycho"]
RULES = load_ruleset("reference")
PARAMS = RULES.pack().params
CARD_TAB = RULES.pack().card_tab


def _fresh() -> GameState:
    gs = GameState.new(RULES, players=4, characters=TEAM, seed=1)
    gs.set_area(0, ["monster", "wanderer", "survivor"])
    gs.set_area(2, ["raider"])
    gs.give(1, "planks", 2)
    gs.give(3, "gun_ammo", 3)
    gs.pl[2, K.PL_TRAPS] = 1
    gs.array[K.G_TRAP_SUPPLY] -= 1
    gs.pl[1, K.PL_BARRICADES] = 1
    gs.array[K.G_BARR_SUPPLY] -= 1
    return gs


def _midgame() -> GameState:
    gs = GameState.new(RULES, players=4, characters=TEAM, seed=7, game=2)
    gs.run(K.PC_ROUND_BEGIN, K.PC_SAVE)
    for _ in range(2):
        gs.run(K.PC_SAVE, K.PC_ENEMIES)
    assert gs.array[K.G_OVER] == 0 and gs.array[K.G_ROUND] == 3
    return gs


BASES = {"fresh": _fresh(), "midgame": _midgame()}


@pytest.fixture(params=sorted(BASES))
def gs(request) -> GameState:
    base = BASES[request.param]
    return GameState(base.array.copy(), RULES)


def check(gs: GameState) -> int:
    return int(invariant_violation_nb(gs.array, gs.rs))


def test_the_base_states_are_valid(gs):
    assert check(gs) == K.VIOL_NONE
    n = gs.n_players
    assert gs.pl[:n, K.PL_AREA_N].sum() > 0  # enemies on the table: the area counts matter
    assert gs.horde_total() == PARAMS[K.P_HORDE_TOTAL]
    assert gs.rubble_total() == PARAMS[K.P_RUBBLE_TOTAL]


def test_every_code_is_covered_here():
    codes = {v for k, v in vars(K).items() if k.startswith("VIOL_") and isinstance(v, int)}
    assert codes == set(K.VIOL_NAMES) == set(range(len(K.VIOL_NAMES)))
    tested = {K.VIOL_NONE, K.VIOL_RUBBLE_CONSERVATION, K.VIOL_HORDE_CONSERVATION,
              K.VIOL_TOKEN_LIMIT, K.VIOL_TOKEN_SUPPLY, K.VIOL_INVENTORY, K.VIOL_HEALTH,
              K.VIOL_AREA, K.VIOL_NEGATIVE}
    assert codes == tested  # a new code needs a test below


# --------------------------------------------------------------------------- conservation
def test_a_rubble_card_from_nowhere(gs):
    gs.rdisc[5] += 1
    assert check(gs) == K.VIOL_RUBBLE_CONSERVATION


def test_a_rubble_card_lost(gs):
    gs.array[K.G_RDECK_N] -= 1
    assert check(gs) == K.VIOL_RUBBLE_CONSERVATION


def test_a_rubble_card_duplicated_into_an_inventory(gs):
    gs.inv[3, RULES.card_id("gun_ammo")] += 1  # stacks: no extra slot, only conservation
    assert check(gs) == K.VIOL_RUBBLE_CONSERVATION


def test_a_horde_card_from_nowhere(gs):
    gs.hdisc[RULES.enemy_id("brute")] += 1
    assert check(gs) == K.VIOL_HORDE_CONSERVATION


def test_a_horde_card_kept_twice(gs):
    gs.kept[1, RULES.enemy_id("survivor")] += 1
    assert check(gs) == K.VIOL_HORDE_CONSERVATION


def test_a_horde_card_lost_from_an_area(gs):
    s = int(np.flatnonzero(gs.pl[:gs.n_players, K.PL_AREA_N] > 0)[0])
    gs.pl[s, K.PL_AREA_N] -= 1
    assert check(gs) == K.VIOL_HORDE_CONSERVATION


# --------------------------------------------------------------------------- tokens
def test_tokens_over_the_limit(gs):
    limit = int(PARAMS[K.P_TOKEN_LIMIT])
    s = 2
    held = int(gs.pl[s, K.PL_TRAPS] + gs.pl[s, K.PL_BARRICADES])
    # up to the limit is fine (taken from the supply)...
    gs.pl[s, K.PL_TRAPS] += limit - held
    gs.array[K.G_TRAP_SUPPLY] -= limit - held
    assert check(gs) == K.VIOL_NONE
    # ...one more is not
    gs.pl[s, K.PL_TRAPS] += 1
    gs.array[K.G_TRAP_SUPPLY] -= 1
    assert check(gs) == K.VIOL_TOKEN_LIMIT


def test_a_negative_token_count(gs):
    b = int(gs.pl[0, K.PL_BARRICADES])
    gs.pl[0, K.PL_BARRICADES] = -1
    gs.array[K.G_BARR_SUPPLY] += b + 1  # the totals still add up
    assert check(gs) == K.VIOL_TOKEN_LIMIT


@pytest.mark.parametrize("field,delta", [(K.G_TRAP_SUPPLY, 1), (K.G_TRAP_SUPPLY, -1),
                                         (K.G_BARR_SUPPLY, 1), (K.G_BARR_SUPPLY, -1)])
def test_tokens_and_supply_do_not_add_up(gs, field, delta):
    gs.array[field] += delta
    assert check(gs) == K.VIOL_TOKEN_SUPPLY


def test_tokens_of_the_first_and_last_seats_count(gs):
    """A trap taken from the supply by seat 0 and one by the last seat: the totals still
    add up (every seat's tokens are counted, none twice)."""
    n = int(gs.array[K.G_N_PLAYERS])
    assert n == len(TEAM)
    for s in (0, n - 1):
        assert gs.pl[s, K.PL_TRAPS] + gs.pl[s, K.PL_BARRICADES] + 1 <= PARAMS[K.P_TOKEN_LIMIT]
        gs.pl[s, K.PL_TRAPS] += 1
        gs.array[K.G_TRAP_SUPPLY] -= 1
        assert check(gs) == K.VIOL_NONE, s
    gs.pl[0, K.PL_TRAPS] += 1                  # one from nowhere at seat 0
    assert check(gs) in (K.VIOL_TOKEN_SUPPLY, K.VIOL_TOKEN_LIMIT)


def test_a_token_appears_within_the_limit(gs):
    s = 3
    assert gs.pl[s, K.PL_TRAPS] + gs.pl[s, K.PL_BARRICADES] < PARAMS[K.P_TOKEN_LIMIT]
    gs.pl[s, K.PL_BARRICADES] += 1  # not taken from the supply
    assert check(gs) == K.VIOL_TOKEN_SUPPLY


# --------------------------------------------------------------------------- inventory
def _give_any_single(gs: GameState, seat: int) -> None:
    """Move one non-stacking card (any type left in the rubble deck) to ``seat``."""
    n = int(gs.array[K.G_RDECK_N])
    for j in range(n):
        c = int(gs.rdeck[j])
        if CARD_TAB[c, K.C_STACKS] == 0:
            gs.give(seat, RULES.card_names[c])
            return
    raise AssertionError("no non-stacking card left in the rubble deck")


def test_an_inventory_over_its_slots(gs):
    s = 1
    c = int(gs.pl[s, K.PL_CHAR])
    slots = int(RULES.pack().char_tab[c, K.CH_SLOTS])
    used = sum(1 if CARD_TAB[t, K.C_STACKS] else int(k)
               for t, k in enumerate(gs.inv[s]) if k > 0)
    for _ in range(slots - used):
        _give_any_single(gs, s)
    assert check(gs) == K.VIOL_NONE  # a full inventory is legal
    _give_any_single(gs, s)
    assert check(gs) == K.VIOL_INVENTORY


# --------------------------------------------------------------------------- health
@pytest.mark.parametrize("how", ["over_max", "negative", "zero_while_playing"])
def test_health_out_of_range(gs, how):
    s = 2
    hmax = int(gs.pl[s, K.PL_MAX_HEALTH])
    gs.pl[s, K.PL_HEALTH] = {"over_max": hmax + 1, "negative": -1, "zero_while_playing": 0}[how]
    assert check(gs) == K.VIOL_HEALTH


def test_health_bounds_themselves_are_valid(gs):
    s = 2
    gs.pl[s, K.PL_HEALTH] = gs.pl[s, K.PL_MAX_HEALTH]
    assert check(gs) == K.VIOL_NONE
    gs.pl[s, K.PL_HEALTH] = 0  # a dead character once the game is over
    gs.array[K.G_OVER] = 1
    assert check(gs) == K.VIOL_NONE


# --------------------------------------------------------------------------- areas
def test_an_area_over_its_capacity(gs):
    cap = int(gs.array[K.G_AREA_CAP])
    s = 1
    extra = cap + 1 - int(gs.pl[s, K.PL_AREA_N])
    gs.pl[s, K.PL_AREA_N] += extra
    gs.array[K.G_HDECK_N] -= extra  # keep the horde count (the deck count goes negative)
    assert check(gs) == K.VIOL_AREA


# --------------------------------------------------------------------------- gaps
def test_a_negative_card_count_balanced_by_a_card_from_nowhere(gs):
    """A card count of -1 in an inventory, balanced by one more card in the deck: the sums
    still add up, the negative count is caught."""
    c = RULES.card_id("planks")
    gs.inv[0, c] -= 1
    gs.array[K.G_RDECK_N] += 1
    gs.rdeck[int(gs.array[K.G_RDECK_N]) - 1] = c
    assert check(gs) == K.VIOL_NEGATIVE


@pytest.mark.parametrize("where", ["rdisc", "hdisc", "kept", "hdeck_n"])
def test_other_negative_counts(gs, where):
    """A count set to -1, the cards it lost moved elsewhere so that every sum holds."""
    if where == "rdisc":
        moved = int(gs.rdisc[3]) + 1
        gs.rdisc[3] = -1
        n = int(gs.array[K.G_RDECK_N])
        gs.array[K.G_RDECK_N] = n + moved
        gs.rdeck[n:n + moved] = 3
    elif where == "hdisc":
        gs.hdisc[1] += int(gs.hdisc[0]) + 1
        gs.hdisc[0] = -1
    elif where == "kept":
        gs.hdisc[0] += int(gs.kept[0, 0]) + 1
        gs.kept[0, 0] = -1
    else:
        gs.array[K.G_HDECK_N] = -1
    assert check(gs) == K.VIOL_NEGATIVE


@pytest.mark.parametrize("on", [False, True])
def test_the_game_checks_its_invariants_only_when_asked(on):
    """``check`` on: the first broken invariant is recorded (``G_VIOLATION``) as play goes
    on; off: nothing is checked (checks cost time; a study plays without them)."""
    gs = GameState(BASES["midgame"].array.copy(), RULES)
    s = 2
    gs.pl[s, K.PL_TRAPS] += int(PARAMS[K.P_TOKEN_LIMIT]) + 1  # over the limit, from nowhere
    gs.array[K.G_CHECK] = int(on)
    gs.run(K.PC_SAVE, K.PC_ENEMIES)
    assert check(gs) != K.VIOL_NONE  # still broken at the end
    assert (int(gs.array[K.G_VIOLATION]) != K.VIOL_NONE) == on
