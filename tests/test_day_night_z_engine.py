"""Day Night Z's turn engine (``kernels/engine_nb.py``) through the step Game and the batch:
the specification's verification cases 6-9 as the engine plays them (noise adjustment at the
threat phase, threat from leaving enemies and SP lowering it, the clock's hours, spawns on
entering a tile), the engine's rules one by one on positions set up by hand, invariants over
random play, reproducibility and step == batch.

A position is set up by writing the state array of a ``Game`` at a decision; the next threat
card is forced by writing the threat deck at its draw position; dice are made certain with a
ruleset whose faces all carry (or none carries) the symbol a roll needs.
"""
from __future__ import annotations

import numpy as np
import pytest

from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z.step import Game
from simlib.games.day_night_z.play import play_games
from simlib.games.day_night_z.ruleset import load_ruleset
from simlib.games.day_night_z.study import at_hour, load_rules

RS = load_ruleset()
G = K.S_GLOBALS
FACES = RS.face_names
WALKER, HOWLER, CRAWLER, LEADER, BULKER, HUNTER = range(6)
FIRE_TILE = K.MAX_ZONES            # the Fire Station's first tile
FIRE_ACCESS = 3                    # its access zone (0, 3)
START = 0                          # exit A (0, 0)


# =========================================================================== helpers
def si(s, f):
    return K.S_SURV + s * K.U_W + f


def code(kind, arg=0, sp=0):
    return kind * K.ACT_KIND + arg * K.ACT_ARG + sp


def kinds(g):
    return [k for _, k, _, _, _ in g.enemies()]


def rules_with(**faces):
    """The reference ruleset with every die face's ``field`` set: ``star="green"`` (every
    check passes at green stress), ``star="none"`` (every check fails), ``target="green"``
    (every attack hits at green health), ``skull=True``..."""
    ch = {}
    for f in FACES:
        for field, v in faces.items():
            ch[f"dice.{f}.{field}"] = v
    return RS.override(ch)


def force_card(g, side=K.SIDE_NORMAL, hours=0, hunter=0, inf=0, cond=K.COND_NOTHING):
    """The next threat card drawn is this one."""
    st = g.state
    pos = st[G + K.G_POS_THREAT]
    assert pos < RS.get("threat.cards")
    st[K.S_T_SIDE + pos], st[K.S_T_HOURS + pos], st[K.S_T_HUNTER + pos] = side, hours, hunter
    st[K.S_T_INF + pos], st[K.S_T_COND + pos] = inf, cond


