"""Till Dawn players: ``choose_nb(state, rules, policy, params, legal, n_legal, work)``.

Policies (``codes`` of ``policies.py``):

``random`` (0)
    a uniformly random legal action (policy stream of the game).
``threshold`` (1), params ``(threshold, sun_margin, injury_cost)``
    retires when its unbanked blood reaches ``threshold`` or, holding blood, when the
    night-track bead is within ``sun_margin`` spaces of sunrise; votes the moon of the
    best one-draw expected value (blood won minus ``injury_cost`` per health lost) over
    the cards left in the deck, refusing when every vote is worse than the refusal fee.
``optimal`` (2), params ``(blood_span,)``
    retires by optimal stopping: the exact expected blood banked this night under a
    single-vampire model (below), computed by dynamic programming over night-track
    position, unbanked blood and health from the cards left in the deck, recomputed at
    every decision; it votes the vote (or refusal) of the highest expected value under
    the same model.

Shared play of cards (``threshold`` and ``optimal``): a power that doubles a feeding or
protects from a slayer is always played (powers are lost at dawn); an event double only
on feedings worth 3 or more, an event protection only when the slayer would kill; every
cancel is spent on an opponent's play; a heal event is used when 2 or more health are
missing; of two events the player keeps protection, then heal, then double.

The optimal-stopping model (one vampire's view)
-----------------------------------------------
State ``(p, b, h)``: bead position ``p`` in ``0 .. L-1`` (``L`` = track length), unbanked
blood ``b``, health ``h`` >= 1; and whether an invitation is pending.  Every draw is a
card from the current remaining deck composition (the deck is treated as fixed for the
look-ahead: "given what is left in the deck").  Feeding adds its value (+ the ground
bonus); sun rising moves the bead (at ``L`` the blood is lost: value 0); night lingers
moves it back; a slayer takes health (at 0: value 0); the werewolf hits this vampire
with probability ``1 / active players``; an invitation is pending until the next draw,
whose moon pays or injures.  Powers, events and other players' choices are outside the
model.  Before solving, the player checks a cheap lower bound (draw once more, then stop
as soon as allowed): when it beats stopping, the optimum does too and the DP is skipped.  ``V(p,b,h) = max(b, sum_c P(c) V(after c))``; layers of equal ``(b, h)`` are solved
by Gauss-Seidel value iteration to 1e-10 (lingers and the werewolf's misses loop back),
in decreasing ``b`` and increasing ``h`` (other cards only raise ``b`` or lower ``h``).
Blood above ``b + blood_span`` is capped (a documented truncation).

Array ``work`` (float64): the DP tables, ``(4 + MAX_INVITES) * NB * (H + 1) * L + 3 * L``
values with ``NB = blood_span + refuse_cost + 1`` and ``H`` the largest maximum health
(``work_size``).
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_nb
from .. import codes as K
from .engine_nb import event_kind_nb, n_active_nb, randint_nb

POLICY_RANDOM = 0
POLICY_THRESHOLD = 1
POLICY_OPTIMAL = 2
N_PARAMS = 3  # length of every policy's parameter vector (unused entries are 0)

MAX_CLASSES = K.MAX_TYPES
TOL = 1e-10


# =========================================================================== helpers
@njit_nb
def _has(legal, n, a):
    for i in range(n):
        if legal[i] == a:
            return True
    return False


@njit_nb
def moon_left_nb(state, rules, moon):
    """Cards left in the deck showing ``moon``, and all cards left: ``(k, n)``."""
    k = 0
    tot = 0
    for t in range(rules[K.R_PARAMS + K.P_N_TYPES]):
        c = state[K.S_TYPE_LEFT + t]
        if rules[K.R_TYPES + t * K.CT_N + (K.CT_MOON)] == moon:
            k += c
        tot += c
    return k, tot


@njit_nb
def _event_rank(kind):
    if kind == K.EV_PROTECT:
        return 3
    if kind == K.EV_HEAL:
        return 2
    return 1


@njit_nb
def _card_play_nb(state, rules, s, legal, n):
    """The shared heuristics for react, cancel, keep and heal decisions (-1: not one)."""
    ph = state[K.S_PHASE]
    if ph == K.PH_REACT:
        if _has(legal, n, K.A_PLAY_POWER):
            return K.A_PLAY_POWER
        if _has(legal, n, K.A_PLAY_EVENT):
            v = rules[K.R_TYPES + state[K.S_CARD] * K.CT_N + (K.CT_VALUE)]
            if state[K.S_REACT] == K.K_FEEDING:
                return K.A_PLAY_EVENT if v >= 3 else K.A_PASS
            return K.A_PLAY_EVENT if state[K.S_S_HEALTH + s] <= v else K.A_PASS
        return K.A_PASS
    if ph == K.PH_CANCEL:
        return K.A_CANCEL
    if ph == K.PH_KEEP:
        old = event_kind_nb(state, rules, s)
        new = rules[K.R_EVENT_KIND + state[K.S_CANDIDATE]]
        return K.A_KEEP_NEW if _event_rank(new) > _event_rank(old) else K.A_KEEP_OLD
    if ph == K.PH_DECIDE and _has(legal, n, K.A_HEAL):
        if state[K.S_S_MAX_HEALTH + s] - state[K.S_S_HEALTH + s] >= 2:
            return K.A_HEAL
    return -1


# =========================================================================== threshold
@njit_nb
def _vote_one_step_nb(state, rules, s, injury_cost):
    inv = state[K.S_CARD]
    pen = rules[K.R_TYPES + inv * K.CT_N + (K.CT_PENALTY)]
    best = K.A_VOTE_BLOOD
    best_v = -1e300
    for m in range(3):
        pay = rules[K.R_TYPES + inv * K.CT_N + (K.CT_PAYOFF_HUNTING if m == K.MOON_HUNTING else K.CT_PAYOFF)]
        k, tot = moon_left_nb(state, rules, m)
        p = k / tot if tot > 0 else 0.0
        ev = p * pay - (1.0 - p) * pen * injury_cost
        if ev > best_v:
            best_v = ev
            best = K.A_VOTE_BLOOD + m
    rc = rules[K.R_PARAMS + K.P_REFUSE_COST]
    if state[K.S_S_BLOOD + s] >= rc and state[K.S_S_BLOOD + s] >= 1 and -rc > best_v:
        return K.A_REFUSE
    return best


@njit_nb
def threshold_nb(state, rules, s, params, legal, n):
    a = _card_play_nb(state, rules, s, legal, n)
    if a >= 0:
        return a
    ph = state[K.S_PHASE]
    if ph == K.PH_VOTE:
        return _vote_one_step_nb(state, rules, s, params[2])
    if ph == K.PH_DECIDE:
        b = state[K.S_S_BLOOD + s]
        if _has(legal, n, K.A_RETIRE) and b > 0:
            if b >= params[0] or state[K.S_TRACK] >= rules[K.R_PARAMS + K.P_TRACK] - params[1]:
                return K.A_RETIRE
        return K.A_STAY
    return legal[0]


# =========================================================================== optimal stopping
@njit_nb
def dp_dims_nb(state, rules, s, span):
    """``(b_lo, NB, H1, L)`` of the DP tables for seat ``s``."""
    rc = rules[K.R_PARAMS + K.P_REFUSE_COST]
    b0 = state[K.S_S_BLOOD + s]
    b_lo = b0 - rc if b0 - rc > 0 else 0
    nb = b0 + span - b_lo + 1
    return b_lo, nb, state[K.S_S_HEALTH + s] + 1, rules[K.R_PARAMS + K.P_TRACK]


@njit_nb
def _ix(bi, h, p, h1, L):
    return (bi * h1 + h) * L + p


@njit_nb
def dp_solve_nb(state, rules, s, span, work, cls_kind, cls_val, cls_moon, cls_prob, inv_pay):
    """Fill ``work`` with V (block 0), A_moon (blocks 1-3) and Y_invitation (blocks 4..)
    for seat ``s``; returns the number of classes used (see the module docstring)."""
    b_lo, nb, h1, L = dp_dims_nb(state, rules, s, span)
    blk = nb * h1 * L
    if (4 + K.MAX_INVITES) * blk + 3 * L > work.shape[0]:
        return -1  # work too small (the Python face sizes it; never in practice)
    fav = state[K.S_S_GROUND + s]
    bonus = rules[K.R_PARAMS + K.P_FAV_BONUS]
    act = n_active_nb(state)
    q = 1.0 / act if act > 0 else 1.0
    # card classes: (kind, effective value, moon, invitation signature) with probabilities
    nc = 0
    ninv = 0
    tot = 0.0
    for t in range(rules[K.R_PARAMS + K.P_N_TYPES]):
        tot += state[K.S_TYPE_LEFT + t]
    for t in range(rules[K.R_PARAMS + K.P_N_TYPES]):
        cnt = state[K.S_TYPE_LEFT + t]
        if cnt == 0:
            continue
        kind = rules[K.R_TYPES + t * K.CT_N + (K.CT_KIND)]
        val = rules[K.R_TYPES + t * K.CT_N + (K.CT_VALUE)]
        if kind == K.K_FEEDING and rules[K.R_TYPES + t * K.CT_N + (K.CT_GROUND)] == fav:
            val += bonus
        if kind == K.K_INVITATION:  # value = index of its (payoff, payoff_hunting, penalty)
            pay = rules[K.R_TYPES + t * K.CT_N + (K.CT_PAYOFF)]
            payh = rules[K.R_TYPES + t * K.CT_N + (K.CT_PAYOFF_HUNTING)]
            pen = rules[K.R_TYPES + t * K.CT_N + (K.CT_PENALTY)]
            sig = -1
            for i in range(ninv):
                if inv_pay[i, 0] == pay and inv_pay[i, 1] == payh and inv_pay[i, 2] == pen:
                    sig = i
            if sig < 0:
                sig = ninv
                inv_pay[sig, 0] = pay
                inv_pay[sig, 1] = payh
                inv_pay[sig, 2] = pen
                ninv += 1
            val = sig
        moon = rules[K.R_TYPES + t * K.CT_N + (K.CT_MOON)]
        c = -1
        for i in range(nc):
            if cls_kind[i] == kind and cls_val[i] == val and cls_moon[i] == moon:
                c = i
        if c < 0:
            c = nc
            cls_kind[c] = kind
            cls_val[c] = val
            cls_moon[c] = moon
            cls_prob[c] = 0.0
            nc += 1
        cls_prob[c] += cnt / tot
    # order the classes: [0, n1) loop inside a layer (bead moves, the werewolf's misses,
    # feedings worth 0), [n1, n2) invitations, [n2, nc) leave the layer
    n1 = 0
    for c in range(nc):
        k = cls_kind[c]
        if k == K.K_SUN or k == K.K_LINGERS or k == K.K_WEREWOLF or (k == K.K_FEEDING and cls_val[c] == 0):
            _swap_cls(c, n1, cls_kind, cls_val, cls_moon, cls_prob)
            n1 += 1
    n2 = n1
    for c in range(n1, nc):
        if cls_kind[c] == K.K_INVITATION:
            _swap_cls(c, n2, cls_kind, cls_val, cls_moon, cls_prob)
            n2 += 1
    min_gain = 1
    for i in range(ninv):
        for j in range(3):
            if inv_pay[i, j] < min_gain:
                min_gain = inv_pay[i, j]
    ext = (4 + K.MAX_INVITES) * blk  # scratch after the tables: 3 x L external sums
    for bi in range(nb - 1, -1, -1):
        b = b_lo + bi
        # invitations leave the layer (a right vote pays, a wrong one injures) unless a
        # payoff or penalty is 0 or the blood cap folds the payoff back into this layer
        y_inside = min_gain == 0 or bi + min_gain >= nb
        for h in range(1, h1):
            # cards that leave the layer (more blood, less health) are read once ...
            for p in range(L):
                i0 = _ix(bi, h, p, h1, L)
                work[i0] = b  # start from "stop now"
                for i in range(ninv):
                    work[(4 + i) * blk + i0] = 0.0 if y_inside else \
                        _vote_values_nb(work, blk, bi, h, p, h1, L, nb, inv_pay, i, -1)
                work[ext + p] = 0.0
                work[ext + L + p] = 0.0
                work[ext + 2 * L + p] = 0.0
                for c in range(nc):
                    kind = cls_kind[c]
                    v = cls_val[c]
                    if kind == K.K_FEEDING and v > 0:
                        x = work[_ix(bi + v if bi + v < nb else nb - 1, h, p, h1, L)]
                    elif kind == K.K_SLAYER:
                        x = 0.0 if h - v <= 0 else work[_ix(bi, h - v, p, h1, L)]
                    elif kind == K.K_WEREWOLF:
                        x = 0.0 if h - v <= 0 else q * work[_ix(bi, h - v, p, h1, L)]
                    elif kind == K.K_INVITATION and not y_inside:
                        x = work[(4 + v) * blk + i0]
                    else:
                        continue
                    work[ext + cls_moon[c] * L + p] += cls_prob[c] * x
            # ... the bead's moves and the werewolf's misses loop inside the layer
            n_in = n2 if y_inside else n1
            for _sweep in range(1000):
                delta = 0.0
                for p in range(L - 1, -1, -1):
                    a0 = work[ext + p]
                    a1 = work[ext + L + p]
                    a2 = work[ext + 2 * L + p]
                    for c in range(n_in):
                        kind = cls_kind[c]
                        v = cls_val[c]
                        if kind == K.K_SUN:
                            x = 0.0 if p + v >= L else work[_ix(bi, h, p + v, h1, L)]
                        elif kind == K.K_LINGERS:
                            x = work[_ix(bi, h, p - v if p > v else 0, h1, L)]
                        elif kind == K.K_WEREWOLF:
                            x = (1.0 - q) * work[_ix(bi, h, p, h1, L)]
                        elif kind == K.K_INVITATION:
                            x = work[(4 + v) * blk + _ix(bi, h, p, h1, L)]
                        else:  # a feeding worth 0
                            x = work[_ix(bi, h, p, h1, L)]
                        m = cls_moon[c]
                        if m == 0:
                            a0 += cls_prob[c] * x
                        elif m == 1:
                            a1 += cls_prob[c] * x
                        else:
                            a2 += cls_prob[c] * x
                    i0 = _ix(bi, h, p, h1, L)
                    work[blk + i0] = a0
                    work[2 * blk + i0] = a1
                    work[3 * blk + i0] = a2
                    cont = a0 + a1 + a2
                    nv = cont if cont > b else float(b)
                    d = abs(nv - work[i0])
                    if d > delta:
                        delta = d
                    work[i0] = nv
                    if y_inside:
                        for i in range(ninv):
                            y = _vote_values_nb(work, blk, bi, h, p, h1, L, nb, inv_pay, i, -1)
                            j = (4 + i) * blk + i0
                            d = abs(y - work[j])
                            if d > delta:
                                delta = d
                            work[j] = y
                if delta < TOL:
                    break
    return nc


@njit_nb
def _swap_cls(a, b, cls_kind, cls_val, cls_moon, cls_prob):
    cls_kind[a], cls_kind[b] = cls_kind[b], cls_kind[a]
    cls_val[a], cls_val[b] = cls_val[b], cls_val[a]
    cls_moon[a], cls_moon[b] = cls_moon[b], cls_moon[a]
    cls_prob[a], cls_prob[b] = cls_prob[b], cls_prob[a]


@njit_nb
def _vote_values_nb(work, blk, bi, h, p, h1, L, nb, inv_pay, i, only):
    """Value of the pending invitation ``i`` at (bi, h, p): the best vote's (``only`` < 0),
    or vote ``only``'s (0 blood, 1 blue, 2 hunting moon)."""
    pen = inv_pay[i, 2]
    best = -1.0
    for v in range(3):
        if only >= 0 and v != only:
            continue
        pay = inv_pay[i, 1] if v == K.MOON_HUNTING else inv_pay[i, 0]
        b2 = bi + pay if bi + pay < nb else nb - 1
        tot = work[(1 + v) * blk + _ix(b2, h, p, h1, L)]
        for m in range(3):
            if m != v and h - pen > 0:
                tot += work[(1 + m) * blk + _ix(bi, h - pen, p, h1, L)]
        if tot > best:
            best = tot
    return best


