"""Day Night Z: set traps (§4.4) and combine card (§4.5) as the engine plays them at tile
level, on crafted states (the rules as ``docs/games/day-night-z.md`` "Traps and combined
cards" states them).

Dice are made certain with a ruleset whose faces all carry (or none carries) a star; the
dice a roll drew are read off the dice stream (``simlib.core.step.draws``), so the pool and
the outcome of a set-trap check are checked against the faces drawn, not against the
kernel's own arithmetic.  The probability table is computed here from ``dice.toml`` and
``colours.toml`` directly.
"""
from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from simlib.core.step import draws
from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z.kernels import engine_nb as E
from simlib.games.day_night_z.play import play_games
from simlib.games.day_night_z.ruleset import load_rules
from simlib.games.day_night_z.step import Game
from tests.test_day_night_z_engine import (FIRE_ACCESS, FIRE_TILE, LEADER, WALKER, at_tile, code, pass_turn,
                                           put_enemy, si)

REF = load_rules()
TRAPS = load_rules("traps")
G = K.S_GLOBALS
SEARCH = TRAPS.names("search")
WEAPONS = TRAPS.weapon_names
KNIFE, BAT, AXE, COLT, NAILED = (WEAPONS.index(w) for w in ("knife", "bat", "axe", "colt", "nailed_bat"))
NAILS, NAILED_CARD = SEARCH.index("nails"), SEARCH.index("nailed_bat")
DATA = Path(__file__).resolve().parents[1] / "data" / "day_night_z"


def rules_with(base=TRAPS, **over):
    """``base`` with every die face's ``field`` set (``star="green"``: every check passes at
    green stress; ``star="none"``: every check fails; ``target="green"``: every attack hits)
    and dotted keys (``__`` for ``.``) overridden."""
    ch = {}
    for k, v in over.items():
        if k in ("star", "target", "skull"):
            for f in base.face_names:
                ch[f"dice.{f}.{k}"] = v
        else:
            ch[k.replace("__", ".")] = v
    return base.override(ch)


def game(rules=TRAPS, team=1):
    g = Game(0, 0, players=team, ruleset=rules, policy="baseline")
    assert not g.over and g.g(K.G_PHASE) == K.PH_ACT
    return g


def trap_ready(g, s=0, melee=KNIFE, ranged=-1, stuff=1, ap=3):
    """Survivor ``s`` on the Fire Station's first tile with ``stuff`` stuff-for-traps cards
    and these weapons in his hands, ``ap`` AP, deciding."""
    st = g.state
    at_tile(g, s)
    st[si(s, K.U_MELEE)], st[si(s, K.U_RANGED)] = melee, ranged
    st[si(s, K.U_TRAP_STUFF)] = stuff
    st[si(s, K.U_AP)] = ap
    st[si(s, K.U_SP)] = 0          # no SP: one legal code per combination
    st[G + K.G_CUR] = s


