"""Day Night Z's tracks as numba kernels: the threat track (raises, SP lowering it, the
leave-behind rise), noise adjustment, the clock and what its hours fire, eating and the
SP cap.  They read the packed track rules (``DayNightZRules.pack_tracks()``, layout
``codes.TRACK_PARTS``); the threat is one index (``codes``: level ``t // units``).

Rules (rulebook §3.1, §3.2, §3.5, §3.9):

* threat rises by units and carries over into the next colour (green 14 + 2 = yellow 1);
  it stops at red's last unit when ``red_capped``;
* SP lower it one unit at a time at the colour's cost, never from unit 1 of a colour
  (never across a level), never in red, never down from a locked (red-coloured) unit;
  variant ``red_units_block_entry``: nor onto one;
* the last survivor leaving enemies behind raises it by the number of leave bands their SP
  sum reaches;
* noise adjustment: any counter raises threat ``noise_rise`` once; red counters turn
  yellow and yellow ones go;
* an hourglass moves the clock one hour; each hour passed fires its events
  (``codes.EV_*``); night runs from ``night_start`` to ``day_start``;
* eating: a survivor spends up to ``eats`` supplies, loses 1 health a missing supply and
  gains ``supply_heals`` a supply eaten (variant ``eating_only_prevents_loss``: no gain),
  the net applied once, within 0 and the health maximum.
"""
from __future__ import annotations

from ....core.jit import njit_nb
from .. import codes as K


@njit_nb
def threat_raise_nb(tr, t, n):
    """Threat index after ``n`` units more (capped at red's last unit if ``red_capped``)."""
    t2 = t + n
    top = 3 * tr[K.T_PARAMS + K.TP_UNITS] - 1
    if t2 > top and tr[K.T_PARAMS + K.TP_RED_CAPPED] == 1:
        t2 = top
    return t2


@njit_nb
def threat_lower_cost_nb(tr, t):
    """SP that lower the threat one unit from ``t``; -1 when the rules forbid it."""
    u = tr[K.T_PARAMS + K.TP_UNITS]
    level = t // u
    unit = t % u + 1
    if level >= 2 or unit == 1:
        return -1
    row = K.T_LOCKED + level * K.MAX_UNITS
    if tr[row + unit - 1] == 1:
        return -1
    if tr[K.T_PARAMS + K.TP_BLOCK_ENTRY] == 1 and tr[row + unit - 2] == 1:
        return -1
    return tr[K.T_PARAMS + K.TP_COST_GREEN] if level == 0 else tr[K.T_PARAMS + K.TP_COST_YELLOW]


@njit_nb
def threat_lower_nb(tr, t, sp, units):
    """Lower the threat by up to ``units`` units while ``sp`` survival points pay and the
    rules allow: (new threat, SP spent)."""
    spent = 0
    for _ in range(units):
        c = threat_lower_cost_nb(tr, t)
        if c < 0 or spent + c > sp:
            break
        spent += c
        t -= 1
    return t, spent


@njit_nb
def leave_rise_nb(tr, sp_sum):
    """Threat units added when the last survivor leaves enemies worth ``sp_sum`` SP."""
    rise = 0
    for i in range(4):
        if sp_sum >= tr[K.T_PARAMS + K.TP_BAND_1 + i]:
            rise += 1
    return rise


@njit_nb
def noise_adjust_nb(tr, red, yellow):
    """The adjustment of noise counters: (red left, yellow left, threat rise)."""
    rise = tr[K.T_PARAMS + K.TP_NOISE_RISE] if red + yellow > 0 else 0
    return 0, red, rise


@njit_nb
def is_night_nb(tr, hour):
    """Whether ``hour`` (0-23) is night."""
    ns = tr[K.T_PARAMS + K.TP_NIGHT_START]
    ds = tr[K.T_PARAMS + K.TP_DAY_START]
    if ns > ds:
        return hour >= ns or hour < ds
    return ns <= hour < ds


@njit_nb
def advance_clock_nb(tr, hour, k, fired):
    """Move the clock ``k`` hours from ``hour``: ``fired[i]`` gets the events (``EV_*``
    bits) of the ``i``-th hour passed; returns the new hour."""
    for i in range(k):
        fired[i] = tr[K.T_HOURS + (hour + i + 1) % 24]
    return (hour + k) % 24


@njit_nb
def sp_gain_nb(tr, sp, n):
    """Survival points after gaining ``n``, within the cap."""
    cap = tr[K.T_PARAMS + K.TP_SP_CAP]
    v = sp + n
    return cap if v > cap else v


@njit_nb
def eat_nb(tr, health, supplies, eats):
    """A survivor eats at the eating hour: (health, supplies) after."""
    eaten = supplies if supplies < eats else eats
    missing = eats - eaten
    gain = 0 if tr[K.T_PARAMS + K.TP_EAT_ONLY_PREVENTS] == 1 else eaten * tr[K.T_PARAMS + K.TP_SUPPLY_HEALS]
    h = health - missing + gain
    top = tr[K.T_PARAMS + K.TP_HEALTH_MAX]
    if h > top:
        h = top
    if h < 0:
        h = 0
    return h, supplies - eaten