@njit_nb
def _after_one_nb(rules, t, p, b, h, L, q, fav, bonus, b_hi):
    """Blood banked when card type ``t`` is drawn at (p, b, h) and the vampire then stops
    (an invitation counts 0: a lower bound).  Part of ``one_draw_bound_nb``."""
    base = K.R_TYPES + t * K.CT_N
    kind = rules[base + K.CT_KIND]
    v = rules[base + K.CT_VALUE]
    if kind == K.K_FEEDING:
        g = v + (bonus if rules[base + K.CT_GROUND] == fav else 0)
        return float(b + g if b + g < b_hi else b_hi)
    if kind == K.K_SUN:
        return 0.0 if p + v >= L else float(b)
    if kind == K.K_SLAYER:
        return 0.0 if h - v <= 0 else float(b)
    if kind == K.K_WEREWOLF:
        return (1.0 - q) * b if h - v <= 0 else float(b)
    if kind == K.K_LINGERS:
        return float(b)
    return 0.0  # a further invitation: counted as nothing


@njit_nb
def one_draw_bound_nb(state, rules, s, span):
    """A lower bound of the optimal player's continuation value at its state: the value of
    drawing once more and stopping as soon as allowed (the vote of a drawn invitation
    chosen by expectation).  When it beats stopping, the DP would say "stay" too."""
    L = rules[K.R_PARAMS + K.P_TRACK]
    p = state[K.S_TRACK]
    b = state[K.S_S_BLOOD + s]
    h = state[K.S_S_HEALTH + s]
    fav = state[K.S_S_GROUND + s]
    bonus = rules[K.R_PARAMS + K.P_FAV_BONUS]
    act = n_active_nb(state)
    q = 1.0 / act if act > 0 else 1.0
    b_hi = b + span
    nt = rules[K.R_PARAMS + K.P_N_TYPES]
    tot = 0.0
    for t in range(nt):
        tot += state[K.S_TYPE_LEFT + t]
    if tot == 0:
        return 0.0
    lb = 0.0
    for t in range(nt):
        cnt = state[K.S_TYPE_LEFT + t]
        if cnt == 0:
            continue
        base = K.R_TYPES + t * K.CT_N
        if rules[base + K.CT_KIND] != K.K_INVITATION:
            lb += cnt / tot * _after_one_nb(rules, t, p, b, h, L, q, fav, bonus, b_hi)
            continue
        pen = rules[base + K.CT_PENALTY]
        best = 0.0
        for vote in range(3):
            pay = rules[base + (K.CT_PAYOFF_HUNTING if vote == K.MOON_HUNTING else K.CT_PAYOFF)]
            x = 0.0
            for t2 in range(nt):
                c2 = state[K.S_TYPE_LEFT + t2]
                if c2 == 0:
                    continue
                if rules[K.R_TYPES + t2 * K.CT_N + K.CT_MOON] == vote:
                    b2 = b + pay if b + pay < b_hi else b_hi
                    x += c2 / tot * _after_one_nb(rules, t2, p, b2, h, L, q, fav, bonus, b_hi)
                elif h - pen > 0:
                    x += c2 / tot * _after_one_nb(rules, t2, p, b, h - pen, L, q, fav, bonus, b_hi)
            if x > best:
                best = x
        lb += cnt / tot * best
    return lb