def trap_codes(g):
    return sorted(c for c in g.legal_codes() if c // K.ACT_KIND == K.AC_SET_TRAP)


def trap_at(g, p=FIRE_TILE):
    return int(g.state[K.S_PLACES + p * K.P_W + K.P_TRAP])


def corpses_at(g, p=FIRE_TILE):
    return int(g.state[K.S_PLACES + p * K.P_W + K.P_CORPSES])


# =========================================================================== the data
def test_the_reference_deck_deals_no_trap_card_and_the_preset_keeps_75():
    """count 0 in the reference ruleset (its games unchanged); the preset deals 3 stuff for
    traps and 3 nails, 3 flashlights and 3 ammunition cards fewer: 75 cards."""
    for rules, stuff, nails in ((REF, 0, 0), (TRAPS, 3, 3)):
        deck = rules.pack_engine()[K.R_SDECK:K.R_SDECK + rules.pack_engine()[K.R_PARAMS + K.RP_N_SEARCH]]
        assert len(deck) == 75
        assert int((deck == SEARCH.index("stuff_for_traps")).sum()) == stuff
        assert int((deck == NAILS).sum()) == nails
        assert int((deck == NAILED_CARD).sum()) == 0
    assert TRAPS.get("search.flashlight.count") == REF.get("search.flashlight.count") - 3
    assert TRAPS.get("search.ammo.count") == REF.get("search.ammo.count") - 3


def test_bad_trap_data_is_refused():
    from simlib.core.ruleset import RulesetError
    with pytest.raises(RulesetError, match="capacity"):
        REF.override({"search.stuff_for_traps.capacity": 0})
    with pytest.raises(RulesetError, match="capacity"):
        REF.override({"search.nails.capacity": 1})
    with pytest.raises(RulesetError, match="combined card is a weapon"):
        REF.override({"search.nails.components": ["bat", "knife"]})
    with pytest.raises(RulesetError, match="at most one weapon"):
        REF.override({"search.nailed_bat.components": ["bat", "knife"]})
    with pytest.raises(RulesetError, match="neither a weapon nor a component"):
        REF.override({"search.nailed_bat.components": ["bat", "supplies"]})


# =========================================================================== set traps
def test_a_successful_trap_discards_the_cards_and_lays_a_marker_of_their_damage():
    """Stuff for traps (base 1) + the knife (trap damage 1): 1 AP, a Mechanisms check (it
    passes: +1 SP), the card and the knife discarded (fists in hand), a marker of 2 on his
    tile; no noise."""
    g = game(rules_with(star="green"))
    trap_ready(g)
    noise0 = g.g(K.G_RED_NOISE)
    g.apply_code(code(K.AC_SET_TRAP, K.TRAP_MELEE))
    assert trap_at(g) == TRAPS.get("search.stuff_for_traps.amount") + TRAPS.get("weapons.knife.trap_damage") == 2
    assert g.surv(0, K.U_TRAP_STUFF) == 0
    assert g.surv(0, K.U_MELEE) == WEAPONS.index("fists")
    assert g.surv(0, K.U_AP) == 3 - TRAPS.get("combat.trap_ap")
    assert g.surv(0, K.U_SP) == TRAPS.get("survivor.sp_per_passed_check")
    assert g.g(K.G_TRAPS_SET) == 1 and g.g(K.G_RED_NOISE) == noise0
    assert "a trap marker (damage 2)" in g.describe()


def test_a_failed_check_costs_the_ap_and_keeps_the_cards():
    g = game(rules_with(star="none"))
    trap_ready(g)
    g.apply_code(code(K.AC_SET_TRAP, K.TRAP_MELEE))
    assert trap_at(g) == 0 and g.g(K.G_TRAPS_SET) == 0
    assert g.surv(0, K.U_TRAP_STUFF) == 1 and g.surv(0, K.U_MELEE) == KNIFE
    assert g.surv(0, K.U_AP) == 3 - TRAPS.get("combat.trap_ap") and g.surv(0, K.U_SP) == 0
    # he may try again
    assert code(K.AC_SET_TRAP, K.TRAP_MELEE) in trap_codes(g)


def test_capacity_limits_the_cards_combined():
    """A knife and a Colt given trap damage: capacity 2 takes either or both, capacity 1
    one at a time; the marker adds both weapons' trap damage."""
    for cap, masks in ((2, [1, 2, 3]), (1, [1, 2])):
        rules = rules_with(star="green", search__stuff_for_traps__capacity=cap, weapons__colt__trap_damage=3)
        g = game(rules)
        trap_ready(g, ranged=COLT)
        assert trap_codes(g) == [code(K.AC_SET_TRAP, m) for m in masks], cap
    g.apply_code(code(K.AC_SET_TRAP, K.TRAP_RANGED))
    assert trap_at(g) == 1 + 3 and g.surv(0, K.U_RANGED) == -1 and g.surv(0, K.U_MELEE) == KNIFE
    g = game(rules_with(star="green", weapons__colt__trap_damage=3))
    trap_ready(g, ranged=COLT)
    g.apply_code(code(K.AC_SET_TRAP, K.TRAP_MELEE | K.TRAP_RANGED))
    assert trap_at(g) == 1 + 1 + 3


def test_when_a_trap_cannot_be_set():
    """Not without stuff for traps, nor without a trap-combinable weapon in hand (the bat,
    the fists), nor in a city zone, nor on a tile that holds a marker, nor short of AP."""
    cases = (dict(stuff=0), dict(melee=BAT), dict(melee=WEAPONS.index("fists")), dict(ap=0))
    for kw in cases:
        g = game()
        trap_ready(g, **kw)
        assert trap_codes(g) == [], kw
    g = game()
    trap_ready(g)
    g.state[si(0, K.U_PLACE)] = FIRE_ACCESS
    assert trap_codes(g) == []
    g = game()
    trap_ready(g)
    g.state[K.S_PLACES + FIRE_TILE * K.P_W + K.P_TRAP] = 2
    assert trap_codes(g) == []
    g = game()
    trap_ready(g, melee=AXE)
    assert trap_codes(g) == [code(K.AC_SET_TRAP, K.TRAP_MELEE)]


def _face_names_drawn(g, r0):
    nf = len(TRAPS.face_names)
    return [TRAPS.face_names[(x * nf) >> 32] for x in draws(r0, int(g.rng[K.STREAM_DICE]))]


def test_the_check_rolls_mechanisms_dice_and_passes_on_a_star_of_the_stress_colour():
    """Each roll: the dice drawn are Mechanisms + SP (at least 1), the trap is set exactly
    when a face drawn shows a star the stress colour accepts (colours.toml), and the
    step API records those dice as its chance events."""
    dice = tomllib.loads((DATA / "dice.toml").read_text())
    ok = tomllib.loads((DATA / "colours.toml").read_text())["check"]
    seen = set()
    for mech in (0, 1, 2, 4):
        rules = TRAPS.override({"survivors.swift.day.mechanisms": mech, "survivors.swift.night.mechanisms": mech})
        for game_i in range(12):
            for stress, colour in ((0, "green"), (4, "yellow"), (7, "red")):
                g = Game(3, game_i, players=1, ruleset=rules, policy="baseline")
                trap_ready(g)
                g.state[si(0, K.U_STRESS)] = stress
                sp = 1 if game_i % 2 else 0
                g.state[si(0, K.U_SP)] = sp
                r0, n0 = int(g.rng[K.STREAM_DICE]), len(g.chance_events())
                g.apply_code(code(K.AC_SET_TRAP, K.TRAP_MELEE, sp))
                faces = _face_names_drawn(g, r0)
                events = [e for e in g.chance_events()[n0:] if e[0] == "die"]
                assert len(faces) == max(mech + sp, 1) == len(events)
                hit = any(dice[f]["star"]["value"] in ok[colour]["value"] for f in faces)
                assert (trap_at(g) > 0) == hit
                seen.add(hit)
    assert seen == {True, False}


def _star_chance(colour):
    """The chance one die shows a star ``colour`` accepts, from the data files."""
    dice = tomllib.loads((DATA / "dice.toml").read_text())
    ok = tomllib.loads((DATA / "colours.toml").read_text())["check"][colour]["value"]
    return Fraction(sum(f["star"]["value"] in ok for f in dice.values()), len(dice))


# the chance a set-trap check succeeds by Mechanisms value (no SP), 1 - (1 - q)^max(m, 1)
TRAP_TABLE = {  # mechanisms -> (green, yellow, red)
    0: (Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)),
    1: (Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)),
    2: (Fraction(3, 4), Fraction(5, 9), Fraction(11, 36)),
    3: (Fraction(7, 8), Fraction(19, 27), Fraction(91, 216)),
    4: (Fraction(15, 16), Fraction(65, 81), Fraction(671, 1296)),
}


