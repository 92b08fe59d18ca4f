"""Teacher games for the distilled policy (``simlib train-policy --game till-dawn``,
``distil.py``): the seats play their own policies, and at every stop-or-stay decision and
every vote of a labelled seat the distilled policy's features are written down with the
optimal player's values of each action (its exact dynamic programme, ``policies_nb``).

The features are read through ``policies_nb.decide_features_nb`` and
``vote_features_nb``, the very functions the policy scores with: the fit sees what the
policy scores, with no second copy of their code to drift.
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_alloc_nb
from ....core.rng import game_key_nb
from .. import codes as K
from .engine_nb import advance_nb, apply_action_nb, init_state_nb, legal_actions_nb, record_nb
from .policies_nb import (
    N_DECIDE,
    N_VOTE,
    OPT_REFUSE,
    _card_play_nb,
    _has,
    _ix,
    _vote_value_nb,
    choose_nb,
    decide_features_nb,
    dp_dims_nb,
    dp_solve_nb,
    vote_features_nb,
)

# the columns of a recorded stop-or-stay decision's ``dec_v`` row
DV_GAIN = 0  # the teacher's value of staying minus the blood it would bank now
DV_PLAYED = 1  # 1: the seat's own policy stayed
DV_BASELINE = 2  # 1: the baseline (``base_policy``) would stay
DV_SEAT = 3
N_DV = 4
# a recorded vote: ``vote_v[j, o]`` the teacher's value of option o (-inf: not legal);
# ``vote_m[j]``: the option the seat's own policy took, the baseline's, the seat
VM_PLAYED = 0
VM_BASELINE = 1
VM_SEAT = 2
N_VM = 3


@njit_alloc_nb(entry=True)
def teacher_game_nb(rules, seed, game, players, chars, seat_policy, seat_params, label_mask,
                    span, wsize, base_policy, base_params, dec_x, dec_v, vote_x, vote_v, vote_m,
                    rec):
    """Play game ``game`` of ``seed`` (``players``, ``chars`` a characters row, -1 first: a
    random team; ``seat_policy`` int64 (MAX_SEATS,), ``seat_params`` float64 (MAX_SEATS, k))
    and write down the decisions of the seats with ``label_mask[s]`` = 1 where the teacher
    and the distilled policy judge (a stop-or-stay decision with unbanked blood where
    retiring is legal and no card is to be played; a vote): the features, the optimal
    player's values (blood cap ``span``; ``wsize`` its tables' floats) and the choices of the
    seat's policy and of ``base_policy``.  Rows past the arrays' length are played, not
    written.  ``rec``: the game's record.  Returns ``(stop-or-stay rows, vote rows)``."""
    state = np.zeros(K.S_SIZE, dtype=np.int64)
    legal = np.zeros(K.N_ACTIONS, dtype=np.int64)
    work = np.zeros(wsize, dtype=np.float64)
    cls_kind = np.zeros(K.MAX_TYPES, dtype=np.int64)
    cls_val = np.zeros(K.MAX_TYPES, dtype=np.int64)
    cls_moon = np.zeros(K.MAX_TYPES, dtype=np.int64)
    cls_prob = np.zeros(K.MAX_TYPES, dtype=np.float64)
    inv_pay = np.zeros((K.MAX_INVITES, 3), dtype=np.int64)
    log = np.zeros((1, K.LOG_W), dtype=np.int64)
    buf = np.zeros(max(N_DECIDE, N_VOTE), dtype=np.float64)
    init_state_nb(state, rules, players, chars, game_key_nb(seed, game), log)
    advance_nb(state, rules, log)
    nd = 0
    nv = 0
    while state[K.S_OVER] == 0:
        n = legal_actions_nb(state, rules, legal)
        s = state[K.S_DECIDER]
        ph = state[K.S_PHASE]
        a = choose_nb(state, rules, seat_policy[s], seat_params[s], legal, n, work, cls_kind,
                      cls_val, cls_moon, cls_prob, inv_pay)
        if label_mask[s] == 1 and n > 1 and _card_play_nb(state, rules, s, legal, n) < 0:
            ab = choose_nb(state, rules, base_policy, base_params, legal, n, work, cls_kind,
                           cls_val, cls_moon, cls_prob, inv_pay)
            b = state[K.S_S_BLOOD + s]
            if ph == K.PH_DECIDE and b > 0 and _has(legal, n, K.A_RETIRE):
                b_lo, nb, h1, L = dp_dims_nb(state, rules, s, span)
                if nd < dec_x.shape[0] and dp_solve_nb(state, rules, s, span, work, cls_kind,
                                                       cls_val, cls_moon, cls_prob, inv_pay,
                                                       b - b_lo) >= 0:
                    blk = nb * h1 * L
                    i0 = _ix(b - b_lo, state[K.S_S_HEALTH + s], state[K.S_TRACK], h1, L)
                    decide_features_nb(state, rules, s, buf)
                    for i in range(N_DECIDE):
                        dec_x[nd, i] = buf[i]
                    dec_v[nd, DV_GAIN] = work[blk + i0] + work[2 * blk + i0] + \
                        work[3 * blk + i0] - b
                    dec_v[nd, DV_PLAYED] = 1.0 if a == K.A_STAY else 0.0
                    dec_v[nd, DV_BASELINE] = 1.0 if ab == K.A_STAY else 0.0
                    dec_v[nd, DV_SEAT] = s
                    nd += 1
            elif ph == K.PH_VOTE:
                if nv < vote_x.shape[0] and dp_solve_nb(state, rules, s, span, work, cls_kind,
                                                        cls_val, cls_moon, cls_prob, inv_pay,
                                                        0) >= 0:
                    b_lo, nb, h1, L = dp_dims_nb(state, rules, s, span)
                    blk = nb * h1 * L
                    base = K.R_TYPES + state[K.S_CARD] * K.CT_N
                    h = state[K.S_S_HEALTH + s]
                    p = state[K.S_TRACK]
                    for o in range(OPT_REFUSE + 1):
                        vote_features_nb(state, rules, s, o, buf)
                        for i in range(N_VOTE):
                            vote_x[nv, o, i] = buf[i]
                        if o < OPT_REFUSE:
                            vote_v[nv, o] = _vote_value_nb(
                                work, blk, b - b_lo, h, p, h1, L, nb, rules[base + K.CT_PAYOFF],
                                rules[base + K.CT_PAYOFF_HUNTING], rules[base + K.CT_PENALTY], o)
                        elif _has(legal, n, K.A_REFUSE):
                            i0 = _ix(b - rules[K.R_PARAMS + K.P_REFUSE_COST] - b_lo, h, p, h1, L)
                            vote_v[nv, o] = work[blk + i0] + work[2 * blk + i0] + \
                                work[3 * blk + i0]
                        else:
                            vote_v[nv, o] = -np.inf
                    vote_m[nv, VM_PLAYED] = a - K.A_VOTE_BLOOD
                    vote_m[nv, VM_BASELINE] = ab - K.A_VOTE_BLOOD
                    vote_m[nv, VM_SEAT] = s
                    nv += 1
        apply_action_nb(state, rules, a, log)
    record_nb(state, rules, game, rec)
    return nd, nv
