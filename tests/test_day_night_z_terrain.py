"""Day Night Z: tile terrain (§3.10) as the engine plays it at tile level — cover, high,
flooded and hollow, noisy, fire — and the jump (§4.10), on crafted states.

A roll always draws all of its dice from the dice stream, so the dice a roll drew (its
pool) is read off the stream (``simlib.core.step.draws``) without trusting the kernel's
own arithmetic; the expected pools are the rulebook's (§4.12: attack - cover - Defense;
ranged + high ground - the enemy's defence)."""
from __future__ import annotations

import numpy as np

from simlib.core.step import draws
from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z.kernels import engine_nb as E
from tests.test_day_night_z_engine import (FIRE_ACCESS, FIRE_TILE, LEADER, RS, WALKER, at_tile,
                                           code, new_game, pass_turn, put_enemy, rules_with, si)


def terrain(kind, rules=RS):
    """The reference ruleset with the Fire Station's tiles all ``kind``."""
    return rules.override({"locations.fire_station.terrain": [kind] * 3})


def dice_drawn(g, fn, *args):
    """Dice ``fn(g.state, g.rng, *g's rules, *args)`` drew from the dice stream."""
    r0 = int(g.rng[K.STREAM_DICE])
    dice, tr, _, rl = g.packed
    fn(g.state, g.rng, dice, tr, rl, *args)
    return len(draws(r0, int(g.rng[K.STREAM_DICE])))


def test_cover_tile_takes_a_die_from_the_enemys_attack():
    """A Leader (attack 3 by day) on Swift (Defense 0): 3 dice; on a cover tile 3 - 1 = 2."""
    for kind, pool in (("none", 3), ("cover", 2)):
        g = new_game(1, ruleset=terrain(kind))
        at_tile(g)
        assert RS.get("survivors.swift.day.defense") == 0 and RS.get("enemies.leader.day.attack") == 3
        e = put_enemy(g, LEADER, FIRE_TILE, eng=0)
        n = dice_drawn(g, E.enemy_attack, e, 0, 1)
        assert n == pool, kind


def test_high_tile_adds_a_die_to_ranged_attacks_only():
    """Swift's Colt (ranged 4 by day) on a Walker (defence 0): 4 dice, 5 from a high tile;
    his melee (hand to hand 2) stays 2 there."""
    colt = RS.weapon_names.index("colt")
    for kind, ranged, melee in (("none", 4, 2), ("high", 5, 2)):
        g = new_game(1, ruleset=terrain(kind))
        at_tile(g)
        e = put_enemy(g, WALKER, FIRE_TILE, eng=0)
        g.state[K.S_ENEMIES + e * K.EN_W + K.EN_DMG] = -50  # it survives every hit
        n = dice_drawn(g, E.one_attack, 0, e, colt, K.A_RANGED, 0)   # one roll (rapid fire: more rolls)
        assert n == ranged, kind
        fists = int(g.state[si(0, K.U_MELEE)])
        n = dice_drawn(g, E.one_attack, 0, e, fists, K.A_HTH, 0)
        assert n == melee, kind


def test_the_high_ground_flag_gives_every_tile_high_ground():
    """``map.high_ground_tiles`` (every tile high, off by default) now adds its die: it
    used to change nothing."""
    colt = RS.weapon_names.index("colt")
    g = new_game(1, ruleset=RS.override({"map.high_ground_tiles": True}))
    at_tile(g)
    e = put_enemy(g, WALKER, FIRE_TILE, eng=0)
    g.state[K.S_ENEMIES + e * K.EN_W + K.EN_DMG] = -50
    assert dice_drawn(g, E.one_attack, 0, e, colt, K.A_RANGED, 0) == 5


