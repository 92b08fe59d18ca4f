"""Day Night Z: tile terrain (§3.10) as the engine plays it at tile level — cover, high,
flooded and hollow, noisy, fire — on crafted states.

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
    assert np.all(RS.pack_engine()[K.R_TERRAIN:K.R_TERRAIN + K.MAX_ZONES] == K.TT_NONE)
