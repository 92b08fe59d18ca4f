"""The optimal-stopping player's first dynamic-programme solve, kept as a test oracle.

This is the solve the ``optimal`` policy used before its vectorised rewrite
(``simlib.games.till_dawn.kernels.policies_nb.dp_solve_nb``): card classes of (kind,
value, moon) read one by one at every table cell, Gauss-Seidel sweeps per (blood, health)
layer.  Same model, same tables, same layout (blocks V, A_blood, A_blue, A_hunting,
Y_invitation); the tests check that the new solve's tables equal these on random states
and that a player using either takes the same decisions.
"""
from __future__ import annotations

import numpy as np

from simlib.core.jit import njit_nb
from simlib.games.till_dawn import codes as K
from simlib.games.till_dawn.kernels.engine_nb import n_active_nb
from simlib.games.till_dawn.kernels.policies_nb import (_card_play_nb, _has, _ix, dp_dims_nb,
                                                        one_draw_bound_nb)

TOL = 1e-10


@njit_nb
def reference_solve_nb(state, rules, s, span, work, cls_kind, cls_val, cls_moon, cls_prob, inv_pay):
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
                        _ref_vote_values_nb(work, blk, bi, h, p, h1, L, nb, inv_pay, i, -1)
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
                            y = _ref_vote_values_nb(work, blk, bi, h, p, h1, L, nb, inv_pay, i, -1)
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
def _ref_vote_values_nb(work, blk, bi, h, p, h1, L, nb, inv_pay, i, only):
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
def reference_optimal_nb(state, rules, s, params, legal, n, work, cls_kind, cls_val, cls_moon,
                         cls_prob, inv_pay):
    """The optimal player's choice with the reference solve (same shortcut, same reading)."""
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
        if reference_solve_nb(state, rules, s, span, work, cls_kind, cls_val, cls_moon, cls_prob,
                              inv_pay) < 0:
            return K.A_STAY
        b_lo, nb, h1, L = dp_dims_nb(state, rules, s, span)
        blk = nb * h1 * L
        i0 = _ix(b - b_lo, state[K.S_S_HEALTH + s], state[K.S_TRACK], h1, L)
        cont = work[blk + i0] + work[2 * blk + i0] + work[3 * blk + i0]
        return K.A_STAY if cont > b else K.A_RETIRE
    if ph == K.PH_VOTE:
        if reference_solve_nb(state, rules, s, span, work, cls_kind, cls_val, cls_moon, cls_prob,
                              inv_pay) < 0:
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
            x = _ref_vote_values_nb(work, blk, b - b_lo, h, p, h1, L, nb, inv_pay, sig, v)
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