def pass_turn(g, **card):
    """Every survivor ends his activation at once; the threat phase draws ``card``."""
    force_card(g, **card)
    t = g.g(K.G_TURN)
    while not g.over and g.g(K.G_TURN) == t:
        cs = g.legal_codes()
        a = next((c for c in cs if c // K.ACT_KIND == K.AC_ACTIVATE), None)
        if a is None:
            a = next(c for c in cs if c // K.ACT_KIND == K.AC_END)
        g.apply_code(a)


def put_enemy(g, kind, place, eng=-1, slot=None):
    st = g.state
    if slot is None:
        slot = next(e for e in range(K.MAX_ENEMIES) if st[K.S_ENEMIES + e * K.EN_W] < 0)
    b = K.S_ENEMIES + slot * K.EN_W
    st[b + K.EN_KIND], st[b + K.EN_PLACE], st[b + K.EN_ENG], st[b + K.EN_DMG] = kind, place, eng, 0
    st[K.S_PLACES + place * K.P_W + K.P_DEPLOYED] = 1
    if kind != HUNTER:
        st[K.S_MINIS + kind] -= 1
    return slot


def rules_at(ruleset=None, hour=None):
    """The ruleset with the adventure starting at ``hour`` (None: the scenario's hour)."""
    rules = load_rules(ruleset)
    return rules if hour is None else at_hour(rules, hour)


def engine_record(g) -> dict:
    """The kernel's record of ``g`` (``codes.RECORD_FIELDS``, codes not names)."""
    return dict(zip(K.RECORD_FIELDS, g.record_array().tolist()))


def new_game(team=1, ruleset=None, hour=None, seed=0, game=0):
    g = Game(seed, game, players=team, ruleset=rules_at(ruleset, hour), policy="baseline")
    assert not g.over
    return g


def at_tile(g, s=0, tile=FIRE_TILE):
    st = g.state
    st[si(s, K.U_PLACE)] = tile
    st[K.S_PLACES + tile * K.P_W + K.P_DEPLOYED] = 1
    st[K.S_PLACES + tile * K.P_W + K.P_EXPLORED] = 1


# =========================================================================== setup
def test_setup_team_at_the_start_exit_with_the_sheet_values():
    g = new_game(team=4)
    rl = RS.pack_engine()
    assert g.g(K.G_HOUR) == RS.get("scenario.start_hour") and g.g(K.G_TURN) == 0
    assert g.g(K.G_THREAT) == RS.threat_index("green", 1)
    for s, name in enumerate(RS.get("scenario.team")):
        assert g.surv(s, K.U_PLACE) == START
        assert g.surv(s, K.U_HEALTH) == RS.get("survivor.health_max")
        assert g.surv(s, K.U_SP) == RS.get("survivor.sp_start")
        assert g.surv(s, K.U_SUPPLIES) == RS.get("survivor.start_supplies")
        assert g.surv(s, K.U_AMMO) == RS.get(f"survivors.{name}.ammo")
        w = RS.weapon_names.index(RS.get(f"survivors.{name}.weapon"))
        assert w in (g.surv(s, K.U_MELEE), g.surv(s, K.U_RANGED))
    assert [int(x) for x in g.state[K.S_MINIS:K.S_MINIS + 6]] == [RS.get(f"enemies.{e}.miniatures")
                                                                  for e in K.ENEMIES]
    assert rl[K.R_ZONES + START] == K.Z_EXIT
    # a team of 4: the leader picks who activates first
    assert all(c // K.ACT_KIND == K.AC_ACTIVATE for c in g.legal_codes())


@pytest.mark.parametrize("health,ap", [(9, 3), (7, 3), (6, 2), (5, 2), (4, 2), (3, 1), (1, 1)])
def test_action_points_by_health(health, ap):
    g = new_game(team=2)
    g.state[si(1, K.U_HEALTH)] = health
    g.apply_code(code(K.AC_ACTIVATE, 1))
    assert g.surv(1, K.U_AP) == ap == RS.action_points(health)


# =========================================================================== case 6: noise
def test_case6_noise_counters_raise_threat_once_then_fade():
    g = new_game()
    t0 = g.g(K.G_THREAT)
    g.state[G + K.G_RED_NOISE], g.state[G + K.G_YELLOW_NOISE] = 3 + 2, 2
    pass_turn(g)
    assert (g.g(K.G_THREAT), g.g(K.G_RED_NOISE), g.g(K.G_YELLOW_NOISE)) == (t0 + 1, 0, 5)
    pass_turn(g)                                  # a quiet turn
    assert (g.g(K.G_THREAT), g.g(K.G_RED_NOISE), g.g(K.G_YELLOW_NOISE)) == (t0 + 2, 0, 0)
    pass_turn(g)                                  # the next: no rise
    assert g.g(K.G_THREAT) == t0 + 2
    assert g.record()["threat_from_noise"] == 2


def test_a_noisy_shot_leaves_a_red_counter_and_spends_ammo_and_a_silent_one_does_not():
    g = new_game()                                # Swift: the Colt, noisy, 1 ammo a shot
    at_tile(g)
    e = put_enemy(g, WALKER, FIRE_TILE)
    ammo = g.surv(0, K.U_AMMO)
    g.apply_code(code(K.AC_SHOOT, e))
    per_ap = RS.get("weapons.colt.attacks_per_ap")
    shots = ammo - g.surv(0, K.U_AMMO)
    assert 1 <= shots <= per_ap                   # rapid fire: a second shot unless the first killed
    assert g.g(K.G_RED_NOISE) == shots and g.surv(0, K.U_NOISY_USED) == 1
    g2 = new_game()
    at_tile(g2)
    g2.state[si(0, K.U_SUPPRESSOR)] = 1           # the Colt is suppressible
    e = put_enemy(g2, WALKER, FIRE_TILE)
    g2.apply_code(code(K.AC_SHOOT, e))
    assert g2.g(K.G_RED_NOISE) == 0 and g2.surv(0, K.U_NOISY_USED) == 0


def test_noisy_weapon_condition_raises_threat():
    g = new_game()
    t0 = g.g(K.G_THREAT)
    g.state[si(0, K.U_NOISY_USED)] = 1
    pass_turn(g, cond=K.COND_NOISY)
    assert g.g(K.G_THREAT) == t0 + RS.get("threat.effects.noisy_weapon_threat")
    assert g.record()["threat_from_cards"] == 1
    g = new_game()
    pass_turn(g, cond=K.COND_NOISY)               # nobody fired a noisy weapon
    assert g.g(K.G_THREAT) == t0


# =========================================================================== case 7: leaving
def test_case7_five_walkers_left_behind_at_green_14_give_yellow_1():
    g = new_game()
    at_tile(g)
    for _ in range(5):
        put_enemy(g, WALKER, FIRE_TILE)
    g.state[G + K.G_THREAT] = RS.threat_index("green", 14)
    g.apply_code(code(K.AC_MOVE, FIRE_ACCESS))
    assert RS.threat_of(g.g(K.G_THREAT)) == ("yellow", 1)
    assert g.enemies() == [] and g.state[K.S_MINIS + WALKER] == RS.get("enemies.walker.miniatures")
    assert g.record()["threat_from_leaving"] == 2
    # leaving a tile holding enemies costs leave_tile_ap
    assert g.surv(0, K.U_AP) == RS.get("survivor.ap_green") - RS.get("map.leave_tile_ap")


def test_case7_thirteen_sp_left_behind_give_three():
    g = new_game()
    at_tile(g)
    for k in (WALKER,) * 4 + (HOWLER, CRAWLER, CRAWLER, LEADER):
        put_enemy(g, k, FIRE_TILE)
    assert sum(RS.enemy(K.ENEMIES[k])["sp"] for k in [K.ENEMIES.index(x) for x in kinds(g)]) == 13
    t0 = g.g(K.G_THREAT)
    g.apply_code(code(K.AC_MOVE, FIRE_ACCESS))
    assert g.g(K.G_THREAT) == t0 + 3


def test_case7_nothing_while_a_survivor_stays_in_the_location():
    g = new_game(team=2)
    g.apply_code(code(K.AC_ACTIVATE, 0))
    at_tile(g, 0)
    at_tile(g, 1, FIRE_TILE + 1)                  # the other survivor on the next tile
    for _ in range(5):
        put_enemy(g, WALKER, FIRE_TILE)
    t0 = g.g(K.G_THREAT)
    g.apply_code(code(K.AC_MOVE, FIRE_ACCESS))
    assert g.g(K.G_THREAT) == t0 and len(g.enemies()) == 5


def test_case7_moving_between_tiles_leaves_the_enemies_in_place():
    g = new_game()
    at_tile(g)
    put_enemy(g, WALKER, FIRE_TILE)
    t0 = g.g(K.G_THREAT)
    g.apply_code(code(K.AC_MOVE, FIRE_TILE + 1))
    assert g.g(K.G_THREAT) == t0 and kinds(g)[0] == "walker"


def test_case7_sp_lower_yellow_5_to_3_for_6_sp_then_stop():
    g = new_game()
    g.state[G + K.G_THREAT] = RS.threat_index("yellow", 5)
    g.state[si(0, K.U_SP)] = 7
    for _ in range(2):
        g.apply_code(code(K.AC_LOWER_THREAT))
    assert RS.threat_of(g.g(K.G_THREAT)) == ("yellow", 3) and g.surv(0, K.U_SP) == 1
    g.state[si(0, K.U_SP)] = 15
    assert code(K.AC_LOWER_THREAT) not in g.legal_codes()   # down from a red unit: never
    r = g.record()
    assert (r["threat_lowered_by_sp"], r["sp_on_threat"]) == (2, 6)


def test_sp_never_lower_red_threat():
    g = new_game()
    g.state[G + K.G_THREAT] = RS.threat_index("red", 4)
    g.state[si(0, K.U_SP)] = 15
    assert code(K.AC_LOWER_THREAT) not in g.legal_codes()


# =========================================================================== case 8: the clock
def test_case8_nine_pm_raises_threat_and_brings_the_night():
    g = new_game(hour=20)
    t0 = g.g(K.G_THREAT)
    pass_turn(g, hours=1)
    assert g.g(K.G_HOUR) == 21 and g.g(K.G_THREAT) == t0 + 1
    assert g.record()["threat_from_clock"] == 1
    pass_turn(g, hours=2)                         # 22:00, 23:00: nothing
    assert g.g(K.G_THREAT) == t0 + 1
    g = new_game(hour=5)
    pass_turn(g, hours=1)                         # 06:00: the end of the night
    assert g.g(K.G_THREAT) == t0 + 1


def test_case8_two_hourglasses_at_23_fire_midnight_infection_test():
    rs = rules_with(star="none")                  # every check fails
    g = new_game(ruleset=rs, hour=23)
    g.state[si(0, K.U_INFECTION)] = 1
    pass_turn(g, hours=2)
    assert g.g(K.G_HOUR) == 1 and g.surv(0, K.U_INFECTION) == 2
    g = new_game(ruleset=rs, hour=21)
    g.state[si(0, K.U_INFECTION)] = 1
    pass_turn(g, hours=2)                         # 22:00, 23:00: no test
    assert g.surv(0, K.U_INFECTION) == 1


@pytest.mark.parametrize("variant,health", [(False, 5), (True, 4)])
def test_case8_eating_at_15_with_one_of_two_supplies(variant, health):
    rs = RS.override({"variants.eating_only_prevents_loss": variant})
    g = new_game(ruleset=rs, hour=14)
    g.state[si(0, K.U_EATS)], g.state[si(0, K.U_SUPPLIES)], g.state[si(0, K.U_HEALTH)] = 2, 1, 5
    pass_turn(g, hours=1)
    assert g.surv(0, K.U_HEALTH) == health and g.surv(0, K.U_SUPPLIES) == 0


def test_case8_dawn_gives_sp_capped_and_the_hunter_leaves():
    g = new_game(team=2, hour=6)
    g.state[si(0, K.U_SP)], g.state[si(1, K.U_SP)] = 15, 3
    put_enemy(g, HUNTER, START)
    g.state[G + K.G_HUNTER] = K.HUNTER_BOARD
    pass_turn(g, hours=1)
    assert g.g(K.G_HOUR) == 7 and (g.surv(0, K.U_SP), g.surv(1, K.U_SP)) == (15, 4)
    assert g.enemies() == [] and g.g(K.G_HUNTER) == K.HUNTER_BOX


def test_starvation_kills_as_hunger():
    g = new_game(hour=14)
    g.state[si(0, K.U_SUPPLIES)], g.state[si(0, K.U_HEALTH)] = 0, 1
    pass_turn(g, hours=1)
    r = engine_record(g)
    assert g.over and (r["dead_hunger"], r["end_cause"]) == (1, K.END_ALL_DEAD)


# =========================================================================== case 9: spawns
def test_case9_entering_a_tile_spawns_by_card_order_then_initiative_far_and_minis_taken():
    g = new_game()
    st = g.state
    st[si(0, K.U_PLACE)] = FIRE_ACCESS
    st[G + K.G_THREAT] = RS.threat_index("yellow", 2)
    spawn = RS.names("spawn")
    st[K.S_XSPAWN + st[G + K.G_POS_SPAWN]] = spawn.index("walkers")            # yellow: 2 W
    st[K.S_XSPAWN + st[G + K.G_POS_SPAWN] + 1] = spawn.index("crawler_pack")   # yellow: W + Crawler
    st[K.S_XDECK + st[G + K.G_POS_EXP]] = K.EXP_SPAWN
    g.apply_code(code(K.AC_MOVE, FIRE_TILE))
    assert RS.get("locations.fire_station.spawn_small") == 2
    assert kinds(g) == ["walker", "walker", "crawler", "walker"]
    assert all(p == FIRE_TILE and eng == -1 for _, _, p, eng, _ in g.enemies())
    assert st[K.S_MINIS + WALKER] == RS.get("enemies.walker.miniatures") - 3
    assert g.violation() == "none"


def test_case9_a_full_tile_discards_the_excess():
    rs = RS.override({"map.tile_capacity": 3})
    g = new_game(ruleset=rs)
    st = g.state
    st[si(0, K.U_PLACE)] = FIRE_ACCESS
    st[G + K.G_THREAT] = RS.threat_index("yellow", 2)
    spawn = RS.names("spawn")
    st[K.S_XSPAWN + st[G + K.G_POS_SPAWN]] = spawn.index("walkers")
    st[K.S_XSPAWN + st[G + K.G_POS_SPAWN] + 1] = spawn.index("crawler_pack")
    st[K.S_XDECK + st[G + K.G_POS_EXP]] = K.EXP_SPAWN
    g.apply_code(code(K.AC_MOVE, FIRE_TILE))
    assert kinds(g) == ["walker", "walker", "crawler"]
    assert st[K.S_MINIS + WALKER] == RS.get("enemies.walker.miniatures") - 2
    assert g.violation() == "none"


def test_finite_miniatures_a_missing_one_is_not_placed():
    g = new_game()
    st = g.state
    st[si(0, K.U_PLACE)] = FIRE_ACCESS
    st[K.S_MINIS + WALKER] = 1
    spawn = RS.names("spawn")
    st[K.S_XSPAWN + st[G + K.G_POS_SPAWN]] = spawn.index("howler_pack")        # green: 2 W
    st[K.S_XSPAWN + st[G + K.G_POS_SPAWN] + 1] = spawn.index("mixed")          # green: Crawler
    st[K.S_XDECK + st[G + K.G_POS_EXP]] = K.EXP_SPAWN
    g.apply_code(code(K.AC_MOVE, FIRE_TILE))
    assert kinds(g) == ["walker", "crawler"] and st[K.S_MINIS + WALKER] == 0


def test_reentering_an_explored_tile_draws_spawn_cards_not_an_exploration_card():
    g = new_game()
    st = g.state
    st[si(0, K.U_PLACE)] = FIRE_ACCESS
    st[K.S_PLACES + FIRE_TILE * K.P_W + K.P_EXPLORED] = 1
    pos = st[G + K.G_POS_EXP]
    g.apply_code(code(K.AC_MOVE, FIRE_TILE))
    assert st[G + K.G_POS_EXP] == pos and st[G + K.G_POS_SPAWN] == 2
    assert len(g.enemies()) >= 2


# =========================================================================== moves and encounters
def test_leaving_engaged_enemies_needs_an_agility_check():
    g = new_game(ruleset=rules_with(star="none"))           # the check fails
    at_tile(g)
    put_enemy(g, WALKER, FIRE_TILE, eng=0)
    assert code(K.AC_MOVE, FIRE_ACCESS, 1) in g.legal_codes()   # SP may help the check
    g.apply_code(code(K.AC_MOVE, FIRE_ACCESS))
    assert g.surv(0, K.U_PLACE) == FIRE_TILE and g.surv(0, K.U_AP) == 1
    assert g.enemies()[0][3] == 0                            # still engaged
    g = new_game(ruleset=rules_with(star="green"))          # the check passes: +1 SP
    at_tile(g)
    put_enemy(g, WALKER, FIRE_TILE, eng=0)
    sp = g.surv(0, K.U_SP)
    g.apply_code(code(K.AC_MOVE, FIRE_ACCESS))
    assert g.surv(0, K.U_PLACE) == FIRE_ACCESS and g.surv(0, K.U_SP) == sp + 1


def test_an_alley_stops_the_activation_and_draws_an_encounter():
    g = new_game()
    st = g.state
    alley = 1 * RS.get("city.cols") + 1                      # (1, 1)
    st[si(0, K.U_PLACE)] = 1                                 # (0, 1), next to it
    st[K.S_EDECK + st[G + K.G_POS_ENC]] = RS.names("encounters").index("quiet")
    t = g.g(K.G_TURN)
    force_card(g)
    g.apply_code(code(K.AC_MOVE, alley))
    # the activation ended at once; the quiet card resolved; the reserve AP may be spent
    assert g.surv(0, K.U_PLACE) == alley and st[G + K.G_POS_ENC] == 1
    assert g.g(K.G_PHASE) == K.PH_RESERVE and g.surv(0, K.U_AP) == 2 and g.g(K.G_TURN) == t


def _street_turn(team=1, setup=None, moves=(1, START), who=0):
    """Survivor ``who`` moves along ``moves`` (street zones: (0, 1) and back to exit A) and
    ends his activation; the next encounter card is "quiet".  Returns the game and the
    encounter deck's position just before and just after the end."""
    g = new_game(team=team)
    st = g.state
    st[K.S_EDECK + st[G + K.G_POS_ENC]] = RS.names("encounters").index("quiet")
    force_card(g)
    if setup is not None:
        setup(g)
    if team > 1:
        g.apply_code(code(K.AC_ACTIVATE, who))
    for q in moves:
        g.apply_code(code(K.AC_MOVE, q))
    before = g.g(K.G_POS_ENC)
    g.apply_code(code(K.AC_END))
    return g, before, g.g(K.G_POS_ENC)


def test_ending_a_move_in_a_free_street_zone_draws_an_encounter():
    """§4.9 street to street: the card comes when he ends his movement there, not on each
    zone he passes (a move on draws nothing); the card is resolved in the encounter phase
    and his reserve AP may then be spent, as after an alley's card."""
    g, before, after = _street_turn()
    assert before == 0 and after == 1
    assert g.surv(0, K.U_PLACE) == START and g.g(K.G_PHASE) == K.PH_RESERVE
    assert g.surv(0, K.U_ENCOUNTER) == -1 and g.surv(0, K.U_AP) == 1
    # the reserve spent by a move back into a street zone draws the next card at its end
    # (his last AP: the reserve ends by itself; the card waits for the next phase)
    g.apply_code(code(K.AC_MOVE, 1))
    assert g.g(K.G_POS_ENC) == 2 and g.surv(0, K.U_ENCOUNTER) >= 0


def test_no_street_encounter_without_a_move_or_with_company_or_a_tile():
    # no move: no card
    g, before, after = _street_turn(moves=())
    assert before == after == 0
    # another survivor stands in the zone where he ends
    g, before, after = _street_turn(team=2, who=0)
    assert (before, after) == (0, 0) and g.surv(1, K.U_PLACE) == START
    # a city tile deployed there (no enemy left on it)
    g, before, after = _street_turn(
        moves=(1,), setup=lambda g: g.state.__setitem__(K.S_PLACES + 1 * K.P_W + K.P_DEPLOYED, 1))
    assert (before, after) == (0, 0)
    # ends in a location's tile: no card
    g = new_game()
    g.state[si(0, K.U_PLACE)] = FIRE_ACCESS
    force_card(g)
    g.apply_code(code(K.AC_MOVE, FIRE_TILE))
    pos = g.g(K.G_POS_ENC)
    if not g.over and code(K.AC_END) in g.legal_codes():
        g.apply_code(code(K.AC_END))
    assert g.g(K.G_POS_ENC) == pos


def test_an_alley_card_is_the_only_card_of_the_activation():
    """Out of an alley into a street (STOP, a card on arrival): ending there draws no
    second card."""
    g = new_game()
    st = g.state
    alley = 1 * RS.get("city.cols") + 1                      # (1, 1)
    st[si(0, K.U_PLACE)] = alley
    st[K.S_EDECK + st[G + K.G_POS_ENC]] = RS.names("encounters").index("quiet")
    force_card(g)
    g.apply_code(code(K.AC_MOVE, 1))                         # (0, 1): STOP and a card
    assert g.g(K.G_POS_ENC) == 1 and g.g(K.G_PHASE) == K.PH_RESERVE


def test_a_city_ambush_encounter_spawns_on_the_survivor():
    g = new_game()
    st = g.state
    alley = 1 * RS.get("city.cols") + 1
    st[si(0, K.U_PLACE)] = 1
    st[K.S_EDECK + st[G + K.G_POS_ENC]] = RS.names("encounters").index("ambush")
    g.apply_code(code(K.AC_MOVE, alley))
    assert len(g.enemies()) >= 1 and all(p == alley for _, _, p, _, _ in g.enemies())


def test_search_is_a_complete_turn_on_a_clear_tile_once():
    g = new_game(ruleset=rules_with(star="green"))           # every check passes
    at_tile(g)
    assert code(K.AC_SEARCH) in g.legal_codes()
    g.apply_code(code(K.AC_SEARCH))
    n = RS.get("survivors.swift.day.perception")
    assert g.g(K.G_PHASE) == K.PH_PICK and g.g(K.G_N_PICKS) == n
    g.apply_code(code(K.AC_PICK, 0))
    assert g.g(K.G_SEARCHES) == 1
    assert g.state[K.S_PLACES + FIRE_TILE * K.P_W + K.P_SEARCHED] == 1
    # not after another action, not with enemies, not twice
    g = new_game()
    at_tile(g)
    g.apply_code(code(K.AC_DEFEND))
    assert code(K.AC_SEARCH) not in g.legal_codes()
    g = new_game()
    at_tile(g)
    put_enemy(g, WALKER, FIRE_TILE)
    assert code(K.AC_SEARCH) not in g.legal_codes()
    g = new_game()
    at_tile(g)
    g.state[K.S_PLACES + FIRE_TILE * K.P_W + K.P_SEARCHED] = 1
    assert code(K.AC_SEARCH) not in g.legal_codes()
    g = new_game()                                           # never in a city zone
    assert code(K.AC_SEARCH) not in g.legal_codes()


def test_a_failed_search_finds_nothing():
    g = new_game(ruleset=rules_with(star="none"))
    at_tile(g)
    g.apply_code(code(K.AC_SEARCH))
    g.apply_code(code(K.AC_PICK, 0))
    assert g.g(K.G_SEARCHES) == 0


# =========================================================================== combat
def test_melee_only_on_engaged_enemies_shots_reach_the_tile():
    g = new_game()
    at_tile(g)
    far = put_enemy(g, WALKER, FIRE_TILE)
    near = put_enemy(g, WALKER, FIRE_TILE, eng=0)
    cs = g.legal_codes()
    assert code(K.AC_MELEE, near) in cs and code(K.AC_MELEE, far) not in cs
    assert code(K.AC_SHOOT, near) in cs and code(K.AC_SHOOT, far) in cs
    g2 = new_game(ruleset=RS.override({"map.ranged_reaches_tile": False}))
    at_tile(g2)
    far = put_enemy(g2, WALKER, FIRE_TILE)
    assert code(K.AC_SHOOT, far) not in g2.legal_codes()


def test_a_hit_kills_and_earns_the_enemy_sp_a_miss_does_not():
    rs = rules_with(target="green")                           # every attack hits at green health
    g = new_game(ruleset=rs, team=4)
    g.apply_code(code(K.AC_ACTIVATE, 2))                       # Kenji: the bat
    at_tile(g, 2)
    e = put_enemy(g, WALKER, FIRE_TILE, eng=2)
    sp = g.surv(2, K.U_SP)
    g.apply_code(code(K.AC_MELEE, e))
    assert g.enemies() == [] and g.surv(2, K.U_SP) == sp + RS.enemy("walker")["sp"]
    assert g.record()["kills"] == 1 and g.state[K.S_MINIS + WALKER] == RS.get("enemies.walker.miniatures")
    g = new_game(ruleset=rules_with(target="none"), team=4)
    g.apply_code(code(K.AC_ACTIVATE, 2))
    at_tile(g, 2)
    e = put_enemy(g, WALKER, FIRE_TILE, eng=2)
    g.apply_code(code(K.AC_MELEE, e))
    assert len(g.enemies()) == 1 and g.surv(2, K.U_AP) == 2


def test_the_attack_colour_follows_health():
    # targets all red: a hit at yellow health, never at green
    rs = rules_with(target="red")
    for health, killed in ((9, False), (5, True)):
        g = new_game(ruleset=rs, team=4)
        g.state[si(2, K.U_HEALTH)] = health
        g.apply_code(code(K.AC_ACTIVATE, 2))
        at_tile(g, 2)
        e = put_enemy(g, WALKER, FIRE_TILE, eng=2)
        g.apply_code(code(K.AC_MELEE, e))
        assert (g.enemies() == []) == killed


def test_resistance_absorbs_damage_pierce_ignores_it():
    rs = rules_with(target="green", star="none")
    g = new_game(ruleset=rs, team=4)                          # Kenji, strength 3: bat damage 2
    g.apply_code(code(K.AC_ACTIVATE, 2))
    at_tile(g, 2)
    e = put_enemy(g, LEADER, FIRE_TILE, eng=2)                # resistance 1, health 3
    g.apply_code(code(K.AC_MELEE, e))
    assert g.enemies()[0][4] == RS.weapon_damage("bat", 3) - RS.enemy("leader")["resistance"]
    rs = RS.override({"weapons.bat.pierce": True, **{f"dice.{f}.target": "green" for f in FACES}})
    g = new_game(ruleset=rs, team=4)
    g.apply_code(code(K.AC_ACTIVATE, 2))
    at_tile(g, 2)
    e = put_enemy(g, LEADER, FIRE_TILE, eng=2)
    g.apply_code(code(K.AC_MELEE, e))
    assert g.enemies()[0][4] == RS.weapon_damage("bat", 3)


def test_sp_on_an_attack_adds_a_die_and_is_counted():
    g = new_game(team=4)
    g.apply_code(code(K.AC_ACTIVATE, 2))
    at_tile(g, 2)
    e = put_enemy(g, WALKER, FIRE_TILE, eng=2)
    sp = g.surv(2, K.U_SP)
    assert code(K.AC_MELEE, e, RS.get("survivor.max_sp_per_roll") + 1) not in g.legal_codes()
    g.apply_code(code(K.AC_MELEE, e, 1))
    assert g.record()["sp_on_rolls"] == 1 and g.surv(2, K.U_SP) in (sp - 1, sp - 1 + 1)


@pytest.mark.parametrize("infected", [0, 1])
def test_enemy_attack_damage_stress_infection_noise(infected):
    # every die: skull + infection + noise -> damage once, +1 stress, infection 1 (an
    # infected survivor stays at 1), a counter
    rs = rules_with(skull=True, infection=True, noise=True)
    g = new_game(ruleset=rs)
    at_tile(g)
    g.state[si(0, K.U_INFECTION)] = infected
    put_enemy(g, CRAWLER, FIRE_TILE, eng=0)
    h = g.surv(0, K.U_HEALTH)
    pass_turn(g)
    dmg = RS.enemy("crawler")["damage"] * RS.enemy("crawler")["actions"]
    assert g.surv(0, K.U_HEALTH) == h - dmg
    assert g.surv(0, K.U_STRESS) == RS.enemy("crawler")["actions"]
    assert g.surv(0, K.U_INFECTION) == 1                    # not +1 a hit once infected
    assert g.g(K.G_YELLOW_NOISE) == RS.enemy("crawler")["actions"]   # counters, adjusted


def test_far_enemies_advance_then_attack():
    rs = rules_with(skull=True)
    g = new_game(ruleset=rs)
    at_tile(g)
    put_enemy(g, WALKER, FIRE_TILE)                           # by day: 1 action
    h = g.surv(0, K.U_HEALTH)
    pass_turn(g)
    assert g.enemies()[0][3] == 0 and g.surv(0, K.U_HEALTH) == h     # advanced: engaged
    pass_turn(g)
    assert g.surv(0, K.U_HEALTH) == h - RS.enemy("walker")["damage"]


def test_fury_gives_an_extra_action_and_excitement_advances_first():
    rs = rules_with(skull=True)
    g = new_game(ruleset=rs)
    at_tile(g)
    put_enemy(g, WALKER, FIRE_TILE)
    h = g.surv(0, K.U_HEALTH)
    pass_turn(g, side=K.SIDE_FURY)                           # advance, then attack
    assert g.surv(0, K.U_HEALTH) == h - RS.enemy("walker")["damage"]
    g = new_game(ruleset=rs)
    at_tile(g)
    put_enemy(g, WALKER, FIRE_TILE)
    pass_turn(g, side=K.SIDE_EXCITEMENT)                     # advance first, its action attacks
    assert g.surv(0, K.U_HEALTH) == h - RS.enemy("walker")["damage"]


def test_engaged_cap_limits_advances():
    g = new_game()
    at_tile(g)
    for _ in range(RS.get("map.engaged_cap") + 2):
        put_enemy(g, WALKER, FIRE_TILE)
    pass_turn(g, side=K.SIDE_EXCITEMENT)
    eng = [x for _, _, _, x, _ in g.enemies() if x == 0]
    assert len(eng) == RS.get("map.engaged_cap") or g.over


def test_defensive_position_once_a_turn():
    g = new_game(team=2)
    g.apply_code(code(K.AC_ACTIVATE, 1))
    g.apply_code(code(K.AC_DEFEND))
    assert g.surv(1, K.U_DEFENDING) == 1 and code(K.AC_DEFEND) not in g.legal_codes()


# =========================================================================== the threat card's side B
def test_red_stress_condition_costs_health():
    g = new_game()
    g.state[si(0, K.U_STRESS)] = RS.get("survivor.stress_red_from")
    h = g.surv(0, K.U_HEALTH)
    pass_turn(g, cond=K.COND_RED_STRESS)
    assert g.surv(0, K.U_HEALTH) == h - RS.get("threat.effects.red_stress_health")


def test_ambush_condition_spawns_on_a_survivor_in_a_city_zone_only():
    g = new_game(team=2)
    pass_turn(g, cond=K.COND_AMBUSH)
    assert len(g.enemies()) >= 2 and all(p == START for _, _, p, _, _ in g.enemies())
    g = new_game()
    at_tile(g)
    pass_turn(g, cond=K.COND_AMBUSH)
    assert g.enemies() == []


@pytest.mark.parametrize("level,stress,dhealth", [(1, 1, 0), (2, 0, 1), (3, 0, 2)])
def test_infection_icon_by_level(level, stress, dhealth):
    g = new_game()
    g.state[si(0, K.U_INFECTION)] = level
    h = g.surv(0, K.U_HEALTH)
    pass_turn(g, inf=1)
    assert g.surv(0, K.U_STRESS) == stress and g.surv(0, K.U_HEALTH) == h - dhealth


def test_infection_four_kills():
    g = new_game(ruleset=rules_with(star="none"), hour=11)
    g.state[si(0, K.U_INFECTION)] = RS.get("survivor.infection_death") - 1
    pass_turn(g, hours=1)                                     # noon: the Strength test fails
    r = g.record()
    assert g.over and r["dead_infection"] == 1 and r["alive"] == 0


# =========================================================================== the Hunter
def test_hunter_first_icon_to_the_stalk_area_then_spawns_on_a_city_survivor():
    g = new_game(hour=22)
    pass_turn(g, hunter=1)
    assert g.g(K.G_HUNTER) == K.HUNTER_STALK and g.enemies() == []
    pass_turn(g, hunter=1)
    assert g.g(K.G_HUNTER) == K.HUNTER_BOARD and kinds(g) == ["hunter"]
    assert g.enemies()[0][2] == START and g.record()["hunter_spawns"] == 1
    # the survivor leaves its tile: the Hunter back to the stalk area, threat by its SP
    t0 = g.g(K.G_THREAT)
    g.state[K.S_ENEMIES + g.enemies()[0][0] * K.EN_W + K.EN_DMG] = 2
    g.apply_code(code(K.AC_MOVE, 1))
    assert g.g(K.G_HUNTER) == K.HUNTER_STALK and g.enemies() == []
    assert g.g(K.G_THREAT) == t0 + RS.leave_threat_rise(RS.enemy("hunter", True)["sp"])
    assert g.g(K.G_HUNTER_DMG) == 2                          # it keeps its damage this night


def test_the_hunter_comes_back_unhurt_each_night():
    """Nightfall (21:00) clears the damage the Hunter kept from the night before, unless he
    is dead (then he stays out)."""
    night = RS.get("clock.night_start")
    for state in (K.HUNTER_BOX, K.HUNTER_STALK, K.HUNTER_DEAD):
        g = new_game(hour=night - 1)
        g.state[G + K.G_HUNTER], g.state[G + K.G_HUNTER_DMG] = state, 2
        pass_turn(g, hours=1)
        assert g.g(K.G_HOUR) == night and g.g(K.G_HUNTER) == state
        assert g.g(K.G_HUNTER_DMG) == (2 if state == K.HUNTER_DEAD else 0), state


def test_the_hunter_killed_is_out_of_the_adventure():
    """A survivor's kill takes the Hunter out for good (no stalk area, no damage kept), as
    the records count it; leaving it alive sends it back to the stalk area (above)."""
    rs = rules_with(target="green")                           # every attack hits at green health
    g = new_game(ruleset=rs, team=4, hour=22)
    g.apply_code(code(K.AC_ACTIVATE, 2))
    at_tile(g, 2)
    e = put_enemy(g, HUNTER, FIRE_TILE, eng=2)
    g.state[G + K.G_HUNTER] = K.HUNTER_BOARD
    health = RS.enemy("hunter", True)["health"]
    g.state[K.S_ENEMIES + e * K.EN_W + K.EN_DMG] = health - 1   # one hit from death
    g.apply_code(code(K.AC_MELEE, e))
    assert g.enemies() == [] and g.g(K.G_HUNTER) == K.HUNTER_DEAD and g.g(K.G_HUNTER_DMG) == 0
    r = g.record()
    assert r["hunter_kills"] == 1 and r["kills"] == 1


def test_hunter_icons_by_day_or_with_nobody_in_the_city_do_nothing():
    g = new_game(hour=10)
    pass_turn(g, hunter=1)
    pass_turn(g, hunter=1)
    assert g.g(K.G_HUNTER) == K.HUNTER_BOX and g.enemies() == []
    g = new_game(hour=22)
    at_tile(g)
    pass_turn(g, hunter=1)
    pass_turn(g, hunter=1)
    assert g.g(K.G_HUNTER) == K.HUNTER_STALK and g.enemies() == []


# =========================================================================== the goal
def test_success_searches_done_and_every_living_survivor_at_an_exit():
    g = new_game(team=2)
    g.state[G + K.G_SEARCHES] = RS.get("scenario.searches_needed")
    g.state[si(1, K.U_ALIVE)] = 0
    g.state[si(1, K.U_DEAD_CAUSE)] = K.DEAD_DAMAGE
    g.state[G + K.G_DEAD_DAMAGE] = 1
    g.apply_code(code(K.AC_ACTIVATE, 0))
    r = engine_record(g)
    assert g.over and r["success"] == 1 and r["end_cause"] == K.END_SUCCESS
    assert r["vp"] == RS.get("scenario.vp_base") - RS.get("scenario.vp_per_dead")


def test_not_yet_a_success_with_a_survivor_away_from_the_exits():
    g = new_game(team=2)
    g.state[G + K.G_SEARCHES] = RS.get("scenario.searches_needed")
    g.state[si(1, K.U_PLACE)] = 1
    g.apply_code(code(K.AC_ACTIVATE, 0))
    assert not g.over


def test_out_of_turns_after_the_turn_limit():
    g = new_game()
    for _ in range(RS.get("scenario.turn_limit")):
        if g.over:
            break
        pass_turn(g)
    r = engine_record(g)
    assert g.over and r["end_cause"] in (K.END_OUT_OF_TURNS, K.END_ALL_DEAD)
    if r["end_cause"] == K.END_OUT_OF_TURNS:
        assert r["turns"] == RS.get("scenario.turn_limit")


# =========================================================================== batch: invariants, reproducibility
@pytest.fixture(scope="module")
def batch():
    return {pol: play_games(300, seed=11, policy=pol, threads=1) for pol in ("baseline", "random")}


def test_records_are_consistent(batch):
    limit = RS.get("scenario.turn_limit")
    units = RS.get("threat_track.units_per_level")
    for _pol, out in batch.items():
        r = {k: out["records"][:, i] for i, k in enumerate(K.RECORD_FIELDS)}
        team = r["team_size"]
        assert (r["alive"] + r["dead_damage"] + r["dead_infection"] + r["dead_hunger"] == team).all()
        assert ((r["success"] == 1) == (r["end_cause"] == K.END_SUCCESS)).all()
        assert (r["vp"][r["success"] == 0] == 0).all()
        assert (r["searches_done"][r["success"] == 1] >= RS.get("scenario.searches_needed")).all()
        assert ((r["threat_final"] >= 1) & (r["threat_final"] <= 3 * units)).all()
        assert ((r["turns"] >= 1) & (r["turns"] <= limit)).all()
        start = RS.threat_index("green", 1) + 1
        assert (r["threat_final"] == start + r["threat_from_noise"] + r["threat_from_leaving"]
                + r["threat_from_clock"] + r["threat_from_cards"] - r["threat_lowered_by_sp"]).all()
        tbt, abt = out["threat_by_turn"], out["alive_by_turn"]
        assert tbt.shape == (300, limit + 1) and abt.shape == (300, limit + 1)
        for i in range(300):
            t = r["turns"][i]
            assert (tbt[i, :t + 1] >= 1).all() and (tbt[i, :t + 1] <= 3 * units).all()
            assert (tbt[i, t + 1:] == -1).all() and (abt[i, t + 1:] == -1).all()
            assert tbt[i, t] == r["threat_final"][i] and abt[i, t] == r["alive"][i]
            assert (np.diff(abt[i, :t + 1]) <= 0).all()
        assert (r["decisions"] > 0).all()
    base = batch["baseline"]["records"][:, K.RECORD_FIELDS.index("success")].mean()
    rand = batch["random"]["records"][:, K.RECORD_FIELDS.index("success")].mean()
    assert base > rand


def test_same_seed_same_records_whatever_threads_and_start(batch):
    a = batch["baseline"]
    b = play_games(300, seed=11, threads=2)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    c = play_games(100, seed=11, start=200, threads=2)
    for k in a:
        np.testing.assert_array_equal(a[k][200:], c[k])
    d = play_games(300, seed=12, threads=1)
    assert not np.array_equal(a["records"], d["records"])


@pytest.mark.parametrize("policy,team,hour", [("baseline", 1, None), ("baseline", 3, 20), ("random", 2, 3)])
def test_step_game_is_the_batch_game(policy, team, hour):
    out = play_games(10, seed=4, team_size=team, start_hour=hour, policy=policy, threads=1)
    for i in range(10):
        g = Game(4, i, players=team, ruleset=rules_at(None, hour), policy=policy)
        while not g.over:
            g.apply(g.policy_choice())
        row = {k: int(v) for k, v in zip(K.RECORD_FIELDS, out["records"][i])}
        assert engine_record(g) == row
        assert g.threat_by_turn() == [int(x) for x in out["threat_by_turn"][i]]
        assert g.alive_by_turn() == [int(x) for x in out["alive_by_turn"][i]]
        assert engine_record(Game(4, i, players=team, ruleset=rules_at(None, hour), policy=policy).play()) == row


def test_random_play_keeps_every_invariant():
    rng = np.random.default_rng(7)
    for i in range(40):
        g = Game(9, i, players=int(rng.integers(1, 5)), ruleset=rules_at(None, int(rng.integers(0, 24))))
        steps = 0
        while not g.over:
            acts = g.legal_actions()
            assert len(acts) >= 2 and all(isinstance(a, str) and a for a in acts)
            v = g.violation()
            assert v == "none", (v, g.describe())
            g.apply(int(rng.integers(len(acts))))
            steps += 1
            assert steps < 5000
        assert g.violation() == "none" and g.legal_actions() == []
        with pytest.raises(ValueError):
            g.apply(0)


def test_unlimited_miniatures_variant_never_runs_out():
    rs = RS.override({"variants.unlimited_miniatures": True})
    g = new_game(ruleset=rs)
    st = g.state
    st[si(0, K.U_PLACE)] = FIRE_ACCESS
    st[K.S_MINIS + WALKER] = 0
    spawn = RS.names("spawn")
    st[K.S_XSPAWN + st[G + K.G_POS_SPAWN]] = spawn.index("walkers")
    st[K.S_XSPAWN + st[G + K.G_POS_SPAWN] + 1] = spawn.index("walkers")
    st[K.S_XDECK + st[G + K.G_POS_EXP]] = K.EXP_SPAWN
    g.apply_code(code(K.AC_MOVE, FIRE_TILE))
    assert kinds(g) == ["walker", "walker"]


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="team_size"):
        play_games(1, team_size=5)
    with pytest.raises(ValueError, match="start_hour"):
        play_games(1, start_hour=24)
    with pytest.raises(ValueError, match="policy"):
        play_games(1, policy="nobody")
    with pytest.raises(ValueError, match="heal_at"):
        play_games(1, params={"heal": 3})
    with pytest.raises(ValueError):
        play_games(0)


# =========================================================================== pools: dice rolled
# A roll draws exactly its pool from the dice stream, one step of the stream a die
# (simlib.core.rng: the state advances by GOLDEN a draw), so the dice a position rolled
# are read off the stream.
_GOLDEN = 0x9E3779B97F4A7C15
_INV = pow(_GOLDEN, -1, 1 << 64)


def dice_rolled(before: int, g) -> int:
    return ((int(g.rng[K.STREAM_DICE]) - before) % (1 << 64)) * _INV % (1 << 64)


@pytest.mark.parametrize("defend,armour,pool", [(False, False, 2), (True, False, 1), (False, True, 1),
                                                (True, True, 1)])
def test_case4_enemy_pool_attack_less_defense_defend_and_armour_min_one(defend, armour, pool):
    # a Bulker at night on Lebeu (Defense 1): 3 - 1 (- defend) (- armour on the struck location)
    g = new_game(team=2, hour=22)
    g.apply_code(code(K.AC_ACTIVATE, 1))
    at_tile(g, 1)
    put_enemy(g, BULKER, FIRE_TILE, eng=1)
    if defend:
        g.apply_code(code(K.AC_DEFEND))
    if armour:
        for loc in range(4):
            g.state[si(1, K.U_ARMOUR) + loc] = 1
    g.apply_code(code(K.AC_END))                      # Lebeu's activation ends
    assert g.g(K.G_PHASE) == K.PH_ACT and g.g(K.G_CUR) == 0
    force_card(g)
    before = int(g.rng[K.STREAM_DICE])
    g.apply_code(code(K.AC_END))                      # Swift's: the threat phase
    assert RS.enemy("bulker", True)["actions"] == 1
    assert dice_rolled(before, g) == pool


@pytest.mark.parametrize("sp,pool", [(0, 3), (1, 4)])
def test_case3_survivor_pool_swift_shoots_at_night(sp, pool):
    # Swift at night: ranged 3 (+ SP) - Walker's defense 0; every die misses, so the Colt's
    # rapid fire rolls twice (the SP on the first shot only)
    g = new_game(ruleset=rules_with(target="none"), hour=22)
    at_tile(g)
    e = put_enemy(g, WALKER, FIRE_TILE)
    before = int(g.rng[K.STREAM_DICE])
    g.apply_code(code(K.AC_SHOOT, e, sp))
    assert RS.attribute("swift", "ranged", night=True) == 3
    assert dice_rolled(before, g) == pool + 3
    # a flashlight: day values at night
    g = new_game(ruleset=rules_with(target="none"), hour=22)
    g.state[si(0, K.U_FLASHLIGHT)] = 1
    at_tile(g)
    e = put_enemy(g, WALKER, FIRE_TILE)
    before = int(g.rng[K.STREAM_DICE])
    g.apply_code(code(K.AC_SHOOT, e, sp))
    day = RS.attribute("swift", "ranged")
    assert dice_rolled(before, g) == (day + sp) + day


def test_agility_check_to_leave_uses_the_worst_evasion():
    # §4.9's example: Swift (Agility 2) with a Crawler (-1) and a Walker (0): 1 die
    g = new_game(ruleset=rules_with(star="none"))
    at_tile(g)
    put_enemy(g, WALKER, FIRE_TILE, eng=0)
    put_enemy(g, CRAWLER, FIRE_TILE, eng=0)
    before = int(g.rng[K.STREAM_DICE])
    g.apply_code(code(K.AC_MOVE, FIRE_ACCESS, 1))
    assert dice_rolled(before, g) == 2 - 1 + 1       # + 1 SP
    assert g.record()["sp_on_rolls"] == 1


def test_search_pool_perception_card_and_tile_modifiers():
    g = new_game(ruleset=rules_with(star="none"))
    at_tile(g)
    g.apply_code(code(K.AC_SEARCH))
    names = RS.names("search")
    c = names.index("knife")                         # the kept card: modifier 0
    g.state[K.S_PICKS] = c
    base = (RS.attribute("swift", "perception") + RS.get(f"search.{names[c]}.modifier")
            + RS.get("locations.fire_station.search_modifier"))
    before = int(g.rng[K.STREAM_DICE])
    g.apply_code(code(K.AC_PICK, 0))
    assert dice_rolled(before, g) == max(base, RS.get("survivor.min_pool"))


# =========================================================================== items and weapon traits
def test_sweep_a_star_and_a_kill_give_a_free_attack_on_another_engaged_enemy():
    rs = rules_with(target="green", star="green")             # every attack hits with a star
    g = new_game(ruleset=rs, team=4)
    g.apply_code(code(K.AC_ACTIVATE, 3))                       # Olsson: the axe (sweep)
    at_tile(g, 3)
    assert RS.get("weapons.axe.star_trait") == "sweep"
    a = put_enemy(g, WALKER, FIRE_TILE, eng=3)
    put_enemy(g, WALKER, FIRE_TILE, eng=3)
    g.apply_code(code(K.AC_MELEE, a))
    assert g.enemies() == [] and g.record()["kills"] == 2
    assert g.surv(3, K.U_AP) == RS.get("survivor.ap_green") - RS.get("combat.attack_ap")
    g = new_game(ruleset=rules_with(target="green", star="none"), team=4)
    g.apply_code(code(K.AC_ACTIVATE, 3))
    at_tile(g, 3)
    a = put_enemy(g, WALKER, FIRE_TILE, eng=3)
    put_enemy(g, WALKER, FIRE_TILE, eng=3)
    g.apply_code(code(K.AC_MELEE, a))
    assert len(g.enemies()) == 1


def _struck_next(g) -> int:
    """The body location the next threat card strikes (the choices stream's next draw)."""
    from simlib.core.rng import randint_nb
    r = g.rng.copy()
    return int(randint_nb(r, K.STREAM_CHOICES, K.N_BODY))


def test_biker_gloves_are_discarded_to_ignore_an_attack_on_the_arms():
    rs = rules_with(skull=True, infection=True)
    arms = K.BODY_LOCATIONS.index("arms")
    for game in range(64):
        g = new_game(ruleset=rs, game=game)
        if _struck_next(g) == arms:
            break
    else:
        pytest.fail("no game of 64 strikes the arms first")
    at_tile(g)
    put_enemy(g, BULKER, FIRE_TILE, eng=0)
    g.state[si(0, K.U_ARMOUR) + arms] = 1
    g.state[si(0, K.U_GLOVES)] = 1
    h = g.surv(0, K.U_HEALTH)
    pass_turn(g)
    assert g.surv(0, K.U_HEALTH) == h and g.surv(0, K.U_STRESS) == 0 and g.surv(0, K.U_INFECTION) == 0
    assert g.surv(0, K.U_GLOVES) == 0 and g.surv(0, K.U_ARMOUR + arms) == 0


@pytest.mark.parametrize("passes", [True, False])
def test_first_aid_vaccine_painkillers(passes):
    rs = rules_with(star="green" if passes else "none")
    g = new_game(ruleset=rs)
    st = g.state
    st[si(0, K.U_HEALTH)], st[si(0, K.U_INFECTION)] = 2, 2
    st[si(0, K.U_FIRST_AID)], st[si(0, K.U_VACCINES)], st[si(0, K.U_PAINKILLERS)] = 1, 1, 1
    g.apply_code(code(K.AC_FIRST_AID))
    assert g.surv(0, K.U_HEALTH) == 2 + (RS.get("search.first_aid_kit.amount") if passes else 0)
    assert g.surv(0, K.U_FIRST_AID) == 0
    g.apply_code(code(K.AC_VACCINE))
    assert g.surv(0, K.U_INFECTION) == 2 - (RS.get("search.vaccine.amount") if passes else 0)
    h = g.surv(0, K.U_HEALTH)
    g.apply_code(code(K.AC_PAINKILLER))
    assert g.surv(0, K.U_HEALTH) == h + RS.get("search.painkillers.amount")
    assert code(K.AC_PAINKILLER) not in g.legal_codes()


def test_a_supply_heals_one_free():
    g = new_game()
    g.state[si(0, K.U_HEALTH)] = 5
    g.apply_code(code(K.AC_EAT))
    assert g.surv(0, K.U_HEALTH) == 5 + RS.get("survivor.supply_heals")
    assert g.surv(0, K.U_SUPPLIES) == RS.get("survivor.start_supplies") - 1
    assert g.surv(0, K.U_AP) == RS.get("survivor.ap_green")


def test_a_found_weapon_replaces_a_weaker_one():
    rs = rules_with(star="green")
    g = new_game(ruleset=rs, team=4)
    g.apply_code(code(K.AC_ACTIVATE, 1))                       # Lebeu: the knife
    at_tile(g, 1)
    g.apply_code(code(K.AC_SEARCH))
    g.state[K.S_PICKS] = RS.names("search").index("axe")
    g.apply_code(code(K.AC_PICK, 0))
    assert g.surv(1, K.U_MELEE) == RS.weapon_names.index("axe")


def test_rest_a_complete_turn_lowers_stress():
    g = new_game()
    g.state[si(0, K.U_STRESS)] = 4
    force_card(g)
    g.apply_code(code(K.AC_REST))
    assert g.surv(0, K.U_STRESS) == 4 - RS.get("survivor.rest_stress")


def test_a_slow_weapon_fires_once_a_turn():
    g = new_game()
    g.state[si(0, K.U_RANGED)] = RS.weapon_names.index("shotgun")
    assert RS.get("weapons.shotgun.slow")
    at_tile(g)
    e = put_enemy(g, BULKER, FIRE_TILE)
    f = put_enemy(g, BULKER, FIRE_TILE)
    g.apply_code(code(K.AC_SHOOT, e))
    assert not any(c // K.ACT_KIND == K.AC_SHOOT for c in g.legal_codes())
    assert code(K.AC_SHOOT, f) not in g.legal_codes()


def test_no_ammo_no_shot():
    g = new_game()
    at_tile(g)
    put_enemy(g, WALKER, FIRE_TILE)
    g.state[si(0, K.U_AMMO)] = 0
    assert not any(c // K.ACT_KIND == K.AC_SHOOT for c in g.legal_codes())


@pytest.mark.parametrize("card", ["horde", "crawler_ambush", "stash"])
def test_surprise_zones(card):
    g = new_game()
    st = g.state
    cols = RS.get("city.cols")
    surprise = 1 * cols + 2                                  # (1, 2)
    st[si(0, K.U_PLACE)] = 1 * cols + 3                      # exit C, next to it
    st[K.S_UDECK + st[G + K.G_POS_SUR]] = RS.names("surprises").index(card)
    before = int(g.rng[K.STREAM_DICE])
    g.apply_code(code(K.AC_MOVE, surprise))
    assert st[K.S_PLACES + surprise * K.P_W + K.P_SURPRISED] == 1
    if card == "horde":
        assert st[G + K.G_POS_SPAWN] == RS.get("surprises.horde.spawn_cards")
        assert len(g.enemies()) >= RS.get("surprises.horde.spawn_cards")
    elif card == "crawler_ambush":
        assert kinds(g) == ["crawler"] and g.enemies()[0][3] == 0
        assert dice_rolled(before, g) == RS.enemy("crawler")["attack"]   # its immediate attack
    else:
        assert g.surv(0, K.U_SUPPLIES) == RS.get("survivor.start_supplies") + RS.get("surprises.stash.amount")
    # once resolved, a normal street
    pos = st[G + K.G_POS_SUR]
    st[si(0, K.U_PLACE)] = 1 * cols + 3
    for e, *_ in g.enemies():
        st[K.S_ENEMIES + e * K.EN_W + K.EN_ENG] = -1
    g2 = g.clone()
    if g2.surv(0, K.U_AP) >= 1 and code(K.AC_MOVE, surprise) in g2.legal_codes():
        g2.apply_code(code(K.AC_MOVE, surprise))
        assert g2.state[G + K.G_POS_SUR] == pos


# =========================================================================== corpses and hiding
def _corpses(g, p=FIRE_TILE):
    return int(g.state[K.S_PLACES + p * K.P_W + K.P_CORPSES])


def test_a_kill_leaves_a_corpse_marker_discarded_with_the_tile():
    g = new_game(ruleset=rules_with(target="green"), team=4)
    g.apply_code(code(K.AC_ACTIVATE, 2))
    at_tile(g, 2)
    e = put_enemy(g, WALKER, FIRE_TILE, eng=2)
    g.apply_code(code(K.AC_MELEE, e))
    assert _corpses(g) == 1
    g.apply_code(code(K.AC_MOVE, FIRE_ACCESS))           # the last survivor leaves the location
    assert _corpses(g) == 0


@pytest.mark.parametrize("kind,infects", [("nothing", False), ("supplies", False), ("ammo", False),
                                          ("battery", False), ("infected_2", True)])
def test_searching_a_corpse_marker(kind, infects):
    rs = rules_with(infection=True)                       # every die shows the infection icon
    g = new_game(ruleset=rs)
    at_tile(g)
    g.state[K.S_PLACES + FIRE_TILE * K.P_W + K.P_CORPSES] = 1
    g.state[si(0, K.U_INFECTION)] = 1
    g.state[K.S_CDECK + g.g(K.G_POS_CORPSE)] = RS.names("corpses").index(kind)
    sup, ammo, bat = g.surv(0, K.U_SUPPLIES), g.surv(0, K.U_AMMO), g.surv(0, K.U_BATTERY)
    before = int(g.rng[K.STREAM_DICE])
    g.apply_code(code(K.AC_SEARCH_CORPSE))
    assert _corpses(g) == 0 and g.surv(0, K.U_AP) == RS.get("survivor.ap_green") - RS.get("combat.search_item_ap")
    assert g.surv(0, K.U_INFECTION) == (2 if infects else 1)   # +1 even if infected
    assert dice_rolled(before, g) == (RS.get("corpses.infected_2.dice") if infects else 0)
    assert g.surv(0, K.U_SUPPLIES) == sup + (RS.get("corpses.supplies.amount") if kind == "supplies" else 0)
    assert g.surv(0, K.U_AMMO) == ammo + (RS.get("corpses.ammo.amount") if kind == "ammo" else 0)
    assert g.surv(0, K.U_BATTERY) == bat + (RS.get("corpses.battery.amount") if kind == "battery" else 0)


def test_hiding_among_corpses():
    rs = rules_with(infection=True, skull=True)
    g = new_game(ruleset=rs)
    at_tile(g)
    g.state[K.S_PLACES + FIRE_TILE * K.P_W + K.P_CORPSES] = 1
    put_enemy(g, WALKER, FIRE_TILE)                       # far: hiding is allowed
    before = int(g.rng[K.STREAM_DICE])
    g.apply_code(code(K.AC_HIDE))
    assert dice_rolled(before, g) == RS.get("combat.hide_dice")
    assert g.surv(0, K.U_HIDDEN) == 1 and g.surv(0, K.U_INFECTION) == 1 and _corpses(g) == 0
    h = g.surv(0, K.U_HEALTH)
    pass_turn(g)                                          # the Walker ignores him
    assert g.enemies()[0][3] == -1 and g.surv(0, K.U_HEALTH) == h
    # the next activation: the dice again to stay hidden (+1 level)
    assert g.surv(0, K.U_INFECTION) == 2 and g.surv(0, K.U_HIDDEN) == 1
    g.apply_code(code(K.AC_STOP_HIDING))
    assert g.surv(0, K.U_HIDDEN) == 0
    pass_turn(g)
    assert g.enemies()[0][3] == 0                         # seen again: it advances


def test_no_hiding_with_an_engaged_enemy_and_attacking_ends_hiding():
    g = new_game()
    at_tile(g)
    g.state[K.S_PLACES + FIRE_TILE * K.P_W + K.P_CORPSES] = 2
    e = put_enemy(g, WALKER, FIRE_TILE, eng=0)
    assert code(K.AC_HIDE) not in g.legal_codes()
    g.state[K.S_ENEMIES + e * K.EN_W + K.EN_ENG] = -1
    g.apply_code(code(K.AC_HIDE))
    if g.surv(0, K.U_ALIVE):
        g.apply_code(code(K.AC_SHOOT, e))
        assert g.surv(0, K.U_HIDDEN) == 0


def test_a_survivor_who_dies_acting_ends_his_activation():
    # every corpse die infects: at infection 3 a corpse x3 kills him; the other survivor acts
    rs = rules_with(infection=True)
    g = new_game(ruleset=rs, team=2)
    g.apply_code(code(K.AC_ACTIVATE, 0))
    at_tile(g, 0)
    g.state[K.S_PLACES + FIRE_TILE * K.P_W + K.P_CORPSES] = 1
    g.state[si(0, K.U_INFECTION)] = RS.get("survivor.infection_death") - 1
    g.state[K.S_CDECK + g.g(K.G_POS_CORPSE)] = RS.names("corpses").index("infected_3")
    g.apply_code(code(K.AC_SEARCH_CORPSE))
    assert g.surv(0, K.U_ALIVE) == 0 and g.record()["dead_infection"] == 1
    assert not g.over and g.g(K.G_CUR) == 1 and g.g(K.G_PHASE) == K.PH_ACT


def test_rapid_fire_stops_when_the_ammo_runs_out():
    g = new_game(ruleset=rules_with(target="none"))
    at_tile(g)
    e = put_enemy(g, WALKER, FIRE_TILE)
    g.state[si(0, K.U_AMMO)] = RS.get("weapons.colt.ammo")     # one shot's worth
    before = int(g.rng[K.STREAM_DICE])
    g.apply_code(code(K.AC_SHOOT, e))
    assert g.surv(0, K.U_AMMO) == 0 and g.g(K.G_RED_NOISE) == 1
    assert dice_rolled(before, g) == RS.attribute("swift", "ranged")


# =========================================================================== the baseline's parameters
@pytest.mark.parametrize("params,field", [({"sp_reserve": 99}, "sp_on_rolls"),
                                          ({"sp_gain": 99}, "sp_on_threat"),
                                          ({"noisy_below": 0}, "threat_from_cards")])
def test_baseline_parameters_do_what_their_names_say(params, field):
    # sp_reserve above any SP: never a die bought; sp_gain above the cap: the threat never
    # lowered; noisy_below 0: never a noisy weapon, so the noisy-weapon card never fires
    j = K.RECORD_FIELDS.index(field)
    base = play_games(300, seed=21, team_size=4, threads=1)["records"][:, j]
    off = play_games(300, seed=21, team_size=4, params=params, threads=1)["records"][:, j]
    assert base.sum() > 0 and off.sum() == 0


@pytest.mark.parametrize("variant", [False, True])
def test_attacks_earn_sp_variant(variant):
    # a hit on a Leader that does not kill it: +1 SP only under the variant
    over = {f"dice.{f}.target": "green" for f in FACES}
    over.update({f"dice.{f}.star": "none" for f in FACES})
    over["variants.attacks_earn_sp"] = variant
    g = new_game(ruleset=RS.override(over), team=4)
    g.apply_code(code(K.AC_ACTIVATE, 2))
    at_tile(g, 2)
    e = put_enemy(g, LEADER, FIRE_TILE, eng=2)
    sp = g.surv(2, K.U_SP)
    g.apply_code(code(K.AC_MELEE, e))
    assert len(g.enemies()) == 1 and g.enemies()[0][4] > 0
    assert g.surv(2, K.U_SP) == sp + (RS.get("survivor.sp_per_passed_check") if variant else 0)