@njit_nb
def optimal_nb(state, rules, s, params, legal, n, work, cls_kind, cls_val, cls_moon, cls_prob,
               inv_pay):
    a = _card_play_nb(state, rules, s, legal, n)
    if a >= 0:
        return a
    ph = state[K.S_PHASE]
    span = np.int64(params[0])
    if ph == K.PH_DECIDE:
        b = state[K.S_S_BLOOD + s]
        if not _has(legal, n, K.A_RETIRE) or b == 0:
            return K.A_STAY  # nothing to bank: continuing can only gain
        if one_draw_bound_nb(state, rules, s, span) > b + 1e-9:
            return K.A_STAY  # one more draw already beats stopping: so does the optimum
        if dp_solve_nb(state, rules, s, span, work, cls_kind, cls_val, cls_moon, cls_prob, inv_pay) < 0:
            return K.A_STAY
        b_lo, nb, h1, L = dp_dims_nb(state, rules, s, span)
        blk = nb * h1 * L
        i0 = _ix(b - b_lo, state[K.S_S_HEALTH + s], state[K.S_TRACK], h1, L)
        cont = work[blk + i0] + work[2 * blk + i0] + work[3 * blk + i0]
        return K.A_STAY if cont > b else K.A_RETIRE
    if ph == K.PH_VOTE:
        if dp_solve_nb(state, rules, s, span, work, cls_kind, cls_val, cls_moon, cls_prob, inv_pay) < 0:
            return K.A_VOTE_BLOOD
        b_lo, nb, h1, L = dp_dims_nb(state, rules, s, span)
        blk = nb * h1 * L
        inv = state[K.S_CARD]
        sig = 0
        for i in range(K.MAX_INVITES):
            if inv_pay[i, 0] == rules[K.R_TYPES + inv * K.CT_N + (K.CT_PAYOFF)] and \
                    inv_pay[i, 1] == rules[K.R_TYPES + inv * K.CT_N + (K.CT_PAYOFF_HUNTING)] and \
                    inv_pay[i, 2] == rules[K.R_TYPES + inv * K.CT_N + (K.CT_PENALTY)]:
                sig = i
                break
        b = state[K.S_S_BLOOD + s]
        h = state[K.S_S_HEALTH + s]
        p = state[K.S_TRACK]
        best = K.A_VOTE_BLOOD
        best_v = -1.0
        for v in range(3):
            x = _vote_values_nb(work, blk, b - b_lo, h, p, h1, L, nb, inv_pay, sig, v)
            if x > best_v:
                best_v = x
                best = K.A_VOTE_BLOOD + v
        if _has(legal, n, K.A_REFUSE):
            bi = b - rules[K.R_PARAMS + K.P_REFUSE_COST] - b_lo
            i0 = _ix(bi, h, p, h1, L)
            x = work[blk + i0] + work[2 * blk + i0] + work[3 * blk + i0]
            if x > best_v:
                best = K.A_REFUSE
        return best
    return legal[0]


# =========================================================================== dispatch
@njit_nb
def choose_nb(state, rules, policy, params, legal, n, work, cls_kind, cls_val, cls_moon,
              cls_prob, inv_pay):
    """The action of the player to move under ``policy`` with ``params`` (float64)."""
    if n == 1:
        return legal[0]
    s = state[K.S_DECIDER]
    if policy == POLICY_THRESHOLD:
        return threshold_nb(state, rules, s, params, legal, n)
    if policy == POLICY_OPTIMAL:
        return optimal_nb(state, rules, s, params, legal, n, work, cls_kind, cls_val, cls_moon,
                          cls_prob, inv_pay)
    return legal[randint_nb(state, K.STREAM_POLICY, n)]