@pytest.mark.parametrize("mech", sorted(TRAP_TABLE))
def test_set_trap_probability_table(mech):
    """The table above from the die faces (an independent formula) and from the exact dice
    module the engine's roll matches (previous test)."""
    from simlib.games.day_night_z import exact as X
    for colour, want in zip(("green", "yellow", "red"), TRAP_TABLE[mech]):
        q = _star_chance(colour)
        assert 1 - (1 - q) ** max(mech, 1) == want
        assert X.check_probability(mech, colour, 0, ruleset=TRAPS, exact=True) == want


# =========================================================================== the marker fires
def test_the_marker_hits_the_first_enemy_to_engage_and_is_discarded():
    """A Walker far on the trap's tile advances on the survivor: the marker's 2 damage (no
    resistance) kill it before it attacks: a corpse marker, the marker gone, no SP, a trap
    kill (not a survivor's kill)."""
    g = game(rules_with(skull=False))
    trap_ready(g)
    g.state[K.S_PLACES + FIRE_TILE * K.P_W + K.P_TRAP] = 2
    put_enemy(g, WALKER, FIRE_TILE)
    sp0, kills0, health0 = g.surv(0, K.U_SP), g.g(K.G_KILLS), g.surv(0, K.U_HEALTH)
    pass_turn(g)
    assert trap_at(g) == 0 and corpses_at(g) == 1
    assert [k for _, k, _, _, _ in g.enemies()] == []
    assert g.g(K.G_TRAP_HITS) == 1 and g.g(K.G_TRAP_KILLS) == 1 and g.g(K.G_KILLS) == kills0
    assert g.surv(0, K.U_SP) == sp0 and g.surv(0, K.U_HEALTH) == health0
    assert g.record()["trap_kills"] == 1


