"""Day Night Z: batteries (§4.2 "Every object with the battery icon consumes battery when
used. The chart indicates the duration (in turns) given by a battery unit"), as the engine
plays them: the flashlight (day attribute values at night) gives light only while the
battery unit it runs on lasts; a survivor's night activation in the dark takes a unit from
his backpack (``survivor.start_battery`` at the start, +1 a battery corpse marker); a unit
lasts the card's ``turns`` turns (the turn it is taken included); ``turns = 0`` is a
flashlight that needs no battery.  Crafted states on the engine's kernels."""
from __future__ import annotations

from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z.kernels import engine_nb as E
from tests.test_day_night_z_engine import RS, new_game, pass_turn, si

TURNS = RS.get("search.flashlight.turns")
FLASHLIGHT = RS.names("search").index("flashlight")


def ranged(g, s=0):
    """Survivor ``s``'s ranged attribute now (day or night value, as the engine reads it)."""
    _dice, tr, _spn, rl = g.packed
    return int(E.attr_of(g.state, tr, rl, s, K.A_RANGED))


def with_flashlight(g, battery, s=0):
    """Survivor ``s`` finds the flashlight card (its turns a unit) with ``battery`` units."""
    _dice, tr, _spn, rl = g.packed
    E.gain_card(g.state, tr, rl, s, FLASHLIGHT)
    g.state[si(s, K.U_BATTERY)] = battery


def test_the_reference_values():
    assert TURNS == 3 and RS.get("survivor.start_battery") == 1
    g = new_game(team=2)
    assert g.surv(0, K.U_BATTERY) == g.surv(1, K.U_BATTERY) == 1 and g.surv(0, K.U_LIGHT) == 0


def test_a_unit_lights_the_flashlight_for_its_turns_then_the_next_unit():
    """At 22:00 (the clock held: the threat cards carry no hourglass) Swift (ranged 4 by
    day, 3 by night) holds the flashlight and two units: each night activation in the dark
    takes one, which lasts TURNS turns; with none left he is in the dark."""
    day, night = RS.attribute("swift", "ranged"), RS.attribute("swift", "ranged", night=True)
    assert day != night
    g = new_game(hour=22)
    with_flashlight(g, battery=2)
    assert ranged(g) == night                 # his activation began before he found it
    seen = []
    for _ in range(2 * TURNS + 2):
        pass_turn(g)                          # the next activation starts
        assert not g.over
        seen.append((g.surv(0, K.U_BATTERY), g.surv(0, K.U_LIGHT), ranged(g)))
    want = [(1, TURNS - k, day) for k in range(TURNS)] + [(0, TURNS - k, day) for k in range(TURNS)]
    want += [(0, 0, night), (0, 0, night)]
    assert seen == want


def test_no_unit_is_taken_by_day():
    g = new_game(hour=9)
    with_flashlight(g, battery=1)
    pass_turn(g)
    assert g.surv(0, K.U_BATTERY) == 1 and g.surv(0, K.U_LIGHT) == 0
    assert ranged(g) == RS.attribute("swift", "ranged")


def test_a_flashlight_of_zero_turns_needs_no_battery():
    rs = RS.override({"search.flashlight.turns": 0})
    g = new_game(ruleset=rs, hour=22)
    _dice, tr, _spn, rl = g.packed
    E.gain_card(g.state, tr, rl, 0, FLASHLIGHT)
    g.state[si(0, K.U_BATTERY)] = 0
    assert ranged(g) == RS.attribute("swift", "ranged")
    pass_turn(g)
    assert ranged(g) == RS.attribute("swift", "ranged") and g.surv(0, K.U_BATTERY) == 0


def test_without_a_flashlight_no_unit_is_taken():
    g = new_game(hour=22)
    pass_turn(g)
    assert g.surv(0, K.U_BATTERY) == RS.get("survivor.start_battery")
    assert ranged(g) == RS.attribute("swift", "ranged", night=True)