def test_flooded_and_hollow_cost_an_ap_more_or_a_stress_point_when_short():
    for kind in ("flooded", "hollow"):
        g = new_game(1, ruleset=terrain(kind, rules_with(skull=False)))  # no other stress
        st = g.state
        st[si(0, K.U_PLACE)] = FIRE_ACCESS
        enter = RS.get("city.enter_location_ap") + RS.get("map.flooded_extra_ap")
        _, _, _, rl = g.packed
        assert E.move_cost(st, rl, 0, FIRE_TILE) == enter
        # with the AP of a plain entry only: still legal, that AP and a stress point
        st[si(0, K.U_AP)] = RS.get("city.enter_location_ap")
        st[si(0, K.U_STRESS)] = 0
        assert code(K.AC_MOVE, FIRE_TILE) in g.legal_codes()
        g.apply_code(code(K.AC_MOVE, FIRE_TILE))
        assert g.surv(0, K.U_PLACE) == FIRE_TILE and g.surv(0, K.U_STRESS) == 1
        # with the full cost in hand, no stress
        g = new_game(1, ruleset=terrain(kind, rules_with(skull=False)))
        g.state[si(0, K.U_PLACE)], g.state[si(0, K.U_AP)] = FIRE_ACCESS, enter
        g.apply_code(code(K.AC_MOVE, FIRE_TILE))
        assert g.surv(0, K.U_PLACE) == FIRE_TILE and g.surv(0, K.U_STRESS) == 0


def test_noisy_tile_makes_a_noise_counter_on_entering():
    for kind, noise in (("none", 0), ("noisy", 1)):
        g = new_game(1, ruleset=terrain(kind, rules_with(skull=False)))
        st = g.state
        st[si(0, K.U_PLACE)] = FIRE_ACCESS
        st[si(0, K.U_AP)] = 3
        red0 = g.g(K.G_RED_NOISE)
        g.apply_code(code(K.AC_MOVE, FIRE_TILE))
        assert g.surv(0, K.U_PLACE) == FIRE_TILE
        assert g.g(K.G_RED_NOISE) - red0 == noise and g.surv(0, K.U_NOISE_MADE) == noise


def test_fire_tile_burns_every_miniature_on_it_after_the_threat_phase():
    """Every face a skull: Swift on a fire tile loses fire_damage (1) health, a Walker
    there (health 1 by day) burns to a corpse; every face blank: nothing."""
    for skull in (True, False):
        g = new_game(1, ruleset=terrain("fire", rules_with(skull=skull, noise=False, infection=False)))
        at_tile(g)
        e = put_enemy(g, WALKER, FIRE_TILE + 1)   # far from Swift's tile: it does not attack him
        g.state[K.S_PLACES + (FIRE_TILE + 1) * K.P_W + K.P_DEPLOYED] = 1
        h0 = g.surv(0, K.U_HEALTH)
        corpses0 = int(g.state[K.S_PLACES + (FIRE_TILE + 1) * K.P_W + K.P_CORPSES])
        pass_turn(g)
        burnt = RS.get("map.fire_damage") if skull else 0
        assert g.surv(0, K.U_HEALTH) == h0 - burnt
        alive = g.state[K.S_ENEMIES + e * K.EN_W + K.EN_KIND] == WALKER
        assert alive == (not skull)
        assert int(g.state[K.S_PLACES + (FIRE_TILE + 1) * K.P_W + K.P_CORPSES]) - corpses0 == int(skull)
        assert g.g(K.G_KILLS) == 0   # fire kills earn nobody anything


def test_terrain_data_errors_name_the_key_and_the_allowed_values():
    import pytest

    with pytest.raises(Exception, match="unknown tile terrain 'lava'.*allowed: none, cover, high"):
        RS.override({"locations.fire_station.terrain": ["lava", "none", "none"]})
    with pytest.raises(Exception, match="one terrain a tile: 3 tiles, got 2"):
        RS.override({"locations.fire_station.terrain": ["none", "none"]})
    with pytest.raises(Exception, match="jump_tiles: distinct increasing tile numbers from 1 to 3; got \\[4\\]"):
        RS.override({"locations.fire_station.jump_tiles": [4]})
    assert np.all(RS.pack_engine()[K.R_TERRAIN:K.R_TERRAIN + K.MAX_ZONES] == K.TT_NONE)


# =========================================================================== jumps (§4.10)
def jumps(rules=RS, **over):
    """``rules`` with every Fire Station tile a tile to jump from (and ``over``)."""
    return rules.override({"locations.fire_station.jump_tiles": [1, 2, 3], **over})


