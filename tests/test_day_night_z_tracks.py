"""Day Night Z's track kernels (``tracks_nb``): the specification's verification cases 6
(noise), 7 (threat: leaving enemies, SP lowering it) and 8 (the clock, eating, the SP cap),
and the threat-lowering rule against an oracle written here from the rulebook's wording."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z.kernels import tracks_nb as T
from simlib.games.day_night_z.ruleset import load_ruleset

RS = load_ruleset()
TR = RS.pack_tracks()


def idx(level, unit, rs=RS):
    return rs.threat_index(level, unit)


# =========================================================================== case 6: noise
def test_case6_noise_adjustment():
    red, yellow = 3 + 2, 2           # 3 shots + 2 noisy zombie attacks; 2 old yellow counters
    red, yellow, rise = T.noise_adjust_nb(TR, red, yellow)
    assert (red, yellow, rise) == (0, 5, 1)
    red, yellow, rise = T.noise_adjust_nb(TR, red, yellow)   # a quiet turn
    assert (red, yellow, rise) == (0, 0, 1)
    assert T.noise_adjust_nb(TR, red, yellow) == (0, 0, 0)   # the next: no rise


# =========================================================================== case 7: threat
def test_case7_leaving_enemies_behind():
    t = idx("green", 14)
    rise = T.leave_rise_nb(TR, 5 * RS.enemy("walker")["sp"])
    assert RS.threat_of(T.threat_raise_nb(TR, t, rise)) == ("yellow", 1)
    assert T.leave_rise_nb(TR, 13) == 3
    assert T.leave_rise_nb(TR, 0) == 0     # nothing left behind (or a survivor stays): no rise


def test_case7_lowering_threat():
    t, spent = T.threat_lower_nb(TR, idx("yellow", 5), 99, 10)
    assert RS.threat_of(t) == ("yellow", 3) and spent == 6       # 2 units at 3 SP, then a red unit
    t, spent = T.threat_lower_nb(TR, idx("yellow", 5), 5, 10)
    assert RS.threat_of(t) == ("yellow", 4) and spent == 3       # SP for one unit only
    assert T.threat_lower_cost_nb(TR, idx("green", 4)) == 2
    assert T.threat_lower_cost_nb(TR, idx("green", 5)) == -1     # down from a red unit
    assert T.threat_lower_cost_nb(TR, idx("yellow", 1)) == -1    # never across a level
    assert T.threat_lower_cost_nb(TR, idx("red", 7)) == -1       # never in red
    block = RS.override({"variants.red_units_block_entry": True}).pack_tracks()
    t, spent = T.threat_lower_nb(block, idx("yellow", 5), 99, 10)
    assert RS.threat_of(t) == ("yellow", 4) and spent == 3       # not onto unit 3


def test_threat_raise_caps_in_red():
    top = idx("red", 15)
    assert T.threat_raise_nb(TR, idx("red", 14), 4) == top
    uncapped = RS.override({"threat_track.red_capped": False}).pack_tracks()
    assert T.threat_raise_nb(uncapped, idx("red", 14), 4) == top + 3
    assert RS.threat_of(T.threat_raise_nb(TR, idx("green", 15), 1)) == ("yellow", 1)


def oracle_cost(rs, level, unit, block):
    """The rulebook's wording, read from the data: SP to go from ``unit`` to ``unit - 1``."""
    if level == "red" or unit == 1:
        return -1
    locked = rs.get(f"threat_track.locked_{level}")
    if unit in locked or (block and unit - 1 in locked):
        return -1
    return rs.get(f"threat_track.cost_{level}")


@settings(max_examples=80, deadline=None, derandomize=True)
@given(level=st.sampled_from(K.LEVELS), unit=st.integers(1, 15), sp=st.integers(0, 20),
       units=st.integers(0, 8), block=st.booleans())
def test_threat_lowering_against_oracle(level, unit, sp, units, block):
    rs = RS.override({"variants.red_units_block_entry": block}) if block else RS
    tr = rs.pack_tracks()
    t = idx(level, unit, rs)
    assert T.threat_lower_cost_nb(tr, t) == oracle_cost(rs, level, unit, block)
    u, spent, left = unit, 0, units
    while left:
        c = oracle_cost(rs, level, u, block)
        if c < 0 or spent + c > sp:
            break
        spent, u, left = spent + c, u - 1, left - 1
    assert T.threat_lower_nb(tr, t, sp, units) == (idx(level, u, rs), spent)


# =========================================================================== case 8: the clock
def advance(hour, k, tr=TR):
    fired = np.zeros(max(k, 1), dtype=np.int64)
    h = T.advance_clock_nb(tr, hour, k, fired)
    return h, list(fired[:k])


def test_case8_clock():
    h, fired = advance(20, 1)
    assert h == 21 and fired == [K.EV_THREAT] and T.is_night_nb(TR, h) and not T.is_night_nb(TR, 20)
    h, fired = advance(23, 2)
    assert h == 1 and fired == [K.EV_INFECTION, 0]                # 00:00 fires
    assert advance(14, 1)[1] == [K.EV_EAT]
    assert advance(6, 1)[1] == [K.EV_DAWN] and advance(5, 1)[1] == [K.EV_THREAT]
    assert advance(11, 0) == (11, [])
    assert [T.is_night_nb(TR, x) for x in (21, 23, 0, 5, 6, 12)] == [True] * 4 + [False] * 2


def test_case8_eating_and_sp_cap():
    assert T.eat_nb(TR, 5, 1, 2) == (5, 0)          # 1 of 2 supplies: -1 +1 (literal rule)
    variant = RS.override({"variants.eating_only_prevents_loss": True}).pack_tracks()
    assert T.eat_nb(variant, 5, 1, 2) == (4, 0)
    assert T.eat_nb(TR, 9, 3, 2) == (9, 1)          # within the maximum
    assert T.eat_nb(TR, 1, 0, 2) == (0, 0)          # starving kills
    assert T.sp_gain_nb(TR, 15, 1) == 15 and T.sp_gain_nb(TR, 14, 1) == 15 and T.sp_gain_nb(TR, 3, 1) == 4


@pytest.mark.parametrize("key,value", [("clock.eat_hour", 16), ("clock.threat_hours", [22])])
def test_clock_follows_the_data(key, value):
    tr = RS.override({key: value}).pack_tracks()
    ev = K.EV_EAT if key == "clock.eat_hour" else K.EV_THREAT
    hour = value if isinstance(value, int) else value[0]
    assert advance(hour - 1, 1, tr)[1] == [ev]
    assert advance(hour - 2, 1, tr)[1] != [ev]