def test_a_survivor_of_the_trap_keeps_its_damage_and_the_next_enemy_walks_in_free():
    """A Leader (health 3 by day, resistance 1) and a Walker far on the tile: the first of
    them to engage (the activation order: initiative, then slot) takes the whole damage, its
    resistance ignored; the other takes none."""
    g = game(rules_with(skull=False))
    trap_ready(g)
    g.state[K.S_PLACES + FIRE_TILE * K.P_W + K.P_TRAP] = 2
    w = put_enemy(g, WALKER, FIRE_TILE)
    lead = put_enemy(g, LEADER, FIRE_TILE)
    assert TRAPS.get("enemies.leader.day.resistance") == 1
    first = lead if TRAPS.get("enemies.leader.day.initiative") > TRAPS.get("enemies.walker.day.initiative") else w
    other = w if first == lead else lead
    pass_turn(g)
    dmg = {e: d for e, _, _, _, d in g.enemies()}
    assert dmg.get(first, None) in (2, None)   # None: killed (a Walker)
    assert dmg[other] == 0
    assert trap_at(g) == 0 and g.g(K.G_TRAP_HITS) == 1


def test_an_excitement_card_springs_the_trap_in_slot_order():
    """Excitement engages every far enemy at once, in slot order: the lower slot takes it."""
    g = game(rules_with(skull=False))
    trap_ready(g)
    g.state[K.S_PLACES + FIRE_TILE * K.P_W + K.P_TRAP] = 1
    a = put_enemy(g, LEADER, FIRE_TILE, slot=5)
    b = put_enemy(g, LEADER, FIRE_TILE, slot=9)
    pass_turn(g, side=K.SIDE_EXCITEMENT)
    dmg = {e: d for e, _, _, _, d in g.enemies()}
    assert dmg[a] == 1 and dmg[b] == 0


def test_an_engaged_enemy_already_there_does_not_spring_it():
    g = game(rules_with(skull=False))
    trap_ready(g)
    g.state[K.S_PLACES + FIRE_TILE * K.P_W + K.P_TRAP] = 2
    e = put_enemy(g, LEADER, FIRE_TILE, eng=0)
    pass_turn(g)
    assert trap_at(g) == 2 and dict((x, d) for x, _, _, _, d in g.enemies())[e] == 0


def test_the_marker_goes_with_the_tiles_when_the_last_survivor_leaves_the_location():
    g = game()
    trap_ready(g)
    g.state[K.S_PLACES + FIRE_TILE * K.P_W + K.P_TRAP] = 2
    g.state[si(0, K.U_PLACE)] = FIRE_ACCESS
    dice, tr, _, rl = g.packed
    E.leave_rule(g.state, tr, rl, FIRE_TILE)
    assert trap_at(g) == 0