def on_tile(g, tile, ap=3):
    """Survivor 0 activated (a team of one starts activated), on ``tile`` of the Fire
    Station, with ``ap`` AP."""
    if code(K.AC_ACTIVATE, 0) in g.legal_codes():
        g.apply_code(code(K.AC_ACTIVATE, 0))
    at_tile(g, 0, tile)
    g.state[si(0, K.U_AP)] = ap


def test_jump_is_offered_only_from_a_jump_tile_with_the_ap():
    g = new_game(1, ruleset=RS.override({"locations.fire_station.jump_tiles": [2]}))
    on_tile(g, FIRE_TILE)
    assert not [c for c in g.legal_codes() if c // K.ACT_KIND == K.AC_JUMP]
    g = new_game(1, ruleset=RS.override({"locations.fire_station.jump_tiles": [2]}))
    on_tile(g, FIRE_TILE + 1)
    offered = sorted(c % K.ACT_ARG for c in g.legal_codes() if c // K.ACT_KIND == K.AC_JUMP)
    assert offered == list(range(min(RS.get("survivor.max_sp_per_roll"), g.surv(0, K.U_SP)) + 1))
    g.state[si(0, K.U_AP)] = RS.get("map.jump_ap") - 1
    assert not [c for c in g.legal_codes() if c // K.ACT_KIND == K.AC_JUMP]


def test_jump_check_is_agility_less_the_penalty_and_the_engaged_evasion():
    """Swift's Agility check (2 by day): 2 dice without the penalty, 1 with it (the minimum
    pool: 2 - 2 = 0); engaged with a Crawler (evasion -1 by day) and no penalty, 1 die.  A
    failed jump draws nothing else (AP are left: the same activation goes on)."""
    assert RS.get("survivors.swift.day.agility") == 2 and RS.get("enemies.crawler.day.evasion") == -1
    for penalty, crawler, pool in ((0, False, 2), (2, False, 1), (0, True, 1)):
        g = new_game(1, ruleset=jumps(rules_with(star="none"), **{"map.jump_penalty": penalty}))
        on_tile(g, FIRE_TILE + 1)
        if crawler:
            put_enemy(g, 2, FIRE_TILE + 1, eng=0)
        r0 = int(g.rng[K.STREAM_DICE])
        g.apply_code(code(K.AC_JUMP, 0, 0))
        assert g.surv(0, K.U_PLACE) == FIRE_TILE + 1
        assert len(draws(r0, int(g.rng[K.STREAM_DICE]))) == pool, (penalty, crawler)


def test_a_jump_lands_on_the_street_leaving_engaged_enemies_and_a_failed_one_costs_the_ap():
    for star, lands in (("green", True), ("none", False)):
        g = new_game(1, ruleset=jumps(rules_with(star=star, skull=False)))
        on_tile(g, FIRE_TILE + 2)
        e = put_enemy(g, WALKER, FIRE_TILE + 2, eng=0)
        ap0 = g.surv(0, K.U_AP)
        g.apply_code(code(K.AC_JUMP, 0, 0))
        assert (g.surv(0, K.U_PLACE) == FIRE_ACCESS) == lands
        eng = int(g.state[K.S_ENEMIES + e * K.EN_W + K.EN_ENG])
        assert eng == (-1 if lands else 0)
        if not lands:   # still his activation: the AP went
            assert g.surv(0, K.U_AP) == ap0 - RS.get("map.jump_ap")


def test_baseline_jumps_to_the_exit_when_it_saves_enough_moves():
    """Searches done, on the Fire Station's third tile (3 moves to its street): the baseline
    jumps (saves 2 >= jump_saves 2); from the second tile (saves 1) it walks."""
    for tile, jumps_ in ((FIRE_TILE + 2, True), (FIRE_TILE + 1, False)):
        g = new_game(1, ruleset=jumps())
        on_tile(g, tile)
        g.state[K.S_GLOBALS + K.G_SEARCHES] = RS.get("scenario.searches_needed")
        c = g.legal_codes()[g.policy_choice("baseline")]
        assert (c // K.ACT_KIND == K.AC_JUMP) == jumps_, tile
        c = g.legal_codes()[g.policy_choice("baseline", {"jump_saves": 9})]
        assert c // K.ACT_KIND != K.AC_JUMP
