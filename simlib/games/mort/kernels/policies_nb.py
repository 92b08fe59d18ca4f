"""Mort de la lumière du jour players: ``choose_nb(state, rules, policy, params, legal, n,
work, log)`` returns one of ``legal[:n]`` for the seat to move.

``random`` (0)
    a uniformly random legal action (the game's policy stream).
``heuristic`` (1): the killer's play on seat 0, the survivors' on the others.
    Killer, parameter ``guard_lamps`` (params[0]): chases the nearest survivor, injured
    first, and strikes whenever able; when no survivor is within the points of his hand
    he guards the generator with the most lamps if it has at least ``guard_lamps``; breaks
    a guarding pallet with a "casse palette" card, else walks round it (when another card
    pays a strike after the detour) or rolls to break it; plays sprints when far from his
    target and blocks the most advanced generator when his hand has cards to spare.
    Survivors, parameters ``flee_radius`` (params[1]) and ``work_radius`` (params[2]):
    take an open hatch, escape by an open gate, and with the killer closer than
    ``work_radius`` flee to a pallet within ``flee_radius`` (dropping it) or away from
    him; otherwise open a powered gate, heal, open a chest when holding fewer than the
    card limit and a chest is nearer than the nearest generator, and repair the nearest
    generator (the toolbox first).  Each act is paid with the smallest card that covers
    it; a move with the smallest card covering the distance, else the largest.
``rollout`` (2), parameters ``rollouts`` (params[3]), ``horizon`` (params[4]), ``margin``
(params[5]):
    flat Monte Carlo over the heuristics for whichever side it sits on: every legal action
    is tried in ``rollouts`` playouts of ``horizon`` rounds (0: to the end) with every seat
    playing ``heuristic``, and the heuristic's action is kept unless another wins a
    ``margin`` share of the playouts more; before each playout the hands this seat cannot see (every other
    seat's energy and deck cards) are dealt again from the unseen cards, and the playout's
    random streams are new, so the search never peeks at decks or hands.  A playout is
    scored by the side's result (a win 1, else 0; at the horizon, an estimate from kills,
    wounds, escapes and repairs).

``distilled`` (3), parameters the heuristic's, ``any_ruleset`` and the weights
(``DP_*``; ``distilled_nb``): the heuristic's action unless a linear score of each legal
action, from what the seat sees, prefers another; its weights are fitted to the rollout
player's playout values (``distil.py``, ``simlib train-policy``).

``params`` is a float64 vector of ``N_PARAMS`` (every policy's parameters in one vector;
the distilled player's is longer: ``N_DISTILLED_PARAMS``).
``work`` is an int64 scratch array of ``WORK_SIZE`` (the rollout's copies of the state).
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_nb
from ....core.rng import key_streams_at_nb, randint_at_nb
from .. import codes as K
from .engine_nb import (blocked_nb, card_of_nb, cards_held_nb, repair_card_nb,
                        guarded_nb, hand_size_nb, kcard_of_nb, legal_actions_nb, step_nb)

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_ROLLOUT = 2
POLICY_DISTILLED = 3
N_PARAMS = 6
PR_GUARD_LAMPS, PR_FLEE_RADIUS, PR_WORK_RADIUS, PR_ROLLOUTS, PR_HORIZON, PR_MARGIN = range(N_PARAMS)
WORK_SIZE = 2 * K.S_SIZE + K.MAX_LEGAL

# survivors' plans
PL_NONE, PL_HATCH, PL_ESCAPE, PL_FLEE_PALLET, PL_FLEE, PL_GATE, PL_HEAL, PL_CHEST, PL_REPAIR = range(9)


# =========================================================================== helpers
@njit_nb
def _has(legal, n, a):
    for i in range(n):
        if legal[i] == a:
            return True
    return False


@njit_nb
def _commit(state, legal, n, s, q, need, move):
    """The commit of purpose ``q`` paid with the smallest card whose points (after the
    killer's adjustment) cover ``need``; for a move (``move``) the largest card when none
    covers it.  -1 when no such commit is legal."""
    adj = state[K.S_ADJ_NOW] if s == 0 else 0
    best = -1
    for v in range(1, K.MAX_V + 1):
        a = K.A_COMMIT + q * K.MAX_V + v - 1
        if state[K.S_HAND + s * K.HAND_W + v] > 0 and _has(legal, n, a) and v + adj >= need:
            return a
    if move:
        for v in range(K.MAX_V, 0, -1):
            a = K.A_COMMIT + q * K.MAX_V + v - 1
            if state[K.S_HAND + s * K.HAND_W + v] > 0 and _has(legal, n, a):
                return a
    return best


@njit_nb
def _step_toward(state, s, gx, gy, legal, n):
    """The legal step that brings seat ``s`` closest to (gx, gy) (-1: none gets closer)."""
    x = state[K.S_S_X + s]
    y = state[K.S_S_Y + s]
    best = -1
    bd = abs(x - gx) + abs(y - gy)
    bgap = -1
    for d in range(4):
        a = K.A_NORTH + d
        if not _has(legal, n, a):
            continue
        nx = x + (1 if d == 1 else (-1 if d == 3 else 0))
        ny = y + (-1 if d == 0 else (1 if d == 2 else 0))
        nd = abs(nx - gx) + abs(ny - gy)
        gap = abs(x - gx) if (d == 1 or d == 3) else abs(y - gy)  # close the larger gap first
        if nd < bd or (nd == bd and best >= 0 and gap > bgap):
            if nd < abs(x - gx) + abs(y - gy):
                best = a
                bd = nd
                bgap = gap
    return best


@njit_nb
def _first_in_block(legal, n, base, size):
    for i in range(n):
        if legal[i] >= base and legal[i] < base + size:
            return legal[i]
    return -1


# =========================================================================== setup
@njit_nb
def _setup_choice(state, rules, legal, n):
    ph = state[K.S_PHASE]
    s = state[K.S_DECIDER]
    lx = rules[K.R_PARAMS + K.P_LAIR_X]
    ly = rules[K.R_PARAMS + K.P_LAIR_Y]
    if ph == K.PH_PLACE:
        t = state[K.S_TOKEN]
        d = (abs(rules[K.R_TOKEN_X + t] - lx) + abs(rules[K.R_TOKEN_Y + t] - ly))
        if s == 0:  # generators near the lair, shortcuts far from it
            if d <= 6 and _has(legal, n, K.A_PLACE_GEN):
                return K.A_PLACE_GEN
            if _has(legal, n, K.A_PLACE_SHORTCUT):
                return K.A_PLACE_SHORTCUT
            return K.A_PLACE_GEN
        # a survivor starts far from the lair; generators near it are left to chests
        if d >= 9 and _has(legal, n, K.A_PLACE_PAWN):
            return K.A_PLACE_PAWN
        if d >= 6 and _has(legal, n, K.A_PLACE_GEN):
            return K.A_PLACE_GEN
        if _has(legal, n, K.A_PLACE_CHEST):
            return K.A_PLACE_CHEST
        return legal[n - 1]
    if ph == K.PH_GATES:  # the two closest gate sites (adjacent sides): one killer guards both
        return K.A_GATES
    # pallets next to the tokens nearest a generator (the survivors' work places)
    best = legal[0]
    bd = 1 << 30
    for i in range(n):
        t = legal[i] - K.A_PALLET_AT
        for g in range(state[K.S_N_GENS]):
            d = (abs(rules[K.R_TOKEN_X + t] - rules[K.R_TOKEN_X + state[K.S_GEN_TOKEN + g]]) + abs(rules[K.R_TOKEN_Y + t] - rules[K.R_TOKEN_Y + state[K.S_GEN_TOKEN + g]]))
            if d < bd:
                bd = d
                best = legal[i]
    return best


# =========================================================================== the killer
@njit_nb
def _best_gen(state, rules):
    """The unrepaired generator with the most lamps (-1: none)."""
    best = -1
    bl = -1
    lamps = rules[K.R_PARAMS + K.P_LAMPS]
    for g in range(state[K.S_N_GENS]):
        l_ = state[K.S_GEN_LAMPS + g]
        if l_ < lamps and l_ > bl:
            bl = l_
            best = g
    return best


@njit_nb
def _killer_goal(state, rules, params):
    """(goal x, goal y, target survivor or -1) of the killer's move: the nearest injured
    survivor, else the nearest one; a generator to guard when nobody is in reach."""
    kx = state[K.S_S_X]
    ky = state[K.S_S_Y]
    t = -1
    bk = 1 << 30
    for u in range(1, rules[K.R_PARAMS + K.P_SURVIVORS] + 1):
        if state[K.S_S_STATUS + u] != K.ST_IN:
            continue
        key = abs(kx - state[K.S_S_X + u]) + abs(ky - state[K.S_S_Y + u]) + \
            (0 if state[K.S_S_WOUNDS + u] > 0 else 1000)
        if key < bk:
            bk = key
            t = u
    if t < 0:
        return kx, ky, -1
    d = (abs(kx - state[K.S_S_X + t]) + abs(ky - state[K.S_S_Y + t]))
    points = state[K.S_SPRINT] + state[K.S_BUDGET] + state[K.S_ADJ_NOW]
    for v in range(1, K.MAX_V + 1):
        points += v * state[K.S_HAND + v]
    g = _best_gen(state, rules)
    if d - rules[K.R_PARAMS + K.P_REACH] > points and g >= 0 and \
            state[K.S_GEN_LAMPS + g] >= params[PR_GUARD_LAMPS]:
        tt = state[K.S_GEN_TOKEN + g]
        return rules[K.R_TOKEN_X + tt], rules[K.R_TOKEN_Y + tt], -1
    return state[K.S_S_X + t], state[K.S_S_Y + t], t


@njit_nb
def _killer_choice(state, rules, params, legal, n):
    P = K.R_PARAMS
    reach = rules[P + K.P_REACH]
    ph = state[K.S_PHASE]
    gx, gy, t = _killer_goal(state, rules, params)
    kx = state[K.S_S_X]
    ky = state[K.S_S_Y]
    d = (abs(kx - gx) + abs(ky - gy))
    near = d <= reach
    pal = -1  # a dropped pallet guarding the target
    if t >= 0:
        for p in range(state[K.S_N_PALLETS]):
            if state[K.S_PALLET_STATE + p] == K.PAL_DROPPED and state[K.S_PALLET_DETOUR + p] == 0 and \
                    abs(state[K.S_S_X + t] - state[K.S_PALLET_X + p]) + \
                    abs(state[K.S_S_Y + t] - state[K.S_PALLET_Y + p]) <= reach:
                pal = p
                break
    pal_near = pal >= 0 and (abs(kx - state[K.S_PALLET_X + pal]) + abs(ky - state[K.S_PALLET_Y + pal])) <= reach
    if ph == K.PH_TURN:
        if state[K.S_ADJ_NOW] < 0:  # exhaustion: pay it with the smallest cards it swallows whole
            for v in range(1, K.MAX_V + 1):
                if _has(legal, n, K.A_COMMIT + K.Q_REST * K.MAX_V + v - 1):
                    return K.A_COMMIT + K.Q_REST * K.MAX_V + v - 1
        if t >= 0 and near:
            a = _commit(state, legal, n, 0, K.Q_STRIKE, rules[P + K.P_STRIKE_COST], False)
            if a >= 0:
                return a
            if pal >= 0:
                if pal_near and kcard_of_nb(state, rules, K.FX_BREAK) >= 0:
                    a = _commit(state, legal, n, 0, K.Q_CARDS, 0, False)
                    if a >= 0:
                        return a
                strikes = 0
                big = 0
                for v in range(1, K.MAX_V + 1):
                    c = state[K.S_HAND + v]
                    if v >= rules[P + K.P_STRIKE_COST]:
                        strikes += c
                    if v >= rules[P + K.P_DETOUR_COST]:
                        big += c
                if big >= 1 and strikes >= 2:
                    a = _commit(state, legal, n, 0, K.Q_DETOUR, rules[P + K.P_DETOUR_COST], False)
                    if a >= 0:
                        return a
                if pal_near:
                    a = _commit(state, legal, n, 0, K.Q_BREAK, rules[P + K.P_BREAK_COST], False)
                    if a >= 0:
                        return a
                else:  # walk next to the pallet
                    a = _commit(state, legal, n, 0, K.Q_MOVE, 1, True)
                    if a >= 0:
                        return a
            return K.A_END_TURN
        if _has(legal, n, K.A_SPRINT_MOVE) and not near:
            return K.A_SPRINT_MOVE
        if kcard_of_nb(state, rules, K.FX_SPRINT) >= 0 and d - reach > 1:
            a = _commit(state, legal, n, 0, K.Q_CARDS, 0, False)
            if a >= 0:
                return a
        g = _best_gen(state, rules)
        if kcard_of_nb(state, rules, K.FX_BLOCK) >= 0 and g >= 0 and not blocked_nb(state, g) and \
                state[K.S_GEN_LAMPS + g] >= 1 and hand_size_nb(state, 0) >= 3:
            a = _commit(state, legal, n, 0, K.Q_CARDS, 0, False)
            if a >= 0:
                return a
        if not near:
            a = _commit(state, legal, n, 0, K.Q_MOVE, d - reach, True)
            if a >= 0:
                return a
        return K.A_END_TURN
    # PH_COMMIT
    q = state[K.S_PURPOSE]
    if q == K.Q_MOVE:
        if pal >= 0 and near and not pal_near:
            a = _step_toward(state, 0, state[K.S_PALLET_X + pal], state[K.S_PALLET_Y + pal], legal, n)
            return a if a >= 0 else K.A_STOP
        if near:
            return K.A_STOP
        if _has(legal, n, K.A_SHORTCUT):
            for c in range(2):
                tt = state[K.S_SHORTCUT_TOKEN + c]
                ox = rules[K.R_TOKEN_X + tt]
                oy = rules[K.R_TOKEN_Y + tt]
                if (ox != kx or oy != ky) and (abs(ox - gx) + abs(oy - gy)) + 2 < d:
                    return K.A_SHORTCUT
        a = _step_toward(state, 0, gx, gy, legal, n)
        return a if a >= 0 else K.A_STOP
    if q == K.Q_CARDS:
        if pal >= 0 and _has(legal, n, K.A_CASSE + pal):
            return K.A_CASSE + pal
        if _has(legal, n, K.A_PLAY_SPRINT) and d - reach > 1:
            return K.A_PLAY_SPRINT
        g = _best_gen(state, rules)
        if g >= 0 and state[K.S_GEN_LAMPS + g] >= 1 and _has(legal, n, K.A_BLOCK + g):
            return K.A_BLOCK + g
        return K.A_STOP
    if q == K.Q_STRIKE:
        if t >= 0 and _has(legal, n, K.A_STRIKE + t):
            return K.A_STRIKE + t
        a = _first_in_block(legal, n, K.A_STRIKE, K.MAX_SEATS)
        return a if a >= 0 else K.A_STOP
    if q == K.Q_BREAK:
        a = _first_in_block(legal, n, K.A_BREAK, K.MAX_PALLETS)
        return a if a >= 0 else K.A_STOP
    if q == K.Q_DETOUR:
        a = _first_in_block(legal, n, K.A_DETOUR, K.MAX_PALLETS)
        return a if a >= 0 else K.A_STOP
    return K.A_STOP


# =========================================================================== survivors
@njit_nb
def _survivor_plan(state, rules, s, params):
    """(plan, goal x, goal y, index) of survivor ``s`` (see the module docstring)."""
    P = K.R_PARAMS
    x = state[K.S_S_X + s]
    y = state[K.S_S_Y + s]
    if state[K.S_HATCH] == K.HATCH_OPEN:
        t = state[K.S_HATCH_TOKEN]
        return PL_HATCH, rules[K.R_TOKEN_X + t], rules[K.R_TOKEN_Y + t], t
    need = rules[P + K.P_GATE_SUCCESSES]
    powered = (state[K.S_REPAIRED] >= rules[K.R_PARAMS + K.P_GENERATORS_NEEDED])
    if powered:
        bk = -1
        bd = 1 << 30
        for k in range(K.N_GATES):
            gx = rules[K.R_GATE_X + state[K.S_GATE_SIDE + k]]
            gy = rules[K.R_GATE_Y + state[K.S_GATE_SIDE + k]]
            dd = (abs(x - gx) + abs(y - gy))
            if state[K.S_GATE_PROGRESS + k] >= need and dd < bd:
                bd = dd
                bk = k
        if bk >= 0:
            gx = rules[K.R_GATE_X + state[K.S_GATE_SIDE + bk]]
            gy = rules[K.R_GATE_Y + state[K.S_GATE_SIDE + bk]]
            return PL_ESCAPE, gx, gy, bk
    kd = (abs(x - state[K.S_S_X]) + abs(y - state[K.S_S_Y]))
    if kd < params[PR_WORK_RADIUS]:
        bp = -1
        bd = 1 << 30
        for p in range(state[K.S_N_PALLETS]):
            if state[K.S_PALLET_STATE + p] == K.PAL_BROKEN:
                continue
            dd = (abs(x - state[K.S_PALLET_X + p]) + abs(y - state[K.S_PALLET_Y + p]))
            if dd <= params[PR_FLEE_RADIUS] and dd < bd:
                bd = dd
                bp = p
        if bp >= 0:
            return PL_FLEE_PALLET, state[K.S_PALLET_X + bp], state[K.S_PALLET_Y + bp], bp
        return PL_FLEE, state[K.S_S_X], state[K.S_S_Y], -1
    if powered:
        bk = 0
        bd = 1 << 30
        for k in range(K.N_GATES):
            gx = rules[K.R_GATE_X + state[K.S_GATE_SIDE + k]]
            gy = rules[K.R_GATE_Y + state[K.S_GATE_SIDE + k]]
            dd = (abs(x - gx) + abs(y - gy))
            if dd < bd:
                bd = dd
                bk = k
        gx = rules[K.R_GATE_X + state[K.S_GATE_SIDE + bk]]
        gy = rules[K.R_GATE_Y + state[K.S_GATE_SIDE + bk]]
        return PL_GATE, gx, gy, bk
    if card_of_nb(state, rules, s, K.FX_HEAL) >= 0:
        for t in range(1, rules[K.R_PARAMS + K.P_SURVIVORS] + 1):
            if state[K.S_S_STATUS + t] == K.ST_IN and state[K.S_S_WOUNDS + t] > 0 and \
                    (abs(x - state[K.S_S_X + t]) + abs(y - state[K.S_S_Y + t])) <= 3:
                return PL_HEAL, state[K.S_S_X + t], state[K.S_S_Y + t], t
    lamps = rules[P + K.P_LAMPS]
    bg = -1
    gd = 1 << 30
    for g in range(state[K.S_N_GENS]):
        if state[K.S_GEN_LAMPS + g] < lamps and not blocked_nb(state, g):
            dd = (abs(x - rules[K.R_TOKEN_X + state[K.S_GEN_TOKEN + g]]) + abs(y - rules[K.R_TOKEN_Y + state[K.S_GEN_TOKEN + g]]))
            if dd < gd:
                gd = dd
                bg = g
    if cards_held_nb(state, s) < rules[P + K.P_SURVIVOR_CARD_LIMIT]:
        bc = -1
        cd = 1 << 30
        for c in range(state[K.S_N_CHESTS]):
            t = state[K.S_CHEST_TOKEN + c]
            dd = (abs(x - rules[K.R_TOKEN_X + t]) + abs(y - rules[K.R_TOKEN_Y + t]))
            if dd < cd:
                cd = dd
                bc = c
        if bc >= 0 and cd < gd:
            t = state[K.S_CHEST_TOKEN + bc]
            return PL_CHEST, rules[K.R_TOKEN_X + t], rules[K.R_TOKEN_Y + t], bc
    if bg >= 0:
        t = state[K.S_GEN_TOKEN + bg]
        return PL_REPAIR, rules[K.R_TOKEN_X + t], rules[K.R_TOKEN_Y + t], bg
    return PL_NONE, x, y, -1


@njit_nb
def _survivor_choice(state, rules, params, legal, n):
    P = K.R_PARAMS
    s = state[K.S_DECIDER]
    ph = state[K.S_PHASE]
    if ph == K.PH_REFLEX:
        return K.A_REFLEX
    if ph == K.PH_HELP:
        return K.A_HELP
    if ph == K.PH_DISCARD:  # keep reflexes and toolboxes; drop the map first
        best = legal[0]
        bv = 1 << 30
        for i in range(n):
            k = legal[i] - K.A_DISCARD
            e = rules[K.R_SK_EFFECT + k]
            val = 5 if e == K.FX_REFLEX else (4 if e == K.FX_REPAIR else (3 if e == K.FX_HEAL else
                                                                         (2 if e == K.FX_KEY else 1)))
            if val < bv:
                bv = val
                best = legal[i]
        return best
    plan, gx, gy, idx = _survivor_plan(state, rules, s, params)
    x = state[K.S_S_X + s]
    y = state[K.S_S_Y + s]
    reach = rules[P + K.P_REACH]
    d = (abs(x - gx) + abs(y - gy))
    # the distance that counts: on the square for the hatch and a pallet, within reach otherwise
    arrive = 0 if (plan == PL_HATCH or plan == PL_FLEE_PALLET) else reach
    there = d <= arrive
    if ph == K.PH_TURN:
        if plan == PL_NONE:
            return K.A_END_TURN
        if plan == PL_HATCH and there:
            return K.A_HATCH if _has(legal, n, K.A_HATCH) else K.A_END_TURN
        if plan == PL_FLEE:
            a = _commit(state, legal, n, s, K.Q_MOVE, 3, True)
            return a if a >= 0 else K.A_END_TURN
        if plan == PL_FLEE_PALLET and there:
            if guarded_nb(state, rules, s):
                return K.A_END_TURN
            a = _commit(state, legal, n, s, K.Q_PALLET, rules[P + K.P_DROP_COST], False)
            return a if a >= 0 else K.A_END_TURN
        if there:
            if plan == PL_ESCAPE:
                a = _commit(state, legal, n, s, K.Q_ESCAPE, rules[P + K.P_ESCAPE_GATE_COST], False)
            elif plan == PL_GATE:
                a = _commit(state, legal, n, s, K.Q_GATE, rules[P + K.P_GATE_COST], False)
            elif plan == PL_CHEST:
                a = _commit(state, legal, n, s, K.Q_CHEST, rules[P + K.P_CHEST_COST], False)
            elif plan == PL_HEAL:
                a = _commit(state, legal, n, s, K.Q_CARDS, rules[P + K.P_SURVIVOR_CARD_COST], False)
            else:
                a = -1
                # a lamp without a roll first (the toolbox; any card under any_card_repairs)
                if idx >= 0 and repair_card_nb(state, rules, s) >= 0 and \
                        abs(x - rules[K.R_TOKEN_X + state[K.S_GEN_TOKEN + idx]]) + \
                        abs(y - rules[K.R_TOKEN_Y + state[K.S_GEN_TOKEN + idx]]) <= reach:
                    a = _commit(state, legal, n, s, K.Q_CARDS, rules[P + K.P_SURVIVOR_CARD_COST], False)
                if a < 0:
                    a = _commit(state, legal, n, s, K.Q_REPAIR, rules[P + K.P_REPAIR_COST], False)
            return a if a >= 0 else K.A_END_TURN
        a = _commit(state, legal, n, s, K.Q_MOVE, d - arrive, True)
        return a if a >= 0 else K.A_END_TURN
    # PH_COMMIT
    q = state[K.S_PURPOSE]
    if q == K.Q_MOVE:
        if plan == PL_FLEE:  # the step that takes it furthest from the killer
            a = K.A_STOP
            bd = d
            for dd in range(4):
                if not _has(legal, n, K.A_NORTH + dd):
                    continue
                nx = x + (1 if dd == 1 else (-1 if dd == 3 else 0))
                ny = y + (-1 if dd == 0 else (1 if dd == 2 else 0))
                if abs(nx - gx) + abs(ny - gy) > bd:
                    bd = abs(nx - gx) + abs(ny - gy)
                    a = K.A_NORTH + dd
            return a
        if there:
            return K.A_STOP
        a = _step_toward(state, s, gx, gy, legal, n)
        return a if a >= 0 else K.A_STOP
    if q == K.Q_REPAIR:
        if idx >= 0 and plan == PL_REPAIR and _has(legal, n, K.A_REPAIR + idx):
            return K.A_REPAIR + idx
        a = _first_in_block(legal, n, K.A_REPAIR, K.MAX_GENS)
        return a if a >= 0 else K.A_STOP
    if q == K.Q_CARDS:
        if plan == PL_HEAL and _has(legal, n, K.A_MEDKIT + idx):
            return K.A_MEDKIT + idx
        if plan == PL_REPAIR and _has(legal, n, K.A_TOOLBOX + idx):
            return K.A_TOOLBOX + idx
        a = _first_in_block(legal, n, K.A_TOOLBOX, K.MAX_GENS)
        if a >= 0:
            return a
        if _has(legal, n, K.A_PLAY_KEY):
            return K.A_PLAY_KEY
        return K.A_STOP
    if q == K.Q_CHEST:
        a = _first_in_block(legal, n, K.A_CHEST, K.MAX_CHESTS)
        return a if a >= 0 else K.A_STOP
    if q == K.Q_GATE:
        a = _first_in_block(legal, n, K.A_GATE, K.N_GATES)
        return a if a >= 0 else K.A_STOP
    if q == K.Q_ESCAPE:
        a = _first_in_block(legal, n, K.A_ESCAPE, K.N_GATES)
        return a if a >= 0 else K.A_STOP
    if q == K.Q_PALLET:
        if idx >= 0 and plan == PL_FLEE_PALLET and _has(legal, n, K.A_DROP + idx):
            return K.A_DROP + idx
        a = _first_in_block(legal, n, K.A_DROP, K.MAX_PALLETS)
        return a if a >= 0 else K.A_STOP
    return K.A_STOP


@njit_nb
def heuristic_nb(state, rules, params, legal, n):
    ph = state[K.S_PHASE]
    if ph == K.PH_PLACE or ph == K.PH_GATES or ph == K.PH_PALLET:
        return _setup_choice(state, rules, legal, n)
    if state[K.S_DECIDER] == 0:
        return _killer_choice(state, rules, params, legal, n)
    return _survivor_choice(state, rules, params, legal, n)


# =========================================================================== rollout
@njit_nb
def _redeal_nb(sim, s, key):
    """Deal again every hand seat ``s`` cannot see from the cards it cannot see (the deck
    and those hands), with new random streams: the playout knows only what ``s`` knows."""
    key_streams_at_nb(sim, K.S_STREAMS, K.N_STREAMS, key)
    ns = K.MAX_SEATS
    # energy cards
    for o in range(ns):
        if o == s:
            continue
        m = 0
        for v in range(K.HAND_W):
            c = sim[K.S_HAND + o * K.HAND_W + v]
            m += c
            sim[K.S_ENERGY_DECK + v] += c
            sim[K.S_HAND + o * K.HAND_W + v] = 0
        for _ in range(m):
            tot = 0
            for v in range(K.HAND_W):
                tot += sim[K.S_ENERGY_DECK + v]
            r = randint_at_nb(sim, K.S_STREAMS + K.STREAM_DECKS, tot)
            for v in range(K.HAND_W):
                c = sim[K.S_ENERGY_DECK + v]
                if r < c:
                    sim[K.S_ENERGY_DECK + v] -= 1
                    sim[K.S_HAND + o * K.HAND_W + v] += 1
                    break
                r -= c
    # deck cards: the killer's from the killer deck, the survivors' from theirs
    for o in range(ns):
        if o == s:
            continue
        deck = K.S_KDECK if o == 0 else K.S_SDECK
        m = 0
        for k in range(K.MAX_K):
            c = sim[K.S_CARDS + o * K.MAX_K + k]
            m += c
            sim[deck + k] += c
            sim[K.S_CARDS + o * K.MAX_K + k] = 0
        for _ in range(m):
            tot = 0
            for k in range(K.MAX_K):
                tot += sim[deck + k]
            r = randint_at_nb(sim, K.S_STREAMS + K.STREAM_DECKS, tot)
            for k in range(K.MAX_K):
                c = sim[deck + k]
                if r < c:
                    sim[deck + k] -= 1
                    sim[K.S_CARDS + o * K.MAX_K + k] += 1
                    break
                r -= c


@njit_nb
def _killer_value(sim, rules):
    """The killer's result in [0, 1]: a win 1 (a loss a tenth for each kill).  An
    unfinished playout is scored below a win: nothing once a survivor has escaped (four
    kills are out of reach), else from kills and wounds, less the lamps lit and the
    distance to the nearest survivor."""
    P = K.R_PARAMS
    ns = rules[P + K.P_SURVIVORS]
    if sim[K.S_OVER] == 1 or sim[K.S_ESCAPES] > ns - rules[P + K.P_KILLER_WIN_KILLS]:
        win = 1.0 if sim[K.S_KILLS] >= rules[P + K.P_KILLER_WIN_KILLS] else 0.0
        return 0.9 * win + 0.1 * sim[K.S_KILLS] / ns
    wounds = 0
    near = 1 << 30
    for t in range(1, ns + 1):
        if sim[K.S_S_STATUS + t] == K.ST_IN:
            wounds += sim[K.S_S_WOUNDS + t]
            near = min(near, abs(sim[K.S_S_X + t] - sim[K.S_S_X]) + abs(sim[K.S_S_Y + t] - sim[K.S_S_Y]))
    lamps = 0
    for g in range(sim[K.S_N_GENS]):
        lamps += sim[K.S_GEN_LAMPS + g]
    need = max(rules[P + K.P_GENERATORS_NEEDED] * rules[P + K.P_LAMPS], 1)
    v = 0.15 + 0.7 * (sim[K.S_KILLS] + 0.4 * wounds) / ns - 0.2 * min(lamps, need) / need \
        - 0.02 * min(near, 30) / 30.0
    return min(max(v, 0.0), 0.89)


@njit_nb
def rollout_base_nb(state):
    """The key of a decision's playouts (one draw of the player's stream)."""
    return np.uint64(randint_at_nb(state, K.S_STREAMS + K.STREAM_POLICY, 1 << 30)) * np.uint64(0x9E3779B97F4A7C15)


@njit_nb
def playout_value_nb(state, rules, params, a, base, r, horizon, work, log):
    """Playout ``r`` of action ``a`` for the seat to move: the unseen hands dealt again
    (key from ``base`` and ``r``: every action meets the same deals), then the heuristics
    to the end or ``horizon`` rounds (0: the end); the seat's side's result (1 - the
    killer's for a survivor).  ``work``: the rollout's scratch (``WORK_SIZE``)."""
    s = state[K.S_DECIDER]
    sim = work[:K.S_SIZE]
    lg = work[K.S_SIZE:K.S_SIZE + K.MAX_LEGAL]
    for j in range(K.S_SIZE):
        sim[j] = state[j]
    _redeal_nb(sim, s, base + np.uint64(r + 1) * np.uint64(0xD1B54A32D192ED03))
    step_nb(sim, rules, a, log)
    end = sim[K.S_ROUND] + horizon
    while sim[K.S_OVER] == 0 and (horizon <= 0 or sim[K.S_ROUND] < end):
        k = legal_actions_nb(sim, rules, lg)
        b = heuristic_nb(sim, rules, params, lg, k)
        step_nb(sim, rules, b, log)
    v = _killer_value(sim, rules)
    return v if s == 0 else 1.0 - v


@njit_nb
def _rollout_nb(state, rules, params, legal, n, work, log):
    """Flat Monte Carlo (:func:`rollout_values_nb`, no values kept)."""
    return rollout_values_nb(state, rules, params, legal, n, work, log, params[:0])


@njit_nb
def rollout_values_nb(state, rules, params, legal, n, work, log, vals):
    """Flat Monte Carlo: every action is tried in the same ``rollouts`` deals of the
    unseen cards (common random numbers: the actions are compared on equal luck).  The
    heuristic's own action is kept unless another scores better by ``margin`` (its share
    of the playouts): with a strong playout policy one move changes a playout little, and
    a move chosen on noise (ending a turn early, say) costs more than one playout shows.
    ``vals`` (float64, empty or at least ``n`` long): each action's playouts summed, in
    the order of ``legal`` (the distilled player's teacher reads them)."""
    m = int(params[PR_ROLLOUTS])
    horizon = int(params[PR_HORIZON])
    margin = params[PR_MARGIN] * m
    base = rollout_base_nb(state)
    h = heuristic_nb(state, rules, params, legal, n)
    best = h
    bv = -1.0
    for ii in range(n + 1):
        # the heuristic's action first, so that another must do strictly better
        i = -1
        if ii == 0:
            for j in range(n):
                if legal[j] == h:
                    i = j
        elif legal[ii - 1] != h:
            i = ii - 1
        if i < 0:
            continue
        tot = 0.0
        for r in range(m):
            tot += playout_value_nb(state, rules, params, legal[i], base, r, horizon, work, log)
        if vals.shape[0] > 0:
            vals[i] = tot
        if ii == 0:
            bv = tot + margin
        elif tot > bv + 1e-9:
            bv = tot
            best = legal[i]
    return best


# =========================================================================== distilled
# ``distilled`` (3): the heuristic's action unless a linear score of each legal action
# prefers another, at the turn's and the committed card's decisions (the setup, reflexes,
# helps and discards are the heuristic's).  The weights follow the parameters every
# player reads (the heuristic's, at their defaults): ``any_ruleset``, then one block of
# N_FEAT weights for the killer and one for the survivors.  An action's features
# (:func:`action_features_nb`): its kind's block holds the decider's context (what it
# sees: ``context_nb``), the other blocks 0; then features of the action itself.
CTX_FEATURES = ("bias", "points", "cards", "budget", "enemy_dist", "round", "in_play",
                "progress", "injured", "lamps", "hatch", "adjacent", "deck_cards")
N_CTX = len(CTX_FEATURES)
KINDS = ("end_turn", "stop", "commit_move", "commit_act", "commit_cards", "commit_other",
         "step", "jump", "target", "play_card", "other")
(KD_END, KD_STOP, KD_MOVE, KD_ACT, KD_CARDS, KD_OTHER, KD_STEP, KD_JUMP, KD_TARGET, KD_PLAY,
 KD_ELSE) = range(len(KINDS))
N_KINDS = len(KINDS)
ACTION_FEATURES = ("heuristic", "value", "excess", "enemy_step", "goal_step", "pallet_near",
                   "kills", "opens_hatch", "gen_step", "adjacent_after", "injured_step")
N_SPEC = len(ACTION_FEATURES)
N_FEAT = N_KINDS * N_CTX + N_SPEC
DP_ANY_RULESET = N_PARAMS
DP_W_KILLER = N_PARAMS + 1
DP_W_SURVIVOR = DP_W_KILLER + N_FEAT
N_DISTILLED_PARAMS = DP_W_SURVIVOR + N_FEAT


@njit_nb
def _nearest_nb(state, rules, s, x, y, injured):
    """From (x, y): the distance to the killer (``s`` a survivor) or to the nearest
    survivor in play (``s`` the killer), with ``injured`` to the nearest injured survivor
    in play other than ``s``; 30 when there is none."""
    if s != 0 and not injured:
        return abs(x - state[K.S_S_X]) + abs(y - state[K.S_S_Y])
    best = 30
    for t in range(1, rules[K.R_PARAMS + K.P_SURVIVORS] + 1):
        if t == s or state[K.S_S_STATUS + t] != K.ST_IN or (injured and state[K.S_S_WOUNDS + t] == 0):
            continue
        d = abs(x - state[K.S_S_X + t]) + abs(y - state[K.S_S_Y + t])
        if d < best:
            best = d
    return best


@njit_nb
def _nearest_gen_nb(state, rules, x, y):
    """From (x, y): the distance to the nearest unrepaired generator's token (30: none)."""
    best = 30
    lamps = rules[K.R_PARAMS + K.P_LAMPS]
    for g in range(state[K.S_N_GENS]):
        if state[K.S_GEN_LAMPS + g] < lamps:
            t = state[K.S_GEN_TOKEN + g]
            d = abs(x - rules[K.R_TOKEN_X + t]) + abs(y - rules[K.R_TOKEN_Y + t])
            if d < best:
                best = d
    return best


@njit_nb
def context_nb(state, rules, s):
    """The decider's context (``CTX_FEATURES``), from what seat ``s`` sees: 1; its energy
    points / 10 and cards / 5; the committed card's points left / 5 (0 at a turn's
    choice); the distance to the nearest enemy (the killer, or the nearest survivor in
    play) / 10; the round / 20; the survivors in play / 4; the killer's kills / 4 (a
    survivor: its wounds); the injured survivors in play / 4; the lamps lit / the lamps
    the gates need; 1 once the hatch is out; 1 when the enemy is within reach; its deck
    cards (killer or survivor cards) / 5."""
    P = K.R_PARAMS
    pts = 0
    cnt = 0
    for v in range(1, K.HAND_W):
        c = state[K.S_HAND + s * K.HAND_W + v]
        pts += v * c
        cnt += c
    x = state[K.S_S_X + s]
    y = state[K.S_S_Y + s]
    d = _nearest_nb(state, rules, s, x, y, False)
    inp = 0
    inj = 0
    for t in range(1, rules[P + K.P_SURVIVORS] + 1):
        if state[K.S_S_STATUS + t] == K.ST_IN:
            inp += 1
            if state[K.S_S_WOUNDS + t] > 0:
                inj += 1
    lit = 0
    for g in range(state[K.S_N_GENS]):
        lit += state[K.S_GEN_LAMPS + g]
    need = max(rules[P + K.P_GENERATORS_NEEDED] * rules[P + K.P_LAMPS], 1)
    budget = state[K.S_BUDGET] if state[K.S_PHASE] == K.PH_COMMIT else 0
    prog = state[K.S_KILLS] / 4.0 if s == 0 else float(state[K.S_S_WOUNDS + s])
    return (1.0, pts / 10.0, cnt / 5.0, budget / 5.0, d / 10.0, state[K.S_ROUND] / 20.0,
            inp / 4.0, prog, inj / 4.0, min(lit, need) / need,
            1.0 if state[K.S_HATCH] != K.HATCH_HIDDEN else 0.0,
            1.0 if d <= rules[P + K.P_REACH] else 0.0, cards_held_nb(state, s) / 5.0)


@njit_nb
def goal_nb(state, rules, s, params):
    """The square the heuristic heads for (the killer's target or guarded generator, a
    survivor's plan; the killer flees from for a fleeing survivor)."""
    if s == 0:
        gx, gy, _t = _killer_goal(state, rules, params)
        return gx, gy
    _plan, gx, gy, _i = _survivor_plan(state, rules, s, params)
    return gx, gy


@njit_nb
def _cost_nb(rules, q):
    """The points an act of purpose ``q`` costs (0: a move, the cards, a rest)."""
    P = K.R_PARAMS
    if q == K.Q_REPAIR:
        return rules[P + K.P_REPAIR_COST]
    if q == K.Q_CHEST:
        return rules[P + K.P_CHEST_COST]
    if q == K.Q_GATE:
        return rules[P + K.P_GATE_COST]
    if q == K.Q_PALLET:
        return rules[P + K.P_DROP_COST]
    if q == K.Q_ESCAPE:
        return rules[P + K.P_ESCAPE_GATE_COST]
    if q == K.Q_STRIKE:
        return rules[P + K.P_STRIKE_COST]
    if q == K.Q_BREAK:
        return rules[P + K.P_BREAK_COST]
    if q == K.Q_DETOUR:
        return rules[P + K.P_DETOUR_COST]
    return 0


@njit_nb
def action_spec_nb(state, rules, s, a, h, gx, gy):
    """``(kind, features)`` of action ``a`` for seat ``s`` (``KINDS``, ``ACTION_FEATURES``),
    with ``h`` the heuristic's action and (gx, gy) its goal (``goal_nb``): 1 for the
    heuristic's action; a committed card's value / 3 and its points over what the act
    costs (a move: over the steps to the goal) / 3; for a step (or the shortcut) the
    change of the distance to the nearest enemy, to the goal, to the nearest unrepaired
    generator and to the nearest injured survivor, 1 when it ends within reach of a pallet
    not broken and 1 when it ends within reach of the enemy; for a strike, 1 when the hit
    would kill and 1 when that kill would leave one survivor in play (the hatch)."""
    P = K.R_PARAMS
    reach = rules[P + K.P_REACH]
    f_val = 0.0
    f_exc = 0.0
    f_en = 0.0
    f_goal = 0.0
    f_pal = 0.0
    f_kill = 0.0
    f_hatch = 0.0
    f_gen = 0.0
    f_adj = 0.0
    f_inj = 0.0
    x = state[K.S_S_X + s]
    y = state[K.S_S_Y + s]
    kind = KD_ELSE
    if a == K.A_END_TURN:
        kind = KD_END
    elif a == K.A_STOP:
        kind = KD_STOP
    elif (a >= K.A_COMMIT and a < K.A_COMMIT + K.NQ * K.MAX_V) or (a >= K.A_POOL and a < K.A_POOL + K.NQ):
        if a >= K.A_COMMIT:
            q = (a - K.A_COMMIT) // K.MAX_V
            v = (a - K.A_COMMIT) % K.MAX_V + 1
        else:
            q = a - K.A_POOL
            v = 0
        adj = state[K.S_ADJ_NOW] if s == 0 else 0
        f_val = v / 3.0
        if q == K.Q_MOVE:
            kind = KD_MOVE
            dg = abs(x - gx) + abs(y - gy) - reach
            f_exc = (v + adj - max(dg, 0)) / 3.0
        else:
            if q == K.Q_STRIKE or q == K.Q_REPAIR:
                kind = KD_ACT
            elif q == K.Q_CARDS:
                kind = KD_CARDS
            else:
                kind = KD_OTHER
            f_exc = (v + adj - _cost_nb(rules, q)) / 3.0
    elif (a >= K.A_NORTH and a <= K.A_WEST) or a == K.A_SHORTCUT:
        kind = KD_STEP if a != K.A_SHORTCUT else KD_JUMP
        nx = x
        ny = y
        if a == K.A_NORTH:
            ny -= 1
        elif a == K.A_SOUTH:
            ny += 1
        elif a == K.A_EAST:
            nx += 1
        elif a == K.A_WEST:
            nx -= 1
        else:
            for c in range(2):
                tt = state[K.S_SHORTCUT_TOKEN + c]
                if rules[K.R_TOKEN_X + tt] != x or rules[K.R_TOKEN_Y + tt] != y:
                    nx = rules[K.R_TOKEN_X + tt]
                    ny = rules[K.R_TOKEN_Y + tt]
        d1 = _nearest_nb(state, rules, s, nx, ny, False)
        f_en = float(d1 - _nearest_nb(state, rules, s, x, y, False))
        f_goal = float(abs(nx - gx) + abs(ny - gy) - abs(x - gx) - abs(y - gy))
        f_gen = float(_nearest_gen_nb(state, rules, nx, ny) - _nearest_gen_nb(state, rules, x, y))
        f_inj = float(_nearest_nb(state, rules, s, nx, ny, True) - _nearest_nb(state, rules, s, x, y, True))
        f_adj = 1.0 if d1 <= reach else 0.0
        for p in range(state[K.S_N_PALLETS]):
            if state[K.S_PALLET_STATE + p] != K.PAL_BROKEN and \
                    abs(nx - state[K.S_PALLET_X + p]) + abs(ny - state[K.S_PALLET_Y + p]) <= reach:
                f_pal = 1.0
                break
    elif a == K.A_SPRINT_MOVE or a == K.A_HATCH:
        kind = KD_JUMP
    elif a >= K.A_REPAIR and a < K.A_DISCARD:
        kind = KD_TARGET
        if a >= K.A_STRIKE and a < K.A_STRIKE + K.MAX_SEATS:
            t = a - K.A_STRIKE
            if state[K.S_S_WOUNDS + t] + 1 >= rules[P + K.P_HITS_TO_KILL]:
                f_kill = 1.0
                inp = 0
                for u in range(1, rules[P + K.P_SURVIVORS] + 1):
                    if state[K.S_S_STATUS + u] == K.ST_IN:
                        inp += 1
                if inp == 2:
                    f_hatch = 1.0
    elif a == K.A_PLAY_MAP or a == K.A_PLAY_KEY or a == K.A_PLAY_SPRINT:
        kind = KD_PLAY
    return kind, (1.0 if a == h else 0.0, f_val, f_exc, f_en, f_goal, f_pal, f_kill, f_hatch,
                  f_gen, f_adj, f_inj)


@njit_nb
def action_features_nb(state, rules, s, a, h, gx, gy, ctx, out):
    """The full feature vector (``N_FEAT``) of action ``a`` into ``out``: the context
    ``ctx`` in its kind's block, zeros in the others, then ``action_spec_nb``'s."""
    kind, spec = action_spec_nb(state, rules, s, a, h, gx, gy)
    for i in range(N_KINDS * N_CTX):
        out[i] = 0.0
    for i in range(N_CTX):
        out[kind * N_CTX + i] = ctx[i]
    for j in range(N_SPEC):
        out[N_KINDS * N_CTX + j] = spec[j]
    return kind


@njit_nb
def action_score_nb(state, rules, s, a, h, gx, gy, ctx, params, off):
    """``w . action_features`` with the weights at ``params[off:]`` (only the action's
    kind's block and its own features are not zero)."""
    kind, spec = action_spec_nb(state, rules, s, a, h, gx, gy)
    x = 0.0
    b = off + kind * N_CTX
    for i in range(N_CTX):
        x += params[b + i] * ctx[i]
    b = off + N_KINDS * N_CTX
    for j in range(N_SPEC):
        x += params[b + j] * spec[j]
    return x


@njit_nb
def distilled_nb(state, rules, params, legal, n):
    """The heuristic's action, unless the distilled score of another legal action is
    strictly higher (the first such in ``legal`` order), at a turn's or a committed
    card's decision; elsewhere the heuristic's."""
    h = heuristic_nb(state, rules, params, legal, n)
    ph = state[K.S_PHASE]
    if n <= 1 or (ph != K.PH_TURN and ph != K.PH_COMMIT):
        return h
    s = state[K.S_DECIDER]
    off = DP_W_KILLER if s == 0 else DP_W_SURVIVOR
    ctx = context_nb(state, rules, s)
    gx, gy = goal_nb(state, rules, s, params)
    best = h
    bv = action_score_nb(state, rules, s, h, h, gx, gy, ctx, params, off)
    for i in range(n):
        a = legal[i]
        if a == h:
            continue
        x = action_score_nb(state, rules, s, a, h, gx, gy, ctx, params, off)
        if x > bv:
            bv = x
            best = a
    return best


# =========================================================================== dispatch
@njit_nb
def choose_nb(state, rules, policy, params, legal, n, work, log):
    """One of ``legal[:n]`` for the seat to move under ``policy`` (random, heuristic or
    distilled: the kernels without the search compile faster; ``choose_search_nb`` has
    every one)."""
    if policy == POLICY_RANDOM:
        return legal[randint_at_nb(state, K.S_STREAMS + K.STREAM_POLICY, n)]
    if policy == POLICY_DISTILLED:
        return distilled_nb(state, rules, params, legal, n)
    return heuristic_nb(state, rules, params, legal, n)


@njit_nb
def choose_search_nb(state, rules, policy, params, legal, n, work, log):
    """One of ``legal[:n]`` under ``policy``, the search included."""
    if policy == POLICY_ROLLOUT:
        return _rollout_nb(state, rules, params, legal, n, work, log)
    return choose_nb(state, rules, policy, params, legal, n, work, log)