# =========================================================================== combine card
def test_combine_bat_and_nails_into_a_nailed_bat():
    """1 AP, no roll, the bat and the nails discarded, the nailed bat in hand."""
    g = game()
    trap_ready(g, melee=BAT, stuff=0)
    g.state[si(0, K.U_PARTS)] = 1 << NAILS
    c = code(K.AC_COMBINE, NAILED_CARD)
    assert [x for x in g.legal_codes() if x // K.ACT_KIND == K.AC_COMBINE] == [c]
    r0 = int(g.rng[K.STREAM_DICE])
    g.apply_code(c)
    assert g.surv(0, K.U_MELEE) == NAILED and g.surv(0, K.U_PARTS) == 0
    assert g.surv(0, K.U_AP) == 3 - TRAPS.get("combat.combine_ap")
    assert int(g.rng[K.STREAM_DICE]) == r0 and g.g(K.G_COMBINED) == 1
    assert g.record()["cards_combined"] == 1


def test_a_combined_card_takes_its_component_weapon_from_its_own_hand():
    """The component weapon leaves the hand that holds it, the combined weapon goes to its
    own (melee or ranged): a Colt and nails made into the nailed bat leave no ranged
    weapon; a bat and nails made into a Colt leave the fists in the melee hand."""
    cases = ((["colt", "nails"], "nailed_bat", KNIFE, COLT, (NAILED, -1)),
             (["bat", "nails"], "colt", BAT, -1, (WEAPONS.index("fists"), COLT)))
    for comps, weapon, melee, ranged, want in cases:
        g = game(rules_with(search__nailed_bat__components=comps, search__nailed_bat__weapon=weapon))
        trap_ready(g, melee=melee, ranged=ranged, stuff=0)
        g.state[si(0, K.U_PARTS)] = 1 << NAILS
        g.apply_code(code(K.AC_COMBINE, NAILED_CARD))
        assert (g.surv(0, K.U_MELEE), g.surv(0, K.U_RANGED)) == want, (comps, weapon)
        assert g.surv(0, K.U_PARTS) == 0


def test_no_combine_without_every_component():
    for melee, parts in ((BAT, 0), (KNIFE, 1 << NAILS), (WEAPONS.index("fists"), 1 << NAILS)):
        g = game()
        trap_ready(g, melee=melee, stuff=0)
        g.state[si(0, K.U_PARTS)] = parts
        assert not [x for x in g.legal_codes() if x // K.ACT_KIND == K.AC_COMBINE]


def test_nails_found_are_kept_as_a_component():
    g = game()
    at_tile(g)
    dice, tr, _, rl = g.packed
    E.gain_card(g.state, tr, rl, 0, NAILS)
    E.gain_card(g.state, tr, rl, 0, SEARCH.index("stuff_for_traps"))
    assert g.surv(0, K.U_PARTS) == 1 << NAILS and g.surv(0, K.U_TRAP_STUFF) == 1


def test_the_nailed_bat_fights_with_its_own_damage():
    """Every attack hits: a melee attack with the nailed bat deals its damage at the
    wielder's strength (Swift: strength 2, the weak column: 2), the bat's 1."""
    assert REF.get("survivors.swift.day.strength") < REF.get("combat.strength_mid")
    for w, want in ((NAILED, TRAPS.get("weapons.nailed_bat.damage_weak")),
                    (BAT, TRAPS.get("weapons.bat.damage_weak"))):
        g = game(rules_with(target="green", skull=False))
        trap_ready(g, melee=w, stuff=0)
        e = put_enemy(g, LEADER, FIRE_TILE, eng=0)
        g.state[K.S_ENEMIES + e * K.EN_W + K.EN_DMG] = -50     # it survives
        g.apply_code(code(K.AC_MELEE, e))
        got = dict((x, d) for x, _, _, _, d in g.enemies())[e] + 50
        assert got == want - TRAPS.get("enemies.leader.day.resistance")
    assert TRAPS.get("weapons.nailed_bat.damage_weak") == 2


# =========================================================================== the players
def test_the_baseline_combines_and_sets_traps():
    """It combines a bat and nails (the nailed bat deals more); with a far Walker on its
    tile and nothing engaged it sets a trap with the knife it does not fight with (Swift
    fights with the Colt, ammunition in hand); ``trap_far=0`` never."""
    g = game()
    trap_ready(g, melee=BAT, stuff=0)
    g.state[si(0, K.U_PARTS)] = 1 << NAILS
    assert g.legal_codes()[g.policy_choice()] == code(K.AC_COMBINE, NAILED_CARD)
    assert g.legal_codes()[g.policy_choice("baseline:combine=0")] != code(K.AC_COMBINE, NAILED_CARD)
    g = game()
    trap_ready(g, ranged=COLT)
    g.state[si(0, K.U_AMMO)] = 4
    put_enemy(g, WALKER, FIRE_TILE)
    assert g.legal_codes()[g.policy_choice()] == code(K.AC_SET_TRAP, K.TRAP_MELEE)
    assert g.legal_codes()[g.policy_choice("baseline:trap_far=0")] // K.ACT_KIND != K.AC_SET_TRAP
    # the knife is Lebeu-like's only weapon and deals more than the fists: no trap
    g = game(rules_with(survivors__swift__day__strength=4))
    trap_ready(g)
    put_enemy(g, WALKER, FIRE_TILE)
    assert g.legal_codes()[g.policy_choice()] // K.ACT_KIND != K.AC_SET_TRAP


def test_the_preset_plays_traps_and_combined_cards_and_records_them():
    out = play_games(3000, ruleset=TRAPS, seed=0, team_size=4, policy="random")
    rec = out["records"]
    assert rec[:, K.RECORD_FIELDS.index("traps_set")].sum() > 0
    out = play_games(400, ruleset=TRAPS, seed=0, team_size=4)
    assert out["records"][:, K.RECORD_FIELDS.index("cards_combined")].sum() > 0
    ref = play_games(200, ruleset=REF, seed=0, team_size=4, policy="random")["records"]
    assert np.all(ref[:, K.RECORD_FIELDS.index("traps_set"):] == 0)
